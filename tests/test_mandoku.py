"""The Kanripo mandoku reader against the files once derived from the same raw files by hand."""

from dataclasses import replace
from pathlib import Path

import pytest

from yili_kg.loaders.text.ritetable import read_rites
from yili_kg.loaders.witnesses.kanripo import gaiji, read_tsv, rite_rows
from yili_kg.loaders.witnesses.mandoku import corrections

DERIVED = Path(__file__).parent / "data" / "kanripo-derived"
CHAPTERS = {"xiangyinjiu": 4, "xiangshe": 5, "yan": 6, "dashe": 7}


def _slips_found_later(slug: str) -> list:
    """The transcription slips of the 四庫 file corrected in kanripo-corrections.tsv (replace
    rows); those found after the files were derived are still in them (大射儀 王人升 → 主人升,
    SBCK 主人升)."""
    return [
        fix
        for fix in corrections()
        if fix.action == "replace" and fix.juan == CHAPTERS[slug] and fix.before != fix.after
    ]


@pytest.mark.parametrize("slug", CHAPTERS)
def test_reader_gives_the_derived_rows(slug):
    """Every row (經, 注, 音義, 疏, ○, 考證): same number, kind, segment, page and characters,
    but for slips corrected since the files were derived."""
    name = f"yili-{CHAPTERS[slug]:02d}-{slug}"
    derived = list(read_tsv(DERIVED / f"{name}.zhushu.txt"))
    jing = [line for line in (DERIVED / f"{name}.txt").read_text("utf-8").splitlines()]
    jing = [line for line in jing if line and not line.startswith("#")]
    for fix in _slips_found_later(slug):
        at = [i for i, r in enumerate(derived) if r.page == fix.page and fix.before in r.raw]
        if not at:
            continue  # the derived files have it corrected already ((目/木) → 相)
        assert len(at) == 1, fix
        row = derived[at[0]]
        derived[at[0]] = replace(
            row,
            raw=row.raw.replace(fix.before, fix.after),
            text=row.text.replace(fix.before, fix.after),
        )
        jing = [line.replace(fix.before, fix.after) for line in jing]
    assert rite_rows(slug) == tuple(derived)
    assert rite_rows(slug, "sbck") == read_tsv(DERIVED / f"{name}.sbck-zhu.txt")
    assert [r.raw for r in rite_rows(slug) if r.kind == "經"] == jing


def test_double_columns_pages_and_entities():
    rows = rite_rows("xiangshe")
    # 音義(長丁大反警音景語/魚據反爲于僞反): right column, then left
    assert rows[4].kind == "音義" and rows[4].text == "長丁大反警音景語魚據反爲于僞反"
    assert rows[4].page == "KR1d0028_WYG_005-1b"  # the page marker before the line
    first = rows[0]
    assert (first.kind, first.text, rows[1].kind) == ("經", "鄉射之禮", "○")
    # the 注 of segment 2 runs over a page break and ends where SBCK's small text ends
    zhu = next(r for r in rows if r.kind == "注" and r.segment == 2)
    assert zhu.text.startswith("主人州長也") and zhu.text.endswith("亦用此禮射而詢衆庶乎")
    cut = next(r for r in rows if "刌" in r.text and "&KR2687;" in r.raw)  # a glyph entity
    assert cut.text.count("刌") == cut.raw.count("&KR2687;") + cut.raw.count("刌")


@pytest.mark.parametrize(
    ("slug", "entity", "reading"),
    [
        ("pin", "KR0925", "公當楣再拜"),  # SBCK 公當楣再拜; 注 楣謂之梁
        ("gongshidafu", "KR0925", "公當楣北鄉"),
        ("shisang", "KR1266", "設決麗于掔"),  # SBCK 麗于掔; 注 掔，手後節中也
        ("jixi", "KR1266", "結于掔"),
    ],
)
def test_a_glyph_entity_reads_as_the_table_gives(slug, entity, reading):
    """A Kanripo glyph outside Unicode reads as the character corpus/kanripo-gaiji.tsv gives
    with its evidence (the 經 of 聘禮 stands 當楣, at the lintel, not at an unreadable 〓)."""
    rows = [r for r in rite_rows(slug) if r.kind == "經"]
    assert any(reading in r.text and f"&{entity};" in r.raw for r in rows)
    assert gaiji()[entity] in reading and not any("〓" in r.text for r in rows)


def test_every_correction_is_applied():
    """Each hand decision of corpus/kanripo-corrections.tsv shows in the rows it is about."""
    slugs = {r.juan: r.slug for r in read_rites().values()}
    for fix in corrections():
        rows = rite_rows(slugs[fix.juan])
        if fix.action == "zhu-end":
            pairs = zip(rows, rows[1:], strict=False)
            assert any(
                a.kind == "注"
                and a.raw.endswith(fix.before)
                and b.kind == "經"
                and b.raw.startswith(fix.after)
                for a, b in pairs
            ), fix
        elif fix.action == "not-marker":
            assert any(r.kind == "注" and fix.before in r.raw for r in rows), fix
        elif fix.action == "as-zhu":
            assert any(r.kind == "注" and r.raw.startswith(fix.before[1:]) for r in rows), fix
        elif fix.action == "as-shu":
            assert any(r.kind == "疏" and r.raw.startswith(fix.after) for r in rows), fix
        elif fix.action == "replace":
            assert any(fix.after in r.raw and r.page == fix.page for r in rows), fix
            if fix.before != fix.after:  # (the same characters: only their size is corrected)
                assert not any(fix.before in r.raw and r.page == fix.page for r in rows), fix


def test_all_seventeen_chapters_read():
    """Every juan gives 經 with 注 after it, the edition's ○ sections, and its 考證."""
    for slug, info in read_rites().items():
        rows = rite_rows(slug)
        kinds = [r.kind for r in rows]
        assert kinds[0] == "經", slug
        assert kinds.count("注") > 0.6 * kinds.count("經"), slug
        assert "○" in kinds and "考證" in kinds and "疏" in kinds, slug
        segments = [r.segment for r in rows if r.kind == "經"]
        assert segments == list(range(1, len(segments) + 1)), slug
        assert all(r.page.startswith(f"KR1d0028_WYG_{info.juan:03d}-") for r in rows), slug
        assert not any(c in r.raw for r in rows for c in "()/¶<>"), slug
        # no running head read as text (特牲饋食禮's 儀禮注䟽卷十五 was a 經 儀禮 and a 注 䟽卷十五)
        assert not any(r.raw.startswith(("儀禮", "䟽卷", "疏卷")) for r in rows if r.kind != "考證")


@pytest.mark.parametrize(
    ("slug", "zhu_end", "yinyi"),
    [
        ("shihun", "詩云大姒嗣徽音", "勖許玉反女音汝下同太音泰"),
        ("pin", "古文朌作紛", "朌音班廋所求反"),
        ("jixi", "每器異桁", "桁户庚反又户郎反久依注音灸"),
    ],
)
def test_a_yinyi_marker_split_by_the_alignment_is_a_marker(slug, zhu_end, yinyi):
    """音義 after a 注 ending in 音 (徽音音義), or aligned apart, stays the marker: the 注 ends
    as written, the note after it is the 音義, and no 經 of one 義 comes between."""
    rows = rite_rows(slug)
    at = next(k for k, r in enumerate(rows) if r.kind == "注" and r.text.endswith(zhu_end))
    assert (rows[at + 1].kind, rows[at + 1].text) == ("音義", yinyi)
    assert not any(r.kind == "經" and r.text == "義" for r in rows)
