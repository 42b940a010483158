"""The push to a real triple store: a Virtuoso started here, the dataset pushed, every query run.

A Virtuoso (``virtuoso-t``, Debian package ``virtuoso-opensource``) runs on free loopback ports
with a database in a temporary folder, for this module only. The tests are skipped only when
``virtuoso-t`` is not on PATH (CI installs it: see ``.ci/run``).

Answers are compared with :meth:`Answer.normalised` (language tags case-folded: Virtuoso
lower-cases them, and BCP 47 tags are case-insensitive) and, on top of that, typed literals
compared by value within their datatype's family: Virtuoso writes the boolean ``false`` as
``"0"`` and may write a decimal or an integer in another lexical form. :class:`RemoteStore`
itself reports the server's terms as they come; the folding is done here, in
:func:`comparable`, and only for those datatypes.
"""

from __future__ import annotations

import doctest
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from decimal import Decimal

import pytest
from click.testing import CliRunner

# Virtuoso, given the whole book (every rite): slow; these names mean the full build here.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def build_dir(full_build_dir):
    return full_build_dir


@pytest.fixture(scope="session")
def store(full_store):
    return full_store


@pytest.fixture(scope="session")
def ask(full_ask):
    return full_ask


@pytest.fixture(scope="session")
def dataset(full_dataset):
    return full_dataset


XSD = "http://www.w3.org/2001/XMLSchema#"
INTEGERS = {
    XSD + name
    for name in (
        "integer int long short byte nonNegativeInteger positiveInteger nonPositiveInteger "
        "negativeInteger unsignedLong unsignedInt unsignedShort unsignedByte"
    ).split()
}
DECIMALS = {XSD + "decimal", XSD + "double", XSD + "float"}
TIMINGS: dict[str, float] = {}

INI = """\
[Database]
DatabaseFile       = {db}/virtuoso.db
ErrorLogFile       = {db}/virtuoso.log
LockFile           = {db}/virtuoso.lck
TransactionFile    = {db}/virtuoso.trx
xa_persistent_file = {db}/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = {db}/virtuoso-temp.db
TransactionFile    = {db}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort         = 127.0.0.1:{sql_port}
DisableUnixSocket  = 1
CaseMode           = 2
DirsAllowed        = .
NumberOfBuffers    = 10000
MaxDirtyBuffers    = 6000
CheckpointInterval = 60

[HTTPServer]
ServerPort           = 127.0.0.1:{http_port}
ServerRoot           = {db}/vsp
ServerThreads        = 10
MaxClientConnections = 10
Charset              = UTF-8

[SPARQL]
; the stock 10000 would cut answers short without an error
ResultSetMaxRows           = 1000000
MaxQueryExecutionTime      = 300
MaxQueryCostEstimationTime = 400
"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}?query=ASK%7B%7D", timeout=2) as response:
            return response.status == 200
    except urllib.error.HTTPError as exc:  # up, but not serving SPARQL yet
        exc.close()
        return False
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="module")
def virtuoso(tmp_path_factory):
    """The SPARQL endpoint URL of a Virtuoso started for this module (killed afterwards)."""
    binary = shutil.which("virtuoso-t")
    if binary is None:
        pytest.skip("virtuoso-t is not on PATH (apt-get install virtuoso-opensource)")
    folder = tmp_path_factory.mktemp("virtuoso")
    (folder / "vsp").mkdir()
    http_port, sql_port = _free_port(), _free_port()
    ini = folder / "virtuoso.ini"
    ini.write_text(INI.format(db=folder, sql_port=sql_port, http_port=http_port))
    log = (folder / "stdout.log").open("wb")
    started = time.perf_counter()
    process = subprocess.Popen(
        [binary, "-c", str(ini), "+foreground"],
        cwd=folder,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{http_port}/sparql"
    try:
        deadline = started + 180
        while not _answers(url):
            if process.poll() is not None:
                raise RuntimeError(
                    f"virtuoso-t exited with {process.returncode}: "
                    + (folder / "stdout.log").read_text(errors="replace")[-2000:]
                )
            if time.perf_counter() > deadline:
                raise RuntimeError(f"virtuoso-t did not answer at {url} within 180 s")
            time.sleep(0.5)
        TIMINGS["virtuoso startup"] = time.perf_counter() - started
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def pushed(virtuoso, build_dir):
    """The endpoint, after ``yili-kg push`` of the session's build; and the command's output."""
    from yili_kg.service.cli import main

    started = time.perf_counter()
    result = CliRunner().invoke(
        main,
        [
            "push",
            "--endpoint",
            virtuoso,
            "--user",
            "dba",
            "--password",
            "dba",
            "--replace",
            "--build-dir",
            str(build_dir),
        ],
    )
    TIMINGS["push"] = time.perf_counter() - started
    assert result.exit_code == 0, result.output
    return virtuoso, result.output


@pytest.fixture(scope="module")
def remote(pushed):
    from yili_kg.service.remote import RemoteStore

    return RemoteStore(pushed[0])


def file_counts(build_dir) -> dict[str, int]:
    """Distinct triples per named graph of the built N-Quads file, counted here on their own."""
    import pyoxigraph as ox

    graphs: dict[str, set] = {}
    for quad in ox.parse(path=str(build_dir / "yili_kg.nq"), format=ox.RdfFormat.N_QUADS):
        if isinstance(quad.graph_name, ox.NamedNode):
            triple = (quad.subject, quad.predicate, quad.object)
            graphs.setdefault(quad.graph_name.value, set()).add(triple)
    return {graph: len(triples) for graph, triples in graphs.items()}


def _value(key: tuple) -> tuple:
    """A literal's key compared by value for numbers and booleans; any other key unchanged."""
    if len(key) != 4 or key[0] != "literal":
        return key
    _, lexical, _, datatype = key
    if datatype in INTEGERS:
        return ("integer", Decimal(lexical))
    if datatype in DECIMALS:
        return (datatype, Decimal(lexical))
    if datatype == XSD + "boolean":
        return ("boolean", lexical.strip() in ("true", "1"))
    return key


