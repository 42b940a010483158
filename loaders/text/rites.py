"""The other rites of the graph (every chapter but 鄉射禮), read from their Kanripo witnesses.

鄉射禮 has a punctuated base text and 江永's sections; the other sixteen rites have only the
Kanseki Repository's 儀禮注疏 (四庫 文淵閣本): the 經 one segment a row, each followed by its
注, 音義 and 疏, and ○ where the edition divides the text (賈公彥's sections). Their text layer:

* passages: each 經 segment is a paragraph ``jing/<segment>`` (``ji/<segment>`` from the 記
  on), cut into sentences and clauses at the punctuated edition's breaks (:mod:`breaks`;
  ``jing/12.2.3``: segment 12, its sentence 2, clause 3; a published id is kept where it names
  the same characters, :mod:`published`); the clause's ``text`` is the reading
  (:func:`variants.read_as_base`), its ``witness_text`` the edition's characters;
* phases: the edition's ○ sections, in order, each named by the words of its 疏 (釋曰自此至X
  論Y: Y) or, without one, by its first clause (a 疏 whose X lies several sections on names
  the first of them by the whole span); in English by ``corpus/phase-names.tsv``, which says
  what each section itself holds;
* notes: every 注, 音義, 疏 and 考證, attached to the clauses of its segment (a 考證 to the
  clauses whose words it quotes).

Offsets are into the 經 segments joined by line ends (the witness ``<slug>-kanripo-jing``,
gaiji read as one character each).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import cache, partial
from math import inf

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError, YiliError
from yili_kg.loaders.text.breaks import (
    Projection,
    opens_inside_quote,
    punctuated_chapters,
    rite_projection,
    zhuan_spans,
)
from yili_kg.loaders.text.breaks import cut as breaks_cut
from yili_kg.loaders.text.published import LEVELS, moved_offsets, published_passages, stable_ids
from yili_kg.loaders.text.ritetable import RiteInfo, read_rites, rite_info  # noqa: F401 (RiteInfo re-exported)
from yili_kg.loaders.text.textlayer import Note, TextLayer, _find, _shu_span
from yili_kg.loaders.text.zhuan import zhuan_sentences
from yili_kg.loaders.variants import fold, read_as_base
from yili_kg.loaders.witnesses.kanripo import jing_segments, rite_rows
from yili_kg.loaders.witnesses.texts import Passage

#: The rites read from their Kanripo witnesses alone (鄉射禮 is read by :mod:`textlayer`):
#: every row of ``corpus/rites.tsv`` but 鄉射禮, in chapter order.
#: English names of the phases of those rites (:func:`phase_names`)
PHASE_NAMES = "phase-names.tsv"

OTHER_RITES = {slug: info for slug, info in read_rites().items() if slug != "xiangshe"}


def selected_rites() -> list[str]:
    """The other rites a build includes: ``$YILI_RITES`` (slugs, comma-separated), else all.

    ``YILI_RITES=xiangshe`` builds 鄉射禮 alone (the benchmark measures it apart); 鄉射禮
    itself is always built, so naming it is optional. Any slug of ``corpus/rites.tsv``.
    """

    value = os.environ.get("YILI_RITES")
    if value is None or value.strip().lower() == "all":
        return list(OTHER_RITES)
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = sorted(set(names) - set(OTHER_RITES) - {"xiangshe"})
    if unknown:
        raise YiliError(
            f"YILI_RITES names {', '.join(unknown)}: the rites are "
            + ", ".join(read_rites())
            + " (or all)"
        )
    return [slug for slug in OTHER_RITES if slug in names]


@dataclass(frozen=True)
class Section:
    """A ○ section of the edition: a phase of the rite."""

    index: int
    name: str
    en: str
    segments: tuple[int, ...]


_TOPIC = re.compile(
    r"^(?:注)?釋曰自此(?:以下|已下|以上|已上|以後|已後)?(?:至|盡)(.+?)"
    r"(論|明|言|說|揔|總)(.+?)(?:之事|之儀|之節|之法|也|$)"
)


#: the longest X of 自此至X論Y: the last words of the section, a clause of the 經 (the 疏 quotes
#: one of up to eight characters); a longer X is a 論 / 總 further on, in the 疏's own argument
#: (喪服 …在大功故於此總見之: 'shows them all together here', no topic)
_LAST_WORDS = 12


def _section_name(rows, segments: tuple[int, ...], first_clause: str) -> str:
    """The 疏's own words for the section (自此至X論Y: Y), else the first clause."""
    for row in rows:
        if row.kind == "疏" and row.segment in segments:
            match = _TOPIC.match(row.text)
            if match and len(match.group(1)) <= _LAST_WORDS and len(match.group(3)) <= 24:
                return read_as_base(match.group(3))
    return first_clause


