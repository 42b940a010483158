"""Search (檢索), ``/search?q=``: the 經, 記, 注, 音義, 疏, 考證, the graph's reading of each
clause and the terms' labels, in traditional or simplified characters, pinyin with or without
tones, or English; hits grouped by rite and layer, highlighted, linking to the reading view.

The index is built with the dataset (:mod:`yili_kg.loaders.publish.searchindex`); a request only
reads it. How a query is read is reported with the hits (the forms tried), so a search that
finds nothing says what it looked for.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from flask import Blueprint, current_app, render_template, request

# the index's name from the build's foundations, not from its writer, which imports pypinyin
# and the lexicon (half a second of the cold start)
from yili_kg.loaders.built import INDEX_NAME
from yili_kg.loaders.errors import BadQueryParameter, YiliError
from yili_kg.service.views.reading import reading_url, readings

bp = Blueprint("search", __name__)
ID = "https://w3id.org/yili/id/"
ONTOLOGY = "https://w3id.org/yili/ontology#"
LAYERS = ["經", "記", "注", "音義", "疏", "考證", "引文", "行事", "名"]
LAYER_NAMES = {
    "經": "the classic",
    "記": "the record",
    "注": "鄭玄's notes",
    "音義": "陸德明's readings",
    "疏": "賈公彥's subcommentary",
    "考證": "the Qing collation notes",
    "引文": "江永's quotations",
    "行事": "the graph's reading of the clause",
    "名": "names of terms",
}
MAX_HITS = 400  # rows fetched for one query
PER_GROUP = 30  # hits shown in each group before "more"
TONES = {
    "ā": ("a", 1), "á": ("a", 2), "ǎ": ("a", 3), "à": ("a", 4),
    "ē": ("e", 1), "é": ("e", 2), "ě": ("e", 3), "è": ("e", 4),
    "ī": ("i", 1), "í": ("i", 2), "ǐ": ("i", 3), "ì": ("i", 4),
    "ō": ("o", 1), "ó": ("o", 2), "ǒ": ("o", 3), "ò": ("o", 4),
    "ū": ("u", 1), "ú": ("u", 2), "ǔ": ("u", 3), "ù": ("u", 4),
    "ǖ": ("v", 1), "ǘ": ("v", 2), "ǚ": ("v", 3), "ǜ": ("v", 4), "ü": ("v", 0),
}  # fmt: skip


class SearchIndexMissing(YiliError):
    status = 503


def is_cjk(char: str) -> bool:
    return unicodedata.name(char, "").startswith(("CJK", "KANGXI")) or "\u3400" <= char <= "\u9fff"


@cache
def _converter():
    import opencc  # on the first search, not on the service's start path (cold start)

    return opencc.OpenCC("t2s")


@dataclass
class Plan:
    """How a query is read: the forms tried, each with the index it is matched in."""

    q: str
    hans: str = ""  # the characters, folded to simplified
    syllables: list[str] = field(default_factory=list)
    tones: list[int] = field(default_factory=list)  # 0: any tone
    words: list[str] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)


def split_syllables(letters: str, known: set[str]) -> list[str] | None:
    """Pinyin letters split into known syllables, fewest syllables first (xianbin → xian bin).

    >>> split_syllables("xianbin", {"xi", "xian", "an", "bin", "bi"})
    ['xian', 'bin']
    """
    best: list[list[str] | None] = [None] * (len(letters) + 1)
    best[0] = []
    for end in range(1, len(letters) + 1):
        for start in range(max(0, end - 6), end):
            head = best[start]
            if head is not None and letters[start:end] in known:
                now = best[end]
                if now is None or len(head) + 1 < len(now):
                    best[end] = [*head, letters[start:end]]
    return best[-1]


def plan(q: str, known: set[str]) -> Plan:
    """The forms of ``q`` to look for: characters (folded to simplified), pinyin, English."""
    q = unicodedata.normalize("NFC", q.strip())
    p = Plan(q)
    if not q:
        return p
    if any(is_cjk(c) for c in q):
        _plan_characters(p, q)
        return p
    _plan_pinyin(p, q, known)
    _plan_english(p, q)
    return p


def _plan_characters(p: Plan, q: str) -> None:
    """字: the characters of ``q``, folded to simplified by OpenCC."""
    chars = "".join(c for c in q if is_cjk(c))
    p.hans = _converter().convert(chars)
    p.tried.append(f"characters {chars}" + (f" (simplified {p.hans})" if p.hans != chars else ""))


def _letters_and_tones(q: str) -> tuple[list[str], list[int]]:
    """The letters of ``q`` with tone marks or numbers read off; none if it is not pinyin."""
    letters: list[str] = []
    tones: list[int] = []
    for c in q.lower():
        if c in TONES:
            base, tone = TONES[c]
            letters.append(base)
            tones.append(tone)
        elif c.isdigit() and c in "12345" and letters:
            tones[-1] = -int(c)  # a tone number: for the syllable that ends here
        elif "a" <= c <= "z":
            letters.append(c)
            tones.append(0)
        elif c not in "' -":
            return [], []
    return letters, tones


def _plan_pinyin(p: Plan, q: str, known: set[str]) -> None:
    """拼音: ``q`` split into the syllables the corpus has, each with its tone if given."""
    letters, tones = _letters_and_tones(q)
    if not letters:
        return
    syllables = split_syllables("".join(letters), known)
    if not syllables:
        return
    p.syllables = syllables
    position = 0
    for s in syllables:
        marks = [t for t in tones[position : position + len(s)] if t]
        p.tones.append(abs(marks[-1]) if marks else 0)
        position += len(s)
    shown = " ".join(s + (str(t) if t else "") for s, t in zip(syllables, p.tones, strict=True))
    p.tried.append(f"pinyin {shown}")


def _plan_english(p: Plan, q: str) -> None:
    """English: the words of ``q`` of two letters or more, accents removed."""
    bare = "".join(
        c for c in unicodedata.normalize("NFKD", q.lower()) if not unicodedata.combining(c)
    )
    p.words = [w for w in re.findall(r"[a-z]+", bare) if len(w) > 1]
    if p.words:
        p.tried.append(f"English {' '.join(p.words)}")


def open_index(build_dir: Path) -> sqlite3.Connection:
    path = build_dir / INDEX_NAME
    if not path.exists():
        raise SearchIndexMissing(f"no search index at {path}: run yili-kg build")
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


@cache
def syllables_of(path: str, _stamp: float) -> frozenset[str]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return frozenset(r[0] for r in db.execute("SELECT syllable FROM syllables"))
    finally:
        db.close()


def _phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def search(build_dir: Path, q: str) -> tuple[Plan, list[dict]]:
    """The hits of ``q``: dicts with the row's fields and the character spans matched."""
    if len(q) > 200:
        raise BadQueryParameter("q: a search is at most 200 characters")
    path = build_dir / INDEX_NAME
    db = open_index(build_dir)
    try:
        p = plan(q, set(syllables_of(str(path), path.stat().st_mtime)))
        hits: dict[int, dict] = {}
        columns = (
            "d.id, d.rite, d.layer, d.target, d.phase, d.anchor, d.text, d.hans, d.pinyin, "
            "d.tones, d.en"
        )

        def take(sql: str, args: tuple, how: str) -> None:
            for row in db.execute(sql, args):
                hit = hits.setdefault(row[0], _hit(row))
                hit["how"].add(how)

        if p.hans:
            if len(p.hans) >= 3:  # a trigram index matches three characters or more
                take(
                    f"SELECT {columns} FROM cjk JOIN docs d ON d.id = cjk.rowid "
                    f"WHERE cjk MATCH ? LIMIT {MAX_HITS}",
                    ("hans : " + _phrase(p.hans),),
                    "chars",
                )
            else:
                take(
                    f"SELECT {columns} FROM docs d WHERE instr(d.hans, ?) > 0 LIMIT {MAX_HITS}",
                    (p.hans,),
                    "chars",
                )
        if p.syllables:
            take(
                f"SELECT {columns} FROM latin JOIN docs d ON d.id = latin.rowid "
                f"WHERE latin MATCH ? LIMIT {MAX_HITS}",
                ("pinyin : " + _phrase(" ".join(p.syllables)),),
                "pinyin",
            )
        if p.words:
            match = " AND ".join(_phrase(w) + "*" for w in p.words)
            take(
                f"SELECT {columns} FROM latin JOIN docs d ON d.id = latin.rowid "
                f"WHERE latin MATCH ? LIMIT {MAX_HITS}",
                ("en : (" + match + ")",),
                "english",
            )
        # a hit in the graph's reading shows its clause's characters beside the labels
        readings = {h["target"]: h for h in hits.values() if h["layer"] == "行事"}
        if readings:
            marks = ",".join("?" * len(readings))
            for target, text in db.execute(
                f"SELECT target, text FROM docs WHERE layer IN ('經', '記') "
                f"AND target IN ({marks})",
                tuple(readings),
            ):
                readings[target]["clause_text"] = text
    finally:
        db.close()
    found = []
    for hit in hits.values():
        _mark(hit, p)
        if hit["spans"] or hit["en_spans"]:
            found.append(hit)
    return p, found


