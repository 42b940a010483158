"""The SPARQL 1.1 Protocol endpoint: ``/sparql``.

GET with ``query=``, POST form-encoded, POST ``application/sparql-query``; results negotiated
(SPARQL JSON, XML, CSV, TSV; Turtle, N-Triples, JSON-LD, RDF/XML for graphs); a service
description on a GET without a query. Read-only: updates are refused (403). No query makes the
server open a connection: ``SERVICE`` is refused, and ``FROM``/``FROM NAMED``/``default-graph-uri``
may only name graphs the store holds. Queries run in the worker pool, which enforces the time
limit and the concurrency cap; the row cap truncates answers (header ``X-Yili-Truncated``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin

from flask import Blueprint, Response, current_app, redirect, request, url_for

from yili_kg.loaders.errors import YiliError
from yili_kg.service import lexer

bp = Blueprint("sparql", __name__)

SELECT_TYPES = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
GRAPH_TYPES = {
    "text/turtle": "ttl",
    "application/x-turtle": "ttl",
    "application/n-triples": "nt",
    "text/plain": "nt",
    "application/ld+json": "jsonld",
    "application/json": "jsonld",
    "application/rdf+xml": "xml",
    "application/xml": "xml",
}
MEDIA = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv; charset=utf-8",
    "tsv": "text/tab-separated-values; charset=utf-8",
}
GRAPH_MEDIA = {
    "ttl": "text/turtle; charset=utf-8",
    "nt": "application/n-triples",
    "jsonld": "application/ld+json",
    "xml": "application/rdf+xml",
}
UPDATE_WORDS = {
    "INSERT",
    "DELETE",
    "LOAD",
    "CLEAR",
    "DROP",
    "CREATE",
    "ADD",
    "MOVE",
    "COPY",
    "WITH",
}
FORMS = {"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"}


class ProtocolError(YiliError):
    status = 400


class Forbidden(YiliError):
    status = 403


@dataclass
class QueryInfo:
    form: str | None = None
    service: bool = False
    update: bool = False
    from_graphs: list[str] = field(default_factory=list)
    from_named: list[str] = field(default_factory=list)


#: SERVICE as the query parser may read it: anywhere, in any case, even glued to what follows
#: (Oxigraph reads ``SERVICE:x`` and ``SERVICEex:x`` as the keyword), unless a character before
#: it makes it part of a variable, a prefixed name, a path or an IRI, where it cannot be the
#: keyword. Strings and comments are not skipped: a tokenizer can be made to disagree with the
#: parser about where a string or an IRI starts (``FILTER(1<2)SERVICE:x#>``, ``ex:p\'``), and
#: every such disagreement hid a SERVICE call from the token scan.
_SERVICE_WORD = re.compile(r"(?<![\w?$:/#@\\%-])SERVICE", re.I)


def inspect_query(text: str) -> QueryInfo:
    """What a query asks: its tokens (comments, strings, IRIs skipped); SERVICE, its raw text.

    >>> info = inspect_query('SELECT * FROM <http://ex.org/g> { SERVICE <x:y> { ?s ?p ?o } }')
    >>> info.form, info.service, info.from_graphs
    ('SELECT', True, ['http://ex.org/g'])
    >>> inspect_query('INSERT DATA { <a:b> <c:d> "e" }').update
    True
    >>> inspect_query('SELECT ?service { ?service ex:service <http://ex.org/service> }').service
    False
    >>> inspect_query('PREFIX : <http://ex.org/> SELECT * { SERVICE:x { ?s ?p ?o } }').service
    True
    >>> inspect_query("SELECT * { ?s ex:p\\\\' ?o . SERVICE <http://e/> {} FILTER('') }").service
    True
    >>> inspect_query('PREFIX : <http://ex.org/> SELECT * FROM:g { ?s ?p ?o }').from_graphs
    ['http://ex.org/g']
    >>> inspect_query('BASE <http://ex.org/d/> SELECT * FROM <g.ttl> { ?s ?p ?o }').from_graphs
    ['http://ex.org/d/g.ttl']

    The word SERVICE is refused even inside a string literal (``"SERVICE DROP"``): safe rather
    than clever (see ``_SERVICE_WORD``); a query can spell it ``CONCAT("SER", "VICE")``.
    """
    info = QueryInfo()
    prefixes: dict[str, str] = {}
    base = ""
    tokens = [(token.kind, token.value) for token in lexer.tokens(text)]
    info.service = bool(_SERVICE_WORD.search(text))
    for i, (kind, value) in enumerate(tokens):
        if kind != "word":
            continue
        word = value.upper()
        if word == "BASE" and i + 1 < len(tokens) and tokens[i + 1][0] == "iri":
            base = urljoin(base, tokens[i + 1][1][1:-1])
        elif word == "PREFIX" and i + 2 < len(tokens) and tokens[i + 2][0] == "iri":
            prefixes[tokens[i + 1][1].rstrip(":")] = urljoin(base, tokens[i + 2][1][1:-1])
        elif info.form is None and word in FORMS:
            info.form = word
        elif info.form is None and word in UPDATE_WORDS:
            info.update = True
        elif word == "SERVICE":
            info.service = True
        elif word == "FROM" and i + 1 < len(tokens):
            named = tokens[i + 1][1].upper() == "NAMED"
            target = tokens[i + 2] if named and i + 2 < len(tokens) else tokens[i + 1]
            iri = urljoin(base, _expand(target, prefixes))  # relative IRIs: against BASE
            (info.from_named if named else info.from_graphs).append(iri)
    return info


def _expand(token: tuple[str, str], prefixes: dict[str, str]) -> str:
    kind, value = token
    if kind == "iri":
        return value[1:-1]
    prefix, _, local = value.partition(":")
    return prefixes.get(prefix, prefix + ":") + local


def negotiate(accept: str, choices: dict[str, str], default: str) -> str:
    """The first acceptable format, by the order and the q-values of an Accept header."""
    ranked = []
    for position, part in enumerate(accept.split(",")):
        media, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for param in params:
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        ranked.append((-q, position, media.lower()))
    for _, _, media in sorted(ranked):
        if media in choices:
            return choices[media]
        if media in ("*/*", "application/*", "text/*"):
            return default
    return default


def _params() -> tuple[str | None, list[str], list[str]]:
    """The query and the protocol's graph parameters of a GET or POST."""
    values = request.values
    if request.method == "POST":
        content_type = (request.mimetype or "").lower()
        if content_type == "application/sparql-update" or "update" in request.form:
            raise Forbidden("this endpoint is read-only: SPARQL Update is not accepted")
        if content_type == "application/sparql-query":
            return (
                request.get_data(as_text=True),
                request.args.getlist("default-graph-uri"),
                request.args.getlist("named-graph-uri"),
            )
        if content_type not in ("application/x-www-form-urlencoded", "multipart/form-data"):
            # the protocol names the two; a body without a type is not guessed at
            raise ProtocolError(
                f"unsupported content type {content_type or '(none)'!r} for a query POST: "
                "use application/x-www-form-urlencoded or application/sparql-query"
            )
    elif "update" in request.args:
        raise Forbidden("this endpoint is read-only: SPARQL Update is not accepted")
    queries = values.getlist("query")
    if len(queries) > 1:
        raise ProtocolError("more than one query parameter")
    return (
        queries[0] if queries else None,
        values.getlist("default-graph-uri"),
        values.getlist("named-graph-uri"),
    )


