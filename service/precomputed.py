"""Canned answers computed ahead of the first ask (預先答問): the first ask is as fast as the next.

``yili-kg answers`` (after ``yili-kg build``; not a stage of it: the build stops at the store,
and a build of the whole book is not made to wait for some 600 questions) asks every canned
query (``queries/*.rq``) the questions
its pages are most asked — its defaults, its header's example, and every rite of the build
for each parameter of type ``rite`` (a closed set: four rites, seventeen with the whole
儀禮), and, where one of these answers is empty, the same with each text value in the other
script (what its page asks next, see :mod:`~yili_kg.service.forms`) — on the store the build
just persisted, and writes each answer's SPARQL JSON results
to ``build/answers/``, with an index keyed by the dataset's sha256 and each query file's
text. :class:`~yili_kg.service.queries.CannedAnswers` reads an answer from there the first
time a question is asked (a file read, no query), unless the dataset or the query's text is
not the one it was computed on (a new build: the store is asked, and the server remembers its
answer, until ``yili-kg answers`` is run again).

    build/answers/index.json   {"dataset": sha256, "queries": {name: sha256 of its text},
                                "questions": {question: [file, rows, truncated]}}
    build/answers/NNNN.json    the answer, exactly as Answer.serialise("json") writes it
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pyoxigraph as ox

from yili_kg.loaders.built import (
    atomic_write,
    check_dataset,
    check_store,
    dataset_sha256,
    read_manifest,
)
from yili_kg.loaders.errors import BadQueryParameter
from yili_kg.service.queries import bindings_for, load_queries, service_query
from yili_kg.service.store import OxigraphStore

FOLDER = "answers"


def question_key(name: str, values: tuple[tuple[str, str], ...]) -> str:
    """A question (query name, every parameter's value as given) as a string.

    >>> question_key("bows", (("role", "主人"), ("rite", "鄉射禮")))
    '["bows", [["role", "主人"], ["rite", "鄉射禮"]]]'
    """
    return json.dumps([name, [list(v) for v in values]], ensure_ascii=False)


def text_digest(sparql: str) -> str:
    return hashlib.sha256(sparql.encode("utf-8")).hexdigest()[:16]


def questions(query, rites: list[str]) -> list[dict[str, str]]:
    """The parameter values to precompute for a canned query: defaults, its example, each rite."""

    asked: list[dict[str, str]] = [{}]
    if query.example:
        asked.append(dict(parse_qsl(query.example)))
    for param in query.params:
        if param.type == "rite":
            asked += [{param.name: rite} for rite in rites]
    return asked


def asked_questions(queries: dict, rites: list[str]) -> dict[str, tuple]:
    """Every question the build answers ahead (:func:`questions` of each canned query, with
    its parameters' defaults filled in), once each: key → (query, values)."""
    asked: dict[str, tuple] = {}
    for name, query in queries.items():
        for values in questions(query, rites):
            given = tuple((p.name, values.get(p.name, p.default)) for p in query.params)
            asked.setdefault(question_key(name, given), (query, dict(given)))
    return asked


def precompute(build_dir: Path) -> dict:
    """``yili-kg answers``: the built dataset and store checked, under the build folder's lock
    (not while a build writes them), every canned question's answer written; figures."""

    # here, not at the top: the service imports this module at its start, and the build's
    # module imports the whole pipeline (rdflib, pypinyin: a second of the cold start)
    from yili_kg.loaders.build import build_lock

    check_dataset(build_dir)  # BuildMissing: says to run yili-kg build (no folder made)
    with build_lock(build_dir):
        check_dataset(build_dir)  # ChecksumError: says to run yili-kg build
        check_store(build_dir)
        figures = write_answers(build_dir, dataset_sha256(read_manifest(build_dir)) or "")
    return {**figures, "folder": str(build_dir / FOLDER)}


def write_answers(build_dir: Path, dataset_sha: str) -> dict:
    """Run every canned question on the built store and write the answers; figures."""
    from concurrent.futures import ThreadPoolExecutor  # here: the service's start needs none

    started = time.perf_counter()

    # the store the build has just persisted (its manifest is written after this step)
    store = OxigraphStore(ox.Store.read_only(str(build_dir / "oxigraph")))
    rites = sorted(row["label"].value for row in store.query(service_query("rite-labels")).rows)
    folder = build_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    queries = load_queries()
    index: dict = {
        "dataset": dataset_sha,
        "queries": {name: text_digest(query.sparql) for name, query in queries.items()},
        "questions": {},
    }
    asked = asked_questions(queries, rites)

    def answer(item):
        query, given = item
        try:
            bindings = bindings_for(query, given, store)
        except BadQueryParameter:  # a default naming a rite not in this build
            return None
        return store.query(query.sparql, bindings)

    # the engine releases the GIL while it evaluates: a thread a core
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        answers = list(pool.map(answer, asked.values()))
        # an empty answer's page asks again with each other script of its text values
        # (forms.answer_in_forms): those questions are first asks of the page too
        others = _other_forms(asked, answers)
        answers += list(pool.map(answer, others.values()))
    asked.update(others)
    for key, found in zip(asked, answers, strict=True):
        if found is None:
            continue
        file = f"{len(index['questions']):04d}.json"
        body = found.serialise("json")
        atomic_write(folder / file, _writer(body), binary=True)
        index["questions"][key] = [file, len(found.rows), found.truncated]
    atomic_write(
        folder / "index.json",
        lambda h: h.write(json.dumps(index, ensure_ascii=False, indent=0)),
    )
    return {
        "questions": len(index["questions"]),
        "seconds": round(time.perf_counter() - started, 3),
    }


def _other_forms(asked: dict[str, tuple], answers: list) -> dict[str, tuple]:
    """The questions a page of an empty answer asks besides (its text values in the other
    script), not asked already."""
    from yili_kg.service.forms import alternatives  # OpenCC: not on the service's start path

    others: dict[str, tuple] = {}
    for (query, given), found in zip(asked.values(), answers, strict=True):
        if found is None or found.kind != "select" or found.rows:
            continue
        for param in query.params:
            if param.type != "text":
                continue
            for form, _ in alternatives(given[param.name]):
                other = {**given, param.name: form}
                key = question_key(query.name, tuple(other.items()))
                if key not in asked:
                    others.setdefault(key, (query, other))
    return others


class PrecomputedAnswers:
    """The build's answers, for one dataset version; read lazily, one file a question."""

    def __init__(self, build_dir: Path, dataset_sha: str):
        self.folder = Path(build_dir) / FOLDER
        self.dataset_sha = dataset_sha
        self._index: dict | None = None

    def index(self) -> dict:
        if self._index is None:
            try:
                index = json.loads((self.folder / "index.json").read_text("utf-8"))
            except (OSError, ValueError):
                index = {}
            if index.get("dataset") != self.dataset_sha:
                index = {}  # another build's answers: none of them
            self._index = index
        return self._index

    def get(self, query, given: tuple, max_rows: int | None) -> tuple[bytes, int] | None:
        """(JSON results, rows) of a question, if the build computed it on this query's text."""
        index = self.index()
        if not index or index.get("queries", {}).get(query.name) != text_digest(query.sparql):
            return None
        found = index["questions"].get(question_key(query.name, given))
        if found is None:
            return None
        file, rows, truncated = found
        if truncated or (max_rows is not None and rows > max_rows):
            return None  # cut otherwise than this service cuts: ask the store
        try:
            return (self.folder / file).read_bytes(), rows
        except OSError:
            return None


def _writer(data: bytes) -> Callable[[Any], None]:
    """What writes ``data`` to an open binary file."""
    return lambda handle: handle.write(data)
