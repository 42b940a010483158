"""The web's conventions over a real server on loopback: downloads, the ontology, content
negotiation, the dataset's description, caching and transport headers (issue 18).

The server is made as the README makes it: ``yili-kg serve`` from the checkout, whose build
folder is the RELATIVE ``build/`` (here the session's build folder, named relatively from its
parent as working folder).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import urllib.error
import urllib.request
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import RDF, RDFS, Graph, Namespace, URIRef
from rdflib.namespace import DCAT, DCTERMS, VOID

from yili_kg.loaders.publish.dataset import GRAPH_META, GRAPHS
from yili_kg.service.catalog import DOWNLOADS

YL = "https://w3id.org/yili/ontology#"
SPDX = Namespace("http://spdx.org/rdf/terms#")
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
OWL_CLASS = "http://www.w3.org/2002/07/owl#Class"


@pytest.fixture(scope="module")
def server(build_dir, serve_app):
    """The application over the build named by a relative path, from its parent folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(build_dir.parent)
        with serve_app({"BUILD_DIR": build_dir.name, "WORKERS": 1}) as url:
            yield url


def fetch(url: str, headers: dict | None = None, method: str = "GET", data: bytes | None = None):
    """(status, headers, body) of a request; errors are answers too."""
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=data)
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def triples_of(body: bytes, fmt: ox.RdfFormat) -> set:
    """The triples of an RDF answer parsed by Oxigraph (graph names dropped)."""
    return {(q.subject, q.predicate, q.object) for q in ox.parse(body, format=fmt)}


@functools.cache
def expected_triples(build_dir: Path, graph: str) -> frozenset:
    """The triples a download of ``graph`` must hold: its graphs and the description (read
    from the session's dataset file once per graph: the file does not change)."""
    names = list(GRAPHS) if graph == "all" else [graph]
    wanted = {str(GRAPHS[name]) for name in names} | {str(GRAPH_META)}
    return frozenset(
        (q.subject, q.predicate, q.object)
        for q in ox.parse(path=str(build_dir / "yili_kg.nq"), format=ox.RdfFormat.N_QUADS)
        if q.graph_name.value in wanted
    )


def same_graph(got: set, expected: set) -> bool:
    """The same triples: every ground triple, and as many with blank nodes (their labels are
    the writer's: an isomorphism test of 130k triples is not needed to see nothing is lost)."""

    def ground(triples):
        return {t for t in triples if not any(isinstance(x, ox.BlankNode) for x in t)}

    return ground(got) == ground(expected) and len(got) == len(expected)


OX_FORMATS = {
    "nq": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
    "ttl": ox.RdfFormat.TURTLE,
    "nt": ox.RdfFormat.N_TRIPLES,
    "jsonld": ox.RdfFormat.JSON_LD,
    "xml": ox.RdfFormat.RDF_XML,
}


@pytest.mark.slow  # the large exports: the whole dataset in six syntaxes, written and compared
def test_every_download_from_a_relative_build_folder(server, build_dir):
    """Every file of /downloads answers 200 with the whole graph it names (all 500 before:
    Flask resolved the relative build/ against its package folder)."""
    status, _, page = fetch(f"{server}/downloads", {"Accept": "text/html"})
    assert status == 200
    expected = {}
    for graph, fmt in DOWNLOADS:
        assert f"/downloads/{graph}.{fmt}".encode() in page
        status, headers, body = fetch(f"{server}/downloads/{graph}.{fmt}")
        assert status == 200, (graph, fmt, body[:300])
        assert f"yili-kg-{graph}.{fmt}" in headers["Content-Disposition"]
        if graph not in expected:
            expected[graph] = expected_triples(build_dir, graph)
        assert same_graph(triples_of(body, OX_FORMATS[fmt]), expected[graph]), (graph, fmt)


