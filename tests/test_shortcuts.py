"""The build's shortcuts (loaders/graph/shortcuts.py) equal the long paths they stand for.

Each is compared, on the mini build's store, with what SPARQL finds along the long path, so
that a change of the events, the notes or the stage cannot make them drift; and the canned
queries rewritten to use them answer as their long-path texts did, for every rite.
"""

from __future__ import annotations

import itertools

import pytest

from yili_kg.service.queries import bindings_for, get_query

INFERRED = "<https://w3id.org/yili/graph/inferred>"

SPANS_LONG = """SELECT ?note ?span WHERE {
  ?note <http://www.w3.org/ns/oa#hasTarget> ?t .
  ?t <http://www.w3.org/ns/oa#hasSelector> ?s .
  ?s <http://www.w3.org/ns/oa#exact> ?span }"""
SPANS_SHORT = f"SELECT ?note ?span WHERE {{ GRAPH {INFERRED} {{ ?note yl:span ?span }} }}"

# a row per (event, phase, index, rite) as the long path gives them, grouped
TALLIES_LONG = """SELECT ?rite ?k ?who (COUNT(*) AS ?n) (MIN(?index) AS ?i) WHERE {
  ?event yl:kind ?k ; yl:agent ?who ; yl:negated false ; yl:inPhase ?phase ;
         yl:sequenceIndex ?index .
  ?phase yl:partOf ?rite . ?rite a yl:Rite .
} GROUP BY ?rite ?k ?who"""
TALLIES_SHORT = f"""SELECT ?rite ?k ?who ?n ?i WHERE {{ GRAPH {INFERRED} {{
  ?t a yl:ActTally ; yl:tallyRite ?rite ; yl:tallyKind ?k ; yl:tallyAgent ?who ;
     yl:times ?n ; yl:firstIndex ?i }} }}"""

#: the canned queries' texts before the shortcuts (their headers and results unchanged)
RITE_DIFFERENCE_LONG = """PREFIX yl: <https://w3id.org/yili/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?act ?agent (SUM(IF(?r = ?rite, 1, 0)) AS ?times)
       (MIN(IF(?r = ?rite, ?index, 999999)) AS ?first) WHERE {
  ?event yl:kind ?k ; yl:agent ?who ; yl:negated false ; yl:inPhase ?phase ;
         yl:sequenceIndex ?index .
  ?phase yl:partOf ?r .
  ?k skos:prefLabel ?act .
  ?who skos:prefLabel ?agent .
}
GROUP BY ?act ?agent
HAVING (SUM(IF(?r = ?rite, 1, 0)) > 0 && SUM(IF(?r = ?other, 1, 0)) = 0)
ORDER BY DESC(?times) ?act ?agent"""
CLAUSE_COMMENTARY_LONG = """PREFIX yl: <https://w3id.org/yili/ontology#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX oa: <http://www.w3.org/ns/oa#>
SELECT ?kind ?author ?span ?text ?note WHERE {
  ?note yl:commentsOn ?passage .
  ?note a ?c ; yl:author ?a ; yl:text ?text .
  ?c rdfs:subClassOf yl:Commentary .
  ?c skos:prefLabel ?kind .
  ?a skos:prefLabel ?author .
  OPTIONAL { ?note oa:hasTarget ?target . ?target oa:hasSelector ?s . ?s oa:exact ?span }
}
ORDER BY ?kind ?note"""


def test_spans_are_the_target_selectors_exact_text(ask):
    long, short = ask(SPANS_LONG).normalised(), ask(SPANS_SHORT).normalised()
    assert len(long) > 100  # the mini build's notes on 鄉射禮 carry their spans
    assert short == long


def test_tallies_count_the_events_of_each_rite_kind_and_agent(ask):
    long, short = ask(TALLIES_LONG).normalised(), ask(TALLIES_SHORT).normalised()
    rites = {row[0] for row in long}
    assert len(rites) == 2 and len(long) > 100  # both rites of the mini build
    assert short == long


ABSENT_LONG = """SELECT ?t ?other WHERE {
  ?t a yl:ActTally ; yl:tallyKind ?k ; yl:tallyAgent ?who . ?other a yl:Rite .
  ?k skos:prefLabel ?act . ?who skos:prefLabel ?agent .
  FILTER NOT EXISTS {
    ?event yl:kind ?k2 ; yl:agent ?who2 ; yl:negated false ; yl:inPhase/yl:partOf ?other .
    ?k2 skos:prefLabel ?act . ?who2 skos:prefLabel ?agent . } }"""
ABSENT_SHORT = f"SELECT ?t ?other WHERE {{ GRAPH {INFERRED} {{ ?t yl:absentFrom ?other }} }}"


def test_a_tally_is_absent_from_the_rites_without_its_act_and_agent(ask):
    long, short = ask(ABSENT_LONG).normalised(), ask(ABSENT_SHORT).normalised()
    assert {row[1] for row in long} == {row[0] for row in ask(TALLIES_LONG).normalised()}
    assert short == long


def test_shortcuts_are_only_in_the_inferred_graph(ask):
    outside = ask(
        f"""ASK {{ GRAPH ?g {{ {{ ?x yl:span ?s }} UNION {{ ?x a yl:ActTally }} }}
                  FILTER(?g != {INFERRED}) }}"""
    )
    assert outside.boolean is False


def _rites(store) -> list[str]:
    from yili_kg.service.queries import service_query

    return sorted(row["label"].value for row in store.query(service_query("rite-labels")).rows)


def test_rite_difference_answers_as_its_long_path(store):
    query = get_query("rite-difference")
    rites = _rites(store)
    assert len(rites) == 2
    compared = 0
    for rite, other in itertools.product(rites, repeat=2):
        bindings = bindings_for(query, {"rite": rite, "other": other}, store)
        short = store.query(query.sparql, bindings)
        long = store.query(RITE_DIFFERENCE_LONG, bindings)
        assert short.variables == long.variables
        assert short.normalised() == long.normalised(), (rite, other)
        compared += len(short.rows)
    assert compared > 10


@pytest.mark.parametrize("passage", ["jing/1.2.1", "jing/5.13.3", "jing/4.7.1", "jing/2.1.1"])
def test_clause_commentary_answers_as_its_long_path(store, passage):
    query = get_query("clause-commentary")
    bindings = bindings_for(query, {"passage": passage}, store)
    short = store.query(query.sparql, bindings)
    long = store.query(CLAUSE_COMMENTARY_LONG, bindings)
    assert short.normalised() == long.normalised()
    assert any("span" in row for row in short.rows)
