"""Every media type the site speaks, and content negotiation, once for the whole site.

A :class:`Format` is one way an answer can be written: its short name (the ``format=`` value,
the file extension, the CLI's ``--format``), its media type, the other media types and names
that ask for it, and what it can carry (``results`` of SELECT/ASK, an RDF ``graph``, a
``dataset`` of named graphs, an ``html`` page). :func:`choose` picks one for a request:
a ``format=`` parameter with a value known for that kind of answer wins; otherwise the
``Accept`` header with its q-values (RFC 9110, 12.5.1: the most specific range that matches
gives the quality; ties go to the client's order, then to the order of the offers); nothing
acceptable is a 406 naming what is offered.

SPARQLWrapper's names are known: it sends ``format``, ``output`` and ``results`` each with its
return format (``xml``, ``json``, ``turtle``, ``n3``, ``rdf``, ``rdf+xml``, ``json-ld``,
``csv``, ``tsv``) and, for some, the media type as a second value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yili_kg.loaders.errors import YiliError


@dataclass(frozen=True)
class Format:
    name: str  # short name: format= value, file extension, CLI --format
    kind: str  # results | graph | dataset | html
    media: str  # the media type answered (Content-Type, without charset)
    aliases: tuple[str, ...] = ()  # other media types and names that ask for it
    text: bool = True  # a text type: charset=utf-8 is said
    rdflib: str | None = None  # rdflib's parser/serialiser name
    label: str = ""

    @property
    def content_type(self) -> str:
        return f"{self.media}; charset=utf-8" if self.text else self.media

    @property
    def iana(self) -> str:
        """The media type's IRI in the IANA registry (DCAT's ``dcat:mediaType``)."""
        return f"http://www.iana.org/assignments/media-types/{self.media}"

    def names(self) -> tuple[str, ...]:
        return (self.name, self.media, *self.aliases)


HTML = Format("html", "html", "text/html", ("application/xhtml+xml",), label="HTML")
RESULTS = (
    Format(
        "json",
        "results",
        "application/sparql-results+json",
        ("application/json", "srj"),
        text=False,
        label="SPARQL JSON",
    ),
    Format(
        "xml",
        "results",
        "application/sparql-results+xml",
        ("application/xml", "text/xml", "srx"),
        text=False,
        label="SPARQL XML",
    ),
    Format("csv", "results", "text/csv", label="CSV"),
    Format("tsv", "results", "text/tab-separated-values", label="TSV"),
)
GRAPH = (
    Format(
        "ttl",
        "graph",
        "text/turtle",
        ("application/x-turtle", "turtle", "n3", "text/n3"),
        rdflib="turtle",
        label="Turtle",
    ),
    Format(
        "nt",
        "graph",
        "application/n-triples",
        ("text/plain", "ntriples", "n-triples"),
        rdflib="nt",
        label="N-Triples",
    ),
    Format(
        "jsonld",
        "graph",
        "application/ld+json",
        ("application/json", "json-ld", "json"),
        rdflib="json-ld",
        text=False,
        label="JSON-LD",
    ),
    Format(
        "xml",
        "graph",
        "application/rdf+xml",
        ("application/xml", "text/xml", "rdf", "rdf+xml", "rdfxml"),
        rdflib="xml",
        text=False,
        label="RDF/XML",
    ),
)
QUADS = (
    Format(
        "nq",
        "dataset",
        "application/n-quads",
        ("nquads", "n-quads"),
        rdflib="nquads",
        label="N-Quads",
    ),
    Format("trig", "dataset", "application/trig", rdflib="trig", label="TriG"),
)
#: what each kind of answer can be written as, in the order of preference for */*
OFFERS: dict[str, tuple[Format, ...]] = {
    "results": RESULTS,
    "graph": GRAPH,
    "dataset": QUADS + GRAPH,
    "page": (HTML, *GRAPH),  # an entity, the ontology, the description: HTML or RDF
    "table": (HTML, *RESULTS),  # a canned query's answer: HTML or SPARQL results
    "description": (*GRAPH, HTML),  # /void, /sparql without a query: RDF unless HTML is asked
}
#: the export formats (``yili-kg export``, ``/downloads``), by short name
EXPORTS: dict[str, Format] = {f.name: f for f in (*QUADS, *GRAPH)}


class NotAcceptable(YiliError):
    """Nothing the client accepts can be answered (406)."""

    status = 406


def lookup(kind: str, name: str) -> Format | None:
    """The format a ``format=`` value names for a kind of answer (None if unknown).

    >>> lookup("graph", "rdf+xml").media, lookup("results", "xml").media
    ('application/rdf+xml', 'application/sparql-results+xml')
    >>> lookup("results", "turtle") is None
    True
    """
    name = name.strip().lower()
    for offer in OFFERS[kind]:
        if name in offer.names():
            return offer
    return None


def parse_accept(header: str) -> list[tuple[str, float, int]]:
    """The media ranges of an Accept header: (range, q, position), parameters but q dropped.

    >>> parse_accept("text/html;level=1, */*;q=0.1")
    [('text/html', 1.0, 0), ('*/*', 0.1, 1)]
    """
    ranges = []
    for position, part in enumerate(header.split(",")):
        media, *params = [p.strip() for p in part.split(";")]
        if not media:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    q = 0.0
        ranges.append((media.lower(), q, position))
    return ranges


def _quality(offer: Format, ranges) -> tuple[float, int]:
    """(q, -position) of the most specific range matching the offer's media type or one of
    its aliases (RFC 9110: ``text/turtle;q=0`` refuses Turtle whatever ``*/*`` says)."""
    best = None
    for media in (offer.media, *(a for a in offer.aliases if "/" in a)):
        major = media.split("/")[0]
        for name, q, position in ranges:
            specificity = {media: 2, f"{major}/*": 1, "*/*": 0}.get(name)
            if specificity is None:
                continue
            key = (specificity, -position)
            if best is None or key > best[0]:
                best = (key, q)
    if best is None:
        return (0.0, 0)
    return (best[1], best[0][1])


def negotiate(kind: str, accept: str | None, params: Sequence[str] = ()) -> Format:
    """The format to answer a kind of request in.

    >>> negotiate("graph", "application/rdf+xml;q=0.5, text/turtle").name
    'ttl'
    >>> negotiate("page", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8").name
    'html'
    >>> negotiate("graph", "text/html", ["rdf+xml", "application/rdf+xml"]).media
    'application/rdf+xml'
    >>> negotiate("results", None, ["bogus"]).name
    'json'
    >>> negotiate("results", "image/png").name  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    yili_kg.service.formats.NotAcceptable: none of the types accepted (image/png) is ...
    """
    offers = OFFERS[kind]
    for value in params:  # a known format= value overrides Accept; an unknown one does not
        found = lookup(kind, value)
        if found is not None:
            return found
    if not accept or not accept.strip():
        return offers[0]
    ranges = parse_accept(accept)
    scored = []
    for order, offer in enumerate(offers):
        q, position = _quality(offer, ranges)
        if q > 0:
            scored.append((q, position, -order, offer))
    if not scored:
        raise NotAcceptable(
            f"none of the types accepted ({accept.strip()}) is available here: "
            + ", ".join(dict.fromkeys(o.media for o in offers))
        )
    return max(scored, key=lambda s: s[:3])[3]


def alternates(path: str, kind: str = "page") -> str:
    """A ``Link`` header naming every representation of ``path`` (RFC 8288, rel=alternate).

    >>> alternates("/id/role/bin").split(", ")[1]
    '</id/role/bin?format=ttl>; rel="alternate"; type="text/turtle"'
    """
    return ", ".join(
        f'<{path}?format={offer.name}>; rel="alternate"; type="{offer.media}"'
        for offer in OFFERS[kind]
    )


def format_params(args) -> list[str]:
    """The values of the ``format``/``output``/``results`` parameters (SPARQLWrapper sends
    all three) of a request's query string or form."""
    return [v for key in ("format", "output", "results") for v in args.getlist(key)]


def written(data: bytes | None) -> bytes:
    """What pyoxigraph's serialize or dump returned when asked for no output file: the bytes
    (it returns None only when it wrote to a file it was given)."""
    if data is None:
        raise RuntimeError("pyoxigraph wrote to no file and returned nothing")
    return data