@pytest.mark.parametrize(
    "accept, fmt",
    [
        ("text/turtle", ox.RdfFormat.TURTLE),
        ("application/n-triples", ox.RdfFormat.N_TRIPLES),
        ("application/ld+json", ox.RdfFormat.JSON_LD),
        ("application/rdf+xml", ox.RdfFormat.RDF_XML),
    ],
)
def test_ontology_in_every_format(server, build_dir, accept, fmt):
    status, headers, body = fetch(f"{server}/ontology", {"Accept": accept})
    assert status == 200, body[:300]
    assert headers["Content-Type"].split(";")[0] == accept
    triples = triples_of(body, fmt)
    assert (ox.NamedNode(YL + "Action"), ox.NamedNode(RDF_TYPE), ox.NamedNode(OWL_CLASS)) in triples
    assert same_graph(triples, expected_triples(build_dir, "ontology"))


def test_ontology_documentation_for_a_browser(server):
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    status, headers, body = fetch(f"{server}/ontology", {"Accept": browser})
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'id="Action"' in body  # the documentation of yl:Action


def test_every_class_the_readme_names_has_a_term_page(server):
    """The README's yl: classes resolve at /ontology/term/NAME (it named a yl:Event there is
    not: events are yl:Action)."""
    import re

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    names = sorted(set(re.findall(r"`yl:([A-Z]\w+)`", readme)))
    assert "Action" in names and "Event" not in names
    for name in names:
        status, _, body = fetch(f"{server}/ontology/term/{name}", {"Accept": "text/html"})
        assert status == 200, name


# -- content negotiation: one table, q-values, known format= values only, 406 ---------------

SELECT_ONE = (
    "SELECT ?l WHERE { <https://w3id.org/yili/id/role/bin> "
    "<http://www.w3.org/2000/01/rdf-schema#label> ?l }"
)
CONSTRUCT_ONE = (
    "CONSTRUCT { ?s ?p ?o } WHERE { BIND(<https://w3id.org/yili/id/role/bin> AS ?s) ?s ?p ?o }"
)
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def sparql_get(server, query, accept=None, **params):
    from urllib.parse import urlencode

    headers = {"Accept": accept} if accept else {}
    return fetch(f"{server}/sparql?" + urlencode({"query": query, **params}), headers)


@pytest.mark.parametrize(
    "accept, params, media",
    [
        ("text/csv;q=0.5, application/sparql-results+xml", {}, "application/sparql-results+xml"),
        ("text/csv, text/tab-separated-values;q=0.9", {}, "text/csv"),
        ("application/sparql-results+json;q=0, */*", {}, "application/sparql-results+xml"),
        ("text/csv", {"format": "bogus"}, "text/csv"),  # an unknown format= value is ignored
        ("text/csv", {"format": "tsv"}, "text/tab-separated-values"),  # a known one wins
        (None, {}, "application/sparql-results+json"),
    ],
)
def test_results_negotiated_by_accept_with_q_values(server, accept, params, media):
    status, headers, body = sparql_get(server, SELECT_ONE, accept, **params)
    assert status == 200, body
    assert headers["Content-Type"].split(";")[0] == media
    assert "Accept" in headers["Vary"]
    assert "賓" in body.decode()


@pytest.mark.parametrize(
    "path",
    ["/sparql?query=" + urllib.request.quote(SELECT_ONE), "/queries/bows", "/id/role/bin", "/void"],
)
def test_nothing_acceptable_is_a_406(server, path):
    status, headers, body = fetch(
        server + urllib.request.quote(path, safe="/?=&%"), {"Accept": "image/png"}
    )
    assert status == 406, body
    assert "Accept" in headers["Vary"]


@pytest.mark.parametrize("path", ["/void", "/id/role/bin", "/ontology", "/queries/bows", "/"])
def test_a_browser_gets_html_wherever_html_exists(server, path):
    status, headers, body = fetch(server + urllib.request.quote(path), {"Accept": BROWSER})
    assert status == 200 and headers["Content-Type"].startswith("text/html"), path
    assert b"<html" in body


