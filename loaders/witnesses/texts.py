"""The base text (seed 000, the only punctuated witness): paragraphs, sentences, clauses.

分段、分句、分讀. The 經 and the 記 are cut into paragraphs (the witness's blank-line
blocks), sentences (closed by 。！？) and clauses (cut at ，；：), with quotations 「…」 kept
whole as speech inside their clause (曰：「弓矢既具，有司請射。」 is one clause).

Ids come from the text's own structure, never from a global counter: a clause is
``jing/12.3.2`` (paragraph 12 of the 經, its sentence 3, clause 2), so editing one paragraph
changes no id outside it. Offsets are code-point offsets into the witness file's text.

Each unit has two readings: ``witness_text``, the characters of the seed as they are, and
``text``, the normalised reading in standard traditional characters (the seed's few
simplified forms and conversion slips corrected by ``corpus/corrections.tsv``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir, read_rows, witness_path
from yili_kg.loaders.errors import SourceError

BASE_WITNESS = "xiangshe-base"
SENTENCE_END = "。！？"
CLAUSE_BREAK = "，；："
OPEN_QUOTE, CLOSE_QUOTE = "「", "」"
JING_HEADING = "原文"  # the web page's heading above the classic
SUMMARY_HEADING = "簡介"  # the modern summary after the 記: not part of the classic
JI_MARK = "記"  # the 記 paragraph opens with 記。


#: the suffix of a passage re-cut after its edition id was published for other characters
_VERSION = re.compile(r"v\d+$")


def edition_id(pid: str) -> str:
    """The edition id of a passage id (``jing/99.1.2v3`` → ``jing/99.1.2``)."""
    return _VERSION.sub("", pid)


def recut(pid: str) -> bool:
    """Is this the id of a passage re-cut after its edition id was published (…v2, …v3)?"""
    return _VERSION.search(pid) is not None


@dataclass(frozen=True)
class Passage:
    """A unit of the base text: a paragraph, a sentence, a clause, or a heading.

    ``start``/``end`` are offsets into the witness file; ``text`` is the normalised reading,
    ``witness_text`` the witness's own characters (same length: corrections are one
    character for one). ``speech`` holds the quotations 「…」 inside a clause; ``quoted`` is
    true of a clause that opens inside a quotation an earlier clause opened (the punctuated
    edition's “…” cut by the end of a segment, where a 注 comes between its words).
    """

    id: str
    level: str  # paragraph | sentence | clause | heading
    division: str  # jing (經) | ji (記)
    text: str
    witness_text: str
    start: int
    end: int
    parent: str | None = None
    speech: tuple[str, ...] = field(default=())
    quoted: bool = False

    @property
    def number(self) -> tuple[int, ...]:
        """The structural number, e.g. (12, 3, 2) for ``jing/12.3.2`` (and ``jing/12.3.2v2``)."""
        return tuple(int(part) for part in edition_id(self.id).split("/")[1].split("."))


CORRECTION_FIELDS = ("form", "reading", "context", "note")


@cache
def _corrections(path: Path | None = None) -> tuple[tuple[str, str, str], ...]:
    path = path or corpus_dir() / "corrections.tsv"
    out = []
    for number, row in read_rows(path, CORRECTION_FIELDS):
        form, reading, context = row["form"], row["reading"], row["context"] or ""
        if len(form) != 1 or len(reading) != 1 or (context and form not in context):
            raise SourceError(path, f"bad correction {row}", number)
        out.append((form, reading, context))
    # corrections with a context are tried first
    return tuple(sorted(out, key=lambda r: not r[2]))


def normalise(text: str) -> str:
    """The normalised reading of base-text characters (same length as ``text``).

    >>> normalise("主人坐取觯，适洗")
    '主人坐取觶，適洗'
    >>> normalise("賓進受爵于席前，複位。橫弓；複手自")
    '賓進受爵于席前，復位。橫弓；覆手自'
    """
    chars = list(text)
    rules = _corrections()
    for index, char in enumerate(text):
        for form, reading, context in rules:
            if char != form:
                continue
            if context:
                offset = context.index(form)
                lo = index - offset
                if text[max(lo, 0) : lo + len(context)] != context or lo < 0:
                    continue
            chars[index] = reading
            break
    return "".join(chars)


def _split(text: str, base: int, breaks: str) -> Iterator[tuple[int, int, str]]:
    """Cut ``text`` at ``breaks`` outside 「…」; yield (start, end, delimiter) of each piece.

    A ： directly before 「 introduces speech and does not cut. The delimiter itself is
    not part of the piece; a closing 」 right after a sentence end stays with its sentence.
    """
    depth = 0
    start = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == OPEN_QUOTE:
            depth += 1
        elif char == CLOSE_QUOTE:
            depth = max(depth - 1, 0)
            # 「…。」 closes its sentence even where the witness puts no 。 after it
            if depth == 0 and breaks == SENTENCE_END and text[index - 1 : index] in breaks:
                yield base + start, base + index + 1, char
                start = index + 1
        elif depth == 0 and char in breaks:
            if char == "：" and text[index + 1 : index + 2] == OPEN_QUOTE:
                index += 1
                continue
            if start < index:
                yield base + start, base + index, char
            start = index + 1
        index += 1
    if start < len(text):
        yield base + start, base + len(text), ""


def _speech(text: str) -> tuple[str, ...]:
    quotes, depth, begin = [], 0, 0
    for index, char in enumerate(text):
        if char == OPEN_QUOTE:
            if depth == 0:
                begin = index + 1
            depth += 1
        elif char == CLOSE_QUOTE and depth:
            depth -= 1
            if depth == 0:
                quotes.append(text[begin:index])
    return tuple(quotes)


def _strip(raw: str, start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) past surrounding spaces and a dangling 」 or sentence end."""
    while start < end and raw[start] in " \u3000":
        start += 1
    while end > start and raw[end - 1] in " \u3000" + SENTENCE_END:
        end -= 1
    return start, end


def split_passages(raw: str) -> Iterator[Passage]:  # 分段分句分讀
    """Every paragraph, sentence and clause of the 經 and 記 in a base-text witness.

    Args:
        raw: the whole witness file as text.
    """
    reading = normalise(raw)  # corrections see their context across clause breaks
    try:
        begin = raw.index(JING_HEADING) + len(JING_HEADING)
        finish = raw.index(SUMMARY_HEADING, begin)
    except ValueError as exc:
        raise SourceError(
            "base text", f"headings {JING_HEADING}/{SUMMARY_HEADING} not found"
        ) from exc
    numbers = {"jing": 0, "ji": 0}
    offset = begin
    for line in raw[begin:finish].split("\n"):
        line_start = offset
        offset += len(line) + 1
        if not line.strip():
            continue
        division = "jing"
        body_start = line_start
        if line.startswith(JI_MARK + "。"):
            division = "ji"
            heading_end = line_start + len(JI_MARK)
            yield _unit(raw, reading, "ji/0", "heading", "ji", line_start, heading_end, None)
            body_start = heading_end + 1
        p_start, p_end = _strip(raw, body_start, line_start + len(line))
        if p_start >= p_end:  # a line of nothing but 記。 (or spaces): no paragraph
            continue
        numbers[division] += 1
        pid = f"{division}/{numbers[division]}"
        yield _unit(
            raw, reading, pid, "paragraph", division, p_start, p_end + _closing(raw, p_end), None
        )
        sentences = _split(raw[p_start : line_start + len(line)], p_start, SENTENCE_END)
        for s_number, (s_start, s_end, _) in enumerate(sentences, start=1):
            s_start, s_end = _strip(raw, s_start, s_end)
            if s_start >= s_end:
                continue
            sid = f"{pid}.{s_number}"
            s_end_q = s_end + _closing(raw, s_end)
            yield _unit(raw, reading, sid, "sentence", division, s_start, s_end_q, pid)
            clauses = _split(raw[s_start:s_end], s_start, CLAUSE_BREAK)
            for c_number, (c_start, c_end, _) in enumerate(clauses, start=1):
                c_start, c_end = _strip(raw, c_start, c_end)
                if c_start < c_end:
                    c_end += _closing(raw, c_end)
                    yield _unit(
                        raw, reading, f"{sid}.{c_number}", "clause", division, c_start, c_end, sid
                    )


def _closing(raw: str, end: int) -> int:
    """How many characters of a 。」-style ending to add so that 「 and 」 stay paired."""
    if raw[end : end + 1] in tuple(SENTENCE_END) and raw[end + 1 : end + 2] == CLOSE_QUOTE:
        return 2
    return 0


def _unit(raw, reading, pid, level, division, start, end, parent) -> Passage:
    witness = raw[start:end]
    text = reading[start:end]
    return Passage(
        id=pid,
        level=level,
        division=division,
        text=text,
        witness_text=witness,
        start=start,
        end=end,
        parent=parent,
        speech=_speech(text) if level == "clause" else (),
    )


@cache
def read_base(path: Path | None = None) -> tuple[str, tuple[Passage, ...]]:
    """The base witness's raw text and all its passages, in text order."""
    path = path or witness_path(BASE_WITNESS)
    raw = Path(path).read_text(encoding="utf-8")
    return raw, tuple(split_passages(raw))


def clauses(passages: tuple[Passage, ...]) -> list[Passage]:
    return [p for p in passages if p.level == "clause"]
