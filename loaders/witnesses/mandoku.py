"""A reader of the Kanseki Repository's mandoku text format (Kanripo KR1d0028, KR1d0026).

The files in ``corpus/kanripo-raw/`` are as the repository publishes them:

* ``#+`` header lines (``#+PROPERTY: JUAN 卷五考證`` opens a juan's 考證 appendix);
* ``<pb:KR1d0028_WYG_005-3b>`` page markers: the page of every character after them;
* ``¶`` line ends (a line of the print, not of the text);
* ``(right/left)`` small characters in two columns on one line: read right, then left, and
  consecutive groups re-joined into one note;
* ``&KRnnnn;`` glyphs outside Unicode (kept in ``raw``, read by :func:`kanripo.read_gaiji`).

四庫 (WYG, 儀禮注疏) prints the 經 in large characters, then ``注`` and 鄭玄's note, also
large, then ``音義(…)`` and ``疏(…)`` in small characters; ``○`` marks the edition's sections.
Where a 注 is followed by the next 經 with no small note between, the print does not mark the
end of the 注: :func:`zhushu_rows` finds it by aligning the large text with 四部叢刊 (SBCK),
where 經 is large and 注 small. The few places where that cannot decide (SBCK half-leaves
missing) or where the transcription mislabels a note are rows of ``corpus/kanripo-corrections.tsv``.

The result is the rows of :class:`kanripo.Row`: ``row type segment page text`` in file order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.variants import fold

RAW_DIR = "kanripo-raw"
CORRECTION_FIELDS = ("text", "juan", "page", "action", "before", "after", "evidence")
CORRECTIONS = "kanripo-corrections.tsv"

_PAGE = re.compile(r"<pb:([^>]+)>")
_GROUP = re.compile(r"\(([^()]*)\)")
#: a juan's running heads: 欽定四庫全書, 儀禮注疏卷五 (or 儀禮注䟽卷十五), the authors, the chapter
#: title, SBCK's 儀禮卷第五 and its trailer of character counts
_HEADING = re.compile(
    r"^(欽定四庫全書|　*儀禮注[疏䟽][卷巻].*|　*漢鄭氏注.*|　*\S+第[一二三四五六七八九十]+$|"
    r"儀禮[卷巻]第.*|.*第[一二三四五六七八九十]+　儀禮　鄭氏注|"
    r"經[一二三四五六七八九十百千]+字.*|　*)$"
)


_DESCRIBED = re.compile(r"\[[^\[\]¶]*\*[^\[\]¶]*\]")
_TRAILER = re.compile(r"經[一二三四五六七八九十百千]+字注[一二三四五六七八九十百千]+字")


@dataclass(frozen=True)
class Char:
    """One character of the print, with its page and whether it is small."""

    ch: str  # one character, or a whole &KR…; entity
    page: str
    small: bool
    group: int  # consecutive small groups share a number (one note)


_TOKEN = re.compile(r"&KR\d{4};|.", re.S)


def _lines(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The body's and the 考證 appendix's lines, each with the page it starts on."""
    body: list[tuple[str, str]] = []
    appendix: list[tuple[str, str]] = []
    target = body
    page = ""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SourceError(path, f"cannot read: {error.strerror}") from error
    for line in text.splitlines():
        if line.startswith("#"):
            if line.startswith("#+PROPERTY: JUAN"):
                if line.endswith("考證"):
                    target = appendix
                elif target is appendix:  # 跋語 and anything after the 考證
                    target = []
            continue
        # a glyph described by its parts ([孑*(焉-正+?)]): one unreadable character
        line = _DESCRIBED.sub("〓", line)
        for part in re.split(r"(<pb:[^>]+>)", line):
            marker = _PAGE.fullmatch(part)
            if marker:
                page = marker.group(1)
            elif part:
                target.append((part.rstrip("¶"), page))
    return body, appendix