@pytest.mark.parametrize(
    "return_format, rdf_format",
    [
        ("xml", ox.RdfFormat.RDF_XML),  # SPARQLWrapper's default: format=xml means RDF/XML here
        ("rdf+xml", ox.RdfFormat.RDF_XML),
        ("json-ld", ox.RdfFormat.JSON_LD),
        ("turtle", ox.RdfFormat.TURTLE),
        ("n3", ox.RdfFormat.TURTLE),
    ],
)
def test_sparqlwrapper_get_construct_in_every_return_format(server, return_format, rdf_format):
    """SPARQLWrapper sends format=, output= and results= with its own names (and, for some,
    the media type beside): each is known, so its GET gets the syntax it asked for."""
    from SPARQLWrapper import GET, SPARQLWrapper

    client = SPARQLWrapper(f"{server}/sparql")
    client.setMethod(GET)
    client.setQuery(CONSTRUCT_ONE)
    client.setReturnFormat(return_format)
    response = client.query().response
    body = response.read()
    triples = triples_of(body, rdf_format)
    label = ox.Literal("賓", language="zh-Hant")
    assert any(t[2] == label for t in triples), body[:300]


@pytest.mark.parametrize("return_format", ["json", "xml", "csv", "tsv"])
def test_sparqlwrapper_get_select_in_every_return_format(server, return_format):
    from SPARQLWrapper import GET, SPARQLWrapper

    client = SPARQLWrapper(f"{server}/sparql")
    client.setMethod(GET)
    client.setQuery(SELECT_ONE)
    client.setReturnFormat(return_format)
    result = client.query()
    body = result.response.read()
    assert "賓" in body.decode(), body
    expected = {"json": "json", "xml": "xml", "csv": "csv", "tsv": "tab-separated"}
    assert expected[return_format] in result.response.headers["Content-Type"]


# -- RDF 1.2 triple terms, and errors that are the query's fault ----------------------------

TRIPLE_SELECT = (
    "SELECT ?t WHERE { BIND(TRIPLE(<https://w3id.org/yili/id/role/bin>, "
    '<http://www.w3.org/2000/01/rdf-schema#label>, "賓"@zh-Hant) AS ?t) }'
)
TRIPLE_CONSTRUCT = (
    "CONSTRUCT { <https://w3id.org/yili/id/x> <https://w3id.org/yili/ontology#says> ?t } "
    "WHERE { BIND(TRIPLE(<https://w3id.org/yili/id/role/bin>, "
    '<http://www.w3.org/2000/01/rdf-schema#label>, "賓"@zh-Hant) AS ?t) }'
)
ROLE = "https://w3id.org/yili/id/role/bin"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def test_triple_terms_in_json_results(server):
    status, _, body = sparql_get(server, TRIPLE_SELECT, "application/sparql-results+json")
    assert status == 200
    cell = json.loads(body)["results"]["bindings"][0]["t"]
    assert cell == {
        "type": "triple",
        "value": {
            "subject": {"type": "uri", "value": ROLE},
            "predicate": {"type": "uri", "value": LABEL},
            "object": {"type": "literal", "value": "賓", "xml:lang": "zh-hant"},  # BCP 47 folds
        },
    }


def test_triple_terms_in_xml_results(server):
    import xml.etree.ElementTree as ET

    status, _, body = sparql_get(server, TRIPLE_SELECT, "application/sparql-results+xml")
    assert status == 200
    ns = {"r": "http://www.w3.org/2005/sparql-results#"}
    triple = ET.fromstring(body).find(".//r:binding/r:triple", ns)
    assert triple.find("r:subject/r:uri", ns).text == ROLE
    assert triple.find("r:predicate/r:uri", ns).text == LABEL
    assert triple.find("r:object/r:literal", ns).text == "賓"


def test_triple_terms_in_tsv_results(server):
    status, _, body = sparql_get(server, TRIPLE_SELECT, "text/tab-separated-values")
    assert status == 200
    cell = body.decode().splitlines()[1]
    assert cell.lower() == f'<<( <{ROLE}> <{LABEL}> "賓"@zh-hant )>>'.lower()


