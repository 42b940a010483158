"""江永's reading of 鄉射禮 (禮書綱目 卷九, seed 001): sections, inline 注, placed 記, citations.

The witness runs the 經 with 鄭玄's 注 inline and unmarked; each section (章) closes with a line
``右<name>``, after which come the 記 entries 江永 files there, his own small notes (見獻賔章,
一條入三射記篇 …) and quotations of other works closed by a label (地官, 王制, 射義). Page marks
``[011-3a]`` stand on their own lines; ``/`` joins the small-print double columns.

Base clauses are found in a *stream*: the witness's characters without ``/``, line breaks, spaces
and page marks, variant-folded, each with its raw offset. 經 clauses come in base order and are
placed from a moving pointer (exact first; short or variant clauses then fitted between their
placed neighbours); what lies between two 經 clauses is 注. 記 clauses are looked for only in the
regions after the ``右`` lines, where 江永 puts them in his own order.
"""

from __future__ import annotations

import csv
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir, witness_path
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.variants import PUNCTUATION, fold
from yili_kg.loaders.witnesses.texts import Passage, clauses, read_base

WITNESS = "xiangshe-jiangyong"
PAGE_MARK = re.compile(r"^\[(\d+-\d+[ab])\][ \t]*$", re.M)
HEADING = "篇目"  # the chapter-title section (index 0), not a phase
MOVED = 38  # the phase of 記 entries 江永 moved out of the chapter (or that 001 lacks)
# the label closing a quotation → the work (同上: the same as the quotation before)
LABELS = {"地官": "周禮·地官", "王制": "禮記·王制", "射義": "禮記·射義", "同上": ""}
BOOKS = ("周禮",)  # a book name heading a quotation, not part of it
# 江永's notes run on in the 注's small print with no space (found by reading the witness)
NOTE_TAIL = re.compile(
    r"(?:舉?將舉者於右見[上下]\S*|用獻\S{2,4}通|一條入\S+?篇|子?奉本作\S+今從之)$"
)
WINDOW = 400  # longest run of 注 between two 經 clauses of one section, in characters
Span = tuple[int, int]
Head = tuple[int, int, str]  # a 右 line: section index, raw offset of 右, witness name


@dataclass(frozen=True)
class Phase:
    """A row of the phases table: 1..37 江永's sections, 38 the 記 he moved out."""

    index: int
    name: str
    en: str


@dataclass(frozen=True)
class Section:
    """One of 江永's sections, a phase of the rite; ``line`` and ``page`` of its ``右`` line."""

    index: int
    name: str  # normalised, from the phases table
    witness_name: str
    line: int
    page: str
    note: str = ""  # 江永's note on the 右 line or after 記 (之俎見獻賔章, 將舉者於右見上章 …)


@dataclass(frozen=True)
class InlineNote:
    """A 注 inline in 001 after a 經 or 記 clause; ``text`` without ``/`` and line breaks."""

    start: int
    end: int
    text: str
    after_clause: str


@dataclass(frozen=True)
class JiEntry:
    """A 記 entry where 江永 puts it; section 38 and start = end = -1 when 001 lacks it."""

    section: int
    text: str  # the 記 text without 注, as in 001 (the base reading when 001 lacks it)
    clause_ids: tuple[str, ...]
    start: int
    end: int
    note: str = ""  # 江永's notes after the entry


@dataclass(frozen=True)
class Citation:
    """A quotation of another work: ``label`` as written (地官, 同上 …), ``work`` normalised."""

    section: int  # 0: under 篇目
    work: str
    label: str
    text: str
    start: int
    end: int
    page: str


@dataclass(frozen=True)
class JiangyongReading:
    """Everything :func:`read_jiangyong` finds; offsets are into 001's raw text."""

    sections: tuple[Section, ...]
    clause_section: dict[str, int]  # every base clause → 1..37, or 38 (moved 記)
    clause_span: dict[str, Span]  # raw offsets in 001 of each clause found there
    clause_page: dict[str, str]
    notes: tuple[InlineNote, ...]
    ji_entries: tuple[JiEntry, ...]
    citations: tuple[Citation, ...]
    unmatched: tuple[str, ...]  # base clauses not in 001
    approximate: tuple[str, ...] = ()  # base clauses placed by fitting, not found exactly


