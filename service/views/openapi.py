"""An OpenAPI 3.1 description of the HTTP API (``/openapi.json``), made from the application.

Every route of the application's URL map is an operation (its methods, its path parameters,
the media types :mod:`yili_kg.service.formats` offers for it), and every canned query is an
operation of its own at ``/queries/NAME`` with its parameters, defaults and description.
"""

from __future__ import annotations

import re
from importlib import metadata

from flask import Blueprint, current_app, jsonify, request

from yili_kg.service.formats import OFFERS
from yili_kg.service.queries import load_queries

bp = Blueprint("openapi", __name__)

#: what each route answers, as a kind of :data:`~yili_kg.service.formats.OFFERS`
KINDS = {
    "/ontology": "page",
    "/ontology/term/{name}": "page",
    "/id/{path}": "page",
    "/void": "description",
    "/queries": "table",
    "/queries/": "table",
}
FORMAT = {
    "name": "format",
    "in": "query",
    "required": False,
    "description": "A format's short name, overriding Accept when known (json, xml, csv, tsv, "
    "ttl, nt, jsonld, html …; SPARQLWrapper's names too); an unknown value is ignored.",
    "schema": {"type": "string"},
}
SUMMARIES = {
    "/": "Home page: examples, counts",
    "/sparql": "SPARQL 1.1 Protocol endpoint (read-only); Service Description without a query",
    "/queries": "The canned queries",
    "/queries/": "The canned queries",
    "/editor": "The SPARQL query editor",
    "/downloads": "The dataset's downloads",
    "/downloads/{graph}.{fmt}": "The dataset (or one graph) in an RDF syntax",
    "/void": "The dataset's VoID / DCAT description",
    "/ontology": "The ontology: documentation or RDF",
    "/ontology/term/{name}": "One term of the ontology",
    "/id/{path}": "The resource https://w3id.org/yili/id/{path}",
    "/openapi.json": "This description",
}


def _content(kind: str) -> dict:
    return {offer.media: {"schema": {}} for offer in OFFERS[kind]}


def _responses(kind: str | None) -> dict:
    ok: dict[str, object] = {"description": "the answer"}
    if kind is not None:
        ok["content"] = _content(kind)
    responses = {"200": ok, "400": {"description": "a bad request (the message says why)"}}
    if kind is not None:
        responses["304"] = {"description": "not modified (If-None-Match, If-Modified-Since)"}
        responses["406"] = {"description": "no acceptable media type (the message lists them)"}
    return responses


def _sparql() -> dict:
    graphs = [
        {
            "name": name,
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": "a graph of the dataset (SPARQL 1.1 Protocol)",
        }
        for name in ("default-graph-uri", "named-graph-uri")
    ]
    answer = {**_content("results"), **_content("graph")}
    responses = {
        "200": {
            "description": "results (SELECT, ASK) or a graph (CONSTRUCT, DESCRIBE)",
            "content": answer,
        },
        "400": {"description": "a malformed query, SERVICE, a graph not in the dataset"},
        "403": {"description": "SPARQL Update: this endpoint is read-only"},
        "406": {"description": "no acceptable media type"},
        "413": {"description": "the request body is too large"},
        "503": {"description": "time limit, memory limit, or no free worker (Retry-After)"},
    }
    query = {
        "name": "query",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "the SPARQL query (without it: the Service Description)",
    }
    form = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    return {
        "get": {
            "operationId": "sparqlGet",
            "summary": SUMMARIES["/sparql"],
            "parameters": [query, *graphs, FORMAT],
            "responses": responses,
        },
        "post": {
            "operationId": "sparqlPost",
            "summary": "SPARQL query by POST (form or application/sparql-query)",
            "parameters": [*graphs, FORMAT],
            "requestBody": {
                "required": True,
                "content": {
                    "application/x-www-form-urlencoded": {"schema": form},
                    "application/sparql-query": {"schema": {"type": "string"}},
                },
            },
            "responses": responses,
        },
    }


def _canned(name: str, query) -> dict:
    parameters = [
        {
            "name": p.name,
            "in": "query",
            "required": False,
            "description": f"{p.description} ({p.type}; default {p.default})".strip(),
            "schema": {"type": "string", "default": p.default},
        }
        for p in query.params
    ]
    bom = {
        "name": "bom",
        "in": "query",
        "required": False,
        "schema": {"type": "boolean"},
        "description": "CSV/TSV: begin with a byte-order mark (for spreadsheets)",
    }
    return {
        "get": {
            "operationId": f"query-{name}",
            "summary": query.title_en or query.title,
            "description": query.description,
            "tags": ["canned queries"],
            "parameters": [*parameters, FORMAT, bom],
            "responses": _responses("table"),
        }
    }


def describe_api(app, server_url: str) -> dict:
    """The OpenAPI document of ``app`` served at ``server_url``."""

    paths: dict[str, dict] = {}
    used: set[str] = set()
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        if path == "/queries/{name}":
            continue  # each canned query is its own operation below
        if path == "/sparql":
            paths[path] = _sparql()
            continue
        kind = KINDS.get(path)
        if path.startswith("/downloads/"):
            kind = "dataset"
        parameters = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in rule.arguments
        ]
        if kind is not None:
            parameters.append(FORMAT)
        operation = {
            "operationId": rule.endpoint.replace(".", "-"),
            "summary": SUMMARIES.get(path, rule.endpoint),
            "parameters": parameters,
            "responses": _responses(kind)
            if kind
            else {"200": {"description": "the answer", "content": {"text/html": {"schema": {}}}}},
        }
        if path == "/openapi.json":
            operation["responses"] = {
                "200": {
                    "description": "this document",
                    "content": {"application/json": {"schema": {}}},
                }
            }
        while operation["operationId"] in used:  # one endpoint under two rules (/queries/)
            operation["operationId"] += "-alias"
        used.add(operation["operationId"])
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        paths[path] = {method.lower(): dict(operation) for method in methods}
        if len(methods) > 1:
            for method in methods:
                paths[path][method.lower()]["operationId"] += f"-{method.lower()}"
    for name, query in load_queries().items():
        paths[f"/queries/{name}"] = _canned(name, query)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "yili-kg",
            "version": _version(),
            "description": "A knowledge graph of the 儀禮 (Yili): SPARQL endpoint, canned "
            "queries, entity pages, downloads. Content negotiation by Accept (or format=).",
            "license": {
                "name": "CC BY-SA 4.0 (data), MIT (code)",
                "url": "https://creativecommons.org/licenses/by-sa/4.0/",
            },
        },
        "servers": [{"url": server_url.rstrip("/")}],
        "paths": paths,
    }


def _version() -> str:

    return metadata.version("yili-kg")


@bp.route("/openapi.json")
def openapi():
    return jsonify(describe_api(current_app, request.host_url))
