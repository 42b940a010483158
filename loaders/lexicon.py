"""The annotator's vocabulary, read from the ontology's labels (no second list in Python).

Every action class, role, ritual object, place and direction has a zh-Hant ``rdfs:label``
(its canonical form) and may have ``skos:altLabel``s (other forms: 荅拜 for 答拜, 復位 for
反位). The lexicon maps every form to its canonical label and category, and each canonical
label to its IRI, so that annotation records can be written and reviewed in the text's own
words and still resolve to exactly one term.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from rdflib import OWL, RDF, RDFS, Graph, URIRef
from rdflib.namespace import SKOS

from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.iris import YL

CATEGORIES = ("action", "role", "object", "place", "direction")


@dataclass(frozen=True)
class Lexicon:
    """Forms and terms by category.

    ``forms[category][form]`` is the canonical label; ``iri[category][label]`` the term;
    ``parents[label]`` the labels of an action class's superclasses (transitively).
    """

    forms: dict[str, dict[str, str]]
    iri: dict[str, dict[str, URIRef]]
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    role_classes: dict[str, frozenset[str]] = field(default_factory=dict)  # role → class labels

    def resolve(self, category: str, label: str) -> URIRef:
        """The IRI of a canonical label or any of its forms, or a clear error."""
        canonical = self.forms[category].get(label)
        if canonical is None:
            raise KeyError(f"no {category} labelled {label!r} in the ontology")
        return self.iri[category][canonical]

    def is_a(self, label: str, ancestor: str) -> bool:
        """Whether the action class ``label`` is ``ancestor`` or a subclass of it."""
        return label == ancestor or ancestor in self.parents.get(label, frozenset())


def _zh(graph: Graph, node, prop) -> list[str]:
    return [
        str(o)
        for o in graph.objects(node, prop)
        if getattr(o, "language", None) and o.language.lower() == "zh-hant"
    ]


def build_lexicon(graph: Graph) -> Lexicon:
    """The lexicon of an ontology graph (see the module docstring)."""
    members: dict[str, set] = {c: set() for c in CATEGORIES}
    action_classes = set(graph.transitive_subjects(RDFS.subClassOf, YL.Action)) - {YL.Action}
    members["action"] = {c for c in action_classes if (c, RDF.type, OWL.Class) in graph}
    members["role"] = set(graph.subjects(RDF.type, YL.Role))
    members["object"] = set(graph.subjects(RDF.type, YL.RitualObject))
    members["place"] = set(graph.subjects(RDF.type, YL.Place))
    members["direction"] = set(graph.subjects(RDF.type, YL.Direction))
    forms: dict[str, dict[str, str]] = {c: {} for c in CATEGORIES}
    iri: dict[str, dict[str, URIRef]] = {c: {} for c in CATEGORIES}
    for category, nodes in members.items():
        for node in sorted(nodes):
            labels = _zh(graph, node, RDFS.label)
            if len(labels) != 1:
                raise _ontology_error(
                    node, f"{node} needs exactly one zh-Hant rdfs:label, has {labels}"
                )
            label = labels[0]
            if label in iri[category] and iri[category][label] != node:
                raise _ontology_error(
                    node,
                    f"two {category} terms labelled {label!r}: {iri[category][label]} and {node}",
                )
            iri[category][label] = node
            forms[category][label] = label
        for node in sorted(nodes):
            label = _zh(graph, node, RDFS.label)[0]
            for alt in _zh(graph, node, SKOS.altLabel):
                if forms[category].get(alt, label) != label:
                    raise SourceError("ontology", f"{category} form {alt!r} belongs to two terms")
                forms[category].setdefault(alt, label)
    parents: dict[str, frozenset[str]] = {}
    label_of = {node: label for label, node in iri["action"].items()}
    for label, node in iri["action"].items():
        ancestors = set(graph.transitive_objects(node, RDFS.subClassOf)) - {node}
        parents[label] = frozenset(label_of[a] for a in ancestors if a in label_of)
    role_classes = {}
    for label, node in iri["role"].items():
        classes = {
            c for c in graph.objects(node, RDF.type) if c not in (YL.Role, OWL.NamedIndividual)
        }
        role_classes[label] = frozenset(
            str(lab) for c in classes for lab in _zh(graph, c, RDFS.label)
        )
    return Lexicon(forms, iri, parents, role_classes)


@cache
def default_lexicon() -> Lexicon:
    from yili_kg.loaders.ontology import parse_modules

    return build_lexicon(parse_modules())


def _ontology_error(node, message: str) -> SourceError:
    """An error about a term, naming the module and line that state it where they can be found."""
    from yili_kg.loaders.build import locate

    place = locate(str(node))
    if place:
        path, _, line = place.rpartition(":")
        return SourceError(path, message, int(line))
    return SourceError("ontology", message)
