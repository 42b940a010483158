"""Canned queries: ``queries/*.rq``, one file each, with metadata in leading ``#+`` lines.

    #+ title: 某角色所行 | Every act of a role, in order
    #+ description: The events whose agent is the role, in the order of the rite.
    #+ param: role role 主人 | the role (label in any language, or IRI)
    #+ example: role=主人

``title`` gives the zh-Hant and English titles separated by ``|``; each ``param`` line gives
the parameter's name, type, default and description. Types: ``role``, ``object``, ``place``,
``direction``, ``work``, ``kind`` (a kind of action), ``phase`` (index or label), ``passage``
(an id such as ``jing/5.1.1``), ``text`` (a plain string), ``int``, ``rite``, ``grade`` (a grade
of mourning of 喪服) and ``kin`` (a kin term of 喪服, or a role). A value is validated by its
type and bound as an RDF term; a value that names no term is a 400, never a changed query.
An unknown key or bad SPARQL raises :class:`QueryFileError` naming ``file.rq:LINE``.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from yili_kg.loaders.errors import BadQueryParameter, QueryFileError, QueryNotFound

# rdflib and the store are imported inside the functions that use them: the pages import this
# module at the service's start, and a remembered answer needs neither (cold start ≤ 0.5 s).

if TYPE_CHECKING:
    from rdflib import URIRef

    from yili_kg.service.store import OxigraphStore, RdflibStore

# rdflib is imported where a parameter is bound, not here: the service answers its first
# query without paying for rdflib's import (half a second), see bench/ cold_start

KEYS = ("title", "description", "param", "example")
TYPES = (
    "role",
    "object",
    "place",
    "direction",
    "work",
    "kind",
    "phase",
    "passage",
    "text",
    "int",
    "rite",
    "kin",
    "grade",
)
CLASS_OF = {
    "role": "https://w3id.org/yili/ontology#Role",
    "object": "https://w3id.org/yili/ontology#RitualObject",
    "place": "https://w3id.org/yili/ontology#Place",
    "direction": "https://w3id.org/yili/ontology#Direction",
    "work": "https://w3id.org/yili/ontology#Work",
    "rite": "https://w3id.org/yili/ontology#Rite",
    "grade": "https://w3id.org/yili/ontology#MourningGrade",
}
#: a ``kin`` parameter names a kin term of 喪服 (ontology/kinship.ttl) or, failing that, a role
#: (天子, 大夫, 母 …: the persons the rites already name are their roles)
KIN_CLASSES = ("https://w3id.org/yili/ontology#KinTerm", "https://w3id.org/yili/ontology#Role")
ID = "https://w3id.org/yili/id/"
MAX_VALUE = 200  # characters: a longer parameter is refused


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: str
    description: str


@dataclass(frozen=True)
class CannedQuery:
    name: str
    title: str
    title_en: str
    description: str
    params: tuple[Param, ...]
    example: str
    sparql: str
    path: str

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise BadQueryParameter(
            f"{self.name} has no parameter {name!r} "
            f"(it takes: {', '.join(p.name for p in self.params) or 'none'})"
        )


def parse_query_file(
    name: str, text: str, where: str = "", require_title: bool = True
) -> CannedQuery:
    """A canned query from its file's text (strict: an unknown key is an error).

    A user's own query file (``yili-kg query my.rq``) may leave out the title.
    """
    where = where or f"{name}.rq"
    meta: dict[str, list[tuple[int, str]]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("#+"):
            if line.strip() and not line.startswith("#"):
                break
            continue
        match = re.match(r"#\+\s*([a-z_]+)\s*:\s*(.*)$", line)
        if not match or match.group(1) not in KEYS:
            raise QueryFileError(
                f"{where}:{number}: unknown metadata line {line!r} (keys: {', '.join(KEYS)})"
            )
        meta.setdefault(match.group(1), []).append((number, match.group(2).strip()))
    if "title" not in meta and require_title:
        raise QueryFileError(f"{where}:1: no '#+ title:' line")
    title = meta["title"][0][1] if "title" in meta else name
    zh, _, en = title.partition("|")
    params = []
    for number, value in meta.get("param", []):
        head, _, description = value.partition("|")
        parts = head.split()
        if len(parts) != 3 or parts[1] not in TYPES:
            raise QueryFileError(
                f"{where}:{number}: param must be 'name type default "
                f"| description' with a type among {', '.join(TYPES)}"
            )
        params.append(Param(parts[0], parts[1], parts[2], description.strip()))
    return CannedQuery(
        name=name,
        title=zh.strip(),
        title_en=en.strip(),
        description=" ".join(v for _, v in meta.get("description", [])),
        params=tuple(params),
        example=(meta.get("example") or [(0, "")])[0][1],
        sparql=text,
        path=where,
    )


@functools.cache
def service_query(name: str) -> str:
    """The text of one of the service's own queries (``service/rq/NAME.rq``)."""
    return resources.files("yili_kg.service").joinpath("rq", f"{name}.rq").read_text("utf-8")


