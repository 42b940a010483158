"""The stores behind the service: embedded Oxigraph (default), rdflib (reference), remote.

All three answer :meth:`query` with a :class:`Answer`: the kind (``select``, ``ask``, ``graph``)
and rows or triples as plain RDF terms, serialisable to the SPARQL result formats and the RDF
syntaxes the endpoint negotiates. Parameters are bound as RDF terms — Oxigraph's
rdflib's ``initBindings``; for Oxigraph and a remote endpoint a ``VALUES`` block of
terms in their N-Triples form (:func:`bind_values`) — never pasted into the query text.
Oxigraph's own ``substitutions=`` would be the engine's way, but it refuses a variable
that is not in the SELECT projection (pyoxigraph 0.5: 25 of the 28 canned queries bind
one; ``tests/test_store.py`` checks it still does, so the day it does not, it says so).

rdflib's query parser is not thread-safe (rdflib #1282): it parses under a lock.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yili_kg.loaders.errors import BuildMissing, YiliError
from yili_kg.service.formats import written
from yili_kg.service.lexer import (
    has_dataset_clause,
    makes_triple_terms,
    values_mark,
    where_group,
)

# pyoxigraph and rdflib are imported inside the stores that use them: a query worker imports
# this module before it opens its store, and the service's cold start is ≤ 0.5 s.

# rdflib's SPARQL parser (pyparsing) is not thread-safe (rdflib #1282): two threads parsing
# at once garble each other's parse ("Param.postParse2() missing 1 required positional
# argument"). Every prepareQuery in the service takes this lock.
RDFLIB_PARSE_LOCK = threading.Lock()


#: Oxigraph's evaluation errors that are the query's fault (it raises RuntimeError for them)
QUERY_FAULTS = ("The custom function",)


class QueryError(YiliError):
    """A query that does not parse, or that the store refuses (status 400)."""

    status = 400


@dataclass(frozen=True)
class Term:
    """An RDF term as the SPARQL JSON results describe it."""

    type: str  # uri | literal | bnode | triple
    value: str
    lang: str | None = None
    datatype: str | None = None
    parts: tuple | None = None  # an RDF 1.2 triple term: (subject, predicate, object) Terms

    def n3(self) -> str:
        if self.parts is not None:  # N-Triples 1.2 triple term
            return "<<( " + " ".join(t.n3() for t in self.parts) + " )>>"
        if self.type == "uri":
            return f"<{self.value}>"
        if self.type == "bnode":
            return f"_:{self.value}"
        text = json.dumps(self.value, ensure_ascii=False)
        if self.lang:
            return f"{text}@{self.lang}"
        if self.datatype and self.datatype != "http://www.w3.org/2001/XMLSchema#string":
            return f"{text}^^<{self.datatype}>"
        return text

    def key(self) -> tuple:
        """For comparing answers across stores: language tags are case-insensitive (BCP 47)."""
        return (self.type, self.value, (self.lang or "").lower(), self.datatype or "")


@dataclass
class Answer:
    kind: str  # select | ask | graph
    variables: list[str] = field(default_factory=list)
    rows: list[dict[str, Term]] = field(default_factory=list)
    boolean: bool | None = None
    triples: list[tuple[Term, Term, Term]] = field(default_factory=list)
    truncated: bool = False

    def normalised(self) -> object:
        """A store-independent form, for comparing two stores' answers."""
        if self.kind == "ask":
            return self.boolean
        if self.kind == "graph":
            return sorted(tuple(t.key() for t in triple) for triple in self.triples)
        return sorted(
            tuple(r[v].key() if v in r else ("",) for v in self.variables) for r in self.rows
        )

    @classmethod
    def from_json(cls, body: bytes) -> Answer:
        """An answer from its SPARQL JSON results (as :meth:`serialise` writes them)."""
        parsed = json.loads(body)
        if "boolean" in parsed:
            return cls("ask", boolean=bool(parsed["boolean"]))
        rows = [
            {
                var: Term(cell["type"], cell["value"], cell.get("xml:lang"), cell.get("datatype"))
                for var, cell in binding.items()
            }
            for binding in parsed["results"]["bindings"]
        ]
        return cls("select", list(parsed["head"]["vars"]), rows)

    # -- serialisation -------------------------------------------------------------------
    def to_json(self) -> dict:
        if self.kind == "ask":
            return {"head": {}, "boolean": bool(self.boolean)}
        bindings = []
        for row in self.rows:
            out = {}
            for var, term in row.items():
                out[var] = _json_term(term)
            bindings.append(out)
        return {"head": {"vars": self.variables}, "results": {"bindings": bindings}}

    def serialise(self, fmt: str) -> bytes:
        """SPARQL results in ``json``, ``xml``, ``csv`` or ``tsv`` (SELECT and ASK)."""
        if fmt == "json":
            return json.dumps(self.to_json(), ensure_ascii=False).encode()
        if fmt == "xml":
            return _results_xml(self).encode()
        if fmt in ("csv", "tsv"):
            return _results_table(self, fmt).encode()
        raise QueryError(f"unknown result format {fmt!r}")

    def serialise_graph(self, fmt: str) -> bytes:
        """CONSTRUCT/DESCRIBE results in ``ttl``, ``nt``, ``jsonld`` or ``xml``.

        Triple terms (RDF 1.2) are written in N-Triples 1.2, which is Turtle 1.2 too; JSON-LD
        and RDF/XML cannot carry them: a 400 that says so.
        """
        from rdflib import Graph

        if any(t.parts is not None for triple in self.triples for t in triple):
            if fmt not in ("ttl", "nt"):
                raise QueryError(UNWRITABLE_TRIPLE_TERMS)
            lines = (" ".join(t.n3() for t in triple) + " .\n" for triple in self.triples)
            return "".join(lines).encode()

        from yili_kg.service.export import PREFIXES

        graph = Graph(bind_namespaces="none")
        for prefix, namespace in PREFIXES.items():  # yl:, crm: … (rdflib's own: ns1:, ns2:)
            graph.bind(prefix, namespace)
        for triple in self.triples:
            graph.add(tuple(_to_rdflib(t) for t in triple))
        rdflib_format = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld", "xml": "xml"}[fmt]
        return graph.serialize(format=rdflib_format, encoding="utf-8")


