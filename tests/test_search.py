"""Search (檢索) over the index the build writes: the same clause of 鄉射禮's 獻賓 is found from
its characters, their simplified form, pinyin with and without tones, and English."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from yili_kg.service.views.search import plan, split_syllables

PHASE = "https://w3id.org/yili/id/xiangshe/phase/06"


@pytest.fixture(scope="module")
def offer_clause(app):
    """The clause of 獻賓 where the host offers the cup (…獻賓), found in the graph."""
    rows = (
        app.extensions["yili"]
        .store.query(
            """PREFIX yl: <https://w3id.org/yili/ontology#>
        SELECT ?c ?t WHERE { ?c a yl:Clause ; yl:inPhase ?p ; yl:text ?t .
          FILTER(CONTAINS(?t, "獻賓")) } ORDER BY ?c""",
            {"p": __import__("rdflib").URIRef(PHASE)},
        )
        .rows
    )
    assert rows, "獻賓 has a clause that reads …獻賓"
    clause = rows[0]["c"].value
    return "/read/xiangshe/6#" + clause.split("/xiangshe/")[1].replace("/", "-")


def _hits(client, q):
    body = client.get("/search", query_string={"q": q, "format": "json"}).get_json()
    return body, [h for g in body["groups"] for h in g["hits"]]


@pytest.mark.parametrize("q", ["獻賓", "献宾", "xianbin", "xiàn bīn", "xian4 bin1", "offer"])
def test_every_form_lands_on_the_clause(client, offer_clause, q):
    body, hits = _hits(client, q)
    assert offer_clause in [h["url"] for h in hits], (q, body["tried"])


def test_a_tone_given_must_match(client, offer_clause):
    _, hits = _hits(client, "xiǎn bīn")  # 3rd tone: not 獻 (xiàn)
    assert offer_clause not in [h["url"] for h in hits]


def test_hits_grouped_and_highlighted(client, offer_clause):
    body, _ = _hits(client, "献宾")
    keys = [(g["rite"], g["layer"]) for g in body["groups"]]
    assert ("鄉射禮", "經") in keys and ("鄉射禮", "注") in keys
    rites = [r for r, _ in keys]
    assert rites.index("鄉飲酒禮") < rites.index("鄉射禮")  # chapter order
    layers = [layer for rite, layer in keys if rite == "鄉射禮"]
    order = ["經", "記", "注", "音義", "疏", "考證", "引文", "行事", "名"]
    assert layers == sorted(layers, key=order.index)
    html = client.get("/search", query_string={"q": "献宾"}).get_data(as_text=True)
    assert "<mark>獻賓</mark>" in html and f'href="{offer_clause}"' in html
    assert "simplified 献宾" not in html and "characters 献宾" in html


def test_english_reads_the_graph(client):
    body, hits = _hits(client, "offer")
    assert any(g["layer"] == "行事" for g in body["groups"])
    assert all("offer" in " ".join(h["matched"]).lower() for h in hits)


def test_nothing_found_says_what_was_tried(client):
    body, hits = _hits(client, "zzzq")
    assert hits == [] and body["tried"] == ["English zzzq"]
    html = client.get("/search?q=zzzq").get_data(as_text=True)
    assert "0 hits" in html and "English zzzq" in html


def test_the_index_is_built_with_the_dataset(app):
    folder = Path(app.config["BUILD_DIR"])
    db = sqlite3.connect(folder / "search.sqlite")
    clauses = db.execute("SELECT COUNT(*) FROM docs WHERE layer IN ('經', '記')").fetchone()[0]
    count = (
        app.extensions["yili"]
        .store.query(
            "PREFIX yl: <https://w3id.org/yili/ontology#> "
            "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a yl:Clause ; yl:inPhase ?p }"
        )
        .rows[0]["n"]
        .value
    )
    assert clauses == int(count)


def test_reading_a_query():
    known = {"xi", "xian", "an", "bin", "bi", "zhu", "ren"}
    assert split_syllables("zhuren", known) == ["zhu", "ren"]
    assert split_syllables("qqq", known) is None
    p = plan("xian4bin1", known)
    assert p.syllables == ["xian", "bin"] and p.tones == [4, 1]
    assert plan("xiànbin", known).tones == [4, 0]
    assert plan("獻賓", known).hans == "献宾"


# ------------------------------------------------------------------ find-term and other forms


def _find_term(client, q):
    body = client.get("/queries/find-term", query_string={"q": q, "format": "json"}).get_json()
    return {(b["label"]["value"], b["type"]["value"]) for b in body["results"]["bindings"]}


def test_find_term_finds_kinds_of_action_by_any_label(client):
    bow = _find_term(client, "bow")
    assert {("拜", "kind of action"), ("再拜", "kind of action")} <= bow
    assert ("答拜", "kind of action") in bow  # a subclass of 拜
    assert ("弓", "ritual object") in bow  # the bow one shoots with is there too
    assert ("拜", "kind of action") in _find_term(client, "拜")
    assert ("獻", "kind of action") in _find_term(client, "献")  # simplified
    toneless = _find_term(client, "bin")
    assert ("賓", "role") in toneless and toneless == _find_term(client, "bīn") | toneless
    assert ("獻賓", "phase") in _find_term(client, "xianbin")
    assert _find_term(client, "zzz") == set()


def test_a_canned_query_tries_the_other_script(client):
    html = client.get("/queries/term-commentary", query_string={"term": "献"}).get_data(
        as_text=True
    )
    assert "No rows for term=献 as given; answered for <b>獻</b> (traditional)" in html
    response = client.get("/queries/term-commentary", query_string={"term": "献", "format": "json"})
    rows = response.get_json()["results"]["bindings"]
    assert rows and all("獻" in row["text"]["value"] for row in rows)
    assert response.headers["X-Yili-Forms-Tried"] == "term=%E7%8C%AE, term=%E7%8D%BB"
    nothing = client.get("/queries/term-commentary", query_string={"term": "zzz"})
    assert "No rows. Forms tried: term=zzz (as given)" in nothing.get_data(as_text=True)


def test_a_label_in_another_form_names_the_term(client):
    def rows(**values):
        r = client.get("/queries/bows", query_string={**values, "format": "json"})
        return r.status_code, r.get_json()

    status, given = rows(role="賓")
    assert status == 200
    assert rows(role="宾")[1] == given and rows(role="bin")[1] == given
    status, error = rows(role="xyz")
    assert status == 400
    assert "forms tried: xyz (as given), xyz (pinyin without tones)" in error["message"]


def test_the_index_reads_the_project_s_readings_in_a_process_of_its_own():
    """The search index's pinyin uses corpus/readings.tsv even when the ontology stage (which
    taught them to pypinyin) did not run in the same process, as after a cached stage: it
    read 小樂正 as xiao le zheng there."""
    import subprocess
    import sys

    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "from yili_kg.loaders.publish.searchindex import pinyin_tokens; "
            "print(' '.join(pinyin_tokens('小樂正從之')[1]))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert run.stdout.split() == ["xiao3", "yue4", "zheng4", "cong2", "zhi1"]
