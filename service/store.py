"""The stores behind the service: embedded Oxigraph (default), rdflib (reference), remote.

All three answer :meth:`query` with a :class:`Answer`: the kind (``select``, ``ask``, ``graph``)
and rows or triples as plain RDF terms, serialisable to the SPARQL result formats and the RDF
syntaxes the endpoint negotiates. Parameters are bound as RDF terms — Oxigraph's
substitutions, rdflib's ``initBindings``, a ``VALUES`` block for a remote endpoint — never
pasted into the query text.

rdflib's query parser is not thread-safe (rdflib #1282): it parses under a lock.
"""

from __future__ import annotations

import csv
import io
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from yili_kg.loaders.errors import BuildMissing, YiliError
from yili_kg.service.lexer import has_dataset_clause, where_group

RESULT_TYPES = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
}
GRAPH_TYPES = {
    "ttl": "text/turtle",
    "nt": "application/n-triples",
    "jsonld": "application/ld+json",
    "xml": "application/rdf+xml",
}


# rdflib's SPARQL parser (pyparsing) is not thread-safe (rdflib #1282): two threads parsing
# at once garble each other's parse ("Param.postParse2() missing 1 required positional
# argument"). Every prepareQuery in the service takes this lock.
RDFLIB_PARSE_LOCK = threading.Lock()


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

    def n3(self) -> str:
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

    # -- serialisation -------------------------------------------------------------------
    def to_json(self) -> dict:
        if self.kind == "ask":
            return {"head": {}, "boolean": bool(self.boolean)}
        bindings = []
        for row in self.rows:
            out = {}
            for var, term in row.items():
                cell = {"type": term.type, "value": term.value}
                if term.lang:
                    cell["xml:lang"] = term.lang
                if term.datatype:
                    cell["datatype"] = term.datatype
                out[var] = cell
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
        """CONSTRUCT/DESCRIBE results in ``ttl``, ``nt``, ``jsonld`` or ``xml``."""
        from rdflib import Graph

        graph = Graph()
        for triple in self.triples:
            graph.add(tuple(_to_rdflib(t) for t in triple))
        rdflib_format = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld", "xml": "xml"}[fmt]
        return graph.serialize(format=rdflib_format, encoding="utf-8")


def _results_xml(answer: Answer) -> str:
    from xml.sax.saxutils import escape, quoteattr

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
            if term.type == "uri":
                body = f"<uri>{escape(term.value)}</uri>"
            elif term.type == "bnode":
                body = f"<bnode>{escape(term.value)}</bnode>"
            else:
                attrs = f" xml:lang={quoteattr(term.lang)}" if term.lang else ""
                if term.datatype:
                    attrs += f" datatype={quoteattr(term.datatype)}"
                body = f"<literal{attrs}>{escape(term.value)}</literal>"
            out.append(f"<binding name={quoteattr(var)}>{body}</binding>")
        out.append("</result>")
    out.append("</results></sparql>")
    return "\n".join(out)


def _results_table(answer: Answer, fmt: str) -> str:
    buffer = io.StringIO()
    if answer.kind == "ask":
        return (
            ("_askResult\r\n" if fmt == "csv" else "?_askResult\n")
            + ("true" if answer.boolean else "false")
            + ("\r\n" if fmt == "csv" else "\n")
        )
    if fmt == "csv":  # SPARQL 1.1 CSV: plain values, blank nodes as _:label
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
    if term is None:
        return ""
    return f"_:{term.value}" if term.type == "bnode" else term.value


# ----------------------------------------------------------------------------- conversions


def _from_oxigraph(term) -> Term:
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return Term("uri", term.value)
    if isinstance(term, ox.BlankNode):
        return Term("bnode", term.value)
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value if term.datatype else None
        if term.language:
            return Term("literal", term.value, lang=term.language)
        if datatype == "http://www.w3.org/2001/XMLSchema#string":
            datatype = None
        return Term("literal", term.value, datatype=datatype)
    return Term("triple", str(term))


def _to_oxigraph(term):
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


def _from_rdflib(term) -> Term:
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


def _to_rdflib(term: Term):
    from rdflib import BNode, Literal, URIRef

    if term.type == "uri":
        return URIRef(term.value)
    if term.type == "bnode":
        return BNode(term.value)
    datatype = URIRef(term.datatype) if term.datatype else None
    return Literal(term.value, lang=term.lang, datatype=datatype)


# ----------------------------------------------------------------------------- bindings


