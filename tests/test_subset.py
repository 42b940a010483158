"""A build of some phases (``YILI_PHASES``, the tests' mini dataset): only those phases'
passages reach the graph, and the selection is part of every stage's key."""

from __future__ import annotations

import pytest
from rdflib import URIRef

from yili_kg.loaders.errors import YiliError
from yili_kg.loaders.subset import selected_phases

HOST, GUEST = (URIRef("https://w3id.org/yili/id/role/" + r) for r in ("zhuren", "bin"))

CLAUSE_PHASES = """SELECT DISTINCT ?rite ?index WHERE {
  ?clause a yl:Clause ; yl:inPhase ?phase .
  ?phase yl:partOf ?r ; yl:phaseIndex ?index .
  BIND(STRAFTER(STR(?r), "/rite/") AS ?rite)
}"""


def test_the_mini_build_holds_the_clauses_of_the_selected_phases_only(ask):
    found = {(row["rite"].value, int(row["index"].value)) for row in ask(CLAUSE_PHASES).rows}
    expected = {("xiangshe", i) for i in range(1, 9)} | {("xiangyinjiu", i) for i in range(1, 10)}
    assert found == expected  # 鄉射禮 戒賓 … 酬賓, 鄉飲酒禮 … 主人酬賓, nothing else


def test_the_host_presents_wine_to_the_guest_in_both_rites_of_the_mini_build(ask):
    # the real pipeline on the selected phases: 主人獻賓 holds in each rite, 賓獻主人 does not
    query = """SELECT ?rite (COUNT(?e) AS ?n) WHERE {
      ?e a yl:Xian ; yl:agent ?giver ; yl:recipient ?taker ; yl:inPhase/yl:partOf ?r .
      BIND(STRAFTER(STR(?r), "/rite/") AS ?rite)
    } GROUP BY ?rite"""
    host_to_guest = ask(query, giver=HOST, taker=GUEST)
    counts = {row["rite"].value: int(row["n"].value) for row in host_to_guest.rows}
    assert counts.get("xiangshe", 0) >= 1 and counts.get("xiangyinjiu", 0) >= 1, counts
    assert ask(query, giver=GUEST, taker=HOST).rows == []


def test_a_selection_that_is_not_slug_and_phases_is_refused():
    for value in ("xiangshe", "xiangshe:a-b", "xiangshe:1-"):
        with pytest.raises(YiliError, match="YILI_PHASES"):
            selected_phases(value)


def test_the_selection_is_part_of_the_stages_keys(monkeypatch):
    from yili_kg.loaders.stages import STAGES

    keyed = [s for s in STAGES if s.name in ("text", "events", "glosses", "rites")]
    monkeypatch.setenv("YILI_PHASES", "xiangshe:1-8")
    some = [s.own_inputs() for s in keyed]
    monkeypatch.delenv("YILI_PHASES")
    whole = [s.own_inputs() for s in keyed]
    assert all(a != b for a, b in zip(some, whole, strict=True))