@bp.route("/sparql", methods=["GET", "POST", "OPTIONS"])
def sparql():
    from yili_kg.service.workers import Job

    if request.method == "OPTIONS":
        return Response(status=204)
    query, default_graphs, named_graphs = _params()
    if query is None:
        if request.accept_mimetypes.best_match([*GRAPH_TYPES, "text/html"]) == "text/html":
            return redirect(url_for("pages.editor"))  # a browser: the query editor
        return service_description()
    limits = current_app.config
    if len(query) > limits["MAX_QUERY_CHARS"]:
        raise ProtocolError(f"query longer than {limits['MAX_QUERY_CHARS']} characters")
    info = inspect_query(query)
    if info.update and info.form is None:
        raise Forbidden("this endpoint is read-only: SPARQL Update is not accepted")
    if info.form is None:
        raise ProtocolError("not a SPARQL query: no SELECT, ASK, CONSTRUCT or DESCRIBE")
    if info.service:
        raise ProtocolError(
            "SERVICE is not allowed: this endpoint never makes outbound requests (the word is "
            'refused anywhere in the query, strings too: write CONCAT("SER", "VICE") to match it)'
        )
    known = set(current_app.extensions["yili"].graphs)
    for iri in [*info.from_graphs, *info.from_named, *default_graphs, *named_graphs]:
        if iri not in known:
            raise ProtocolError(
                f"graph {iri} is not in this dataset (remote graphs are not "
                "fetched); the graphs are: " + ", ".join(sorted(known))
            )
    accept = request.headers.get("Accept", "*/*")
    fmt = request.args.get("format") or negotiate(accept, SELECT_TYPES, "json")
    graph_fmt = request.args.get("format") or negotiate(accept, GRAPH_TYPES, "ttl")
    if fmt not in MEDIA:
        fmt = "json"
    if graph_fmt not in GRAPH_MEDIA:
        graph_fmt = "ttl"
    job = Job(
        query,
        fmt,
        graph_fmt,
        limits["MAX_ROWS"],
        tuple(default_graphs),
        tuple(named_graphs),
        base_iri=request.base_url,  # the service's BASE IRI (SPARQL 1.1 Protocol 2.1.3)
    )
    kind, body, truncated = current_app.extensions["yili"].pool.run(job)
    media = GRAPH_MEDIA[graph_fmt] if kind == "graph" else MEDIA[fmt]
    response = Response(body, content_type=media)
    if truncated:
        response.headers["X-Yili-Truncated"] = f"true; at most {limits['MAX_ROWS']} rows"
    return response