def read_phases(path: Path | None = None) -> tuple[Phase, ...]:
    """The phases table ``corpus/phases-xiangshe.tsv`` (index, name, en)."""
    path = path or corpus_dir() / "phases-xiangshe.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader([line for line in handle if not line.startswith("#")], delimiter="\t")
        phases = tuple(Phase(int(r["index"]), r["name"], r["en"]) for r in rows)
    if [p.index for p in phases] != list(range(1, len(phases) + 1)):
        raise SourceError(path, "phase indexes must run 1, 2, 3 …")
    return phases


def find_sections(raw: str, names: list[str], path: object) -> list[tuple[int, int, str]]:  # 分章
    """The ``右`` lines as (index, raw offset of 右, witness name); index 0 is 篇目.

    A line opening with 右 closes a section only if the next expected name follows (folded);
    one naming a later phase, or a name never found, is a :class:`SourceError`.
    """
    heading: list[tuple[int, int, str]] = []
    found: list[tuple[int, int, str]] = []
    offset = 0
    for number, line in enumerate(raw.split("\n"), start=1):
        start, offset, body = offset, offset + len(line) + 1, line[1:].replace("/", "")
        if not line.startswith("右"):
            continue
        if not heading and not found and fold(body).startswith(HEADING):
            heading.append((0, start, HEADING))
            continue
        k = len(found)
        hits = [j for j in range(k, len(names)) if fold(body).startswith(fold(names[j]))]
        if hits and hits[0] != k:
            raise SourceError(path, f"右{names[k]} expected (section {k + 1}): 右{body}", number)
        if hits:
            found.append((k + 1, start, body[: len(names[k])]))
    if len(found) != len(names):
        raise SourceError(path, f"右{names[len(found)]} not found", raw.count("\n") + 1)
    return heading + found


def _stream(raw: str) -> tuple[str, str, list[int], set[int]]:
    """Plain and folded stream, the raw offset of each character, indexes preceded by a space."""
    marks = {i for m in PAGE_MARK.finditer(raw) for i in range(m.start(), m.end())}
    plain: list[str] = []
    offsets: list[int] = []
    spaced: set[int] = set()
    gap = False
    for index, char in enumerate(raw):
        if char in " \u3000":
            gap = True
        elif index not in marks and char not in "/\n\r\t":
            if gap:
                spaced.add(len(plain))
            plain.append(char)
            offsets.append(index)
            gap = False
    return "".join(plain), fold("".join(plain)), offsets, spaced


def _fit(t: str, b: str) -> tuple[list[int], int]:
    """Positions in ``b`` aligned with characters of ``t`` (empty: none), and how many are equal.

    One cost per gap in b whatever its length (注 inside a clause), a lower one for the gap
    before t (注 of the clause before), none after t.
    """
    n, m, low = len(t), len(b), -(10**9)
    h = [[0] + [-3] * m] + [[low] * (m + 1) for _ in range(n)]
    g = [[low] * (m + 1) for _ in range(n + 1)]
    score = lambda i, j: 2 if t[i - 1] == b[j - 1] else -1  # noqa: E731
    for i in range(1, n + 1):
        h[i][0] = h[i - 1][0] - 2
        for j in range(1, m + 1):
            g[i][j] = max(g[i][j - 1], h[i][j - 1] - 5)
            h[i][j] = max(h[i - 1][j - 1] + score(i, j), h[i - 1][j] - 2, g[i][j])
    i, j, pos, equal, gap = n, max(range(m + 1), key=lambda k: h[n][k]), [], 0, False
    while i > 0:
        if gap:
            gap, j = h[i][j - 1] - 5 != g[i][j], j - 1
        elif j and h[i][j] == h[i - 1][j - 1] + score(i, j):
            pos.append(j - 1)
            equal += t[i - 1] == b[j - 1]
            i, j = i - 1, j - 1
        elif h[i][j] == h[i - 1][j] - 2:
            i -= 1
        else:
            gap = True
    return pos[::-1], equal


