"""The ontology and the events: what the text says holds in the graph, and its converses do not."""

from __future__ import annotations

import pytest
from rdflib import URIRef

from yili_kg.loaders.annotation.annotate import annotate_text
from yili_kg.loaders.annotation.annotations import format_events
from yili_kg.loaders.annotation.review import (
    annotation_dir,
    compose,
    phase_file,
    review_layer,
    review_status,
)
from yili_kg.loaders.iris import term
from yili_kg.loaders.terms.lexicon import default_lexicon

# Facts of the whole book: these names mean the full build here (conftest), and the tests
# that use them are marked slow by it.


@pytest.fixture(scope="session")
def ask(full_ask):
    return full_ask


@pytest.fixture(scope="session")
def dataset(full_dataset):
    return full_dataset


def _count(ask, sparql):
    return int(ask(sparql).rows[0]["n"].value)


# ------------------------------------------------------------------------- the ontology


def test_at_least_80_kinds_of_action_every_one_used(ask):
    kinds = _count(ask, "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c rdfs:subClassOf yl:Action }")
    assert kinds >= 80
    unused = ask("""SELECT ?c WHERE { ?c rdfs:subClassOf yl:Action .
        FILTER(STRSTARTS(STR(?c), STR(yl:)))
        FILTER NOT EXISTS { ?c yl:onlyCommanded true }
        FILTER NOT EXISTS { ?e a ?c ; yl:kind ?k } }""").rows
    assert not unused, [r["c"].value for r in unused]
    # an act named only as what is commanded (量: 司馬命量人量侯道) is no event, but the text
    # must command it: a 命 whose clause holds its label
    commanded = ask("""SELECT ?c WHERE { ?c yl:onlyCommanded true ; rdfs:label ?label .
        FILTER(LANG(?label) = "zh-Hant")
        FILTER NOT EXISTS { ?e yl:kind yl:Ming ; yl:derivedFrom ?clause .
                            ?clause yl:text ?text FILTER(CONTAINS(?text, ?label)) } }""").rows
    assert not commanded, [r["c"].value for r in commanded]
    assert _count(ask, "SELECT (COUNT(?c) AS ?n) WHERE { ?c yl:onlyCommanded true }") >= 1


def test_kind_hierarchy_a_scholar_recognises():
    lexicon = default_lexicon()
    assert lexicon.is_a("答再拜", "拜") and lexicon.is_a("答拜", "拜")
    assert lexicon.is_a("答再拜", "再拜") and lexicon.is_a("拜送", "拜揖")
    assert lexicon.is_a("卒爵", "飲") and lexicon.is_a("拾取矢", "取矢")
    assert not lexicon.is_a("揖", "拜")


def test_labels_in_four_languages(ask):
    rows = ask(
        """SELECT ?lang ?label WHERE { role:zhuren rdfs:label ?label .
           BIND(LCASE(lang(?label)) AS ?lang) }"""
    ).rows
    labels = {r["lang"].value: r["label"].value for r in rows}
    assert labels["zh-hant"] == "主人" and labels["zh-hans"] == "主人"
    assert labels["zh-latn-pinyin"] == "zhǔ rén" and labels["en"] == "host"
    xiang = {
        r["lang"].value: r["label"].value
        for r in ask(
            """SELECT ?lang ?label WHERE { ?p yl:phaseIndex 1 ; yl:partOf ?r . ?r yl:chapter 5 .
               ?r rdfs:label ?label . BIND(LCASE(lang(?label)) AS ?lang) }"""
        ).rows
    }
    assert xiang["zh-latn-pinyin"] == "xiāng shè lǐ"  # 鄉 xiāng, from the pinyin witness


def test_contract_properties_exactly(dataset):
    from rdflib import OWL, RDFS

    from yili_kg.loaders.iris import YL

    assert (YL.agent, OWL.inverseOf, YL.performs) in dataset
    assert (YL.agent, RDFS.range, YL.Role) in dataset
    assert (YL.theme, RDFS.range, YL.RitualObject) in dataset
    assert (YL.facing, RDFS.range, YL.Direction) in dataset
    assert (YL.derivedFrom, RDFS.range, YL.Passage) in dataset
    assert (YL.next, RDF_TYPE, OWL.TransitiveProperty) not in dataset


RDF_TYPE = __import__("rdflib").RDF.type


def test_places_have_plan_coordinates_and_relations(ask):
    rows = ask("""SELECT ?x ?y WHERE { place:zuojie yl:planX ?x ; yl:planY ?y }""").rows
    assert float(rows[0]["x"].value) > 0  # 阼階: east
    assert ask("ASK { place:zuojie yl:eastOf place:xijie }").boolean
    assert ask("ASK { place:xijie yl:westOf place:zuojie }").boolean  # inverse, inferred


def test_definition_of_zhuren_from_zheng_xuan(ask):
    rows = ask("""SELECT ?gloss ?note WHERE { role:zhuren yl:definition ?d . ?d yl:text ?gloss ;
                  yl:definedIn ?note . ?note a yl:Zhu }""").rows
    assert any("州長" in r["gloss"].value for r in rows)


def test_the_unnamed_one_of_the_cup_raising_is_glossed_as_the_cup_raiser(ask):
    # 一人洗，舉觶于賓〔注：一人，主人之吏〕: the gloss names the 舉觶者; 一人 alone is anyone
    # unnamed (人: 一人執算以從之), who must not take the gloss as his definition
    query = "SELECT ?gloss WHERE { ?role yl:definition ?d . ?d yl:text ?gloss }"
    glosses = {r["gloss"].value for r in ask(query, role=term("role", "juzhizhe")).rows}
    assert "主人之吏" in glosses
    unnamed = {r["gloss"].value for r in ask(query, role=term("role", "ren")).rows}
    assert "主人之吏" not in unnamed
    # 燕禮 若命長致，則媵爵者奠觶于篚，一人待于洗南: the one who waits is the other
    # 媵爵者 (注: 不致者), not the 舉觶者
    waits = "SELECT ?who WHERE { ?e yl:derivedFrom ?clause ; yl:agent ?who }"
    clause = URIRef("https://w3id.org/yili/id/yan/jing/86.2.4")
    who = {r["who"].value for r in ask(waits, clause=clause).rows}
    assert who == {str(term("role", "yingjuezhe"))}


# ------------------------------------------------------------------------- the annotator


