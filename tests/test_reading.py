"""The reading view (讀) on the real build, through the Flask test client: what the pages say
is what the text says (主人獻賓 in 鄉射禮's 獻賓, with 鄭玄's 注 beneath its clause)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from yili_kg.service.views.reading import Readings, _verb, place_english, relative_words


@pytest.fixture(scope="module")
def ask(app):
    store = app.extensions["yili"].store
    return lambda sparql: store.query(sparql).rows


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def _section(html: str, anchor: str) -> str:
    start = html.index(f'<section class="clause" id="{anchor}">')
    return html[start : html.index("</section>", start)]


def test_rites_and_contents(client):
    page = client.get("/read").get_data(as_text=True)
    assert "鄉射禮" in page and 'href="/read/xiangshe"' in page
    toc = client.get("/read/xiangshe").get_data(as_text=True)
    rows = re.findall(r'<a href="/read/xiangshe/(\d+)" class="zh">([^<]+)</a>', toc)
    assert rows[0] == ("1", "戒賓") and ("6", "獻賓") in rows
    assert [int(i) for i, _ in rows] == sorted(int(i) for i, _ in rows)  # phases in order
    # the counts: 獻賓 has clauses and events
    row = toc[toc.index(">獻賓<") :].split("</tr>")[0]
    clauses, events = (int(n) for n in re.findall(r'class="num">(\d+)<', row))
    assert clauses > 50 and events > 50
    # a rite of the edition's sections: each named in English by what it holds (phase-names.tsv)
    other = client.get("/read/xiangyinjiu").get_data(as_text=True)
    assert ">主人戒賓</a></td><td>Inviting the guest and the assistant guest</td>" in other
    assert "section 3" not in other


def test_phase_reads_clause_by_clause(client, ask):
    response = client.get("/read/xiangshe/6")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    anchors = re.findall(r'<section class="clause" id="([^"]+)">', html)
    # every clause of the phase, in the order of the text
    expected = ask(
        """PREFIX yl: <https://w3id.org/yili/ontology#>
        SELECT ?c WHERE { ?c a yl:Clause ; yl:inPhase <https://w3id.org/yili/id/xiangshe/phase/06> ;
        yl:startOffset ?s } ORDER BY ?s"""
    )
    assert anchors == [row["c"].value.split("/xiangshe/")[1].replace("/", "-") for row in expected]
    offer = _section(html, "jing-5.11.4") if 'id="jing-5.11.4"' in html else None
    # the clause where the host offers the cup: the graph's reading, in both languages
    sections = [s for s in html.split('<section class="clause"') if "→ </span>獻" in s]
    assert sections, "no clause of 獻賓 reads 主人 → 獻"
    text = _text(sections[0])
    assert "主人 → 獻 → 賓" in text
    assert "the host offers the jue cup to the guest, facing north-west" in text
    assert "賓 → 獻 → 主人" not in _text(html)  # the guest does not offer in 獻賓
    assert offer is None or "西北面" in offer
    # marks: 以降 carries 主人 over and implies the cup
    going_down = _section(html, "jing-5.1.2")
    assert '<span class="carried"' in going_down and "主人" in going_down
    assert "not a translation" in html


def test_a_group_acts_in_the_plural(client):
    """衆賓 names several: the reading says "the other guests enter", not "enters" (迎賓:
    衆賓皆入門左), as two named agents do; the host alone "enters"."""
    html = client.get("/read/xiangshe/5").get_data(as_text=True)
    entering = _text(_section(html, "jing-4.4.2"))
    assert "the other guests enter" in entering, entering
    assert "the other guests enters" not in _text(html)


def test_an_act_that_names_its_cup_reads_the_cup_once(client):
    """卒爵 ("drain the cup") with its cup, the 爵, implied: "drains the jue cup", not "drains
    the cup the jue cup" (獻賓: 賓西階上北面坐卒爵)."""
    text = _text(_section(client.get("/read/xiangshe/6").get_data(as_text=True), "jing-5.23.1"))
    assert "the guest drains the jue cup" in text, text
    assert "the cup the" not in text


