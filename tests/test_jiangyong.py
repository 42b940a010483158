"""江永's sections of 鄉射禮 (禮書綱目 卷九, seed 001), read from the real corpus."""

from __future__ import annotations

import re

import pytest

from yili_kg.loaders.corpus import witness_path
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.variants import PUNCTUATION, fold
from yili_kg.loaders.witnesses.jiangyong import MOVED, read_jiangyong, read_phases
from yili_kg.loaders.witnesses.texts import clauses, read_base

NAMES = (
    "戒賓 設席陳器 張侯 速賓 迎賓 獻賓 賓酢主人 酬賓 獻衆賓 一人舉觶 獻大夫 大夫酢 樂賓 立司正 "
    "司正舉觶 請射 誘射 初射獲而未釋獲 取矢 再請射 再射釋獲 賓主大夫衆賓射 取矢視算 飲不勝者 "
    "獻獲者及釋獲者 三請射 三射用樂 取矢視算 飲不勝者 三射畢 旅酬 二人舉觶 徹俎 燕 賓出 拜賜 息司正"
).split()


@pytest.fixture(scope="module")
def reading():
    return read_jiangyong()


@pytest.fixture(scope="module")
def base():
    return clauses(read_base()[1])


@pytest.fixture(scope="module")
def raw():
    return witness_path("xiangshe-jiangyong").read_text(encoding="utf-8")


def ids(base, text: str, division: str) -> list[str]:
    """Ids of the base clauses reading ``text`` (punctuation aside)."""
    return [
        c.id
        for c in base
        if c.division == division and "".join(ch for ch in c.text if ch not in PUNCTUATION) == text
    ]


def readable(raw: str, start: int, end: int) -> str:
    """The witness between two offsets without page marks, column joins and line breaks."""
    return re.sub(r"\[\d+-\d+[ab]\]|[/\n ]", "", raw[start:end])


def test_thirty_seven_sections_with_the_phase_names(reading, raw):
    assert [s.name for s in reading.sections] == NAMES
    assert [s.index for s in reading.sections] == list(range(1, 38))
    assert [p.name for p in read_phases()][:37] == NAMES and read_phases()[MOVED - 1].index == 38
    lines = raw.split("\n")
    for section in reading.sections:
        assert lines[section.line - 1].startswith("右" + section.witness_name)
        assert fold(section.witness_name) == section.name
    first, third = reading.sections[0], reading.sections[2]
    assert (first.witness_name, first.line, first.page) == ("戒賔", 30, "011-2b")
    assert (third.line, third.page) == (44, "011-3a")


def test_section_notes_are_not_names(reading):
    by_index = {s.index: s for s in reading.sections}
    assert by_index[7].witness_name == "賔酢主人" and by_index[7].note == "之俎見獻賔章"
    assert by_index[10].note == "將舉者於右見上章"
    assert by_index[16].note == "子路延射事見後二人舉觶章"
    # 右勝則曰右賢於左 … opens a line inside the 經 of 取矢視算: not a section
    assert by_index[23].line > 400 and by_index[22].line < 400


def test_expected_placements(reading, base):
    section = reading.clause_section
    assert [section[i] for i in ids(base, "主人戒賓", "jing")] == [1]
    assert section["jing/1.1.1"] == 1  # 鄉射之禮, under 江永's 篇目
    assert [section[i] for i in ids(base, "主人阼階上當楣北面再拜", "jing")] == [5]
    assert [section[i] for i in ids(base, "獻用爵", "ji") + ids(base, "其他用觶", "ji")] == [6, 6]
    assert [section[i] for i in ids(base, "司正為司馬", "jing")] == [16]
    last = [c for c in base if c.division == "jing"][-1]
    assert last.text == "鄉樂唯欲" and section[last.id] == 37
    assert [section[i] for i in ids(base, "主人送于門外", "jing")] == [35]  # 賓出
    assert [section[i] for i in ids(base, "主人送于門外", "ji")] == [35]  # 記, filed under 賓出


def test_every_jing_clause_in_order(reading, base):
    jing = [c for c in base if c.division == "jing"]
    sections = [reading.clause_section[c.id] for c in jing]
    assert all(1 <= s <= 37 for s in sections)
    assert sections == sorted(sections)
    assert set(sections) == set(range(1, 38))
    assert not [c.id for c in jing if c.id in reading.unmatched]
    starts = [reading.clause_span[c.id][0] for c in jing]
    assert starts == sorted(starts)


def test_every_clause_has_a_section(reading, base):
    assert set(reading.clause_section) == {c.id for c in base}
    assert all(1 <= s <= MOVED for s in reading.clause_section.values())