def test_triple_terms_in_csv_results(server):
    """SPARQL 1.2 CSV: ``<< s p o >>`` of plain values, a literal object within quotation
    marks, the field quoted by RFC 4180 (the engine's own CSV wrote ``s p 賓``)."""
    status, _, body = sparql_get(server, TRIPLE_SELECT, "text/csv")
    assert status == 200
    assert body.decode().split("\r\n")[1] == f'"<< {ROLE} {LABEL} ""賓"" >>"'
    (cell,) = list(csv.reader(io.StringIO(body.decode())))[1]
    assert cell == f'<< {ROLE} {LABEL} "賓" >>'


@pytest.mark.parametrize(
    "accept, fmt",
    [("text/turtle", ox.RdfFormat.TURTLE), ("application/n-triples", ox.RdfFormat.N_TRIPLES)],
)
def test_triple_terms_in_construct(server, accept, fmt):
    status, _, body = sparql_get(server, TRIPLE_CONSTRUCT, accept)
    assert status == 200, body
    (triple,) = triples_of(body, fmt)
    inner = triple[2]
    assert isinstance(inner, ox.Triple) and inner.subject == ox.NamedNode(ROLE)
    assert inner.object == ox.Literal("賓", language="zh-Hant")


@pytest.mark.parametrize("accept", ["application/ld+json", "application/rdf+xml"])
def test_triple_terms_refused_where_the_syntax_cannot_hold_them(server, accept):
    status, _, body = sparql_get(server, TRIPLE_CONSTRUCT, accept)
    assert status == 400 and b"triple terms" in body


def test_an_unknown_function_is_the_querys_fault(server):
    status, _, body = sparql_get(server, "SELECT (<http://example.org/f>(1) AS ?x) {}")
    assert status == 400 and b"http://example.org/f" in body


# -- VoID and DCAT: generated from the dataset and the serving configuration ----------------

DATA = Path(__file__).parent / "data" / "dcat"
DATASET_IRI = "https://w3id.org/yili/id/dataset"


def served_description(server) -> Graph:
    status, headers, body = fetch(f"{server}/void", {"Accept": "text/turtle"})
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    return Graph().parse(data=body, format="turtle")


def test_void_names_the_endpoint_it_is_served_from(server):
    graph = served_description(server)
    dataset = URIRef(DATASET_IRI)
    assert set(graph.objects(dataset, VOID.sparqlEndpoint)) == {URIRef(f"{server}/sparql")}
    assert (URIRef(f"{server}/sparql"), RDF.type, DCAT.DataService) in graph
    assert (URIRef(f"{server}/sparql"), DCAT.servesDataset, dataset) in graph
    titles = {str(t) for t in graph.objects(dataset, DCTERMS.title)}
    assert any("鄉射禮" in t for t in titles)


def test_void_counts_each_entity_once(server, store):
    """void:entities per class = distinct members in the data graphs (yl:Person was 12 for
    11 persons: a type stated in two graphs was counted twice)."""
    graph = served_description(server)
    said = {
        str(row["class"]): int(row["entities"])
        for row in graph.query((DATA / "void-entities.rq").read_text(encoding="utf-8"))
    }
    counted = {
        row["class"].value: int(row["entities"].value)
        for row in store.query((DATA / "class-entities.rq").read_text(encoding="utf-8")).rows
    }
    assert said == counted
    persons = store.query(
        "SELECT (COUNT(DISTINCT ?p) AS ?n) { ?p a <https://w3id.org/yili/ontology#Person> }"
    ).rows[0]["n"]
    assert said["https://w3id.org/yili/ontology#Person"] == int(persons.value)