def _core(text: str) -> str:
    return fold("".join(c for c in text if c not in PUNCTUATION))


def _search_jing(s: str, cores: list[str], i: int, p: int, rights: list[int]) -> int:
    """Where 經 clause ``i`` (three characters or more) is found from ``p``, or -1.

    It is looked for within WINDOW of ``p``; if a 右 line stands there, up to the 右 after it.
    """
    t = cores[i]
    k = bisect_left(rights, p)
    near = k < len(rights) and rights[k] < p + WINDOW
    q = s.find(t, p, rights[k + 1] if near and k + 1 < len(rights) else p + WINDOW)
    if q >= 0 and near and q > rights[k] and i + 1 < len(cores):  # past a 右: the next must follow
        e = q + len(t)
        q = q if s.find(cores[i + 1], e, e + 60 + len(cores[i + 1])) >= 0 else -1
    while q >= 0 and (again := s.find(t, q + 1, q + 2 * len(t))) >= 0:
        q = again  # a 注 ending with the words of the next clause (古文曰受酬者不拜)
    return q


def _between(
    s: str, cores: list[str], spans: list[Span | None], i: int
) -> tuple[Span, bool, list[Span]]:
    """Span of unplaced 經 clause ``i`` between its placed neighbours, whether exact, 注 inside.

    Found exactly if it can be; else fitted (:func:`_fit`), the gaps of more than three
    characters inside it being 注.
    """
    n = len(cores)
    j = next((k for k in range(i, n) if spans[k]), n)
    before, after = spans[i - 1] if i else None, spans[j] if j < n else None
    lo, hi, t = before[1] if before else 0, after[0] if after else len(s), cores[i]
    last = j == i + 1 and s.endswith(t, lo, hi)  # right before the next placed clause
    q = lo if s.startswith(t, lo) else hi - len(t) if last else s.find(t, lo, hi)
    if q >= 0:
        return (q, q + len(t)), True, []
    pos = _fit(t, s[lo:hi])[0] if hi > lo else []
    inner = [(lo + a + 1, lo + b) for a, b in zip(pos, pos[1:], strict=False) if b - a > 3]
    return ((lo + pos[0], lo + pos[-1] + 1) if pos else (lo, lo)), False, inner


def place_jing(s: str, cores: list[str], rights: list[int]):  # 經文定位
    """Spans of the 經 clauses in the folded stream, whether each is exact, and 注 inside any."""
    n, p, exact = len(cores), 0, [True] * len(cores)
    spans: list[Span | None] = [None] * n
    inner: dict[int, list[Span]] = {}
    for i, t in enumerate(cores):  # in base order from a moving pointer: exact, else searched
        if s.startswith(t, p):
            q = p
        else:
            q = _search_jing(s, cores, i, p, rights) if len(t) >= 3 else -1
        if q >= 0:
            spans[i], p = (q, q + len(t)), q + len(t)
    for i in range(n):  # short and variant clauses, between their placed neighbours
        if spans[i]:
            continue
        spans[i], exact[i], inside = _between(s, cores, spans, i)
        if not exact[i]:
            inner[i] = inside
    return spans, exact, inner


