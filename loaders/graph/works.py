"""The works authority (``corpus/works.tsv``) and the finder of citations in the commentary.

Matching is on folded text (:func:`yili_kg.loaders.variants.fold`, one character for one),
so offsets are offsets in the text given, and 内則/內則 or 鄕/鄉 are one. The code is the
mechanism; the words are data: a work's names, the names among them that are also other
words (``bare``), where those count (``context``) and the offices cited by name (``offices``)
are columns of ``works.tsv``; the words around a name, of a quotation and of an office of the
周禮 are ``corpus/annotation-words.tsv``, classes ``cite-…``.

**Punctuated text**: only 《…》 titles; the last ``·`` part that is a known name wins
(《禮記·射義》 → 射義); the quote is the “…” that follows, after an optional 云/曰.

**Unpunctuated Kanripo text**: all names, longest and leftmost first (鄉飲酒義 before 鄉飲酒,
燕禮記 before 禮記, 郊特牲 before 特牲, 小爾雅 before 爾雅); then the characters just
before (three) and after (two) a bare name decide:

* a name that is not bare counts (周禮, 禮記, 月令, 爾雅, 射義, 郊特牲 …);
* a bare name counts after a word of its context's ``after`` or before one of its ``before``,
  never after ``not-after`` or before ``not-before``. A *rite*'s bare name (``as=rite``:
  鄉飲酒, 大射, 特牲 … name a chapter and also the rite as practised, 行鄉飲酒之禮, 天子大射)
  also has the words every rite shares (cite-rite-after 案 按 引 …, cite-rite-before 云 曰 注
  記 …, cite-rite-not-after 行 此); the others are ordinary words (詩, 易 "change", 春秋 "spring
  and autumn", 喪服 "mourning dress", 內則 "within, then" …) with their own words;
* an undecided name counts when it touches a counted name of the same collection, or is
  joined to it by a word of cite-list (及, 與), as in lists of chapters
  (鄉飲酒鄉射燕禮大射皆…, 特牲少牢有司徹); so 鄉射及賓射 (kinds of archery) does not count.

A whole followed by its part is one hit on the part (禮記射義 → 射義). 周禮 offices count
as 周禮 written ``X職`` (cite-office) before 云/曰/文/注 (小胥職云, 大司馬職云), and the
``offices`` of a work (no role in the rites) also as ``X云`` (梓人云 → 考工記, 鍾師云).

``quote`` (X云… / X曰…, after an optional cite-quote-lead 記/注/傳/禮/職 and cite-also 亦/又):
the words up to the first word of cite-quote-end (the next 云, with a 鄭/注 before it, 是也,
引之, ○, or a 者 that ends the text or is followed by the 疏's own words, cite-own: "云X者，
案…"), or through the first 也; at most 40 characters. Without quotation marks this is a guess.

Known limits: 鄭注's 春秋傳 twice means 國語 (大射 注, the 疏 says 外傳); offices without 職
(射人云) and rites named as practice (鄉飲酒升歌小雅) are missed; a word of a context longer
than the characters read (孟子's 公孫丑) is never met.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace

from yili_kg.loaders.annotation.rules import table_path, word_class, word_values
from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.variants import fold

FIELDS = (
    "id",
    "title",
    "en",
    "names",
    "bare",
    "context",
    "offices",
    "part_of",
    "kanripo",
    "ctext",
    "explains",
    "text_en",
    "note",
)
_SLUG = re.compile(r"^[a-z][a-z0-9-]*$")
#: the keys of works.tsv's ``context`` (``as`` takes one value, ``rite``)
CONTEXT_KEYS = ("as", "after", "before", "not-after", "not-before")
#: the characters read before and after a bare name (a longer word of a context is never met)
BEFORE, AFTER = 3, 2


@dataclass(frozen=True)
class Context:
    """Where a work's bare names count as a citation (works.tsv ``context``)."""

    rite: bool  # as=rite: also the rite as practised (annotation-words.tsv cite-rite-…)
    after: tuple[str, ...] = ()  # a citation after one of these
    before: tuple[str, ...] = ()  # … before one of these
    not_after: tuple[str, ...] = ()  # never after these
    not_before: tuple[str, ...] = ()  # never before these


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
    bare: tuple[str, ...] = ()  # names that count only in their context
    context: Context | None = None
    offices: tuple[str, ...] = ()  # offices cited as X云 / X曰
    explains: tuple[str, ...] = ()  # rite slugs a 禮記 chapter explains (loaders/graph/liji.py)
    text_en: str = ""  # that chapter's English title as a text, where it is not en


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
    for number, row in read_rows(path, FIELDS):
        work = _work(path, number, row, works, owner)
        works[work.id] = work
    for work in works.values():
        if work.part_of and work.part_of not in works:
            raise SourceError(path, f"{work.id}: part_of {work.part_of!r} is not a work id")
    return works


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
    offices = tuple(n for n in row["offices"].split("|") if n)
    for name in names + offices:
        key = fold(name)
        if owner.get(key, wid) != wid:
            raise SourceError(path, f"name {name!r} of {wid} is also {owner[key]}'s", number)
        owner[key] = wid
    bare, context = _bare_of(path, number, row, names)
    return Work(
        wid,
        row["title"],
        row["en"],
        names,
        row["part_of"] or None,
        row["kanripo"] or None,
        row["ctext"] or None,
        row["note"],
        bare,
        context,
        offices,
        tuple(r for r in row["explains"].split("|") if r),
        row["text_en"],
    )