def _hit(row) -> dict:
    keys = (
        "id",
        "rite",
        "layer",
        "target",
        "phase",
        "anchor",
        "text",
        "hans",
        "pinyin",
        "tones",
        "en",
    )
    return {**dict(zip(keys, row, strict=True)), "how": set(), "spans": [], "en_spans": []}


def _mark(hit: dict, p: Plan) -> None:
    """The spans of the text (and of the English) that the query matched."""
    if p.hans:
        start = hit["hans"].find(p.hans)
        while start >= 0:
            hit["spans"].append((start, start + len(p.hans)))
            start = hit["hans"].find(p.hans, start + 1)
    if p.syllables and "pinyin" in hit["how"]:
        plain, tones = hit["pinyin"].split(" "), hit["tones"].split(" ")
        n = len(p.syllables)
        for i in range(len(plain) - n + 1):
            if plain[i : i + n] != p.syllables:
                continue
            if all(
                t == 0 or tones[i + k].endswith(str(t)) for k, t in enumerate(p.tones)
            ):  # a tone given must be the character's
                hit["spans"].append((i, i + n))
    hit["query_words"] = " ".join(p.words)
    if p.words and "english" in hit["how"]:
        low = hit["en"].lower()
        for w in p.words:
            for m in re.finditer(r"\b" + re.escape(w) + r"\w*", low):
                hit["en_spans"].append((m.start(), m.end()))


