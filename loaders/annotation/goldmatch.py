"""Match gold records to a rite's clauses by their characters (金標準對齊).

A gold set written before a rite's clause ids exist (``pos/<paragraph>.<sentence>.<clause>``
in the punctuated edition, the witness's characters beside it) is matched to whatever clauses
the text pipeline cuts: each record's characters, folded (:func:`variants.fold`) and without
punctuation, are found in the rite's clauses read in order, from where the previous record
ended. Where the pipeline breaks where the gold does not, or the other way round, the records
and the clauses that cover the same characters are scored together as one unit, so that a
moved break costs nothing and loses nothing; a record whose characters are not found, or whose
unit's edges do not fall on the same characters on both sides, is reported as unmatched.

>>> from types import SimpleNamespace as C
>>> clauses = [C(id="a", text="主人降"), C(id="b", text="賓降"), C(id="c", text="主人坐取爵")]
>>> gold = [C(id="pos/1", text="主人降賓降"), C(id="pos/2", text="主人坐"),
...         C(id="pos/3", text="取爵")]
>>> [(u.gold, u.clauses) for u in match(gold, clauses).units]
[(('pos/1',), ('a', 'b')), (('pos/2', 'pos/3'), ('c',))]
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from yili_kg.loaders.variants import PUNCTUATION, fold

#: A record of fewer folded characters than this is looked for only this many clauses ahead
#: of the previous match: 西面, 再拜 … occur hundreds of times in a chapter.
SHORT, NEAR = 6, 40


@dataclass(frozen=True)
class Unit:
    """Gold records and clauses that cover the same characters."""

    gold: tuple[str, ...]
    clauses: tuple[str, ...]


@dataclass
class Matching:
    units: list[Unit] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)  # gold ids


def reading(text: str) -> str:
    """The characters compared: folded, without punctuation."""
    return "".join(c for c in fold(text) if c not in PUNCTUATION)


def match(records, clauses) -> Matching:
    """Units of ``records`` (gold, in order) over ``clauses`` (the rite's, in order).

    Both are sequences of objects with ``id`` and ``text``. A record whose id is a clause's
    and whose characters are that clause's is matched to it directly.
    """
    readings = [reading(c.text) for c in clauses]
    starts, offset = [], 0
    for r in readings:
        starts.append(offset)
        offset += len(r)
    chapter = "".join(readings)
    ends = {s + len(r): i for i, (s, r) in enumerate(zip(starts, readings, strict=True))}
    begins = {s: i for i, s in enumerate(starts)}

    index = {c.id: i for i, c in enumerate(clauses)}
    spans: list[tuple[str, int, int]] = []
    unmatched: list[str] = []
    cursor = 0
    for record in records:
        words = reading(record.text)
        if not words:
            unmatched.append(record.id)
            continue
        same = index.get(record.id)
        if same is not None and readings[same] == words:  # the gold's id is the clause's
            spans.append((record.id, starts[same], starts[same] + len(words)))
            cursor = starts[same] + len(words)
            continue
        limit = len(chapter)
        if len(words) < SHORT:
            clause = bisect_right(starts, cursor) - 1
            far = min(len(starts) - 1, max(clause, 0) + NEAR)
            limit = starts[far] + len(readings[far]) if starts else 0
        at = chapter.find(words, cursor, limit)
        if at < 0:
            unmatched.append(record.id)
            continue
        spans.append((record.id, at, at + len(words)))
        cursor = at + len(words)

    units: list[Unit] = []
    group: list[tuple[str, int, int]] = []

    def close() -> None:
        if not group:
            return
        start, end = group[0][1], group[-1][2]
        ids = tuple(g[0] for g in group)
        contiguous = all(a[2] == b[1] for a, b in zip(group, group[1:], strict=False))
        if contiguous and start in begins and end in ends:
            covered = range(begins[start], ends[end] + 1)
            units.append(Unit(ids, tuple(clauses[i].id for i in covered)))
        else:
            unmatched.extend(ids)
        group.clear()

    for span in spans:
        if group and span[1] != group[-1][2]:  # a gap: the open unit cannot close on an edge
            close()
        group.append(span)
        if span[2] in ends:
            close()
    close()
    return Matching(units, unmatched)