def _results_xml(answer: Answer) -> str:
    from xml.sax.saxutils import quoteattr

    out = ['<?xml version="1.0"?>', '<sparql xmlns="http://www.w3.org/2005/sparql-results#">']
    if answer.kind == "ask":
        out.append("<head/>")
        out.append(f"<boolean>{'true' if answer.boolean else 'false'}</boolean></sparql>")
        return "\n".join(out)
    out.append(
        "<head>"
        + "".join(f"<variable name={quoteattr(v)}/>" for v in answer.variables)
        + "</head><results>"
    )
    for row in answer.rows:
        out.append("<result>")
        for var, term in row.items():
            out.append(f"<binding name={quoteattr(var)}>{_xml_term(term)}</binding>")
        out.append("</result>")
    out.append("</results></sparql>")
    return "\n".join(out)


def _xml_term(term: Term) -> str:
    """A term in the SPARQL XML results (a triple term as SPARQL 1.2's <triple>)."""
    from xml.sax.saxutils import escape, quoteattr

    if term.parts is not None:
        s, p, o = (_xml_term(t) for t in term.parts)
        inner = f"<subject>{s}</subject><predicate>{p}</predicate><object>{o}</object>"
        return f"<triple>{inner}</triple>"
    if term.type == "uri":
        return f"<uri>{escape(term.value)}</uri>"
    if term.type == "bnode":
        return f"<bnode>{escape(term.value)}</bnode>"
    attrs = f" xml:lang={quoteattr(term.lang)}" if term.lang else ""
    if term.datatype:
        attrs += f" datatype={quoteattr(term.datatype)}"
    return f"<literal{attrs}>{escape(term.value)}</literal>"


def _json_term(term: Term) -> dict:
    """A term in the SPARQL JSON results (a triple term as SPARQL 1.2's "triple")."""
    if term.parts is not None:
        s, p, o = (_json_term(t) for t in term.parts)
        return {"type": "triple", "value": {"subject": s, "predicate": p, "object": o}}
    cell = {"type": term.type, "value": term.value}
    if term.lang:
        cell["xml:lang"] = term.lang
    if term.datatype:
        cell["datatype"] = term.datatype
    return cell


def _results_table(answer: Answer, fmt: str) -> str:
    buffer = io.StringIO()
    if answer.kind == "ask":
        return (
            ("_askResult\r\n" if fmt == "csv" else "?_askResult\n")
            + ("true" if answer.boolean else "false")
            + ("\r\n" if fmt == "csv" else "\n")
        )
    if fmt == "csv":  # SPARQL 1.2 CSV: plain values, blank nodes as _:label (:func:`_csv_cell`)
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(answer.variables)
        for row in answer.rows:
            writer.writerow([_csv_cell(row.get(v)) for v in answer.variables])
        return buffer.getvalue()
    lines = ["\t".join(f"?{v}" for v in answer.variables)]  # TSV: terms in N-Triples syntax
    for row in answer.rows:
        lines.append(
            "\t".join(
                row[v].n3().replace("\t", "\\t") if v in row else "" for v in answer.variables
            )
        )
    return "\n".join(lines) + "\n"


