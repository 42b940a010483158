"""Every export format parses back to the same number of triples per graph."""

from __future__ import annotations

import pytest
from rdflib import Dataset, Graph

from yili_kg.loaders.dataset import GRAPH_META, GRAPHS
from yili_kg.service.export import FORMATS, QUAD_FORMATS, serialise


@pytest.mark.parametrize("graph", ["ontology", "asserted"])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_export_round_trip(dataset, fmt, graph):
    data = serialise(dataset, fmt, graph)
    expected = len(dataset.graph(GRAPHS[graph]))
    meta = len(dataset.graph(GRAPH_META))
    if fmt in QUAD_FORMATS:
        back = Dataset()
        back.parse(data=data, format=FORMATS[fmt][0])
        assert len(back.graph(GRAPHS[graph])) == expected
        assert len(back.graph(GRAPH_META)) == meta
    else:
        back = Graph()
        back.parse(data=data, format=FORMATS[fmt][0])
        merged = Graph()
        for triple in dataset.graph(GRAPHS[graph]):
            merged.add(triple)
        for triple in dataset.graph(GRAPH_META):
            merged.add(triple)
        assert len(back) == len(merged)


def test_jsonld_uses_the_published_context(dataset):
    data = serialise(dataset, "jsonld", "ontology").decode()
    assert '"@context"' in data and '"agent"' in data
