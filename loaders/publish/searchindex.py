"""The search index (檢索), written at build time into ``build/search.sqlite``.

SQLite's FTS5, from the standard library: one row per searchable text — each clause of the
經 and 記, each note (注, 音義, 疏, 考證, 引文), the graph's reading of each clause (the labels
of its acts and participants, in English and Chinese) and each term's labels — with the text
in the edition's characters, in simplified characters (OpenCC ``t2s``: a query in either
script is folded to simplified before it is matched), and in pinyin, one syllable a character
(pypinyin), toneless and with tone numbers. Two FTS5 tables read the same rows: a trigram
tokenizer over the characters (CJK has no spaces to split on) and unicode61 over the pinyin and
English words. Built from the persisted Oxigraph store, so it always matches the dataset.
"""

from __future__ import annotations

import os
import sqlite3
from importlib import resources
from pathlib import Path

import opencc
import pyoxigraph as ox
from pypinyin import Style
from pypinyin.converter import UltimateConverter
from pypinyin.core import Pinyin

from yili_kg.loaders.annotation.rules import word_values
from yili_kg.loaders.built import INDEX_NAME
from yili_kg.loaders.terms.ontology import _load_readings

ID = "https://w3id.org/yili/id/"
YL = "https://w3id.org/yili/ontology#"
SKOS_PREF = "http://www.w3.org/2004/02/skos/core#prefLabel"
#: The layer of the terms' names: a code of the index (service/views/search.py's LAYERS),
#: no word of the text or class of the ontology. The other layers are names read from the
#: data: the division of a clause (經, 記: annotation-words.tsv, class ``division``), the
#: class of a note (its skos:prefLabel: 注, 音義 …) and, for the graph's reading of a clause,
#: yl:Action's (行事).
NAMES_LAYER = "名"

SCHEMA = """
CREATE TABLE docs (
  id INTEGER PRIMARY KEY, rite TEXT, layer TEXT, target TEXT, phase TEXT, anchor TEXT,
  text TEXT, hans TEXT, pinyin TEXT, tones TEXT, en TEXT);
CREATE VIRTUAL TABLE cjk USING fts5(hans, content='docs', content_rowid='id',
  tokenize='trigram');
CREATE VIRTUAL TABLE latin USING fts5(pinyin, tones, en, content='docs', content_rowid='id',
  tokenize='unicode61');
CREATE TABLE syllables (syllable TEXT PRIMARY KEY);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
"""


def _query(name: str) -> str:
    return resources.files("yili_kg.loaders").joinpath("rq", f"{name}.rq").read_text("utf-8")


def _other(chars: str) -> list[str]:
    return ["_"] * len(chars)


_PINYIN = None  # pypinyin's converter with a memory of the words it converted (below)


def _pinyin():
    """``pypinyin.lazy_pinyin(…, neutral_tone_with_five=True)``'s converter, remembering each
    word's syllables: pypinyin converts every word of a text on its own (the text is cut
    into words first), so a word converted once is the same syllables everywhere. The book
    repeats its words: converting them again was most of the search index's time."""
    global _PINYIN
    if _PINYIN is None:
        # the project's readings (corpus/readings.tsv) first: they were taught to pypinyin
        # only if the ontology stage ran in this process, so an index written after a
        # cached ontology stage read 小樂正 as xiao le zheng (3557 rows of the whole book)
        _load_readings()

        class Remembering(UltimateConverter):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.memory: dict = {}

            def convert(self, words, style, heteronym, errors, strict=True, **kwargs):
                key = (words, style, heteronym, errors, strict)
                found = self.memory.get(key)
                if found is None:
                    found = super().convert(words, style, heteronym, errors, strict, **kwargs)
                    self.memory[key] = found
                return [list(syllables) for syllables in found]

        _PINYIN = Pinyin(Remembering(neutral_tone_with_five=True))
    return _PINYIN


def pinyin_tokens(text: str) -> tuple[list[str], list[str]]:
    """Toneless and tone-numbered syllables, one per character (``_`` for what is not Han).

    >>> pinyin_tokens("獻賓。")
    (['xian', 'bin', '_'], ['xian4', 'bin1', '_'])
    """

    # one pass, with tone numbers (the costly part is pypinyin's phrase segmentation); the
    # toneless form is the same syllable without its digit
    pinyin = _pinyin()
    tones = pinyin.lazy_pinyin(text, style=Style.TONE3, errors=_other)
    if len(tones) != len(text):  # one syllable a character
        tones = [pinyin.lazy_pinyin(c, style=Style.TONE3, errors=_other)[0] for c in text]
    plain = [t.rstrip("12345") for t in tones]
    return plain, tones