def _csv_cell(term: Term | None) -> str:
    """A term as a SPARQL 1.2 CSV value, which the CSV writer then quotes as RFC 4180 says.

    A triple term is ``<< subject predicate object >>`` (SPARQL 1.2 Query Results CSV and TSV
    Formats, "Serializing RDF Terms"): its terms as CSV values in turn, a literal object
    always within quotation marks, any other term quoted where it holds ``"``, ``,``, CR or
    LF; the whole field is quoted by the writer, its quotation marks doubled once more:

    >>> s, p = Term("uri", "http://ex/s"), Term("uri", "http://ex/p")
    >>> triple = Term("triple", "", parts=(s, p, Term("literal", "賓, guest", lang="en")))
    >>> print(_csv_cell(triple))
    << http://ex/s http://ex/p "賓, guest" >>
    >>> print(_results_table(Answer("select", ["t"], [{"t": triple}]), "csv").splitlines()[1])
    "<< http://ex/s http://ex/p ""賓, guest"" >>"
    """
    if term is None:
        return ""
    if term.parts is not None:
        subject, predicate, obj = term.parts
        last = _csv_quoted(obj.value) if obj.type == "literal" else _csv_inner(obj)
        return f"<< {_csv_inner(subject)} {_csv_inner(predicate)} {last} >>"
    return f"_:{term.value}" if term.type == "bnode" else term.value


def _csv_inner(term: Term) -> str:
    """A term of a triple term in CSV: quoted as a field would be ("This quoting mechanism is
    applied recursively for terms in quoted triples")."""
    value = _csv_cell(term)
    return _csv_quoted(value) if any(c in value for c in '",\r\n') else value


