"""Entity pages: every IRI under ``https://w3id.org/yili/id/`` resolves at ``/id/…``.

HTML for browsers (labels, types, every fact out and in, the passages and commentary of an
event or a clause); Turtle, N-Triples, JSON-LD or RDF/XML for machines, by Accept.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from yili_kg.loaders.errors import BadQueryParameter, EntityNotFound
from yili_kg.service.queries import service_query
from yili_kg.service.sparql import GRAPH_MEDIA, GRAPH_TYPES, negotiate

bp = Blueprint("entities", __name__)
ID = "https://w3id.org/yili/id/"
MAX_INCOMING = 500


def describe(iri: str):
    """Facts out of and into a resource (404 if the dataset says nothing of it)."""
    from rdflib import URIRef

    store = current_app.extensions["yili"].store
    node = URIRef(iri)
    out = store.query(service_query("entity-out"), {"s": node})
    incoming = store.query(service_query("entity-in"), {"o": node}, limit=MAX_INCOMING)
    if not out.rows and not incoming.rows:
        raise EntityNotFound(f"nothing is known of {iri}")
    return out, incoming


def _page(iri: str):
    from rdflib import URIRef

    wants = request.accept_mimetypes.best_match(["text/html", *GRAPH_TYPES])
    explicit = request.args.get("format")
    if explicit is not None and explicit != "html" and explicit not in GRAPH_MEDIA:
        raise BadQueryParameter(f"unknown format {explicit!r}: html, ttl, nt, jsonld or xml")
    if explicit == "html" or (wants in (None, "text/html") and explicit is None):
        out, incoming = describe(iri)
        return render_template(
            "entity.html", iri=iri, out=out, incoming=incoming, title=_title(out, iri)
        )
    fmt = request.args.get("format") or negotiate(
        request.headers.get("Accept", ""), GRAPH_TYPES, "ttl"
    )
    answer = current_app.extensions["yili"].store.query(
        service_query("entity-graph"), {"s": URIRef(iri)}
    )
    if not answer.triples:
        raise EntityNotFound(f"nothing is known of {iri}")
    return Response(answer.serialise_graph(fmt), content_type=GRAPH_MEDIA[fmt])


def _title(out, iri: str) -> str:
    """The resource's traditional-Chinese label (or English, or the text of a passage)."""
    by_language: dict[str, str] = {}
    for row in out.rows:
        if row["p"].value.endswith(("#prefLabel", "#label", "#text")):
            by_language.setdefault((row["o"].lang or "").lower(), row["o"].value)
    for language in ("zh-hant", "", "en"):
        if language in by_language:
            return by_language[language]
    return iri.rsplit("/", 1)[-1]


@bp.route("/id/<path:path>")
def entity(path: str):
    return _page(ID + path)


@bp.route("/ontology/term/<name>")
def term(name: str):
    return _page("https://w3id.org/yili/ontology#" + name)
