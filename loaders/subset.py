"""A build of some phases only (``$YILI_PHASES``): the real pipeline on a small part of the book.

``YILI_PHASES=xiangshe:1-8,xiangyinjiu:1-6`` keeps, of each rite named, the passages of those
phases (and of no other) and the notes on them; a rite not named is kept whole. With
``YILI_RITES`` choosing the rites, it makes the tests' mini dataset: every stage runs as for
the whole book (alignment of the witnesses, annotation, review records, reasoning, the
store), on a few hundred clauses instead of five thousand.

The witnesses are still read and aligned whole (a clause's segment and phase come from the
whole text); only what the layer hands on is cut.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, TypeVar

from yili_kg.loaders.errors import YiliError

if TYPE_CHECKING:  # the layer's type only: this module imports nothing of the pipeline
    from yili_kg.loaders.text.textlayer import Note, TextLayer
    from yili_kg.loaders.witnesses.jiangyong import JiangyongReading

#: phase indexes kept per rite slug; a rite absent from the mapping is kept whole
Selection = dict[str, frozenset[int]]
V = TypeVar("V")


def selected_phases(value: str | None = None) -> Selection:
    """``$YILI_PHASES`` read: ``slug:1-8,slug:3,slug:5-6`` → {slug: {phases}} (empty: all).

    >>> sorted(selected_phases("xiangshe:1-3,xiangyinjiu:2,xiangshe:7")["xiangshe"])
    [1, 2, 3, 7]
    >>> selected_phases("")
    {}
    """
    if value is None:
        value = os.environ.get("YILI_PHASES", "")
    out: dict[str, set[int]] = {}
    for item in filter(None, (part.strip() for part in value.split(","))):
        slug, sep, span = item.partition(":")
        lo, dash, hi = span.partition("-")
        if not sep or not lo.strip().isdigit() or (dash and not hi.strip().isdigit()):
            raise YiliError(f"YILI_PHASES: {item!r} is not slug:N or slug:N-M (e.g. xiangshe:1-8)")
        out.setdefault(slug.strip(), set()).update(range(int(lo), int(hi or lo) + 1))
    return {slug: frozenset(phases) for slug, phases in out.items()}


def describe(selection: Selection) -> str:
    """The selection as a stage-key part: a build of some phases never passes for a whole one."""
    return ";".join(f"{slug}:{sorted(p)}" for slug, p in sorted(selection.items()))


def restrict(layer: TextLayer, selection: Selection | None = None) -> TextLayer:
    """``layer`` cut to the selected phases
    of its rite: passages in one of them, notes on their clauses (their clause lists cut to
    those), 江永's sections, entries and quotations of them. The phases themselves are all kept
    (the rite's outline, with its archery rounds checked against the table)."""
    selection = selected_phases() if selection is None else selection
    keep = selection.get(layer.rite)
    if keep is None:
        return layer
    phases_of = layer.passage_phases
    ids = {pid for pid, phases in phases_of.items() if keep.intersection(phases)}
    passages = tuple(p for p in layer.passages if p.id in ids)
    return dataclasses.replace(
        layer,
        passages=passages,
        passage_phases=_kept(phases_of, ids),
        clause_segments=_kept(layer.clause_segments, ids),
        clause_pages=_kept(layer.clause_pages, ids),
        notes=_cut_notes(layer.notes, ids),
        by_id={p.id: p for p in passages},
        jiangyong=_cut_jiangyong(layer.jiangyong, ids, keep),
        retired=tuple(
            r for r in layer.retired if r.replaced_by and all(n in ids for n in r.replaced_by)
        ),
    )


def _kept(mapping: dict[str, V], ids: set[str]) -> dict[str, V]:
    """The entries of ``mapping`` whose key (a passage id) is kept, in their order."""
    return {key: value for key, value in mapping.items() if key in ids}


def _cut_notes(notes: tuple[Note, ...], ids: set[str]) -> tuple[Note, ...]:
    """The notes (注, 疏 …) on a kept clause, each with its clause list cut to the kept ones."""
    out: list[Note] = []
    for note in notes:
        clause_ids = tuple(c for c in note.clause_ids if c in ids)
        if clause_ids:
            out.append(dataclasses.replace(note, clause_ids=clause_ids))
    return tuple(out)


def _cut_jiangyong(
    jiangyong: JiangyongReading | None, ids: set[str], keep: frozenset[int]
) -> JiangyongReading | None:
    """江永's reading cut to the kept clauses: their sections and pages, the 記 entries on
    them (clause lists cut), the quotations in a kept section (one without a section: the 1st)."""
    if jiangyong is None:
        return None
    return dataclasses.replace(
        jiangyong,
        clause_section=_kept(jiangyong.clause_section, ids),
        clause_page=_kept(jiangyong.clause_page, ids),
        ji_entries=tuple(
            dataclasses.replace(e, clause_ids=tuple(c for c in e.clause_ids if c in ids))
            for e in jiangyong.ji_entries
            if any(c in ids for c in e.clause_ids)
        ),
        citations=tuple(c for c in jiangyong.citations if (c.section or 1) in keep),
    )
