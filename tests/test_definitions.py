"""鄭注's glosses of the ontology's terms (loaders/graph/definitions.py), one test a class of
the words it reads from corpus/annotation-words.tsv (gloss-…), each on the words of a real 注."""

from __future__ import annotations

from functools import cache

import pytest

from yili_kg.loaders.annotation.rules import word_class
from yili_kg.loaders.graph.definitions import glosses_of
from yili_kg.loaders.witnesses.kanripo import rite_rows


@cache
def _zhu(rite: str) -> tuple[str, ...]:
    return tuple(r.text for r in rite_rows(rite) if r.kind == "注")


def zhu(rite: str, words: str) -> str:
    """``words``, checked to be in a 注 of ``rite``'s Kanripo witness."""
    assert any(words in text for text in _zhu(rite)), (rite, words)
    return words


def glossed(text: str) -> list[tuple[str, str]]:
    return [(g.label, g.gloss) for g in glosses_of(text)]


def test_every_class_is_in_the_table():
    for name in ("end", "skip", "named", "marker", "not-opening", "cites", "possessive"):
        assert word_class(f"gloss-{name}"), name


def test_a_note_is_cut_at_its_end_word_and_the_markers_are_left_out():
    # gloss-end 也, gloss-marker 猶: 主人，州長也 … 戒，猶警也
    text = zhu("xiangshe", "主人州長也鄉大夫若在焉則稱鄉大夫也戒猶警也")
    assert glossed(text) == [("主人", "州長"), ("戒", "警")]
    # gloss-marker 謂 and 者
    assert glossed(zhu("xiangyinjiu", "主人謂諸侯之鄉大夫也")) == [("主人", "諸侯之鄉大夫")]
    assert glossed(zhu("xiangshe", "俎者肴之貴者也")) == [("俎", "肴之貴者")]


def test_the_demonstrative_before_the_term_is_left_out():
    # gloss-skip 此: 此士，謂胥徒之長也 (既夕禮 注) glosses 士
    assert glossed(zhu("jixi", "此士謂胥徒之長也")) == [("士", "胥徒之長")]


@pytest.mark.parametrize(
    ("rite", "text", "expected"),
    [
        ("xiangshe", "容謂之乏所以爲獲者御矢也", [("乏", "容")]),  # Y謂之X
        ("xiangshe", "引手曰厭少進差在前也", [("厭", "引手")]),  # Y曰X
    ],
)
def test_the_named_shape_glosses_the_term_after_the_word(rite, text, expected):
    assert glossed(zhu(rite, text)) == expected


@pytest.mark.parametrize(
    ("rite", "text"),
    [
        ("xiangshe", "進於賓也"),  # a preposition: where, not what 進 is
        ("xiangshe", "大夫不降尊也"),  # a statement about the 大夫
        ("xiangshe", "賓一重席"),  # a statement (a numeral)
        ("xiangshe", "改更也不射而挾之示有事也今文曰適序西"),  # a reading of the text: 今文
    ],
)
def test_words_opening_with_a_listed_word_are_no_gloss(rite, text):
    kept = glossed(zhu(rite, text))
    assert all(not gloss.startswith(word_class("gloss-not-opening")) for _, gloss in kept)
    assert ("進", "於賓") not in kept and ("大夫", "不降尊") not in kept
    assert ("賓", "一重席") not in kept and ("適", "今文") not in kept


@pytest.mark.parametrize(
    ("rite", "text", "not_a_gloss"),
    [
        ("xiangshe", "反從降之位也鄉飲酒曰當西序東面", ("當", "鄉飲酒")),
        ("xiangshe", "三人吹笙一人吹和凡四人也爾雅曰笙小者謂之和", ("笙", "爾雅")),
        ("yan", "大射禮曰主人西階西東面少進對", ("主人", "大射禮")),
        ("yan", "記曰入門而縣興示易以敬也", ("入", "記")),
    ],
)
def test_words_naming_a_work_are_no_gloss(rite, text, not_a_gloss):
    assert not_a_gloss not in glossed(zhu(rite, text))


def test_a_role_glossed_by_a_role_needs_the_possessive():
    # gloss-possessive 之: 一人，主人之吏 (the one who raises the cup is the host's officer)
    # (the 經 it explains, 一人洗，舉觶于賓, says the 一人 is the 舉觶者: rule one-of-group; the
    # base text writes 觯, folded)
    gloss = glosses_of(zhu("xiangshe", "一人主人之吏"), glossed="一人洗，舉觯于賓")
    assert [(g.label, g.gloss) for g in gloss] == [("舉觶者", "主人之吏")]
    assert glossed("一人主人之吏") == [("人", "主人之吏")]  # 一人 alone: someone unnamed
