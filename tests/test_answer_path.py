"""The answer path: the engine's own serialisation, the precomputed canned answers
(``yili-kg answers``) and the endpoint's result cache each give exactly the answers the store
gives (issue 21)."""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest

from yili_kg.loaders.errors import BadQueryParameter


@pytest.fixture(scope="module")
def app(build_dir):
    from yili_kg.service.app import create_app

    app = create_app({"BUILD_DIR": str(build_dir), "WORKERS": 1})
    yield app
    app.extensions["yili"].pool.close()


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def answered(build_dir, tmp_path_factory):
    """A copy of the session's build after ``yili-kg answers`` (the copy: the other tests see
    the build as ``yili-kg build`` leaves it, with no answers written)."""
    import shutil

    from click.testing import CliRunner

    from yili_kg.service.cli import main

    copy = tmp_path_factory.mktemp("answered") / "build"
    shutil.copytree(build_dir, copy, ignore=shutil.ignore_patterns("downloads", ".build.lock"))
    result = CliRunner().invoke(main, ["answers", "--build-dir", str(copy)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("answered ") and str(copy / "answers") in result.output
    return copy


def canned_questions(store):
    """Every canned query with its defaults, bound as the service binds them."""
    from yili_kg.service.queries import bindings_for, load_queries
    from yili_kg.service.store import bind_values

    out = {}
    for name, query in load_queries().items():
        try:
            out[name] = bind_values(query.sparql, bindings_for(query, {}, store))
        except BadQueryParameter:  # a default naming a rite not in this build
            continue
    return out


def test_engine_serialisation_gives_the_same_answers(store):
    """Every canned question: the engine's JSON and XML hold what Answer's hold, row by row."""
    from xml.etree import ElementTree

    questions = canned_questions(store)
    assert len(questions) >= 20
    for name, text in questions.items():
        answer = store.query(text)
        kind, body, truncated = store.serialised(text, "json", "ttl", 10_000)
        assert (kind, truncated) == (answer.kind, False), name
        assert json.loads(body) == json.loads(answer.serialise("json")), name
        _, xml, _ = store.serialised(text, "xml", "ttl", 10_000)
        results = ElementTree.fromstring(xml).iter("{http://www.w3.org/2005/sparql-results#}result")
        assert len(list(results)) == len(answer.rows), name
    # the text says 主人 bows to 賓 (bows, role 主人): the engine's bytes say so too
    rows = json.loads(store.serialised(questions["bows"], "json", "ttl")[1])["results"]
    assert "賓" in {row["recipient"]["value"] for row in rows["bindings"] if "recipient" in row}


@pytest.mark.parametrize("fmt", ["json", "xml", "csv", "tsv"])
def test_engine_answers_are_cut_at_the_row_cap(store, fmt):
    import csv
    import io
    from xml.etree import ElementTree

    def rows(body: bytes) -> int:
        if fmt == "json":
            return len(json.loads(body)["results"]["bindings"])
        if fmt == "xml":
            ns = "{http://www.w3.org/2005/sparql-results#}result"
            return len(list(ElementTree.fromstring(body).iter(ns)))
        return (
            len(
                list(
                    csv.reader(io.StringIO(body.decode()), delimiter="," if fmt == "csv" else "\t")
                )
            )
            - 1
        )

    kind, body, truncated = store.serialised("SELECT * WHERE { ?s ?p ?o }", fmt, "ttl", 250)
    assert kind == "select" and truncated and rows(body) == 250
    _, body, truncated = store.serialised("SELECT * WHERE { ?s ?p ?o } LIMIT 7", fmt, "ttl", 250)
    assert not truncated and rows(body) == 7
    # exactly the cap: whole, not cut
    _, body, truncated = store.serialised("SELECT * WHERE { ?s ?p ?o } LIMIT 250", fmt, "ttl", 250)
    assert not truncated and rows(body) == 250


def test_engine_graphs_are_cut_and_parse(store):
    from rdflib import Graph

    for fmt, rdflib_format in (
        ("ttl", "turtle"),
        ("nt", "nt"),
        ("jsonld", "json-ld"),
        ("xml", "xml"),
    ):
        kind, body, truncated = store.serialised("CONSTRUCT WHERE { ?s ?p ?o }", "json", fmt, 40)
        assert kind == "graph" and truncated
        assert len(Graph().parse(data=body, format=rdflib_format)) == 40, fmt
    _, body, truncated = store.serialised(
        "CONSTRUCT WHERE { <https://w3id.org/yili/id/role/zhuren> ?p ?o }", "json", "nt", 1000
    )
    assert not truncated and b"<https://w3id.org/yili/id/role/zhuren>" in body


def test_the_build_writes_no_answers_and_reaches_not_into_the_service(build_dir):
    """``yili-kg build`` stops at the store (and its pages, the search index): the canned
    answers are the service's, and no module of loaders/ imports service/ (issue 19)."""
    import ast
    from pathlib import Path

    import yili_kg.loaders

    manifest = json.loads((build_dir / "manifest.json").read_text("utf-8"))
    index = build_dir / "answers" / "index.json"  # a kept build folder may hold older ones
    if index.exists():
        assert json.loads(index.read_text("utf-8"))["dataset"] != manifest["dataset"]["sha256"]
    assert "answers" not in manifest["stages"]
    assert {"dataset", "store", "ontology page", "search index"} <= set(manifest["stages"])
    reaching = []
    for path in sorted(Path(yili_kg.loaders.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                names = [base] + [f"{base.rstrip('.')}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(n.startswith(("yili_kg.service", "..service", ".service")) for n in names):
                reaching.append(f"{path.name}:{node.lineno}")
    assert reaching == []


def test_yili_kg_answers_precomputes_every_canned_first_answer(answered, store):
    """Each question ``yili-kg answers`` answered is what the store answers now; the defaults,
    the header examples and every rite of the build are among them."""
    from yili_kg.service.precomputed import questions
    from yili_kg.service.queries import CannedAnswers, load_queries

    index = json.loads((answered / "answers" / "index.json").read_text("utf-8"))
    manifest = json.loads((answered / "manifest.json").read_text("utf-8"))
    assert index["dataset"] == manifest["dataset"]["sha256"]
    names = {json.loads(key)[0] for key in index["questions"]}
    assert set(canned_questions(store)) <= names  # every query its defaults can answer
    for key, (file, rows, _) in index["questions"].items():
        name, given = json.loads(key)
        fresh = CannedAnswers(store).answer(name, dict(given))[1]
        stored = json.loads((answered / "answers" / file).read_bytes())
        assert stored == json.loads(fresh.serialise("json")), key
        assert rows == len(fresh.rows)
    query = load_queries()["bows"]
    assert {"role": "賓"} in questions(query, ["鄉射禮"])  # its header's example
    assert {"rite": "鄉射禮"} in questions(query, ["鄉射禮"])


class NoStore:
    """A store that must not be asked (a precomputed first answer needs none)."""

    def query(self, *args, **kwargs):
        raise AssertionError("the store was asked")


def test_a_first_canned_ask_reads_the_answers_not_the_store(answered, store):
    from yili_kg.service.precomputed import PrecomputedAnswers
    from yili_kg.service.queries import CannedAnswers

    version = json.loads((answered / "manifest.json").read_text("utf-8"))["dataset"]["sha256"]
    canned = CannedAnswers(NoStore(), precomputed=PrecomputedAnswers(answered, version))
    for name in ("bows", "counts", "phases"):
        body = canned.serialised(name, {}, "json")
        expected = CannedAnswers(store).serialised(name, {}, "json")
        assert body == expected, name
    _, answer = canned.answer("bows", {"role": "賓"})  # the example, as an Answer (HTML pages)
    assert "主人" in {row["recipient"].value for row in answer.rows if "recipient" in row}
    assert (
        answer.normalised() == CannedAnswers(store).answer("bows", {"role": "賓"})[1].normalised()
    )
    # another dataset's answers are never used: this one asks the store
    other = CannedAnswers(NoStore(), precomputed=PrecomputedAnswers(answered, "0" * 64))
    with pytest.raises(AssertionError, match="the store was asked"):
        other.serialised("counts", {}, "json")


def test_precomputed_answers_count_in_the_byte_bound(answered):
    """A precomputed answer held (its JSON, and the Answer read back from it) counts in the
    bound on remembered bytes like one the store gave."""
    from yili_kg.service.precomputed import PrecomputedAnswers
    from yili_kg.service.queries import CannedAnswers

    version = json.loads((answered / "manifest.json").read_text("utf-8"))["dataset"]["sha256"]
    index = json.loads((answered / "answers" / "index.json").read_text("utf-8"))
    asked = [(name, dict(given)) for name, given in map(json.loads, index["questions"])]

    unbounded = CannedAnswers(NoStore(), precomputed=PrecomputedAnswers(answered, version))
    for name, given in asked:
        json_only = len(unbounded.serialised(name, given, "json"))
        _, answer = unbounded.answer(name, given)  # read back, as an HTML page needs it
        cost = unbounded._entries[(name, tuple(given.items()))][3]
        # the Answer held counts beside its JSON
        assert cost > json_only if answer.rows or answer.kind == "ask" else cost == json_only
    assert sum(entry[3] for entry in unbounded._entries.values()) == unbounded.bytes
    assert unbounded.misses == len(asked) and len(unbounded._entries) == len(asked)
    costs = sorted(entry[3] for entry in unbounded._entries.values())
    bound = costs[-1] + costs[-2] // 2
    assert bound < unbounded.bytes // 2  # a bound that must drop answers
    canned = CannedAnswers(
        NoStore(), max_bytes=bound, precomputed=PrecomputedAnswers(answered, version)
    )
    for name, given in asked:
        canned.answer(name, given)
        assert canned.bytes <= bound
    assert len(canned._entries) < len(asked)
    assert sum(entry[3] for entry in canned._entries.values()) == canned.bytes


def test_sparql_answers_asked_again_are_remembered(client, app):
    cache = app.extensions["yili"].results
    query = "SELECT ?o WHERE { <https://w3id.org/yili/id/role/zhuren> ?p ?o } ORDER BY ?o"
    url = "/sparql?" + urllib.parse.urlencode({"query": query})
    first = client.get(url, headers={"Accept": "application/sparql-results+json"})
    hits = cache.hits
    again = client.get(url, headers={"Accept": "application/sparql-results+json"})
    assert first.status_code == again.status_code == 200
    assert again.get_data() == first.get_data() and cache.hits == hits + 1
    # another format is another answer, not the remembered one
    csv = client.get(url, headers={"Accept": "text/csv"})
    assert csv.content_type.startswith("text/csv") and cache.hits == hits + 1
    # a refused query is refused every time: nothing was remembered for it
    for _ in range(2):
        refused = client.get(
            "/sparql?"
            + urllib.parse.urlencode(
                {"query": "SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }"}
            )
        )
        assert refused.status_code == 400


def test_workers_answer_from_memory_once_loaded_and_say_the_same(build_dir, store):
    """A worker answers its first query from the persisted store, then loads the dataset into
    an in-memory store and answers from there: every canned question the same, row for row
    (ORDER BY queries in the same order); a pool without the setting never leaves the disk."""
    import time

    from yili_kg.service.workers import Job, QueryPool

    questions = canned_questions(store)
    pool = QueryPool(build_dir, size=1, timeout=30, in_memory=True, memory_mb=2048)
    plain = QueryPool(build_dir, size=1, timeout=30)
    try:
        first = pool.run(Job(questions["counts"], "json", "ttl", 10_000))
        assert pool.in_memory_count() == (0, 1)  # answered from disk; loading begins now
        deadline = time.monotonic() + 60
        while pool.in_memory_count()[0] == 0:
            assert time.monotonic() < deadline, "the worker never answered from memory"
            again = pool.run(Job(questions["counts"], "json", "ttl", 10_000))
            time.sleep(0.05)
        assert again == first
        for name, text in questions.items():
            job = Job(text, "json", "ttl", 10_000)
            (kind, body, cut), (kind_, body_, cut_) = pool.run(job), plain.run(job)
            assert (kind, cut) == (kind_, cut_), name
            rows = json.loads(body)["results"]["bindings"]
            rows_ = json.loads(body_)["results"]["bindings"]
            assert sorted(map(_row_key, rows)) == sorted(map(_row_key, rows_)), name
            # in the order asked for: rows tied on every ORDER BY key may come in any order
            keys = (
                re.findall(r"\?(\w+)", text.rsplit("ORDER BY", 1)[1]) if "ORDER BY" in text else []
            )
            ordered = [[row.get(k) for k in keys] for row in rows]
            assert ordered == [[row.get(k) for k in keys] for row in rows_], name
        assert pool.in_memory_count() == (1, 1) and plain.in_memory_count() == (0, 1)
    finally:
        pool.close()
        plain.close()


def _row_key(row: dict) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False)