def _csv_quoted(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


class _EngineFormats(dict):
    """Our format names → pyoxigraph's format objects (pyoxigraph imported on first use)."""

    def __init__(self, kind: str, names: dict[str, str]):
        super().__init__()
        self.kind, self.names = kind, names

    def __missing__(self, fmt: str):
        import pyoxigraph as ox

        if fmt not in self.names:
            raise QueryError(f"unknown {self.kind} format {fmt!r}")
        value = self[fmt] = getattr(getattr(ox, self.kind), self.names[fmt])
        return value


#: a CONSTRUCT answer with RDF 1.2 triple terms asked for in a syntax that cannot hold them
UNWRITABLE_TRIPLE_TERMS = (
    "the answer holds RDF 1.2 triple terms, which JSON-LD and RDF/XML cannot express: ask for "
    "text/turtle or application/n-triples"
)

ENGINE_RESULTS = _EngineFormats(
    "QueryResultsFormat", {"json": "JSON", "xml": "XML", "csv": "CSV", "tsv": "TSV"}
)
ENGINE_GRAPHS = _EngineFormats(
    "RdfFormat", {"ttl": "TURTLE", "nt": "N_TRIPLES", "jsonld": "JSON_LD", "xml": "RDF_XML"}
)


class AnswerTooLarge(Exception):
    """An answer past the byte cap (``MAX_ANSWER_MB``): ``size`` bytes written when it was
    stopped (the whole answer is at least that)."""

    def __init__(self, size: int):
        super().__init__(f"the answer is more than {size} bytes")
        self.size = size


class Unwritable(Exception):
    """An answer the asked format cannot carry (RDF/XML needs a QName for every predicate)."""


class _CappedWriter:
    """Where the engine writes an answer: it stops the writing (raises :class:`Full`) once
    the answer surely holds more than ``limit`` rows, so that a huge answer is not written
    whole to be cut (every triple of the dataset: 10 s to write, for 10000 rows kept), and
    (raises :class:`AnswerTooLarge`) once it holds more than ``max_bytes``, so that an
    answer of few huge rows is not written whole to be refused.
    Rows are counted by their separators, exact in XML and TSV, an upper bound in JSON
    and CSV (a value may hold one)."""

    class Full(Exception):
        pass

    MARKERS = {"xml": b"<result>", "tsv": b"\n", "csv": b"\n", "json": b"},{"}

    def __init__(self, fmt: str, limit: int | None, max_bytes: int = 0):
        self.marker = self.MARKERS[fmt]
        # rows past which the answer is surely cut: a header line in TSV and CSV; the first
        # JSON row has no separator before it
        if limit is None:
            self.stop = float("inf")
        else:
            self.stop = limit + (1 if fmt in ("tsv", "csv") else 0) + (0 if fmt == "json" else 1)
        self.max_bytes = max_bytes
        self.size = 0
        self.chunks: list[bytes] = []
        self.count = 0
        self.tail = b""

    def write(self, data) -> int:
        chunk = bytes(data)
        self.size += len(chunk)
        if self.max_bytes and self.size > self.max_bytes:
            raise AnswerTooLarge(self.size)
        self.chunks.append(chunk)
        self.count += (self.tail + chunk).count(self.marker) - self.tail.count(self.marker)
        self.tail = chunk[-(len(self.marker) - 1) :] if len(self.marker) > 1 else b""
        if self.count > self.stop:
            raise self.Full()
        return len(chunk)

    def flush(self) -> None:
        pass

    def body(self) -> bytes:
        return b"".join(self.chunks)


def cut_results(body: bytes, fmt: str, limit: int) -> tuple[bytes, bool]:
    """SPARQL results (as the engine wrote them) cut to ``limit`` rows; whether it cut.

    Counted in the bytes: cheaply bounded first (an answer that cannot hold more rows is
    returned as it is), exactly only when it may. XML escapes ``<`` in values, so each
    ``<result>`` is a row; TSV writes terms in N-Triples form, one line a row; JSON and CSV
    may hold the separators inside values, so they are parsed when the bound is passed.

    >>> cut_results(b"?x\\n<a:1>\\n<a:2>\\n", "tsv", 1)
    (b'?x\\n<a:1>\\n', True)
    >>> cut_results(b'{"head":{"vars":["x"]},"results":{"bindings":[{},{}]}}', "json", 1)
    (b'{"head":{"vars":["x"]},"results":{"bindings":[{}]}}', True)
    """
    if fmt == "xml":
        marker = b"<result>"
        if body.count(marker) <= limit:
            return body, False
        at = -1
        for _ in range(limit + 1):
            at = body.index(marker, at + 1)
        return body[:at] + b"</results></sparql>", True
    if fmt == "tsv":
        if body.count(b"\n") <= limit + 1:  # the header line, then a line a row
            return body, False
        at = -1
        for _ in range(limit + 1):
            at = body.index(b"\n", at + 1)
        return body[: at + 1], True
    if fmt == "json":
        if body.count(b"},{") + 1 <= limit:  # rows are separated by },{ (values may add more)
            return body, False
        parsed = json.loads(body)
        rows = parsed["results"]["bindings"]
        if len(rows) <= limit:
            return body, False
        parsed["results"]["bindings"] = rows[:limit]
        return json.dumps(parsed, ensure_ascii=False, separators=(",", ":")).encode(), True
    if fmt == "csv":
        if body.count(b"\n") <= limit + 1:
            return body, False
        rows = list(csv.reader(io.StringIO(body.decode("utf-8"), newline="")))
        if len(rows) <= limit + 1:
            return body, False
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerows(rows[: limit + 1])
        return buffer.getvalue().encode(), True
    raise QueryError(f"unknown result format {fmt!r}")


def serialised_answer(
    store, sparql: str, fmt: str, graph_fmt: str, limit=None, max_bytes: int = 0, **options
):
    """(kind, body, truncated) of a query on any store: the engine's writers on Oxigraph,
    :class:`Answer`'s serialisation on the others (rdflib, the reference). An answer past
    ``max_bytes`` (0: no cap) raises :class:`AnswerTooLarge`, one the format cannot carry
    :class:`Unwritable`."""
    if isinstance(store, OxigraphStore):
        return store.serialised(sparql, fmt, graph_fmt, limit, max_bytes=max_bytes, **options)
    options.pop("dataset_clause", None)  # rdflib reads the query's FROM itself
    answer = store.query(sparql, limit=limit, **options)
    if answer.kind == "graph":
        try:
            body = answer.serialise_graph(graph_fmt)
        except Exception as exc:  # RDF/XML cannot name every predicate (no QName)
            raise Unwritable(str(exc)) from exc
    else:
        body = answer.serialise(fmt)
    _check_size(body, max_bytes)
    return answer.kind, body, answer.truncated


def _check_qnames(predicates) -> None:
    """RDF/XML names each predicate by a QName: one that ends in no name (``urn:b:``) cannot
    be written (the engine writes ``<oxprefix:>``, which no XML parser reads; rdflib, the
    reference, refuses it): :class:`Unwritable`, as rdflib splits IRIs."""
    from rdflib.namespace import split_uri

    for iri in predicates:
        try:
            split_uri(iri)
        except ValueError as exc:
            raise Unwritable(f"no QName for the predicate <{iri}>") from exc


def _check_size(body: bytes, max_bytes: int) -> None:
    if max_bytes and len(body) > max_bytes:
        raise AnswerTooLarge(len(body))


# ----------------------------------------------------------------------------- conversions


def _from_oxigraph(term: Any) -> Term:
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return Term("uri", term.value)
    if isinstance(term, ox.BlankNode):
        return Term("bnode", term.value)
    if isinstance(term, ox.Literal):
        datatype: str | None = term.datatype.value if term.datatype else None
        if term.language:
            return Term("literal", term.value, lang=term.language)
        if datatype == "http://www.w3.org/2001/XMLSchema#string":
            datatype = None
        return Term("literal", term.value, datatype=datatype)
    if isinstance(term, ox.Triple):
        parts = (
            _from_oxigraph(term.subject),
            _from_oxigraph(term.predicate),
            _from_oxigraph(term.object),
        )
        return Term("triple", str(term), parts=parts)
    raise QueryError(f"an answer holds a term this service cannot write: {term!r}")


def _to_oxigraph(term: Any) -> Any:
    import pyoxigraph as ox
    from rdflib import BNode, Literal, URIRef

    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        if term.datatype:
            return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
        return ox.Literal(str(term))
    raise QueryError(f"cannot bind {term!r}")


def _from_rdflib(term: Any) -> Term:
    from rdflib import BNode, Literal, URIRef

    if isinstance(term, URIRef):
        return Term("uri", str(term))
    if isinstance(term, BNode):
        return Term("bnode", str(term))
    if isinstance(term, Literal):
        if term.language:
            return Term("literal", str(term), lang=term.language)
        datatype = str(term.datatype) if term.datatype else None
        if datatype == "http://www.w3.org/2001/XMLSchema#string":
            datatype = None
        return Term("literal", str(term), datatype=datatype)
    return Term("literal", str(term))


def _to_rdflib(term: Term) -> Any:
    from rdflib import BNode, Literal, URIRef

    if term.type == "uri":
        return URIRef(term.value)
    if term.type == "bnode":
        return BNode(term.value)
    datatype = URIRef(term.datatype) if term.datatype else None
    return Literal(term.value, lang=term.lang, datatype=datatype)


# ----------------------------------------------------------------------------- bindings


def bind_values(sparql: str, bindings: dict | None, marked: bool = True) -> str:
    """The query with its parameters bound by a ``VALUES`` block in its WHERE group.

    The values are RDF terms written in their N-Triples form (``term.n3()``, which escapes
    them), so a parameter can never change the query's shape. A VALUES block joins with the
    whole group wherever it stands, but Oxigraph plans a group by where it stands: most
    groups far better with it last (a block first made one query 200 times slower), some far
    better with it first (clause-events: 1.9 s last, 1 ms first). So the block closes the
    group, unless the group holds the comment ``# VALUES here`` (:data:`lexer.VALUES_MARK`),
    which each canned query whose answers came faster so carries (bench/README.md). The mark
    is a hint for Oxigraph's planner: ``marked=False`` puts the block last whatever the text
    says, for another store (:mod:`remote`: Virtuoso 7.2's compiler fails on a block first in
    some of these groups, "ssg_print_rvr_fixed_val(): no SPART_VARR_FIXED").

    >>> from rdflib import Literal
    >>> print(bind_values("SELECT ?t WHERE { ?p ?q ?t }", {"t": Literal('x" } DROP', lang="en")}))
    SELECT ?t WHERE { ?p ?q ?t VALUES (?t) { ("x\\" } DROP"@en) } }
    >>> print(bind_values("CONSTRUCT { ?t ?q ?p } WHERE { ?p ?q ?t }", {"t": Literal("a")}))
    CONSTRUCT { ?t ?q ?p } WHERE { ?p ?q ?t VALUES (?t) { ("a") } }
    >>> print(bind_values("SELECT ?t { ?p ?q ?t  # a comment\\n}", {"t": Literal(1)}))
    SELECT ?t { ?p ?q ?t  # a comment
      VALUES (?t) { ("1"^^<http://www.w3.org/2001/XMLSchema#integer>) } }
    >>> marked = "SELECT ?t {\\n  # VALUES here\\n  ?p ?q ?t }"
    >>> print(bind_values(marked, {"t": Literal("a")}))
    SELECT ?t {
      VALUES (?t) { ("a") } # VALUES here
      ?p ?q ?t }
    >>> print(bind_values(marked, {"t": Literal("a")}, marked=False))
    SELECT ?t {
      # VALUES here
      ?p ?q ?t VALUES (?t) { ("a") } }
    """
    if not bindings:
        return sparql
    names = sorted(bindings)
    block = (
        "VALUES ("
        + " ".join(f"?{n}" for n in names)
        + ") { ("
        + " ".join(bindings[n].n3() for n in names)
        + ") }"
    )
    opening, closing = where_group(sparql)
    if closing < 0:
        raise QueryError("the query has no WHERE group to bind its parameters in")
    mark = values_mark(sparql) if marked else -1
    if opening < mark < closing:
        return f"{sparql[:mark]}{block} {sparql[mark:]}"
    body = sparql[:closing].rstrip()
    # a new line when the group's last line may end in a comment, which would swallow it
    gap = "\n  " if "#" in body[body.rfind("\n") + 1 :] else " "
    return f"{body}{gap}{block} {sparql[closing:]}"


# ----------------------------------------------------------------------------- stores


def syntax_error(sparql: str, base_iri: str | None = None) -> str | None:
    """The engine's parse error of a query, or None: asked of an empty in-memory store.

    For the one answer that is decided before a worker runs the query (406, nothing
    acceptable for its form): a query that does not parse is the client's fault first, 400
    (W3C negative syntax tests). SELECT, CONSTRUCT and DESCRIBE are evaluated lazily, so
    only the parse runs; ASK is evaluated at once, and is not asked here.

    >>> syntax_error("CONSTRUCT WHERE { ?s ?p ?o FILTER(?o) }")[:20]
    'SPARQL syntax error:'
    >>> syntax_error("CONSTRUCT WHERE { ?s ?p ?o }") is None
    True
    """
    import pyoxigraph as ox

    try:
        ox.Store().query(sparql, base_iri=base_iri)
    except SyntaxError as exc:
        return f"SPARQL syntax error: {exc}"
    return None


class OxigraphStore:
    """Embedded Oxigraph: the build's persisted store opened read-only, or the N-Quads loaded."""

    name = "oxigraph"

    def __init__(self, store: Any, path: Path | None = None, triple_terms: bool = True):
        """``triple_terms``: whether the data may hold RDF 1.2 triple terms (then every CSV
        answer is written by :class:`Answer`, not the engine: :meth:`serialised`). The
        build's dataset holds none (the loaders make none; ``tests/test_store.py`` checks)."""
        self.store = store
        self.path = path
        self.triple_terms = triple_terms

    @classmethod
    def open(cls, build_dir: Path, verified: bool = False) -> OxigraphStore:
        """``verified``: the caller has just checked the dataset's checksum (skip a re-read)."""
        import pyoxigraph as ox

        from yili_kg.loaders.built import (
            DATASET_NAME,
            check_dataset,
            check_store,
            dataset_sha256,
            read_manifest,
        )

        dataset = build_dir / DATASET_NAME if verified else check_dataset(build_dir)
        if not verified:
            check_store(build_dir)
        persisted = build_dir / "oxigraph"
        if (
            persisted.exists()
            and (persisted / "BUILD").exists()
            and ((persisted / "BUILD").read_text() == dataset_sha256(read_manifest(build_dir)))
        ):
            try:
                return cls(ox.Store.read_only(str(persisted)), dataset, triple_terms=False)
            except Exception:  # noqa: BLE001 (RocksDB's errors on a damaged store vary)
                pass  # fall back to loading the dataset file, which was checked
        store = ox.Store()
        store.bulk_load(path=str(dataset), format=ox.RdfFormat.N_QUADS)
        return cls(store, dataset, triple_terms=False)

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self.store.named_graphs())

    def _run(self, sparql, bindings, default_graphs, named_graphs, base_iri, dataset_clause=None):
        """The engine's own result object for the query (solutions, boolean or triples)."""
        import pyoxigraph as ox

        options: dict = {}
        if base_iri:
            options["base_iri"] = base_iri  # relative IRIs resolve against it (BASE wins)
        if default_graphs or named_graphs:
            # the protocol's dataset is exactly the graphs it names (SPARQL 1.1 Protocol
            # 2.1.4): no named graphs besides named-graph-uri's, and an empty default graph
            # when only named-graph-uri is given
            options["default_graph"] = [ox.NamedNode(g) for g in default_graphs]
            options["named_graphs"] = [ox.NamedNode(g) for g in named_graphs]
        elif not (has_dataset_clause(sparql) if dataset_clause is None else dataset_clause):
            # Oxigraph's union option would override the query's own FROM / FROM NAMED
            options["use_default_graph_as_union"] = True
        try:
            result = self.store.query(bind_values(sparql, bindings), **options)
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {exc}") from exc
        except OSError as exc:
            raise QueryError(f"query failed: {exc}") from exc
        except RuntimeError as exc:  # the query's fault (an unknown function …): 400, not 500
            if any(fault in str(exc) for fault in QUERY_FAULTS):
                raise QueryError(f"query failed: {exc}") from exc
            raise
        return result

    def serialised(
        self,
        sparql: str,
        fmt: str = "json",
        graph_fmt: str = "ttl",
        limit: int | None = None,
        default_graphs=(),
        named_graphs=(),
        base_iri: str | None = None,
        dataset_clause: bool | None = None,
        max_bytes: int = 0,
    ) -> tuple[str, bytes, bool]:
        """(kind, body, truncated): the answer written by the engine's own result writers.

        No term crosses into Python: the solutions go from the store to bytes in Rust (the
        term-by-term :class:`Answer` cost 1–10 ms a request), but for a CSV answer that may
        hold RDF 1.2 triple terms (``triple_terms`` data, or a query that makes them:
        :func:`makes_triple_terms`), which the engine's CSV writes undelimited. Whether an
        answer may is told by the query and the data, not by its first rows: a triple term
        may come on any row (``BIND(IF(…, TRIPLE(…), …))``). At most ``limit`` rows or
        triples: an answer that may hold more is counted in its bytes, and cut there. An
        answer past ``max_bytes`` (0: no cap) is stopped there: :class:`AnswerTooLarge`.
        """
        import pyoxigraph as ox

        result = self._run(sparql, None, default_graphs, named_graphs, base_iri, dataset_clause)
        if isinstance(result, ox.QueryBoolean):
            if fmt in ("csv", "tsv"):  # the engine writes a bare true/false; ours names it
                return "ask", Answer("ask", boolean=bool(result)).serialise(fmt), False
            return "ask", written(result.serialize(format=ENGINE_RESULTS[fmt])), False
        if isinstance(result, ox.QuerySolutions):
            if fmt == "csv" and (self.triple_terms or makes_triple_terms(sparql)):
                # the engine's CSV writes a triple term as its three values, undelimited (one
                # field "s p o"): ours writes SPARQL 1.2's << s p "o" >> (:func:`_csv_cell`).
                # Only where the answer may hold one: the others stay on the engine's writer
                answer = _engine_answer(result, limit)
                body = answer.serialise(fmt)
                _check_size(body, max_bytes)
                return "select", body, answer.truncated
            if limit is None and not max_bytes:
                return "select", written(result.serialize(format=ENGINE_RESULTS[fmt])), False
            writer = _CappedWriter(fmt, limit, max_bytes)
            try:
                result.serialize(writer, format=ENGINE_RESULTS[fmt])  # type: ignore[arg-type]
            except _CappedWriter.Full:
                if fmt in ("json", "csv"):  # rows not countable in a prefix: the exact path
                    answer = self.query(sparql, None, limit, default_graphs, named_graphs, base_iri)
                    body = answer.serialise(fmt)
                    _check_size(body, max_bytes)
                    return "select", body, answer.truncated
            if limit is None:
                return "select", writer.body(), False
            body, truncated = cut_results(writer.body(), fmt, limit)
            return "select", body, truncated
        kept, truncated = _first(result, limit)
        if graph_fmt in ("jsonld", "xml") and any(
            isinstance(t.subject, ox.Triple) or isinstance(t.object, ox.Triple) for t in kept
        ):
            # (the engine's writers would fail on them, or drop them)
            raise QueryError(UNWRITABLE_TRIPLE_TERMS)
        if graph_fmt == "xml":
            _check_qnames({t.predicate.value for t in kept})
        try:
            body = written(ox.serialize(kept, format=ENGINE_GRAPHS[graph_fmt]))
        except (ValueError, OSError) as exc:
            raise Unwritable(str(exc)) from exc
        _check_size(body, max_bytes)
        return "graph", body, truncated

    def query(
        self,
        sparql: str,
        bindings: dict | None = None,
        limit: int | None = None,
        default_graphs=(),
        named_graphs=(),
        base_iri: str | None = None,
    ) -> Answer:
        result = self._run(sparql, bindings, default_graphs, named_graphs, base_iri)
        return _engine_answer(result, limit)