def test_annotator_reads_the_grain_of_the_design():
    events = annotate_text(
        [
            "主人坐取爵于上篚",
            "以降",
            "賓降",
            "主人阼階前西面坐奠爵",
            "興辭降",
            "賓對",
            "主人阼階上當楣北面再拜",
            "賓不辭洗",
        ]
    )
    read = [format_events(e) for e in events]
    assert read[0] == "坐 agent=主人 ; 取 agent=主人 theme=爵 from=上篚"
    assert read[1].startswith("降 agent=主人^")
    assert read[2] == "降 agent=賓"
    assert read[3] == ("坐 agent=主人 at=阼階前 face=西 ; 奠 agent=主人 theme=爵 at=阼階前 face=西")
    assert read[4] == "興 agent=主人^ ; 辭降 agent=主人^ to=賓?"
    assert read[5] == "對 agent=賓 to=主人?"
    assert "再拜 agent=主人 to=賓?" in read[6] and "face=北" in read[6]
    assert read[7].startswith("辭洗 agent=賓") and "neg=1" in read[7]


def test_a_clause_opening_with_xiang_yi_is_a_mutual_salute_not_the_usher():
    # 相 is also the usher (相者); at a clause's start the annotator takes a role over a longer
    # place (賓席末答拜: 賓 answers), but 相揖 and 相左 are acts done to each other (大射儀
    # 上射與下射進，相揖: the review found them read as the usher's 相 and a salute)
    read = [format_events(e) for e in annotate_text(["上射與下射進", "相揖", "相左", "擯辭"])]
    assert read[1] == "揖 agent=上射,下射^"
    assert read[2] == "相左 agent=上射,下射^"
    assert not read[3].startswith("相 ")  # 擯辭: the usher 擯 declines, no act of 相


def test_the_one_gone_out_to_meet_is_the_recipient_not_a_place():
    # 出迎 is a going out (yl:goalObject, as 出), but a person after it is the one met, to=
    # (yl:roleIsRecipient: 聘禮 出迎勞者, 出迎大夫; 有司徹 主人出迎尸), not dest=; a thing after
    # it stays where it was (少牢饋食禮 主人出迎鼎)
    read = [format_events(e) for e in annotate_text(["主人出迎尸"])]
    assert read[0] == "出迎 agent=主人 to=尸"
    thing = [format_events(e) for e in annotate_text(["主人出迎鼎"])]
    assert thing[0] == "出迎 agent=主人 dest=鼎"  # the tripod met where it is brought, no recipient


def test_a_bow_just_before_receiving_the_cup_is_to_the_one_who_gives_it():
    # rule bow-to-offerer: 衆賓皆不拜，受爵 (鄉射禮; 注: 自第四以下又不拜受爵): the bow not made
    # is the bow on receiving from the host, not to the 衆賓之長 who handed him back his cup
    from yili_kg.loaders.annotation.annotate import _annotate, example_clauses

    clauses, notes = example_clauses(
        "主人西階上獻衆賓。衆賓之長升拜受者三人，主人拜送。坐祭，立飲，不拜既爵，授主人爵，"
        "降復位。衆賓皆不拜，受爵，坐祭，立飲"
    )
    read = {
        r.text: (format_events(r.events), rules)
        for r, rules in _annotate(clauses, default_lexicon(), notes)
    }
    events, rules = read["衆賓皆不拜"]
    assert events == "拜 agent=衆賓 to=主人? neg=1" and "bow-to-offerer" in rules


def test_words_answered_by_one_the_zhu_names_were_said_to_him():
    # rule commanded-answers (convention settled 2026-12-06): 燕禮 the messenger's invitation is
    # said to the 上介 who comes out and answers it (注: 上介出答主國使者辭也), not to the envoy
    from yili_kg.loaders.annotation.annotate import _annotate, example_clauses

    clauses, notes = example_clauses(
        "公與客燕。曰：「寡君有不腆之酒」〔注：君使人戒客辭也〕。"
        "對曰：「寡君君之私也」〔注：上介出答主國使者辭也〕"
    )
    read = list(_annotate(clauses, default_lexicon(), notes))
    said, answer = read[1][0], read[2][0]
    assert format_events(said.events) == "曰 agent=人? to=上介? say=寡君有不腆之酒"
    assert "commanded-answers" in read[2][1] and answer.events[0].get("to") == "人"


def test_the_thing_in_hand_is_not_carried_past_things_named_without_a_term():
    # rule thing-in-hand (聘禮): the silk handled before is not what is set out after 米百筥,
    # nor what is received in 士受馬 (米, 栗: things no term names;
    # 馬 is a term since 2026-12-06: 士受馬 reads the horse, not the silk)
    from yili_kg.loaders.annotation.annotate import annotate_example

    for example, expected in (
        ("大夫以束帛致之。士介四人，皆餼大牢，米百筥，設于門外", "設 agent=衆介 dest=門外"),
        ("大夫奉束帛。賓受栗", "受 agent=賓"),
        ("宰夫以束帛授賓。士受馬", "受 agent=士 theme=馬"),
        ("宰夫以束帛授賓。士受馬以出", "受 agent=士 theme=馬 ; 出 agent=士 theme=馬?"),
    ):
        record, applied = annotate_example(example)
        assert format_events(record.events) == expected, applied


def test_a_ji_sentence_about_who_one_is_carries_him_to_its_acts():
    # rule ji-said-of: 燕禮 記 賓為苟敬 … 不嚌肺，不啐酒: the 賓 does not taste, not no one
    from yili_kg.loaders.annotation.annotate import annotate_example

    record, applied = annotate_example("記：賓為苟敬，席于阼階之西，北面，有脀，不嚌肺")
    assert format_events(record.events) == "嚌 agent=賓^ theme=肺 neg=1", applied


def test_a_person_after_yu_ending_a_clause_with_no_subject_is_no_subject():
    # 士喪禮 乃赴于君: the ruler is told, he does not command the messenger with the host
    from yili_kg.loaders.annotation.annotate import annotate_example

    record, applied = annotate_example("乃赴于君。主人西階東，南面，命赴者")
    assert format_events(record.events) == "命 agent=主人 at=西階東", applied


# ------------------------------------------------------------------------- rules as data


def _rule_ids():
    from yili_kg.loaders.annotation.rules import rule_table

    return [r.id for r in rule_table()]


