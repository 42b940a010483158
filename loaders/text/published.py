"""Published passage ids kept when a rite is cut anew (已刊之號).

鄉飲酒禮, 燕禮 and 大射儀 were published (their IRIs …/id/<rite>/jing/12.2.3 in use) while a
learnt 句讀 model cut them; they are now cut at the punctuated edition's breaks
(:mod:`breaks`). ``corpus/published-passages.tsv`` holds every sentence and clause as
published, with its offsets into the rite's 經 and its characters. A passage of the new cut
takes the published id of the same level and the same characters (same offsets); any other takes
its edition id (segment.sentence.clause), with the suffix ``v2`` (``v3`` …) if that id was
published for other characters, so that no published IRI ever names characters it did not name.
Paragraphs (a 經 segment, ``jing/52``) are kept alike where the table has them. A correction
of the witness that adds 經 characters moves later offsets: :func:`moved_offsets` aligns
the published text with the new one; each published passage is looked for at its new place.
A published id that no passage takes any more is retired: the graph says which passages
replace it (``dcterms:isReplacedBy``, every new passage of its level overlapping its span),
and the service redirects it to the one holding its first character.

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

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from itertools import count
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError

#: the passages whose ids are kept (a paragraph is a 經 segment: jing/52)
LEVELS = ("paragraph", "sentence", "clause")


FIELDS = ("rite", "level", "id", "start", "end", "witness_text")


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
    start: int  # where its first character is in the text now (moved by a correction)

    @property
    def id(self) -> str:
        return self.published.id


@cache
def published_passages(path: Path | None = None) -> dict[str, tuple[Published, ...]]:
    """The published sentences and clauses, by rite (``corpus/published-passages.tsv``)."""
    path = path or corpus_dir() / "published-passages.tsv"
    by_rite: dict[str, list[Published]] = {}
    for number, row in read_rows(path, FIELDS):
        try:
            start, end = int(row["start"]), int(row["end"])
        except (TypeError, ValueError) as exc:
            raise SourceError(path, f"start and end must be integers: {row}", number) from exc
        if end - start != len(row["witness_text"]) or row["level"] not in LEVELS:
            raise SourceError(path, f"a {'/'.join(LEVELS)} whose span is its text: {row}", number)
        by_rite.setdefault(row["rite"], []).append(
            Published(row["rite"], row["level"], row["id"], start, end, row["witness_text"])
        )
    return {rite: tuple(rows) for rite, rows in by_rite.items()}


def stable_ids(
    new: Iterable[tuple[str, str, int, int]],
    published: Iterable[Published],
    moved: dict[int, int] | None = None,
) -> tuple[dict[str, str], list[Retired]]:
    """The id each new passage takes, and the published ids retired.

    ``new``: (level, edition id, start, end) of each sentence and clause of the new cut;
    ``published``: the rite's published passages; ``moved``: where each published offset is
    in the new text, if the text changed (:func:`moved_offsets`). Returns {edition id: id
    taken} for every new passage whose id changes, and the retired published ids in
    published order.
    """
    new = list(new)
    published = list(published)
    # each published passage at its place in the new text (its characters cleared if changed)
    placed = [_moved(p, moved) for p in published] if moved is not None else published
    by_span = {(p.level, p.start, p.end): p.id for p in placed if p.witness_text}
    published_ids = {p.id for p in published}
    taken: dict[str, str] = {}
    for level, edition_id, start, end in new:
        kept = by_span.get((level, start, end))
        if kept is not None:
            final = kept
        elif edition_id in published_ids:
            final = next(
                f"{edition_id}v{n}" for n in count(2) if f"{edition_id}v{n}" not in published_ids
            )
        else:
            final = edition_id
        if final != edition_id:
            taken[edition_id] = final
    final_of = {edition_id: taken.get(edition_id, edition_id) for _, edition_id, _, _ in new}
    in_use = set(final_of.values())
    # the passages of a level, in text order, do not overlap: their starts and ends both rise
    by_level: dict[str, list[tuple[int, int, str]]] = {}
    for level, edition_id, start, end in sorted(new, key=lambda n: n[2]):
        by_level.setdefault(level, []).append((start, end, final_of[edition_id]))
    bounds = {
        level: ([s for s, _, _ in row], [e for _, e, _ in row]) for level, row in by_level.items()
    }
    retired = []
    for p, at in zip(published, placed, strict=True):
        if p.id in in_use:
            continue
        row = by_level.get(p.level, [])
        starts, ends = bounds.get(p.level, ([], []))
        # those overlapping its span (a span emptied by the correction: the one holding it)
        first = bisect_right(ends, at.start)
        last = bisect_left(starts, max(at.end, at.start + 1))
        retired.append(Retired(p, tuple(pid for _, _, pid in row[first:last]), at.start))
    return taken, retired


def published_text(published: Iterable[Published]) -> str:
    """The text the passages were published on, as far as they cover it (line ends between)."""
    chars: dict[int, str] = {}
    for p in published:
        for k, ch in enumerate(p.witness_text):
            if chars.setdefault(p.start + k, ch) != ch:
                raise SourceError(
                    corpus_dir() / "published-passages.tsv",
                    f"{p.rite} {p.id}: offset {p.start + k} published as two characters",
                )
    return "".join(chars.get(k, "\n") for k in range(max(chars, default=-1) + 1))


def moved_offsets(published: Iterable[Published], text: str) -> dict[int, int] | None:
    """Where each character of the published text is in ``text``, if the text changed.

    A correction of the witness (經 found inside a 注, corpus/kanripo-corrections.tsv) adds
    or removes characters and moves every later offset; the two texts aligned say where each
    published character went. None: the text is the published one (offsets unchanged).
    """
    old = published_text(published)
    if text.startswith(old) and text[len(old) :].strip("\n") == "":
        return None
    moved: dict[int, int] = {}
    for op in Levenshtein.opcodes(old, text):
        if op.tag == "equal":
            for k in range(op.src_end - op.src_start):
                moved[op.src_start + k] = op.dest_start + k
    return moved


def _moved(p: Published, moved: dict[int, int]) -> Published:
    """The published passage at its place in the new text; its characters cleared if some of
    them are gone or no longer run on (it can keep no id: it is retired, its span approximate)."""
    at = [moved.get(k) for k in range(p.start, p.end)]
    kept = [k for k in at if k is not None]
    if not kept:
        before = [v for k, v in moved.items() if k < p.start]
        start = max(before) + 1 if before else 0
        return replace(p, start=start, end=start, witness_text="")
    intact = len(kept) == len(at) and kept == list(range(kept[0], kept[0] + len(kept)))
    return replace(
        p, start=kept[0], end=kept[-1] + 1, witness_text=p.witness_text if intact else ""
    )


def record(rites: Iterable[str], why: str, path: Path | None = None) -> int:
    """Add to the table every sentence and clause of the rites as this build cuts them that it
    lacks (same id and span), under a comment saying why: run before a change of the witness
    moves offsets or edition ids, so that the ids in use keep naming their characters after it."""
    from yili_kg.loaders.text.rites import build_rite_layer

    path = path or corpus_dir() / "published-passages.tsv"
    lines = []
    for rite in rites:
        have = {(p.id, p.start, p.end) for p in published_passages(path).get(rite, ())}
        for p in build_rite_layer(rite).passages:
            if p.level in LEVELS and (p.id, p.start, p.end) not in have:
                lines.append(
                    "\t".join((rite, p.level, p.id, str(p.start), str(p.end), p.witness_text))
                )
    with open(path, "a", encoding="utf-8", newline="") as handle:
        handle.write(f"# {why}\n" + "".join(line + "\n" for line in lines))
    published_passages.cache_clear()
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m yili_kg.loaders.text.published record "WHY" RITE…``"""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3 or args[0] != "record":
        print(main.__doc__, file=sys.stderr)
        return 2
    print(f"{record(args[2:], args[1])} rows recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