def service_description() -> Response:
    """The SPARQL 1.1 Service Description of the endpoint (Turtle, or by Accept)."""
    from rdflib import RDF, BNode, Graph, Literal, Namespace, URIRef

    sd = Namespace("http://www.w3.org/ns/sparql-service-description#")
    formats = Namespace("http://www.w3.org/ns/formats/")
    graph = Graph()
    graph.bind("sd", sd)
    service = URIRef(request.base_url)
    graph.add((service, RDF.type, sd.Service))
    graph.add((service, sd.endpoint, service))
    graph.add((service, sd.supportedLanguage, sd.SPARQL11Query))
    for name in (
        "SPARQL_Results_JSON",
        "SPARQL_Results_XML",
        "SPARQL_Results_CSV",
        "SPARQL_Results_TSV",
        "Turtle",
        "N-Triples",
        "JSON-LD",
        "RDF_XML",
    ):
        graph.add((service, sd.resultFormat, formats[name]))
    graph.add((service, sd.feature, sd.UnionDefaultGraph))
    dataset = BNode()
    graph.add((service, sd.defaultDataset, dataset))
    graph.add((dataset, RDF.type, sd.Dataset))
    default = BNode()
    graph.add((dataset, sd.defaultGraph, default))
    graph.add((default, RDF.type, sd.Graph))
    for iri in current_app.extensions["yili"].graphs:
        named = BNode()
        graph.add((dataset, sd.namedGraph, named))
        graph.add((named, sd.name, URIRef(iri)))
    graph.add(
        (
            service,
            URIRef("http://purl.org/dc/terms/title"),
            Literal("yili-kg SPARQL endpoint", lang="en"),
        )
    )
    fmt = negotiate(request.headers.get("Accept", "text/turtle"), GRAPH_TYPES, "ttl")
    rdflib_format = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld", "xml": "xml"}[fmt]
    return Response(graph.serialize(format=rdflib_format), content_type=GRAPH_MEDIA[fmt])
