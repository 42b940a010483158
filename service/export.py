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

import pyoxigraph as ox
from rdflib import BNode, Dataset, Graph, Literal, URIRef

from yili_kg.loaders.errors import YiliError
from yili_kg.loaders.publish.dataset import GRAPH_META, GRAPHS
from yili_kg.service.formats import EXPORTS, written

#: short name → (rdflib's name, media type), from the site's one table (service/formats.py)
FORMATS = {name: (f.rdflib, f.media) for name, f in EXPORTS.items()}
QUAD_FORMATS = {name for name, f in EXPORTS.items() if f.kind == "dataset"}
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
        return written(store.dump(format=rdf_format, prefixes=PREFIXES if fmt == "trig" else None))
    store.extend(ox.Quad(q.subject, q.predicate, q.object, ox.DefaultGraph()) for q in quads)
    rdf_format = {
        "ttl": ox.RdfFormat.TURTLE,
        "nt": ox.RdfFormat.N_TRIPLES,
        "xml": ox.RdfFormat.RDF_XML,
    }[fmt]
    return written(
        store.dump(
            format=rdf_format,
            from_graph=ox.DefaultGraph(),
            prefixes=PREFIXES if fmt in ("ttl", "xml") else None,
        )
    )


def _jsonld(quads) -> bytes:
    """JSON-LD through rdflib, compacted with the published context, byte-reproducible: blank
    nodes keep the dataset's labels, and objects and unordered arrays are written sorted."""

    def term(node):
        if isinstance(node, ox.NamedNode):
            return URIRef(node.value)
        if isinstance(node, ox.BlankNode):
            return BNode(node.value)
        if node.language:
            return Literal(node.value, lang=node.language)
        return Literal(node.value, datatype=URIRef(node.datatype.value))

    graph = Graph(bind_namespaces="none")
    for q in quads:
        graph.add((term(q.subject), term(q.predicate), term(q.object)))
    data = graph.serialize(format="json-ld", context=jsonld_context()["@context"])
    canonical = _sorted_json(json.loads(data))
    return (json.dumps(canonical, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()


def _sorted_json(value, ordered: bool = False):
    """Arrays sorted (a JSON-LD array is a set unless it is an @list), recursively."""
    if isinstance(value, dict):
        return {k: _sorted_json(v, ordered=k in ("@list", "@context")) for k, v in value.items()}
    if isinstance(value, list):
        items = [_sorted_json(v) for v in value]
        if ordered:
            return items
        return sorted(items, key=lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True))
    return value
