"""The ontology's documentation: one HTML page from ``ontology/`` (Jinja2), made by the build.

Every class and property with its labels (zh-Hant, zh-Hans, pinyin, English), definition,
superclasses or domain and range; every individual (roles, objects, places, directions) with
its class. Anchors are the local names, so ``/ontology#Bai`` points at 拜.
(pyLODE 3.4+ fails at import here, 3.3 renders but pins old rdflib: a template is simpler.)
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from jinja2 import Template
from rdflib import OWL, RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import SKOS

from yili_kg.loaders.built import atomic_write
from yili_kg.loaders.iris import YL

PREFIXES = {str(YL): "yl:", "https://w3id.org/yili/id/": "id:"}


def _label(graph: Graph, node, language: str) -> str:
    for label in graph.objects(node, RDFS.label):
        if isinstance(label, Literal) and (label.language or "").lower() == language.lower():
            return str(label)
    return ""


def _curie(node) -> str:
    text = str(node)
    for ns, prefix in PREFIXES.items():
        if text.startswith(ns):
            return prefix + text[len(ns) :]
    return text


def _anchor(node) -> str:
    return str(node).rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _term(graph: Graph, node, facts: list[tuple[str, str]]) -> dict:
    alt = "、".join(sorted(str(a) for a in graph.objects(node, SKOS.altLabel)))
    definitions = [str(d) for d in graph.objects(node, SKOS.definition)]
    return {
        "anchor": _anchor(node),
        "curie": _curie(node),
        "zh": _label(graph, node, "zh-Hant"),
        "hans": _label(graph, node, "zh-Hans"),
        "pinyin": _label(graph, node, "zh-Latn-pinyin"),
        "en": _label(graph, node, "en"),
        "alt": alt,
        "definition": " ".join(definitions),
        "facts": [(k, v) for k, v in facts if v],
    }


def _stating(graph: Graph, frame, value: bool) -> list:
    """The terms that state a verb frame ``true`` (or ``false``)."""
    return [t for t, v in graph.subject_objects(frame) if getattr(v, "toPython", str)() is value]


def _names(graph: Graph, nodes) -> str:
    return "、".join(sorted((_label(graph, n, "zh-Hant") or _curie(n)) for n in nodes))


def render(ontology: Graph) -> str:

    template = Template(
        resources.files("yili_kg.ontology").joinpath("documentation.html.j2").read_text("utf-8")
    )
    ours = [n for n in set(ontology.subjects(RDF.type, OWL.Class)) if str(n).startswith(str(YL))]
    actions = set(ontology.transitive_subjects(RDFS.subClassOf, YL.Action)) - {YL.Action}
    classes = sorted((n for n in ours if n not in actions), key=str)
    props = sorted(
        (
            n
            for n in set(ontology.subjects(RDF.type, OWL.ObjectProperty))
            | set(ontology.subjects(RDF.type, OWL.DatatypeProperty))
            if str(n).startswith(str(YL))
        ),
        key=str,
    )
    frames = sorted(
        (
            n
            for n in ontology.subjects(RDF.type, OWL.AnnotationProperty)
            if str(n).startswith(str(YL))
        ),
        key=str,
    )
    individuals = sorted(
        {
            s
            for c in (YL.Role, YL.RitualObject, YL.Place, YL.Direction)
            for s in ontology.subjects(RDF.type, c)
        },
        key=str,
    )

    def supers(node):
        return _names(
            ontology, [o for o in ontology.objects(node, RDFS.subClassOf) if isinstance(o, URIRef)]
        )

    sections = [
        ("classes", "Classes", [_term(ontology, c, [("subclass of", supers(c))]) for c in classes]),
        (
            "actions",
            "Kinds of action (行事之類)",
            [_term(ontology, c, [("subclass of", supers(c))]) for c in sorted(actions, key=str)],
        ),
        (
            "properties",
            "Properties",
            [
                _term(
                    ontology,
                    p,
                    [
                        ("domain", _names(ontology, ontology.objects(p, RDFS.domain))),
                        ("range", _names(ontology, ontology.objects(p, RDFS.range))),
                        ("inverse of", _names(ontology, ontology.objects(p, OWL.inverseOf))),
                        (
                            "sub-property of",
                            _names(ontology, ontology.objects(p, RDFS.subPropertyOf)),
                        ),
                    ],
                )
                for p in props
            ],
        ),
        (
            "frames",
            "Verb frames (annotation properties the annotator reads; docs/annotation.md)",
            [
                _term(
                    ontology,
                    f,
                    [
                        ("what it says", " ".join(map(str, ontology.objects(f, RDFS.comment)))),
                        ("stated on", _names(ontology, _stating(ontology, f, True))),
                        ("denied on", _names(ontology, _stating(ontology, f, False))),
                    ],
                )
                for f in frames
            ],
        ),
        (
            "individuals",
            "Individuals (roles, objects, places, directions)",
            [
                _term(
                    ontology,
                    i,
                    [
                        (
                            "a",
                            _names(
                                ontology,
                                [
                                    t
                                    for t in ontology.objects(i, RDF.type)
                                    if str(t).startswith(str(YL))
                                ],
                            ),
                        )
                    ],
                )
                for i in individuals
            ],
        ),
    ]
    meta = URIRef("https://w3id.org/yili/ontology")
    return template.render(
        title=_label(ontology, meta, "en") or "yili-kg ontology",
        description=str(ontology.value(meta, URIRef("http://purl.org/dc/terms/description"))),
        namespace=str(YL),
        version=str(ontology.value(meta, OWL.versionInfo)),
        counts={
            "classes": len(classes) + len(actions),
            "properties": len(props),
            "individuals": len(individuals),
        },
        sections=sections,
    )


def write_documentation(ontology: Graph, path: Path) -> Path:

    html = render(ontology)
    atomic_write(path, lambda h: h.write(html))
    return path