@pytest.mark.parametrize(
    "phase, clause, reads",
    [
        (1, "jing-1.2.1", "the host invites the guest in advance"),  # 主人戒賓
        (4, "jing-3.2.2", "the host summons the guest"),  # 乃速賓
        (8, "jing-7.6.2", "the host pledges the guest"),  # 酬之
        (6, "jing-5.5.3", "the host goes to the washing basin"),  # 適洗: not "to to"
    ],
)
def test_a_recipient_that_is_the_verbs_object_reads_as_its_object(client, phase, clause, reads):
    """Not "invites in advance to the guest": the one invited, summoned or pledged is the
    verb's object."""
    html = client.get(f"/read/xiangshe/{phase}").get_data(as_text=True)
    text = _text(_section(html, clause))
    assert reads in text, text
    assert " to the guest" not in text


@pytest.mark.parametrize(
    "phase, clause, reads",
    [
        (2, "jing-2.4.5", "someone places the ladle on the "),  # 皆加勺 (dest=壺?)
        (6, "jing-5.21.11", "the guest places the lung on the meat stand"),  # 加于俎
    ],
)
def test_the_thing_put_on_comes_before_on(client, phase, clause, reads):
    """加 ("place on") puts its thing before "on" and the one it goes on after it: not "places
    on the ladle to the jar"."""
    text = _text(_section(client.get(f"/read/xiangshe/{phase}").get_data(as_text=True), clause))
    assert reads in text, text
    assert "places on" not in text


def test_the_place_gone_to_follows_a_verb_that_ends_in_to(client):
    """自席前適阼階上: the place gone to straight after "goes to", where it came from after it
    (not "goes to from in front of the mat the top of the east steps"); a place that is a
    relation takes no article ("from in front of", not "from the in front of")."""
    text = _text(_section(client.get("/read/xiangshe/7").get_data(as_text=True), "jing-6.16.3"))
    assert "goes to the top of the east steps from in front of the mat" in text, text


@pytest.mark.parametrize(
    "words, reads",
    [
        ("堂前三笴", "three arrow-lengths in front of the hall"),  # 鄉射禮 18.2.5, 注: 笴，矢幹也
        ("左個之西北三步", "three paces north-west of the left side of the target"),
        ("所設楅之南", "south of where the arrow rack is set"),
        ("房中西墉下", "below the west wall in the east chamber"),  # 士冠禮 陳服于房中西墉下
        ("筵南端", "at the south end of the mat"),  # 奠纚笄櫛于筵南端
        ("堂下西階之東", "east of the west steps below the hall"),
        ("下物", "the lower shooting mark"),
        ("户牖間", "between the chamber door and the window"),  # 士昏禮 席于户牖間
        ("主人席北", "north of the mat of the host"),  # 有司徹 主婦…立于主人席北
        ("室中西北隅", "at the north-west corner of the chamber"),
        ("席前", "in front of the mat"),  # a term that is a relation takes no article
        ("館", "the guest lodging"),
        ("二鼎西", "west of the two tripods"),  # 有司徹 設俎于二鼎西
        ("二指之間", "between the two fingers"),  # 鄉射禮 記 挾矢於二指之間
        ("左袂", "the left sleeve"),  # 特牲饋食禮 實于左袂
        ("頌磬西紘", ""),  # 頌磬 is no term: left in the text's words, not half-read
    ],
)
def test_a_place_given_in_words_reads_in_english(app, words, reads):
    """A place the text gives in words, read with the ontology's own labels (the reading
    view's terms, from the store) and relative-places.tsv: a distance, where a thing is set,
    which of a thing, a thing in a place."""
    terms = Readings(app.extensions["yili"].store).terms()
    assert place_english(words, terms, relative_words()) == reads