def bind_values(sparql: str, bindings: dict | None) -> str:
    """The query with its parameters bound by a ``VALUES`` block in its WHERE group.

    The values are RDF terms written in their N-Triples form (``term.n3()``, which escapes
    them), so a parameter can never change the query's shape. The block closes the group:
    a VALUES block joins with the whole group wherever it stands, and Oxigraph plans the
    group far better with it last (a block first made one query 200 times slower).

    >>> from rdflib import Literal
    >>> print(bind_values("SELECT ?t WHERE { ?p ?q ?t }", {"t": Literal('x" } DROP', lang="en")}))
    SELECT ?t WHERE { ?p ?q ?t VALUES (?t) { ("x\\" } DROP"@en) } }
    >>> print(bind_values("CONSTRUCT { ?t ?q ?p } WHERE { ?p ?q ?t }", {"t": Literal("a")}))
    CONSTRUCT { ?t ?q ?p } WHERE { ?p ?q ?t VALUES (?t) { ("a") } }
    >>> print(bind_values("SELECT ?t { ?p ?q ?t  # a comment\\n}", {"t": Literal(1)}))
    SELECT ?t { ?p ?q ?t  # a comment
      VALUES (?t) { ("1"^^<http://www.w3.org/2001/XMLSchema#integer>) } }
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
    body = sparql[:closing].rstrip()
    # a new line when the group's last line may end in a comment, which would swallow it
    gap = "\n  " if "#" in body[body.rfind("\n") + 1 :] else " "
    return f"{body}{gap}{block} {sparql[closing:]}"


# ----------------------------------------------------------------------------- stores


class OxigraphStore:
    """Embedded Oxigraph: the build's persisted store opened read-only, or the N-Quads loaded."""

    name = "oxigraph"

    def __init__(self, store, path: Path | None = None):
        self.store = store
        self.path = path

    @classmethod
    def open(cls, build_dir: Path, verified: bool = False) -> OxigraphStore:
        """``verified``: the caller has just checked the dataset's checksum (skip a re-read)."""
        import pyoxigraph as ox

        from yili_kg.loaders.built import DATASET_NAME, check_dataset, read_manifest

        dataset = build_dir / DATASET_NAME if verified else check_dataset(build_dir)
        manifest = read_manifest(build_dir) or {}
        persisted = build_dir / "oxigraph"
        if (
            persisted.exists()
            and (persisted / "BUILD").exists()
            and ((persisted / "BUILD").read_text() == manifest["dataset"]["sha256"])
        ):
            try:
                return cls(ox.Store.read_only(str(persisted)), dataset)
            except OSError:
                pass  # fall back to loading the dataset file
        store = ox.Store()
        store.bulk_load(path=str(dataset), format=ox.RdfFormat.N_QUADS)
        return cls(store, dataset)

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self.store.named_graphs())

    def query(
        self,
        sparql: str,
        bindings: dict | None = None,
        limit: int | None = None,
        default_graphs=(),
        named_graphs=(),
        base_iri: str | None = None,
    ) -> Answer:
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
        elif not has_dataset_clause(sparql):
            # Oxigraph's union option would override the query's own FROM / FROM NAMED
            options["use_default_graph_as_union"] = True
        try:
            result = self.store.query(bind_values(sparql, bindings), **options)
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {exc}") from exc
        except OSError as exc:
            raise QueryError(f"query failed: {exc}") from exc
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
            rows = []
            truncated = False
            for solution in result:
                if limit is not None and len(rows) >= limit:
                    truncated = True
                    break
                values = zip(variables, solution, strict=True)
                rows.append({v: convert(t) for v, t in values if t is not None})
            return Answer("select", variables, rows, truncated=truncated)
        triples = []
        for triple in result:
            if limit is not None and len(triples) >= limit:
                return Answer("graph", triples=triples, truncated=True)
            triples.append(
                (convert(triple.subject), convert(triple.predicate), convert(triple.object))
            )
        return Answer("graph", triples=triples)


