"""The works authority (``corpus/works.tsv``) and the finder of citations in the commentary.

Matching is on folded text (:func:`yili_kg.loaders.variants.fold`, one character for one),
so offsets are offsets in the text given, and 内則/內則 or 鄕/鄉 are one.

**Punctuated text**: only 《…》 titles; the last ``·`` part that is a known name wins
(《禮記·射義》 → 射義); the quote is the “…” that follows, after an optional 云/曰.

**Unpunctuated Kanripo text**: all names, longest and leftmost first (鄉飲酒義 before 鄉飲酒,
燕禮記 before 禮記, 郊特牲 before 特牲, 小爾雅 before 爾雅); then the characters just
before and after decide:

* *safe* names (every name not listed below: 周禮, 禮記, 月令, 爾雅, 射義, 郊特牲 …) count;
* *rite* names (鄉飲酒 鄉飲 鄉射 燕禮 大射 冠禮 昏禮 特牲 少牢 公食) name a chapter and also
  the rite as practised ("行鄉飲酒之禮", "天子大射"): they count after a citing or comparing
  word (案 按 引 見 據 依 約 決 對 如 及 與 彼 於) or before 云 曰 注 記 禮 儀 文 亦 又 同 者 皆
  篇; never after 行 ("perform") or 此 (a chapter naming itself); 大射 never before 正
  (the office 大射正) nor after 天子 王 凡 若 得 諸侯 (the great archery in general);
* *strict* names, also ordinary words, count only before 云/曰 or after 案/按/引: 詩 (also
  before 序 譜 注 箋 大雅 …, after 故 見 又; never 六詩), 書 (書傳), 易 ("change"), 春秋
  ("spring and autumn"), 喪服 ("mourning dress"), 內則 ("within, then"; never 畿内則),
  雜記 (a chapter's own notes), 投壺 (the game), 孟子 (the man), 外傳, 冬官, 左氏;
* an undecided name counts when it touches a counted name of the same collection, or is
  joined to it by 及/與, as in lists of chapters (鄉飲酒鄉射燕禮大射皆…, 特牲少牢有司徹);
  so 鄉射及賓射 (kinds of archery) does not count.

A whole followed by its part is one hit on the part (禮記射義 → 射義). 周禮 offices count
as 周禮 written ``X職`` before 云/曰/文/注 (小胥職云, 大司馬職云), and a few that are no
role in the rites also as ``X云`` (梓人云 → 考工記, 鍾師云).

``quote`` (X云… / X曰…, after an optional 記/注/傳/禮/職 and 亦/又): the words up to the
next 云 (with a 鄭/注 before it), 是也, 引之, ○, or a 者 that ends the text or is followed
by the 疏's own words (案 按 此 彼 欲 證 鄭 引 即 若 據 釋: "云X者，案…"), or through the
first 也; at most 40 characters. Without quotation marks this is a guess.

Known limits: 鄭注's 春秋傳 twice means 國語 (大射 注, the 疏 says 外傳); offices without 職
(射人云) and rites named as practice (鄉飲酒升歌小雅) are missed.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace

from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.variants import fold

FIELDS = ("id", "title", "en", "names", "part_of", "kanripo", "ctext", "note")
_SLUG = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Work:
    """One entry of the works authority."""

    id: str
    title: str
    en: str
    names: tuple[str, ...]
    part_of: str | None
    kanripo: str | None
    ctext: str | None
    note: str


@dataclass(frozen=True)
class CitationHit:
    """A place where a text names a work."""

    work: str  # work id
    name: str  # the form matched (as written in the text)
    start: int
    end: int  # offsets in the text searched
    quote: str | None  # words after X云/X曰, when the pattern gives them


@cache
def _read(path: Path) -> dict[str, Work]:
    """The works of ``path`` (:func:`read_works`), read once per path."""
    works: dict[str, Work] = {}
    owner: dict[str, str] = {}  # folded name → the id of the work it names
    for number, row in _rows(path):
        work = _work(path, number, row, works, owner)
        works[work.id] = work
    for work in works.values():
        if work.part_of and work.part_of not in works:
            raise SourceError(path, f"{work.id}: part_of {work.part_of!r} is not a work id")
    return works


def _rows(path: Path) -> Iterable[tuple[int, dict[str, str]]]:
    """The (line number, row) of the file's data rows, comments left out, header checked."""
    with open(path, encoding="utf-8", newline="") as handle:
        lines = [(n, line) for n, line in enumerate(handle, 1) if not line.startswith("#")]
    numbers = [n for n, _ in lines]
    reader = csv.DictReader([line for _, line in lines], delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise SourceError(path, f"header must be {' '.join(FIELDS)}", numbers[0] if numbers else 1)
    return zip(numbers[1:], reader, strict=False)


def _work(
    path: Path, number: int, row: dict, works: dict[str, Work], owner: dict[str, str]
) -> Work:
    """One row's work, checked: all columns, a new slug id, a title, names no other work has
    (``owner`` takes its names)."""
    if None in row or any(row[f] is None for f in FIELDS):
        raise SourceError(path, f"row needs {len(FIELDS)} columns", number)
    wid = row["id"]
    if not _SLUG.match(wid) or wid in works:
        raise SourceError(path, f"bad or repeated id {wid!r}", number)
    names = tuple(n for n in row["names"].split("|") if n)
    if not names or not row["title"]:
        raise SourceError(path, f"{wid}: title and names are required", number)
    for name in names:
        key = fold(name)
        if owner.get(key, wid) != wid:
            raise SourceError(path, f"name {name!r} of {wid} is also {owner[key]}'s", number)
        owner[key] = wid
    return Work(
        wid,
        row["title"],
        row["en"],
        names,
        row["part_of"] or None,
        row["kanripo"] or None,
        row["ctext"] or None,
        row["note"],
    )


def read_works(path: Path | str | None = None) -> dict[str, Work]:
    """The works authority, keyed by id (``corpus/works.tsv`` unless ``path`` is given).

    Raises:
        SourceError: bad header or row, repeated id or name, unknown ``part_of``.
    """
    return dict(_read(Path(path) if path else corpus_dir() / "works.tsv"))


_CITE_BEFORE = "案按引見據依約決决對如及與彼於"
_RITE_AFTER = "云曰注記禮儀文亦又同者皆篇"
_RITE = ("鄉飲酒", "鄉飲", "鄉射", "燕禮", "大射", "冠禮", "昏禮", "特牲", "少牢", "公食")
#: strict names: (licensing following strings, licensing preceding characters)
_SAID, _CITED = ("云", "曰"), "案按引"
_STRICT = {
    "詩": (_SAID + ("序", "譜", "注", "箋", "大雅", "小雅", "國風", "魯頌"), "案按引故見又"),
    "書": (_SAID + ("亦云", "傳"), _CITED),
    "易": (_SAID, "引"),
    "春秋": (_SAID + ("經",), _CITED),
    "喪服": (_SAID + ("經", "注"), _CITED),
    "投壺": (_SAID + ("禮", "篇", "文"), _CITED),
    "外傳": (_SAID + ("文",), "是"),
    "冬官": (_SAID, "案按"),
    "孟子": (_SAID + ("文", "公孫丑", "梁惠王", "滕文公", "離婁", "萬章", "盡心"), _CITED),
    **{name: (_SAID + ("文",), _CITED) for name in ("內則", "雜記", "襍記", "左氏")},
}
#: (name, preceding strings that veto, following strings that veto)
_VETO = [(n, ("行", "此"), ()) for n in _RITE if n != "大射"] + [
    ("大射", ("行", "此", "天子", "王", "凡", "若", "得", "諸侯"), ("正",)),
    ("詩", ("六",), ()),
    ("內則", ("畿",), ()),
]
#: 周禮 offices cited as X云 / X曰 without 職 (none is a role in the four rites)
_OFFICE_SAID = {
    "梓人": "kaogongji",
    "矢人": "kaogongji",
    "弓人": "kaogongji",
    "鍾氏": "kaogongji",
    "繕人": "zhouli",
    "鍾師": "zhouli",
    "司裘": "zhouli",
    "眂瞭": "zhouli",
    "小胥": "zhouli",
}


@cache
def _rules() -> SimpleNamespace:
    """The rule tables, folded like the text (fold turns 云 into 雲, 矦 into 侯 …)."""
    f = fold
    return SimpleNamespace(
        cite_before=f(_CITE_BEFORE),
        rite_after=f(_RITE_AFTER),
        rite=frozenset(map(f, _RITE)),
        strict={f(k): (tuple(map(f, a)), f(b)) for k, (a, b) in _STRICT.items()},
        veto={f(n): (tuple(map(f, b)), tuple(map(f, a))) for n, b, a in _VETO},
        office=re.compile(
            f"(?:[天地春夏秋]官)?(?:[大小鄉司](?=\\w\\w職))?"
            f"([^\\W{f('其此彼之云曰者也文本各親')}]{{2}})職(?=[{f('云曰文注')}])"
        ),
        said=re.compile(f"(?:{'|'.join(map(f, _OFFICE_SAID))})(?=[又亦]?[{f('云曰')}])"),
        said_work={f(k): v for k, v in _OFFICE_SAID.items()},
        quote=re.compile(f"[記注傳禮職]?[亦又]?[{f('云曰')}]"),
        quote_end=re.compile(
            f"(?:鄭注|鄭|注)?{f('云')}|是也|引之|○|也|者(?=[案按此彼欲證鄭引即若據釋]|$)"
        ),
    )


def _context(folded: str, key: str, start: int, end: int) -> bool | None:
    """True: the context cites the name; False: it vetoes it; None: it says nothing."""
    rules = _rules()
    before, after = folded[max(0, start - 3) : start], folded[end : end + 2]
    prev = before[-1:]
    vetoed_before, vetoed_after = rules.veto.get(key, ((), ()))
    if before.endswith(vetoed_before) or (vetoed_after and after.startswith(vetoed_after)):
        return False
    if key in rules.rite:
        cited = (prev and prev in rules.cite_before) or (after and after[0] in rules.rite_after)
        return True if cited else None
    if key in rules.strict:
        follows, precedes = rules.strict[key]
        return True if after.startswith(follows) or (prev and prev in precedes) else None
    return True


def _quote(text: str, folded: str, end: int) -> str | None:
    """The words after X云 / X曰 (see the module docstring), or None."""
    rules = _rules()
    m = rules.quote.match(folded, end)
    if not m:
        return None
    limit = min(len(folded), m.end() + 40)
    stop = rules.quote_end.search(folded, m.end(), limit)
    last = limit if not stop else stop.end() if stop.group() == "也" else stop.start()
    return text[m.end() : last] or None


@cache
def _index(works_key: tuple[tuple[str, tuple[str, ...]], ...]):
    owner = {fold(n): wid for wid, names in works_key for n in names}
    names = sorted(owner, key=len, reverse=True)
    return owner, re.compile("|".join(re.escape(n) for n in names)) if names else None


def _merge(hits: list[CitationHit], parents: dict[str, str | None]) -> list[CitationHit]:
    """禮記射義 / 周禮考工記 / 周禮小胥職: a whole followed by its part is one hit on the part."""
    out: list[CitationHit] = []
    for hit in hits:
        chain: set[str] = set()
        wid: str | None = hit.work
        while wid and wid not in chain:
            chain.add(wid)
            wid = parents.get(wid)
        if out and out[-1].end == hit.start and out[-1].work in chain:
            prev = out.pop()
            hit = CitationHit(hit.work, prev.name + hit.name, prev.start, hit.end, hit.quote)
        out.append(hit)
    return out


def find_citations(text: str, works=None, *, punctuated: bool = False) -> list[CitationHit]:
    """Where ``text`` names a work, in text order (see the module docstring for the rules).

    ``works`` is a dict of :class:`Work` (default: :func:`read_works`).
    """
    works = read_works() if works is None else works
    owner, pattern = _index(tuple((w.id, w.names) for w in works.values()))
    folded = fold(text)
    if punctuated:
        return _find_titles(text, folded, owner)
    rules = _rules()
    parents = {w.id: w.part_of for w in works.values()}

    def hit(wid: str, m: re.Match) -> CitationHit:
        return CitationHit(
            wid, text[m.start() : m.end()], m.start(), m.end(), _quote(text, folded, m.end())
        )

    hits: list[CitationHit] = []
    pending: list[CitationHit] = []
    for m in pattern.finditer(folded) if pattern else ():
        cited = _context(folded, m.group(), m.start(), m.end())
        if cited is not False:
            (hits if cited else pending).append(hit(owner[m.group()], m))
    while pending:  # lists of chapters: 鄉飲酒鄉射燕禮大射, 特牲少牢有司徹
        touching = [
            p
            for p in pending
            if any(
                folded[min(h.end, p.end) : max(h.start, p.start)] in ("", "及", "與")
                and parents.get(h.work)
                and parents.get(h.work) == parents.get(p.work)
                for h in hits
            )
        ]
        if not touching:
            break
        hits += touching
        pending = [p for p in pending if p not in touching]
    if "zhouli" in works:
        hits += [hit("zhouli", m) for m in rules.office.finditer(folded)]
    hits += [
        hit(rules.said_work[m.group()], m)
        for m in rules.said.finditer(folded)
        if rules.said_work[m.group()] in works
    ]
    hits.sort(key=lambda h: (h.start, -h.end))
    kept: list[CitationHit] = []
    for h in hits:  # overlaps: the earlier, then the longer, wins
        if not kept or h.start >= kept[-1].end:
            kept.append(h)
    return _merge(kept, parents)


def _find_titles(text: str, folded: str, owner: dict[str, str]) -> list[CitationHit]:
    """Punctuated text: 《…》 titles; the quote is the “…” that follows (after 云/曰, if any)."""
    rules, hits = _rules(), []
    said = f"[記注傳]?[亦又]?[{fold('云曰')}]?[：:，,]?\\s*[“「『]([^”」』]*)[”」』]"
    for m in re.finditer(r"《([^《》]+)》", folded):
        parts = [p.removesuffix("職") for p in re.split(r"[·・‧]", m.group(1))]
        known = [owner.get(p) or rules.said_work.get(p) for p in parts]
        known = [wid for wid in known if wid]
        if not known:
            continue
        q = re.match(said, folded[m.end() :])
        quote = text[m.end() + q.start(1) : m.end() + q.end(1)].strip() if q else None
        hits.append(
            CitationHit(known[-1], text[m.start() : m.end()], m.start(), m.end(), quote or None)
        )
    return hits
