"""The web transcriptions of 儀禮注疏 (seeds ``xiangshe-zhushu-web-13``, ``-11``), collated.

They transcribe the 注疏 of the Kanripo TSV (:mod:`yili_kg.loaders.witnesses.kanripo`), the
witness the graph loads, and are never loaded themselves: they give only what the TSV lacks,
the span quotes that open each 賈疏 (``“X”至“Y”。`` on the 經, ``○注“X”至“Y”。`` on the 注).

注 are in （…）, 疏 after ``[疏]``; every sentence has a line of its own, so nothing marks where
a 疏 ends and the next 經 begins: the last lines of a 疏 that read as 經 of the TSV (outside any
quotation) are taken as 經. Each page was captured twice: the repeat at the end is dropped.
The TSV keeps a segment's whole 疏 in one row (釋曰… 注釋曰…) as the web keeps it in one
block; where the two divide it between 經 and 注 otherwise, the difference is a ``label``.
Known faults are told apart from real variants: ``?`` for a lost character, 扌奎 for 㨒 (a
character written as its parts), 雲 for 云 and other simplified-to-traditional slips.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path

from rapidfuzz import fuzz
from rapidfuzz.distance import ScoreAlignment

from yili_kg.loaders.align import align
from yili_kg.loaders.corpus import witness_path
from yili_kg.loaders.variants import PUNCTUATION, fold
from yili_kg.loaders.witnesses.kanripo import Row, rite_rows

DEBRIS = frozenset({"關燈", "小", "中", "大"})  # the page's lamp and font-size buttons
LOST = "〓"  # stands for ``?`` while aligning (to :func:`align` ``?`` is punctuation)
COMPONENTS = frozenset("扌氵亻忄礻衤钅纟讠饣")  # a character written as its parts (扌奎)
#: (web, Kanripo) simplified-to-traditional slips: 云 made 雲, 致 made 緻, 著 left 着 …
S2T_SLIPS = frozenset(zip("雲複系禦着緻", "云復繫御著致", strict=True))
MIN_SCORE = 70.0  # a block scoring below this against every row is unmatched
WINDOW = 6  # rows of the block's kind tried first, forward from the previous match
_MARK = re.compile(r"(（|）|\[疏\])")
_SPAN = re.compile(r"(?:^|○)(注)?“([^“”]*)”(?:至“([^“”]*)”)?。")
Part = tuple[int, str]  # line number, text
Span = tuple[str, str, str]  # target 經|注, first words X, last words Y ('' for “X”。)


@dataclass(frozen=True)
class WebBlock:
    kind: str  # 經 | 注 | 疏
    text: str  # as transcribed (punctuation kept, line breaks dropped)
    line: int  # 1-based line where it starts
    spans: tuple[Span, ...] = ()  # 疏 only


@dataclass(frozen=True)
class WebDifference:
    """Where a block and its Kanripo row differ, with offsets into both texts."""

    kind: str  # variant | label (疏 parts divided otherwise) | lost (?) | split (扌奎) | s2t (雲)
    web: str
    kanripo: str
    web_start: int
    web_end: int
    row_start: int
    row_end: int

    @property
    def fault(self) -> bool:
        """A known fault of the web transcription, not a reading of its own."""
        return self.kind in ("lost", "split", "s2t")


@dataclass(frozen=True)
class WebMatch:
    block: WebBlock
    row: int | None  # Kanripo TSV row (None: no row scored MIN_SCORE)
    score: float  # 0..100, folded and without punctuation
    differences: tuple[WebDifference, ...]


@dataclass(frozen=True)
class WebCollation:
    witness: str
    blocks: tuple[WebBlock, ...]
    matches: tuple[WebMatch, ...]
    span_quotes: dict[int, tuple[Span, ...]]  # Kanripo 疏 row → its span quotes
    repeated: tuple[int, int] | None = None  # first and last line of the dropped repeat

    @property
    def unmatched(self) -> tuple[WebBlock, ...]:
        return tuple(m.block for m in self.matches if m.row is None)


def _core(text: str) -> tuple[str, list[int]]:
    """Folded characters without punctuation, ○ or spaces (``?`` as 〓), and their offsets."""
    kept = [(i, c) for i, c in enumerate(text.replace("?", LOST)) if c not in PUNCTUATION]
    kept = [(i, c) for i, c in kept if c != "○"]
    return fold("".join(c for _, c in kept)), [i for i, _ in kept]


def _doubled(lines: list[str]) -> int:
    """Index where a verbatim repeat (10 lines or more) of earlier lines starts."""
    for j in range(1, len(lines) - 9):
        if any(
            lines[j:] == lines[i : i + len(lines) - j] for i in range(j) if lines[i] == lines[j]
        ):
            return j
    return len(lines)


def _pieces(lines: list[tuple[int, str]]) -> list[tuple[str, list[Part]]]:
    """Cut the text at （ ） [疏] into 注, 經 and 疏 runs (a 疏 run may end in 經)."""
    pieces: list[tuple[str, list[Part]]] = [("經", [])]
    depth = 0
    for number, line in lines:
        for token in _MARK.split(line):
            if token in ("（", "）"):
                depth += 1 if token == "（" else -1
                if depth == (1 if token == "（" else 0):  # outermost parenthesis
                    pieces.append(("注" if token == "（" else "經", []))
            elif token == "[疏]" and depth == 0:
                pieces.append(("疏", []))
            elif token.strip():
                head, space, tail = token.partition(" ")  # ``” 司射…``: ” ends the 疏
                if space and head and all(c in PUNCTUATION for c in head):
                    pieces[-1][1].append((number, head))
                    token = tail
                pieces[-1][1].append((number, token.strip()))
    return [(kind, parts) for kind, parts in pieces if parts]


@cache
def _jing(rows: tuple[Row, ...]) -> tuple[str, tuple[int, ...]]:
    """The 經 rows' folded text run together, and where each row starts in it."""
    cores = [_core(r.text)[0] for r in rows if r.kind == "經"]
    return "".join(cores), (0, *accumulate(map(len, cores[:-1])))


