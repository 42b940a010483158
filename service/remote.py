"""A remote SPARQL endpoint as a store, and pushing the built dataset into a triple store.

:class:`RemoteStore` answers :meth:`query` like the embedded stores (``service/store.py``): the
query goes over the SPARQL 1.1 Protocol (SPARQLWrapper, JSON results for SELECT and ASK,
Turtle for CONSTRUCT and DESCRIBE), its parameters bound by a ``VALUES`` block of RDF terms
(:func:`bind_values`), never pasted in.

The answer holds the terms as the server wrote them. A server may write a value in another
lexical form than the one it was given: Virtuoso lower-cases language tags (``zh-Hant`` comes
back ``zh-hant``), writes ``false``/``true`` as ``0``/``1`` and ``1.50`` as ``1.5``. The terms
are not rewritten here; :meth:`Answer.normalised` already folds the case of language tags
(BCP 47 tags are case-insensitive), and a comparison of stores must compare such literals by
value (``tests/test_virtuoso.py`` does).

:func:`push` uploads each named graph of ``yili_kg.nq`` (推送: push to a triple store) into the
graph of the same name, by the SPARQL 1.1 Graph Store HTTP Protocol (PUT replaces, POST
appends; N-Triples bodies in chunks), or by SPARQL Update ``INSERT DATA`` batches when the
store offers no Graph Store endpoint; then it counts each graph in the store.
"""

from __future__ import annotations

import ast
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, URIRef
from SPARQLWrapper import DIGEST, JSON, POST, TURTLE, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed, SPARQLWrapperException

from yili_kg.loaders.errors import YiliError
from yili_kg.service.formats import written
from yili_kg.service.lexer import tokens
from yili_kg.service.store import Answer, QueryError, Term, _from_rdflib, bind_values

GRAPH_BASE = "https://w3id.org/yili/graph/"
GRAPH_NAMES = ("ontology", "asserted", "inferred", "meta")
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
GSP_CHUNK = 20_000  # triples per Graph Store request (about 4 MB of N-Triples here)
UPDATE_BATCH = 1_000  # triples per INSERT DATA: Virtuoso's SPARQL compiler tires on long texts


class RemoteError(YiliError):
    """The remote store cannot be reached, or answered with an HTTP error (bad gateway)."""

    status = 502


class RemoteUnreachable(RemoteError):
    """No connection, or the connection broke."""


class RemoteAuthError(RemoteError):
    """The store refused the credentials (HTTP 401 or 403)."""


class PushError(YiliError):
    """A push that failed, or whose counts in the store differ from the file's."""


# ----------------------------------------------------------------------------- querying