def _engine_answer(result: Any, limit: int | None = None) -> Answer:
    """The engine's result (boolean, solutions or triples) as an :class:`Answer`, at most
    ``limit`` rows or triples."""
    import pyoxigraph as ox

    if isinstance(result, ox.QueryBoolean):
        return Answer("ask", boolean=bool(result))
    # an answer repeats its terms (the same role, kind, phase on many rows): each is
    # converted once (the conversion was half the time of large answers; bench latency)
    memo: dict = {}

    def convert(term):
        found = memo.get(term)
        if found is None:
            found = memo[term] = _from_oxigraph(term)
        return found

    if isinstance(result, ox.QuerySolutions):
        variables = [v.value for v in result.variables]
        solutions, truncated = _first(result, limit)
        rows = [
            {v: convert(t) for v, t in zip(variables, solution, strict=True) if t is not None}
            for solution in solutions
        ]
        return Answer("select", variables, rows, truncated=truncated)
    kept, truncated = _first(result, limit)
    triples = [(convert(t.subject), convert(t.predicate), convert(t.object)) for t in kept]
    return Answer("graph", triples=triples, truncated=truncated)


def _first(items: Iterable, limit: int | None) -> tuple[list, bool]:
    """At most ``limit`` of ``items`` (all of them for None), and whether there were more: one
    more is read to tell, no more (an engine's answer is read lazily).

    >>> _first(iter(range(5)), 3), _first(range(2), None), _first(range(2), 2)
    (([0, 1, 2], True), ([0, 1], False), ([0, 1], False))
    """
    kept = list(itertools.islice(items, None if limit is None else limit + 1))
    if limit is not None and len(kept) > limit:
        return kept[:limit], True
    return kept, False