def queries_dir() -> Path:
    return Path(str(resources.files("yili_kg.queries")))


_LOADING = threading.Lock()


def load_queries(folder: Path | None = None) -> dict[str, CannedQuery]:
    """Every canned query, checked: metadata parsed and SPARQL prepared (rdflib's parser).

    Loaded once, on first use, by whichever request comes first: the lock makes the others
    wait for that load rather than parse beside it.
    """
    with _LOADING:
        return _load_queries(folder)


@cache
def _load_queries(folder: Path | None) -> dict[str, CannedQuery]:
    from rdflib.plugins.sparql import prepareQuery

    from yili_kg.service.store import RDFLIB_PARSE_LOCK

    folder = folder or queries_dir()
    out = {}
    for path in sorted(folder.glob("*.rq")):
        query = parse_query_file(path.stem, path.read_text(encoding="utf-8"), str(path))
        try:
            with RDFLIB_PARSE_LOCK:
                prepareQuery(query.sparql)
        except Exception as exc:  # pyparsing errors and rdflib's bare Exceptions
            raise QueryFileError(f"{path}: SPARQL does not parse: {exc}") from exc
        out[query.name] = query
    return out


def get_query(name: str) -> CannedQuery:
    queries = load_queries()
    if name not in queries:
        raise QueryNotFound(f"no canned query {name!r}; see /queries for the list")
    return queries[name]


# ------------------------------------------------------------------------------ parameters


@dataclass
class Resolver:
    """Turns parameter values into RDF terms, checking them against the dataset."""

    store: OxigraphStore | RdflibStore
    cache: dict = field(default_factory=dict)

    def term(self, param: Param, value: str):
        if len(value) > MAX_VALUE:
            raise BadQueryParameter(f"{param.name}: value longer than {MAX_VALUE} characters")
        if any(ord(c) < 32 for c in value):
            raise BadQueryParameter(f"{param.name}: control characters are not allowed")
        key = (param.type, value)
        if key not in self.cache:
            self.cache[key] = self._resolve(param, value)
        return self.cache[key]

    def _resolve(self, param: Param, value: str):
        from rdflib import XSD, Literal, URIRef

        kind = param.type
        if kind == "text":
            return Literal(value)
        if kind == "int":
            if not re.fullmatch(r"-?\d{1,9}", value):
                raise BadQueryParameter(f"{param.name}: {value!r} is not an integer")
            return Literal(int(value), datatype=XSD.integer)
        if kind == "passage":
            pid = value.removeprefix(ID)
            if pid.startswith(("jing/", "ji/")):
                pid = f"xiangshe/{pid}"
            if not re.fullmatch(r"[a-z]+/(jing|ji)/\d+(\.\d+){0,2}", pid):
                raise BadQueryParameter(
                    f"{param.name}: {value!r} is not a passage id (e.g. jing/5.1.1)"
                )
            return self._must_exist(
                param, URIRef(ID + pid), "https://w3id.org/yili/ontology#Passage"
            )
        if kind == "phase":
            return self._phase(param, value)
        if kind == "kind":
            return self._labelled(param, value, None, kind_of_action=True)
        if kind == "kin":
            return self._kin(param, value)
        return self._labelled(param, value, CLASS_OF[kind])

    def _kin(self, param: Param, value: str) -> URIRef:
        """A kin term labelled ``value``, else a role (舅: the mother's brother of 喪服 before
        the father-in-law of 士昏禮); the kin term's error when neither names one."""
        first, *rest = KIN_CLASSES
        try:
            return self._labelled(param, value, first)
        except BadQueryParameter as error:
            for cls in rest:
                with contextlib.suppress(BadQueryParameter):
                    return self._labelled(param, value, cls)
            raise error

    def _must_exist(self, param: Param, iri: URIRef, cls: str) -> URIRef:
        from rdflib import URIRef

        answer = self.store.query(service_query("exists"), {"x": iri, "class": URIRef(cls)})
        if not answer.boolean:
            raise BadQueryParameter(f"{param.name}: no {param.type} {str(iri)!r}")
        return iri

    def _phase(self, param: Param, value: str) -> URIRef:
        from rdflib import URIRef

        if re.fullmatch(r"\d{1,2}", value):
            return self._must_exist(
                param,
                URIRef(f"{ID}xiangshe/phase/{int(value):02d}"),
                "https://w3id.org/yili/ontology#Phase",
            )
        return self._labelled(param, value, "https://w3id.org/yili/ontology#Phase")

    def _labelled(self, param: Param, value: str, cls: str | None, kind_of_action=False):
        from rdflib import Literal, URIRef

        if value.startswith(("http://", "https://")):
            if not re.fullmatch(r"[^\s<>\"{}|\\^`]+", value):
                raise BadQueryParameter(f"{param.name}: {value!r} is not an IRI")
            iri = URIRef(value)
            if cls:
                return self._must_exist(param, iri, cls)
            return iri
        sparql = service_query("action-by-label" if kind_of_action else "by-label")
        bindings: dict[str, Literal | URIRef] = {"value": Literal(value)}
        if not kind_of_action and cls:
            bindings["class"] = URIRef(cls)
        answer = self.store.query(sparql, bindings)
        if not answer.rows:
            answer = self._other_forms(param, value, sparql, bindings, cls)
        return URIRef(answer.rows[0]["x"].value)

    def _other_forms(self, param: Param, value: str, sparql: str, bindings: dict, cls):
        """The other script (献 → 獻), then pinyin without tones (bin → bīn); a 400 naming
        every form tried when none names a term."""
        from rdflib import Literal, URIRef

        from yili_kg.service.forms import alternatives

        tried = [f"{value} (as given)"]
        for form, how in alternatives(value):
            tried.append(f"{form} ({how})")
            answer = self.store.query(sparql, {**bindings, "value": Literal(form)})
            if answer.rows:
                return answer
        if value.isascii():
            tried.append(f"{value} (pinyin without tones)")
            toneless = {"value": Literal(value)} | ({"class": URIRef(cls)} if cls else {})
            answer = self.store.query(service_query("by-label-toneless"), toneless)
            if answer.rows:
                return answer
        raise BadQueryParameter(
            f"{param.name}: no {param.type} labelled {value!r} (forms tried: {', '.join(tried)})"
        )