def _chars(lines: list[tuple[str, str]]) -> list[Char]:
    """The body as characters: large text in order, small groups read right then left."""
    chars: list[Char] = []
    group = 0
    last_small = False
    for text, page in lines:
        if _HEADING.fullmatch(text):
            continue
        at = 0
        for m in _GROUP.finditer(text):
            for tok in _TOKEN.findall(text[at : m.start()]):
                chars.append(Char(tok, page, False, 0))
                last_small = False
            if not last_small or text[at : m.start()].strip("　"):
                group += 1
            right, _, left = m.group(1).partition("/")
            if _TRAILER.fullmatch(right + left):  # SBCK's count of characters, not text
                at = m.end()
                continue
            for tok in _TOKEN.findall(right + left):
                chars.append(Char(tok, page, True, group))
            last_small = True
            at = m.end()
        rest = text[at:]
        for tok in _TOKEN.findall(rest):
            chars.append(Char(tok, page, False, 0))
            last_small = False
    # a full-width space is layout (an indent), not text
    return [c for c in chars if c.ch != "　"]


@dataclass(frozen=True)
class Correction:
    """A hand decision on the raw text (``corpus/kanripo-corrections.tsv``)."""

    text_id: str
    juan: int
    page: str
    action: str  # zhu-end | not-marker | as-zhu | as-shu | replace
    before: str
    after: str
    evidence: str


@cache
def corrections() -> tuple[Correction, ...]:
    path = corpus_dir() / CORRECTIONS
    out = []
    for n, r in read_rows(path, CORRECTION_FIELDS):
        if r["action"] not in ("zhu-end", "not-marker", "as-zhu", "as-shu", "replace"):
            raise SourceError(path, f"unknown action {r['action']!r}", n)
        out.append(
            Correction(
                r["text"],
                int(r["juan"]),
                r["page"],
                r["action"],
                r["before"],
                r["after"],
                r["evidence"],
            )
        )
    return tuple(out)


def _corrections_for(text_id: str, juan: int) -> list[Correction]:
    return [c for c in corrections() if c.text_id == text_id and c.juan == juan]


def _replace(chars: list[Char], fixes: list[Correction]) -> list[Char]:
    """Apply the ``replace`` corrections: characters as transcribed → what the print has."""
    for fix in fixes:
        if fix.action != "replace":
            continue
        text = "".join(c.ch for c in chars)
        at = text.find(fix.before)
        if at < 0:
            raise SourceError(corpus_dir() / CORRECTIONS, f"{fix.page}: {fix.before!r} not found")
        # map the string offset back to char positions (entities are several characters)
        pos, i = 0, 0
        while pos < at:
            pos += len(chars[i].ch)
            i += 1
        j, span = i, 0
        while span < len(fix.before):
            span += len(chars[j].ch)
            j += 1
        first = chars[i]
        # a large character replaced stays large (□ → 記); small ones split out of a large line
        # take the size of the text before ((目/木) → 相)
        size = first if not first.small or not i else chars[i - 1]
        chars = (
            chars[:i]
            + [Char(ch, first.page, size.small, size.group) for ch in fix.after]
            + chars[j:]
        )
    return chars


@dataclass
class _Raw:
    kind: str
    page: str
    parts: list[str]
    segment: int | None
    at: list[int] = field(default_factory=list)  # index in the juan's characters of each part

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _juan_of(path: Path) -> tuple[str, int]:
    """(text id, juan) from a raw file's name, e.g. KR1d0028_005.txt → (KR1d0028, 5)."""
    text_id, _, juan = Path(path).stem.partition("_")
    return text_id, int(juan)


def read_sbck(path: Path) -> list[tuple[str, str, str]]:
    """四部叢刊: (kind 經|注, text, page) in order; 注 = small text."""
    body, _ = _lines(Path(path))
    chars = _chars(body)
    out: list[tuple[str, str, str]] = []
    for c in chars:
        kind = "注" if c.small else "經"
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + c.ch, out[-1][2])
        else:
            out.append((kind, c.ch, c.page))
    return out


