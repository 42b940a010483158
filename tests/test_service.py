"""The service over HTTP: a real waitress server on loopback, real SPARQLWrapper calls.

The answers are checked against what the text says (主人獻賓 holds, 賓獻主人 does not), and the
endpoint's limits are tripped for real: a runaway query is stopped, an update is refused, a
SERVICE call never leaves the machine.
"""

from __future__ import annotations

import csv
import io
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.dom.minidom

import pytest
from rdflib import Graph
from SPARQLWrapper import CSV, JSON, TURTLE, XML, SPARQLWrapper

PREFIXES = """PREFIX yl: <https://w3id.org/yili/ontology#>
PREFIX role: <https://w3id.org/yili/id/role/>
PREFIX object: <https://w3id.org/yili/id/object/>
"""
# A cross product of the whole graph with itself, three times: never finishes in time.
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def app(build_dir):
    from yili_kg.service.app import create_app

    app = create_app(
        {"BUILD_DIR": str(build_dir), "QUERY_TIMEOUT": 3.0, "MAX_ROWS": 500, "WORKERS": 2}
    )
    yield app
    app.extensions["yili"].pool.close()


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def server(app, serve):
    """The app behind a real waitress server on a free loopback port; its base URL."""
    with serve(app, threads=4) as url:
        yield url


def endpoint(server: str, query: str, fmt) -> SPARQLWrapper:
    client = SPARQLWrapper(server + "/sparql")
    client.setQuery(PREFIXES + query)
    client.setReturnFormat(fmt)
    return client


