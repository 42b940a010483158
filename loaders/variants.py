"""Variant folding (異體字歸併): one character for matching, whatever the witness wrote.

Folding maps each character to one base form, one character to one character, so that
offsets in a folded string are offsets in the original. It is for matching only: every
witness keeps its own reading in the graph.

The project table (``corpus/variants.tsv``) comes first; OpenCC's simplified-to-traditional
table covers the simplified forms the table does not list (觯 → 觶, 适 → 適).

>>> fold("賔荅再拜於阼階")
'賓答再拜于阼階'
>>> fold("主人坐取觯") == fold(fold("主人坐取觯"))
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import opencc

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError

FIELDS = ("variant", "base", "note")

#: Punctuation of the base text (and the pinyin witness): not characters of the classic.
PUNCTUATION = frozenset("，。；：、「」『』《》〈〉！？·（）()…—,.;:!?\"'“”‘’ \u3000\t\n\r\xa0")


@cache
def _table(path: Path | None = None) -> dict[str, str]:
    path = path or corpus_dir() / "variants.tsv"
    table: dict[str, str] = {}
    for number, row in read_rows(path, FIELDS):
        variant, base = row["variant"], row["base"]
        if len(variant) != 1 or len(base) != 1:
            raise SourceError(path, f"variant and base must be one character each: {row}", number)
        table[variant] = base
    return table


@cache
def _opencc():

    return opencc.OpenCC("s2t")


@cache
def fold_char(char: str) -> str:
    """The base form of one character; a fixed point: folding it again changes nothing."""
    table = _table()
    seen = [char]
    current = char
    for _ in range(4):
        if current in table:
            nxt = table[current]
        else:
            converted = _opencc().convert(current) if not current.isascii() else current
            nxt = converted if len(converted) == 1 else current
        if nxt == current:
            return current
        if nxt in seen:  # a cycle between the table and OpenCC: settle on one member
            return min(seen)
        seen.append(nxt)
        current = nxt
    return current


@cache
def read_char(char: str) -> str:
    """The form one character is read in (讀): the variants table's base form; else, for a
    character outside Big5, OpenCC's traditional form; else the character itself.

    Unlike :func:`fold_char` (for matching, where both sides fold alike), a traditional
    character the text writes is never replaced: OpenCC's s2t would read 尸 (the impersonator)
    as 屍, 几 as 幾, 云 as 雲, 占 as 佔. The Kanripo files write some traditional characters in
    forms outside Big5 (别, 宫, 黄, 将): those are OpenCC's to restore.
    """
    table = _table()
    if char in table:
        return table[char]
    try:
        char.encode("big5")
    except UnicodeEncodeError:
        converted = _opencc().convert(char) if not char.isascii() else char
        return converted if len(converted) == 1 else char
    return char


def read_as_base(text: str) -> str:
    """``text`` read character by character (:func:`read_char`); the same length.

    >>> read_as_base("尸盥匜水東面旅占宫中賔")
    '尸盥匜水東面旅占宮中賓'
    """
    return "".join(read_char(c) for c in text)


def fold(text: str) -> str:
    """Fold every character of ``text``; the result has the same length."""
    return "".join(fold_char(c) for c in text)


def strip_punctuation(text: str) -> tuple[str, list[int]]:
    """Characters of ``text`` that are not punctuation, and each one's offset in ``text``."""
    kept: list[str] = []
    offsets: list[int] = []
    for index, char in enumerate(text):
        if char not in PUNCTUATION:
            kept.append(char)
            offsets.append(index)
    return "".join(kept), offsets


def variant_pairs() -> dict[str, str]:
    """The project table (variant → base), for reports and the lexicon."""
    return dict(_table())
