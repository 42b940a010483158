"""The text layer of 鄉射禮: passages, their Kanripo segments and pages, phases, commentary.

This is where the witnesses meet. The base text (seed 000) gives the passages; the Kanripo
四庫 經 gives each clause its segment number and page (by character alignment); 江永's
禮書綱目 gives each clause its phase (儀節); the Kanripo 儀禮注疏 gives the 注, 音義, 疏 and
考證, each attached to the exact span of the base text it comments on.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from yili_kg.loaders.align import align
from yili_kg.loaders.text.published import Retired
from yili_kg.loaders.variants import PUNCTUATION, fold
from yili_kg.loaders.witnesses.jiangyong import JiangyongReading, read_jiangyong, read_phases
from yili_kg.loaders.witnesses.kanripo import Row, jing_segments, rite_rows
from yili_kg.loaders.witnesses.texts import (
    JING_HEADING,
    SUMMARY_HEADING,
    Passage,
    normalise,
    read_base,
)
from yili_kg.loaders.witnesses.webzhushu import collate_web

RITE = "xiangshe"

#: A 疏 that names its own extent: 自此至X / 自此以下至X / 自此盡X (from this segment to X).
_EXTENT = re.compile(r"^(?:注)?釋曰自此(?:以下|已下|已後|以後)?(?:至|盡)(.+?)(?:論|明|言|說|揔|總)")


@dataclass(frozen=True)
class Note:
    """A note of the 注疏 (注, 音義, 疏, 考證) attached to a span of the base text.

    ``span`` is the exact span of the base text the note comments on (offsets into the
    base witness); ``span_source`` says how it was found: ``segment`` (the 經 segment the
    edition places it after), ``quote`` (the 疏's own “X”至“Y”, recovered from the web
    transcription), ``extent`` (the 疏's 自此至X), ``words`` (the 考證's quoted words).
    """

    kind: str
    segment: int | None
    ordinal: int
    row: int
    page: str
    text: str
    raw: str
    span: tuple[int, int] | None
    span_source: str
    clause_ids: tuple[str, ...]
    quote: tuple[str, str] | None = None  # (X, Y) the 疏 quotes, Y may be ""
    explains: tuple[int, str, int] | None = None  # (segment, 注, ordinal): a 疏 on the 注

    @classmethod
    def of_row(cls, row, ordinal: int, span, source: str, clause_ids, quote=None, explains=None):
        """The note of a row of the 注疏 (its kind, segment, row, page, text and raw as the row
        gives them) on ``span``, found by ``source`` (unresolved without a span)."""
        return cls(
            kind=row.kind,
            segment=row.segment,
            ordinal=ordinal,
            row=row.row,
            page=row.page,
            text=row.text,
            raw=row.raw,
            span=span,
            span_source=source if span else "unresolved",
            clause_ids=clause_ids,
            quote=quote,
            explains=explains,
        )


@dataclass(frozen=True)
class TextLayer:
    """The text layer of one rite: passages, phases, notes (the shape :mod:`rdf` reads).

    鄉射禮's comes from its punctuated base text with 江永's sections (``jiangyong``); the
    other rites' from their Kanripo witness alone (:mod:`rites`: ``jiangyong`` is None, the
    phases are the edition's ○ sections, the base witness is the Kanripo 經).
    """

    rite: str
    raw: str
    passages: tuple[Passage, ...]
    phases: tuple  # of Phase (鄉射禮) or rites.Section: each has .index, .name, .en
    passage_phases: dict[str, tuple[int, ...]]
    clause_segments: dict[str, tuple[int, ...]]
    clause_pages: dict[str, str]
    segment_spans: dict[int, tuple[int, int]]
    notes: tuple[Note, ...]
    by_id: dict[str, Passage]
    jiangyong: JiangyongReading | None = None
    base_witness: str = "xiangshe-base"
    retired: tuple[Retired, ...] = ()  # published ids no passage takes any more (:mod:`published`)

    def passage(self, pid: str) -> Passage:
        return self.by_id[pid]

    @property
    def clauses(self) -> list[Passage]:
        return [p for p in self.passages if p.level == "clause"]


def segment_alignment(raw: str, segments: list[Row]) -> tuple[dict[int, tuple[int, int]], list]:
    """Align the base text with the Kanripo 經: each segment's span in the base text.

    Returns ``(segment → (start, end) in raw, a_to_segment)`` where ``a_to_segment[i]`` is
    the segment number aligned with raw offset ``i`` (or None).
    """
    begin = raw.index(JING_HEADING)
    finish = raw.index(SUMMARY_HEADING)

    region = normalise(raw)[begin:finish]
    joined = "".join(s.text for s in segments)
    starts = []
    position = 0
    for seg in segments:
        starts.append(position)
        position += len(seg.text)
    alignment = align(region, joined)
    to_segment: list[int | None] = [None] * len(raw)
    spans: dict[int, list[int]] = {}
    for offset, b in enumerate(alignment.a_to_b):
        if b is None:
            continue
        number = segments[bisect.bisect_right(starts, b) - 1].number
        to_segment[begin + offset] = number
        spans.setdefault(number, []).append(begin + offset)
    return {n: (min(v), max(v) + 1) for n, v in spans.items()}, to_segment


def _pattern(words: str, gap: int = 0) -> re.Pattern | None:
    """A regex for ``words`` (folded) that skips punctuation, and up to ``gap`` other characters."""
    chars = [re.escape(c) for c in fold(words) if c not in PUNCTUATION]
    if not chars:
        return None
    between = "[，。；：、「」《》！？·\\s]*" if not gap else f".{{0,{gap}}}?"
    return re.compile(between.join(chars))


def _find(folded: str, words: str, lo: int, hi: int) -> tuple[int, int] | None:
    """The span of ``words`` in the folded base text within [lo, hi).

    Tries the exact words (punctuation ignored), then the words with a few characters the
    quoting text left out (疏 abbreviate: 賓西階上答拜 for 賓西階上北面答拜), then a
    shrinking prefix of at least three characters (the quoting text may reorder the end).
    """
    attempts = [_pattern(words)]
    if len(words) >= 4:
        attempts.append(_pattern(words, gap=3))
    attempts.extend(_pattern(words[:size]) for size in range(len(words) - 1, 2, -1))
    for pattern in attempts:
        if pattern is None:
            continue
        match = pattern.search(folded, lo, hi)
        if match:
            return match.start(), match.end()
    return None


def _find_span(folded, x, y, lo, hi) -> tuple[int, int] | None:
    first = _find(folded, x, lo, hi)
    if first is None:
        return None
    if not y:
        return first
    last = _find(folded, y, first[0], hi)
    if last is None:
        return None
    return first[0], last[1]


def _clauses_in(clauses: list[Passage], span: tuple[int, int]) -> tuple[str, ...]:
    lo, hi = span
    return tuple(c.id for c in clauses if c.start < hi and c.end > lo)


def build_text_layer() -> TextLayer:
    """Read every 鄉射禮 witness and assemble the text layer."""
    raw, passages = read_base()
    rows = rite_rows(RITE)
    segments = jing_segments(rows)
    segment_spans, to_segment = segment_alignment(raw, segments)
    clauses = [p for p in passages if p.level == "clause"]

    clause_segments: dict[str, tuple[int, ...]] = {}
    for clause in clauses:
        numbers = sorted({to_segment[i] for i in range(clause.start, clause.end)} - {None})
        clause_segments[clause.id] = tuple(numbers)
    _fill_gaps(clauses, clause_segments)
    page_of = {s.segment: s.page for s in segments}
    clause_pages = {cid: page_of[nums[0]] for cid, nums in clause_segments.items() if nums}

    jy = read_jiangyong()
    phases = tuple(read_phases())
    passage_phases = _passage_phases(passages, jy.clause_section)

    notes = tuple(_attach_notes(raw, rows, clauses, segment_spans))
    return TextLayer(
        rite=RITE,
        raw=raw,
        passages=passages,
        phases=phases,
        passage_phases=passage_phases,
        clause_segments=clause_segments,
        clause_pages=clause_pages,
        segment_spans=segment_spans,
        notes=notes,
        jiangyong=jy,
        by_id={p.id: p for p in passages},
    )


def _fill_gaps(clauses: list[Passage], clause_segments: dict[str, tuple[int, ...]]) -> None:
    """A clause none of whose characters align (a witness's addition) takes its neighbour's."""
    previous: tuple[int, ...] = ()
    for clause in clauses:
        if clause_segments[clause.id]:
            previous = clause_segments[clause.id]
        elif previous:
            clause_segments[clause.id] = previous[-1:]


def _passage_phases(passages, clause_section: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """Each clause's phase; a sentence or paragraph is in every phase its clauses are in."""
    out: dict[str, set[int]] = {}
    by_id = {p.id: p for p in passages}
    for p in passages:
        if p.level != "clause":
            continue
        section = clause_section[p.id]
        out.setdefault(p.id, set()).add(section)
        parent = p.parent
        while parent:
            out.setdefault(parent, set()).add(section)
            parent = by_id[parent].parent
    heading_phase = {"ji/0": min((s for pid, s in clause_section.items() if pid.startswith("ji/")))}
    for pid, section in heading_phase.items():
        out.setdefault(pid, set()).add(section)
    return {pid: tuple(sorted(v)) for pid, v in out.items()}


def _attach_notes(raw, rows, clauses, segment_spans):
    """Every 注, 音義, 疏 and 考證 row, attached to its span of the base text."""

    quotes: dict[int, tuple] = {}
    for witness in ("xiangshe-zhushu-web-11", "xiangshe-zhushu-web-13"):
        quotes.update(collate_web(witness, rows).span_quotes)
    begin, finish = raw.index(JING_HEADING), raw.index(SUMMARY_HEADING)
    folded = fold(normalise(raw))[:finish]  # the summary after the 記 is not the classic
    jing_end = min(c.start for c in clauses if c.division == "ji")
    ordinals: dict[tuple[int | None, str], int] = {}
    zhu: dict[int, tuple[int, str]] = {}  # segment → (ordinal, text) of its last 注
    for row in rows:
        if row.kind not in ("注", "音義", "疏", "考證"):
            continue
        key = (row.segment, row.kind)
        ordinals[key] = ordinals.get(key, 0) + 1
        ordinal = ordinals[key]
        seg_span = segment_spans.get(row.segment) if row.segment else None
        span, source, quote, explains = seg_span, "segment", None, None
        if row.kind == "注":
            zhu[row.segment] = (ordinal, row.text)
        elif row.kind == "疏":
            if row.segment in zhu and (row.text.startswith("注") or "注釋曰" in row.text):
                explains = (row.segment, "注", zhu[row.segment][0])
            assert seg_span is not None  # a 疏 follows the 經 segment it explains
            window = (max(seg_span[0] - 60, begin), _window_end(row.segment, segment_spans))
            span, source, quote = _shu_span(
                row.text,
                quotes.get(row.row),
                folded,
                seg_span,
                window,
                zhu.get(row.segment, (0, ""))[1],
                jing_end,
            )
        elif row.kind == "考證":
            span = _find(folded, _kaozheng_words(row.text), begin, finish)
            source = "words"
        ids = _clauses_in(clauses, span) if span else ()
        yield Note.of_row(row, ordinal, span, source, ids, quote, explains)


def _window_end(segment: int, segment_spans: dict[int, tuple[int, int]]) -> int:
    """Where a 疏's quoted span may end: a dozen segments on (a 疏 may cover a whole section)."""
    later = [n for n in segment_spans if segment <= n <= segment + 40]
    return segment_spans[max(later)][1]


def _shu_span(text, web_quotes, folded, seg_span, window, zhu_text, jing_end):
    """The span a 疏 explains: its quoted “X”至“Y”, or its 自此至X, or its segment.

    Returns (span, how it was found, (X, Y)). A 疏 whose quote is of the 注 (○注“X”至“Y”)
    keeps its segment's span and is ``quote-zhu`` when X and Y are found in that 注.
    """
    lo, hi = window
    if web_quotes:
        for target, x, y in web_quotes:
            if target == "經":
                found = _find_span(folded, x, y, lo, hi)
                if found:
                    return found, "quote", (x, y)
        for target, x, y in web_quotes:
            if target == "注" and _find_span(fold(zhu_text), x, y, 0, len(zhu_text)):
                return seg_span, "quote-zhu", (x, y)
        return seg_span, "segment", (web_quotes[0][1], web_quotes[0][2])
    match = _EXTENT.match(text)
    if match and seg_span:
        words = match.group(1)
        if words == "經末":  # 自此盡經末: to the end of the 經
            return (seg_span[0], jing_end), "extent", (None, words)
        found = _find(folded, words, seg_span[0], len(folded))
        if found:
            return (seg_span[0], found[1]), "extent", (None, words)
        return seg_span, "segment", (None, words)
    return seg_span, "segment", None


def _kaozheng_words(text: str) -> str:
    """The 經 words a 考證 opens with (before any 注/疏 words and the ○ of its comment)."""
    head = text.split("○", 1)[0]
    return re.split(r"注|疏", head, maxsplit=1)[0]