def comparable(answer) -> object:
    """``answer.normalised()`` with numbers and booleans compared by value (see the module)."""
    normal = answer.normalised()
    if answer.kind == "ask":
        return normal
    return sorted(tuple(_value(key) for key in row) for row in normal)


# ------------------------------------------------------------------------------ tests


def test_remote_module_examples():
    import yili_kg.service.remote as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_push_reports_and_store_holds_what_the_file_holds(pushed, remote, build_dir):
    _, output = pushed
    expected = file_counts(build_dir)
    assert set(expected) == {
        f"https://w3id.org/yili/graph/{name}"
        for name in ("ontology", "asserted", "inferred", "meta")
    }
    for graph, count in expected.items():
        assert f"{graph}: {count} triples in the file, {count} in the store" in output
        assert remote.count(graph) == count, graph
    assert set(expected) <= set(remote.graphs())
    TIMINGS.update({f"triples {g.rsplit('/', 1)[1]}": n for g, n in expected.items()})


def test_every_canned_query_gives_the_same_answer_on_virtuoso(remote, store):
    from yili_kg.service.queries import bindings_for, load_queries

    agreed = []
    for name, query in load_queries().items():
        started = time.perf_counter()
        theirs = remote.query(query.sparql, bindings_for(query, {}, remote))
        seconds = time.perf_counter() - started
        ours = store.query(query.sparql, bindings_for(query, {}, store))
        assert ours.rows or ours.boolean is not None, f"{name}: no answer on Oxigraph"
        assert comparable(theirs) == comparable(ours), name
        agreed.append(f"{name} {len(ours.rows)} rows {seconds * 1000:.0f} ms")
    print("\nVirtuoso and Oxigraph agree on:", "; ".join(agreed))
    print("timings:", {k: round(v, 1) for k, v in TIMINGS.items()})


def test_every_canned_query_example_gives_the_same_answer_on_virtuoso(remote, store):
    from yili_kg.service.queries import bindings_for, load_queries

    for name, query in load_queries().items():
        values = dict(item.split("=", 1) for item in query.example.split("&") if "=" in item)
        theirs = remote.query(query.sparql, bindings_for(query, values, remote))
        ours = store.query(query.sparql, bindings_for(query, values, store))
        assert comparable(theirs) == comparable(ours), f"{name} {values}"