def _pref_label(store, iri: str) -> str:
    """The skos:prefLabel of ``iri`` in the store (its zh-Hant label)."""
    labels = sorted(
        q.object.value
        for q in store.quads_for_pattern(ox.NamedNode(iri), ox.NamedNode(SKOS_PREF), None)
    )
    if not labels:
        raise KeyError(f"{iri} has no skos:prefLabel in the store")
    return labels[0]


def _rows(store):
    """(rite, layer, target IRI, phase IRI, anchor, text, en) for every searchable text."""
    union = {"use_default_graph_as_union": True}
    division = {slug: word for word, slug in word_values("division").items()}
    for s in store.query(_query("search-clauses"), **union):
        clause = s["clause"].value
        slug, tail = clause[len(ID) :].split("/", 1)
        layer = division["jing"] if tail.startswith("jing/") else division["ji"]
        yield slug, layer, clause, s["phase"].value, tail.replace("/", "-"), s["text"].value, ""
    for s in store.query(_query("search-notes"), **union):
        clause = s["clause"].value
        slug, tail = clause[len(ID) :].split("/", 1)
        layer = s["kind"].value  # the skos:prefLabel of the note's class
        yield (
            slug,
            layer,
            s["note"].value,
            s["phase"].value,
            tail.replace("/", "-"),
            s["text"].value,
            "",
        )
    readings: dict[str, dict] = {}
    for s in store.query(_query("search-events"), **union):
        clause = s["clause"].value
        entry = readings.setdefault(clause, {"phase": s["phase"].value, "zh": [], "en": []})
        zh = s["zh"].value
        en = s["en"].value if s["en"] is not None else ""
        if zh not in entry["zh"]:
            entry["zh"].append(zh)
        if en and en not in entry["en"]:
            entry["en"].append(en)
    acts = _pref_label(store, YL + "Action")
    for clause, entry in readings.items():
        slug, tail = clause[len(ID) :].split("/", 1)
        yield (
            slug,
            acts,
            clause,
            entry["phase"],
            tail.replace("/", "-"),
            " · ".join(entry["zh"]),
            " · ".join(entry["en"]),
        )
    for s in store.query(_query("search-labels"), **union):
        term = s["term"].value
        phase = term if "/phase/" in term else ""
        slug = term[len(ID) :].split("/", 1)[0] if phase else ""
        yield (
            slug,
            NAMES_LAYER,
            term,
            phase,
            s["type"].value,
            s["label"].value,
            s["ens"].value if s["ens"] is not None else "",
        )


def write_index(build_dir: Path) -> Path:
    """Build ``build_dir/search.sqlite`` from the persisted store (atomically)."""

    to_hans = opencc.OpenCC("t2s")
    store = ox.Store.read_only(str(build_dir / "oxigraph"))
    target = build_dir / INDEX_NAME
    tmp = build_dir / f".{INDEX_NAME}.tmp"
    if tmp.exists():
        tmp.unlink()
    db = sqlite3.connect(tmp)
    try:
        db.executescript(SCHEMA)
        syllables: set[str] = set()
        rows = []
        for rite, layer, target_iri, phase, anchor, text, en in _rows(store):
            hans = to_hans.convert(text)
            if len(hans) != len(text):  # keep positions aligned for highlighting
                hans = "".join(to_hans.convert(c) for c in text)
            plain, tones = pinyin_tokens(text)
            syllables.update(p for p in plain if p != "_")
            rows.append(
                (
                    rite,
                    layer,
                    target_iri,
                    phase,
                    anchor,
                    text,
                    hans,
                    " ".join(plain),
                    " ".join(tones),
                    en,
                )
            )
        db.executemany(
            "INSERT INTO docs (rite, layer, target, phase, anchor, text, hans, pinyin, tones, en)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.execute("INSERT INTO cjk (cjk) VALUES ('rebuild')")
        db.execute("INSERT INTO latin (latin) VALUES ('rebuild')")
        db.executemany("INSERT INTO syllables VALUES (?)", [(s,) for s in sorted(syllables)])
        db.execute("INSERT INTO meta VALUES ('rows', ?)", (str(len(rows)),))
        db.commit()
    finally:
        db.close()
    os.replace(tmp, target)
    return target