def _bare_of(
    path: Path, number: int, row: dict, names: tuple[str, ...]
) -> tuple[tuple[str, ...], Context | None]:
    """A row's bare names (of its names) and their context, which go together."""
    bare = tuple(n for n in row["bare"].split("|") if n)
    if set(bare) - set(names):
        unknown = sorted(set(bare) - set(names))
        raise SourceError(path, f"{row['id']}: bare names {unknown} not in names", number)
    context = _context_of(path, number, row["context"])
    if bool(bare) != bool(context):
        raise SourceError(path, f"{row['id']}: bare names and a context go together", number)
    return bare, context


def _context_of(path: Path, number: int, raw: str) -> Context | None:
    """A ``context`` cell, ``key=a,b;key2=c`` (keys :data:`CONTEXT_KEYS`), or None if empty."""
    if not raw:
        return None
    words: dict[str, tuple[str, ...]] = {}
    for part in raw.split(";"):
        key, sep, values = part.partition("=")
        if not sep or key not in CONTEXT_KEYS or key in words or not values:
            raise SourceError(
                path, f"context {part!r}: key=a,b once a key, of {CONTEXT_KEYS}", number
            )
        words[key] = tuple(v for v in values.split(",") if v)
    if words.get("as", ("rite",)) != ("rite",):
        raise SourceError(path, f"context as={','.join(words['as'])}: only as=rite", number)
    return Context(
        "as" in words,
        words.get("after", ()),
        words.get("before", ()),
        words.get("not-after", ()),
        words.get("not-before", ()),
    )


def read_works(path: Path | str | None = None) -> dict[str, Work]:
    """The works authority, keyed by id (``corpus/works.tsv`` unless ``path`` is given).

    Raises:
        SourceError: bad header or row, repeated id or name, unknown ``part_of``.
    """
    return dict(_read(Path(path) if path else corpus_dir() / "works.tsv"))


def _either(words: Iterable[str]) -> str:
    """A regex for any of ``words`` (folded), the longest first."""
    folded = sorted(dict.fromkeys(fold(w) for w in words), key=len, reverse=True)
    if not folded or not all(folded):
        raise SourceError(table_path("words"), "a class of cite- words is empty")
    return "|".join(re.escape(w) for w in folded)