class RdflibStore:
    """rdflib's memory store, the reference: slower, but the one the build itself uses."""

    name = "rdflib"
    _parse_lock = RDFLIB_PARSE_LOCK

    def __init__(self, dataset):
        self.dataset = dataset
        self._prepared: dict[str, object] = {}
        self._counts = PatternCounts(dataset)  # the cost model that orders patterns

    @classmethod
    def open(cls, build_dir: Path) -> RdflibStore:
        from yili_kg.loaders.build import check_dataset
        from yili_kg.service.export import load_dataset

        return cls(load_dataset(check_dataset(build_dir)))

    def prepare(self, sparql: str):
        from rdflib.plugins.sparql import prepareQuery

        if sparql not in self._prepared:
            with self._parse_lock:
                try:
                    prepared = prepareQuery(sparql)
                except Exception as exc:  # pyparsing ParseException, bare Exceptions
                    raise QueryError(f"SPARQL syntax error: {exc}") from exc
            walk_bgps(prepared.algebra, {}, set(), self._counts)
            self._prepared[sparql] = prepared
        return self._prepared[sparql]

    def bound(self, sparql: str, bindings: dict):
        """The prepared query with its parameters put into its triple patterns, reordered.

        rdflib orders a pattern's triples once, when it prepares the query, not knowing which
        variables ``initBindings`` will bind; a bound parameter then filters late, after
        every other triple has been joined (one query took minutes). Putting the RDF terms in
        the patterns of the algebra lets rdflib's own reordering start from them.
        """
        from rdflib import Variable
        from rdflib.plugins.sparql import prepareQuery

        key = (sparql, tuple(sorted((k, v.n3()) for k, v in bindings.items())))
        if key in self._prepared:
            return self._prepared[key]
        self.prepare(sparql)  # a syntax error is reported once, as a QueryError
        with self._parse_lock:
            bound = prepareQuery(sparql)  # a fresh algebra of our own to change in place
        terms = {Variable(k): v for k, v in bindings.items()}
        walk_bgps(bound.algebra, terms, set(), self._counts)
        self._prepared[key] = bound
        return bound

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
        default_graphs=(),
        named_graphs=(),
        base_iri: str | None = None,
    ) -> Answer:
        if base_iri:  # a later BASE in the query's prologue still wins, as SPARQL says
            sparql = f"BASE <{base_iri}>\n{sparql}"
        if default_graphs or named_graphs:
            return self._query_dataset(sparql, default_graphs, named_graphs, limit)
        prepared = self.bound(sparql, bindings) if bindings else self.prepare(sparql)
        result = self.dataset.query(prepared, initBindings=bindings or {})
        return _answer_of(result, limit)

    def _query_dataset(self, sparql, default_graphs, named_graphs, limit) -> Answer:
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


def _answer_of(result, limit) -> Answer:
    """An rdflib query result as an Answer (rows capped at ``limit``)."""
    if result.type == "ASK":
        return Answer("ask", boolean=bool(result.askAnswer))
    if result.type == "SELECT":
        variables = [str(v) for v in result.vars]
        rows, truncated = [], False
        for row in result:
            if limit is not None and len(rows) >= limit:
                truncated = True
                break
            rows.append(
                {v: _from_rdflib(row[i]) for i, v in enumerate(variables) if row[i] is not None}
            )
        return Answer("select", variables, rows, truncated=truncated)
    triples = [tuple(_from_rdflib(t) for t in triple) for triple in result]
    if limit is not None and len(triples) > limit:
        return Answer("graph", triples=triples[:limit], truncated=True)
    return Answer("graph", triples=triples)


class PatternCounts:
    """How many triples of the store match a triple pattern: the cost model of :func:`walk_bgps`.

    For a pattern's constants (variables as wildcards): the matches, and how many distinct
    subjects and objects they have, so that a pattern whose subject or object is already bound
    is costed per binding (matches / distinct values). Counted once per shape, up to ``cap``
    matches (a bigger count orders the same way).
    """

    def __init__(self, graph, cap: int = 50_000):
        self.graph = graph
        self.cap = cap
        self._counts: dict[tuple, tuple[int, int, int]] = {}

    def counts(self, shape: tuple) -> tuple[int, int, int]:
        found = self._counts.get(shape)
        if found is None:
            from itertools import islice

            subjects, objects, n = set(), set(), 0
            for s, _, o in islice(self.graph.triples(shape), self.cap):
                subjects.add(s)
                objects.add(o)
                n += 1
            found = self._counts[shape] = (n, len(subjects), len(objects))
        return found

    def estimate(self, triple: tuple, bound: set) -> float:
        """Expected matches of ``triple`` for one binding of the variables in ``bound``."""
        from rdflib import Variable

        shape = tuple(None if isinstance(t, Variable) else t for t in triple)
        n, subjects, objects = self.counts(shape)
        s, p, o = triple
        if isinstance(s, Variable) and s in bound:
            n /= max(1, subjects)
        if isinstance(o, Variable) and o in bound:
            n /= max(1, objects)
        if isinstance(p, Variable) and p in bound:
            n /= 10  # a bound predicate: rare in our queries; narrower than none
        return n