class RdflibStore:
    """rdflib's memory store, plain: the reference the tests compare Oxigraph against, and a
    cross-check for a user (``--store rdflib``). Its queries are rdflib's own, prepared once
    and bound by ``initBindings``, with nothing of ours between (slow on the whole book:
    rdflib orders a pattern's triples statically)."""

    name = "rdflib"
    _parse_lock = RDFLIB_PARSE_LOCK

    def __init__(self, dataset):
        self.dataset = dataset
        self._prepared: dict[str, object] = {}

    @classmethod
    def open(cls, build_dir: Path) -> RdflibStore:
        from yili_kg.loaders.build import check_dataset
        from yili_kg.service.export import load_dataset

        return cls(load_dataset(check_dataset(build_dir)))

    def prepare(self, sparql: str) -> Any:
        from rdflib.plugins.sparql import prepareQuery

        if sparql not in self._prepared:
            with self._parse_lock:
                try:
                    prepared = prepareQuery(sparql)
                except Exception as exc:  # pyparsing ParseException, bare Exceptions
                    raise QueryError(f"SPARQL syntax error: {exc}") from exc
            self._prepared[sparql] = prepared
        return self._prepared[sparql]

    def graphs(self) -> list[str]:
        return sorted(
            str(g.identifier)
            for g in self.dataset.graphs()
            if str(g.identifier) != "urn:x-rdflib:default"
        )

    def query(
        self,
        sparql: str,
        bindings: dict | None = None,
        limit: int | None = None,
        default_graphs: Sequence[str] = (),
        named_graphs: Sequence[str] = (),
        base_iri: str | None = None,
    ) -> Answer:
        if base_iri:  # a later BASE in the query's prologue still wins, as SPARQL says
            sparql = f"BASE <{base_iri}>\n{sparql}"
        if default_graphs or named_graphs:
            return self._query_dataset(sparql, default_graphs, named_graphs, limit)
        result = self.dataset.query(self.prepare(sparql), initBindings=bindings or {})
        return _answer_of(result, limit)

    def _query_dataset(
        self,
        sparql: str,
        default_graphs: Sequence[str],
        named_graphs: Sequence[str],
        limit: int | None,
    ) -> Answer:
        """The protocol's default-graph-uri / named-graph-uri: a dataset of those graphs."""
        from rdflib import Dataset, URIRef

        view = Dataset(default_union=False)
        default = view.default_graph if hasattr(view, "default_graph") else view.default_context
        for iri in default_graphs:
            default.addN((s, p, o, default) for s, p, o in self.dataset.graph(URIRef(iri)))
        for iri in named_graphs:
            target = view.graph(URIRef(iri))
            target.addN((s, p, o, target) for s, p, o in self.dataset.graph(URIRef(iri)))
        return _answer_of(view.query(self.prepare(sparql)), limit)


