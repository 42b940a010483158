"""Clause breaks (句讀) projected from a punctuated edition onto the Kanripo characters.

The punctuated 儀禮 of ``corpus/punctuated/`` (simplified characters; see its SOURCES.md) is
used for **where its punctuation falls**, never for its characters: both texts are folded to
one form (:func:`variants.fold`: the project's table, then OpenCC), aligned (rapidfuzz's
Levenshtein opcodes), and each mark lands after the Kanripo character its own character is
aligned with: 。； (and ！？) as sentence breaks, ，： as clause breaks, 「」 as quotations,
which stay whole inside the clause that introduces them (曰：「某御于子。」 is one clause, as
鄉射禮's base text keeps 賓對曰：「某不能，為二三子。」), their own marks being the speaker's.
、 (頓號) is not a break: it joins the members of a list, which are read inside one clause as
鄉射禮's base text keeps them (乃席賓、主人、介: one act, three recipients; 賓、主人、大夫揖: three
agents of one salute), so its place is dropped with the other characters' punctuation.
Where the two texts disagree the Kanripo characters stay; every stretch that does not align
is reported (:attr:`Projection.stretches`, shown by ``yili-kg collate``). A mark aligned with
the character before characters only the Kanripo has lands before them, whichever side they
belong to: where that is wrong, ``corpus/break-corrections.tsv`` sets the break by hand
(:func:`corrected_breaks`).

>>> marked("主人戒賓，賓出迎。曰：「請。」")[0]
'主人戒賓賓出迎曰請'
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache

from rapidfuzz.distance import Levenshtein

from yili_kg.loaders.corpus import corpus_dir, read_rows, witness_path
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.text.ritetable import rite_info
from yili_kg.loaders.variants import PUNCTUATION, fold
from yili_kg.loaders.witnesses.kanripo import jing_segments, rite_rows
from yili_kg.loaders.witnesses.texts import JING_HEADING, SUMMARY_HEADING

WITNESS = "yili-punctuated"
SENTENCE = "。；！？"
CLAUSE = "，："
#: quotation marks: the base text's 「」『』, the punctuated edition's “”‘’
OPEN_QUOTE, CLOSE_QUOTE = "「『“‘", "」』”’"
#: the strength of a break: a sentence break outranks a clause break at the same gap
RANK = {"clause": 1, "sentence": 2}


def marked(text: str) -> tuple[str, dict[int, str], set[int], set[int]]:
    """The characters of a punctuated text and its marks, by the character they follow.

    Returns (characters, breaks, quote opens, quote closes): ``breaks[i]`` is ``sentence`` or
    ``clause`` after character ``i``; a quotation opens before character ``i`` in ``opens``
    and closes after character ``i`` in ``closes``.
    """
    marks = _Marks()
    for at_char, ch in enumerate(text):
        if ch == "\n" and marks.depth and not _closes_first(text, at_char + 1):
            # The edition goes on with some quotations in the next paragraph (鄉射禮's
            # 賓對曰：“某不能。⏎為二三子。”) and leaves others unclosed (士昏禮's
            # 曰：“某以非他故，不足以辱命，⏎對曰：“…): one that the next paragraph does not
            # close first is no quotation.
            marks.unquote()
        elif ch not in PUNCTUATION:
            marks.chars.append(ch)
        else:
            marks.punctuation(ch)
    if marks.depth:  # unclosed at the end of the text
        marks.unquote()
    return "".join(marks.chars), marks.breaks, marks.opens, marks.closes


class _Marks:
    """The characters and marks of a punctuated text, as :func:`marked` reads it."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.breaks: dict[int, str] = {}
        self.opens: set[int] = set()
        self.closes: set[int] = set()
        self.depth = 0  # inside a quotation: its marks are the speaker's, not the clause's
        self.inner: dict[int, str] = {}  # the marks inside it, by the character they follow
        # where it opened, the mark dropped before it
        self.opened: tuple[int, str | None] | None = None

    def unquote(self) -> None:
        """The quotation is none: its marks, and the one dropped before it, are the text's."""
        assert self.opened is not None
        at, before = self.opened
        self.opens.discard(at)
        if before is not None:
            self.breaks[at - 1] = before
        self.breaks.update(self.inner)
        self.depth, self.inner, self.opened = 0, {}, None

    def punctuation(self, ch: str) -> None:
        """Read one punctuation mark: a quotation's open or close, or a break (句讀)."""
        last = len(self.chars) - 1  # the character the mark follows
        if ch in OPEN_QUOTE:
            self._open_quote(last)
        elif ch in CLOSE_QUOTE:
            self._close_quote(last)
        elif self.depth:
            self._inner_break(ch, last)
        elif ch in SENTENCE and last >= 0:
            self.breaks[last] = "sentence"
        elif ch in CLAUSE and last >= 0 and self.breaks.get(last) != "sentence":
            self.breaks[last] = "clause"

    def _open_quote(self, last: int) -> None:
        """A quotation (or one inside it) opens before the next character."""
        if self.depth == 0:
            self.opens.add(len(self.chars))
            before = self.breaks.get(last)
            if before == "clause":
                del self.breaks[last]  # 曰：「…」 — the speech stays with the clause saying it
            self.opened = (len(self.chars), before if before == "clause" else None)
        self.depth += 1

    def _close_quote(self, last: int) -> None:
        """A quotation (or one inside it) closes after character ``last``."""
        if self.depth == 0:
            return  # the close of a quotation opened in an earlier paragraph
        self.depth -= 1
        if self.depth == 0 and last >= 0:
            self.closes.add(last)
            if last in self.inner:  # 「請。」: the speech's last mark ends the clause after it
                self.breaks[last] = self.inner[last]
            self.inner.clear()
            self.opened = None

    def _inner_break(self, ch: str, last: int) -> None:
        """A break inside a quotation: kept apart, the text's only if the quotation is none."""
        if last >= 0 and (ch in SENTENCE or (ch in CLAUSE and self.inner.get(last) != "sentence")):
            self.inner[last] = "sentence" if ch in SENTENCE else "clause"