class RemoteStore:
    """A SPARQL endpoint (e.g. Virtuoso's ``http://127.0.0.1:8890/sparql``) as a store.

    With ``user`` and ``password`` the requests use HTTP digest authentication (Virtuoso's
    ``/sparql-auth``). A server may cap its answers without saying so in the protocol:
    Virtuoso stops at ``ResultSetMaxRows`` (10,000 in its stock ``virtuoso.ini``).
    """

    name = "remote"

    def __init__(
        self,
        endpoint: str,
        user: str | None = None,
        password: str | None = None,
        timeout: float = 120.0,
    ):
        if not endpoint.startswith(("http://", "https://")):
            raise RemoteError(f"{endpoint!r} is not an http(s) URL of a SPARQL endpoint")
        self.endpoint = endpoint
        self.user = user
        self.password = password
        self.timeout = timeout

    def _wrapper(self, sparql: str, return_format: str | None = None):

        wrapper = SPARQLWrapper(self.endpoint)
        with warnings.catch_warnings():
            # SPARQLWrapper warns (and guesses SELECT) on a text it cannot classify; the
            # server then reports the real syntax error, which is the message worth showing.
            warnings.simplefilter("ignore", RuntimeWarning)
            wrapper.setQuery(sparql)
        # SPARQLWrapper's own guess strips only every other line of a block of comments and
        # then takes the first keyword anywhere ("add" in "addressed" made a SELECT an ADD)
        wrapper.queryType = query_form(sparql) or wrapper.queryType
        wrapper.setMethod(POST)  # long queries (VALUES blocks, INSERT DATA) overflow a URL
        wrapper.setTimeout(int(self.timeout))
        if return_format is None:
            select_like = wrapper.queryType in ("SELECT", "ASK")
            return_format = JSON if select_like else TURTLE
        wrapper.setReturnFormat(return_format)
        if self.user is not None:
            wrapper.setHTTPAuth(DIGEST)
            wrapper.setCredentials(self.user, self.password or "")
        return wrapper

    def _run(self, wrapper):
        """The HTTP response to the wrapper's request, errors turned into :class:`YiliError`."""

        try:
            return wrapper.query().response
        except SPARQLWrapperException as exc:
            # SPARQLWrapper read the HTTP error's body but left it open, leaking its socket
            if isinstance(exc.__context__, urllib.error.HTTPError):
                exc.__context__.close()
            detail = _server_text(exc)
            if isinstance(exc, QueryBadFormed):
                raise QueryError(
                    f"{self.endpoint} refused the query: {detail or 'no reason given'}"
                ) from exc
            raise RemoteError(
                f"{self.endpoint}: {exc.msg}" + (f": {detail[:500]}" if detail else "")
            ) from exc
        except urllib.error.HTTPError as exc:
            raise RemoteError(f"{self.endpoint}: HTTP {exc.code} {_body(exc)}") from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RemoteUnreachable(f"{self.endpoint} is unreachable: {reason}") from exc

    def query(
        self,
        sparql: str,
        bindings: dict | None = None,
        limit: int | None = None,
        default_graphs=(),
        named_graphs=(),
    ) -> Answer:
        # the block last, as every store reads it (the canned queries' mark is Oxigraph's)
        wrapper = self._wrapper(bind_values(sparql, bindings, marked=False))
        for iri in default_graphs:
            wrapper.addParameter("default-graph-uri", iri)
        for iri in named_graphs:
            wrapper.addParameter("named-graph-uri", iri)
        response = self._run(wrapper)
        try:
            body = response.read()
        except OSError as exc:
            raise RemoteError(f"{self.endpoint}: the answer was cut off: {exc}") from exc
        finally:
            response.close()
        if wrapper.queryType in ("SELECT", "ASK"):
            answer = _answer_of_json(body, self.endpoint, response.headers.get("Content-Type"))
        else:
            answer = _answer_of_turtle(body, self.endpoint)
        if limit is not None:
            if answer.kind == "select" and len(answer.rows) > limit:
                answer.rows, answer.truncated = answer.rows[:limit], True
            if answer.kind == "graph" and len(answer.triples) > limit:
                answer.triples, answer.truncated = answer.triples[:limit], True
        return answer

    def graphs(self) -> list[str]:
        """Every named graph of the store (a server may hold graphs of its own too)."""
        answer = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return sorted(row["g"].value for row in answer.rows if "g" in row)

    def count(self, graph: str) -> int:
        """The number of triples in one named graph of the store."""
        answer = self.query(
            "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
            {"g": _iri(graph)},
        )
        if not answer.rows or "n" not in answer.rows[0]:
            raise RemoteError(f"{self.endpoint}: no count for graph <{graph}>")
        return int(answer.rows[0]["n"].value)

    def update(self, sparql: str) -> None:
        """Run a SPARQL Update (the endpoint must accept updates: Virtuoso's ``/sparql-auth``)."""
        response = self._run(self._wrapper(sparql))
        try:
            response.read()
        finally:
            response.close()


FORMS = (
    "SELECT", "ASK", "CONSTRUCT", "DESCRIBE",
    "INSERT", "DELETE", "CREATE", "CLEAR", "DROP", "LOAD", "COPY", "MOVE", "ADD", "WITH",
)  # fmt: skip


def query_form(sparql: str) -> str | None:
    """The form of a query or update: its first keyword outside comments, strings and IRIs.

    >>> query_form("# add one\\nPREFIX select: <http://x#>\\nSELECT * { ?s ?p 'ASK' }")
    'SELECT'
    >>> query_form("WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }")
    'DELETE'
    >>> query_form("# nothing") is None
    True
    """
    for token in tokens(sparql):  # the service's one tokenizer (lexer.py)
        word = token.value.upper()
        if token.kind == "word" and word in FORMS and word != "WITH":
            return word
    return None


def _iri(value: str):

    return URIRef(value)


def _term_of_json(cell: dict) -> Term:
    kind = cell.get("type")
    if kind == "typed-literal":  # the 2008 JSON results note, still written by Virtuoso
        kind = "literal"
    if kind == "literal":
        lang = cell.get("xml:lang") or cell.get("lang")
        datatype = None if lang else cell.get("datatype")
        if datatype == XSD_STRING:  # as the embedded stores: a simple literal has no datatype
            datatype = None
        return Term("literal", cell["value"], lang=lang, datatype=datatype)
    if kind in ("uri", "bnode"):
        return Term(kind, cell["value"])
    return Term("triple", json.dumps(cell.get("value"), ensure_ascii=False, sort_keys=True))