def _answer_of(result: Any, limit: int | None) -> Answer:
    """An rdflib query result as an Answer (rows capped at ``limit``)."""
    if result.type == "ASK":
        return Answer("ask", boolean=bool(result.askAnswer))
    if result.type == "SELECT":
        variables = [str(v) for v in result.vars]
        kept, truncated = _first(result, limit)
        rows = [
            {v: _from_rdflib(row[i]) for i, v in enumerate(variables) if row[i] is not None}
            for row in kept
        ]
        return Answer("select", variables, rows, truncated=truncated)
    kept, truncated = _first(result, limit)
    triples = [(_from_rdflib(s), _from_rdflib(p), _from_rdflib(o)) for s, p, o in kept]
    return Answer("graph", triples=triples, truncated=truncated)


def open_store(
    build_dir: Path, kind: str = "oxigraph", verified: bool = False
) -> OxigraphStore | RdflibStore:
    """The built dataset in the chosen store (``oxigraph`` or ``rdflib``).

    ``verified``: the dataset's checksum was checked a moment ago (by the service before it
    starts its workers), so the file is not read again just to hash it.
    """
    if kind == "oxigraph":
        return OxigraphStore.open(build_dir, verified=verified)
    if kind == "rdflib":
        return RdflibStore.open(build_dir)
    raise BuildMissing(f"unknown store {kind!r}: choose oxigraph or rdflib")