@dataclass
class _JiPlacer:
    """The 記 clauses being placed in the regions after the 右 lines (see :func:`place_ji`)."""

    s: str
    cores: list[str]
    parents: list[str]
    regions: list[Span]
    spans: list[Span | None]
    exact: list[bool]

    def region(self, q: int) -> int:
        """Index of the region holding stream index ``q``."""
        return bisect_right([a for a, _ in self.regions], q) - 1

    def taken(self, q: int, e: int) -> bool:
        """Whether [q, e) overlaps a clause already placed."""
        return any(sp and q < sp[1] and sp[0] < e for sp in self.spans)

    def pick(self, i: int, t: str) -> int | None:
        """Where ``t`` (clause ``i`` on) is free in a region: within 200 after the clause placed
        last before ``i``, in its region, if it can be; else the first free place."""
        s, spans = self.s, self.spans
        hits = [a + m.start() for a, b in self.regions for m in re.finditer(re.escape(t), s[a:b])]
        hits = [q for q in hits if not self.taken(q, q + len(t))]
        last = next((spans[k] for k in range(i - 1, -1, -1) if spans[k]), None)
        near = [
            q
            for q in hits
            if last and 0 <= q - last[1] <= 200 and self.region(q) == self.region(last[0])
        ]
        return (near or hits)[0] if near or hits else None

    def sentences(self) -> None:
        """Place whole sentences (the clauses of one parent) of three characters or more."""
        cores, parents = self.cores, self.parents
        for parent in dict.fromkeys(parents):
            members = [i for i in range(len(cores)) if parents[i] == parent]
            t = "".join(cores[i] for i in members)
            if len(t) >= 3 and (q := self.pick(members[0], t)) is not None:
                for i in members:
                    self.spans[i], q = (q, q + len(cores[i])), q + len(cores[i])

    def tries(self, i: int, t: str) -> list[tuple[int, int, bool, bool]]:
        """Where clause ``i`` may stand next to a placed neighbour, in one region:
        (lo, hi, right after the clause before?, may be fitted?)."""
        spans, parents, regions = self.spans, self.parents, self.regions
        tries: list[tuple[int, int, bool, bool]] = []
        if i and (prev := spans[i - 1]):
            hi = min(prev[1] + len(t) + 2, regions[self.region(prev[0])][1])
            tries.append((prev[1], hi, True, parents[i - 1] == parents[i] or len(t) > 2))
        if i + 1 < len(spans) and (nxt := spans[i + 1]) and parents[i + 1] == parents[i]:
            lo = max(nxt[0] - len(t) - 2, regions[self.region(nxt[0])][0])
            tries.append((lo, nxt[0], False, True))
        return tries

    def beside(self, i: int, t: str) -> None:
        """Place short or variant clause ``i`` right next to a placed neighbour: exactly if it
        can be, else fitted (:func:`_fit`) if at least half its characters agree."""
        tries = self.tries(i, t)
        for lo, hi, after, _ in tries:
            q = lo if after else hi - len(t)
            if q >= lo and self.s.startswith(t, q) and not self.taken(q, q + len(t)):
                self.spans[i] = (q, q + len(t))
                return
        for lo, hi, _, fits in tries if len(t) > 1 else ():
            pos, equal = _fit(t, self.s[lo:hi]) if fits else ([], 0)
            if 2 * equal >= len(t) and not self.taken(lo + pos[0], lo + pos[-1] + 1):
                self.spans[i], self.exact[i] = (lo + pos[0], lo + pos[-1] + 1), False
                return


def place_ji(s: str, cores: list[str], parents: list[str], regions: list[Span]):  # 記文定位
    """Spans of the 記 clauses in the regions after the 右 lines (None: not in 001).

    Whole sentences first, then clauses of three characters or more, then short and variant
    clauses right next to a placed neighbour (fitted only inside their sentence, or if long).
    """
    n = len(cores)
    placer = _JiPlacer(s, cores, parents, regions, [None] * n, [True] * n)
    placer.sentences()
    for i, t in enumerate(cores):
        if not placer.spans[i] and len(t) >= 3 and (q := placer.pick(i, t)) is not None:
            placer.spans[i] = (q, q + len(t))
    for _ in range(3):  # a clause placed may be the neighbour of one not yet placed
        for i, t in enumerate(cores):
            if not placer.spans[i]:
                placer.beside(i, t)
    return placer.spans, placer.exact


