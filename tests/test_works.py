"""The works authority (corpus/works.tsv) and the citation finder, on the real corpus."""

from __future__ import annotations

import pytest

from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.graph.works import find_citations, read_works
from yili_kg.loaders.variants import fold
from yili_kg.loaders.witnesses.kanripo import rite_rows

NOTES = ("注", "疏")


@pytest.fixture(scope="module")
def works():
    return read_works()


def cited(text, works):
    return [h.work for h in find_citations(text, works)]


def test_authority_shape(works):
    assert len(works) >= 25
    for work in works.values():
        assert work.part_of is None or work.part_of in works, work.id
        assert work.ctext is None
        assert work.names and all(work.names)
    assert works["liji-sheyi"].part_of == "liji"
    assert works["kaogongji"].part_of == "zhouli"
    assert works["xiangyinjiu"].part_of == "yili"
    assert works["xiangshe"].kanripo == "KR1d0028_005"
    assert works["dashe"].title == "儀禮·大射儀"


def test_names_unique_across_works(works):
    owner: dict[str, str] = {}
    for work in works.values():
        for name in work.names:
            assert owner.setdefault(fold(name), work.id) == work.id, name


def test_bad_table_is_refused(tmp_path):
    bad = tmp_path / "works.tsv"
    header = "id\ttitle\ten\tnames\tpart_of\tkanripo\tctext\tnote\n"
    bad.write_text(header + "a\tA\tA\t詩\t\t\t\t\nb\tB\tB\t詩\t\t\t\t\n", encoding="utf-8")
    with pytest.raises(SourceError, match="also a"):
        read_works(bad)
    bad.write_text(header + "a\tA\tA\t詩\tnowhere\t\t\t\n", encoding="utf-8")
    with pytest.raises(SourceError, match="part_of"):
        read_works(bad)


def test_xiangshe_commentary_cites_twenty_works(works):
    found = {
        w for row in rite_rows("xiangshe") if row.kind in NOTES for w in cited(row.text, works)
    }
    found.discard("xiangshe")  # the chapter naming itself
    assert len(found) >= 20
    assert {"xiangyinjiu", "dashe", "yan", "zhouli", "liji-sheyi"} <= found


def test_segment_2_note_cites_zhouli(works):
    note = next(r for r in rite_rows("xiangshe") if r.kind == "注" and r.segment == 2)
    assert note.text.startswith("主人州長也")
    hits = find_citations(note.text, works)
    zhouli = [h for h in hits if h.work == "zhouli"]
    assert zhouli and note.text[zhouli[0].start : zhouli[0].end] == "周禮"
    assert note.text[zhouli[0].end :].startswith("鄉老及鄉大夫")


def test_xiangyinjiu_in_the_subcommentary_is_the_rite(works):
    rows = [
        r
        for r in rite_rows("xiangshe")
        if r.kind == "疏" and "鄉飲酒注云" in r.text and "鄉飲酒義" not in r.text
    ]
    assert rows
    for row in rows:
        works_cited = cited(row.text, works)
        assert "xiangyinjiu" in works_cited
        assert "liji-xiangyinjiuyi" not in works_cited
    hit = find_citations("釋曰鄉飲酒注云賓主之辭未聞", works)[0]
    assert (hit.work, hit.name, hit.quote) == ("xiangyinjiu", "鄉飲酒", "賓主之辭未聞")


def test_xiangyinjiuyi_is_the_liji_chapter_only(works):
    assert cited("案鄉飲酒義云主人拜迎賓于庠門之外", works) == ["liji-xiangyinjiuyi"]
    hits = find_citations("則禮記鄉飲酒義云六十者坐五十者立侍", works)
    assert [(h.work, h.name) for h in hits] == [("liji-xiangyinjiuyi", "禮記鄉飲酒義")]
    note = next(r for r in rite_rows("xiangshe") if r.kind == "注" and r.segment == 330)
    assert "liji-xiangyinjiuyi" in cited(note.text, works)
    assert "xiangyinjiu" not in cited(note.text, works)


@pytest.mark.parametrize(
    "text",
    [
        "司射適堂西袒決遂取弓于階西",  # 射 alone is never a work
        "射人告具于公",
        "若然大射正與司射各一人",  # the office 大射正
        "今日行鄉飲酒之禮",  # the rite as practised
        "鄉飲酒鄉射義取擇賢士爲賓",  # 鄉射義 is not 禮記·射義
        "教六詩曰風曰賦",  # the six modes
        "若畿内則但有熊矦豹矦",  # 内 + 則, not 內則
        "嫌易之也",  # 易 "change"
        "少詩召反",  # a 音義 reading
        "州長春秋習射",  # "spring and autumn"
        "此以下雜記也",  # the chapter's own notes
    ],
)
def test_no_false_citations(text, works):
    assert find_citations(text, works) == []


def test_rites_and_their_confusables(works):
    assert cited("案大射云公就物", works) == ["dashe"]
    assert cited("射義曰為人君者以為君鵠", works) == ["liji-sheyi"]
    assert cited("案燕禮記云君射袒朱襦", works) == ["yan"]
    assert cited("案燕義云使宰夫爲獻主", works) == ["liji-yanyi"]
    assert cited("禮記郊特牲云大夫之奏肆夏", works) == ["liji-jiaotesheng"]
    assert cited("特牲少牢有司徹皆在房户之間", works) == [
        "teshengkuishili",
        "shaolaokuishili",
        "yousiche",
    ]


def test_quotes_and_offices(works):
    hit = find_citations("爾雅曰笙小者謂之和", works)[0]
    assert (hit.work, hit.quote) == ("erya", "笙小者謂之和")
    hit = find_citations("案周禮小胥職云半爲堵全爲肆鄭云", works)[0]
    assert (hit.work, hit.name, hit.quote) == ("zhouli", "周禮小胥職", "半爲堵全爲肆")
    assert cited("案梓人云張五采之矦", works) == ["kaogongji"]
    assert cited("工人士與梓人升自北階", works) == []  # 梓人 as a person
    assert find_citations("孔子曰射者何以射", works) == []


def test_punctuated_titles(works):
    text = "《禮記·射義》云：“孔子射於矍相之圃。”又《詩》云：“四矢反兮。”《驺虞》"
    hits = find_citations(text, works, punctuated=True)
    assert [(h.work, h.quote) for h in hits] == [
        ("liji-sheyi", "孔子射於矍相之圃。"),
        ("shijing", "四矢反兮。"),
    ]
    assert text[hits[0].start : hits[0].end] == "《禮記·射義》"
