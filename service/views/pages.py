"""Pages: home, canned queries (HTML, JSON, CSV), the query editor, downloads, ontology doc.

Canned queries are ours and bounded: they run in the web process on its store, and their
answers are cached per dataset version and parameters (an LRU of ``CANNED_CACHE`` entries).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, send_file

from yili_kg.service.formats import OFFERS, format_params, negotiate
from yili_kg.service.queries import bindings_for, load_queries, service_query

# The exports, pictures' machinery and rdflib are imported inside the views that use them: this
# module is imported at the service's start (cold start ≤ 0.5 s).

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


def run_canned(name: str, values: dict[str, str], capped: bool = True):
    """The answer of a canned query, from the cache when the same question was asked before
    (``capped=False``: the home page's own questions, see ``CannedAnswers.answer``)."""
    return current_app.extensions["yili"].canned.answer(name, values, capped)


def _format() -> str:
    """html, json, xml, csv or tsv: a known ``format=`` value, else by Accept (406 if none)."""
    return negotiate("table", request.headers.get("Accept"), format_params(request.args)).name


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
    _, counts = run_canned("counts", {}, capped=False)  # `/` never waits behind queries
    examples = []
    for name, values, question in EXAMPLES:
        query, answer = run_canned(name, values, capped=False)
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
    values = {k: v for k, v in request.args.items() if k not in NOT_PARAMETERS}
    fmt = _format()
    from urllib.parse import quote

    from yili_kg.service.forms import answer_in_forms

    canned_answers = current_app.extensions["yili"].canned
    query, answered, tried = answer_in_forms(canned_answers, name, values)
    if fmt == "html":
        from yili_kg.service.views.reading import remembered

        shown = {p.name: values.get(p.name, p.default) for p in query.params}
        return remembered(  # a long answer's table took longer to render than to answer
            "canned",
            (name, tuple(sorted(values.items()))),
            lambda: render_template(
                "query.html",
                query=query,
                answer=canned_answers.answer(name, answered)[1],
                values=shown,
                tried=tried,
                answered=answered,
            ),
        )
    body = canned_answers.serialised(name, answered, fmt)
    media = next(f for f in OFFERS["results"] if f.name == fmt).content_type
    headers = {}
    if fmt in ("csv", "tsv"):  # a spreadsheet's file: named, and a BOM when asked (Excel)
        headers["Content-Disposition"] = f'inline; filename="{name}.{fmt}"'
        if request.args.get("bom") in ("1", "true", "yes"):
            body = "\ufeff".encode() + body
    if tried:  # an empty answer, asked again in the other script: which forms were tried
        headers["X-Yili-Forms-Tried"] = ", ".join(
            f"{param}={quote(form)}" for param, form, _ in tried
        )
    return Response(body, content_type=media, headers=headers)


#: request parameters that are not the canned query's (format choice, the CSV's BOM)
NOT_PARAMETERS = ("format", "output", "results", "bom")


@bp.route("/editor")
def editor():
    import json

    from yili_kg.service.store import bind_values
    from yili_kg.service.views.reading import remembered

    state = current_app.extensions["yili"]

    def page() -> str:  # the same for this dataset version: made once
        sources = {}
        for name, query in load_queries().items():  # each example with its defaults bound
            sources[name] = bind_values(query.sparql, bindings_for(query, {}, state.store))
        return render_template(
            "editor.html",
            queries=load_queries(),
            queries_json=json.dumps(sources, ensure_ascii=False).replace("</", "<\\/"),
        )

    return remembered("editor", None, page)


@bp.route("/downloads")
def downloads():
    from rdflib import URIRef

    from yili_kg.loaders.graph.rdf import RITES
    from yili_kg.loaders.iris import YL
    from yili_kg.service.catalog import DOWNLOADS  # its module imports rdflib

    store = current_app.extensions["yili"].store
    rites = [  # the rites this build holds, each as a TEI document
        (slug, names[0])
        for slug, names in RITES.items()
        if store.query(
            service_query("exists"),
            {"x": URIRef(f"https://w3id.org/yili/id/rite/{slug}"), "class": YL.Rite},
        ).boolean
    ]
    return render_template("downloads.html", downloads=DOWNLOADS, rites=rites)


@bp.route("/downloads/<graph>.<fmt>")
def download(graph: str, fmt: str, attachment: bool = True):
    from yili_kg.service.export import GRAPH_CHOICES
    from yili_kg.service.formats import EXPORTS

    if graph not in GRAPH_CHOICES or fmt not in EXPORTS:
        abort(404)
    path = download_file(graph, fmt)
    return send_file(
        path,
        mimetype=EXPORTS[fmt].content_type,
        as_attachment=attachment,
        download_name=path.name,
        conditional=True,
    )


@bp.route("/downloads/tei/<rite>.xml")
def download_tei(rite: str):
    """One rite as a TEI P5 document (written once per dataset version, as the others)."""
    from yili_kg.loaders.graph.rdf import RITES

    if rite not in RITES:
        abort(404)
    path = download_file("tei", rite)
    return send_file(
        path,
        mimetype="application/tei+xml",
        as_attachment=True,
        download_name=f"yili-kg-{rite}.tei.xml",
        conditional=True,
    )


def download_file(graph: str, fmt: str):
    """The export's file, written once per dataset version (one writer per file: a second
    request for it waits for the first instead of writing it again)."""
    import threading

    from yili_kg.loaders.build import atomic_write
    from yili_kg.service.catalog import checksum_of, download_path
    from yili_kg.service.export import export

    state = current_app.extensions["yili"]
    path = download_path(state.build_dir, state.version, graph, fmt)
    locks = current_app.extensions.setdefault("yili-downloads", {})
    with current_app.extensions.setdefault("yili-downloads-lock", threading.Lock()):
        lock = locks.setdefault(path.name, threading.Lock())
    with lock:
        if not path.exists() and graph == "tei":  # fmt: the rite
            from yili_kg.service.tei import tei_export

            data = tei_export(state.store, fmt)
            atomic_write(path, lambda h: h.write(data), binary=True)
        elif not path.exists():
            data = export(state.build_dir / "yili_kg.nq", fmt, graph)
            atomic_write(path, lambda h: h.write(data), binary=True)
            checksum_of(path)  # the description's spdx:checksum, noted once
    return path


@bp.route("/void")
def void():
    """The dataset's VoID/DCAT description: RDF by Accept, its entity page for a browser."""
    from yili_kg.loaders.iris import DATASET
    from yili_kg.service.views.entities import ID, entity

    chosen = negotiate("description", request.headers.get("Accept"), format_params(request.args))
    if chosen.kind == "html":
        return entity(str(DATASET)[len(ID) :])
    from yili_kg.loaders.built import read_manifest
    from yili_kg.service.catalog import catalogue

    state = current_app.extensions["yili"]
    meta = state.store.query(service_query("void")).serialise_graph("nt")
    built = (read_manifest(state.build_dir) or {}).get("built", "")
    graph = catalogue(meta, request.host_url, state.build_dir, state.version, built)
    return Response(graph.serialize(format=chosen.rdflib), content_type=chosen.content_type)


@bp.route("/ontology")
def ontology():
    state = current_app.extensions["yili"]
    chosen = negotiate("page", request.headers.get("Accept"), format_params(request.args))
    if chosen.kind == "html":
        page = state.build_dir / "ontology.html"
        if not page.exists():
            abort(404)
        return send_file(page, mimetype="text/html")
    return download("ontology", chosen.name, attachment=False)
