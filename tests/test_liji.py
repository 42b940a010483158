"""The 禮記 chapters that explain the rites, and the notes' quotations of them resolved."""

from __future__ import annotations

import pytest

from yili_kg.loaders.graph.liji import EXPLAINERS, ChapterText, explainers, read_chapters


@pytest.fixture(scope="module")
def chapters():
    return {c.explainer.slug: c for c in read_chapters()}


def _texts(chapter, nodes):
    by_node = {chapter.segment_node(s): s.text for s in chapter.segments}
    return [by_node[n] for n in nodes]


def test_the_six_chapters_are_read_with_their_tls_ids(chapters):
    assert list(chapters) == [e.slug for e in explainers()]
    sheyi = chapters["sheyi"]
    first = sheyi.segments[0]
    assert first.id == "KR1d0052_tls_047-1a.3" and first.text == "古者諸侯之射也，"
    assert str(sheyi.segment_node(first)).endswith("/id/liji/sheyi/047-1a.3")
    sizes = {slug: len(c.segments) for slug, c in chapters.items()}
    assert sizes == {"guanyi": 64, "hunyi": 148, "xiangyinjiuyi": 221, "sheyi": 195,
                     "yanyi": 86, "pinyi": 162}  # fmt: skip
    # offsets give the order, without gaps
    for chapter in chapters.values():
        pairs = zip(chapter.segments, chapter.segments[1:], strict=False)
        assert all(a.end == b.start for a, b in pairs)


def test_the_chapters_and_their_rites_are_the_works_authoritys():
    # works.tsv: the 禮記 chapters whose explains column names rites, their <head> the title's
    # part after ·, their slug the id without liji-, text_en where the text's English differs
    read = {e.slug: (e.title, e.work, e.rites) for e in explainers()}
    assert read == {
        "guanyi": ("冠義", "liji-guanyi", ("shiguan",)),
        "hunyi": ("昏義", "liji-hunyi", ("shihun",)),
        "xiangyinjiuyi": ("鄉飲酒義", "liji-xiangyinjiuyi", ("xiangyinjiu", "xiangshe")),
        "sheyi": ("射義", "liji-sheyi", ("xiangshe", "dashe")),
        "yanyi": ("燕義", "liji-yanyi", ("yan",)),
        "pinyi": ("聘義", "liji-pinyi", ("pin",)),
    }
    english = {e.slug: e.en for e in EXPLAINERS}
    assert english["xiangyinjiuyi"] == "Meaning of the District Drinking Rite"  # text_en
    assert english["sheyi"] == "Meaning of Archery"  # en


def test_a_quotation_is_found_exactly_or_around_its_longest_run(chapters):
    yinjiu = ChapterText(chapters["xiangyinjiuyi"])
    found, how = yinjiu.find("祭薦祭酒敬禮也")  # 鄉飲酒禮 疏: 鄉飲酒義云「祭薦、祭酒，敬禮也」
    assert how == "exact" and _texts(yinjiu.chapter, found) == ["祭薦、", "祭酒，", "敬禮也。"]
    found, how = yinjiu.find("尊於房户之間賔主共之")  # the 疏's 房户 for the text's 房中
    assert how == "aligned" and _texts(yinjiu.chapter, found) == ["尊於房中之間，", "賓主共之也。"]
    # the 疏 writes 潔 for 絜 and adds 主人: still the segments of 盥洗揚觶，所以致絜也
    found, how = yinjiu.find("主人盥洗揚觶所以致潔也")
    assert how == "aligned" and _texts(yinjiu.chapter, found) == ["盥、洗、揚觶，", "所以致絜也。"]


def test_words_the_chapter_does_not_have_are_not_resolved(chapters):
    sheyi = ChapterText(chapters["sheyi"])
    assert sheyi.find("毋不敬儼若思安定辭") == ([], "")  # 曲禮, not 射義
    assert sheyi.find("射") == ([], "")  # too short to be a quotation


def test_chapters_explain_their_rites_in_the_graph(ask):
    rows = ask("""SELECT ?chapter ?rite WHERE { ?c yl:explainsRite ?r ; rdfs:label ?chapter .
        ?r rdfs:label ?rite .
        FILTER(langMatches(lang(?chapter), "zh-Hant"))
        FILTER(langMatches(lang(?rite), "zh-Hant")) }""").rows
    pairs = {(r["chapter"].value, r["rite"].value) for r in rows}
    assert ("禮記·射義", "鄉射禮") in pairs and ("禮記·鄉飲酒義", "鄉射禮") in pairs
    assert ("禮記·燕義", "鄉射禮") not in pairs
    inverse = ask(
        """ASK { ?r yl:chapter 5 ; yl:riteExplainedBy ?c . ?c rdfs:label "禮記·射義"@zh-Hant }"""
    )
    assert inverse.boolean


def test_the_notes_quotation_of_sheyi_is_resolved_to_its_words(full_ask, full_build_dir):
    ask = full_ask  # the 記 of 鄉射禮 quoting 射義 is outside the mini dataset
    # 鄉射禮 注: 射義曰「騶虞者，樂官備也」 → the segments of 射義 that say it
    rows = ask("""SELECT ?text WHERE { ?note yl:citation ?c . ?c yl:quotes ?q ;
        yl:quotesPassage ?s . ?s a yl:LijiSegment ; yl:text ?text .
        FILTER(CONTAINS(STR(?q), "騶虞者樂官備")) }""").rows
    assert {r["text"].value for r in rows} >= {"《騶虞》者，", "樂官備也，"}
    wrong = ask("""ASK { ?c yl:quotesPassage ?s . ?s a yl:LijiSegment ; yl:partOf ?ch .
        ?ch rdfs:label "禮記·冠義"@zh-Hant . ?c yl:quotes ?q .
        FILTER(CONTAINS(STR(?q), "騶虞")) }""")
    assert not wrong.boolean
