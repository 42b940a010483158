"""Entity pages: every IRI under ``https://w3id.org/yili/id/`` resolves at ``/id/…``.

HTML for browsers (labels, types, every fact out and in, the passages and commentary of an
event or a clause); Turtle, N-Triples, JSON-LD or RDF/XML for machines, by Accept.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for

from yili_kg.loaders.errors import EntityNotFound
from yili_kg.service.formats import alternates, format_params, negotiate
from yili_kg.service.queries import service_query
from yili_kg.service.views.reading import entity_reading, remembered

bp = Blueprint("entities", __name__)
ID = "https://w3id.org/yili/id/"
MAX_INCOMING = 500


def describe(iri: str):
    """Facts out of and into a resource (404 if the dataset says nothing of it)."""
    from rdflib import URIRef  # with the first page that needs it: not on the start path

    store = current_app.extensions["yili"].store
    node = URIRef(iri)
    out = store.query(service_query("entity-out"), {"s": node})
    incoming = store.query(service_query("entity-in"), {"o": node}, limit=MAX_INCOMING)
    if not out.rows and not incoming.rows:
        raise EntityNotFound(f"nothing is known of {iri}")
    return out, incoming


def _page(iri: str):
    from rdflib import URIRef

    chosen = negotiate("page", request.headers.get("Accept"), format_params(request.args))
    links = {"Link": alternates(request.path)}  # every representation, for any client
    if chosen.kind == "html":
        page = remembered("entity", iri, lambda: _html(iri))  # once per dataset version
        return page, 200, links
    answer = current_app.extensions["yili"].store.query(
        service_query("entity-graph"), {"s": URIRef(iri)}
    )
    if not answer.triples:
        raise EntityNotFound(f"nothing is known of {iri}")
    body = answer.serialise_graph(chosen.name)
    return Response(body, content_type=chosen.content_type, headers=links)


def _html(iri: str) -> str:
    out, incoming = describe(iri)

    reading_url, reading_html = entity_reading(iri)
    return render_template(
        "entity.html",
        iri=iri,
        out=out,
        incoming=incoming,
        title=_title(out, iri),
        reading_url=reading_url,
        reading_html=reading_html,
    )


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


#: what an IRI may not hold (RFC 3987; the IRIREF of SPARQL and Turtle)
_NOT_IN_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\]')


def _iri(base: str, rest: str) -> str:
    if _NOT_IN_IRI.search(rest):
        raise EntityNotFound(
            f'{base}{rest!r} is not an IRI (it holds a space or one of <>"{{}}|^`\\), so '
            "nothing in the dataset has it"
        )
    return base + rest


@bp.route("/id/<path:path>")
def entity(path: str):
    iri = _iri(ID, path)
    moved = _replaced_by(iri)
    if moved is not None:
        # a published clause id retired when the rite was cut anew: 301 to the passage that
        # now holds its first character (its other replacements are on the old IRI's triples)
        target = (
            url_for("entities.entity", path=moved[len(ID) :]) if moved.startswith(ID) else moved
        )
        query = request.query_string.decode("ascii", "replace")
        return redirect(target + (f"?{query}" if query else ""), code=301)
    return _page(iri)


def _replaced_by(iri: str) -> str | None:
    from rdflib import URIRef

    store = current_app.extensions["yili"].store
    answer = store.query(service_query("replaced-by"), {"s": URIRef(iri)})
    return answer.rows[0]["new"].value if answer.rows else None


@bp.route("/ontology/term/<name>")
def term(name: str):
    return _page(_iri("https://w3id.org/yili/ontology#", name))