def _sbck_labels(path: Path) -> tuple[str, list[int]]:
    """SBCK's characters (folded) and, for each, the number of its 經/注 run (經 even, 注 odd)."""
    text: list[str] = []
    runs: list[int] = []
    for number, (kind, piece, _) in enumerate(read_sbck(path)):
        label = 2 * number + (kind == "注")
        for ch in _TOKEN.findall(piece):
            text.append(ch if len(ch) == 1 else "〓")
            runs.append(label)
    return fold("".join(text)), runs


def _mark_of(buffer: str) -> tuple[str, str]:
    """The marker that ends a large buffer before a small note: (kind, buffer without it)."""
    for mark in ("音義", "疏", "䟽", "注"):
        if buffer.endswith(mark):
            return mark, buffer[: -len(mark)]
    return "", buffer


#: the large-character markers that head a small note, and the row kind each opens
_MARKS = ("音義", "疏", "䟽", "注")
_NOTE_OF_MARK = {"音義": "音義", "疏": "疏", "䟽": "疏"}


@dataclass(frozen=True)
class _Alignment:
    """The large characters (經 and 注) of a juan aligned with SBCK's 經/注 runs."""

    wyg: str  # the large characters, folded (an entity as 〓)
    sbck: str  # SBCK's characters, folded
    run_of: dict[int, int]  # character → the SBCK run it meets (經 even, 注 odd)
    run_start: dict[int, int]  # SBCK run → its first SBCK position
    large_at: dict[int, int]  # character → its place among the large characters
    same: set[int]  # characters SBCK has as they are (an equal match)
    pos_of: dict[int, int]  # character → the SBCK character it is aligned with


def _align(chars: list[Char], sbck_path: Path) -> _Alignment:
    """Align the large characters (經 and 注) with SBCK's: each gets the SBCK run it meets."""
    large = [i for i, c in enumerate(chars) if not c.small]
    wyg = fold("".join(chars[i].ch if len(chars[i].ch) == 1 else "〓" for i in large))
    sbck, runs = _sbck_labels(sbck_path)
    run_of: dict[int, int] = {}
    run_start: dict[int, int] = {}
    for at, label in enumerate(runs):
        run_start.setdefault(label, at)
    large_at = {index: at for at, index in enumerate(large)}
    same: set[int] = set()
    pos_of: dict[int, int] = {}
    for op in Levenshtein.opcodes(wyg, sbck):
        if op.tag in ("equal", "replace"):
            for k in range(op.src_end - op.src_start):
                run_of[large[op.src_start + k]] = runs[op.dest_start + k]
                pos_of[large[op.src_start + k]] = op.dest_start + k
                if op.tag == "equal":
                    same.add(large[op.src_start + k])
    return _Alignment(wyg, sbck, run_of, run_start, large_at, same, pos_of)


@dataclass(frozen=True)
class _Fixes:
    """The hand decisions of a juan that steer the reading, as the keys they are looked up by."""

    zhu_ends: set[tuple[str, str, str]]  # (page, 注 ends with, 經 begins with)
    not_markers: set[tuple[str, str]]  # (page, the next characters): a 注 that is a word
    as_zhu: set[tuple[str, str]]  # (page, the next characters): a 注 headed 疏
    as_shu: set[tuple[str, str]]  # (page, the note begins with): a 疏 headed 注

    @classmethod
    def of(cls, fixes: list[Correction]) -> _Fixes:
        """The keys of a juan's corrections, by action."""
        return cls(
            {(c.page, c.before, c.after) for c in fixes if c.action == "zhu-end"},
            {(c.page, c.before) for c in fixes if c.action == "not-marker"},
            {(c.page, c.before) for c in fixes if c.action == "as-zhu"},
            {(c.page, c.after) for c in fixes if c.action == "as-shu"},
        )