@dataclass(frozen=True)
class _Witness:
    """001 as a stream (see :func:`_stream`), with raw offsets, pages and the spaces."""

    raw: str
    plain: str
    folded: str
    offsets: list[int]
    spaced: set[int]
    marks: list[tuple[int, str]]

    def span(self, a: int, b: int) -> Span:
        """Raw offsets of the stream's [a, b)."""
        if b > a:
            return self.offsets[a], self.offsets[b - 1] + 1
        return (self.offsets[a] if a < len(self.offsets) else len(self.raw),) * 2

    def note(self, a: int, b: int, clause_id: str) -> InlineNote:
        """The 注 at the stream's [a, b), after clause ``clause_id``."""
        return InlineNote(*self.span(a, b), self.plain[a:b], clause_id)

    def page(self, off: int) -> str:
        """The page mark in force at raw offset ``off`` ("" before the first)."""
        return next((mark for o, mark in reversed(self.marks) if o <= off), "")

    def pieces(self, a: int, b: int) -> list[Span]:
        """Cut [a, b) at the witness's spaces; the first piece is glued to what precedes."""
        bounds = [a] + [q for q in range(a + 1, b) if q in self.spaced] + [b]
        return [(a, a)] * (a in self.spaced) + list(zip(bounds, bounds[1:], strict=False))

    def others(self, parts: list[Span], section: int, citations: list[Citation]) -> list[str]:
        """Pieces after a space: a quotation when a label follows (added to ``citations``),
        else 江永's notes (returned)."""
        said: list[str] = []
        pending: Span | None = None
        text = self.plain
        for x, y in (part for part in parts if part[1] > part[0]):
            if text[x:y] in LABELS and pending:
                work = LABELS[text[x:y]] or (citations[-1].work if citations else text[x:y])
                a = pending[0] + sum(len(b) for b in BOOKS if text.startswith(b, pending[0]))
                citations.append(
                    Citation(
                        section,
                        work,
                        text[x:y],
                        text[a : pending[1]],
                        *self.span(a, pending[1]),
                        self.page(self.offsets[a]),
                    )
                )
                pending = None
                continue
            said += [text[pending[0] : pending[1]]] if pending else []
            pending = (x, y)
        return said + ([text[pending[0] : pending[1]]] if pending else [])


def _witness(raw: str) -> _Witness:
    """001 as a stream, with its page marks."""
    plain, folded, offsets, spaced = _stream(raw)
    marks = [(m.start(), m[1]) for m in PAGE_MARK.finditer(raw)]
    return _Witness(raw, plain, folded, offsets, spaced, marks)


def _jing_sections(
    heads: list[Head], rights: list[int], spans: list[Span], jing: list[Passage]
) -> dict[str, int]:
    """Each 經 clause → the section whose 右 line follows it (1..37)."""
    shift = 0 if heads[0][0] == 0 else 1  # a clause before 右篇目 goes with section 1
    return {
        c.id: min(max(1, bisect_right(rights, spans[i][0]) + shift), MOVED - 1)
        for i, c in enumerate(jing)
    }


def _jing_notes(
    w: _Witness,
    jing: list[Passage],
    spans: list[Span],
    inner: dict[int, list[Span]],
    rights: list[int],
) -> list[InlineNote]:
    """The 注 of the 經 clauses: from one to the next, or to the 右 line, and any inside one."""
    notes: list[InlineNote] = []
    for i, c in enumerate(jing):
        a, b = spans[i][1], spans[i + 1][0] if i + 1 < len(jing) else len(w.folded)
        b = min([b] + [r for r in rights if r >= a])
        for x, y in [(a, b)] * (b > a) + inner.get(i, []):
            notes.append(w.note(x, y, c.id))
    return notes


def _regions(w: _Witness, heads: list[Head], spans: list[Span]) -> tuple[list[int], list[Span]]:
    """Where the 經 clauses end (and the 記 may run to), and the regions after the 右 lines.

    A region runs from the end of its 右 line to the next 經 clause, or to the juan's end.
    """
    tail = w.raw.rfind("\n禮書綱目")  # the juan's closing title
    ends = sorted(a for a, b in spans if b > a)
    ends.append(bisect_left(w.offsets, tail) if tail > heads[-1][1] else len(w.folded))
    firsts = [bisect_left(w.offsets, off + 1 + len(name)) for _, off, name in heads]
    return ends, [(a, ends[bisect_left(ends, a)]) for a in firsts]