def _reads_as_jing(text: str, jing: str) -> bool:
    """Every stretch between lost characters is in the 經 (nearly, when 6 or more long)."""
    found = [p for p in _core(text)[0].split(LOST) if p]
    return bool(found) and all(
        p in jing or (len(p) >= 6 and fuzz.partial_ratio(p, jing) >= 85) for p in found
    )


def _split_jing(parts: list[Part], jing: str) -> int:
    """Index of the part where the 經 ending a 疏 run begins (``len(parts)``: none)."""
    k = len(parts)
    for i in range(len(parts) - 1, -1, -1):
        if _reads_as_jing(parts[i][1], jing):
            k = i
        elif _core(parts[i][1])[0]:  # a lone closing ” goes with the 經 before it
            break
    depth = [0]
    for _, text in parts:
        depth.append(depth[-1] + text.count("“") - text.count("”"))
    while k < len(parts) and (depth[k] or not _core(parts[k][1])[0]):
        k += 1  # a 經 never starts inside a quotation
    return k


def _alignment(short: str, long: str) -> ScoreAlignment:
    """Where ``short`` best fits in ``long`` (rapidfuzz answers None only below a cutoff)."""
    hit = fuzz.partial_ratio_alignment(short, long)
    assert hit is not None
    return hit


def _by_rows(parts: list[Part], jing: str, starts: tuple[int, ...]) -> list[list[Part]]:
    """A 經 run cut where the TSV begins a new segment."""
    cores = [_core(text)[0] for _, text in parts]
    at = _alignment("".join(cores), jing).dest_start
    units: list[list[Part]] = []
    previous = None
    for part, core in zip(parts, cores, strict=True):
        segment = bisect_right(starts, at + len(core) // 2) - 1 if core else previous
        if not units or segment != previous:
            units.append([])
        units[-1].append(part)
        at, previous = at + len(core), segment
    return units


def _spans(text: str) -> list[re.Match]:
    return [m for m in _SPAN.finditer(text) if m.start() == 0 or m[1]]


def _read(path: Path, rows: tuple[Row, ...]) -> tuple[tuple[WebBlock, ...], tuple[int, int] | None]:
    with open(path, encoding="utf-8") as handle:
        lines = [(n, line.rstrip("\n")) for n, line in enumerate(handle, start=1)]
    start = 1 if lines and lines[0][1].startswith("卷") else 0  # 卷十三 鄉射禮第五
    while start < len(lines) and lines[start][1].strip() in DEBRIS:
        start += 1
    lines = lines[start:]
    end = _doubled([text for _, text in lines])
    repeated = (lines[end][0], lines[-1][0]) if end < len(lines) else None
    (jing, starts), blocks = _jing(rows), []
    for index, (kind, parts) in enumerate(_pieces(lines[:end])):
        units = [(kind, parts)]
        if kind == "疏" or (index == 0 and kind == "經"):  # the file may begin inside a 疏
            k = _split_jing(parts, jing)
            units = [("疏", parts[:k]), ("經", parts[k:])]
        for kind_, unit in units:
            for chunk in _by_rows(unit, jing, starts) if kind_ == "經" and unit else [unit]:
                if chunk:
                    text = "".join(t for _, t in chunk)
                    found = [("注" if m[1] else "經", m[2], m[3] or "") for m in _spans(text)]
                    spans = tuple(found) if kind_ == "疏" else ()
                    blocks.append(WebBlock(kind_, text, chunk[0][0], spans))
    return tuple(blocks), repeated


def read_web_zhushu(path, rows: tuple[Row, ...] | None = None) -> tuple[WebBlock, ...]:
    """The blocks of a web 注疏 seed in order, one copy of the text (the TSV ``rows`` guide)."""
    return _read(Path(path), rows or rite_rows("xiangshe"))[0]


def _collation_text(block: WebBlock) -> str:
    """The block with its span quotes blanked (注 kept, as in 注釋曰): the same offsets."""
    text = block.text
    for m in reversed(_spans(text) if block.kind == "疏" else []):
        keep = (" " * (m.start(1) - m.start()) + "注") if m[1] else ""
        text = text[: m.start()] + keep.ljust(m.end() - m.start()) + text[m.end() :]
    return text


def _score(web: str, row: str) -> tuple[float, int, int]:
    """Similarity of ``web`` to ``row`` (or the part a shorter ``web`` covers), and that part."""
    start, end = 0, len(row)
    if web and len(web) < len(row):
        hit = _alignment(web, row)
        start, end, slack = hit.dest_start, hit.dest_end, max(4, len(row) // 10)
        whole = (start * (start > slack), len(row) if len(row) - end <= slack else end)
        if fuzz.ratio(web, row[whole[0] : whole[1]]) > fuzz.ratio(web, row[start:end]):
            start, end = whole  # a few characters short of an end: take the whole row
    return fuzz.ratio(web, row[start:end]), start, end


def _kind_of(web: str, kanripo: str, after: str) -> str:
    core = "".join(c for c in web if c not in PUNCTUATION)
    if (core, kanripo) in S2T_SLIPS:
        return "s2t"
    if "?" in web:
        return "lost"
    if COMPONENTS & set(core):
        return "split"
    if {core, kanripo} in ({"注", ""}, {"注釋曰", ""}) and "釋曰" in core + kanripo + after[:2]:
        return "label"  # the 疏 divided between its 經 part and its 注 part otherwise
    return "variant"


def _differences(block: WebBlock, row: Row, start: int, end: int) -> tuple[WebDifference, ...]:
    """Differences of ``block`` from ``row.text`` (from content offset ``start`` to ``end``)."""
    offsets = _core(row.text)[1]
    b0 = offsets[start] if start < len(offsets) else len(row.text)
    b1 = offsets[end - 1] + 1 if end > start else b0
    web, text = _collation_text(block), block.text
    al = align(web.replace("○", " ").replace("?", LOST), row.text[b0:b1])
    merged: list[list[int]] = []  # adjacent differences as one: 扌奎 for 㨒, ?專 for 膞
    for d in al.differences:
        if merged and merged[-1][1] == d.a_start and merged[-1][3] == d.b_start:
            merged[-1][1], merged[-1][3] = d.a_end, d.b_end
        else:
            merged.append([d.a_start, d.a_end, d.b_start, d.b_end])
    found = []
    for a0, a1, c0, c1 in merged:
        pairs = [(i, j) for i in range(a0, a1) if (j := al.a_to_b[i]) is not None]
        cuts = [(a0, a1, c0, c1)]
        if len(pairs) > 1 and any((text[i], row.text[b0 + j]) in S2T_SLIPS for i, j in pairs):
            cuts = [(i, i + 1, j, j + 1) for i, j in pairs]  # a slip beside a variant
        for x0, x1, y0, y1 in cuts:
            kanripo = row.text[b0 + y0 : b0 + y1]
            kind = _kind_of(text[x0:x1], kanripo, _core(web[x1:])[0])
            found.append(WebDifference(kind, text[x0:x1], kanripo, x0, x1, b0 + y0, b0 + y1))
    covered = {i for d in found for i in range(d.web_start, d.web_end)}
    for i, j in enumerate(al.a_to_b):  # slips that folding made equal (雲 and 云 fold alike)
        if j is None or i in covered:
            continue
        pair = (text[i], row.text[b0 + j])
        if pair in S2T_SLIPS:
            found.append(WebDifference("s2t", *pair, i, i + 1, b0 + j, b0 + j + 1))
    return tuple(sorted(found, key=lambda d: d.web_start))


def _best(web: str, pool: list[tuple[Row, str]]) -> tuple[float, int, int, Row | None]:
    """The best row of ``pool``: highest score, then more wholly covered, then nearer."""
    best: tuple[float, int, int, Row | None] = (0.0, 0, 0, None)
    best_key = None
    for position, (row, core) in enumerate(pool):
        score, start, end = _score(web, core)
        key = (score, fuzz.ratio(web, core), -position)
        if best_key is None or key > best_key:
            best, best_key = (score, start, end, row), key
    return best


def collate_web(witness: str, rows: tuple[Row, ...] | None = None) -> WebCollation:
    """Match each block of a web seed to a Kanripo row of its kind; gather the span quotes.

    The ``WINDOW`` rows of the block's kind from the previous match on are tried first, then,
    if none scores ``MIN_SCORE``, all of them; ties go to the row more wholly covered, then
    to the nearer. A 疏 row takes the span quotes of the web 疏 blocks matched to it.
    """
    rows = rows or rite_rows("xiangshe")
    blocks, repeated = _read(witness_path(witness), rows)
    by_kind = {k: [(r, _core(r.text)[0]) for r in rows if r.kind == k] for k in ("經", "注", "疏")}
    cursor, matches = 0, []
    quotes: dict[int, tuple[tuple[str, str, str], ...]] = {}
    for block in blocks:
        web = _core(_collation_text(block))[0]
        ahead = [c for c in by_kind[block.kind] if c[0].row >= cursor][:WINDOW]
        score, start, end, row = _best(web, ahead)
        if score < MIN_SCORE:
            score, start, end, row = _best(web, by_kind[block.kind])
        if score < MIN_SCORE or row is None:
            matches.append(WebMatch(block, None, score, ()))
            continue
        cursor = row.row
        matches.append(WebMatch(block, row.row, score, _differences(block, row, start, end)))
        if block.spans:
            quotes[row.row] = quotes.get(row.row, ()) + block.spans
    return WebCollation(witness, blocks, tuple(matches), quotes, repeated)