def _answer_of_json(body: bytes, endpoint: str, content_type: str | None) -> Answer:
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RemoteError(
            f"{endpoint} did not answer SPARQL JSON results (Content-Type {content_type}): "
            f"{_one_line(body.decode('utf-8', 'replace'))[:200]}"
        ) from exc
    if "boolean" in data:
        return Answer("ask", boolean=bool(data["boolean"]))
    try:
        variables = list(data["head"]["vars"])
        rows = [
            {var: _term_of_json(cell) for var, cell in binding.items()}
            for binding in data["results"]["bindings"]
        ]
    except (KeyError, TypeError, AttributeError) as exc:
        raise RemoteError(f"{endpoint}: malformed SPARQL JSON results ({exc})") from exc
    return Answer("select", variables, rows)


def _answer_of_turtle(body: bytes, endpoint: str) -> Answer:

    graph = Graph()
    try:
        graph.parse(data=body, format="turtle")
    except Exception as exc:  # rdflib raises parser-specific exceptions
        raise RemoteError(f"{endpoint} did not answer Turtle: {_one_line(exc)}") from exc
    triples = [(_from_rdflib(s), _from_rdflib(p), _from_rdflib(o)) for s, p, o in graph]
    return Answer("graph", triples=triples)


def _server_text(exc: Exception) -> str:
    """The server's own text from a SPARQLWrapper exception (it keeps it only in the message)."""
    _, sep, tail = str(exc).partition("Response:\n")
    if not sep:
        return ""
    try:
        raw = ast.literal_eval(tail.strip())
    except (ValueError, SyntaxError):
        return _one_line(tail)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return _one_line(text)


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _body(exc: urllib.error.HTTPError) -> str:
    """The server's text of an HTTP error, read and closed (an open one leaks its socket)."""
    try:
        return _one_line(exc.read().decode("utf-8", "replace"))[:500]
    except OSError:
        return str(exc.reason)
    finally:
        exc.close()


# ----------------------------------------------------------------------------- pushing


@dataclass
class GraphReport:
    graph: str
    in_file: int
    in_store: int = -1
    via: str = ""
    requests: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.in_file == self.in_store


@dataclass
class PushReport:
    endpoint: str
    graphs: list[GraphReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.graphs)

    def render(self) -> str:
        lines = [f"pushed to {self.endpoint}"]
        for g in self.graphs:
            mark = "ok" if g.ok else "DIFFERS"
            lines.append(
                f"  {g.graph}: {g.in_file} triples in the file, {g.in_store} in the store "
                f"({g.via}, {g.requests} requests, {g.seconds:.1f} s) {mark}"
            )
        total_file = sum(g.in_file for g in self.graphs)
        total_store = sum(g.in_store for g in self.graphs)
        lines.append(f"  total: {total_file} in the file, {total_store} in the store")
        return "\n".join(lines)


def gsp_url_for(endpoint: str, authenticated: bool) -> str:
    """Virtuoso's Graph Store endpoint next to its SPARQL endpoint.

    >>> gsp_url_for("http://127.0.0.1:8890/sparql", True)
    'http://127.0.0.1:8890/sparql-graph-crud-auth'
    >>> gsp_url_for("http://127.0.0.1:8890/sparql/", False)
    'http://127.0.0.1:8890/sparql-graph-crud'
    """
    parts = urllib.parse.urlsplit(endpoint)
    base = parts.path.rstrip("/").rsplit("/", 1)[0]
    path = f"{base}/sparql-graph-crud" + ("-auth" if authenticated else "")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def update_url_for(endpoint: str, authenticated: bool) -> str:
    """Where SPARQL Update goes: Virtuoso takes authenticated updates at ``/sparql-auth``.

    >>> update_url_for("http://127.0.0.1:8890/sparql", True)
    'http://127.0.0.1:8890/sparql-auth'
    >>> update_url_for("http://example.org/update", True)
    'http://example.org/update'
    """
    parts = urllib.parse.urlsplit(endpoint)
    path = parts.path.rstrip("/")
    if authenticated and path.endswith("/sparql"):
        path += "-auth"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def read_graphs(dataset: Path, names: Iterable[str]) -> dict[str, list]:
    """The triples of each named graph of the N-Quads file, as pyoxigraph triples (a set each)."""

    wanted = {GRAPH_BASE + name for name in names}
    out: dict[str, set] = {iri: set() for iri in sorted(wanted)}
    for quad in ox.parse(path=str(dataset), format=ox.RdfFormat.N_QUADS):
        graph = quad.graph_name
        if isinstance(graph, ox.NamedNode) and graph.value in wanted:
            out[graph.value].add(ox.Triple(quad.subject, quad.predicate, quad.object))
    return {iri: sorted(triples, key=str) for iri, triples in out.items()}