def load_extra_graphs(
    store: OxigraphStore | RdflibStore, extra: dict
) -> OxigraphStore | RdflibStore:
    """The store with more graphs loaded (``{graph IRI: file}``), in memory.

    For running other test suites (the W3C SPARQL tests) against the endpoint: their data
    files are loaded under the IRIs the tests name, so no query ever fetches them.
    """
    formats = {".ttl": "turtle", ".nt": "nt", ".rdf": "xml", ".trig": "trig", ".nq": "nquads"}
    if isinstance(store, OxigraphStore):
        import pyoxigraph as ox

        memory = ox.Store()
        memory.bulk_load(path=str(store.path), format=ox.RdfFormat.N_QUADS)
        for iri, path in extra.items():
            fmt = ox.RdfFormat.from_extension(Path(path).suffix.lstrip(".")) or ox.RdfFormat.TURTLE
            memory.add_graph(ox.NamedNode(iri))  # an empty file is an empty graph, still named
            memory.bulk_load(path=str(path), format=fmt, to_graph=ox.NamedNode(iri), base_iri=iri)
        # test suites' data (the W3C tests): may hold triple terms
        return OxigraphStore(memory, store.path, triple_terms=True)
    from rdflib import URIRef

    for iri, path in extra.items():
        store.dataset.graph(URIRef(iri)).parse(
            str(path), format=formats.get(Path(path).suffix, "turtle"), publicID=iri
        )
    return store