@pytest.mark.parametrize(
    "phase, clause, reads",
    [
        (8, "jing-7.6.2", "the host pledges the guest with the zhi cup"),  # 主人…酬賓 (觶)
        (7, "jing-6.10.2", "the guest fills the jue cup in front of the mat"),  # 實爵于席前
    ],
)
def test_the_thing_given_to_one_made_the_verbs_object_comes_with_with(client, phase, clause, reads):
    """Where the recipient is the verb's object (酬, 勞, 送: "pledges the host"), the thing
    given follows with "with", not straight after him ("pledges the host the zhi cup"); 實
    with a place in words keeps its thing first (a vessel named would come first: "fills the
    tripod with the lung")."""
    html = client.get(f"/read/xiangshe/{phase}").get_data(as_text=True)
    text = _text(_section(html, clause))
    assert reads in text, text


def test_the_thing_of_an_act_that_names_its_object_follows_a_colon(client):
    """祭 is "make the offering": its thing reads "makes the offering: the wine", not "makes
    the offering the wine" (獻賓: 遂祭酒)."""
    html = client.get("/read/xiangshe/6").get_data(as_text=True)
    text = _text(_section(html, "jing-5.21.14"))
    assert "the guest makes the offering: the wine" in text, text


@pytest.mark.parametrize(
    "phase, clause, reads",
    [
        (2, "jing-2.7.1", "the water is in place east of the washing basin"),  # 水在洗東
        (2, "jing-2.5.1", "the basket is in place south of it"),  # 篚在其南
        (3, "jing-2.9.1", "someone stretches the target"),  # 乃張侯: 江永's 張侯
        (2, "jing-2.1.1", "someone spreads a mat for the guest"),  # 乃席賓
    ],
)
def test_a_state_and_an_act_no_one_is_named_for(client, phase, clause, reads):
    """A state says what is where, and where in English when the text gives the place
    relative to a thing (洗東: yl:locationText, no place of the plan); an act the text names
    no one for (yl:noAgentReason "unstated") is someone's (設席陳器, 張侯)."""
    html = client.get(f"/read/xiangshe/{phase}").get_data(as_text=True)
    text = _text(_section(html, clause))
    assert reads in text, text
    assert "no agent in the graph" not in text


@pytest.mark.parametrize(
    "phase, clause, reads",
    [
        (5, "jing-4.5.3", "主人、賓 → 行"),  # 皆行: the text named 主人 (4.1.2) before 賓 (4.1.4)
        (5, "jing-4.5.3", "the host and the guest walk"),
        (5, "jing-4.1.1", "the guest and the other guests arrive at the gate"),  # 及門
        (1, "ji-1.1.2", "the officer in service acts as the guest"),  # 則公士為賓: yl:assumesRole
        (6, "jing-5.7.3", "the guest returns to their place"),  # 賓反位: not "to one's place"
    ],
)
def test_who_acts_together_in_the_order_the_text_names_them(client, phase, clause, reads):
    """Several agents read in the order the text names them, whatever order the store returns
    them in (the graph keeps none); the role an act makes one take is read (為: "acts as"), and
    a label's "one's" has the sentence's subject ("their")."""
    html = client.get(f"/read/xiangshe/{phase}").get_data(as_text=True)
    text = _text(_section(html, clause))
    assert reads in text, text
    assert "one's" not in text and not text.rstrip().endswith("acts as")


def test_the_places_the_reading_view_names_are_not_terms_of_the_ontology(ask):
    """relative-places.tsv names in English only places the ontology has no term for (次, 祖廟):
    a place that is a term is said by its own label, and one that became a term must leave the
    table, or there would be two Englishes for it."""
    query = Path(__file__).parent.parent / "service" / "rq" / "read-terms.rq"
    labels = {row["label"].value for row in ask(query.read_text(encoding="utf-8"))}
    places = relative_words().places
    assert "洗" in labels and {"次", "祖廟"} <= set(places)
    assert not set(places) & labels


def test_the_table_of_phases_counts_what_they_hold(client):
    """A rite of acts counts events; no column of obligations where no phase states one (喪服
    alone does, and is not in the mini build)."""
    toc = client.get("/read/xiangshe").get_data(as_text=True)
    assert ">events</th>" in toc and ">obligations</th>" not in toc