def chunks(triples: list, size: int) -> list[list]:
    """The triples in chunks of about ``size``; every triple with a blank node in the first.

    Each request is its own document, so a blank node label means a new node in each one:
    triples sharing a blank node must travel together. The dataset's blank nodes are few
    (OWL lists in the ontology), so they all go in one chunk.

    >>> import pyoxigraph as ox
    >>> a, p = ox.NamedNode("http://a"), ox.NamedNode("http://p")
    >>> b = ox.BlankNode("b")
    >>> linked = [ox.Triple(a, p, b), ox.Triple(b, p, ox.Literal("x")), ox.Triple(b, p, a)]
    >>> [len(c) for c in chunks([ox.Triple(a, p, ox.Literal(str(i))) for i in range(5)]
    ...                         + linked, 2)]
    [3, 2, 2, 1]
    >>> [len(c) for c in chunks([ox.Triple(a, p, ox.Literal(str(i))) for i in range(5)], 2)]
    [2, 2, 1]
    """

    def has_bnode(t) -> bool:
        return isinstance(t.subject, ox.BlankNode) or isinstance(t.object, ox.BlankNode)

    bnode_part = [t for t in triples if has_bnode(t)]
    rest = [t for t in triples if not has_bnode(t)]
    out: list[list] = []
    first = bnode_part + rest[: max(0, size - len(bnode_part))]
    if first:
        out.append(first)
    rest = rest[len(first) - len(bnode_part) :]
    out += [rest[i : i + size] for i in range(0, len(rest), size)]
    return out


def _ntriples(triples: list) -> bytes:

    return written(ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES))


class _DigestFirst(urllib.request.HTTPDigestAuthHandler):
    """Digest auth that answers the last challenge up front, on every later request.

    urllib's handler sends each request bare and answers the 401; Virtuoso answers a bare
    upload with 401 before reading its body and closes the connection, so a body of
    megabytes breaks the pipe. Once one small request has fetched a challenge, every
    request carries its answer (the nonce count goes up each time, as RFC 2617 wants).
    """

    def __init__(self, manager):
        super().__init__(manager)
        self.challenge: dict | None = None

    def retry_http_digest_auth(self, req, auth):
        _, challenge = auth.split(" ", 1)
        parsed = urllib.request.parse_http_list(challenge)
        self.challenge = urllib.request.parse_keqv_list([item for item in parsed if item])
        return super().retry_http_digest_auth(req, auth)

    def http_request(self, req):
        if self.challenge and not req.has_header(self.auth_header):
            answer = self.get_authorization(req, self.challenge)
            if answer:
                req.add_unredirected_header(self.auth_header, f"Digest {answer}")
        return req

    https_request = http_request

    def http_error_401(self, req, fp, code, msg, headers):
        # urllib leaves each 401's body, and its socket, open once it has retried
        try:
            answered = super().http_error_401(req, fp, code, msg, headers)
        except urllib.error.HTTPError:
            fp.close()  # the retry failed too (a wrong password): its own error is raised
            raise
        if answered is not None:
            fp.close()
        return answered