def bindings_for(query: CannedQuery, values: dict[str, str], store) -> dict:
    """Every parameter of the query bound to an RDF term (defaults where none is given)."""
    unknown = set(values) - {p.name for p in query.params}
    if unknown:
        raise BadQueryParameter(
            f"{query.name} has no parameter {', '.join(sorted(unknown))} "
            f"(it takes: {', '.join(p.name for p in query.params) or 'none'})"
        )
    resolver = Resolver(store)
    return {p.name: resolver.term(p, values.get(p.name, p.default)) for p in query.params}


# ------------------------------------------------------------------------------ answers


class CannedAnswers:
    """Canned queries answered on one store, remembered per question (答問之快取).

    The store is a fixed dataset version, so an answer never goes stale while this object
    lives; a new build gets a new object. A question is remembered by its canonical form: the
    query's name and the RDF terms its values resolve to (``role=HOST``, ``role=host`` and
    ``role=主人`` are one question, one answer). The first time a spelling is asked its values
    are resolved (a few store lookups) and the spelling remembered as an alias of its form;
    after that the answer — and each serialisation of it already made — comes from memory,
    without touching the store. Answers are kept in an LRU bounded by count (``size``) and by
    bytes (``max_bytes``, the serialisations made plus an estimate of the answer itself); an
    answer larger than that is served, not kept. Values that name nothing raise
    :class:`BadQueryParameter` every time (not remembered).
    """

    def __init__(
        self,
        store,
        size: int = 512,
        max_rows: int | None = None,
        max_bytes: int = 256 << 20,
        slot=None,
        precomputed=None,
    ):
        """``precomputed``: the build's answers (:class:`~yili_kg.service.precomputed.
        PrecomputedAnswers`), read instead of the store the first time a question is asked."""
        from collections import OrderedDict

        self.store = store
        self.size = size
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.precomputed = precomputed
        # slot(): a context that admits a first ask (the query pool's: heavy work is capped
        # together, so that remembered answers and static files always find a web thread)
        self.slot = slot or contextlib.nullcontext
        self.bytes = 0  # the cost of the answers held
        # canonical question → [query, answer (None: precomputed), {fmt: bytes}, cost,
        # rows of a precomputed answer (None: not precomputed)]
        self._entries: OrderedDict = OrderedDict()
        # a spelling of a question → its canonical form (small; bounded by count)
        self._aliases: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def _entry(self, name: str, values: dict[str, str], capped: bool = True) -> list:
        query = get_query(name)
        unknown = set(values) - {p.name for p in query.params}
        if unknown:  # the same message as bindings_for, before any cache lookup
            bindings_for(query, values, self.store)
        spelling = (name, tuple((p.name, values.get(p.name, p.default)) for p in query.params))
        with self._lock:
            canonical = self._aliases.get(spelling)
            known = self._entries.get(canonical) if canonical is not None else None
            if known is not None:
                self._aliases.move_to_end(spelling)
                self._entries.move_to_end(canonical)
                self.hits += 1
                return known
        built = None
        if self.precomputed is not None:
            built = self.precomputed.get(query, spelling[1], self.max_rows)
        if built is not None:
            # the build asked it: its JSON now, an Answer when one is needed (an HTML page;
            # the JSON page and whether it has rows need none). The build's spellings are
            # finite, so each is its own key (no store lookup to resolve it)
            canonical = spelling
            body, rows = built
            entry = [query, None, {"json": body}, len(body), rows]
        else:
            bindings = bindings_for(query, values, self.store)
            canonical = (name, tuple((k, bindings[k].n3()) for k in sorted(bindings)))
        with self._lock:
            self._aliases[spelling] = canonical
            self._aliases.move_to_end(spelling)
            while len(self._aliases) > 8 * self.size:
                self._aliases.popitem(last=False)
            found = self._entries.get(canonical)
            if found is not None:
                self._entries.move_to_end(canonical)
                self.hits += 1
                return found
        if built is None:
            with self.slot() if capped else contextlib.nullcontext():
                answer = self.store.query(query.sparql, bindings, limit=self.max_rows)
            entry = [query, answer, {}, _answer_cost(answer), None]
        with self._lock:
            self.misses += 1
            if canonical not in self._entries:
                self._entries[canonical] = entry
                self.bytes += _answer_cost_of(entry)
                self._trim()
        return entry

    def _trim(self) -> None:
        """Drop the least recently asked answers until both bounds hold (under the lock)."""
        while self._entries and (len(self._entries) > self.size or self.bytes > self.max_bytes):
            _, dropped = self._entries.popitem(last=False)
            self.bytes -= dropped[3]

    def answer(self, name: str, values: dict[str, str] | None = None, capped: bool = True):
        """(query, answer) of canned query ``name`` with ``values`` (defaults for the rest).

        ``capped=False``: a question of the site's own (the home page's), asked once per
        dataset and then remembered, runs without waiting for a slot of heavy work."""
        entry = self._entry(name, values or {}, capped)
        return entry[0], self._answer_of(entry)

    def empty(self, name: str, values: dict[str, str] | None = None) -> tuple:
        """(query, whether the answer is a SELECT without rows) of canned query ``name``.

        A precomputed answer with rows is not read back for this (its index counts them):
        parsing the JSON of a long answer into terms was most of a first ask's time
        (shared-steps: 18 ms of 19 on the whole book), and its JSON page needs no terms.
        """
        entry = self._entry(name, values or {})
        if entry[1] is None and entry[4]:
            return entry[0], False
        answer = self._answer_of(entry)
        return entry[0], answer.kind == "select" and not answer.rows

    def _answer_of(self, entry: list):
        if entry[1] is None:  # precomputed: read back from its JSON (the same answer)
            from yili_kg.service.store import Answer

            answer = Answer.from_json(entry[2]["json"])
            with self._lock:
                if entry[1] is None:
                    entry[1] = answer
                    self._count(entry, _answer_cost(answer))
        return entry[1]

    def _count(self, entry: list, cost: int) -> None:
        """Add what was made for an entry to its cost, and to the total if it is held
        (under the lock)."""
        entry[3] += cost
        if any(e is entry for e in self._entries.values()):
            self.bytes += cost
            self._trim()

    def serialised(self, name: str, values: dict[str, str], fmt: str) -> bytes:
        """The answer as SPARQL results in ``fmt`` (json, xml, csv, tsv), made once."""
        entry = self._entry(name, values)
        made = entry[2]
        body = made.get(fmt)
        if body is None:
            body = self._answer_of(entry).serialise(fmt)
            with self._lock:
                if fmt not in made:
                    made[fmt] = body
                    self._count(entry, len(body))
        return body


def _answer_cost(answer) -> int:
    """Bytes an answer holds in memory, roughly: its values and a term object per cell."""
    if answer.kind == "ask":
        return 64
    if answer.kind == "graph":
        return sum(len(t.value) + 200 for triple in answer.triples for t in triple)
    return sum(len(term.value) + 200 for row in answer.rows for term in row.values())


def _answer_cost_of(entry: list) -> int:
    """The bytes an entry ``[query, answer, serialised, cost]`` is counted for."""
    cost: int = entry[3]
    return cost