def test_dcat_description_conforms_to_dcat3_shapes(server):
    """Every distribution with its download URL, IANA media type, size and SHA-256 (checked
    against the bytes served), licence IRIs, creator, publisher, dates, the DataService:
    validated by pySHACL against shapes written from the DCAT 3 Recommendation."""
    import hashlib

    from pyshacl import validate

    from yili_kg.service.formats import EXPORTS

    bodies = {}
    for graph_name, fmt in DOWNLOADS:  # written once (the first test wrote them already)
        status, _, bodies[graph_name, fmt] = fetch(f"{server}/downloads/{graph_name}.{fmt}")
        assert status == 200
    graph = served_description(server)
    shapes = Graph().parse(DATA / "dcat3-shapes.ttl", format="turtle")
    conforms, _, report = validate(graph, shacl_graph=shapes)
    assert conforms, report
    dataset = URIRef(DATASET_IRI)
    by_url = {
        str(url): node
        for node in graph.objects(dataset, DCAT.distribution)
        for url in graph.objects(node, DCAT.downloadURL)
    }
    for (graph_name, fmt), body in bodies.items():
        node = by_url[f"{server}/downloads/{graph_name}.{fmt}"]
        assert graph.value(node, DCAT.mediaType) == URIRef(
            "http://www.iana.org/assignments/media-types/" + EXPORTS[fmt].media
        )
        assert int(graph.value(node, DCAT.byteSize)) == len(body)
        checksum = graph.value(node, SPDX.checksum)
        assert str(graph.value(checksum, SPDX.checksumValue)) == hashlib.sha256(body).hexdigest()
    licence = URIRef("https://creativecommons.org/licenses/by-sa/4.0/")
    assert graph.value(dataset, DCTERMS.license) == licence


def test_the_service_description_links_the_dataset(server):
    status, _, body = fetch(f"{server}/sparql", {"Accept": "text/turtle"})
    assert status == 200
    graph = Graph().parse(data=body, format="turtle")
    service = URIRef(f"{server}/sparql")
    assert (service, DCAT.servesDataset, URIRef(DATASET_IRI)) in graph
    assert (service, RDFS.seeAlso, URIRef(f"{server}/void")) in graph


# -- caching and transport -------------------------------------------------------------------


def test_etag_from_the_dataset_and_conditional_get(server, build_dir):
    from yili_kg.loaders.built import read_manifest

    version = read_manifest(build_dir)["dataset"]["sha256"]
    url = f"{server}/id/role/bin"
    status, headers, body = fetch(url, {"Accept": "text/turtle"})
    assert status == 200 and body
    etag = headers["ETag"]
    assert version[:16] in etag
    assert "max-age" in headers["Cache-Control"]
    status, again, body = fetch(url, {"Accept": "text/turtle", "If-None-Match": etag})
    assert status == 304 and body == b"" and again["ETag"] == etag
    modified = headers["Last-Modified"]
    status, _, _ = fetch(url, {"Accept": "text/turtle", "If-Modified-Since": modified})
    assert status == 304
    # another representation of the same resource is another entity: no 304 for it
    status, other, _ = fetch(url, {"Accept": "application/n-triples", "If-None-Match": etag})
    assert status == 200 and other["ETag"] != etag