def _ji_runs(located: dict[int, Span], ends: list[int], spaced: set[int]) -> list[list[int]]:
    """The placed 記 clauses in witness order, in runs consecutive in the base with no space
    and no 經 between (one entry each)."""
    runs: list[list[int]] = []
    for i in sorted(located, key=lambda i: located[i][0]):
        a, b = (located[runs[-1][-1]][1], located[i][0]) if runs else (0, 0)
        if (
            runs
            and runs[-1][-1] == i - 1
            and b <= ends[bisect_left(ends, a)]
            and not (spaced & set(range(a, b + 1)))
        ):
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


@dataclass(frozen=True)
class _Ji:
    """The 記 clauses with where they were found, and the 注 and quotations found so far."""

    w: _Witness
    clauses: list[Passage]
    located: dict[int, Span]
    notes: list[InlineNote]
    citations: list[Citation]

    def section_note(self, index: int, a: int, b: int) -> str:
        """江永's notes from the rest of the 右 line at ``a`` to the first 記 at ``b``."""
        plain = self.w.plain
        head, *rest = self.w.pieces(a, b)
        rest = [(x + plain.startswith("記", x), y) for x, y in rest]
        said = [plain[head[0] : head[1]]] + self.w.others(rest, index, self.citations)
        return " ".join(t for t in said if t)

    def entry_note(self, index: int, run: list[int], end: int) -> str:
        """江永's notes after a run of 記 clauses; its 注 (between them and after) to notes."""
        w, at, ji = self.w, self.located, self.clauses
        for m, m2 in zip(run, run[1:], strict=False):
            if at[m2][0] > at[m][1]:
                self.notes.append(w.note(at[m][1], at[m2][0], ji[m].id))
        (x, y), *rest = w.pieces(at[run[-1]][1], end)
        glued = NOTE_TAIL.search(w.plain[x:y])
        if (cut := x + glued.start() if glued else y) > x:
            self.notes.append(w.note(x, cut, ji[run[-1]].id))
        said = ([glued[0]] if glued else []) + w.others(rest, index, self.citations)
        return " ".join(said)

    def read_regions(
        self, heads: list[Head], regions: list[Span], runs: list[list[int]]
    ) -> tuple[dict[int, str], list[tuple[list[int], int, str]]]:
        """Each section's notes, and each run of 記 with its section and notes after it."""
        section_notes, made = {}, []
        for (index, *_), (ra, rb) in zip(heads, regions, strict=True):
            mine = [e for e in runs if ra <= self.located[e[0]][0] < rb]
            starts = [self.located[e[0]][0] for e in mine] + [rb]
            section_notes[index] = self.section_note(index, ra, starts[0])
            for e, nxt in zip(mine, starts[1:], strict=True):
                made.append((e, index, self.entry_note(index, e, nxt)))
        return section_notes, made

    def entries(self, made: list[tuple[list[int], int, str]]) -> list[JiEntry]:
        """The 記 entries: each run where 江永 puts it (a moved one with the rest of its
        clauses, 一條入…篇), then each run of clauses 001 lacks, in section 38."""
        ji, at, w = self.clauses, self.located, self.w
        ji_entries, placed = [], {i for e, *_ in made for i in e}
        for e, index, words in made:
            section, ids = MOVED if re.search(r"入\S+篇", words) else max(index, 1), list(e)
            while section == MOVED and ids[-1] + 1 < len(ji) and ids[-1] + 1 not in placed:
                placed.add(ids[-1] + 1)  # the rest of the moved entry, which 001 does not give
                ids.append(ids[-1] + 1)
            text = "".join(w.plain[at[m][0] : at[m][1]] for m in e)
            span = w.span(at[e[0]][0], at[e[-1]][1])
            ji_entries.append(JiEntry(section, text, tuple(ji[m].id for m in ids), *span, words))
        lacking = [i for i in range(len(ji)) if i not in placed]  # each run: one section-38 entry
        for _, group in groupby(enumerate(lacking), key=lambda pair: pair[1] - pair[0]):
            run = [ji[i] for _, i in group]
            text = "".join(c.text for c in run)
            ji_entries.append(JiEntry(MOVED, text, tuple(c.id for c in run), -1, -1))
        return ji_entries


