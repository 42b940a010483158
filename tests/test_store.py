"""How the stores bind a query's parameters: as RDF terms, by the engine where it can."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from rdflib import Literal, URIRef

from yili_kg.service.queries import bindings_for, load_queries
from yili_kg.service.store import OxigraphStore, _to_oxigraph

LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
ROLE = "https://w3id.org/yili/id/role/"


def test_oxigraph_substitutions_refuse_the_canned_queries_parameters(store):
    # why store.py binds Oxigraph's parameters by a VALUES block: pyoxigraph's own
    # substitutions= (SEP-0007) refuses a variable that the SELECT does not project, and
    # most canned queries bind such a variable (a rite, a role). The day this fails,
    # substitutions= can bind them instead.
    refused = []
    for name, query in sorted(load_queries().items()):
        bindings = bindings_for(query, {}, store)
        if not bindings:
            continue
        substitutions = {ox.Variable(k): _to_oxigraph(v) for k, v in bindings.items()}
        try:
            store.store.query(
                query.sparql, use_default_graph_as_union=True, substitutions=substitutions
            )
        except RuntimeError as exc:
            assert "projection" in str(exc), (name, exc)
            refused.append(name)
    assert len(refused) >= 20, refused


def test_a_parameter_is_bound_as_a_term_never_as_query_text():
    memory = ox.Store()
    for role, label in (("zhuren", "主人"), ("bin", "賓")):
        memory.add(
            ox.Quad(
                ox.NamedNode(ROLE + role),
                ox.NamedNode(LABEL[1:-1]),
                ox.Literal(label, language="zh-Hant"),
                ox.NamedNode("urn:g"),
            )
        )
    store = OxigraphStore(memory)
    query = f"SELECT ?label WHERE {{ ?role {LABEL} ?label }}"
    answer = store.query(query, {"role": URIRef(ROLE + "bin")})
    assert [row["label"].value for row in answer.rows] == ["賓"]
    hostile = Literal('x" } UNION { ?role ?p ?label } #')
    assert store.query(query, {"label": hostile}).rows == []  # a string, not a pattern
    assert len(store.query(query).rows) == 2
    with pytest.raises(Exception, match="WHERE group"):
        store.query("DESCRIBE <urn:x>", {"label": hostile})


# -- RDF 1.2 triple terms in CSV: one form whichever writer writes the answer ----------------

REIFIES = "http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies"


def test_the_built_data_holds_no_triple_terms(store):
    """Why the engine's CSV writer may answer a query that makes no triple term of its own
    (:meth:`OxigraphStore.serialised`): the build's data holds none. The day it does, the
    store must be opened with ``triple_terms=True``."""
    assert store.triple_terms is False
    ask = "ASK { ?s ?p ?o FILTER(isTRIPLE(?o)) }"
    assert not store.store.query(ask, use_default_graph_as_union=True)


def test_a_triple_term_in_csv_is_written_as_the_spec_says_on_every_path():
    memory = ox.Store()
    said = ox.Triple(ox.NamedNode(ROLE + "bin"), ox.NamedNode(LABEL[1:-1]), ox.Literal('賓 "b"'))
    for name, value in (("a", ox.Literal("plain")), ("b", said)):  # not on the first row
        memory.add(ox.Quad(ox.NamedNode(ROLE + name), ox.NamedNode(REIFIES), value))
    spec = f'"<< {ROLE}bin {LABEL[1:-1]} ""賓 """"b"""""" >>"'
    query = f"SELECT ?t WHERE {{ ?r <{REIFIES}> ?t }} ORDER BY ?r"
    store = OxigraphStore(memory)  # its data may hold triple terms (the default)
    for limit in (None, 5):
        _, body, _ = store.serialised(query, "csv", limit=limit)
        assert body.decode().split("\r\n")[1:3] == ["plain", spec]
    assert store.query(query).serialise("csv") == body

    made = "SELECT ?t WHERE { VALUES ?t { <<( <a:s> <a:p> <a:o> )>> } }"
    store = OxigraphStore(memory, triple_terms=False)  # the query makes its own
    assert store.serialised(made, "csv")[1] == b"t\r\n<< a:s a:p a:o >>\r\n"
    # an answer that cannot hold one is still the engine's own writing
    plain = f"SELECT ?r WHERE {{ ?r <{REIFIES}> ?t }}"
    engine = memory.query(plain, use_default_graph_as_union=True)
    assert store.serialised(plain, "csv")[1] == engine.serialize(format=ox.QueryResultsFormat.CSV)