class _Reader:
    """One walk through a juan's characters, cutting them into 經, 注, 音義, 疏 and ○ rows."""

    def __init__(self, chars: list[Char], align: _Alignment, fixes: _Fixes) -> None:
        self.chars = chars
        self.n = len(chars)
        self.align = align
        self.fixes = fixes
        self.rows: list[_Raw] = []
        self.segment = 0
        self.state = "after-note"  # what large text is now: 經, 注, or (after a note) the next 經
        self.zhu_run: int | None = None  # the SBCK 注 run the current 注 began in
        self.current = _Raw("", "", [], None)  # no row yet (a kind no row has)
        self.pending = ""  # the marker (音義, 疏, 注) read before the next small note
        self.jing_pos = -1  # the SBCK position of the last 經 character read
        self.i = 0

    def read(self) -> list[_Raw]:
        """All the rows, in order (empty ones included)."""
        while self.i < self.n:
            c = self.chars[self.i]
            if c.small:
                self._small(c)
            elif c.ch == "○":
                self._section(c)
            elif not self._large(c):
                self._append(c)
        return self.rows

    def _open_row(self, kind: str, page: str) -> _Raw:
        """A new row of ``kind`` in the current segment."""
        row = _Raw(kind, page, [], self.segment)
        self.rows.append(row)
        return row

    def _append(self, c: Char) -> None:
        """The large character goes on the current row."""
        self.current.parts.append(c.ch)
        self.current.at.append(self.i)
        if self.state == "經" and self.i in self.align.pos_of:
            self.jing_pos = self.align.pos_of[self.i]
        self.i += 1

    def _small(self, c: Char) -> None:
        """A small note (one group): 音義, 疏, or 注 by the marker before it."""
        chars, n = self.chars, self.n
        j = self.i
        while j < n and chars[j].small and chars[j].group == c.group:
            j += 1
        text = "".join(ch.ch for ch in chars[self.i : j])
        mark = self.pending
        self.pending = ""
        if not mark and self.current.kind in ("經", "注"):
            mark = self._strip_mark()
        kind = _NOTE_OF_MARK.get(mark, "注")
        if mark == "注" and any(c.page == p and text.startswith(a) for p, a in self.fixes.as_shu):
            kind = "疏"  # small text after 注 is the 疏 the transcription mislabelled
        self._open_row(kind, c.page).parts.append(text)
        self.current = self.rows[-1]
        self.state = "after-note"
        self.i = j

    def _strip_mark(self) -> str:
        """Take the marker (音義, 疏, 注) off the end of the current large row; "" if none."""
        current = self.current
        mark, stripped = _mark_of(current.text)
        if mark:
            current.parts = [stripped]
            if not stripped:  # the marker alone had opened a row
                self.rows.remove(current)
                if current.kind == "經":
                    self.segment -= 1
        return mark

    def _section(self, c: Char) -> None:
        """○: the edition's section break."""
        self.rows.append(_Raw("○", c.page, [], self.segment))
        self.current = self.rows[-1]
        self.state = "after-note"
        self.i += 1

    def _large(self, c: Char) -> bool:
        """Read a large character by the state; False if it is still to go on the current row."""
        if self.state == "after-note":
            return self._after_note(c)
        if self.state == "經":
            return self._in_jing(c)
        if self.state == "注":
            return self._in_zhu(c)
        return False

    def _start_zhu(self, c: Char) -> None:
        """The character is the 注 marker: a 注 row begins after it."""
        self.state = "注"
        self.zhu_run = None
        self.current = self._open_row("注", c.page)
        self.i += 1

    def _after_note(self, c: Char) -> bool:
        """After a note, large text is a marker, a 注, or (mostly) the next 經."""
        chars, n = self.chars, self.n
        j = self.i
        while j < n and not chars[j].small and chars[j].ch != "○":
            j += 1
        between = "".join(ch.ch for ch in chars[self.i : j])
        if j < n and chars[j].small and between in _MARKS:
            self.pending = between  # the marker of the next small note, not text
            self.i = j
            return True
        # after a small note, large text is the next 經 — unless it begins with 注
        if c.ch == "注" and self.rows and self.rows[-1].kind in ("經", "音義", "疏", "注"):
            self._start_zhu(c)
            return True
        self.segment += 1
        self.current = self._open_row("經", c.page)
        self.state = "經"
        return False

    def _in_jing(self, c: Char) -> bool:
        """In a 經, a 注 (or a 疏 that heads one) begins the 注 where SBCK's 注 begins."""
        i, align = self.i, self.align
        if (c.page, _ahead(self.chars, i)) in self.fixes.as_zhu or (
            c.ch in "疏䟽" and i not in align.same and _zhu_follows(self.chars, i, align.run_of)
        ):
            self._start_zhu(c)  # a large-character 注 the transcription headed 疏
            return True
        if c.ch == "注" and (c.page, _ahead(self.chars, i)) not in self.fixes.not_markers:
            run = align.run_of.get(i)
            # a 注 is the word of the 經 only where SBCK's 經 has that very character
            if (
                i not in align.same
                or run is None
                or run % 2 == 1
                or _zhu_follows(self.chars, i, align.run_of)
            ):
                self._start_zhu(c)
                return True
        return False

    def _in_zhu(self, c: Char) -> bool:
        """In a 注, the next 注's marker or the 經 going on ends it."""
        run = self.align.run_of.get(self.i)
        if self.zhu_run is None and run is not None and run % 2 == 1:
            self.zhu_run = run
        text_so_far = self.current.text
        forced = self._forced_end(c, text_so_far)
        hand = self._hand_end_pending(c, text_so_far)
        resumes = self._resumes()
        zhu_run = self.zhu_run
        if zhu_run is not None and self._next_zhu(c, hand, zhu_run):
            self._split_jing(zhu_run)
            self._start_zhu(c)
            return True
        if forced is not None:
            self._resume_jing(c, None)  # where the hand decision says, not a character before
        elif not hand and self._jing_begins(run, resumes):
            self._resume_jing(c, run)
        return False

    def _forced_end(self, c: Char, text_so_far: str) -> str | None:
        """The 經 a ``zhu-end`` correction has begin here, if any."""
        return next(
            (
                a
                for (p, b, a) in self.fixes.zhu_ends
                if p == c.page
                and text_so_far.endswith(b)
                and _ahead(self.chars, self.i, len(a)) == a
            ),
            None,
        )

    def _hand_end_pending(self, c: Char, text_so_far: str) -> bool:
        """Does a ``zhu-end`` correction end this 注 here or a few characters on?

        While it does, the alignment may not end the 注 first: where WYG and SBCK order the
        words differently (升 before or after 注 如初入也) it would cut the 注 short.
        """
        for page, before, _ in self.fixes.zhu_ends:
            if page != c.page:
                continue
            for m in range(1, len(before) + 1):
                rest = before[m:]
                if (
                    text_so_far.endswith(before[:m])
                    and _ahead(self.chars, self.i, len(rest)) == rest
                ):
                    return True
        return False

    def _resumes(self) -> bool:
        """SBCK has no 注 here: the 經 goes on where SBCK's 經 left off."""
        i, n, align = self.i, self.n, self.align
        ahead = [k for k in range(i, min(i + 4, n)) if not self.chars[k].small]
        return (
            self.zhu_run is None
            and len(self.current.parts) >= 2
            and len(ahead) >= 3
            and all(
                k in align.same and align.pos_of.get(k) == self.jing_pos + 1 + m
                for m, k in enumerate(ahead)
            )
        )

    def _next_zhu(self, c: Char, hand: bool, zhu_run: int) -> bool:
        """Is this 注 the marker of the next 注 (SBCK has a 注 run after ``zhu_run`` here)?"""
        i = self.i
        return (
            c.ch == "注"
            and not hand
            and (c.page, _ahead(self.chars, i)) not in self.fixes.not_markers
            and i not in self.align.same
            and _zhu_follows(self.chars, i, self.align.run_of, zhu_run)
        )

    def _jing_begins(self, run: int | None, resumes: bool) -> bool:
        """Does the 經 begin again here (SBCK's 經 run goes on, no marker before a note)?

        Nor where the characters before the note end a marker the 注 began: a 注 that ends in
        音 before the 音義 (…詩云大姒嗣徽音音義) aligns its second 音 with SBCK's last, and 義
        alone was read as the next 經.
        """
        ahead = _until_small(self.chars, self.i)
        if ahead is not None and _ends_split_mark(self.current.text, ahead):
            return False
        return ahead not in _MARKS and (
            resumes
            or (
                self.zhu_run is not None
                and _is_jing(run, self.zhu_run)
                and _jing_holds(self.chars, self.i, self.align.run_of, run)
            )
        )

    def _split_jing(self, zhu_run: int) -> None:
        """Before the next 注's marker: the 經 is what SBCK reads as 經 since the 注 run."""
        current, align = self.current, self.align
        k = len(current.at)
        while k > 1 and _is_jing(align.run_of.get(current.at[k - 1]), zhu_run):
            k -= 1
        if k < len(current.at):
            start = align.run_start.get(align.run_of[current.at[k]])
            k -= _best_start(
                align.wyg, align.large_at, current.at[:k], current.at[k], align.sbck, start
            )
        if k < len(current.at):
            self.segment += 1
            jing = _Raw("經", self.chars[current.at[k]].page, current.parts[k:], self.segment)
            jing.at = current.at[k:]
            current.parts, current.at = current.parts[:k], current.at[:k]
            self.rows.append(jing)

    def _resume_jing(self, c: Char, run: int | None) -> None:
        """The 注 ends: a 經 row begins here or a character or two before."""
        current, align = self.current, self.align
        # the 經 may begin a character or two earlier than the alignment says (a character of
        # the 注 that SBCK has and WYG lacks drew it): start it where SBCK's 經 run begins best
        start = align.run_start.get(run) if run is not None else None
        back = _best_start(align.wyg, align.large_at, current.at, self.i, align.sbck, start)
        self.segment += 1
        moved_parts, moved_at = (
            current.parts[len(current.parts) - back :],
            current.at[len(current.at) - back :],
        )
        if back:
            current.parts, current.at = current.parts[:-back], current.at[:-back]
        self.current = self._open_row("經", self.chars[moved_at[0]].page if back else c.page)
        self.current.parts, self.current.at = list(moved_parts), list(moved_at)
        self.state = "經"


