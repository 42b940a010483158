"""Export the built dataset: Turtle, N-Triples, N-Quads, TriG, JSON-LD, RDF/XML, per graph.

The VoID/DCAT description (graph ``meta``) is part of every export: added as a named graph
in the quad formats, merged into the triples otherwise.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

from rdflib import Dataset, Graph

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
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
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
    ds = Dataset(default_union=True)  # queries see every named graph, as on Oxigraph
    with open(path, "rb") as handle:  # rdflib leaves a file it opened itself unclosed
        ds.parse(file=handle, format="nquads")
    return ds


def select(ds: Dataset, graph: str) -> Dataset | Graph:
    """The part of the dataset to export, with the description always included."""
    if graph not in GRAPH_CHOICES:
        raise YiliError(f"unknown graph {graph!r}: choose one of {', '.join(GRAPH_CHOICES)}")
    names = list(GRAPHS) if graph == "all" else [graph]
    out = Dataset()
    for prefix, ns in PREFIXES.items():
        out.bind(prefix, ns)
    for name in names:
        target = out.graph(GRAPHS[name])
        for triple in ds.graph(GRAPHS[name]):
            target.add(triple)
    meta = out.graph(GRAPH_META)
    for triple in ds.graph(GRAPH_META):
        meta.add(triple)
    return out


def serialise(ds: Dataset, fmt: str, graph: str = "all") -> bytes:
    """The dataset (or one graph of it) in a format of :data:`FORMATS`."""
    if fmt not in FORMATS:
        raise YiliError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    part = select(ds, graph)
    rdflib_format = FORMATS[fmt][0]
    if fmt in QUAD_FORMATS:
        return part.serialize(format=rdflib_format, encoding="utf-8")
    merged = Graph()
    for prefix, ns in PREFIXES.items():
        merged.bind(prefix, ns)
    for s, p, o, _g in part.quads((None, None, None, None)):
        merged.add((s, p, o))
    if fmt == "jsonld":
        return merged.serialize(
            format="json-ld", context=jsonld_context()["@context"], encoding="utf-8"
        )
    return merged.serialize(format=rdflib_format, encoding="utf-8")
