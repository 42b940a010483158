"""Published passage ids kept when a rite is cut anew (已刊之號).

鄉飲酒禮, 燕禮 and 大射儀 were published (their IRIs …/id/<rite>/jing/12.2.3 in use) while a
learnt 句讀 model cut them; they are now cut at the punctuated edition's breaks
(:mod:`breaks`). ``corpus/published-passages.tsv`` holds every sentence and clause as
published, with its offsets into the rite's 經 and its characters. A passage of the new cut
takes the published id of the same level and the same characters (same offsets); any other takes
its edition id (segment.sentence.clause), with the suffix ``v2`` if that id was published for
other characters, so that no published IRI ever names characters it did not name. A published
id that no passage takes any more is retired: the graph says which passages replace it
(``dcterms:isReplacedBy``, every new passage of its level overlapping its span), and the
service redirects it to the one holding its first character.

>>> new = [("clause", "jing/3.1.1", 0, 3), ("clause", "jing/3.1.2", 3, 5)]
>>> old = [Published("r", "clause", "jing/3.1.1", 0, 2, "主人"),
...        Published("r", "clause", "jing/3.1.2", 2, 3, "戒"),
...        Published("r", "clause", "jing/3.1.3", 3, 5, "賓拜")]
>>> ids, retired = stable_ids(new, old)
>>> ids
{'jing/3.1.1': 'jing/3.1.1v2', 'jing/3.1.2': 'jing/3.1.3'}
>>> [(r.id, r.replaced_by) for r in retired]
[('jing/3.1.1', ('jing/3.1.1v2',)), ('jing/3.1.2', ('jing/3.1.1v2',))]
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError

#: appended to an edition id that was published for other characters
SUFFIX = "v2"


@dataclass(frozen=True)
class Published:
    """A sentence or clause as published: its rite, level, id, offsets and characters."""

    rite: str
    level: str
    id: str
    start: int
    end: int
    witness_text: str


@dataclass(frozen=True)
class Retired:
    """A published id no passage takes any more, and the ids of the passages that replace it
    (its level, overlapping its span, in text order: the first holds its first character)."""

    published: Published
    replaced_by: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.published.id


@cache
def published_passages(path: Path | None = None) -> dict[str, tuple[Published, ...]]:
    """The published sentences and clauses, by rite (``corpus/published-passages.tsv``)."""
    path = path or corpus_dir() / "published-passages.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        rows = [line for line in handle if not line.startswith("#")]
    by_rite: dict[str, list[Published]] = {}
    for number, row in enumerate(
        csv.DictReader(rows, delimiter="\t", quoting=csv.QUOTE_NONE), start=2
    ):
        try:
            start, end = int(row["start"]), int(row["end"])
        except (TypeError, ValueError) as exc:
            raise SourceError(path, f"start and end must be integers: {row}", number) from exc
        if end - start != len(row["witness_text"]) or row["level"] not in ("sentence", "clause"):
            raise SourceError(path, f"a sentence or clause whose span is its text: {row}", number)
        by_rite.setdefault(row["rite"], []).append(
            Published(row["rite"], row["level"], row["id"], start, end, row["witness_text"])
        )
    return {rite: tuple(rows) for rite, rows in by_rite.items()}


def stable_ids(
    new: Iterable[tuple[str, str, int, int]], published: Iterable[Published]
) -> tuple[dict[str, str], list[Retired]]:
    """The id each new passage takes, and the published ids retired.

    ``new``: (level, edition id, start, end) of each sentence and clause of the new cut;
    ``published``: the rite's published passages. Returns {edition id: id taken} for every new
    passage whose id changes, and the retired published ids in published order.
    """
    new = list(new)
    by_span = {(p.level, p.start, p.end): p.id for p in published}
    published_ids = {p.id for p in published}
    taken: dict[str, str] = {}
    for level, edition_id, start, end in new:
        kept = by_span.get((level, start, end))
        if kept is not None:
            final = kept
        elif edition_id in published_ids:
            final = edition_id + SUFFIX
        else:
            final = edition_id
        if final != edition_id:
            taken[edition_id] = final
    final_of = {edition_id: taken.get(edition_id, edition_id) for _, edition_id, _, _ in new}
    in_use = set(final_of.values())
    retired = []
    for p in published:
        if p.id in in_use:
            continue
        overlapping = tuple(
            final_of[edition_id]
            for level, edition_id, start, end in sorted(new, key=lambda n: n[2])
            if level == p.level and start < p.end and p.start < end
        )
        retired.append(Retired(p, overlapping))
    return taken, retired