def _zhuan_of(segments, slug) -> list[tuple[int, int]]:
    """喪服's 傳 spans in the projection's text (none in the other rites)."""

    return zhuan_spans(slug, segments, punctuated_chapters()[rite_info(slug).hans])


def zhuan_pieces() -> list[tuple[str, int, str, str]]:
    """(rite, segment, witness characters, reading) of every 傳 piece of the book (for writing
    ``corpus/zhuan-breaks.tsv``, :mod:`zhuan`)."""
    pieces = []
    for slug in OTHER_RITES:
        segments = jing_segments(rite_rows(slug))
        if zhuan := _zhuan_of(segments, slug):
            cutting = _cut(slug, segments, zhuan, lambda _n, _w, _r: [])  # its pieces only
            pieces += [(slug, *piece) for piece in cutting.zhuan_pieces]
    return pieces


def _cut(slug: str, segments, zhuan: list[tuple[int, int]], zhuan_cut) -> _Cutting:
    """The rite's 經 segments cut at the punctuated edition's breaks, its 傳 by ``zhuan_cut``."""
    cutting = _Cutting(rite_projection(slug), zhuan, zhuan_cut)
    for seg in segments:
        cutting.segment(seg)
    return cutting


@cache
def build_rite_layer(slug: str) -> TextLayer:
    """Read a rite's Kanripo witness and assemble its text layer."""
    info = OTHER_RITES[slug]
    rows = rite_rows(slug)
    segments = jing_segments(rows)
    cutting = _cut(slug, segments, _zhuan_of(segments, slug), partial(zhuan_sentences, slug))
    raw = "\n".join(cutting.raw_parts)
    passages, retired, renamed = _keep_published_ids(slug, cutting.passages, raw)
    clause_segments = {renamed.get(k, k): v for k, v in cutting.clause_segments.items()}
    clause_pages = {renamed.get(k, k): v for k, v in cutting.clause_pages.items()}
    phases = _phases(info, rows, _sections(rows, segments), passages, clause_segments)
    clauses = [p for p in passages if p.level == "clause"]
    notes = tuple(_notes(rows, clauses, clause_segments, cutting.segment_spans, raw))
    return TextLayer(
        rite=slug,
        raw=raw,
        passages=tuple(passages),
        phases=phases,
        passage_phases=_passage_phases(passages, phases, cutting.segment_spans),
        clause_segments=clause_segments,
        clause_pages=clause_pages,
        segment_spans=cutting.segment_spans,
        notes=notes,
        by_id={p.id: p for p in passages},
        base_witness=f"{slug}-kanripo-jing",
        retired=tuple(retired),
    )