def test_notes_beneath_their_clause(client):
    html = client.get("/read/xiangshe/6").get_data(as_text=True)
    first = _section(html, "jing-5.1.2")  # 注 將獻賓也 spans 主人坐取爵于上篚 / 以降
    assert "將獻賓也" in first and '<details class="note 注" open>' in first
    assert "將獻賓也" not in _section(html, "jing-5.1.1")  # shown once, under its last clause
    shu = re.findall(r'<details class="note 疏">', html)
    assert shu, "the 疏 are folded"
    assert "KR1d0028_WYG_005-7b" in _section(html, "jing-5.1.1")  # the Kanripo page


def test_parallel_steps_and_pager(client):
    html = client.get("/read/xiangshe/6").get_data(as_text=True)
    assert 'href="/read/xiangyinjiu/7"' in html  # 鄉飲酒禮's 主人盥洗獻賓, the phase aligned
    step = _section(html, "jing-5.1.1")
    assert re.search(
        r'href="/read/xiangyinjiu/7#jing-19\.1\.1"[^>]*>鄉飲酒禮 · 主人坐取爵于篚', step
    )
    assert 'rel="prev" href="/read/xiangshe/5"' in html
    assert 'rel="next" href="/read/xiangshe/7"' in html
    other = client.get("/read/xiangyinjiu/7").get_data(as_text=True)
    assert 'id="jing-19.1.1"' in other and "主人坐取爵于篚" in other


def test_addresses(client):
    assert client.get("/read/xiangshe/獻賓").headers["Location"] == "/read/xiangshe/6"
    at = client.get("/read/at/xiangshe/event/jing-5.1.2-1")
    assert at.headers["Location"] == "/read/xiangshe/6#jing-5.1.2-1"
    assert client.get("/read/at/xiangshe/jing/5.1.1").headers["Location"].endswith("#jing-5.1.1")
    assert client.get("/read/nowhere").status_code == 404
    assert client.get("/read/xiangshe/99").status_code == 404


def test_entity_pages_read(client):
    event = client.get("/id/xiangshe/event/jing-5.1.2-1").get_data(as_text=True)
    assert "以降" in event and "將獻賓也" in event  # its clause's characters and notes
    assert 'href="/read/xiangshe/6#jing-5.1.2-1"' in event
    role = client.get("/id/role/bin").get_data(as_text=True)
    acts = role[role.index("所行") :]
    assert acts.index("鄉飲酒禮") < acts.index("鄉射禮")  # rites in chapter order
    assert ">獻賓</a>" in acts
    phase = client.get("/id/xiangshe/phase/06").get_data(as_text=True)
    assert "Its events in order" in phase and "主人 → 獻 → 賓" in _text(phase)


def test_canned_answers_link_to_the_reading(client):
    html = client.get("/queries/clause-events?passage=jing/5.1.1").get_data(as_text=True)
    assert 'href="/read/at/xiangshe/' in html
    # the answers one row an act name the act, and link it to its clause in the reading (speech
    # too, by the same ?event column, but the mini dataset's phases quote no one: 戒賓 … 酬賓)
    for name in ("phase-acts", "not-done", "next-acts"):
        body = client.get(f"/queries/{name}", query_string={"format": "json"}).get_json()
        events = [row["event"]["value"] for row in body["results"]["bindings"]]
        assert events and all("/event/" in e for e in events), name
        page = client.get(f"/queries/{name}").get_data(as_text=True)
        first = events[0].removeprefix("https://w3id.org/yili/id/")
        assert f'href="/read/at/{first}"' in page, name
        assert client.get(f"/read/at/{first}").status_code == 302


@pytest.mark.parametrize(
    "label, verb",
    [
        ("offer (the cup)", "offers"),
        ("bow twice", "bows twice"),
        ("wash", "washes"),
        ("go down", "goes down"),
        ("reply", "replies"),
    ],
)
def test_verb(label, verb):
    assert _verb(label) == verb


def test_a_verb_of_several():
    """Several in place are (大射儀 從者、小臣師…東堂下), and a group acts in the plural."""
    assert _verb("be in place", plural=True) == "are in place"
    assert _verb("enter", plural=True) == "enter"