def test_large_answers_gzipped(server):
    import gzip

    # every act of 獻賓 with its parties and places: over the 4 KiB threshold on the mini dataset
    url = f"{server}/queries/phase-acts?format=json"
    status, plain_headers, plain = fetch(url)
    assert status == 200 and "Content-Encoding" not in plain_headers
    assert len(plain) > 4096
    status, headers, body = fetch(url, {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"] and "Accept" in headers["Vary"].split(", ")
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 2


def test_cors_exposes_the_projects_headers(server):
    status, headers, _ = fetch(f"{server}/sparql?query=ASK%7B%7D")
    assert status == 200 and headers["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip() for h in headers["Access-Control-Expose-Headers"].split(",")}
    assert {"X-Yili-Truncated", "Retry-After", "ETag", "Link"} <= exposed


def test_entity_pages_link_their_alternates(server):
    status, headers, _ = fetch(f"{server}/id/role/bin", {"Accept": "text/html"})
    assert status == 200
    links = dict(
        (part.split(";")[2].split('"')[1], part.split(";")[0].strip(" <>"))
        for part in headers["Link"].split(", ")
    )
    assert set(links) == {
        "text/html",
        "text/turtle",
        "application/n-triples",
        "application/ld+json",
        "application/rdf+xml",
    }
    status, turtle_headers, body = fetch(server + links["text/turtle"], {"Accept": "text/html"})
    assert status == 200 and turtle_headers["Content-Type"].startswith("text/turtle")
    assert "賓" in Graph().parse(data=body, format="turtle").serialize(format="nt")


def test_head_and_options(server):
    status, headers, body = fetch(f"{server}/id/role/bin", {"Accept": "text/turtle"}, "HEAD")
    assert status == 200 and body == b"" and headers["Content-Type"].startswith("text/turtle")
    assert headers["ETag"]
    for path in ("/sparql", "/id/role/bin", "/queries/bows"):
        status, headers, _ = fetch(server + path, method="OPTIONS")
        assert status in (200, 204), path
        assert headers["Access-Control-Allow-Origin"] == "*"
        assert "GET" in headers["Access-Control-Allow-Methods"]


def test_no_triple_in_two_graphs(server, build_dir):
    """The union default graph counts each triple once: the graphs' own counts add up to it
    (35 triples were in two graphs: the witnesses' descriptions in asserted and meta, the
    retainer's type in ontology and asserted)."""
    graphs: dict[str, set] = {}
    for line in (build_dir / "yili_kg.nq").read_text(encoding="utf-8").splitlines():
        triple, graph = line[:-2].rsplit(" ", 1)
        graphs.setdefault(triple, set()).add(graph)
    assert [t for t, g in graphs.items() if len(g) > 1] == []
    distinct = sparql_count(server, (DATA / "distinct-triples.rq").read_text(encoding="utf-8"))
    stated = sparql_count(server, (DATA / "stated-triples.rq").read_text(encoding="utf-8"))
    assert distinct == stated == len(graphs) > 50_000  # the mini dataset: 64.7k


def sparql_count(server, query) -> int:
    from urllib.parse import urlencode

    status, _, body = fetch(
        f"{server}/sparql?" + urlencode({"query": query}),
        {"Accept": "application/sparql-results+json"},
    )
    assert status == 200, body
    return int(json.loads(body)["results"]["bindings"][0]["n"]["value"])


# -- exports: the project's prefixes, byte-reproducible; CSV for spreadsheets ----------------


def test_exports_byte_reproducible_in_every_format(build_dir):
    """Each export written twice, by two processes with different hash seeds, is the same bytes
    (JSON-LD was not: rdflib gave its blank nodes new labels on every parse)."""
    import os
    import subprocess
    import sys

    from yili_kg.service.formats import EXPORTS

    def writing(seed: str, fmt: str) -> subprocess.Popen:
        command = [sys.executable, "-m", "yili_kg.service.cli", "export"]
        command += ["--build-dir", str(build_dir), "--format", fmt, "--graph", "ontology"]
        return subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )

    def written(process: subprocess.Popen) -> bytes:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err.decode()[-2000:]
        return out

    for fmt in EXPORTS:  # the two processes of a format run at the same time
        runs = writing("1", fmt), writing("2", fmt)
        first, second = (written(run) for run in runs)
        assert first == second and len(first) > 10_000, fmt


@pytest.mark.parametrize("fmt", ["ttl", "trig"])
def test_exports_use_the_projects_prefixes(build_dir, fmt):
    from yili_kg.service.export import export

    text = export(build_dir / "yili_kg.nq", fmt, "ontology").decode()
    assert "@prefix yl: <https://w3id.org/yili/ontology#>" in text
    assert "ns1:" not in text and "yl:Action" in text


def test_entity_turtle_uses_the_projects_prefixes(server):
    status, _, body = fetch(f"{server}/id/role/bin", {"Accept": "text/turtle"})
    assert status == 200
    text = body.decode()
    assert "@prefix yl: <https://w3id.org/yili/ontology#>" in text and "ns1:" not in text


def test_csv_answer_named_and_with_a_bom_when_asked(server):
    status, headers, body = fetch(f"{server}/queries/bows?format=csv")
    assert status == 200 and not body.startswith(b"\xef\xbb\xbf")
    assert headers["Content-Disposition"] == 'inline; filename="bows.csv"'
    status, headers, with_bom = fetch(f"{server}/queries/bows?format=csv&bom=1")
    assert status == 200 and with_bom == b"\xef\xbb\xbf" + body
    assert "賓" in with_bom.decode("utf-8-sig")


# -- OpenAPI -------------------------------------------------------------------------------


def test_openapi_describes_every_route_and_canned_query(server):
    from openapi_spec_validator import validate

    from yili_kg.service.queries import load_queries

    status, headers, body = fetch(f"{server}/openapi.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    spec = json.loads(body)
    validate(spec)  # raises on an invalid OpenAPI document
    assert spec["servers"] == [{"url": server}]
    paths = spec["paths"]
    for route in ("/sparql", "/id/{path}", "/ontology", "/void", "/downloads/{graph}.{fmt}"):
        assert route in paths, route
    post = paths["/sparql"]["post"]["requestBody"]["content"]
    assert {"application/x-www-form-urlencoded", "application/sparql-query"} <= set(post)
    answers = paths["/sparql"]["get"]["responses"]["200"]["content"]
    assert {"application/sparql-results+json", "text/csv", "text/turtle"} <= set(answers)
    for name, query in load_queries().items():
        operation = paths[f"/queries/{name}"]["get"]
        names = {p["name"] for p in operation["parameters"]}
        assert {p.name for p in query.params} <= names, name
    bows = paths["/queries/bows"]["get"]
    (role,) = [p for p in bows["parameters"] if p["name"] == "role"]
    assert role["schema"]["default"] == load_queries()["bows"].param("role").default == "主人"
    # every operation the document names answers (with its defaults)
    status, _, _ = fetch(f"{server}/queries/bows?role=賓".replace("賓", "%E8%B3%93"))
    assert status == 200


# -- TEI P5 ----------------------------------------------------------------------------------


def test_tei_export_valid_against_tei_all_and_true_to_the_graph(server, build_dir, store):
    """/downloads/tei/xiangshe.xml: valid TEI P5 (tei_all, by jing), a <seg> per clause with
    the graph's id and text, every note pointing at segs, the Kanripo page breaks, every event
    in the stand-off list pointing at its clause's seg; the CLI writes the same bytes."""
    import shutil
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    if shutil.which("jing") is None:
        pytest.skip("Debian's jing is not installed (.ci/run installs it)")
    status, headers, body = fetch(f"{server}/downloads/tei/xiangshe.xml")
    assert status == 200 and headers["Content-Type"].startswith("application/tei+xml")
    path = build_dir.parent / "xiangshe.tei.xml"
    path.write_bytes(body)
    schema = Path(__file__).parent / "data" / "tei" / "tei_all.rng"
    run = subprocess.run(["jing", str(schema), str(path)], capture_output=True, text=True)
    errors = [line for line in run.stdout.splitlines() if "error" in line]
    assert run.returncode == 0 and not errors, errors[:5]

    tei = "{http://www.tei-c.org/ns/1.0}"
    xml_id = "{http://www.w3.org/XML/1998/namespace}id"
    root = ET.fromstring(body)
    segs = {seg.get(xml_id): seg for seg in root.iter(f"{tei}seg")}
    clauses = store.query(
        "SELECT ?c ?t { ?c a <https://w3id.org/yili/ontology#Clause> ; "
        "<https://w3id.org/yili/ontology#text> ?t "
        'FILTER STRSTARTS(STR(?c), "https://w3id.org/yili/id/xiangshe/") }'
    ).rows
    assert len(segs) == len(clauses) > 0  # every clause of the build (1708 in the whole rite)
    for row in clauses:
        seg = segs[row["c"].value[len("https://w3id.org/yili/id/") :].replace("/", "_")]
        assert seg.text == row["t"].value and seg.get("corresp") == row["c"].value
    assert segs["xiangshe_jing_1.2.1"].text == "主人戒賓"
    notes = list(root.iter(f"{tei}note"))
    assert len(notes) > 100
    for note in notes:
        targets = note.get("target").split()
        assert targets and all(t[1:] in segs for t in targets)
    zhu = [n for n in notes if n.get("type") == "Zhu" and "州長也" in n.text]
    assert zhu and "#xiangshe_jing_1.2.1" in zhu[0].get("target").split()
    pages = [pb.get("n") for pb in root.iter(f"{tei}pb")]
    assert pages[0] == "KR1d0028_WYG_005-1a" and len(pages) > 20
    events = list(root.iter(f"{tei}event"))
    assert len(events) > 100  # the mini dataset: 283 (1738 in the whole rite)
    assert all(e.get("corresp")[1:] in segs for e in events)
    first = [e for e in events if e.get("corresp") == "#xiangshe_jing_1.2.1"]
    assert any("主人" in e.find(f"{tei}label").text for e in first)

    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "yili_kg.service.cli",
            "export",
            "--build-dir",
            str(build_dir),
            "--format",
            "tei",
            "--rite",
            "xiangshe",
        ],
        capture_output=True,
        check=True,
    )
    assert cli.stdout == body


# -- independent parsers read every export ---------------------------------------------------

RAPPER = {"nq": "nquads", "trig": "trig", "ttl": "turtle", "nt": "ntriples", "xml": "rdfxml"}
SERDI = {"nq": "nquads", "trig": "trig", "ttl": "turtle", "nt": "ntriples"}


# the whole dataset's downloads (graph "all") are the large exports: with `pytest -m slow`
@pytest.mark.parametrize(
    "graph, fmt",
    [pytest.param(g, f, marks=pytest.mark.slow) if g == "all" else (g, f) for g, f in DOWNLOADS],
)
def test_independent_parsers_read_every_export(server, build_dir, graph, fmt):
    """rapper (Raptor), serdi (Serd), PyLD and pyoxigraph read each download with no warning
    and find every triple (Raptor and Serd: N-Quads, TriG, Turtle, N-Triples, RDF/XML; PyLD:
    JSON-LD)."""
    import os
    import re
    import shutil
    import subprocess

    status, _, body = fetch(f"{server}/downloads/{graph}.{fmt}")
    assert status == 200
    path = build_dir.parent / f"parsers-{graph}.{fmt}"
    path.write_bytes(body)
    expected = len(triples_of(body, OX_FORMATS[fmt]))
    assert expected == len(expected_triples(build_dir, graph))
    if fmt in RAPPER:
        if shutil.which("rapper") is None:
            pytest.skip("Debian's raptor2-utils is not installed (.ci/run installs it)")
        run = subprocess.run(
            ["rapper", "-i", RAPPER[fmt], "-c", str(path)], capture_output=True, text=True
        )
        assert run.returncode == 0 and "warning" not in run.stderr.lower(), run.stderr[-500:]
        assert "error" not in run.stderr.lower(), run.stderr[-500:]
        count = int(re.search(r"returned (\d+) (?:triples|statements)", run.stderr).group(1))
        assert count == expected  # the quad formats: every quad is a different triple
    if fmt in SERDI:
        if shutil.which("serdi") is None:
            pytest.skip("Debian's serdi is not installed (.ci/run installs it)")
        run = subprocess.run(
            ["serdi", "-i", SERDI[fmt], "-o", "ntriples", str(path)], capture_output=True
        )
        assert run.returncode == 0 and run.stderr == b"", run.stderr[-500:]
        assert len(set(run.stdout.splitlines())) == expected
    if fmt == "jsonld" and (graph == "ontology" or os.environ.get("YILI_KG_FULL_EXPORT")):
        from pyld import jsonld  # pure Python: minutes on the whole dataset

        document = json.loads(body)
        quads = jsonld.to_rdf(document, {"format": "application/n-quads"})
        assert len(set(quads.splitlines())) == expected
