"""The W3C SPARQL 1.1 Protocol tests (``protocol/manifest.ttl``), sent to ``/sparql`` over HTTP.

Each test's requests are read from the manifest (method, path, headers, body and its
character encoding) and sent as written, the manifest's ``/sparql/`` replaced by the
endpoint's path; the answer's status class, format and boolean are checked as the manifest
states them. The test data (``http://kasei.us/2009/09/sparql/data/dataN.rdf``) is served
from the local copies ``dataN.nt`` as extra graphs under those IRIs; ``data0.rdf``, named as a
default graph by tests that need no data, is an empty graph.

The query side must pass as written. The endpoint is read-only, so on the update side
(``update_*``, ``bad_update_*``) the manifest's 2xx expectations do not apply: there each
request must be refused with a 4xx, and the test checks that instead.

Data: tests/data/w3c/protocol/ (see tests/data/w3c/README.md: W3C Test Suite Licence).
"""

from __future__ import annotations

import http.client
import json
import re
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from rdflib import Graph, Namespace
from rdflib.collection import Collection
from rdflib.namespace import RDF, RDFS

HERE = Path(__file__).parent / "data" / "w3c" / "protocol"
BASE = "http://www.w3.org/2009/sparql/docs/tests/data-sparql11/protocol/manifest.ttl"
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = Namespace("http://www.w3.org/2011/http#")
CNT = Namespace("http://www.w3.org/2011/content#")
UT = Namespace("http://www.w3.org/2009/sparql/tests/test-update#")
DATA_IRI = re.compile(r"http://kasei\.us/2009/09/sparql/data/data\d+\.rdf")


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None
    statuses: set[str]  # "2", "3", "4": the status classes that pass
    boolean: bool | None
    form: str | None  # "boolean", "tabular", "RDF"


@dataclass
class ProtocolTest:
    id: str
    name: str
    requests: list[Request] = field(default_factory=list)

    @property
    def update_side(self) -> bool:
        return self.id.startswith(("update_", "bad_update_"))


def read_manifest() -> list[ProtocolTest]:
    graph = Graph().parse(HERE / "manifest.ttl", format="turtle", publicID=BASE)
    manifest = next(graph.subjects(RDF.type, MF.Manifest))
    tests = []
    for entry in Collection(graph, graph.value(manifest, MF.entries)):
        test = ProtocolTest(str(entry).rsplit("#", 1)[1], str(graph.value(entry, MF.name)))
        action = graph.value(entry, MF.action)
        for node in Collection(graph, graph.value(action, HT.requests)):
            headers = {}
            listed = graph.value(node, HT.headers)
            for header in Collection(graph, listed) if listed is not None else ():
                name = str(graph.value(header, HT.fieldName))
                headers[name] = str(graph.value(header, HT.fieldValue))
            body = graph.value(node, HT.body)
            data = None
            if body is not None:
                encoding = str(graph.value(body, CNT.characterEncoding) or "UTF-8")
                data = str(graph.value(body, CNT.chars)).encode(encoding)
            response = graph.value(node, HT.resp)
            statuses = {
                str(s).rsplit("StatusCode", 1)[1][0]
                for s in graph.objects(response, MF.expectedStatus)
            }
            boolean = graph.value(response, MF.expectedBoolean)
            form = graph.value(response, MF.expectedFormat)
            test.requests.append(
                Request(
                    method=str(graph.value(node, HT.methodName)),
                    path=str(graph.value(node, HT.absolutePath)),
                    headers=headers,
                    body=data,
                    statuses=statuses,
                    boolean=None if boolean is None else boolean.toPython(),
                    form=None if form is None else str(form),
                )
            )
        tests.append(test)
    return tests


TESTS = read_manifest()


def data_graphs(tmp_path: Path) -> dict[str, str]:
    """Every data IRI the manifest names → a local file (an empty one where none is given)."""
    graph = Graph().parse(HERE / "manifest.ttl", format="turtle", publicID=BASE)
    files = {
        str(graph.value(node, RDFS.label)): str(HERE / Path(str(graph.value(node, UT.graph))).name)
        for node in graph.objects(None, UT.graphData)
    }
    empty = tmp_path / "empty.nt"
    empty.write_text("")
    named = set(DATA_IRI.findall((HERE / "manifest.ttl").read_text(encoding="utf-8")))
    named |= {
        iri
        for test in TESTS
        for request in test.requests
        for iri in DATA_IRI.findall(urllib.parse.unquote(request.path))
    }
    return {iri: files.get(iri, str(empty)) for iri in sorted(named)}


