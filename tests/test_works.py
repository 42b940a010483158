"""The works authority (corpus/works.tsv) and the citation finder, on the real corpus."""

from __future__ import annotations

from functools import cache

import pytest

from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.graph.works import FIELDS, find_citations, read_works
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
    header = "\t".join(FIELDS) + "\n"

    def row(wid, names, bare="", context="", offices="", part_of=""):
        cells = [wid, "A", "A", names, bare, context, offices, part_of, "", "", "", "", ""]
        return "\t".join(cells) + "\n"

    for rows, message in [
        (row("a", "詩") + row("b", "詩"), "also a"),
        (row("a", "詩", part_of="nowhere"), "part_of"),
        (row("a", "周禮", offices="小胥") + row("b", "小胥"), "also a"),  # an office is a name
        (row("a", "詩", bare="書", context="after=案"), "not in names"),
        (row("a", "詩", bare="詩"), "go together"),
        (row("a", "詩", bare="詩", context="after案"), "key=a,b"),
        (row("a", "詩", bare="詩", context="below=案"), "key=a,b"),
        (row("a", "詩", bare="詩", context="after=案;after=按"), "once a key"),
        (row("a", "詩", bare="詩", context="as=word"), "only as=rite"),
    ]:
        bad.write_text(header + rows, encoding="utf-8")
        with pytest.raises(SourceError, match=message):
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


# ------------------------------------------------ the words of the finder, one test a class
# (works.tsv bare/context/offices, annotation-words.tsv cite-…), each on the words of a real note


@cache
def _notes(rite: str) -> tuple[str, ...]:
    return tuple(r.text for r in rite_rows(rite) if r.kind != "經")


def note(rite: str, words: str) -> str:
    """``words``, checked to be in a note (注, 疏, 音義, 考證) of ``rite``'s Kanripo witness."""
    assert any(words in text for text in _notes(rite)), (rite, words)
    return words


@pytest.mark.parametrize(
    ("rite", "text", "expected"),
    [
        ("xiangshe", "鄭皆約鄉飲酒知之也", ["xiangyinjiu"]),  # cite-rite-after 約
        ("xiangshe", "又復決遂者彼大射志於射", ["dashe"]),  # 彼
        ("shiguan", "主人退賓拜送鄉射亦然", ["xiangshe"]),  # cite-rite-before 亦
        ("shiguan", "特牲云有司士之屬吏亦尊類也", ["teshengkuishili"]),  # 云
        ("xiangyinjiu", "鄉飲酒及鄉射大夫禮卑無大師", ["xiangyinjiu", "xiangshe"]),  # cite-list 及
        ("xiangyinjiu", "若鄉射與大射同略於樂", ["xiangshe", "dashe"]),  # 與
        ("shiguan", "主人與賓立相鄉位定将行冠禮者也", []),  # cite-rite-not-after 行
        ("xiangyinjiu", "此鄉飲酒亦尚樂而不面鼓", []),  # 此: the chapter naming itself
        ("dashe", "則此篇司正與大射正爲一人也", []),  # dashe not-before 正: the office
    ],
)
def test_a_rites_name_counts_in_a_citing_context(works, rite, text, expected):
    assert cited(note(rite, text), works) == expected


@pytest.mark.parametrize(
    ("rite", "text", "work"),
    [
        ("teshengkuishi", "故詩楚茨云禮儀既備", "shijing"),  # shijing after 故
        ("xiangyinjiu", "案羔羊詩序云召南之國化文王之政", "shijing"),  # before 序
        ("xiangyinjiu", "引易頤象辭者義取養賢能而賔舉之事也", "zhouyi"),  # after 引 only
        ("dashe", "云春秋傳者是外傳泠州鳩對周景王辭", "guoyu"),  # after 是
        ("shiguan", "案冬官匠人庿門容大扃七个", "kaogongji"),  # after 案
        ("pin", "此三者皆見春秋經引之者", "chunqiu"),  # before 經
        ("xiangshe", "若然投壺禮賓固辭乃許者", "liji-touhu"),  # before 禮
        ("xiangyinjiu", "此雜記文略而言之", "liji-zaji"),  # before 文
    ],
)
def test_a_bare_name_counts_where_its_context_says(works, rite, text, work):
    assert work in cited(note(rite, text), works)


def test_the_words_quoted_and_where_they_end(works):
    def quote(rite, text):
        return find_citations(note(rite, text), works)[0].quote

    # cite-also 亦 between the name and cite-said 云; cite-quote-end through 也
    assert quote("shiguan", "孝經亦云百王同之不改易也若然") == "百王同之不改易也"
    # cite-quote-end before 鄭注云
    assert (
        quote("shihun", "聘禮又云公側襲受玉於中堂與東楹之間鄭注云") == "公側襲受玉於中堂與東楹之間"
    )
    # cite-quote-lead 注, cite-quote-end before 注云
    assert quote("shiguan", "昏禮注云此筵不主為飲食起聘禮注云") == "此筵不主為飲食起聘禮"
    # cite-quote-end 者 before the 疏's own words (cite-own 案), or with them none is quoted
    assert quote("xiangshe", "云爾雅曰笙小者謂之和者案爾雅釋樂云") == "笙小者謂之和"
    assert quote("xiangshe", "云春秋傳曰者案莊十年秋九月經書荆敗蔡師于莘") is None
    # cite-quote-end before 是也 (and an office before cite-office-before 曰)
    assert quote("xiangshe", "而注引圉師職曰射則充椹質是也") == "射則充椹質"


@pytest.mark.parametrize(
    ("rite", "text", "name"),
    [
        (
            "shisang",
            "案周禮天官夏采職云大喪以冕服復於大祖",
            "周禮天官夏采職",
        ),  # cite-office-section
        ("dashe", "大司馬職云若大射合諸矦之六耦", "大司馬職"),  # cite-office-prefix 大
        ("xiangyinjiu", "竝大司徒職文故彼鄭注云", "大司徒職"),  # cite-office-before 文
        ("dashe", "按小師職注云管如篴而小", "小師職"),  # cite-office-before 注
    ],
)
def test_an_office_of_the_zhouli_is_cited_as_x_zhi(works, rite, text, name):
    hits = [h for h in find_citations(note(rite, text), works) if h.work == "zhouli"]
    assert [h.name for h in hits] == [name]


@pytest.mark.parametrize(
    ("rite", "text"),
    [
        ("yan", "有小臣之官上士四人其職云掌王之小命"),  # cite-office-not 其
        ("jin", "所謂秋官司盟之職云北面詔明神"),  # 之
        ("shaolaokuishi", "大祝相尸禮者案職云相尸禮"),  # 者
    ],
)
def test_words_that_are_no_office(works, rite, text):
    assert "zhouli" not in cited(note(rite, text), works)


def test_a_title_with_a_quote_lead_in_punctuated_text(works):
    # seeds/002 (儀禮注疏 卷十三, web): 《鄉飲酒》記曰：“與立者皆薦以齒。”
    # (cite-quote-lead 記, titled: also after a 《title》)
    lines = (corpus_dir() / "seeds/002_619c37b896ddbf6e.txt").read_text("utf-8").splitlines()
    at = lines.index("《鄉飲酒》記曰：“與立者皆薦以齒。")
    hits = find_citations("\n".join(lines[at : at + 2]), works, punctuated=True)
    assert [(h.work, h.quote) for h in hits] == [("xiangyinjiu", "與立者皆薦以齒。")]