class _Cutting:
    """The 經 segments of a rite cut into passages (paragraphs, sentences, clauses), in order."""

    def __init__(self, projection: Projection, zhuan: list[tuple[int, int]], zhuan_cut):
        self.projection = projection
        self.zhuan = zhuan
        # (segment, witness characters, reading) → sentences of clauses of a 傳 piece
        self.zhuan_cut = zhuan_cut
        self.zhuan_pieces: list[tuple[int, str, str]] = []
        self.raw_parts: list[str] = []
        self.offset = 0
        self.passages: list[Passage] = []
        self.segment_spans: dict[int, tuple[int, int]] = {}
        self.clause_segments: dict[str, tuple[int, ...]] = {}
        self.clause_pages: dict[str, str] = {}
        self.division = "jing"
        self.at_projection = 0  # offset of the segment in the projection's text (segments joined)

    def segment(self, seg) -> None:
        """Cut one 經 segment: the 記's heading where the 記 begins, then each of its pieces."""
        text = seg.text
        start = self.offset
        self.raw_parts.append(text)
        self.offset += len(text) + 1
        self.segment_spans[seg.number] = (start, start + len(text))
        reading = read_as_base(text)
        body = 0
        if reading.startswith("記") and self.division == "jing":
            self.division = "ji"
            self.passages.append(
                _passage("ji/0", "heading", self.division, text[:1], reading[:1], start)
            )
            body = 1
        for piece_division, lo, hi in self._pieces(len(text), body):
            if hi > lo:
                self._piece(seg, piece_division, lo, hi, text, reading, start)
        self.at_projection += len(text)

    def _pieces(self, size: int, body: int) -> list[tuple[str, int, int]]:
        """The segment's pieces: its 經 (or 記), and in 喪服 its 傳 from 傳曰 on."""
        for lo, _hi in self.zhuan:
            if self.at_projection <= lo < self.at_projection + size:
                cut_at = max(lo - self.at_projection, body)
                return [(self.division, body, cut_at), ("zhuan", cut_at, size)]
        return [(self.division, body, size)]

    def _sentences(self, number: int, division: str, text: str, reading: str, lo: int, hi: int):
        """The piece ``reading[lo:hi]`` cut into sentences of clauses (句讀); ``text``: the
        witness's characters, of which ``reading`` is the reading (same length)."""
        if number == 1:
            return [[reading]]  # the title
        if division == "zhuan":  # the punctuated text has no 傳: its breaks are a table
            self.zhuan_pieces.append((number, text[lo:hi], reading[lo:hi]))
            return self.zhuan_cut(number, text[lo:hi], reading[lo:hi])
        return breaks_cut(reading[lo:hi], self.at_projection + lo, self.projection)

    def _piece(self, seg, division: str, lo: int, hi: int, text: str, reading: str, start: int):
        """One piece of a segment: its paragraph, then each sentence and its clauses."""
        pid = f"{division}/{seg.number}"
        self.passages.append(
            _passage(pid, "paragraph", division, text[lo:hi], reading[lo:hi], start + lo)
        )
        position = lo
        for s_number, sentence in enumerate(
            self._sentences(seg.number, division, text, reading, lo, hi), start=1
        ):
            sid = f"{pid}.{s_number}"
            length = sum(len(c) for c in sentence)
            self.passages.append(
                _passage(
                    sid,
                    "sentence",
                    division,
                    text[position : position + length],
                    reading[position : position + length],
                    start + position,
                    pid,
                )
            )
            for c_number, clause in enumerate(sentence, start=1):
                cid = f"{sid}.{c_number}"
                opens_at = self.at_projection + position
                self.passages.append(
                    _passage(
                        cid,
                        "clause",
                        division,
                        text[position : position + len(clause)],
                        clause,
                        start + position,
                        sid,
                        quoted=opens_inside_quote(self.projection.quotes, opens_at),
                    )
                )
                self.clause_segments[cid] = (seg.number,)
                self.clause_pages[cid] = seg.page
                position += len(clause)


def _sections(rows, segments) -> list[list[int]]:
    """The segment numbers of each ○ section of the edition, in order."""
    breaks = [r.segment for r in rows if r.kind == "○"]
    sections: list[list[int]] = [[]]
    for seg in segments:
        sections[-1].append(seg.number)
        if seg.number in breaks:
            sections.append([])
    return [s for s in sections if s]