def _closes_first(text: str, start: int) -> bool:
    """Whether the paragraph from ``start`` closes a quotation before it opens one."""
    end = text.find("\n", start)
    for ch in text[start : end if end >= 0 else len(text)]:
        if ch in CLOSE_QUOTE:
            return True
        if ch in OPEN_QUOTE:
            return False
    return False


@cache
def punctuated_chapters() -> dict[str, str]:
    """The punctuated text of each chapter (經 and 記), keyed by its simplified title."""
    path = witness_path(WITNESS)
    lines = [line.strip().strip("\u3000") for line in path.read_text("utf-8").splitlines()]
    heading = re.compile(r"^(\S+?)第[一二三四五六七八九十]+$")
    chapters: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        match = heading.match(line)
        if match:
            current = chapters.setdefault(match.group(1), [])
            current.clear()  # the table of contents names every chapter first
            continue
        if current is not None and line:
            current.append(line)
    if len(chapters) < 17:
        raise SourceError(path, f"found {len(chapters)} chapter headings, expected 17")
    # A paragraph's end bounds a quotation (see :func:`marked`); the newline is no character.
    return {title: "\n".join(body) for title, body in chapters.items()}


@dataclass(frozen=True)
class Stretch:
    """A stretch where the Kanripo 經 and the punctuated text do not align."""

    start: int  # offsets into the Kanripo text
    end: int
    kanripo: str
    punctuated: str


@dataclass(frozen=True)
class Projection:
    """The punctuated edition's marks on one rite's Kanripo characters."""

    rite: str
    text: str  # the Kanripo characters (經 segments joined)
    breaks: dict[int, str]  # offset of the character a break follows → sentence | clause
    opens: frozenset[int]
    closes: frozenset[int]
    aligned: int  # Kanripo characters aligned with an equal character
    marks: int  # marks of the punctuated text (breaks)
    placed: int  # of those, placed after an aligned character
    stretches: tuple[Stretch, ...]
    same: int = 0  # of the aligned characters, those identical after folding
    outside: int = 0  # characters of layers the punctuated text lacks (喪服's 傳)
    #: the quotations whose first and last characters both align: (first, last) offsets
    quotes: tuple[tuple[int, int], ...] = ()

    @property
    def aligned_share(self) -> float:
        """Aligned characters of the text the punctuated edition has (傳 left out)."""
        size = len(self.text) - self.outside
        return self.aligned / size if size else 1.0

    @property
    def placed_share(self) -> float:
        return self.placed / self.marks if self.marks else 1.0


def project(rite: str, text: str, punctuated: str) -> Projection:
    """Project ``punctuated``'s marks onto ``text`` (the Kanripo characters of ``rite``)."""
    chars, breaks, opens, closes = marked(punctuated)
    target = fold(text)
    source = fold(chars)
    to_kanripo: dict[int, int] = {}  # punctuated character → Kanripo character
    aligned = same = 0
    stretches: list[Stretch] = []
    for op in Levenshtein.opcodes(source, target):
        if op.tag == "equal":
            same += op.dest_end - op.dest_start
        if op.tag == "equal" or (
            op.tag == "replace" and op.src_end - op.src_start == op.dest_end - op.dest_start
        ):
            aligned += op.dest_end - op.dest_start  # a variant character is aligned too
        if op.tag != "equal":
            stretches.append(
                Stretch(
                    op.dest_start,
                    op.dest_end,
                    text[op.dest_start : op.dest_end],
                    chars[op.src_start : op.src_end],
                )
            )
        one_to_one = op.src_end - op.src_start == op.dest_end - op.dest_start
        if op.tag in ("equal", "replace") and one_to_one:
            for k in range(op.src_end - op.src_start):
                to_kanripo[op.src_start + k] = op.dest_start + k
    placed: dict[int, str] = {}
    count = 0
    for at, kind in breaks.items():
        if at not in to_kanripo:
            continue  # the character the mark follows is not in the Kanripo text
        count += 1
        k = to_kanripo[at]
        if RANK[kind] > RANK.get(placed.get(k, ""), 0):
            placed[k] = kind
    return Projection(
        rite,
        text,
        placed,
        frozenset(to_kanripo[i] for i in opens if i in to_kanripo),
        frozenset(to_kanripo[i] for i in closes if i in to_kanripo),
        aligned,
        len(breaks),
        count,
        tuple(stretches),
        same,
        quotes=_quotes(opens, closes, to_kanripo),
    )