@cache
def zhushu_rows(path: Path, sbck_path: Path):
    """The 四庫 儀禮注疏 juan as :class:`kanripo.Row`s: 經, 注, 音義, 疏, ○, 考證.

    ``sbck_path`` is the 四部叢刊 file of the same juan, which tells where each 注 ends.
    """
    body, appendix = _lines(Path(path))
    fixes = _corrections_for(*_juan_of(path))
    chars = _replace(_chars(body), fixes)
    rows = _Reader(chars, _align(chars, sbck_path), _Fixes.of(fixes)).read()
    return _numbered(rows, appendix)


def _numbered(rows: list[_Raw], appendix: list[tuple[str, str]]):
    """The rows as :class:`kanripo.Row`s, numbered, empty ones left out; then the 考證."""
    # here, not at the top: kanripo imports this module (its rows are read here)
    from yili_kg.loaders.witnesses.kanripo import Row, read_gaiji

    out: list[Row] = []
    number = 0
    for r in rows:
        if r.kind != "○" and not r.text:
            continue
        number += 1
        kind = r.kind
        if kind == "注" and r.text.startswith("釋曰"):
            # 釋曰 opens a 疏, never a 注: the 疏 of 既夕禮 (主人既送賓…) and 有司徹 (此一經論衆賓
            # 長…) that the transcription set after a 注 without its own marker
            kind = "疏"
        out.append(Row(number, kind, r.segment, r.page, read_gaiji(r.text), r.text))
    for text, page in _kaozheng(appendix):
        number += 1
        out.append(Row(number, "考證", None, page, read_gaiji(text), text))
    return tuple(out)