@pytest.mark.parametrize("rule_id", _rule_ids())
def test_every_rule_reads_its_own_examples(rule_id):
    """Each row of corpus/annotation-rules.tsv: every example is read as the row expects, and
    the rule itself is among those applied to the example's last clause."""
    from yili_kg.loaders.annotation.annotate import annotate_example
    from yili_kg.loaders.annotation.rules import rule_table

    row = next(r for r in rule_table() if r.id == rule_id)
    assert row.example[0] and row.expected[0], f"{rule_id}: no example (line {row.line})"
    for example, expected in zip(row.example, row.expected, strict=True):
        record, applied = annotate_example(example)
        assert format_events(record.events, record.reason) == expected, example
        assert rule_id in applied, (example, applied)


def test_rule_table_and_code_name_the_same_rules():
    from yili_kg.loaders.annotation.rules import STAGES, rule_table, rules

    assert sum(len(rules(stage)) for stage in STAGES) == len(rule_table())
    docs = {r.doc for r in rule_table()}
    assert docs <= {str(n) for n in range(1, 13)} | {"rec", "points settled"}


def test_verb_frames_are_annotation_properties_of_the_action_classes():
    """The frames are in the ontology, declared, labelled, and stated on action classes."""
    from rdflib import OWL, RDF, RDFS

    from yili_kg.loaders.iris import YL
    from yili_kg.loaders.terms.ontology import parse_modules

    graph = parse_modules()
    lexicon = default_lexicon()
    for frame in lexicon.frames:
        prop = YL[frame]
        assert (prop, RDF.type, OWL.AnnotationProperty) in graph
        langs = {label.language for label in graph.objects(prop, RDFS.label)}
        assert {"zh-Hant", "en"} <= langs, frame
        assert lexicon.frames[frame], f"{frame} is stated on no term"
    # 于X after 奠 is where the cup goes; after 取 where it comes from; after 立 where one stands
    assert lexicon.has("奠", "yuDestination") and lexicon.has("取", "yuSource")
    assert not lexicon.has("立", "yuDestination") and not lexicon.has("立", "yuSource")
    # a frame holds for subclasses (答再拜 is a 拜); 出于X is where one goes out past
    # (司馬出于下射之南: at), and so is 出迎于門外 where one meets (denied on it as well)
    assert lexicon.has("答再拜", "impliedRecipient") and lexicon.has("降", "yuDestination")
    assert not lexicon.has("出", "yuDestination") and not lexicon.has("出迎", "yuDestination")
    # the ontology's documentation page lists every frame with the terms stating it
    from yili_kg.loaders.publish.docs import render

    page = render(graph)
    assert all(f'id="{frame}"' in page for frame in lexicon.frames)
    events = annotate_text(["主人一相出迎于門外", "賓奠爵于篚"])
    assert "at=門外" in format_events(events[0]) and "dest=篚" in format_events(events[1])


def test_no_vocabulary_left_in_the_annotator_code():
    """The verb sets that were Python constants are gone: the frames and tables replace them."""
    import yili_kg.loaders.annotation.annotate as annotate

    for name in ("DEST_VERBS", "SOURCE_VERBS", "MOVEMENT_DEST", "EXCHANGE", "GROUPS", "UNSTATED"):
        assert not hasattr(annotate, name), name


@pytest.mark.parametrize("gold", ["xiangshe.tsv", "xiangshe-heldout.tsv"])
def test_annotator_f1_on_the_hand_written_gold_sets(gold):
    from pathlib import Path

    from yili_kg.loaders.annotation.evaluate import evaluate

    path = Path(__file__).parent / "gold" / gold
    scores, clauses = evaluate(path)
    assert clauses >= 190
    by_field = {s.field: s for s in scores}
    assert by_field["agent"].f1 >= 0.85 and by_field["kind"].f1 >= 0.85
    for field in ("recipient", "theme", "location", "facing", "negation"):
        assert by_field[field].f1 >= 0.75, field


def test_first_gold_set_is_large_enough():
    from pathlib import Path

    from yili_kg.loaders.annotation.evaluate import read_gold

    assert len(read_gold(Path(__file__).parent / "gold" / "xiangshe.tsv")) >= 250


# ------------------------------------------------------------------------- the graph