def walk_bgps(node, terms: dict, known: set, counts: PatternCounts) -> None:
    """Put bound parameters into the triple patterns and order each pattern for rdflib.

    rdflib orders a basic graph pattern once, statically, by the number of bound positions:
    it does not know the variables a parameter binds, nor those the left side of an OPTIONAL
    has bound when the right side runs, nor how many triples a pattern matches (an object
    like a rite, of which thousands of things are part, counts as much as a clause's text).
    Here each pattern is ordered greedily from the store's own counts (``counts``): next the
    pattern expected to match fewest triples per binding, among those joined to what is
    bound already (a cross product only when nothing is), counting as bound the parameters
    and the variables bound before it.
    """
    from rdflib.plugins.sparql.parserutils import CompValue

    if isinstance(node, list):
        for item in node:
            walk_bgps(item, terms, known, counts)
        return
    if not isinstance(node, CompValue):
        return
    if node.name == "BGP":
        triples = [tuple(terms.get(t, t) for t in triple) for triple in node.triples]
        ordered, bound = [], set(known)
        while triples:
            joined = [i for i, triple in enumerate(triples) if _pattern_variables(triple) & bound]
            best = min(
                joined or range(len(triples)),
                key=lambda i, bound=bound: (counts.estimate(triples[i], bound), i),
            )
            triple = triples.pop(best)
            ordered.append(triple)
            bound |= _pattern_variables(triple)
        _keep_order(node, ordered, set(known))
        return
    if node.name == "Join" and _monotone(node.p2):
        # rdflib evaluates a join of two parts apart and then matches them, unless the join
        # is "lazy" (the left part's bindings pushed into the right); it only marks joins
        # lazy when nothing below is a join. A right part without filters or optionals
        # gives the same answers either way, and lazily it never builds a cross product.
        node["lazy"] = True
    if node.name in ("LeftJoin", "Join", "Minus") and "p1" in node and "p2" in node:
        walk_bgps(node.p1, terms, known, counts)
        # the right side runs with the left side's bindings in an OPTIONAL and a lazy join
        # (not in MINUS, nor in a join evaluated apart)
        correlated = node.name == "LeftJoin" or node.get("lazy")
        left = _variables_in(node.p1) if correlated else set()
        walk_bgps(node.p2, terms, known | left, counts)
        for key, value in node.items():
            if key not in ("p1", "p2"):
                walk_bgps(value, terms, known, counts)
        return
    for value in node.values():
        walk_bgps(value, terms, known, counts)


def _pattern_variables(triple) -> set:
    from rdflib import Variable

    return {t for t in triple if isinstance(t, Variable)}


def _variables_in(node) -> set:
    """The variables a part of the algebra mentions (its ``_vars`` misses a VALUES block's)."""
    from rdflib import Variable

    found: set = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Variable):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack.extend(item)
    return found


def _keep_order(node, ordered: list, known: set) -> None:
    """Make ``node`` (a BGP) evaluate its triples in the order ``ordered``.

    rdflib sorts a BGP's triples again each time it evaluates one, by the positions bound
    when it starts (stable sort): a triple with a constant object then runs before one the
    cost model put first. So the order is cut where that sort would move a triple, and the
    pieces are chained as lazy joins (each piece evaluated with the bindings of those
    before it, where rdflib's sort keeps the order given).
    """
    from rdflib.plugins.sparql.parserutils import CompValue

    def unbound(triple, bound):
        return len(_pattern_variables(triple) - bound)

    pieces, bound = [[]], set(known)
    for triple in ordered:
        piece = pieces[-1]
        if piece and unbound(triple, bound) < unbound(piece[-1], bound):
            for earlier in piece:
                bound |= _pattern_variables(earlier)
            pieces.append([])
        pieces[-1].append(triple)
    if len(pieces) == 1:
        node["triples"] = ordered
        return
    chain = CompValue("BGP", triples=pieces[-1])
    for piece in reversed(pieces[1:-1]):
        chain = CompValue("Join", p1=CompValue("BGP", triples=piece), p2=chain, lazy=True)
    # this node becomes the first piece, lazily joined to the rest
    node.name = "Join"
    del node["triples"]
    node.update(p1=CompValue("BGP", triples=pieces[0]), p2=chain, lazy=True)


def _monotone(node) -> bool:
    """A pattern made only of triple patterns, VALUES, unions and joins of those."""
    from rdflib.plugins.sparql.parserutils import CompValue

    if not isinstance(node, CompValue):
        return False
    if node.name in ("BGP", "ToMultiSet", "values"):
        return True
    if node.name in ("Union", "Join"):
        return _monotone(node.p1) and _monotone(node.p2)
    return False


def open_store(build_dir: Path, kind: str = "oxigraph", verified: bool = False):
    """The built dataset in the chosen store (``oxigraph`` or ``rdflib``).

    ``verified``: the dataset's checksum was checked a moment ago (by the service before it
    starts its workers), so the file is not read again just to hash it.
    """
    if kind == "oxigraph":
        return OxigraphStore.open(build_dir, verified=verified)
    if kind == "rdflib":
        return RdflibStore.open(build_dir)
    raise BuildMissing(f"unknown store {kind!r}: choose oxigraph or rdflib")


def load_extra_graphs(store, extra: dict):
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
        return OxigraphStore(memory, store.path)
    from rdflib import URIRef

    for iri, path in extra.items():
        store.dataset.graph(URIRef(iri)).parse(
            str(path), format=formats.get(Path(path).suffix, "turtle"), publicID=iri
        )
    return store