def _best_start(wyg, large_at, before, i, sbck, start) -> int:
    """How many of the last characters of the 注 (``before``) begin the 經 instead."""
    if start is None or forced_only(before):
        return 0
    target = sbck[start : start + 4]
    here = large_at[i]

    def score(at: int) -> int:
        return sum(a == b for a, b in zip(wyg[at : at + 4], target, strict=False))

    best, chosen = score(here), 0
    for back in range(1, min(3, len(before) - 1) + 1):
        if before[-back] not in large_at:
            break
        value = score(large_at[before[-back]])
        if value > best:
            best, chosen = value, back
    return chosen


def forced_only(before) -> bool:
    return len(before) < 2


def _until_small(chars, i: int) -> str | None:
    """The large characters from ``i`` to the next small note (None if ○ or the end comes first)."""
    j = i
    while j < len(chars) and not chars[j].small:
        if chars[j].ch == "○":
            return None
        j += 1
    return "".join(c.ch for c in chars[i:j]) if j < len(chars) else None


def _ends_split_mark(before: str, ahead: str) -> bool:
    """Do ``ahead``'s characters finish a marker that ``before`` began (徽音音 + 義)?

    >>> _ends_split_mark("詩云大姒嗣徽音音", "義"), _ends_split_mark("徽音", "賓至")
    (True, False)
    """
    joined = before + ahead
    return any(len(ahead) < len(mark) and joined.endswith(mark) for mark in _MARKS)


