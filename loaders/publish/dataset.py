"""The dataset file: every stage's triples in its named graph, plus a VoID/DCAT description.

Written as N-Quads straight from the stages' N-Triples (a line each, the graph IRI added), so
that writing costs no parsing. The description (graph ``…/graph/meta``) gives triple counts
per graph, the classes and properties used, the licence and the sources.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections import Counter
from importlib import metadata
from pathlib import Path

import pyoxigraph as ox
from rdflib import RDF, XSD, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCAT, DCTERMS, FOAF, VOID

from yili_kg.loaders.built import atomic_write
from yili_kg.loaders.corpus import read_manifest
from yili_kg.loaders.graph.rdf import CHAPTERS, RITES
from yili_kg.loaders.iris import DATASET, GRAPH_ASSERTED, GRAPH_INFERRED, GRAPH_ONTOLOGY, YL

GRAPH_META = URIRef("https://w3id.org/yili/graph/meta")
GRAPHS = {"ontology": GRAPH_ONTOLOGY, "asserted": GRAPH_ASSERTED, "inferred": GRAPH_INFERRED}
SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
LICENCE = URIRef("https://creativecommons.org/licenses/by-sa/4.0/")
ATTRIBUTION = (
    "Texts: Kanseki Repository (kanripo.org), texts KR1d0028 and KR1d0026, CC BY-SA 4.0; "
    "underlying works public domain. Annotations and ontology: yili-kg, CC BY-SA 4.0."
)
_TYPE = f"<{RDF.type}>"
# the stages' lines are handled as UTF-8 bytes: sorted bytewise they are in code point order,
# the order a sort of the decoded lines gives, at a fraction of the cost
_TYPE_BYTES = _TYPE.encode()
_TRIPLE = re.compile(rb"^(\S+) (\S+) (.*) \.\s*$")


def _scan(lines) -> tuple[Counter, Counter]:
    """Entities per class (distinct subjects) and triples per property, over the distinct
    triples of ``lines`` (N-Triples lines as bytes; the union default graph counts a triple
    once)."""
    members: dict[bytes, set] = {}
    properties: Counter = Counter()
    for line in set(lines):
        match = _TRIPLE.match(line)
        if not match:
            continue
        properties[match.group(2)] += 1
        if match.group(2) == _TYPE_BYTES:
            members.setdefault(match.group(3), set()).add(match.group(1))
    return (
        Counter({cls.decode(): len(subjects) for cls, subjects in members.items()}),
        Counter({prop.decode(): count for prop, count in properties.items()}),
    )


PROJECT = URIRef("https://w3id.org/yili/id/agent/yili-kg")


def describe(
    counts: dict[str, int],
    classes: Counter,
    properties: Counter,
    version: str,
    rites: tuple[str, ...] | list[str] = (),
) -> Graph:
    """The VoID + DCAT description of the dataset: what it holds and where it comes from.

    What depends on how it is served (the endpoint's URL, the download URLs, sizes and
    checksums, dates) is added per request by :mod:`yili_kg.service.catalog`.
    """

    g = Graph()
    g.bind("void", VOID)
    g.bind("dcat", DCAT)
    g.bind("dcterms", DCTERMS)
    d = DATASET
    names = [RITES[slug] for slug in rites if slug in RITES] or [RITES["xiangshe"]]
    chinese = "、".join(name[0] for name in names)
    english = ", ".join(f"{name[0]} ({name[3]})" for name in names)
    g.add((d, RDF.type, VOID.Dataset))
    g.add((d, RDF.type, DCAT.Dataset))
    g.add((d, DCTERMS.title, Literal(f"儀禮知識圖譜 yili-kg: {chinese}", lang="zh-Hant")))
    g.add((d, DCTERMS.title, Literal("yili-kg: a knowledge graph of the Yili", lang="en")))
    g.add(
        (
            d,
            DCTERMS.description,
            Literal(
                f"Every clause of the 儀禮 chapters {english} as events (who does what, to "
                "whom, with what, where, facing which way, in which phase), with its commentary "
                "(注, 疏, 音義, 考證), traced to the characters of the text.",
                lang="en",
            ),
        )
    )
    for names_of in names:
        g.add((d, DCAT.keyword, Literal(names_of[0], lang="zh-Hant")))
    g.add((d, DCAT.keyword, Literal("儀禮", lang="zh-Hant")))
    g.add((d, DCTERMS.license, LICENCE))
    g.add((d, DCTERMS.rights, Literal(ATTRIBUTION, lang="en")))
    g.add((d, DCTERMS.creator, PROJECT))
    g.add((d, DCTERMS.publisher, PROJECT))
    g.add((PROJECT, RDF.type, FOAF.Organization))
    g.add((PROJECT, FOAF.name, Literal("yili-kg")))
    g.add((PROJECT, FOAF.homepage, URIRef("https://w3id.org/yili/")))
    g.add((d, DCTERMS.hasVersion, Literal(version)))
    g.add((d, URIRef(f"{DCAT}version"), Literal(version)))  # DCAT 3 (rdflib knows DCAT 2)
    g.add((d, VOID.uriSpace, Literal("https://w3id.org/yili/id/")))
    g.add((d, VOID.vocabulary, URIRef(str(YL))))
    g.add((d, VOID.triples, Literal(sum(counts.values()), datatype=XSD.integer)))
    g.add((d, FOAF.homepage, URIRef("https://w3id.org/yili/")))
    g.add((d, DCAT.landingPage, URIRef("https://w3id.org/yili/")))
    for entry in read_manifest().values():
        # the witness itself (edition, licence) is described in the asserted graph: only the
        # link here, so that no triple is in two graphs
        g.add((d, DCTERMS.source, URIRef(f"https://w3id.org/yili/id/witness/{entry.witness}")))
    for name, iri in GRAPHS.items():
        if name not in counts:
            continue
        g.add((d, VOID.subset, iri))
        g.add((iri, RDF.type, VOID.Dataset))
        g.add((iri, RDF.type, SD.NamedGraph))
        g.add((iri, DCTERMS.title, Literal(f"{name} graph", lang="en")))
        g.add((iri, VOID.triples, Literal(counts[name], datatype=XSD.integer)))
    # partitions named by their class or property, not by row order (stable across builds)
    for term, count in sorted(classes.items()):
        node = URIRef(f"{DATASET}/class/{_slug(term)}")
        g.add((d, VOID.classPartition, node))
        g.add((node, VOID["class"], URIRef(term.strip("<>"))))
        g.add((node, VOID.entities, Literal(count, datatype=XSD.integer)))
    for term, count in sorted(properties.items()):
        node = URIRef(f"{DATASET}/property/{_slug(term)}")
        g.add((d, VOID.propertyPartition, node))
        g.add((node, VOID.property, URIRef(term.strip("<>"))))
        g.add((node, VOID.triples, Literal(count, datatype=XSD.integer)))
    return g


def _slug(term: str) -> str:
    """A stable IRI segment for a class or property: a short hash of its IRI."""

    return hashlib.sha256(term.strip("<>").encode()).hexdigest()[:16]


def write_dataset(path: Path, stage_dir: Path, stages) -> dict[str, int]:
    """Write the N-Quads dataset from the stage files; return triple counts per graph."""

    per_graph: dict[str, list[bytes]] = {}
    for stage in stages:
        lines = (stage_dir / f"{stage.name}.nt").read_bytes().split(b"\n")
        per_graph.setdefault(stage.graph, []).extend(line for line in lines if line.strip())
    counts = {}
    for name, lines in per_graph.items():
        unique = sorted(set(lines))  # stages may state the same triple twice
        per_graph[name] = unique
        counts[name] = len(unique)
    classes, properties = _scan([line for lines in per_graph.values() for line in lines])

    rite_line = f"{_TYPE} <{YL}Rite> .".encode()
    rites = sorted(
        (
            line.split(b" ", 1)[0].decode().strip("<>").rsplit("/", 1)[-1]
            for line in per_graph.get("asserted", [])
            if line.rstrip().endswith(rite_line)
        ),
        key=lambda slug: CHAPTERS.get(slug, 99),
    )
    meta = describe(counts, classes, properties, metadata.version("yili-kg"), rites)
    meta_lines = sorted(meta.serialize(format="nt").splitlines())
    counts["meta"] = len([line for line in meta_lines if line.strip()])

    def write(handle) -> None:
        for name, lines in per_graph.items():
            suffix = f" <{GRAPHS[name]}> .\n".encode()
            handle.writelines(line.rstrip()[:-1].rstrip() + suffix for line in lines)
        for line in meta_lines:
            if line.strip():
                handle.write((line.rstrip()[:-1].rstrip() + f" <{GRAPH_META}> .\n").encode())

    atomic_write(path, write, binary=True)
    return counts


def persist_oxigraph(build_dir: Path, dataset: Path, sha256: str) -> Path:
    """Load the dataset into an on-disk Oxigraph store under ``build/oxigraph`` (atomically).

    The service opens it read-only, which takes milliseconds, instead of parsing the N-Quads.
    """

    target = build_dir / "oxigraph"
    tmp = Path(tempfile.mkdtemp(prefix=".oxigraph.", dir=build_dir))
    try:
        store = ox.Store(str(tmp / "db"))
        store.bulk_load(path=str(dataset), format=ox.RdfFormat.N_QUADS)
        store.flush()
        del store
        (tmp / "db" / "BUILD").write_text(sha256)
        old = build_dir / ".oxigraph.old"
        if old.exists():
            shutil.rmtree(old)
        if target.exists():
            target.rename(old)
        (tmp / "db").rename(target)
        if old.exists():
            shutil.rmtree(old)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target