def _words(name: str) -> tuple[str, ...]:
    """The words of the class ``name`` of annotation-words.tsv, folded."""
    return tuple(fold(w) for w in word_class(name))


def _bare(works: tuple[Work, ...]) -> dict[str, Context]:
    """Each bare name (folded) with its context, a rite's with the words every rite shares."""
    rite = Context(
        True, _words("cite-rite-after"), _words("cite-rite-before"), _words("cite-rite-not-after")
    )
    out = {}
    for work in works:
        c = work.context
        if c is None:
            continue
        s = rite if c.rite else Context(False)
        context = Context(
            c.rite,
            s.after + tuple(map(fold, c.after)),
            s.before + tuple(map(fold, c.before)),
            s.not_after + tuple(map(fold, c.not_after)),
            s.not_before + tuple(map(fold, c.not_before)),
        )
        out.update({fold(n): context for n in work.bare})
    return out


def _office_pattern(marks: Iterable[str]) -> re.Pattern:
    """X職 (大司馬職云, 春官小胥職): an office of two characters (three after a cite-office-prefix),
    after an optional section of the 周禮, before cite-office-before; group 2 is the mark."""
    not_in_office = word_class("cite-office-not")
    if any(len(w) != 1 for w in not_in_office):
        raise SourceError(table_path("words"), "cite-office-not: single characters only")
    mark = _either(marks)
    return re.compile(
        f"(?:{_either(word_class('cite-office-section'))})?"
        f"(?:(?:{_either(word_class('cite-office-prefix'))})(?=\\w\\w(?:{mark})))?"
        f"([^\\W{''.join(re.escape(fold(w)) for w in not_in_office)}]{{2}})"
        f"({mark})(?=(?:{_either(word_class('cite-office-before'))}))"
    )


def _quote_patterns() -> dict:
    """The words of a quotation (cite-said, cite-also, cite-quote-lead, cite-quote-end, cite-own):
    where it starts after a name, where it ends, and after a 《title》 of punctuated text."""
    said, also = _either(word_class("cite-said")), _either(word_class("cite-also"))
    lead, ends = word_values("cite-quote-lead"), word_values("cite-quote-end")
    kept = _either(w for w, v in ends.items() if v in ("before", "through"))
    own_end = _either(w for w, v in ends.items() if v == "before-own")
    titled = _either(w for w, v in lead.items() if v == "titled")
    return {
        "also": also,
        "said": said,
        "quote": re.compile(f"(?:{_either(lead)})?(?:{also})?(?:{said})"),
        "quote_end": re.compile(f"{kept}|(?:{own_end})(?=(?:{_either(word_class('cite-own'))})|$)"),
        "quote_through": frozenset(fold(w) for w, v in ends.items() if v == "through"),
        "title_quote": re.compile(
            f"(?:{titled})?(?:{also})?(?:{said})?[：:，,]?\\s*[“「『]([^”」』]*)[”」』]"
        ),
    }


@cache
def _rules(works: tuple[Work, ...]) -> SimpleNamespace:
    """The finder's rules for ``works``: their names, contexts and offices (works.tsv) and the
    words around them (annotation-words.tsv, classes cite-…), folded like the text (云 → 雲)."""
    owner = {fold(n): w.id for w in works for n in w.names}
    offices = {fold(o): w.id for w in works for o in w.offices}
    marks = {fold(w): work for w, work in word_values("cite-office").items()}
    quotes = _quote_patterns()
    said = f"(?=(?:{quotes['also']})?(?:{quotes['said']}))"
    return SimpleNamespace(
        owner=owner,
        pattern=re.compile(_either(owner)) if owner else None,
        bare=_bare(works),
        joins=("", *_words("cite-list")),
        office=_office_pattern(marks),
        office_work=marks,
        said_work=offices,
        said=re.compile(f"(?:{_either(offices)}){said}") if offices else None,
        **{k: v for k, v in quotes.items() if k not in ("also", "said")},
    )