def _phases(info, rows, sections, passages, clause_segments) -> tuple[Section, ...]:
    """The rite's phases: its ○ sections, each named by its 疏 or its first clause, in English
    by the table of phase names (:func:`phase_names`; a phase it lacks: "<rite>, section N")."""
    first_clause: dict[int, str] = {}
    for p in passages:
        if p.level == "clause":
            first_clause.setdefault(clause_segments[p.id][0], p.text)
    english = phase_names().get(info.slug, {})
    phases = []
    for n, numbers in enumerate(sections, start=1):
        name = _section_name(rows, tuple(numbers), first_clause.get(numbers[0], ""))
        row = english.get(n)
        if row is not None and row.name != name:
            raise SourceError(
                corpus_dir() / PHASE_NAMES,
                f"phase {n} of {info.slug} is {name!r}, not {row.name!r}: the table is stale",
                row.line,
            )
        en = row.en if row is not None else f"{info.en}, section {n}"
        phases.append(Section(n, name, en, tuple(numbers)))
    return tuple(phases)


@dataclass(frozen=True)
class PhaseName:
    """A row of ``corpus/phase-names.tsv``: a phase's Chinese name as the text gives it and
    its English name."""

    line: int
    name: str
    en: str


@cache
def phase_names() -> dict[str, dict[int, PhaseName]]:
    """The English names of the phases: rite slug → phase index → row (the project's own
    translation, each name read with its section's 經, 注 and 疏).

    >>> phase_names()["pin"][2].name, phase_names()["pin"][2].en
    ('聘人及用幣', 'Appointing the envoy and his assistants')
    """
    path = corpus_dir() / PHASE_NAMES
    names: dict[str, dict[int, PhaseName]] = {}
    for number, row in read_rows(path, ("rite", "index", "name", "en")):
        if not row["index"].isdigit() or not row["en"].strip():
            raise SourceError(path, "a row needs a phase index and an English name", number)
        rite = names.setdefault(row["rite"], {})
        index = int(row["index"])
        if index in rite:
            raise SourceError(path, f"phase {index} of {row['rite']} named twice", number)
        rite[index] = PhaseName(number, row["name"], row["en"].strip())
    return names


def _passage_phases(passages, phases, segment_spans) -> dict[str, tuple[int, ...]]:
    """The phase of each passage: that of the segment it begins in (a heading: of the paragraph
    after it). By offset, not by the number in its id: a kept published id may carry the
    segment number it was published with (:mod:`published`)."""
    phase_of_segment = {s: ph.index for ph in phases for s in ph.segments}
    starts = sorted((start, number) for number, (start, _) in segment_spans.items())
    passage_phases: dict[str, tuple[int, ...]] = {}
    for p in passages:
        at = p.start
        if p.level == "heading":
            at = next(q.start for q in passages if q.start >= p.start and q.level == "paragraph")
        segment = starts[bisect_right(starts, (at, inf)) - 1][1]
        passage_phases[p.id] = (phase_of_segment[segment],)
    return passage_phases


def _keep_published_ids(slug, passages, text: str):
    """The passages with their published ids where they name the published characters
    (:mod:`published`; ``text`` the 經 joined, where offsets point), the published ids
    retired, and {edition id: id taken}."""
    published = published_passages().get(slug)
    if not published:
        return passages, [], {}
    cut = [(p.level, p.id, p.start, p.end) for p in passages if p.level in LEVELS]
    renamed, retired = stable_ids(cut, published, moved_offsets(published, text))
    passages = [
        replace(p, id=renamed.get(p.id, p.id), parent=renamed.get(p.parent, p.parent))
        if p.id in renamed or p.parent in renamed
        else p
        for p in passages
    ]
    return passages, retired, renamed


def _passage(pid, level, division, witness, reading, start, parent=None, quoted=False) -> Passage:
    return Passage(
        id=pid,
        level=level,
        division=division,
        text=reading,
        witness_text=witness,
        start=start,
        end=start + len(reading),
        parent=parent,
        quoted=quoted,
    )