def _ahead(chars: list[Char], i: int, size: int = 4) -> str:
    return "".join(c.ch for c in chars[i : i + size])


def _zhu_follows(chars, i, run_of, after: int = -1) -> bool:
    """Do the characters after this 注 belong to a SBCK 注 (a later one than ``after``)?"""
    votes = [run_of.get(k) for k in range(i + 1, min(i + 6, len(chars))) if not chars[k].small]
    known = [v for v in votes if v is not None]
    return bool(known) and sum(v % 2 == 1 and v > after for v in known) * 2 > len(known)


def _is_jing(run: int | None, zhu_run: int) -> bool:
    """A character SBCK reads in a 經 run after the 注 run ``zhu_run``."""
    return run is not None and run % 2 == 0 and run > zhu_run


def _jing_holds(chars, i, run_of, run) -> bool:
    """Does SBCK's 經 run go on for the next few characters (not one stray match)?"""
    ahead = [run_of.get(k) for k in range(i, min(i + 4, len(chars))) if not chars[k].small]
    known = [v for v in ahead if v is not None]
    return len(known) >= min(2, len(ahead)) and all(v % 2 == 0 for v in known)


def _kaozheng(lines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The 考證 entries: a line not indented starts one, indented lines continue it."""
    entries: list[list] = []
    for text, page in lines:
        if re.fullmatch(r"　*儀禮注疏[卷巻].*", text) or not text.strip("　"):
            continue
        body = _GROUP.sub(lambda m: "〔" + m.group(1).replace("/", "") + "〕", text)
        if text.startswith("　") and entries:
            entries[-1][0] += body.lstrip("　")
        else:
            entries.append([body.lstrip("　"), page])
    return [(t.replace("〕〔", ""), p) for t, p in entries]


@cache
def sbck_rows(path: Path):
    """The 四部叢刊 juan as :class:`kanripo.Row`s: 經 (large) and 注 (small), numbered by 經."""
    # here, not at the top: kanripo imports this module (its rows are read here)
    from yili_kg.loaders.witnesses.kanripo import Row, read_gaiji

    out: list[Row] = []
    segment = 0
    for kind, text, page in read_sbck(Path(path)):
        if kind == "經":
            segment += 1
        out.append(Row(len(out) + 1, kind, segment, page, read_gaiji(text), text))
    return tuple(out)
