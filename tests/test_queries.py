"""Every canned query (queries/*.rq) answers a fact the text states, on the real build.

One test (or a few) per query, each named by the fact it checks: the fact is read in the
classic (鄉射禮's 經 and 記, corpus/seeds/000_*.txt; the other rites and the 注疏 in
corpus/kanripo/) and then looked for in the query's answer, with the query's default
parameters and with at least one other value of each parameter. Where the answer contradicts
the text the test is an expected failure (strict) whose reason quotes the text: the defect is
in the annotations or the query, not in the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from yili_kg.service.queries import bindings_for, load_queries

# Facts of the whole book: these names mean the full build here (conftest), and the tests
# that use them are marked slow by it.


@pytest.fixture(scope="session")
def store(full_store):
    return full_store


RITES = {"鄉飲酒禮", "鄉射禮", "燕禮", "大射儀"}


def _rows(store, name: str, **values: str) -> list[dict[str, str]]:
    """The answer of canned query NAME with the given parameters, each row as plain strings
    (a variable left unbound is absent from its row)."""
    query = load_queries()[name]
    answer = store.query(query.sparql, bindings_for(query, values, store))
    return [{key: term.value for key, term in row.items()} for row in answer.rows]


def _pairs(rows, *names: str) -> set[tuple[str, ...]]:
    return {tuple(row.get(n, "") for n in names) for row in rows}


def test_every_canned_query_is_tested_here():
    source = Path(__file__).read_text(encoding="utf-8")
    tested = set(re.findall(r'_rows\(\s*store,\s*"([a-z-]+)"', source))
    assert set(load_queries()) <= tested, f"untested: {sorted(set(load_queries()) - tested)}"


# ------------------------------------------------------------------------------ act-agents


def test_the_host_offers_in_every_rite(store):
    rows = _rows(store, "act-agents")  # kind=獻
    offering = {row["riteName"] for row in rows if row["agent"] == "主人"}
    # the four rites of issue 6, and the sacrifices' 主人獻尸 (特牲, 少牢, 有司徹, 士虞 …)
    assert RITES <= offering, f"主人 offers (獻) in {offering}"
    # 鄉射禮: 司馬洗爵…獻獲者于侯; 司射…獻釋獲者于其位
    xiangshe = {row["agent"] for row in rows if row["riteName"] == "鄉射禮"}
    assert {"主人", "司馬", "司射"} <= xiangshe, xiangshe


def test_the_ruler_pledges_only_in_the_ruler_s_rites(store):
    rows = _rows(store, "act-agents", kind="酬")
    # 燕禮: 公坐取大夫所媵觶，興以酬賓; 大射儀 likewise; no 公 in the district rites
    ruler = {row["riteName"] for row in rows if row["agent"] == "公"}
    assert {"燕禮", "大射儀"} <= ruler, f"公 pledges (酬) in {ruler}"
    assert not ruler & {"鄉飲酒禮", "鄉射禮"}, ruler  # no 公 in the district rites
    assert ("鄉射禮", "主人") in _pairs(rows, "riteName", "agent")  # 主人實觶酬賓


def test_in_xiangyinjiu_only_the_host_offers(store):
    rows = _rows(store, "act-agents")
    agents = {row["agent"] for row in rows if row["riteName"] == "鄉飲酒禮"}
    assert agents == {"主人"}, f"agents of 獻 in 鄉飲酒禮: {agents}"


# -------------------------------------------------------------------------- archery-rounds


def test_in_yan_and_dashe_only_the_host_offers(store):
    rows = _rows(store, "act-agents")
    for rite in ("燕禮", "大射儀"):
        agents = {row["agent"] for row in rows if row["riteName"] == rite}
        # 燕禮: 主人筵前獻賓 (not the 執冪者); 升獻工 (not 工 to 工); 若有諸公，則先卿獻之
        # (the host offers to them before the 卿); 記 獻公 (the host to the ruler);
        # 士既獻者 (the 士 offered to). 大射儀 likewise, and 司馬/司射 to the hit callers,
        # and the 司馬師 to those of the lesser targets (洗，獻隸僕人與巾車、獲者)
        assert agents <= {"主人", "司馬", "司射", "司馬師"} and "主人" in agents, (rite, agents)
    rows = _rows(store, "interactions", kind="獻", rite="大射儀")
    by_master = {r for a, r in _pairs(rows, "agent", "recipient") if a == "司馬師"}
    assert by_master == {"隸僕人", "巾車", "獲者"}, by_master


def test_no_one_offers_to_himself(store):
    # an agent is never the recipient of his own 獻, 酬 or 酢 (介 to 介, 工 to 工, 公 to 公)
    for rite in RITES:
        for kind in ("獻", "酬", "酢"):
            rows = _rows(store, "interactions", kind=kind, rite=rite)
            acts = _pairs(rows, "agent", "recipient")
            assert not {(a, r) for a, r in acts if a == r}, (rite, kind, acts)


def test_the_wine_of_the_offerings_is_no_offering(store):
    # 大射儀: 又尊于大侯之乏東北，兩壺獻酒 — 獻酒 is a wine (注: 獻讀為沙), not an act 獻
    rows = _rows(store, "role-acts", role="司宮", rite="大射儀")
    assert rows and not any(row["kind"] == "獻" for row in rows), rows


def test_the_three_rounds_of_xiangshe_have_shooting_and_only_scored_rounds_have_drinking(store):
    rows = {row["act"]: row for row in _rows(store, "archery-rounds")}  # 鄉射禮, every kind
    shoot = rows["射"]
    # 誘射 and 初射 (first), 再射釋獲 (second), 三射用樂 (third)
    assert all(int(shoot[r]) > 0 for r in ("first", "second", "third")), shoot
    # the losers drink (飲不勝者) after the second and the third round, not after the first
    drink = rows["飲"]
    assert int(drink["first"]) == 0 and int(drink["second"]) > 0, drink


def test_the_three_rounds_of_dashe_all_have_archery_acts(store):
    rows = _rows(store, "archery-rounds", kind="射事", rite="大射儀")
    for r in ("first", "second", "third"):
        assert sum(int(row[r]) for row in rows) > 0, f"大射儀's {r} round has no 射事"
    by_act = {row["act"]: row for row in rows}
    assert all(int(by_act["射"][r]) > 0 for r in ("first", "second", "third"))
    # 大射儀's first round too calls hits without counting them (命曰毋射獲毋獵獲 … 不釋獲)
    assert int(by_act["釋獲"]["first"]) == 0 and int(by_act["釋獲"]["second"]) > 0


def test_the_first_round_of_xiangshe_counts_no_hits(store):
    # 記 始射，獲而未釋獲；復，釋獲: stands in 江永's first round, its 釋獲 is the second's
    rows = {row["act"]: row for row in _rows(store, "archery-rounds", kind="射事")}
    assert int(rows["釋獲"]["first"]) == 0, rows["釋獲"]
    assert int(rows["釋獲"]["second"]) >= 2, rows["釋獲"]  # 經 (several) and the 記's


# ------------------------------------------------------------------------------------ bows


def test_the_host_bows_to_the_guest(store):
    rows = _rows(store, "bows")  # role=主人, rite=鄉射禮
    acts = _pairs(rows, "recipient", "act")
    # 主人阼階上當楣北面再拜; 主人阼階上答拜; 主人阼階上拜送爵; 以大夫升，拜至
    assert {("賓", "拜"), ("賓", "再拜"), ("賓", "答拜"), ("賓", "拜送")} <= acts, acts
    assert ("大夫", "拜至") in acts
    send = next(row for row in rows if (row.get("recipient"), row["act"]) == ("賓", "拜送"))
    assert "阼階上" in send["places"].split(), send


def test_the_guest_answers_the_host_s_bows_from_the_west_steps(store):
    rows = _rows(store, "bows", role="賓")
    acts = _pairs(rows, "recipient", "act")
    # 賓西階上當楣北面答再拜; 賓西階上北面拜洗; 賓…拜賜于門外
    assert {("主人", "答再拜"), ("主人", "拜洗"), ("主人", "拜賜")} <= acts, acts
    wash = next(row for row in rows if (row.get("recipient"), row["act"]) == ("主人", "拜洗"))
    assert "西階上" in wash["places"].split()
    assert not any(row.get("recipient") == "賓" for row in rows), "賓 bows to himself"


def test_in_yan_the_guest_bows_to_the_ruler(store):
    acts = _pairs(_rows(store, "bows", role="賓", rite="燕禮"), "recipient", "act")
    # 燕禮: 賓升，再拜稽首，公答再拜
    assert {("公", "再拜"), ("公", "稽首")} <= acts, acts


def test_in_yan_the_guest_never_bows_to_the_servant_or_to_himself(store):
    rows = _rows(store, "bows", role="賓", rite="燕禮")
    wrong = {(r.get("recipient"), r["act"]) for r in rows if r.get("recipient") in ("小臣", "賓")}
    assert not wrong, wrong


def test_the_host_sends_the_cup_from_the_right_of_the_guest_or_the_jie(store):
    # 燕禮 主人賓右拜送爵; 鄉飲酒禮 主人介右北面拜送爵: X右 is where, the host bows
    yan = _pairs(_rows(store, "bows", rite="燕禮"), "recipient", "act")  # role=主人
    assert ("賓", "拜送") in yan, yan
    xyj = _pairs(_rows(store, "bows", rite="鄉飲酒禮"), "recipient", "act")
    assert ("介", "拜送") in xyj, xyj
    guest = _rows(store, "bows", role="賓", rite="燕禮")
    assert not any(row["act"] == "拜送" and row.get("recipient") == "賓" for row in guest)


# ---------------------------------------------------------------------------- cited-works


def test_the_commentary_on_xiangshe_cites_xiangyinjiu_and_the_zhouli(store):
    cited = _pairs(_rows(store, "cited-works"), "title", "kind")
    # 賈疏: 禮同鄉飲酒也 …; 周禮鄉大夫職文; 鄭注: 大射曰左執弣
    assert {("儀禮·鄉飲酒禮", "疏"), ("周禮", "疏"), ("儀禮·大射儀", "注")} <= cited, cited


def test_the_commentary_on_dashe_cites_xiangshe(store):
    cited = _pairs(_rows(store, "cited-works", rite="大射儀"), "title", "kind")
    # 鄭注 on 大射儀: 鄉射記曰賓俎脊脅肩肺 …
    assert {("儀禮·鄉射禮", "注"), ("儀禮·鄉射禮", "疏")} <= cited, cited


# ------------------------------------------------------------------------ clause-commentary


def test_zheng_xuan_says_the_host_is_the_zhouzhang(store):
    rows = _rows(store, "clause-commentary")  # jing/1.2.1 主人戒賓
    authors = {row["author"] for row in rows}
    assert {"鄭玄", "賈公彥", "陸德明"} <= authors, authors
    notes = {row["kind"]: row["text"] for row in rows if row["kind"] in ("注", "疏")}
    assert notes["注"].startswith("主人州長也"), notes["注"]
    assert notes["疏"].startswith("釋曰自此至無介"), notes["疏"]


def test_zheng_xuan_glosses_the_offering_as_bringing_forward(store):
    rows = _rows(store, "clause-commentary", passage="jing/5.13.3")  # 西北面獻賓
    notes = {row["text"] for row in rows if row["author"] == "鄭玄"}
    assert "進於賓也凡進物曰獻" in notes, notes
    assert any("西北面獻賓" in row.get("span", "") for row in rows)


# --------------------------------------------------------------------------- clause-events


def test_the_host_bows_twice_facing_north_at_the_eastern_steps(store):
    facts = _pairs(_rows(store, "clause-events"), "property", "value")  # jing/4.7.1
    # 主人阼階上當楣北面再拜
    expected = {
        ("agent", "主人"),
        ("kind", "再拜"),
        ("facing", "北"),
        ("location", "阼階上"),
        ("location", "楣"),
        ("recipient", "賓"),
        ("negated", "false"),
    }
    assert expected <= facts, facts


def test_the_host_offers_the_jue_to_the_guest_facing_north_west(store):
    facts = _pairs(_rows(store, "clause-events", passage="jing/5.13.3"), "property", "value")
    # 主人坐取爵，實之賓席之前，西北面獻賓
    assert {("agent", "主人"), ("kind", "獻"), ("recipient", "賓"), ("theme", "爵")} <= facts
    assert ("facing", "西北") in facts, facts


# ---------------------------------------------------------------------------------- counts


def test_the_graph_counts_every_kind_of_resource_and_the_phases_of_the_four_rites(store):
    counts = {row["what"]: int(row["n"]) for row in _rows(store, "counts")}
    kinds = {"events", "clauses", "notes", "roles", "objects", "places", "phases", "works"}
    assert kinds | {"kinds of action"} == set(counts), counts
    assert all(n > 0 for n in counts.values()), counts
    # the phases are those of the four rites, 38 of them 鄉射禮's (江永's sections)
    from yili_kg.loaders.text.ritetable import read_rites

    titles = [info.hant for info in read_rites().values()]  # all seventeen since issue 15
    phases = sum(len(_rows(store, "phases", rite=rite)) for rite in titles)
    assert counts["phases"] == phases, (counts["phases"], phases)


# ------------------------------------------------------------------------------------ cups


def test_the_jue_serves_the_offering_and_the_zhi_the_rest(store):
    rows = _rows(store, "cups")  # 鄉射禮
    cups = _pairs(rows, "cup", "act")
    # 記: 獻用爵，其他用觶
    assert ("爵", "獻") in cups and ("觶", "獻") not in cups, cups
    assert ("觶", "酬") in cups and ("爵", "酬") not in cups, cups
    # the losers drink (飲不勝者) from the 觶: 勝者之弟子洗觶升酌
    losers = {row["cup"] for row in rows if row["phase"] == "飲不勝者"}
    assert losers == {"觶"}, losers


def test_in_xiangyinjiu_too_the_jue_is_for_the_offering(store):
    cups = _pairs(_rows(store, "cups", rite="鄉飲酒禮"), "cup", "act")
    # 鄉飲酒禮 記: 獻用爵，其他用觶
    assert ("爵", "獻") in cups and ("觶", "獻") not in cups, cups
    assert ("觶", "酬") in cups and ("爵", "酬") not in cups, cups


# ---------------------------------------------------------------------------------- facing


def test_the_host_faces_north_west_to_offer_and_north_to_bow(store):
    rows = _pairs(_rows(store, "facing"), "facing", "place", "act")  # 主人
    # 西北面獻賓; 主人阼階上當楣北面再拜; 主人阼階之東，南面辭洗
    assert ("西北", "", "獻") in rows, rows
    assert ("北", "阼階上", "再拜") in rows
    assert ("南", "阼階東", "辭洗") in rows


def test_the_guest_faces_south_east_to_return_the_cup(store):
    rows = _pairs(_rows(store, "facing", role="賓"), "facing", "place", "act")
    # 東南面酢主人; 賓進，東北面辭洗; 賓西階上北面拜洗
    assert ("東南", "", "酢") in rows, rows
    assert ("東北", "", "辭洗") in rows
    assert ("北", "西階上", "拜洗") in rows


# ------------------------------------------------------------------------------- find-term


def test_archery_terms_are_found_by_the_character_she(store):
    found = _pairs(_rows(store, "find-term"), "label", "type")  # q=射
    assert {("司射", "role"), ("鄉射禮", "rite"), ("大射儀", "rite"), ("誘射", "phase")} <= found


@pytest.mark.parametrize(
    "words, term",
    [
        (("觶", "觯", "zhì", "zhi cup", "ZHI CUP"), "object/zhi"),
        (("司馬", "司马", "sī mǎ", "marshal"), "role/sima"),
        (("鄉射禮", "乡射礼", "xiāng shè lǐ", "District Archery"), "rite/xiangshe"),
    ],
)
def test_a_term_is_found_by_any_of_its_names(store, words, term):
    for q in words:
        terms = {row["term"] for row in _rows(store, "find-term", q=q)}
        assert f"https://w3id.org/yili/id/{term}" in terms, f"{q!r} does not find {term}"


# ---------------------------------------------------------------------------- interactions


def test_the_host_and_the_guest_bow_to_each_other(store):
    acts = _pairs(_rows(store, "interactions"), "agent", "recipient", "act")  # every kind
    assert {("主人", "賓", "揖"), ("主人", "賓", "再拜"), ("賓", "主人", "答再拜")} <= acts
    # 司馬命獲者; 獲者…許諾
    assert {("司馬", "獲者", "命"), ("獲者", "司馬", "許諾")} <= acts


def test_the_host_offers_to_the_guest_and_not_the_guest_to_the_host(store):
    acts = _pairs(_rows(store, "interactions", kind="飲酒之節"), "agent", "recipient", "act")
    assert ("主人", "賓", "獻") in acts  # 西北面獻賓
    assert ("賓", "主人", "獻") not in acts  # the guest returns the cup (酢), never offers
    assert ("賓", "主人", "酢") in acts  # 東南面酢主人
    assert ("主人", "賓", "酬") in acts  # 主人實觶酬賓
    # 司馬…獻獲者于侯; 司射…獻釋獲者于其位
    assert {("司馬", "獲者", "獻"), ("司射", "釋獲者", "獻")} <= acts


def test_in_xiangyinjiu_the_host_bows_to_the_jie(store):
    rows = _rows(store, "interactions", kind="拜揖", rite="鄉飲酒禮")
    acts = _pairs(rows, "agent", "recipient", "act")
    # 主人一相迎于門外，再拜賓，賓答拜；拜介，介答拜
    assert {("主人", "介", "拜"), ("介", "主人", "答拜"), ("賓", "主人", "答拜")} <= acts
    assert not {act for _, _, act in acts} & {"命", "獻", "告"}, "拜揖 holds only salutations"


# ----------------------------------------------------------------------------------- kinds


def test_each_kind_of_action_sits_under_its_family(store):
    parents = _pairs(_rows(store, "kinds"), "label", "parent")  # kind=行事
    expected = {("獻", "飲酒之節"), ("酢", "飲酒之節"), ("酬", "飲酒之節"), ("答拜", "拜")}
    assert expected | {("射", "射事"), ("釋獲", "射事"), ("升", "進退")} <= parents


def test_the_salutations_are_bows_and_salutes_only(store):
    labels = {row["label"] for row in _rows(store, "kinds", kind="拜揖")}
    assert {"拜", "再拜", "答拜", "拜送", "拜洗", "揖", "讓", "稽首"} <= labels, labels
    assert not labels & {"獻", "射", "升", "命"}, labels


# ------------------------------------------------------------------------------- next-acts


def test_after_the_offering_the_guest_bows_and_receives_the_jue(store):
    rows = _rows(store, "next-acts")  # from jing/5.13.3 西北面獻賓, 8 steps
    assert len({row["seq"] for row in rows}) == 8
    acts = [(row.get("agent", ""), row["kind"]) for row in rows]
    # 賓西階上北面拜，主人少退。賓進受爵于席前，復位。主人阼階上拜送爵
    assert acts[:3] == [("賓", "拜"), ("主人", "退"), ("賓", "進")], acts
    assert acts.index(("賓", "受")) < acts.index(("主人", "拜送"))


def test_after_the_invitation_the_guest_comes_out_and_bows(store):
    rows = _rows(store, "next-acts", passage="jing/1.2.1", steps="3")  # 主人戒賓
    # 主人戒賓，賓出迎，再拜。主人答再拜
    assert [(row.get("agent"), row["kind"]) for row in rows] == [
        ("賓", "出迎"),
        ("賓", "再拜"),
        ("主人", "答再拜"),
    ]


# -------------------------------------------------------------------------------- not-done


def test_the_text_says_the_guest_does_not_decline_the_washing(store):
    rows = _rows(store, "not-done")  # 鄉射禮
    done = _pairs(rows, "phase", "agent", "act", "text")
    assert ("酬賓", "賓", "辭洗", "賓不辭洗") in done, "主人坐取觶，洗，賓不辭洗"
    assert ("戒賓", "主人", "戒", "無介") in done, "…賓送，再拜。無介"
    assert ("獻衆賓", "衆賓", "拜受", "衆賓皆不拜") in done, "衆賓皆不拜，受爵"
    assert ("請射", "司射", "釋", "司射不釋弓矢") in done


def test_in_xiangyinjiu_too_the_guest_does_not_decline_the_washing(store):
    done = _pairs(_rows(store, "not-done", rite="鄉飲酒禮"), "agent", "act", "text")
    # 鄉飲酒禮: 主人坐取觶，洗，賓不辭洗; 工不辭洗
    assert {("賓", "辭洗", "賓不辭洗"), ("工", "辭洗", "工不辭洗")} <= done, done


def test_in_xiangyinjiu_the_piper_not_the_host_stays_below_the_hall(store):
    done = _pairs(_rows(store, "not-done", rite="鄉飲酒禮"), "agent", "act", "text")
    assert ("笙", "升", "不升堂") in done and ("主人", "升", "不升堂") not in done, done


# ----------------------------------------------------------------------------------- pairs


def test_the_host_is_the_lower_archer_of_the_guest(store):
    pairs = {row["pair"]: (row["upper"], row["lower"]) for row in _rows(store, "pairs")}
    assert pairs["賓主人之耦"] == ("賓", "主人"), "主人為下射"
    assert pairs["大夫之耦"] == ("士", "大夫"), "大夫為下射"
    # 三耦: 上耦, 次耦, 下耦 of the students
    assert {"上耦", "次耦", "下耦"} <= set(pairs), pairs


# ------------------------------------------------------------------------------ phase-acts


def test_in_the_offering_phase_the_host_offers_the_jue(store):
    rows = _pairs(
        _rows(store, "phase-acts"), "kind", "agent", "recipient", "theme", "place", "facing"
    )  # phase=獻賓
    assert ("獻", "主人", "賓", "爵", "", "西北") in rows  # 西北面獻賓
    assert ("拜洗", "賓", "主人", "", "西階上", "北") in rows  # 賓西階上北面拜洗
    assert ("拜送", "主人", "賓", "爵", "阼階上", "") in rows  # 主人阼階上拜送爵


def test_in_the_return_phase_the_guest_returns_the_cup(store):
    rows = _pairs(
        _rows(store, "phase-acts", phase="7"), "kind", "agent", "recipient", "theme", "facing"
    )  # 賓酢主人
    assert ("酢", "賓", "主人", "爵", "東南") in rows  # 東南面酢主人
    assert ("辭洗", "主人", "賓", "", "南") in rows  # 主人阼階之東，南面辭洗
    assert not any(kind == "獻" for kind, *_ in rows)


# ---------------------------------------------------------------------------------- phases


def test_xiangshe_has_38_phases_from_the_invitation(store):
    rows = _rows(store, "phases")  # 鄉射禮
    assert len(rows) == 38
    assert [int(row["index"]) for row in rows] == list(range(1, 39))
    labels = {int(row["index"]): row["label"] for row in rows}
    assert (labels[1], labels[6], labels[17], labels[31]) == ("戒賓", "獻賓", "誘射", "旅酬")


def test_dashe_begins_with_the_great_archery_and_has_a_demonstration(store):
    rows = _rows(store, "phases", rite="大射儀")
    assert [int(row["index"]) for row in rows] == list(range(1, len(rows) + 1))
    assert rows[0]["label"] == "大射之儀", rows[0]
    assert "司射誘射" in {row["label"] for row in rows}


# --------------------------------------------------------------------------------- repeats


def test_the_guest_washes_and_sacrifices_as_the_host_did(store):
    rows = _pairs(_rows(store, "repeats"), "phase", "text", "earlierPhase")  # 鄉射禮
    # 賓酢主人: 降盥，如主人之禮 (the host's 盥 in 獻賓); 祭如賓禮 (the guest's 祭 in 獻賓)
    assert ("賓酢主人", "如主人之禮", "獻賓") in rows, rows
    assert ("賓酢主人", "祭如賓禮", "獻賓") in rows
    assert ("酬賓", "如獻禮", "獻賓") in rows


def test_in_xiangyinjiu_the_host_sacrifices_as_the_guest_did(store):
    rows = _pairs(_rows(store, "repeats", rite="鄉飲酒禮"), "phase", "text", "earlierPhase")
    # 鄉飲酒禮 賓酢主人: 祭如賓禮 (the guest's 祭 when the host offered to him)
    assert ("賓酢主人", "祭如賓禮", "主人盥洗獻賓") in rows, rows


def test_the_guest_s_bow_and_yield_repeat_those_of_the_offering(store):
    rows = _rows(store, "repeats")
    earlier = {
        row.get("earlierPhase")
        for row in rows
        if row["phase"] == "賓酢主人" and row["text"] == "揖讓如初"
    }
    assert earlier == {"獻賓"}, earlier


# --------------------------------------------------------------------------- rite-citations


def test_the_commentaries_quote_each_other_s_rites(store):
    rows = _rows(store, "rite-citations")
    quoted = _pairs(rows, "fromRite", "citedAs", "citedRite", "passage")
    # 大射儀 疏: 鄉射云乏參矦道 … — 鄉射禮's 經 乏參侯道
    shehou = "https://w3id.org/yili/id/xiangshe/jing/2.11.1"
    assert ("大射儀", "鄉射", "鄉射禮", shehou) in quoted
    # 鄉射禮 疏 on 速賓: 鄉飲酒 賓及衆賓皆從之 — 鄉飲酒禮's 經
    follow = "https://w3id.org/yili/id/xiangyinjiu/jing/13.1.1"
    assert ("鄉射禮", "鄉飲酒", "鄉飲酒禮", follow) in quoted
    assert RITES <= {row["fromRite"] for row in rows}


# -------------------------------------------------------------------------- rite-difference


def test_xiangshe_has_the_archery_officers_xiangyinjiu_lacks(store):
    acts = _pairs(_rows(store, "rite-difference"), "act", "agent")  # 鄉射禮 minus 鄉飲酒禮
    assert {("命", "司射"), ("命", "司馬"), ("釋獲", "釋獲者")} <= acts, "no archery there"
    assert ("獻", "主人") not in acts, "主人 offers in both rites"


def test_xiangyinjiu_has_the_jie_xiangshe_lacks(store):
    rows = _rows(store, "rite-difference", rite="鄉飲酒禮", other="鄉射禮")
    acts = _pairs(rows, "act", "agent")
    # 鄉飲酒禮: 拜介，介答拜; 鄉射禮: 無介
    assert ("答拜", "介") in acts, acts
    assert not any(agent in ("司射", "司馬") for _, agent in acts)


# ------------------------------------------------------------------------------- role-acts


def test_the_host_first_invites_the_guest_and_has_no_jie(store):
    rows = _rows(store, "role-acts")  # 主人
    first = rows[0]
    assert (first["kind"], first["phase"], first["text"]) == ("戒", "戒賓", "主人戒賓"), first
    no_jie = [row for row in rows if row["text"] == "無介"]
    assert no_jie and all(row["negated"] == "true" for row in no_jie)
    # the role by its English or pinyin label is the same role
    for name in ("host", "zhǔ rén"):
        assert _rows(store, "role-acts", role=name) == rows, name


def test_the_director_of_archery_demonstrates_the_shooting(store):
    rows = _rows(store, "role-acts", role="司射")
    acts = _pairs(rows, "kind", "phase", "negated")
    assert ("誘射", "誘射", "false") in acts  # 誘射，將乘矢
    assert ("釋", "請射", "true") in acts  # 司射不釋弓矢
    assert ("命", "請射", "false") in acts  # 命上射曰：「某御於子。」


# ---------------------------------------------------------------------------- role-objects


def test_the_host_offers_with_the_jue_and_pledges_with_the_zhi(store):
    held = _pairs(_rows(store, "role-objects"), "object", "act")  # 主人
    assert {("爵", "獻"), ("爵", "拜送"), ("觶", "酬"), ("爵", "洗")} <= held, held
    assert ("觶", "獻") not in held


def test_the_hit_caller_holds_the_flag(store):
    held = _pairs(_rows(store, "role-objects", role="獲者"), "object", "act")
    # 獲者執旌許諾; 獲者負侯 …; 獲者…拜受爵 (獻獲者)
    assert {("旌", "執"), ("旌", "負侯"), ("爵", "拜受")} <= held, held


# ---------------------------------------------------------------------------- role-persons


def test_the_host_s_retainer_is_xiang_then_sizheng_then_sima_then_sizheng(store):
    rows = _rows(store, "role-persons")  # 鄉射禮
    assert [row["role"] for row in rows] == ["相", "司正", "司馬", "司正"], rows
    assert {row["person"] for row in rows} == {"主人之家臣"}
    made = [row.get("assignedBy") for row in rows[1:]]
    assert made == ["作相為司正", "司正為司馬", "司馬反為司正"], made


def test_the_host_of_the_banquet_is_the_steward(store):
    roles = _pairs(_rows(store, "role-persons", rite="燕禮"), "person", "role")
    # 鄭注: 主人，宰夫也
    assert {("燕禮之宰夫", "主人"), ("燕禮之宰夫", "宰夫")} <= roles, roles


def test_in_xiangyinjiu_the_xiang_is_made_sizheng(store):
    rows = _rows(store, "role-persons", rite="鄉飲酒禮")
    assert ("司正", "作相為司正") in _pairs(rows, "role", "assignedBy"), rows


# ---------------------------------------------------------------------------- role-places


def test_the_guest_bows_north_at_the_top_of_the_west_steps(store):
    places = _pairs(_rows(store, "role-places"), "phase", "place", "facing")  # 賓
    assert ("獻賓", "西階上", "北") in places  # 賓西階上北面拜洗
    assert ("迎賓", "楣", "北") in places  # 賓西階上當楣北面答再拜
    assert ("拜賜", "門外", "") in places  # 賓朝服以拜賜于門外


def test_the_marshal_offers_to_the_hit_caller_at_the_target(store):
    places = _pairs(_rows(store, "role-places", role="司馬"), "phase", "place")
    assert ("獻獲者及釋獲者", "侯") in places, places  # 司馬…獻獲者于侯


# ---------------------------------------------------------------------------- shared-steps


def test_xiangshe_and_xiangyinjiu_invite_the_guest_alike(store):
    rows = _rows(store, "shared-steps")  # 鄉射禮 with 鄉飲酒禮
    steps = _pairs(rows, "clause", "otherClause", "agent", "otherAgent")
    assert ("主人戒賓", "主人戒賓", "主人", "主人") in steps
    assert ("西北面獻賓", "西北面獻賓", "主人", "主人") in steps
    assert ("東南面酢主人", "東南面酢主人", "賓", "賓") in steps


def test_xiangshe_and_dashe_appoint_the_sizheng_alike(store):
    steps = _pairs(_rows(store, "shared-steps", other="大射儀"), "clause", "otherClause")
    # 鄉射禮: 作相為司正; 大射儀: 公許，擯者遂為司正
    assert ("作相為司正", "擯者遂為司正") in steps, "司正 steps not aligned"


# ---------------------------------------------------------------------------------- speech


def test_the_director_of_archery_asks_the_guest_to_shoot(store):
    rows = _rows(store, "speech")  # 鄉射禮
    said = _pairs(rows, "speaker", "addressee", "speech")
    assert ("司射", "賓", "弓矢既具，有司請射。") in said
    assert ("賓", "司射", "某不能。為二三子。") in said
    assert ("司馬", "獲者", "倚旌于侯中。") in said
    assert ("釋獲者", "賓", "左右卒射。") in said
    # the rite by its English label or IRI is the same rite
    for rite in ("District Archery Rite", "https://w3id.org/yili/id/rite/xiangshe"):
        assert _rows(store, "speech", rite=rite) == rows, rite


def test_in_dashe_the_director_of_archery_commands_the_upper_archer(store):
    said = _pairs(_rows(store, "speech", rite="大射儀"), "speaker", "addressee")
    assert ("司射", "上射") in said, said


# ------------------------------------------------------------------------- term-commentary


def test_zheng_xuan_names_the_host_a_zhouzhang(store):
    rows = _rows(store, "term-commentary")  # term=州長
    notes = _pairs(rows, "author", "clauseText")
    assert ("鄭玄", "主人戒賓") in notes  # 主人，州長也
    assert all("州長" in row["text"] for row in rows)


def test_zheng_xuan_explains_the_fa_shelter(store):
    rows = _rows(store, "term-commentary", term="乏")
    zheng = {row["text"] for row in rows if row["author"] == "鄭玄" and row["kind"] == "注"}
    assert any(text.startswith("容謂之乏") for text in zheng), zheng  # 容謂之乏，所以為獲者御矢也
    assert ("鄭玄", "乏參侯道") in _pairs(rows, "author", "clauseText")


# ------------------------------------------------------------------------- work-citations


def test_the_notes_cite_xiangyinjiu_by_several_names(store):
    rows = _rows(store, "work-citations")  # work=儀禮·鄉飲酒禮
    names = _pairs(rows, "kind", "citedAs")
    assert {("疏", "鄉飲酒"), ("考證", "鄉飲酒禮")} <= names, names
    # 考證 on 主人戒賓: 按鄉飲酒禮云乃請賓
    assert any(row.get("quote", "").startswith("乃請賓") for row in rows)


def test_the_subcommentary_cites_the_great_archery(store):
    rows = _rows(store, "work-citations", work="大射")
    notes = _pairs(rows, "kind", "citedAs", "clauseText")
    # 賈疏 on 主人戒賓: 案大射前三日宰夫戒宰及司馬
    assert ("疏", "大射", "主人戒賓") in notes, notes


# --------------------------------------------- issue 16: the ruler's rites, read by general rules


def test_in_yan_and_dashe_the_ruler_bows_to_the_host_who_offered(store):
    # 燕禮: 主人…獻于公…膳宰贊授肺。不拜酒，立卒爵，坐奠爵，拜，執爵興。主人答拜
    # (大射儀 likewise, with 庶子贊授肺)
    for rite, helper in (("燕禮", "膳宰"), ("大射儀", "庶子")):
        rows = _rows(store, "bows", role="公", rite=rite)
        acts = _pairs(rows, "recipient", "act")
        assert ("主人", "拜") in acts, (rite, acts)
        # the one who handed the lung is not bowed to, and the ruler never bows to himself
        assert not any(r.get("recipient") in (helper, "公") for r in rows), (rite, acts)


def test_the_cup_raisers_bow_to_the_ruler_s_command_not_to_the_officer(store):
    # 燕禮 and 大射儀: 小臣作下大夫二人媵爵。媵爵者阼階下皆北面再拜稽首 (注: 再拜稽首，拜君命也)
    for rite in ("燕禮", "大射儀"):
        rows = _rows(store, "bows", role="媵爵者", rite=rite)
        acts = _pairs(rows, "recipient", "act")
        assert {("公", "再拜"), ("公", "稽首")} <= acts, (rite, acts)
        assert not any(r.get("recipient") in ("大夫", "小臣") for r in rows), (rite, acts)


def test_in_dashe_the_ministers_bow_their_heads_to_the_ruler_only(store):
    # 大射儀: 公有命徹冪，則卿大夫皆降西階下，北面東上，再拜稽首 (a subject's 稽首 is to the ruler)
    rows = _rows(store, "bows", role="卿", rite="大射儀")
    assert ("公", "稽首") in _pairs(rows, "recipient", "act")
    assert not any(r["act"] == "稽首" and r.get("recipient") != "公" for r in rows), rows


def test_in_yan_and_dashe_the_guest_gets_drunk(store):
    # 燕禮 and 大射儀 at the end: 賓醉，北面坐取其薦脯以降; the ruler is never said to be drunk
    rows = _rows(store, "act-agents", kind="醉")
    pairs = _pairs(rows, "riteName", "agent")
    assert {("燕禮", "賓"), ("大射儀", "賓")} <= pairs, pairs
    assert not any(agent == "公" for _, agent in pairs), pairs


def test_in_xiangyinjiu_the_host_bows_to_the_guest_for_consenting(store):
    # 鄉飲酒禮: 司正告于主人，主人阼階上再拜，賓西階上答拜 (注: 再拜，拜賓許也): the host's 再拜
    # is to the guest who consented, not to the 司正 who carried the message
    host = _pairs(_rows(store, "bows", rite="鄉飲酒禮"), "recipient", "act")
    assert ("賓", "再拜") in host and ("司正", "再拜") not in host, host
    guest = _pairs(_rows(store, "bows", role="賓", rite="鄉飲酒禮"), "recipient", "act")
    assert ("主人", "答拜") in guest and ("賓", "答拜") not in guest, guest


# ------------------------------------------------------------------------ role-every-rite


def test_the_host_offers_and_the_guest_returns_the_toast_in_every_rite(store):
    rows = _rows(store, "role-every-rite")  # role=主人
    assert RITES <= {row["riteName"] for row in rows}
    # 主人獻賓 in each rite (in 燕禮 and 大射儀 the 主人 is the steward, 宰夫)
    assert all((rite, "獻") in _pairs(rows, "riteName", "kind") for rite in RITES)
    guest = _pairs(_rows(store, "role-every-rite", role="賓"), "riteName", "kind")
    assert all((rite, "酢") in guest for rite in RITES)  # 賓酢主人
    # in these four the guest never offers (賓獻主人 is not said; the 賓's 獻 is the sacrifices')
    assert not any(kind == "獻" for rite, kind in guest if rite in RITES)


# --------------------------------------------------------------------------- object-rites


def test_the_jue_cup_is_washed_and_offered_in_every_rite_the_gu_only_at_the_rulers(store):
    jue = _pairs(_rows(store, "object-rites"), "riteName", "kind")  # object=爵
    assert all((rite, "洗") in jue and (rite, "獻") in jue for rite in RITES)
    gu = {row["riteName"] for row in _rows(store, "object-rites", object="觚")}
    assert gu & RITES == {"燕禮", "大射儀"}  # 主人盥洗象觚 (燕禮); no 觚 in 鄉飲酒禮 or 鄉射禮


# ------------------------------------------------------------------------ like-other-rite


def test_yan_says_as_in_the_district_archery(store):
    rows = _rows(store, "like-other-rite")
    # 燕禮 記: 若射，則大射正為司射，如鄉射之禮
    assert ("燕禮", "鄉射之禮", "鄉射禮") in _pairs(rows, "riteName", "like", "namedRite")
    assert all(row.get("namedRite") != row["riteName"] for row in rows)
    assert not any(row["like"] == "賓禮" for row in rows)  # 如賓禮 names no chapter


# -------------------------------------------------------------------------- liji-explains


def test_sheyi_and_xiangyinjiuyi_explain_the_district_archery(store):
    rows = _rows(store, "liji-explains")  # rite=鄉射禮
    assert {row["chapterName"] for row in rows} == {"禮記·射義", "禮記·鄉飲酒義"}
    first = [row for row in rows if row["chapterName"] == "禮記·射義"][0]
    assert first["text"] == "古者諸侯之射也，" and first["tlsId"] == "KR1d0052_tls_047-1a.3"
    assert int(first["quotedBy"]) >= 1  # 疏 on 鄉射禮: 射義云古者諸侯之射也
    yan = {row["chapterName"] for row in _rows(store, "liji-explains", rite="燕禮")}
    assert yan == {"禮記·燕義"}


# ------------------------------------ the rites reviewed last: 士冠禮, 特牲饋食禮, 聘禮, 喪服


def _acts(store, kind: str, rite: str) -> set[tuple[str, ...]]:
    """(agent, recipient) of the acts of a kind in a rite (canned query interactions)."""
    return _pairs(_rows(store, "interactions", kind=kind, rite=rite), "agent", "recipient")


def test_in_shiguan_the_guest_caps_and_toasts_the_youth_never_the_reverse(store):
    # 士冠禮: 賓…加之 (注: 賓加冠); 賓揖冠者…醮之 (each capping and its toast are the 賓's);
    # 主人戒賓 / 乃宿賓: the host warns and summons the guest, never the guest the host
    caps = _acts(store, "冠", "士冠禮")
    assert ("賓", "冠者") in caps and ("冠者", "賓") not in caps, caps
    toasts = _acts(store, "醮", "士冠禮")
    assert ("賓", "冠者") in toasts and not {a for a, _ in toasts} - {"賓"}, toasts
    for kind in ("戒", "宿"):
        acts = _acts(store, kind, "士冠禮")
        assert ("主人", "賓") in acts and ("賓", "主人") not in acts, (kind, acts)


def test_in_teshengkuishi_the_corpse_returns_the_cup_to_the_host_and_the_wife_offers(store):
    # 特牲饋食禮: 尸酢主人 (the 尸 returns the cup); 主婦洗爵于房，酌，亞獻尸; 賓三獻 (注: 賓長)
    returns = _acts(store, "酢", "特牲饋食禮")
    assert ("尸", "主人") in returns and ("主人", "尸") not in returns, returns
    offers = _acts(store, "獻", "特牲饋食禮")
    assert {("主婦", "尸"), ("賓", "尸")} <= offers, offers
    assert not {r for a, r in offers if a == "尸"}, offers  # the 尸 offers to no one


def test_in_pin_the_envoy_delivers_the_message_and_bows_to_the_host_ruler(store):
    # 聘禮: 賓…致命 (the envoy gives his lord's message to the host ruler, 公); 賓…再拜稽首;
    # 賓覿 (his private audience with the 公), never the ruler's audience with him
    messages = _acts(store, "致命", "聘禮")
    assert ("賓", "公") in messages and ("公", "賓") not in messages, messages
    audiences = _acts(store, "覿", "聘禮")
    assert ("賓", "公") in audiences and ("公", "賓") not in audiences, audiences
    bows = _acts(store, "稽首", "聘禮")
    assert ("賓", "公") in bows, bows


def test_sangfu_is_read_as_a_table_of_mourning_not_as_acts_of_its_words(store):
    # 喪服 (docs/annotation.md, convention 9): 傳曰 and its questions are no speech of a 能者,
    # 至尊 no act 及; the acts it states are few (大夫弔于命婦; the 傳's reasons,
    # 以時接見乎天子, none)
    rows = _rows(store, "interactions", kind="行事", rite="喪服")
    assert rows and len(rows) < 10, rows
    assert not {row["agent"] for row in rows} & {"能者", "君", "母"}, rows


# ------------------------------------------------------------------------------ mourning


def test_mourning_for_the_father_and_the_grandparents_on_the_whole_book(store):
    # 喪服 斬衰: 父 (jing/6.1.1); 不杖期: 祖父母 (jing/44.1.1), text as read
    father = _rows(store, "mourning-for", kin="父")
    assert ("斬衰三年", "25", "jing/6.1.1", "父") in {
        (r["grade"], r["months"], r["clauseId"], r.get("text")) for r in father
    }
    assert "緦麻" not in {r["grade"] for r in father}
    grandparents = _rows(store, "mourning-for")  # 祖父母
    assert ("齊衰不杖期", "jing/44.1.1", "祖父母") in {
        (r["grade"], r["clauseId"], r.get("text")) for r in grandparents
    }


def test_mourning_grade_lists_for_whom_sima_is_worn_on_the_whole_book(store):
    # 喪服 緦麻，三月者 (jing/164): 族曾祖父母 (jing/166.1.1) … 甥 (jing/184.1.1), 舅 (jing/191.1.1)
    rows = _rows(store, "mourning-grade", grade="緦麻")
    assert {"族曾祖父母", "甥", "舅", "外孫"} <= {r.get("mourned") for r in rows}
    assert {r["months"] for r in rows} == {"3"}
    assert "曾祖父母" not in {r.get("mourned") for r in rows}  # 齊衰三月 (jing/95.1.1)


def test_the_reading_view_shows_who_mourns_whom_under_an_entry_of_sangfu(store):
    # 喪服: the entry 父 (jing/6.1.1) states 斬衰三年 for the father, worn by the speaker (己,
    # no mourner named); 女子子在室為父 (jing/18.1.1) by the daughter at home; 從祖祖父母…報
    # (jing/147.1.3) the 從祖祖父母 for the speaker in return (the three phases only: each
    # phase read is five queries, and 喪服 has some 150)
    from yili_kg.service.views.reading import Readings

    reading = Readings(store)
    toc = {row["label"]: row["index"] for row in reading.toc("sangfu")}
    # its table of phases counts the obligations each states (父: one, 斬衰三年), not acts
    father_row = next(row for row in reading.toc("sangfu") if row["label"] == "父")
    assert father_row["obligations"] == 1 and father_row["events"] == 0, father_row

    def clauses(label: str) -> dict:
        return {c.pid: c for c in reading.phase("sangfu", toc[label]).clauses}

    father = clauses("父")
    assert [(m.grade, m.mourner, m.mourned) for m in father["jing/6.1.1"].mourning] == [
        ("斬衰三年", "", "父")
    ]
    assert father["jing/6.1.1"].mourning[0].zh == "斬衰三年 · 己為父"
    assert (
        father["jing/6.1.1"]
        .mourning[0]
        .en.startswith("cut-edged sackcloth, three years (25 months), worn by the")
    )
    assert not father["zhuan/7.2.1v2"].mourning  # 父至尊也: the 傳's reason, no entry
    daughter = clauses("女子子為父出反在室")["jing/18.1.1"].mourning
    assert [(m.grade, m.mourner, m.mourned, m.condition) for m in daughter] == [
        ("斬衰三年", "女子子", "父", "在室")
    ]
    section = clauses("從祖祖父母")
    returned = [m for m in section["jing/147.1.3"].mourning if m.mourner == "從祖祖父母"]
    assert [m.zh for m in returned] == ["小功 · 從祖祖父母為己"], returned
    assert returned[0].en.endswith("for the speaker (己)"), returned[0].en