def _context(rules: SimpleNamespace, folded: str, key: str, start: int, end: int) -> bool | None:
    """True: the context cites the name; False: it vetoes it; None: it says nothing."""
    context = rules.bare.get(key)
    if context is None:
        return True
    before, after = folded[max(0, start - BEFORE) : start], folded[end : end + AFTER]
    if before.endswith(context.not_after) or after.startswith(context.not_before):
        return False
    return True if before.endswith(context.after) or after.startswith(context.before) else None


def _quote(rules: SimpleNamespace, text: str, folded: str, end: int) -> str | None:
    """The words after X云 / X曰 (see the module docstring), or None."""
    m = rules.quote.match(folded, end)
    if not m:
        return None
    limit = min(len(folded), m.end() + 40)
    stop = rules.quote_end.search(folded, m.end(), limit)
    last = (
        limit if not stop else stop.end() if stop.group() in rules.quote_through else stop.start()
    )
    return text[m.end() : last] or None


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
    rules = _rules(tuple(works.values()))
    folded = fold(text)
    if punctuated:
        return _find_titles(rules, text, folded)
    parents = {w.id: w.part_of for w in works.values()}

    def hit(wid: str, m: re.Match) -> CitationHit:
        quote = _quote(rules, text, folded, m.end())
        return CitationHit(wid, text[m.start() : m.end()], m.start(), m.end(), quote)

    hits: list[CitationHit] = []
    pending: list[CitationHit] = []
    for m in rules.pattern.finditer(folded) if rules.pattern else ():
        cited = _context(rules, folded, m.group(), m.start(), m.end())
        if cited is not False:
            (hits if cited else pending).append(hit(rules.owner[m.group()], m))
    while pending:  # lists of chapters: 鄉飲酒鄉射燕禮大射, 特牲少牢有司徹
        touching = [
            p
            for p in pending
            if any(
                folded[min(h.end, p.end) : max(h.start, p.start)] in rules.joins
                and parents.get(h.work)
                and parents.get(h.work) == parents.get(p.work)
                for h in hits
            )
        ]
        if not touching:
            break
        hits += touching
        pending = [p for p in pending if p not in touching]
    hits += [
        hit(rules.office_work[m.group(2)], m)
        for m in rules.office.finditer(folded)
        if rules.office_work[m.group(2)] in works
    ]
    hits += (
        [hit(rules.said_work[m.group()], m) for m in rules.said.finditer(folded)]
        if rules.said
        else []
    )
    hits.sort(key=lambda h: (h.start, -h.end))
    kept: list[CitationHit] = []
    for h in hits:  # overlaps: the earlier, then the longer, wins
        if not kept or h.start >= kept[-1].end:
            kept.append(h)
    return _merge(kept, parents)


def _find_titles(rules: SimpleNamespace, text: str, folded: str) -> list[CitationHit]:
    """Punctuated text: 《…》 titles; the quote is the “…” that follows (after 云/曰, if any)."""
    hits = []
    for m in re.finditer(r"《([^《》]+)》", folded):
        parts = [_without_mark(rules, p) for p in re.split(r"[·・‧]", m.group(1))]
        known = [rules.owner.get(p) or rules.said_work.get(p) for p in parts]
        known = [wid for wid in known if wid]
        if not known:
            continue
        q = rules.title_quote.match(folded[m.end() :])
        quote = text[m.end() + q.start(1) : m.end() + q.end(1)].strip() if q else None
        hits.append(
            CitationHit(known[-1], text[m.start() : m.end()], m.start(), m.end(), quote or None)
        )
    return hits


def _without_mark(rules: SimpleNamespace, part: str) -> str:
    """《小胥職》 → 小胥: a title's part without the mark of an office (cite-office)."""
    mark = next((m for m in rules.office_work if part.endswith(m)), "")
    return part[: len(part) - len(mark)]