def test_construct_and_ask_on_virtuoso(remote, store):
    from rdflib import URIRef

    from yili_kg.service.queries import service_query

    theirs = remote.query(service_query("void"))
    ours = store.query(service_query("void"))
    assert theirs.kind == "graph" and theirs.triples
    assert comparable(theirs) == comparable(ours)
    role = URIRef("https://w3id.org/yili/ontology#Role")
    guest = URIRef("https://w3id.org/yili/id/role/bin")
    asked = {"x": guest, "class": role}
    assert remote.query(service_query("exists"), asked).boolean is True
    assert store.query(service_query("exists"), asked).boolean is True
    assert remote.query(service_query("exists"), {"x": role, "class": role}).boolean is False


def test_a_parameter_cannot_change_the_query(remote):
    from rdflib import Literal

    hostile = Literal('x" } } DROP GRAPH <https://w3id.org/yili/graph/meta> #')
    answer = remote.query("SELECT ?x WHERE { ?x ?p ?t }", {"t": hostile})
    assert answer.rows == []
    assert remote.count("https://w3id.org/yili/graph/meta") > 0


def test_a_bad_query_is_a_query_error(remote):
    from yili_kg.service.store import QueryError

    with pytest.raises(QueryError, match="refused the query"):
        remote.query("SELECT ?x WHERE { ?x ?p }")


def test_cli_query_on_the_endpoint_prints_the_same_table(pushed, build_dir):
    from yili_kg.service.cli import main

    runner = CliRunner()
    local = runner.invoke(main, ["query", "bows", "-p", "role=賓", "--build-dir", str(build_dir)])
    remote = runner.invoke(main, ["query", "bows", "-p", "role=賓", "--endpoint", pushed[0]])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert "(0 rows)" not in local.output
    assert remote.output == local.output


def test_push_by_sparql_update_and_the_fallback(pushed, remote, build_dir):
    from yili_kg.service.cli import main

    endpoint = pushed[0]
    meta = "https://w3id.org/yili/graph/meta"
    expected = file_counts(build_dir)[meta]
    common = ["push", "--endpoint", endpoint, "--user", "dba", "--password", "dba"]
    common += ["--graph", "meta", "--replace", "--build-dir", str(build_dir)]
    result = CliRunner().invoke(main, [*common, "--via", "update"])
    assert result.exit_code == 0, result.output
    assert "SPARQL Update" in result.output and remote.count(meta) == expected
    # a Graph Store URL that is not one: auto falls back to SPARQL Update and says so
    nowhere = endpoint.rsplit("/", 1)[0] + "/no-graph-store-here"
    result = CliRunner().invoke(main, [*common, "--gsp", nowhere])
    assert result.exit_code == 0, result.output
    assert "using SPARQL Update" in result.output and remote.count(meta) == expected


def test_the_count_check_catches_a_store_that_holds_more(pushed, remote, build_dir):
    """A triple in the store that the file lacks: push (adding) reports it and exits 1."""
    from yili_kg.service.cli import main
    from yili_kg.service.remote import RemoteStore

    endpoint = pushed[0]
    meta = "https://w3id.org/yili/graph/meta"
    expected = file_counts(build_dir)[meta]
    writer = RemoteStore(endpoint + "-auth", "dba", "dba")
    writer.update(f"INSERT DATA {{ GRAPH <{meta}> {{ <urn:x:extra> <urn:x:p> 1 }} }}")
    common = ["push", "--endpoint", endpoint, "--user", "dba", "--password", "dba"]
    common += ["--graph", "meta", "--build-dir", str(build_dir)]
    try:
        result = CliRunner().invoke(main, common)
        assert result.exit_code == 1
        assert f"{expected} triples in the file, {expected + 1} in the store" in result.output
        assert "DIFFERS" in result.output
    finally:
        result = CliRunner().invoke(main, [*common, "--replace"])
    assert result.exit_code == 0 and remote.count(meta) == expected, result.output


def test_wrong_password_is_one_line_and_exit_1(pushed, build_dir):
    from yili_kg.service.cli import main

    result = CliRunner().invoke(
        main,
        ["push", "--endpoint", pushed[0], "--user", "dba", "--password", "not-the-password"]
        + ["--graph", "meta", "--build-dir", str(build_dir)],
    )
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and "401" in lines[0], lines


def test_a_bad_endpoint_is_one_line_and_exit_1():
    """No server needed: nothing listens on the port."""
    from yili_kg.service.cli import main

    url = f"http://127.0.0.1:{_free_port()}/sparql"
    result = CliRunner().invoke(main, ["query", "bows", "-p", "role=賓", "--endpoint", url])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "unreachable" in lines[0] and url in lines[0], lines