def http(url: str, data: bytes | None = None, headers: dict | None = None):
    """(status, headers, body) of a request, errors included."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


# ---------------------------------------------------------------- SPARQL over HTTP


def test_host_offers_to_guest_through_sparqlwrapper_json(server):
    holds = endpoint(
        server, "ASK { ?e a yl:Xian ; yl:agent role:zhuren ; yl:recipient role:bin }", JSON
    )
    assert holds.query().convert()["boolean"] is True
    converse = endpoint(
        server, "ASK { ?e a yl:Xian ; yl:agent role:bin ; yl:recipient role:zhuren }", JSON
    )
    assert converse.query().convert()["boolean"] is False


def test_select_in_json_xml_and_csv_agree(server):
    query = """SELECT ?object (COUNT(?e) AS ?n) WHERE {
        ?e a yl:Xian ; yl:theme ?o . BIND(STRAFTER(STR(?o), "/object/") AS ?object)
    } GROUP BY ?object ORDER BY DESC(?n) ?object"""
    as_json = endpoint(server, query, JSON).query().convert()
    rows = [(b["object"]["value"], int(b["n"]["value"])) for b in as_json["results"]["bindings"]]
    assert rows[0][0] == "jue"  # 獻用爵
    as_xml = endpoint(server, query, XML).query().convert()
    assert isinstance(as_xml, xml.dom.minidom.Document)
    values = [node.firstChild.data for node in as_xml.getElementsByTagName("literal")]
    assert values[:2] == [rows[0][0], str(rows[0][1])]
    as_csv = endpoint(server, query, CSV).query().convert().decode("utf-8")
    table = list(csv.reader(io.StringIO(as_csv)))
    assert table[0] == ["object", "n"]
    assert [(r[0], int(r[1])) for r in table[1:]] == rows


def test_construct_in_turtle_parses(server):
    # the host's own description: with four rites his yl:performs links pass the test
    # server's 500-row cap, and a cut answer need not hold the labels
    query = "CONSTRUCT { role:zhuren ?p ?o } WHERE { role:zhuren ?p ?o FILTER(!isIRI(?o)) }"
    body = endpoint(server, query, TURTLE).query().convert()
    graph = Graph().parse(data=body, format="turtle")
    labels = {str(o) for o in graph.objects(None, None) if getattr(o, "language", None)}
    assert "主人" in labels and len(graph) > 5


def test_post_form_and_direct_post_answer_the_same(server):
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?e a yl:Action }"
    form = urllib.parse.urlencode({"query": PREFIXES + query}).encode()
    accept = {"Accept": "application/sparql-results+json"}
    s1, _, b1 = http(
        server + "/sparql", form, {**accept, "Content-Type": "application/x-www-form-urlencoded"}
    )
    s2, _, b2 = http(
        server + "/sparql",
        (PREFIXES + query).encode(),
        {**accept, "Content-Type": "application/sparql-query"},
    )
    assert s1 == s2 == 200
    n = int(json.loads(b1)["results"]["bindings"][0]["n"]["value"])
    assert n >= 500 and json.loads(b1) == json.loads(b2)  # the mini dataset: 542 acts


def test_service_description(server):
    status, headers, body = http(server + "/sparql", headers={"Accept": "text/turtle"})
    assert status == 200
    graph = Graph().parse(data=body, format="turtle")
    sd = "http://www.w3.org/ns/sparql-service-description#"
    assert any(str(p) == sd + "endpoint" for p in graph.predicates())


def test_a_browser_asking_the_endpoint_gets_the_editor(client):
    response = client.get("/sparql", headers={"Accept": "text/html,*/*;q=0.8"})
    assert response.status_code == 302 and response.location.endswith("/editor")
    assert "SPARQL" in client.get("/editor").get_data(as_text=True)


# ---------------------------------------------------------------- limits


def test_runaway_query_is_stopped_and_the_next_one_is_answered(server, app):
    started = time.perf_counter()
    status, _, body = http(server + "/sparql?" + urllib.parse.urlencode({"query": RUNAWAY}))
    elapsed = time.perf_counter() - started
    assert status == 503 and b"time limit" in body
    assert elapsed < 3.0 + 10  # stopped near the limit, not left to run
    assert app.extensions["yili"].pool.killed >= 1
    ok = endpoint(server, "ASK { role:zhuren ?p ?o }", JSON).query().convert()
    assert ok["boolean"] is True


def test_updates_are_refused(server):
    for body in (
        "update=" + urllib.parse.quote("DROP ALL"),
        "query=" + urllib.parse.quote("CLEAR DEFAULT"),
    ):
        status, _, text = http(
            server + "/sparql", body.encode(), {"Content-Type": "application/x-www-form-urlencoded"}
        )
        assert status == 403, text
    still = endpoint(server, "ASK { ?e a yl:Action }", JSON).query().convert()
    assert still["boolean"] is True


def test_service_and_remote_graphs_never_leave_the_machine(server):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(1.0)
    target = f"http://127.0.0.1:{listener.getsockname()[1]}/sparql"
    try:
        for query in (
            f"SELECT * WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }}",
            f"SELECT * FROM <{target}> WHERE {{ ?s ?p ?o }}",
            f"SELECT * WHERE {{ GRAPH <{target}> {{ ?s ?p ?o }} }} LIMIT 1",
        ):
            status, _, body = http(server + "/sparql?" + urllib.parse.urlencode({"query": query}))
            if "GRAPH" in query:  # a graph name that is not there: an empty answer, no fetch
                assert status == 200 and json.loads(body)["results"]["bindings"] == []
            else:
                assert status == 400, body
        with pytest.raises(TimeoutError):
            listener.accept()  # nobody called
    finally:
        listener.close()


def test_rows_are_capped_with_a_header(server):
    status, headers, body = http(
        server + "/sparql?" + urllib.parse.urlencode({"query": "SELECT * WHERE { ?s ?p ?o }"}),
        headers={"Accept": "text/csv"},
    )
    assert status == 200
    assert headers["X-Yili-Truncated"].startswith("true")
    assert len(body.decode("utf-8").strip().splitlines()) == 500 + 1


def test_large_bodies_and_long_queries_are_refused(client, app):
    big = "SELECT * WHERE { ?s ?p ?o } #" + "x" * app.config["MAX_CONTENT_LENGTH"]
    response = client.post("/sparql", data=big, content_type="application/sparql-query")
    assert response.status_code == 413
    long = "SELECT * WHERE { ?s ?p ?o } #" + "x" * app.config["MAX_QUERY_CHARS"]
    assert client.get("/sparql", query_string={"query": long}).status_code == 400


def test_syntax_errors_say_where(client):
    response = client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p "})
    assert response.status_code == 400
    assert "1:" in response.get_data(as_text=True)


def test_busy_workers_give_503(build_dir):
    from yili_kg.service.app import create_app

    app = create_app(
        {"BUILD_DIR": str(build_dir), "QUERY_TIMEOUT": 4.0, "WORKERS": 1, "QUEUE_TIMEOUT": 0.5}
    )
    try:
        client = app.test_client()
        slow = threading.Thread(
            target=client.get, args=("/sparql",), kwargs={"query_string": {"query": RUNAWAY}}
        )
        slow.start()
        time.sleep(0.5)
        response = app.test_client().get("/sparql", query_string={"query": "ASK {}"})
        assert response.status_code == 503 and "busy" in response.get_data(as_text=True)
        slow.join()
    finally:
        app.extensions["yili"].pool.close()


# ---------------------------------------------------------------- canned queries


def test_canned_query_in_json_csv_and_html(client):
    data = client.get("/queries/bows?role=賓&format=json").get_json()
    rows = data["results"]["bindings"]
    to_host = [r for r in rows if r.get("recipient", {}).get("value") == "主人"]
    assert to_host and {r["act"]["value"] for r in to_host} >= {"拜", "答拜"}
    table = client.get("/queries/bows?role=賓", headers={"Accept": "text/csv"})
    assert table.headers["Content-Type"].startswith("text/csv")
    assert table.get_data(as_text=True).splitlines()[0] == "recipient,act,times,places"
    page = client.get("/queries/bows?role=賓", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "拜于何人" in page.get_data(as_text=True)


def test_canned_query_list(client):
    listing = client.get("/queries", headers={"Accept": "application/json"}).get_json()
    assert "bows" in listing and listing["bows"]["params"][0]["name"] == "role"
    assert len(listing) >= 20


@pytest.mark.parametrize(
    "value",
    [
        '賓" } ; DROP ALL ; #',
        "> } UNION { ?s ?p ?o",
        "https://w3id.org/yili/id/role/bin> } UNION { ?s ?p ?o } #",
        "\u0000",
    ],
)
def test_parameters_cannot_change_a_query(client, value):
    response = client.get("/queries/bows", query_string={"role": value, "format": "json"})
    assert response.status_code == 400  # not a role: refused, nothing run


def test_text_parameters_are_bound_as_literals(client):
    hostile = '射" ) } UNION { ?x ?y ?z } #'
    response = client.get("/queries/find-term", query_string={"q": hostile, "format": "json"})
    assert response.status_code == 200
    assert response.get_json()["results"]["bindings"] == []


def test_unknown_query_and_parameter(client):
    assert client.get("/queries/nothing-like-it").status_code == 404
    response = client.get("/queries/bows?colour=red", headers={"Accept": "application/json"})
    assert response.status_code == 400 and "colour" in response.get_json()["message"]


# ---------------------------------------------------------------- pages


def test_entity_page_html_and_turtle(client):
    page = client.get("/id/role/zhuren", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "<h1>主人</h1>" in page.get_data(as_text=True)
    turtle = client.get("/id/role/zhuren", headers={"Accept": "text/turtle"})
    graph = Graph().parse(data=turtle.get_data(as_text=True), format="turtle")
    assert any(str(o) == "州長" or "州長" in str(o) for o in graph.objects()) or len(graph) > 5
    assert client.get("/id/role/no-such-role").status_code == 404


def test_event_page_traces_to_the_text(client):
    page = client.get("/id/xiangshe/phase/05", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "迎賓" in page.get_data(as_text=True)


def test_home_answers_real_questions(client):
    text = client.get("/").get_data(as_text=True)
    assert "鄉射禮" in text and "主人" in text


def test_pictures_are_well_formed_svg(client):
    for url in ("/pictures/network.svg", "/pictures/plan.svg?phase=5"):
        response = client.get(url)
        assert response.status_code == 200
        document = xml.dom.minidom.parseString(response.get_data())
        assert document.documentElement.tagName == "svg"
    network = client.get("/pictures/network.svg").get_data(as_text=True)
    assert "主人" in network and "賓" in network
    assert client.get("/pictures").status_code == 200


def test_downloads_parse(client):
    with client.get("/downloads/ontology.ttl") as response:  # a file: close it
        assert response.status_code == 200
        graph = Graph().parse(data=response.get_data(as_text=True), format="turtle")
    assert len(graph) > 1000
    assert client.get("/downloads/everything.exe").status_code == 404


def test_ontology_page_and_void(client):
    with client.get("/ontology", headers={"Accept": "text/html"}) as response:
        page = response.get_data(as_text=True)
    assert "Xian" in page and "獻" in page
    void = Graph().parse(data=client.get("/void").get_data(as_text=True), format="turtle")
    assert any("void" in str(p) for p in void.predicates())


def test_first_canned_requests_at_once_all_answer(server):
    """The canned queries load on first use; eight requests arriving together must not parse
    beside each other (rdflib's parser is not thread-safe: they garbled each other, 500)."""
    import threading

    from yili_kg.service.queries import _load_queries

    _load_queries.cache_clear()  # as in a fresh server
    names = ["bows", "facing", "counts", "phases", "role-acts", "not-done", "pairs", "repeats"]
    statuses: dict[str, int] = {}

    def ask(name: str) -> None:
        statuses[name] = http(f"{server}/queries/{name}?format=json")[0]

    threads = [threading.Thread(target=ask, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == dict.fromkeys(names, 200)


def test_canned_answers_are_remembered_per_question(store):
    from yili_kg.loaders.errors import BadQueryParameter
    from yili_kg.service.queries import CannedAnswers

    canned = CannedAnswers(store, size=2)
    query, first = canned.answer("bows", {"role": "賓"})
    assert "主人" in {row["recipient"].value for row in first.rows if "recipient" in row}
    _, again = canned.answer("bows", {"role": "賓"})
    assert again is first and (canned.hits, canned.misses) == (1, 1)
    # the default named or left out is the same question
    assert canned.answer("bows", {})[1] is canned.answer("bows", {"role": "主人"})[1]
    body = canned.serialised("bows", {"role": "賓"}, "json")
    assert (
        body == first.serialise("json")
        and canned.serialised("bows", {"role": "賓"}, "json") is body
    )
    canned.answer("bows", {})  # now 賓 is the least recently asked
    canned.answer("counts")  # a third question: the least recent goes
    canned.answer("bows", {"role": "賓"})
    assert canned.misses == 4
    with pytest.raises(BadQueryParameter, match="no parameter colour"):
        canned.answer("bows", {"colour": "red"})
    for _ in range(2):  # a value naming nothing is refused every time, never remembered
        with pytest.raises(BadQueryParameter, match="no role labelled"):
            canned.answer("bows", {"role": "nobody"})


def test_configuration_from_defaults_environment_and_overrides():
    from yili_kg.service.config import DEFAULTS, resolve_config

    environ = {
        "YILI_QUERY_TIMEOUT": "5",  # JSON: the number 5
        "YILI_STORE": "rdflib",  # not JSON: kept as the string
        "YILI_EXTRA_GRAPHS__urn:g": '"data.ttl"',  # __ sets a key of a dict
        "OTHER_QUERY_TIMEOUT": "7",
    }
    config = resolve_config({"WORKERS": 3}, environ=environ)
    assert config["QUERY_TIMEOUT"] == 5 and config["STORE"] == "rdflib"
    assert config["EXTRA_GRAPHS"] == {"urn:g": "data.ttl"}
    assert config["WORKERS"] == 3 and config["MAX_ROWS"] == DEFAULTS["MAX_ROWS"]
    assert DEFAULTS["EXTRA_GRAPHS"] == {}  # the defaults themselves are left alone
    assert resolve_config({"STORE": "oxigraph"}, environ=environ)["STORE"] == "oxigraph"


def test_an_application_that_fails_its_check_closes_the_pool_it_was_given(build_dir, tmp_path):
    # yili-kg serve starts the workers before the dataset's check: a failed check stops them
    from yili_kg.loaders.errors import BuildMissing
    from yili_kg.service.app import create_app
    from yili_kg.service.config import resolve_config, start_pool

    pool = start_pool(resolve_config({"BUILD_DIR": str(build_dir)}))
    for worker in pool.workers:
        worker.wait_ready()
    processes = [worker.process for worker in pool.workers]
    assert len(processes) == 2 and all(p.is_alive() for p in processes)
    with pytest.raises(BuildMissing, match="yili-kg build"):
        create_app({"BUILD_DIR": str(tmp_path / "none")}, pool=pool)
    for process in processes:
        process.join(timeout=10)
    assert not any(p.is_alive() for p in processes)
