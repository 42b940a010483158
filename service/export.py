"""Export the built dataset: Turtle, N-Triples, N-Quads, TriG, JSON-LD, RDF/XML, per graph.

The VoID/DCAT description (graph ``meta``) is part of every export: kept as a named graph in
the quad formats, merged into the triples otherwise. Oxigraph writes every syntax but
JSON-LD (tens of times faster than rdflib); rdflib writes JSON-LD, compacted with the
published context (``service/context.jsonld``) so that the output reads as plain JSON.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

from rdflib import Dataset

from yili_kg.loaders.dataset import GRAPH_META, GRAPHS
from yili_kg.loaders.errors import YiliError

FORMATS = {
    "ttl": ("turtle", "text/turtle"),
    "nt": ("nt", "application/n-triples"),
    "nq": ("nquads", "application/n-quads"),
    "trig": ("trig", "application/trig"),
    "jsonld": ("json-ld", "application/ld+json"),
    "xml": ("xml", "application/rdf+xml"),
}
QUAD_FORMATS = {"nq", "trig"}
GRAPH_CHOICES = ("asserted", "inferred", "ontology", "all")
PREFIXES = {
    "yl": "https://w3id.org/yili/ontology#",
    "id": "https://w3id.org/yili/id/",
    "role": "https://w3id.org/yili/id/role/",
    "object": "https://w3id.org/yili/id/object/",
    "place": "https://w3id.org/yili/id/place/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "oa": "http://www.w3.org/ns/oa#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "void": "http://rdfs.org/ns/void#",
    "dcat": "http://www.w3.org/ns/dcat#",
    "crm": "http://www.cidoc-crm.org/cidoc-crm/",
}


@cache
def jsonld_context() -> dict:
    """The published JSON-LD context (``service/context.jsonld``)."""
    text = resources.files("yili_kg.service").joinpath("context.jsonld").read_text(encoding="utf-8")
    return json.loads(text)


def load_dataset(path: Path) -> Dataset:
    """The dataset file in rdflib (every named graph; queries see their union)."""
    ds = Dataset(default_union=True)
    with open(path, "rb") as handle:  # rdflib leaves a file it opened itself unclosed
        ds.parse(file=handle, format="nquads")
    return ds


def _selected(graph: str) -> list[str]:
    if graph not in GRAPH_CHOICES:
        raise YiliError(f"unknown graph {graph!r}: choose one of {', '.join(GRAPH_CHOICES)}")
    names = list(GRAPHS) if graph == "all" else [graph]
    return [str(GRAPHS[name]) for name in names] + [str(GRAPH_META)]


def export(dataset_path: Path, fmt: str, graph: str = "all") -> bytes:
    """The dataset (or one of its graphs, with the description) in a format of FORMATS."""
    import pyoxigraph as ox

    if fmt not in FORMATS:
        raise YiliError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    wanted = set(_selected(graph))
    quads = [
        q
        for q in ox.parse(path=str(dataset_path), format=ox.RdfFormat.N_QUADS)
        if q.graph_name.value in wanted
    ]
    if fmt == "jsonld":
        return _jsonld(quads)
    store = ox.Store()
    if fmt in QUAD_FORMATS:
        store.extend(quads)
        rdf_format = ox.RdfFormat.N_QUADS if fmt == "nq" else ox.RdfFormat.TRIG
        return store.dump(format=rdf_format, prefixes=PREFIXES if fmt == "trig" else None)
    store.extend(ox.Quad(q.subject, q.predicate, q.object, ox.DefaultGraph()) for q in quads)
    rdf_format = {
        "ttl": ox.RdfFormat.TURTLE,
        "nt": ox.RdfFormat.N_TRIPLES,
        "xml": ox.RdfFormat.RDF_XML,
    }[fmt]
    return store.dump(
        format=rdf_format,
        from_graph=ox.DefaultGraph(),
        prefixes=PREFIXES if fmt in ("ttl", "xml") else None,
    )


def _jsonld(quads) -> bytes:
    """JSON-LD through rdflib, compacted with the published context."""
    from rdflib import Graph

    graph = Graph()
    data = "".join(f"{q.subject} {q.predicate} {q.object} .\n" for q in quads)
    graph.parse(data=data, format="nt")
    return graph.serialize(format="json-ld", context=jsonld_context()["@context"], encoding="utf-8")