@pytest.fixture(scope="module")
def endpoint(build_dir, tmp_path_factory, serve_app):
    config = {
        "BUILD_DIR": str(build_dir),
        "EXTRA_GRAPHS": data_graphs(tmp_path_factory.mktemp("protocol")),
        "WORKERS": 1,
    }
    with serve_app(config, threads=2) as base:
        yield base


def send(base: str, request: Request) -> tuple[int, str, bytes]:
    """(status, content type, body) of one request, sent exactly as the manifest writes it.

    http.client rather than urllib: urllib adds a form content type to any POST body, and
    two of the tests are about a POST without one.
    """
    path = request.path.replace("/sparql/", "/sparql", 1)
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=30)
    try:
        connection.request(request.method, path, body=request.body, headers=request.headers)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


def is_update(request: Request) -> bool:
    content_type = request.headers.get("content-type", "")
    return (
        "sparql-update" in content_type
        or (request.body or b"").startswith(b"update=")
        or "update=" in request.path
    )


def boolean_of(content_type: str, body: bytes) -> bool:
    if "json" in content_type:
        return json.loads(body)["boolean"]
    assert "xml" in content_type, content_type
    node = ET.fromstring(body).find("{http://www.w3.org/2005/sparql-results#}boolean")
    return node.text.strip() == "true"


def check_format(form: str, content_type: str, body: bytes) -> None:
    mime = content_type.split(";")[0].strip()
    if form == "boolean":
        assert mime in ("application/sparql-results+xml", "application/sparql-results+json")
    elif form == "tabular":
        assert mime in (
            "application/sparql-results+xml",
            "application/sparql-results+json",
            "text/csv",
            "text/tab-separated-values",
        ), mime
        assert body
    elif form == "RDF":
        formats = {
            "text/turtle": "turtle",
            "application/n-triples": "nt",
            "application/rdf+xml": "xml",
        }
        assert mime in formats, mime
        Graph().parse(data=body, format=formats[mime])  # it is RDF, and it parses
    else:
        raise AssertionError(f"unknown expected format {form!r}")


@pytest.mark.parametrize("test", [pytest.param(t, id=t.id) for t in TESTS if not t.update_side])
def test_query_side(endpoint, test):
    for request in test.requests:
        status, content_type, body = send(endpoint, request)
        assert str(status)[0] in request.statuses, (test.name, status, body[:300])
        if request.form is not None:
            check_format(request.form, content_type, body)
        if request.boolean is not None:
            assert boolean_of(content_type, body) is request.boolean, test.name


@pytest.mark.parametrize("test", [pytest.param(t, id=t.id) for t in TESTS if t.update_side])
def test_update_side_is_refused(endpoint, test):
    """Read-only: every update the suite sends is refused with a 4xx; the queries that follow
    (written to see the update's effect) are still answered."""
    updates = [r for r in test.requests if is_update(r) or r.statuses == {"4"}]
    assert updates, test.name
    for request in test.requests:
        status, _, body = send(endpoint, request)
        if request in updates:
            assert 400 <= status < 500, (test.name, status, body[:300])
        else:
            assert 200 <= status < 300, (test.name, status, body[:300])


def test_the_suite_is_all_there():
    assert len(TESTS) == 34
    assert sum(not t.update_side for t in TESTS) == 21
    # the query tests that name data graphs reach them: a true ASK needs the data
    assert any(r.boolean for t in TESTS for r in t.requests)


def test_the_update_side_changed_nothing(endpoint):
    """After the refused updates, the protocol data is as the files hold it."""
    request = urllib.request.Request(
        endpoint + "/sparql",
        data=urllib.parse.urlencode(
            {"query": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"}
        ).encode(),
        headers={"Accept": "application/sparql-results+json"},
    )
    fields = [
        ("named-graph-uri", f"http://kasei.us/2009/09/sparql/data/data{i}.rdf") for i in (1, 2, 3)
    ]
    request.full_url += "?" + urllib.parse.urlencode(fields)
    with urllib.request.urlopen(request, timeout=30) as response:
        count = int(json.loads(response.read())["results"]["bindings"][0]["n"]["value"])
    assert count == sum(len(Graph().parse(HERE / f"data{i}.nt", format="nt")) for i in (1, 2, 3))