def _found(
    w: _Witness, every: list[Passage], spans: list[Span | None], exact: list[bool]
) -> tuple[dict[str, Span], tuple[str, ...], tuple[str, ...]]:
    """Raw spans of the clauses found in 001, those not (or empty), those placed by fitting."""
    found = list(zip(every, spans, exact, strict=True))
    clause_span = {c.id: w.span(*sp) for c, sp, _ in found if sp}
    unmatched = tuple(c.id for c, sp, _ in found if not sp or sp[0] == sp[1])
    approximate = tuple(c.id for c, sp, ok in found if sp and not ok)
    return clause_span, unmatched, approximate


def _sections(
    heads: list[Head], phases: tuple[Phase, ...], w: _Witness, notes: dict[int, str]
) -> tuple[Section, ...]:
    """江永's 37 sections, from their 右 lines (篇目 left out)."""
    return tuple(
        Section(
            index,
            phases[index - 1].name,
            name,
            w.raw.count("\n", 0, off) + 1,
            w.page(off),
            notes[index],
        )
        for index, off, name in heads
        if index
    )


@cache
def read_jiangyong(path: Path | None = None, base: Path | None = None) -> JiangyongReading:
    """江永's reading of the chapter: every base clause placed in one of his sections.

    Args:
        path: the 禮書綱目 witness (default: manifest ``xiangshe-jiangyong``).
        base: the base-text witness (default: manifest ``xiangshe-base``).
    """
    path = Path(path or witness_path(WITNESS))
    raw = path.read_text(encoding="utf-8")
    phases = read_phases()
    heads = find_sections(raw, [p.name for p in phases if p.index < MOVED], path)
    w = _witness(raw)
    s = w.folded
    rights = [bisect_left(w.offsets, h[1]) for h in heads]  # stream index of each 右
    every = clauses(read_base(base)[1])
    jing, ji = [c for c in every if c.division == "jing"], [c for c in every if c.division == "ji"]

    spans, exact, inner = place_jing(s, [_core(c.text) for c in jing], rights)
    clause_section = _jing_sections(heads, rights, spans, jing)
    notes = _jing_notes(w, jing, spans, inner, rights)

    # the regions after the 右 lines, to the next 經: 記 with its 注, 江永's notes, quotations
    ends, regions = _regions(w, heads, spans)
    ji_spans, ji_exact = place_ji(
        s, [_core(c.text) for c in ji], [c.parent or "" for c in ji], regions
    )
    located = {i: sp for i, sp in enumerate(ji_spans) if sp}
    found_ji = _Ji(w, ji, located, notes, [])
    section_notes, made = found_ji.read_regions(heads, regions, _ji_runs(located, ends, w.spaced))
    ji_entries = found_ji.entries(made)

    clause_section |= {cid: entry.section for entry in ji_entries for cid in entry.clause_ids}
    clause_span, unmatched, approximate = _found(w, jing + ji, spans + ji_spans, exact + ji_exact)
    return JiangyongReading(
        sections=_sections(heads, phases, w, section_notes),
        clause_section=clause_section,
        clause_span=clause_span,
        clause_page={cid: w.page(a) for cid, (a, _) in clause_span.items()},
        notes=tuple(sorted(notes, key=lambda n: n.start)),
        ji_entries=tuple(ji_entries),
        citations=tuple(found_ji.citations),
        unmatched=unmatched,
        approximate=approximate,
    )