def test_counts(ask):
    assert _count(ask, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e yl:kind ?k }") >= 900
    assert _count(ask, "SELECT (COUNT(DISTINCT ?k) AS ?n) WHERE { ?e yl:kind ?k }") >= 80
    assert _count(ask, "SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE { ?r a yl:Role }") >= 30
    assert _count(ask, "SELECT (COUNT(DISTINCT ?o) AS ?n) WHERE { ?o a yl:RitualObject }") >= 45
    assert _count(ask, "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a yl:Place }") >= 30
    events = _count(ask, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e yl:kind ?k }")
    with_agent = _count(
        ask, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e yl:kind ?k ; yl:agent ?a }"
    )
    # the seventeen rites: the new chapters' roles are not all in the ontology yet (issue 15
    # item 7), so the share over the whole book is lower; the four rites of issue 6 keep 0.90
    assert with_agent / events >= 0.85
    slugs = ("xiangyinjiu", "xiangshe", "yan", "dashe")
    four = " ".join(f"<https://w3id.org/yili/id/rite/{slug}>" for slug in slugs)
    where = "VALUES ?rite { " + four + " } ?e yl:kind ?k ; yl:inPhase/yl:partOf ?rite ."
    events4 = _count(ask, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { " + where + " }")
    agent4 = _count(ask, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { " + where + " ?e yl:agent ?a }")
    assert events4 > 4000 and agent4 / events4 >= 0.90
    orphans = _count(
        ask,
        """SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e yl:kind ?k .
        FILTER NOT EXISTS { ?e yl:derivedFrom ?p . ?p yl:text ?t } }""",
    )
    assert orphans == 0


def test_host_offers_the_jue_to_the_guest_facing_north_west_in_xian_bin(ask):
    assert ask("""ASK { ?e a yl:Xian ; yl:agent role:zhuren ; yl:recipient role:bin ;
        yl:theme object:jue ; yl:facing direction:xibei ; yl:inPhase ?p .
        ?p skos:prefLabel "獻賓"@zh-Hant }""").boolean


def test_guest_returns_it_facing_south_east(ask):
    assert ask("""ASK { ?e a yl:Zuo2 ; yl:agent role:bin ; yl:recipient role:zhuren ;
        yl:facing direction:dongnan }""").boolean


#: 鄉射禮's events only: the other rites' readings are automatic and may differ
XIANGSHE = "?e yl:inPhase/yl:partOf <https://w3id.org/yili/id/rite/xiangshe> ."


def test_guest_does_not_offer_to_the_host(ask):
    assert not ask(
        "ASK { ?e a yl:Xian ; yl:agent role:bin ; yl:recipient role:zhuren . " + XIANGSHE + "}"
    ).boolean
    assert not ask(
        "ASK { ?e a yl:Xian ; yl:agent role:bin ; yl:negated false . " + XIANGSHE + "}"
    ).boolean


def test_bin_bu_ci_xi_is_negated(ask):
    rows = ask(
        """SELECT ?neg WHERE { ?e a yl:CiXi ; yl:agent role:bin ; yl:negated ?neg ;
        yl:derivedFrom ?c . ?c yl:text "賓不辭洗"@lzh . """
        + XIANGSHE
        + "}"
    ).rows
    assert [r["neg"].value for r in rows] == ["true"]


def test_da_zai_bai_at_xi_jie_shang_is_a_bai(ask):
    assert ask("""ASK { ?e a yl:DaZaiBai , yl:Bai ; yl:agent role:bin ;
        yl:location place:xijieshang }""").boolean


def test_sima_commands_the_target_keeper(ask):
    assert ask("ASK { ?e a yl:Ming ; yl:agent role:sima ; yl:recipient role:huozhe }").boolean


def test_the_loser_drinks_from_the_zhi(ask):
    assert ask("""ASK { ?e a yl:Yin ; yl:agent role:bushengzhe ; yl:theme object:zhi }""").boolean
    assert ask("""ASK { ?e a yl:ZuZhi ; yl:agent role:bushengzhe ; yl:manner ?m .
        ?m skos:prefLabel "立"@zh-Hant }""").boolean  # 立卒觶: standing


def test_xian_uses_jue_other_drinking_uses_zhi(ask):
    jue = ask("""SELECT (COUNT(*) AS ?n) WHERE { ?e a yl:Xian ; yl:theme object:zhi }""").rows
    assert jue[0]["n"].value == "0"  # 獻用爵: never a 觶 in an offering


def test_the_retainer_is_xiang_sizheng_sima_sizheng(ask):
    rows = ask("""SELECT ?role (MIN(?i) AS ?from) WHERE { ?a a yl:RoleAssignment ; yl:role ?r ;
        yl:inPhase ?p . ?p yl:phaseIndex ?i ; yl:partOf <https://w3id.org/yili/id/rite/xiangshe> .
        ?r skos:prefLabel ?role } GROUP BY ?a ?role ORDER BY ?from""").rows
    assert [r["role"].value for r in rows] == ["相", "司正", "司馬", "司正"]


def test_host_shoots_as_lower_archer_with_the_guest(ask):
    assert ask(
        "ASK { ?pair a yl:Pair ; yl:upperArcher role:bin ; yl:lowerArcher role:zhuren }"
    ).boolean
    assert ask(
        """ASK { ?e a yl:Wei2 ; yl:agent role:zhuren ; yl:assumesRole role:xiashe }"""
    ).boolean


def test_ru_chu_links_to_the_earlier_act(ask):
    rows = ask("""SELECT ?text ?earlier WHERE { ?e yl:like "初"@lzh ; yl:repeats ?r ;
        yl:derivedFrom ?c . ?c yl:text ?text . ?r yl:derivedFrom ?rc . ?rc yl:text ?earlier .
        ?e yl:sequenceIndex ?i . ?r yl:sequenceIndex ?j . FILTER(?j < ?i) }""").rows
    assert len(rows) >= 10


def test_an_act_of_another_round_than_its_phase_s_has_that_round(ask):
    # 記 始射，獲而未釋獲；復，釋獲；復，用樂行之 stands in 江永's first round (phase 18)
    rows = ask("""SELECT ?text ?kind ?round WHERE { ?e yl:derivedFrom ?c ; yl:archeryRound ?round ;
        yl:kind/skos:prefLabel ?kind ; yl:inPhase/yl:phaseIndex 18 ; yl:negated false .
        ?c yl:text ?text .
        FILTER(STRSTARTS(STR(?c), "https://w3id.org/yili/id/xiangshe/ji/1.50.")) }""").rows
    rounds = {(r["text"].value, r["kind"].value): int(r["round"].value) for r in rows}
    assert rounds[("獲而未釋獲", "獲")] == 1, rows
    assert rounds[("釋獲", "釋獲")] == 2
    assert rounds[("用樂行之", "射")] == 3


def test_a_round_is_one_two_or_three():
    from yili_kg.loaders.annotation.annotations import parse_events
    from yili_kg.loaders.errors import SourceError

    assert parse_events("釋獲 round=2")[0].get("round") == "2"
    with pytest.raises(SourceError, match="1, 2 or 3"):
        parse_events("釋獲 round=4")


def test_speech_is_kept(ask):
    assert ask("""ASK { ?e yl:agent role:sishe ; yl:recipient role:bin ;
        yl:speech "弓矢既具，有司請射。"@lzh }""").boolean


def test_every_clause_reviewed():
    from yili_kg.loaders.terms.lexicon import default_lexicon
    from yili_kg.loaders.text.textlayer import build_text_layer

    _, report = compose(build_text_layer(), default_lexicon())
    assert report.coverage == 1.0 and not report.stale and not report.unknown


def test_a_command_naming_no_one_was_given_to_the_one_who_answers():
    """commanded-answers: 命去侯 names no one; the 獲者 who answers 許諾 was commanded
    (大射儀 148: 司馬…命去侯。負侯皆許諾), and one who only acts on is not (the 司馬 himself)."""
    from yili_kg.loaders.annotation.annotate import annotate_text

    command, answer = annotate_text(["司馬命去侯", "獲者許諾"])
    assert format_events(command) == "命 agent=司馬 to=獲者?"
    assert format_events(answer) == "許諾 agent=獲者 to=司馬?"
    command, carried = annotate_text(["司馬命去侯", "反位"])
    assert format_events(command) == "命 agent=司馬"  # no one else acted: no one named


def test_a_goal_object_act_without_yu_takes_its_place_as_where_it_goes():
    """yl:goalObject with no 于 (rule 6): 公就物 and 左足履物 go to and step on the mark, dest;
    with 于 the place is where, as before (立于物: at)."""
    from yili_kg.loaders.annotation.annotate import annotate_text

    (gone,) = annotate_text(["公就物"])
    assert format_events(gone) == "就 agent=公 dest=物"
    (stepped,) = annotate_text(["上射左足履物"])
    assert "dest=物" in format_events(stepped)
    (stands,) = annotate_text(["上射立于物"])
    assert "at=物" in format_events(stands)


def test_the_one_who_assists_is_not_carried_on():
    """assisting: 膳宰贊授肺 helps the 公, so 不拜酒 after it is still the 公's (燕禮 50)."""
    from yili_kg.loaders.annotation.annotate import annotate_text

    *_, helped, bow = annotate_text(["公祭", "如賓禮", "膳宰贊授肺", "不拜酒"])
    assert format_events(helped) == "授 agent=膳宰 to=公? theme=肺"
    assert bow[0].agent == ("公",) and bow[0].get("neg") == "1"


def test_the_pledge_in_order_has_no_other_party():
    """旅酬 denies yl:impliedRecipient (held from 酬): the cup goes round among many in order,
    so 士旅于西階上 names no one it is drunk to (燕禮 137), while 酬 keeps its other party."""
    from yili_kg.loaders.annotation.annotate import annotate_text

    lexicon = default_lexicon()
    assert lexicon.has("酬", "impliedRecipient") and not lexicon.has("旅酬", "impliedRecipient")
    *_, passed = annotate_text(["大夫拜受", "士旅于西階上"])
    assert [e.kind for e in passed] == ["旅酬"] and "to" not in passed[0].fields


def test_a_request_to_no_one_named_was_made_to_the_one_who_grants_it():
    """request-answered: 射人…請立司正 names no one it asks; the 公 who grants it (公許) was
    asked (燕禮 112), not the other party the bow rules would give it."""
    from yili_kg.loaders.annotation.annotate import annotate_text

    request, grant = annotate_text(["射人請立司正", "公許"])
    assert request[0].kind == "請" and request[0].fields["to"] == ("公",)
    assert request[0].marks["to"] == "?"
    assert format_events(grant) == "許 agent=公 to=射人?"


def test_the_development_score_leaves_the_gold_clauses_out():
    """yili-kg evaluate --review: the automatic reading against the reviewed layer of 鄉飲酒禮
    on the clauses no gold set covers (rules are written on these; the gold stays unseen)."""
    from yili_kg.loaders.annotation.evaluate import gold_sets, measure_review

    assert [p.name for p in gold_sets("xiangyinjiu")] == ["xiangyinjiu.tsv"]
    held_out = measure_review("xiangyinjiu")
    everything = measure_review("xiangyinjiu", gold=[])
    assert 0 < held_out.clauses < everything.clauses
    scores = {s.field: s for s in held_out.scores}
    assert scores["agent"].f1 >= 0.80 and scores["kind"].f1 >= 0.90  # a floor, not a target


def test_the_turn_stays_with_one_thanked_for_his_service():
    """turn-goes-back's exception: 賓拜洗 thanks the host for washing the cup; the host who
    answers goes on (降盥 is his, 燕禮 31), while after 賓答再拜 the turn goes back."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    washes, _ = annotate_example("主人坐取觚洗。主人升。賓拜洗。主人賓右奠觚答拜。降盥")
    assert {e.agent for e in washes.events} == {("主人",)}
    salutes, applied = annotate_example("主人拜，賓答再拜。揖衆賓")
    assert salutes.events[0].agent == ("主人",) and "turn-goes-back" in applied


def test_a_thing_and_a_place_suffix_before_the_verb_is_one_place():
    """place-suffix before the first verb (燕禮 34: 主人筵前獻賓 … 筵前受爵): 筵前 is where the
    cup is received, not the mat as the topic of a clause with no agent; after 自 it is where
    the arrow is taken from (覆手自弓上取一個). 筵前 is the place 席前 (筵 and 席 are one mat)."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    received, _ = annotate_example("主人筵前獻賓。賓西階上拜，筵前受爵")
    assert format_events(received.events) == "受 agent=賓^ theme=爵 at=席前"
    taken, _ = annotate_example("下射覆手自弓上取一個")
    assert taken.events[0].fields["from"] == ("弓上",)


def test_one_sent_to_lift_the_cup_carries_the_round_through():
    """Rule sent-acts (鄉飲酒禮 113): 使二人舉觶于賓介，洗，升，實觶于西階上 — the two who lift
    the cups wash, go up and fill them; a helper sent for one act (使人相祭) is not carried on:
    the one the cup was sent to drains it."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    washed, _ = annotate_example("司正降。使二人舉觶于賓介，洗")
    assert format_events(washed.events) == "洗 agent=二人^"
    drained, _ = annotate_example("北面獻賓。賓拜受爵，主人拜送爵。薦脯醢。使人相祭。卒爵")
    assert format_events(drained.events) == "卒爵 agent=賓^"


def test_a_clause_that_is_only_a_row_is_no_act():
    """Rule 12 (大射儀 8: 西階之西，頌磬東面…皆南陳): 南陳 alone says how the chimes are laid out,
    no act of 陳; with a thing named (陳饌) it is still the act."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    row, _ = annotate_example("頌磬東面，其南鍾，其南鑮，皆南陳")
    assert (row.events, row.reason) == ([], "description")
    laid, _ = annotate_example("宰夫陳饌于東房")
    assert laid.events and laid.events[0].kind == "陳"


def test_the_salutes_of_the_walk_are_to_no_one():
    """Rule implied-recipient (鄉射禮 20, 誘射): the 司射 salutes at each station of his walk to
    the mark (當階北面揖，及階揖，升堂揖) and as he sets out (揖進), to no one; the salute before
    going up with another (賓揖升) is to him."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    walk = "司射東面立于三耦之北，搢三而挾一個，揖進，當階北面揖，及階，揖，升堂，揖"
    for clauses in (walk, *(walk.rsplit("，", n)[0] for n in (2, 4, 5))):
        record, _ = annotate_example(clauses)
        salute = [e for e in record.events if e.kind == "揖"][-1]
        assert "to" not in salute.fields, (clauses, format_events(record.events))
    record, _ = annotate_example("主人以賓升，賓揖升")
    assert record.events[0].fields["to"] == ("主人",)


def test_a_place_after_the_last_act_of_a_sentence_is_its_place():
    """Rule place-of-last-act (燕禮 140, 大射儀 322): a place-only clause followed in its sentence
    by no act but a 如X is where the act before was done; followed by an act, or first in its
    sentence, it is that act's place (鄉飲酒禮 88: 笙入堂下，磬南，北面立)."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    offered = "主人降洗，遂獻左右正與内小臣，皆于阼階上，如獻庶子之禮"
    like, _ = annotate_example(offered)
    assert format_events(like.events) == "如 agent=主人^ like=獻庶子之禮"
    stood, _ = annotate_example("笙入堂下，磬南，北面立")
    assert format_events(stood.events) == "立 agent=笙^ at=磬南 face=北"


def test_a_distance_after_a_relative_place_is_part_of_it():
    """Places as written (大射儀 253: 服不侯西北三步，北面拜受爵): a numeral and a measure (步, 笴)
    after a relative place are its distance, part of the place; after a thing alone (燕禮 記:
    上射退于物一笴) they say how far one steps back, and the place is the thing."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    stood, _ = annotate_example("司馬正洗散，遂實爵，獻服不。服不侯西北三步，北面拜受爵")
    assert stood.events[0].fields["at"] == ("侯西北三步",)
    back, _ = annotate_example("上射退于物一笴")
    assert back.events[0].fields["at"] == ("物",)


def test_the_ones_the_ruler_may_choose_are_named_after_or_as_at_first():
    """Rule chosen-by (燕禮 103, 大射儀 292): 唯公所賜 is to the alternatives the sentence names,
    or the next one when it begins with 若 (唯公所賜。若賓，若長); with no alternatives named and
    the round done 如初, to those of the first time; and they go on with the round."""
    from yili_kg.loaders.annotation.annotate import annotate_clauses, example_clauses

    def records(text):
        clauses, notes = example_clauses(text)
        return {r.text: format_events(r.events) for r in annotate_clauses(clauses, notes=notes)}

    after = records("公又舉奠觶，唯公所賜。若賓，若長，以旅于西階上，如初")
    assert after["唯公所賜"] == "賜 agent=公 to=賓,卿?"
    assert after["以旅于西階上"] == "旅酬 agent=賓,卿^ at=西階上 cond=若長"
    again = records(
        "公又行一爵，若賓，若長，唯公所酬，以旅于西階上。卒。公又舉奠觶，唯公所賜，以旅于西階上，如初"
    )
    assert again["唯公所賜"] == "賜 agent=公 to=賓,卿?"
    assert again["如初"] == "如 agent=賓,卿^ like=初"


def test_the_salute_before_going_up_is_to_the_one_who_goes_up_next():
    """Rule goes-up-with (鄉飲酒禮 72, 鄉射禮 9): 主人以爵降，奠于篚。揖讓升。賓厭介升 — the host
    salutes and yields to the 賓, named going up next, not to the 衆賓 offered to last."""
    from yili_kg.loaders.annotation.annotate import annotate_clauses, example_clauses

    clauses, notes = example_clauses("主人獻衆賓。主人以爵降，奠于篚。揖讓升。賓厭介升")
    records = {r.text: format_events(r.events) for r in annotate_clauses(clauses, notes=notes)}
    assert records["揖讓升"] == "揖 agent=主人^ to=賓? ; 讓 agent=主人^ to=賓? ; 升 agent=主人^"


def test_a_length_is_no_act():
    """Rule 12 (鄉射禮 記: 楅長如笴, 物長如笴, 楚撲長如笴): X長如Y gives the thing's length, its
    make, no act of 如; 如 with an act before it is still the procedure (揖讓如初)."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    length, _ = annotate_example("記：楅長如笴")
    assert (length.events, length.reason) == ([], "description")
    again, _ = annotate_example("揖讓如初")
    assert [e.kind for e in again.events] == ["揖", "讓"]


def test_the_side_kept_leaves_the_pair_walking():
    """Rule side-kept (鄉射禮 21.18, 24.8; 大射儀 181): 上射于左 says which side the upper archer
    keeps; what follows is the pair's, not the 上射's alone."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    crossed, _ = annotate_example("上射降三等，下射少右，從之，中等，並行，上射于左，與升射者相左")
    assert format_events(crossed.events) == "相左 agent=上射,下射^ with=射者"


def test_a_push_of_the_bow_salutes_no_one():
    """Rule implied-recipient (鄉射禮 22.2, 大射儀 161: 司馬…西南面，揖弓): 揖 with a thing is a
    push of it toward the target (注: 揖，推之), no one saluted; 揖 alone still is."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    pushed, _ = annotate_example("司射升自西階，司馬降自西階。司馬西南面，揖弓")
    assert format_events(pushed.events) == "揖 agent=司馬 theme=弓"
    bowed, _ = annotate_example("司射升自西階，司馬降自西階。司馬西南面，揖")
    assert bowed.events[0].fields.get("to") == ("司射",)


def test_homage_goes_to_the_host_where_the_ruler_is_long_away():
    """Rule homage-to-ruler (公食大夫禮 大夫相食 … 主人從。受侑幣，再拜稽首, 疏: 以食禮相尊敬，
    雖敵亦稽首): the ruler, who acted in the rite, acting nor addressed within the last 20 acts
    while the 主人 acted just before, the homage is the other party's; with the ruler at hand
    it is his."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    away, _ = annotate_example(
        "公送于大門内，再拜。賓不顧。大夫相食，親戒速。迎賓于門外，拜至。賓升。大夫降盥。賓降。"
        "大夫辭。賓升。大夫降。賓降。賓升，坐祭。賓興。主人降。賓降一等，主人從。受侑幣，再拜稽首"
    )
    assert format_events(away.events) == "再拜 agent=賓^ to=主人? ; 稽首 agent=賓^ to=主人?"
    near, _ = annotate_example(
        "公送于大門内，再拜。賓升，坐祭。主人降。賓降一等，主人從。受侑幣，再拜稽首"
    )
    assert near.events[0].fields.get("to") == ("公",)


def test_unnamed_words_take_no_recipient_from_another_sentence():
    """Rule said-to (士虞禮 記 宗人詔降如初。始虞用柔日，曰「哀子某…」): the words no one is named
    saying (the 記's prayers) are no reply to a named speaker's words of another sentence; the
    answer of the one spoken to (命樂正曰…。樂正曰諾) still goes back to the speaker."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    prayer, applied = annotate_example(
        "記：祝佐食降，復位。宗人詔降如初。始虞用柔日，曰哀子某哀顯相夙興夜處不寧"
    )
    assert "to" not in prayer.events[0].fields and "said-to" not in applied


def test_no_request_goes_to_a_ruler_who_only_sent_a_gift():
    """Rule to-the-ruler (既夕禮 公賵玄纁束…又請): where the 主人 acted in the rite before any ruler
    (the mourner's rite, the 公 only sending his gift), a request naming no one is not the
    ruler's; where the ruler acted first, it is."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    text = "公賵玄纁束，馬兩。擯者出請，入告。主人迎于廟門外。賓入。宰受幣。又請"
    mourner, _ = annotate_example("主人即位。" + text)
    assert mourner.events[0].fields.get("to") == ("賓",)
    ruler, applied = annotate_example(text)
    assert ruler.events[0].fields.get("to") == ("公",) and "to-the-ruler" in applied


def test_the_words_of_two_cases_are_no_dialogue():
    """Rule commanded-answers (覲禮 同姓小邦則曰叔父。其異姓小邦則曰叔舅): the words of a case
    (X則曰) are what each is called, not a turn the next case's words answer; words said to
    no one named still are answered (主人曰…。賓曰「俟閒」)."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    first, _ = annotate_example("同姓小邦則曰叔父‖。其異姓小邦則曰叔舅")
    assert "to" not in first.events[0].fields
    second, _ = annotate_example("同姓小邦則曰叔父。其異姓小邦則曰叔舅")
    assert "to" not in second.events[0].fields


def test_a_bow_among_those_the_pledge_went_round_is_to_no_one():
    """Rule implied-recipient (鄉射禮 辯旅，皆不拜): all of those the pledging round just went
    round, acting among themselves, bow to no one of them (注: 主人之贊者於此始旅，嫌有拜); one
    who was pledged, alone, still bows to the one who pledged him."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    among, _ = annotate_example("受酬者不拜受。辯旅，皆不拜")
    assert format_events(among.events) == "拜 agent=受酬者^ neg=1"
    alone, _ = annotate_example("受酬者不拜受。辯旅，不拜")
    assert alone.events[0].fields.get("to") == ("酬者",)


def test_an_added_mat_after_a_mat_laid_by_no_one_named_is_no_ones():
    # rule added-mat: not after a mat laid by no one named (燕禮, 大射儀 若有諸公…席于阼階西，
    # 北面，東上。無加席): laid by no one named, for no one
    from yili_kg.loaders.annotation.annotate import annotate_example

    record, rules = annotate_example(
        "若有諸公，則先卿獻之，如獻卿之禮。席于阼階西，北面，東上。無加席"
    )
    assert format_events(record.events) == "設 theme=加席 neg=1 noagent=unstated"
    assert "added-mat" not in rules


def test_the_answerer_who_withdraws_withdraws_himself():
    """turn-goes-back's exception: after an answering bow whose clause names the answerer,
    going back (還, 退: 注 還猶退) is his, as 鄉射禮 主人答再拜。退 — not the one answered."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    withdraws, applied = annotate_example("主人速賓，賓拜辱，主人答拜，還")
    assert format_events(withdraws.events) == "還 agent=主人^"
    assert "turn-goes-back" not in applied
    drinks, applied = annotate_example("賓坐奠觶，遂拜，執觶興，主人答拜；不祭")
    assert drinks.events[0].agent == ("賓",) and "turn-goes-back" in applied


def test_an_offering_denied_is_still_the_offerers():
    """One only offered to does not offer, also in an offering the text says is not made
    (大射儀 若命曰復射，則不獻庶子: the host's, not the 士 who drank last)."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    text = "主人洗，升，獻士于西階上。士拜受觶。士旅酌。若命曰復射，則不獻庶子"
    record, _ = annotate_example(text)
    assert format_events(record.events) == "獻 agent=主人^ to=庶子 neg=1 cond=若命曰「復射」"


def test_the_shooting_played_for_is_the_archers_only_when_archers_have_acted():
    """shooting-to-music: 以射 is the round's archers (the group of the last pair to act); with
    no archer yet in the rite it is left as read, not given the lexicon's first group."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    record, applied = annotate_example("三耦皆升。大師升。乃奏《騶虞》以射")
    assert format_events(record.events) == "奏 agent=大師^ ; 射 agent=三耦?"
    assert "shooting-to-music" in applied
    record, applied = annotate_example("大師升。乃奏《騶虞》以射")
    assert format_events(record.events) == "奏 agent=大師^ ; 射 agent=大師^"
    assert "shooting-to-music" not in applied


def test_a_condition_that_persons_are_there_does_not_make_them_its_doers():
    """有諸公，則辭加席 (鄉飲酒禮): a condition that only says persons are there, without 若 as
    with it (若有諸公), is about them; the one carried over before it acts (the 大夫 declines
    his upper mat, 疏: 大夫以公在故謙), not the 諸公."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    record, _ = annotate_example("大夫則如介禮。有諸公，則辭加席，委于席端")
    assert format_events(record.events) == "委 agent=大夫^ theme=加席? dest=席"


def test_a_clause_before_ze_in_the_sentence_of_the_text_layer_is_a_condition():
    """Clauses re-cut keep the ids they were published with: 鄉飲酒禮 有諸公 (jing/131.1.2v2)
    and 則辭加席 (jing/131.2.2) are one sentence of the text layer, the 則 clause read right
    after it, though their ids number other sentences: 有諸公 is the condition."""
    from dataclasses import dataclass

    from yili_kg.loaders.annotation.annotate import _annotate

    @dataclass(frozen=True)
    class Clause:
        id: str
        text: str
        parent: str
        level: str = "clause"

    clauses = [
        Clause("jing/131.1.1v2", "大夫則如介禮", "jing/131.1v2"),
        Clause("jing/131.1.2v2", "有諸公", "jing/131.2"),
        Clause("jing/131.2.2", "則辭加席", "jing/131.2"),
        Clause("jing/131.2.3", "委于席端", "jing/131.2"),
        Clause("jing/131.1.5", "主人不徹", "jing/131.2"),
    ]
    records = [record for record, _ in _annotate(clauses, default_lexicon())]
    assert records[1].reason == "cond"
    assert records[2].events[0].get("cond") == "有諸公"
    assert records[2].events[0].agent == ("大夫",)


def test_writing_missing_records_keeps_a_record_whose_clause_is_gone(tmp_path, monkeypatch):
    """annotate --write rewrites a phase file with the records it lacks: a reviewed record whose
    clause no longer exists (the witness corrected, the clause re-identified) stays in its file,
    for the coverage to report and a reader to move, and is not dropped by the rewrite."""
    from yili_kg.loaders.annotation import annotations, review

    monkeypatch.setattr(annotations, "annotation_dir", lambda rite="": tmp_path)
    monkeypatch.setattr(review, "annotation_dir", lambda rite="": tmp_path)
    layer, lexicon = review.review_layer("jin")
    written = review.write_missing(layer, lexicon, "jin")
    assert written == len(layer.clauses)
    first = sorted(tmp_path.glob("*.tsv"))[0]
    lines = first.read_text("utf-8").splitlines()
    dropped = next(line for line in lines if line and not line.startswith(("#", "id\t")))
    orphan = "jing/999.1.1\t某\t— description\tfixed\ta reader's note"
    kept = [line for line in lines if line != dropped] + [orphan]
    first.write_text("\n".join(kept) + "\n", "utf-8")
    assert review.write_missing(layer, lexicon, "jin") == 1  # the dropped clause again
    after = first.read_text("utf-8")
    assert orphan in after and dropped.split("\t")[0] in after


@pytest.mark.parametrize("rite", sorted(review_status()))
def test_every_record_of_a_reviewed_layer_names_terms_the_graph_takes(rite):
    """A reader may write a word that is no term (執事, a class; 重; 簞 before its term): the
    build would stop at the first; the check lists them all, and the layer must have none."""
    from yili_kg.loaders.graph.events import refused_terms

    text, lexicon = review_layer(rite)
    records, _ = compose(text, lexicon, rite)
    assert [(r.id, why) for r, why in refused_terms(records, lexicon)] == []


@pytest.mark.parametrize("rite", sorted(review_status()))
def test_every_phase_has_its_file_under_its_name(rite):
    """A phase's records are in NN-<name>.tsv, the name the text layer gives the phase (the 疏's
    topic, else its first clause): a file under another name would be left beside a new one by
    ``yili-kg annotate --write`` (喪服 62 was named by a 總 of the 疏's argument, not a topic)."""
    text, _ = review_layer(rite)
    folder = annotation_dir(rite)
    expected = {phase_file(rite, p.index, p.name).name for p in text.phases}
    assert {p.name for p in folder.glob("*.tsv")} == expected


def test_the_cup_stopped_is_held_by_the_one_who_received_it():
    """Rule cup-stopped (convention 34), in 有司徹's own text: 爵止 naming no one is the act of the
    one holding the cup just offered him — in the brothers' round the 長兄弟 who received it
    (長拜受于其位，舉爵者東面答拜。爵止; 注: 兄弟言止), later the 尸 (賓長…獻于尸。尸拜受…爵止), not
    no one."""
    from yili_kg.loaders.annotation.annotate import annotate_clauses, commentary_of

    layer, lexicon = review_layer("yousiche")
    records = annotate_clauses(layer.clauses, lexicon, commentary_of(layer))
    stopped = [format_events(r.events) for r in records if r.text == "爵止"]
    assert stopped == ["止 agent=長兄弟? theme=爵", "止 agent=尸? theme=爵"]


def test_the_reviewed_layers_read_what_the_blind_check_settled():
    """Facts of the text that independent blind readings found the review had wrong
    (docs/checks/blind-2026-12-07/), held in the layers the graph is built from."""
    from yili_kg.loaders.annotation.annotations import read_layer

    def events(rite, cid):
        return [
            (e.kind, set(e.agent), set(e.fields.get("to", ())))
            for e in read_layer(rite)[cid].events
        ]

    # 大射儀: the winner goes down after the loser and the two walk on together (注: 復竝行)
    assert events("dashe", "jing/242.1.1")[0][1] == {"不勝者", "勝者"}
    # 士昏禮 媵禦沃盥交: the 媵 pours for the groom, the 御 for the bride (注)
    pourings = {
        (frozenset(a), frozenset(t)) for k, a, t in events("shihun", "jing/44.4.1") if k == "沃"
    }
    assert pourings == {
        (frozenset({"媵"}), frozenset({"壻"})),
        (frozenset({"御"}), frozenset({"婦"})),
    }
    # 鄉飲酒禮: the 公 who comes to watch is one of the 諸公 (注: 大國有孤四命謂之公),
    # never the ruler
    ruler_in_it = [
        cid
        for cid, record in read_layer("xiangyinjiu").items()
        for e in record.events
        if "公" in (*e.agent, *e.fields.get("to", ()))
    ]
    assert ruler_in_it == []
    # 聘禮: the 卿's homage for his ruler's message goes to that ruler, not to the envoy
    assert events("pin", "jing/287.1.2")[0][2] == {"君"}


def test_a_blind_reading_scores_the_review_and_the_annotator(tmp_path, monkeypatch):
    """docs/checks/blind-2026-12-07/: a reading written blind checks either the annotator or the
    reviewed layer (`yili-kg evaluate --gold FILE --of review`); after the check the review reads
    大射儀's drinking of the losers as the blind reader did more often than the annotator does.
    A blind reading is never a layer's record."""
    from pathlib import Path

    from yili_kg.loaders.annotation import annotations
    from yili_kg.loaders.annotation.evaluate import measure
    from yili_kg.loaders.errors import SourceError

    reading = Path("docs/checks/blind-2026-12-07/readings/dashe-D.tsv")
    review, annotator = measure(reading, of="review"), measure(reading, of="annotator")
    assert review.clauses == annotator.clauses == 142 and not review.unmatched
    agent = {
        m: next(s for s in r.scores if s.field == "agent")
        for m, r in (("review", review), ("annotator", annotator))
    }
    assert agent["review"].f1 > agent["annotator"].f1
    layer = tmp_path / "dashe"
    layer.mkdir()
    (layer / "01.tsv").write_text(reading.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(annotations, "annotation_dir", lambda rite: tmp_path / rite)
    with pytest.raises(SourceError, match="blind reading"):
        annotations.read_layer("dashe")