def highlight(text: str, spans: list[tuple[int, int]], window: int = 0) -> list[tuple[str, bool]]:
    """The text as (piece, matched) parts; with ``window``, only around the first match."""
    spans = sorted(spans)
    if window and spans and len(text) > 2 * window + 10:
        lo = max(0, spans[0][0] - window)
        hi = min(len(text), spans[0][1] + window)
        parts = highlight(text[lo:hi], [(a - lo, b - lo) for a, b in spans if a >= lo and b <= hi])
        return ([("…", False)] if lo else []) + parts + ([("…", False)] if hi < len(text) else [])
    parts, at = [], 0
    for a, b in spans:
        if a < at:
            continue
        if a > at:
            parts.append((text[at:a], False))
        parts.append((text[a:b], True))
        at = b
    if at < len(text):
        parts.append((text[at:], False))
    return parts


def link(hit: dict) -> str:

    if hit["layer"] == "名":
        if hit["phase"]:
            return reading_url(hit["phase"])
        if hit["target"].startswith(ONTOLOGY):
            return "/ontology/term/" + hit["target"][len(ONTOLOGY) :]
        return "/id/" + hit["target"][len(ID) :]
    return reading_url(hit["phase"], hit["anchor"])


def grouped(hits: list[dict]) -> list[dict]:
    """Hits grouped by rite (chapter order) and layer (經, 記, 注 … order)."""

    rites = readings().rites()
    order = {r["slug"]: i for i, r in enumerate(rites)}
    names = {r["slug"]: r["label"] for r in rites}
    groups: dict[tuple, dict] = {}
    for hit in hits:
        rite = hit["rite"] if hit["layer"] != "名" or hit["phase"] else ""
        key = (
            order.get(rite, len(order)),
            LAYERS.index(hit["layer"]) if hit["layer"] in LAYERS else 99,
        )
        g = groups.setdefault(
            key,
            {
                "rite": names.get(rite, "術語 terms"),
                "slug": rite,
                "layer": hit["layer"],
                "layer_en": LAYER_NAMES.get(hit["layer"], ""),
                "hits": [],
            },
        )
        long_text = hit["layer"] in ("注", "疏", "考證", "引文", "音義")
        g["hits"].append(
            {
                "url": link(hit),
                "where": hit["anchor"],
                "text": highlight(hit["text"], hit["spans"], window=40 if long_text else 0),
                "en": highlight(hit["en"], hit["en_spans"]) if hit["en"] else [],
                "clause": hit.get("clause_text", ""),
                # English: the word itself before its longer forms (offer before offering)
                "key": (not _exact(hit), _natural(hit["anchor"])),
            }
        )
    for g in groups.values():
        g["hits"].sort(key=lambda h: h["key"])
    return [groups[k] for k in sorted(groups)]


def _exact(hit: dict) -> bool:
    if not hit["en_spans"] or hit["spans"]:
        return True
    words = set(re.findall(r"[a-z]+", hit["query_words"]))
    return any(hit["en"][a:b].lower() in words for a, b in hit["en_spans"])


def _natural(anchor: str) -> tuple:
    """The order of the text: the 經 before the 記, then by paragraph, sentence, clause."""
    anchor = anchor or ""
    numbers = tuple(int(x) for x in re.findall(r"\d+", anchor))
    return (
        0 if anchor.startswith("jing") else 1 if anchor.startswith("ji") else 2,
        numbers,
        anchor,
    )


@bp.route("/search")
def search_page():
    q = request.args.get("q", "")
    state = current_app.extensions["yili"]
    as_json = request.args.get("format") == "json"
    key = (state.version, q, as_json)
    pages, lock = current_app.extensions.setdefault(
        "yili-search-pages", (OrderedDict(), threading.Lock())
    )
    with lock:
        if key in pages:  # the same question on the same index: the same page
            pages.move_to_end(key)
            return pages[key]
    page = _page(state, q, as_json)
    with lock:
        pages[key] = page
        while len(pages) > 128:
            pages.popitem(last=False)
    return page


def _page(state, q: str, as_json: bool):
    p, hits = search(state.build_dir, q) if q.strip() else (Plan(q), [])
    groups = grouped(hits)
    if as_json:
        return {
            "q": q,
            "tried": p.tried,
            "hits": len(hits),
            "groups": [
                {
                    "rite": g["rite"],
                    "layer": g["layer"],
                    "hits": [
                        {
                            "url": h["url"],
                            "text": "".join(t for t, _ in h["text"]),
                            "matched": [t for t, m in h["text"] + h["en"] if m],
                        }
                        for h in g["hits"]
                    ],
                }
                for g in groups
            ],
        }
    return render_template(
        "search.html", q=q, plan=p, groups=groups, total=len(hits), per_group=PER_GROUP
    )