def _quotes(opens, closes, to_kanripo: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """The quotations on the Kanripo characters, (first, last): in the punctuated text the
    outer quotations' opens and closes alternate, so each open is paired with the first close
    after it before either is mapped; a quotation one of whose ends does not align is left out
    (pairing after the mapping would join an open to another quotation's close)."""
    ends = sorted(closes)
    pairs = []
    for start in sorted(opens):
        at = bisect_left(ends, start)
        end = ends[at] if at < len(ends) else None
        if end is not None and start in to_kanripo and end in to_kanripo:
            pairs.append((to_kanripo[start], to_kanripo[end]))
    return tuple(pairs)


def opens_inside_quote(quotes: tuple[tuple[int, int], ...], offset: int) -> bool:
    """Whether a clause beginning at ``offset`` opens inside a quotation begun before it
    (``quotes``: (first, last) offsets, in order and not overlapping).

    >>> opens_inside_quote(((5, 10), (20, 30)), 6), opens_inside_quote(((5, 10),), 5)
    (True, False)
    """
    at = bisect_left(quotes, (offset, -1)) - 1  # the last quotation that begins before it
    return at >= 0 and quotes[at][0] < offset <= quotes[at][1]


@cache
def rite_projection(rite: str) -> Projection:
    """The punctuated edition's breaks on a rite's Kanripo 經 (its segments joined).

    Segments of a layer the punctuated text does not have (喪服's 傳, 傳曰…) are left out of
    the alignment: they get no projected breaks (their breaks are a table: :mod:`zhuan`).
    """

    info = rite_info(rite)
    chapters = punctuated_chapters()
    if info.hans not in chapters:
        raise SourceError(witness_path(WITNESS), f"no chapter {info.hans} in the punctuated text")
    segments = jing_segments(rite_rows(rite))
    text = "".join(row.text for row in segments)
    punctuated = chapters[info.hans]
    zhuan = zhuan_spans(rite, segments, punctuated)
    kept = [k for k in range(len(text)) if not any(a <= k < b for a, b in zhuan)]
    sub = project(rite, "".join(text[k] for k in kept), punctuated)
    return Projection(
        rite,
        text,
        corrected_breaks(rite, text, {kept[k]: kind for k, kind in sub.breaks.items()}),
        frozenset(kept[k] for k in sub.opens),
        frozenset(kept[k] for k in sub.closes),
        sub.aligned,
        sub.marks,
        sub.placed,
        tuple(
            Stretch(
                _at(kept, st.start, len(text)), _end(kept, st, len(text)), st.kanripo, st.punctuated
            )
            for st in sub.stretches
        ),
        sub.same,
        len(text) - len(kept),
        tuple((kept[a], kept[b]) for a, b in sub.quotes),
    )


@dataclass(frozen=True)
class BreakCorrection:
    """A break set by hand (``corpus/break-corrections.tsv``): between ``before`` and ``after``
    (the 經 characters either side, as the witness writes them) goes ``mark``."""

    rite: str
    before: str
    after: str
    mark: str  # sentence | clause | none
    evidence: str
    line: int


CORRECTIONS = "break-corrections.tsv"
_CORRECTION_FIELDS = ("rite", "before", "after", "mark", "evidence")


@cache
def break_corrections() -> tuple[BreakCorrection, ...]:
    """The table's rows, each checked for a mark the projection knows and its evidence."""
    path = corpus_dir() / CORRECTIONS
    rows = []
    for line, row in read_rows(path, _CORRECTION_FIELDS):
        if row["mark"] not in (*RANK, "none") or not row["evidence"] or not row["after"]:
            raise SourceError(path, "mark must be sentence, clause or none, with evidence", line)
        rows.append(BreakCorrection(**row, line=line))
    return tuple(rows)


def corrected_breaks(rite: str, text: str, breaks: dict[int, str]) -> dict[int, str]:
    """``breaks`` with the table's hand corrections for ``rite`` applied (a new dict).

    >>> corrected_breaks("shihun", "父醮子命之辭曰", {4: "clause"})
    {}
    """
    breaks = dict(breaks)
    for fix in break_corrections():
        if fix.rite != rite:
            continue
        place = fix.before + fix.after
        if text.count(place) != 1:
            raise SourceError(
                corpus_dir() / CORRECTIONS,
                f"{place} occurs {text.count(place)} times in {rite}'s 經, not once",
                fix.line,
            )
        at = text.index(place) + len(fix.before) - 1
        if fix.mark == "none":
            breaks.pop(at, None)
        else:
            breaks[at] = fix.mark
    return breaks


def _at(kept: list[int], k: int, size: int) -> int:
    return kept[k] if k < len(kept) else size


def _end(kept: list[int], stretch: Stretch, size: int) -> int:
    if stretch.end > stretch.start:
        return kept[stretch.end - 1] + 1
    return _at(kept, stretch.start, size)


#: the fewest characters of a segment that goes on with a 傳 (絞帶者繩帶也 …)
SHORTEST_ZHUAN = 4


def zhuan_spans(rite, segments, punctuated: str) -> list[tuple[int, int]]:
    """The spans of 喪服's 傳 (offsets into the joined 經 segments): from each 傳曰 to the end
    of its segment, and the segments after such a one that the punctuated 經 (which has no
    傳) does not hold — the 傳 goes on after a 注 (傳曰斬者何… | 注 | 絞帶者繩帶也…)."""
    spans: list[tuple[int, int]] = []
    offset = 0
    starts = []
    for row in segments:
        at = row.text.find("傳曰")
        starts.append((offset, offset + len(row.text), at))
        offset += len(row.text)
    if not any(at >= 0 for _, _, at in starts):
        return spans
    folded = fold(marked(punctuated)[0])
    in_zhuan = False
    for (start, end, at), row in zip(starts, segments, strict=True):
        if at >= 0:
            spans.append((start + at, end))
            in_zhuan = True
            continue
        # a 傳 goes on in explanations; a short segment the edition seems to lack is a 經
        # item it writes in another form (壻 | 婿 in 緦麻), not more 傳
        if in_zhuan and len(row.text) >= SHORTEST_ZHUAN and not _held(fold(row.text), folded):
            spans.append((start, end))
            continue
        in_zhuan = False
    return spans


def _held(segment: str, folded: str) -> bool:
    """Is most of ``segment`` in ``folded`` (by its runs of four characters)?"""
    if len(segment) < 4:
        return segment in folded
    grams = [segment[i : i + 4] for i in range(0, len(segment) - 3, 2)]
    return sum(g in folded for g in grams) * 2 >= len(grams)


def cut(reading: str, start: int, projection: Projection) -> list[list[str]]:
    """Cut one segment (``reading``, at ``start`` in the projection's text) into sentences of
    clauses at the projected breaks; the segment's end always ends a sentence."""
    sentences: list[list[str]] = [[]]
    begin = 0
    for i in range(len(reading)):
        kind = projection.breaks.get(start + i)
        if kind is None and i < len(reading) - 1:
            continue
        sentences[-1].append(reading[begin : i + 1])
        begin = i + 1
        if kind == "sentence" and i < len(reading) - 1:
            sentences.append([])
    return [s for s in sentences if s]


@dataclass(frozen=True)
class Score:
    """Projected breaks against a text's own punctuation, on the same Kanripo characters."""

    level: str  # sentence | clause (a clause break: any break, a sentence's end included)
    projected: int
    truth: int
    agreed: int

    @property
    def precision(self) -> float:
        return self.agreed / self.projected if self.projected else 1.0

    @property
    def recall(self) -> float:
        return self.agreed / self.truth if self.truth else 1.0


def score(projected: Projection, truth: Projection) -> tuple[Score, Score]:
    """(sentence, clause) scores of ``projected`` against ``truth`` (both on one text),
    counted where both texts have the character the break follows."""
    scores = []
    for level in ("sentence", "clause"):
        a = {k for k, kind in projected.breaks.items() if level == "clause" or kind == level}
        b = {k for k, kind in truth.breaks.items() if level == "clause" or kind == level}
        scores.append(Score(level, len(a), len(b), len(a & b)))
    return scores[0], scores[1]


@cache
def xiangshe_scores() -> tuple[Score, Score]:
    """The punctuated edition's breaks on 鄉射禮 against its base text's (seed 000) own."""

    raw = witness_path("xiangshe-base").read_text("utf-8")
    begin = raw.index(JING_HEADING) + len(JING_HEADING)
    base = raw[begin : raw.index(SUMMARY_HEADING, begin)]
    projected = rite_projection("xiangshe")
    truth = project("xiangshe", projected.text, base)
    return score(projected, truth)