def test_spans_read_the_clause(reading, base, raw):
    """Where found exactly, the witness at the span is the clause, variants folded."""
    exact = [c for c in base if c.id in reading.clause_span and c.id not in reading.approximate]
    assert len(exact) > 1600
    for c in exact:
        core = fold("".join(ch for ch in c.text if ch not in PUNCTUATION))
        assert fold(readable(raw, *reading.clause_span[c.id])) == core, c.id
    assert reading.clause_page["jing/1.2.1"] == "011-2a"


def test_approximate_placements(reading, base, raw):
    assert len(reading.approximate) < 20
    # 江永 has 主人取爵於上篚 (no 坐); 001 writes 賔爵 for 實爵, 夾 for 交
    by_id = {c.id: c for c in base}
    for cid, text, found in [
        ("jing/5.1.1", "主人坐取爵于上篚", "主人取爵於上篚"),
        ("jing/6.10.2", "實爵主人之席前", "賔爵主人之席前"),
        ("jing/26.4.3", "與司馬交于階前", "與司馬夾於階前"),
    ]:
        assert by_id[cid].text == text and cid in reading.approximate
        assert readable(raw, *reading.clause_span[cid]) == found


def test_notes_are_the_text_between_clauses(reading, raw):
    assert len(reading.notes) > 300
    for note in reading.notes:
        assert readable(raw, note.start, note.end) == note.text
    after = {n.after_clause: n.text for n in reading.notes}
    assert after["jing/1.3.2"].startswith("主人州長也鄉大夫若在焉")
    assert after["ji/1.9.2"] == "爵尊不可褻也"
    # a 注 inside a clause: 執張弓言能用之也 … in 命三耦及衆賓勝者 …
    inner = [n.text for n in reading.notes if n.after_clause == "jing/33.4.5"]
    assert "執張弓言能用之也右手執弦如卒射" in inner


def test_ji_entries(reading, base):
    by_text = {e.text: e for e in reading.ji_entries}
    entry = by_text["獻用爵其他用觶"]
    assert entry.section == 6 and entry.clause_ids == ("ji/1.9.1", "ji/1.9.2")
    assert by_text["凡舉爵三作而不徒爵"].note == "獻大夫獻工通用"
    assert by_text["以爵拜者不徒作"].note == "用獻大夫通"
    assert by_text["大夫後出主人送於門外再拜"].section == 35
    placed = [e for e in reading.ji_entries if e.start >= 0]
    assert [e.start for e in placed] == sorted(e.start for e in placed)


def test_moved_entry_goes_to_section_38(reading, base):
    [moved] = [e for e in reading.ji_entries if e.text.startswith("凡侯")]
    assert moved.section == MOVED and moved.text == "凡侯天子熊侯白質"
    assert moved.note == "一條入三射記篇"
    wanted = ids(base, "天子熊侯", "ji") + ids(base, "諸侯麋侯", "ji") + ids(base, "丹質", "ji")
    assert set(wanted) <= set(moved.clause_ids)
    assert all(reading.clause_section[i] == MOVED for i in moved.clause_ids)
    assert ids(base, "諸侯麋侯", "ji")[0] in reading.unmatched
    assert ids(base, "天子熊侯", "ji")[0] not in reading.unmatched  # 001 gives its first words


def test_unmatched_are_ji_clauses_in_section_38(reading, base):
    assert reading.unmatched and all(i.startswith("ji/") for i in reading.unmatched)
    assert all(reading.clause_section[i] == MOVED for i in reading.unmatched)
    for text in ("禮射不主皮", "君射", "唯君有射于國中"):
        assert ids(base, text, "ji")[0] in reading.unmatched
    lacking = {i for e in reading.ji_entries if e.section == MOVED for i in e.clause_ids}
    assert set(reading.unmatched) <= lacking


def test_citations(reading):
    works = [(c.section, c.work, c.label) for c in reading.citations]
    assert works == [
        (0, "周禮·地官", "地官"),
        (0, "周禮·地官", "同上"),
        (0, "禮記·王制", "王制"),
        (0, "周禮·地官", "地官"),
        (32, "禮記·射義", "射義"),
    ]
    first, *_, sheyi = reading.citations
    assert first.text.startswith("州長春秋以禮㑹民而射於州序")  # 周禮 heads it, not quoted
    assert sheyi.text.startswith("孔子射於矍相之圃") and sheyi.page == "011-32a"
    assert "司徒命鄉簡不帥教者" in reading.citations[2].text


def test_misnamed_section_is_a_source_error(tmp_path, raw):
    bad = tmp_path / "001.txt"
    bad.write_text(raw.replace("右張侯", "右速賔", 1), encoding="utf-8")
    with pytest.raises(SourceError, match="右張侯 expected") as caught:
        read_jiangyong(bad)
    assert caught.value.line == 44
    bad.write_text(raw.replace("右息司正", "右息", 1), encoding="utf-8")
    with pytest.raises(SourceError, match="右息司正 not found"):
        read_jiangyong(bad)
