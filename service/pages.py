"""Pages: home, canned queries (HTML, JSON, CSV), the query editor, downloads, ontology doc.

Canned queries are ours and bounded: they run in the web process on its store, and their
answers are cached per dataset version and parameters (an LRU of ``CANNED_CACHE`` entries).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, send_file

from yili_kg.loaders.errors import BadQueryParameter
from yili_kg.service.queries import bindings_for, load_queries, service_query
from yili_kg.service.sparql import MEDIA, SELECT_TYPES, negotiate

bp = Blueprint("pages", __name__)

EXAMPLES = [
    ("bows", {"role": "賓"}, "To whom does the guest bow, and how?"),
    ("phase-acts", {"phase": "獻賓"}, "Who does what when the host offers the cup to the guest?"),
    ("role-persons", {}, "Who is the man behind 相, 司正 and 司馬?"),
    (
        "clause-commentary",
        {"passage": "jing/1.2.1"},
        "What does the commentary say about 主人戒賓?",
    ),
]


def run_canned(name: str, values: dict[str, str]):
    """The answer of a canned query, from the cache when the same question was asked before."""
    return current_app.extensions["yili"].canned.answer(name, values)


def _format() -> str:
    explicit = request.args.get("format")
    if explicit:
        if explicit not in MEDIA and explicit != "html":
            raise BadQueryParameter(f"unknown format {explicit!r}: html, json, csv, tsv or xml")
        return explicit
    best = request.accept_mimetypes.best_match(["text/html", *SELECT_TYPES])
    if best == "text/html" or best is None:
        return "html"
    return negotiate(request.headers.get("Accept", ""), SELECT_TYPES, "json")


@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
def http_error(error):
    """Flask's own 404 and 405 (no such route, wrong method) as the site's error page."""
    from flask import jsonify

    status, message = error.code, error.description
    if request.path.startswith("/sparql"):
        response = Response(message + "\n", content_type="text/plain; charset=utf-8")
    elif request.accept_mimetypes.best_match(["text/html", "application/json"]) == "text/html":
        response = Response(render_template("error.html", status=status, message=message))
    else:
        response = jsonify(error=error.name, message=message)
    response.status_code = status
    if getattr(error, "valid_methods", None):  # a 405 names the methods that are allowed
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


@bp.route("/")
def home():
    state = current_app.extensions["yili"]
    _, counts = run_canned("counts", {})
    examples = []
    for name, values, question in EXAMPLES:
        query, answer = run_canned(name, values)
        examples.append((question, query, values, answer))
    return render_template(
        "home.html",
        counts=counts,
        examples=examples,
        queries=load_queries(),
        version=state.version[:12],
    )


@bp.route("/queries")
@bp.route("/queries/")
def query_index():
    queries = load_queries()
    if _format() == "json":
        return {
            name: {
                "title": q.title,
                "title_en": q.title_en,
                "description": q.description,
                "params": [vars(p) for p in q.params],
                "example": q.example,
                "url": f"/queries/{name}",
            }
            for name, q in queries.items()
        }
    return render_template("queries.html", queries=queries)


@bp.route("/queries/<name>")
def canned(name: str):
    values = {k: v for k, v in request.args.items() if k != "format"}
    fmt = _format()
    if fmt == "html":
        query, answer = run_canned(name, values)
        shown = {p.name: values.get(p.name, p.default) for p in query.params}
        return render_template("query.html", query=query, answer=answer, values=shown)
    body = current_app.extensions["yili"].canned.serialised(name, values, fmt)
    return Response(body, content_type=MEDIA[fmt])


@bp.route("/editor")
def editor():
    import json

    from yili_kg.service.store import bind_values

    state = current_app.extensions["yili"]
    sources = {}
    for name, query in load_queries().items():  # each example with its defaults bound
        sources[name] = bind_values(query.sparql, bindings_for(query, {}, state.store))
    return render_template(
        "editor.html",
        queries=load_queries(),
        queries_json=json.dumps(sources, ensure_ascii=False).replace("</", "<\\/"),
    )


DOWNLOADS = [
    ("all", "nq"),
    ("all", "trig"),
    ("all", "ttl"),
    ("all", "nt"),
    ("all", "jsonld"),
    ("all", "xml"),
    ("asserted", "ttl"),
    ("inferred", "ttl"),
    ("ontology", "ttl"),
    ("ontology", "jsonld"),
    ("ontology", "xml"),
]


@bp.route("/downloads")
def downloads():
    return render_template("downloads.html", downloads=DOWNLOADS)


@bp.route("/downloads/<graph>.<fmt>")
def download(graph: str, fmt: str):
    from yili_kg.loaders.build import atomic_write
    from yili_kg.service.export import FORMATS, GRAPH_CHOICES, export

    if graph not in GRAPH_CHOICES or fmt not in FORMATS:
        abort(404)
    state = current_app.extensions["yili"]
    folder = state.build_dir / "downloads" / state.version[:16]
    path = folder / f"yili-kg-{graph}.{fmt}"
    if not path.exists():  # made once per dataset version, then served from disk
        data = export(state.build_dir / "yili_kg.nq", fmt, graph)
        atomic_write(path, lambda h: h.write(data), binary=True)
    return send_file(path, mimetype=FORMATS[fmt][1], as_attachment=True, download_name=path.name)


@bp.route("/void")
def void():
    state = current_app.extensions["yili"]
    answer = state.store.query(service_query("void"))
    from yili_kg.service.sparql import GRAPH_MEDIA, GRAPH_TYPES

    fmt = negotiate(request.headers.get("Accept", "text/turtle"), GRAPH_TYPES, "ttl")
    return Response(answer.serialise_graph(fmt), content_type=GRAPH_MEDIA[fmt])


@bp.route("/ontology")
def ontology():
    state = current_app.extensions["yili"]
    wants = request.accept_mimetypes.best_match(
        ["text/html", "text/turtle", "application/ld+json", "application/rdf+xml"]
    )
    if wants in (None, "text/html"):
        page = state.build_dir / "ontology.html"
        if not page.exists():
            abort(404)
        return send_file(page, mimetype="text/html")
    fmt = {"text/turtle": "ttl", "application/ld+json": "jsonld", "application/rdf+xml": "xml"}
    return download("ontology", fmt[wants])
