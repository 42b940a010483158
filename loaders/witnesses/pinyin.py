"""The pinyin witness (seed 003): the 經 with readings such as 鄉(xiāng) after some characters.

Its readings feed the lexicon (the pinyin labels of terms). The witness is damaged — the 主
of 主人 is missing throughout — so its text is never loaded as passages: collation reports
the damage (:mod:`yili_kg.loaders.text.collate`) and only the readings are used.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import witness_path

PINYIN_WITNESS = "xiangshe-pinyin"
_READING = re.compile(r"(.)\(([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜüA-Z]+)\)")


@dataclass(frozen=True)
class PinyinWitness:
    raw: str
    text: str  # the witness with the readings removed
    offsets: tuple[int, ...]  # offset in ``raw`` of each character of ``text``
    readings: dict[str, Counter]  # character → Counter of readings given for it


@cache
def read_pinyin(path: Path | None = None) -> PinyinWitness:
    path = path or witness_path(PINYIN_WITNESS)
    raw = Path(path).read_text(encoding="utf-8")
    readings: dict[str, Counter] = defaultdict(Counter)
    for match in _READING.finditer(raw):
        readings[match.group(1)][match.group(2)] += 1
    kept, offsets = [], []
    position = 0
    for match in _READING.finditer(raw):
        for index in range(position, match.start(2) - 1):
            kept.append(raw[index])
            offsets.append(index)
        position = match.end()
    for index in range(position, len(raw)):
        kept.append(raw[index])
        offsets.append(index)
    return PinyinWitness(raw, "".join(kept), tuple(offsets), dict(readings))


def reading_of(char: str) -> str | None:
    """The witness's most frequent reading of a character, if it gives one.

    >>> reading_of("鄉")
    'xiāng'
    """
    counts = read_pinyin().readings.get(char)
    return counts.most_common(1)[0][0] if counts else None
