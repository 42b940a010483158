"""Character alignment of two witnesses (對勘), variant-folded, with rapidfuzz.

Both sides are folded (:mod:`yili_kg.loaders.variants`) and stripped of punctuation before
aligning, so that 賔/賓 or 於/于 are not differences; what remains different is a real
variant, an omission or an addition. rapidfuzz's Levenshtein opcodes handle any alphabet
(edlib refuses more than 256 distinct symbols, and a chapter has about 800 characters).
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from yili_kg.loaders.variants import PUNCTUATION, fold


@dataclass(frozen=True)
class Difference:
    """One place where two witnesses differ, with offsets into each original string."""

    tag: str  # replace | delete (only in a) | insert (only in b)
    a_start: int
    a_end: int
    b_start: int
    b_end: int
    a_text: str
    b_text: str


@dataclass(frozen=True)
class Alignment:
    """``a_to_b[i]`` is the offset in ``b`` aligned with offset ``i`` of ``a`` (or None)."""

    a: str
    b: str
    a_to_b: tuple[int | None, ...]
    differences: tuple[Difference, ...]

    def b_span(self, a_start: int, a_end: int) -> tuple[int, int] | None:
        """The span of ``b`` covered by ``a[a_start:a_end]``, or None if none of it aligns."""
        hits = [b for i in range(a_start, a_end) if (b := self.a_to_b[i]) is not None]
        if not hits:
            return None
        return min(hits), max(hits) + 1


def _content(text: str) -> tuple[str, list[int]]:
    kept, offsets = [], []
    for index, char in enumerate(text):
        if char not in PUNCTUATION:
            kept.append(char)
            offsets.append(index)
    return fold("".join(kept)), offsets


def align(a: str, b: str) -> Alignment:
    """Align ``a`` with ``b``, ignoring punctuation and folding variants.

    >>> al = align("主人戒賓，賓出迎", "主人戒賔賔岀迎")
    >>> al.a_to_b[5], al.differences
    (4, ())
    >>> [d.tag + d.a_text + d.b_text for d in align("坐尊爵", "坐奠爵").differences]
    ['replace尊奠']
    """
    a_core, a_offsets = _content(a)
    b_core, b_offsets = _content(b)
    mapping: list[int | None] = [None] * len(a)
    differences = []
    for op in Levenshtein.opcodes(a_core, b_core):
        if op.tag == "equal":
            for k in range(op.src_end - op.src_start):
                mapping[a_offsets[op.src_start + k]] = b_offsets[op.dest_start + k]
            continue
        if op.tag == "replace" and op.src_end - op.src_start == op.dest_end - op.dest_start:
            for k in range(op.src_end - op.src_start):
                mapping[a_offsets[op.src_start + k]] = b_offsets[op.dest_start + k]
        a_start = a_offsets[op.src_start] if op.src_start < len(a_offsets) else len(a)
        a_end = a_offsets[op.src_end - 1] + 1 if op.src_end > op.src_start else a_start
        b_start = b_offsets[op.dest_start] if op.dest_start < len(b_offsets) else len(b)
        b_end = b_offsets[op.dest_end - 1] + 1 if op.dest_end > op.dest_start else b_start
        differences.append(
            Difference(op.tag, a_start, a_end, b_start, b_end, a[a_start:a_end], b[b_start:b_end])
        )
    return Alignment(a, b, tuple(mapping), tuple(differences))
