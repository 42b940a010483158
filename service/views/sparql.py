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
from dataclasses import dataclass, field, replace
from urllib.parse import urljoin

from flask import Blueprint, Response, current_app, redirect, request, url_for

from yili_kg.loaders.errors import YiliError
from yili_kg.service import lexer
from yili_kg.service.formats import NotAcceptable, format_params, negotiate
from yili_kg.service.store import QueryError, syntax_error
from yili_kg.service.workers import Job

bp = Blueprint("sparql", __name__)

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


#: the words for which :func:`inspect_query` reads the tokens (an update, a dataset clause):
#: a text without any of them outside its comments, in any case, even inside strings and
#: IRIs, is inspected by a few scans in C
#: (the Python tokenizer cost about a millisecond a request on /sparql)
_NEEDS_TOKENS = re.compile(
    r"(?<![\w?$:/#@\\%-])(?:FROM|" + "|".join(sorted(UPDATE_WORDS)) + r")(?![\w-])", re.I
)
_FORM_WORD = re.compile(r"(?<![\w?$:/#@\\%-])(SELECT|ASK|CONSTRUCT|DESCRIBE)(?![\w-])", re.I)


def inspect_query(text: str) -> QueryInfo:
    """What a query asks: its tokens (comments, strings, IRIs skipped); SERVICE, its raw text.

    >>> info = inspect_query('SELECT * FROM <http://ex.org/g> { SERVICE <x:y> { ?s ?p ?o } }')
    >>> info.form, info.service, info.from_graphs
    ('SELECT', True, ['http://ex.org/g'])
    >>> inspect_query('INSERT DATA { <a:b> <c:d> "e" }').update
    True
    >>> inspect_query('PREFIX : <http://ex.org/> ask { ?s :with ?o }').form
    'ASK'
    >>> inspect_query('# a comment\\nselect * { ?s ?p ?o }').form, inspect_query('{ }').form
    ('SELECT', None)
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
    if "\\" not in text and not _NEEDS_TOKENS.search(lexer.without_comments(text)):
        # no word that could start an update or a dataset clause outside comments: only the
        # form is left to find, and a form word in a string errs only towards the engine,
        # which then refuses the text itself (400). Without a backslash (no escapes, where
        # scanners can disagree on where a string starts) the comments are the tokenizer's.
        form = _FORM_WORD.search(text)
        info.form = form.group(1).upper() if form else None
        info.service = bool(_SERVICE_WORD.search(text))
        return info
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

    if request.method == "OPTIONS":
        return Response(status=204)
    query, default_graphs, named_graphs = _params()
    if query is None:
        wanted = negotiate(
            "description", request.headers.get("Accept"), format_params(request.values)
        )
        if wanted.kind == "html":
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
    state = current_app.extensions["yili"]
    known = set(state.graphs)
    for iri in [*info.from_graphs, *info.from_named, *default_graphs, *named_graphs]:
        if iri not in known:
            raise ProtocolError(
                f"graph {iri} is not in this dataset (remote graphs are not "
                "fetched); the graphs are: " + ", ".join(sorted(known))
            )
    # the answer's kind is known from the query's form: its formats alone are negotiated
    kind = "results" if info.form in ("SELECT", "ASK") else "graph"
    try:
        chosen = negotiate(kind, request.headers.get("Accept"), format_params(request.values))
    except NotAcceptable:
        # a text that does not parse is refused as such (400) before its form's formats
        error = syntax_error(query, request.base_url) if info.form != "ASK" else None
        if error:
            raise QueryError(error) from None
        raise
    fmt = chosen.name if kind == "results" else "json"
    graph_fmt = chosen.name if kind == "graph" else "ttl"
    job = Job(
        query,
        fmt,
        graph_fmt,
        limits["MAX_ROWS"],
        tuple(default_graphs),
        tuple(named_graphs),
        base_iri=request.base_url,  # the service's BASE IRI (SPARQL 1.1 Protocol 2.1.3)
    )
    # a request answered before (same text, format, graphs, base, row cap) passed every check
    # above then, and the dataset has not changed: its answer is remembered
    remembered = state.results.get(job) if state.results is not None else None
    if remembered is not None:
        return _response(remembered, chosen.content_type, limits["MAX_ROWS"])
    # the worker need not read the text again for its FROM (it used to tokenize it)
    # a client that hangs up stops its query (waitress sees it: request lookahead)
    gone = request.environ.get("waitress.client_disconnected")
    answer = state.pool.run(
        replace(job, dataset_clause=bool(info.from_graphs or info.from_named)), cancelled=gone
    )
    if state.results is not None:
        state.results.put(job, answer)
    response = _response(answer, chosen.content_type, limits["MAX_ROWS"])
    # how many workers answer from their in-memory store by now (see workers.MemoryLoad)
    counted = getattr(state.pool, "in_memory_count", None)
    if counted is not None:
        in_memory, live = counted()
        response.headers["X-Yili-Workers-In-Memory"] = f"{in_memory}/{live}"
    return response


def _response(answer: tuple[str, bytes, bool], media: str, max_rows) -> Response:
    _, body, truncated = answer
    response = Response(body, content_type=media)
    if truncated:
        response.headers["X-Yili-Truncated"] = f"true; at most {max_rows} rows"
    return response


def service_description() -> Response:
    """The SPARQL 1.1 Service Description of the endpoint (Turtle, or by Accept)."""
    # rdflib (and the IRIs module, which imports it) with the first description asked
    # for: not on the way to the first answered query (cold start)
    from rdflib import RDF, BNode, Graph, Literal, Namespace, URIRef

    from yili_kg.loaders.iris import DATASET

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
    # linked to the dataset's VoID/DCAT description, which names this endpoint
    graph.add((service, URIRef("http://www.w3.org/ns/dcat#servesDataset"), DATASET))
    see_also = URIRef("http://www.w3.org/2000/01/rdf-schema#seeAlso")
    graph.add((service, see_also, URIRef(request.host_url + "void")))
    graph.add(
        (
            service,
            URIRef("http://purl.org/dc/terms/title"),
            Literal("yili-kg SPARQL endpoint", lang="en"),
        )
    )
    chosen = negotiate("graph", request.headers.get("Accept"), format_params(request.values))
    return Response(
        graph.serialize(format=chosen.rdflib or "turtle"), content_type=chosen.content_type
    )