class GraphStore:
    """A SPARQL 1.1 Graph Store HTTP Protocol endpoint, with urllib and digest auth."""

    def __init__(self, url: str, user: str | None, password: str | None, timeout: float = 300):
        self.url = url
        self.timeout = timeout
        self.digest: _DigestFirst | None = None
        handlers = []
        if user is not None:
            manager = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            manager.add_password(None, url, user, password or "")
            self.digest = _DigestFirst(manager)
            handlers.append(self.digest)
        self.opener = urllib.request.build_opener(*handlers)
        # Virtuoso's own endpoint names its parameter graph-uri; the protocol says graph
        self.param = "graph-uri" if "sparql-graph-crud" in url else "graph"

    def _handshake(self, graph: str) -> None:
        """A bodiless request, to fetch a digest challenge before sending a large body."""
        if self.digest is None:
            return
        self.digest.challenge = None
        self.digest.reset_retry_count()
        try:
            self._open("HEAD", graph, None)
        except RemoteError:
            pass  # a HEAD the server does not like still brought the challenge, or no harm

    def _open(self, method: str, graph: str, body: bytes | None) -> int:
        target = f"{self.url}?{urllib.parse.urlencode({self.param: graph})}"
        request = urllib.request.Request(target, data=body, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/n-triples; charset=utf-8")
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as exc:
            if method in ("DELETE", "HEAD") and exc.code == 404:
                exc.close()  # an unread error body holds its socket open
                return 404  # no such graph yet
            error = RemoteAuthError if exc.code in (401, 403) else RemoteError
            raise error(f"{self.url}: {method} <{graph}>: HTTP {exc.code} {_body(exc)}") from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RemoteUnreachable(f"{self.url} is unreachable: {reason}") from exc

    def send(self, method: str, graph: str, body: bytes | None) -> int:
        if self.digest is not None and self.digest.challenge is None:
            self._handshake(graph)
        try:
            return self._open(method, graph, body)
        except (RemoteAuthError, RemoteUnreachable):
            if self.digest is None:
                raise
            # the nonce went stale and the server hung up mid-body: a new challenge, once
            self._handshake(graph)
            return self._open(method, graph, body)


def _push_gsp(store: GraphStore, graph: str, triples: list, replace: bool) -> int:
    parts = chunks(triples, GSP_CHUNK)
    if not parts and replace:
        store.send("DELETE", graph, None)
        return 1
    for i, part in enumerate(parts):
        store.send("PUT" if replace and i == 0 else "POST", graph, _ntriples(part))
    return len(parts)


def _push_update(store: RemoteStore, graph: str, triples: list, replace: bool) -> int:
    requests = 0
    if replace:
        store.update(f"CLEAR SILENT GRAPH <{graph}>")
        requests += 1
    for part in chunks(triples, UPDATE_BATCH):
        body = _ntriples(part).decode("utf-8")
        store.update(f"INSERT DATA {{ GRAPH <{graph}> {{\n{body}}} }}")
        requests += 1
    return requests


def push(
    dataset: Path,
    endpoint: str,
    user: str | None = None,
    password: str | None = None,
    graphs: Iterable[str] = GRAPH_NAMES,
    replace: bool = False,
    gsp: str | None = None,
    via: str = "auto",
    progress: Callable[[str], None] | None = None,
) -> PushReport:
    """Upload each named graph of the N-Quads file into the same graph of the store; count.

    Args:
        dataset: the build's ``yili_kg.nq``.
        endpoint: the store's SPARQL (query) endpoint, e.g. ``http://127.0.0.1:8890/sparql``.
        user, password: for HTTP digest authentication (Virtuoso: ``dba``).
        graphs: short names of the graphs to push (``ontology``, ``asserted`` …).
        replace: replace each graph (PUT, or CLEAR then INSERT) instead of adding to it.
        gsp: the Graph Store endpoint (default: Virtuoso's, next to ``endpoint``).
        via: ``gsp``, ``update`` (SPARQL Update INSERT DATA), or ``auto``: the Graph Store,
            then SPARQL Update if the Graph Store protocol fails.

    The counts are checked afterwards: ``report.ok`` is false if any graph of the store holds
    another number of triples than the file.
    """
    if via not in ("auto", "gsp", "update"):
        raise PushError(f"unknown push method {via!r}: choose auto, gsp or update")
    say = progress or (lambda message: None)
    names = list(graphs)
    unknown = [n for n in names if n not in GRAPH_NAMES]
    if unknown:
        raise PushError(f"unknown graph {', '.join(unknown)}: choose {', '.join(GRAPH_NAMES)}")
    reader = RemoteStore(endpoint, user, password)
    reader.query("ASK {}")  # unreachable or not a SPARQL endpoint: say so before reading
    contents = read_graphs(dataset, names)
    authenticated = user is not None
    graph_store = GraphStore(gsp or gsp_url_for(endpoint, authenticated), user, password)
    writer = RemoteStore(update_url_for(endpoint, authenticated), user, password)
    report = PushReport(endpoint)
    method = via
    for iri, triples in contents.items():
        entry = GraphReport(iri, len(triples))
        started = time.perf_counter()
        if method in ("auto", "gsp"):
            try:
                entry.requests = _push_gsp(graph_store, iri, triples, replace)
                entry.via = "graph store"
                method = "gsp"  # it works: keep to it
            except RemoteError as exc:
                if method == "gsp" or isinstance(exc, RemoteAuthError):
                    raise  # refused credentials would be refused by SPARQL Update too
                say(f"the Graph Store protocol failed ({exc}); using SPARQL Update")
                method = "update"
        if method == "update":
            entry.requests = _push_update(writer, iri, triples, replace)
            entry.via = "SPARQL Update"
        entry.seconds = time.perf_counter() - started
        entry.in_store = reader.count(iri)
        say(f"{iri}: {entry.in_file} triples sent, {entry.in_store} in the store")
        report.graphs.append(entry)
    return report