def _window(folded: str, words: str, size: int) -> tuple[int, int] | None:
    """The first ``size`` consecutive characters of ``words`` found in ``folded``."""
    for start in range(0, len(words) - size + 1):
        at = folded.find(words[start : start + size])
        if at >= 0:
            return at, at + size
    return None


def _note_segment(rows, words: str) -> int | None:
    """The segment of the first 注 or 疏 that holds ``words`` (folded), if any."""
    key = fold(words)[:6]
    if len(key) < 3:
        return None
    for row in rows:
        if row.kind in ("注", "疏") and key in fold(row.text):
            return row.segment
    return None


def _notes(rows, clauses, clause_segments, segment_spans, raw):
    """Every note row, attached to the clauses of its segment (a 考證 to the words it quotes)."""
    by_segment: dict[int, list[str]] = {}
    for clause in clauses:
        by_segment.setdefault(clause_segments[clause.id][0], []).append(clause.id)
    folded = fold(raw)
    ordinals: dict[tuple, int] = {}
    zhu: dict[int, int] = {}  # segment → ordinal of its last 注
    ji = [c.start for c in clauses if c.division == "ji"]
    jing_end = min(ji) if ji else len(folded)
    for row in rows:
        if row.kind not in ("注", "音義", "疏", "考證"):
            continue
        key = (row.segment, row.kind)
        ordinals[key] = ordinals.get(key, 0) + 1
        quote = explains = None
        if row.kind == "考證":
            span, source = _kaozheng_span(rows, row, folded, segment_spans)
        elif row.kind == "疏":
            span, source, quote, explains = _shu_note(row, zhu, folded, segment_spans, jing_end)
        else:
            span = segment_spans.get(row.segment)
            source = "segment"
            if row.kind == "注":
                zhu[row.segment] = ordinals[key]
        ids = tuple(c.id for c in clauses if span and c.start < span[1] and c.end > span[0])
        if not ids and by_segment:
            ids, span, source = _where_printed(row, by_segment, segment_spans)
        yield Note.of_row(row, ordinals[key], span, source, ids, quote, explains)


def _kaozheng_span(rows, row, folded: str, segment_spans):
    """The span of a 考證 (its words, else any four of them in a row, else the note quoting
    them) and how it was found."""
    words = re.split(r"注|疏", row.text.split("○", 1)[0], maxsplit=1)[0]
    span = _find(folded, words, 0, len(folded)) if len(words) >= 2 else None
    source = "words"
    if span is None:  # the words as the 考證 abbreviates them: any four in a row
        span = _window(folded, fold(words), 4)
    if span is None:  # words of a note, not of the 經: the segment of that note
        segment = _note_segment(rows, words)
        span = segment_spans.get(segment) if segment else None
        source = "note-words"
    return span, source


def _shu_note(row, zhu, folded: str, segment_spans, jing_end: int):
    """The span a 疏 explains, how it was found, the words it quotes, and the 注 it explains
    (a 疏 of the 注: the segment's last 注)."""
    explains = None
    seg_span = segment_spans.get(row.segment)
    if row.segment in zhu and (row.text.startswith("注") or "注釋曰" in row.text):
        explains = (row.segment, "注", zhu[row.segment])
    if not seg_span:
        return None, "segment", None, explains
    # the 疏 that names its extent (釋曰自此至X論Y) explains exactly that span
    span, source, quote = _shu_span(
        row.text, None, folded, seg_span, (0, len(folded)), "", jing_end
    )
    return span, source, quote, explains


def _where_printed(row, by_segment, segment_spans):
    """The clauses, span and source of a note whose quoted words are found nowhere."""
    # the note still stands where the edition prints it, so it comments on the clauses of
    # that segment (or of the nearest one before it that has clauses: a 考證 at the juan's
    # end); no note is left unattached
    before = [n for n in by_segment if row.segment is None or n <= row.segment]
    near = max(before) if before else min(by_segment)
    return tuple(by_segment[near]), segment_spans[near], "segment"
