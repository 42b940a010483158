"""The Flask application factory (the Flask tutorial's pattern): configuration, state, routes.

Configuration keys (defaults in :mod:`yili_kg.service.config`, resolved there without Flask;
each can be set from the environment as ``YILI_<KEY>``, JSON-parsed, e.g.
``YILI_QUERY_TIMEOUT=5``):

``BUILD_DIR``        the built dataset (``build/``)
``STORE``            ``oxigraph`` (default) or ``rdflib`` (the reference)
``QUERY_TIMEOUT``    seconds a query may run before its worker is killed (10)
``MAX_ROWS``         rows (or triples) an answer may hold; more are cut off (10000)
``MAX_QUERY_CHARS``  longest accepted query text (20000)
``MAX_CONTENT_LENGTH`` largest accepted request body, bytes (65536)
``WORKERS``          query worker processes, the concurrency cap (2)
``QUEUE_TIMEOUT``    seconds a request waits for a free worker before a 503 (the query time limit
                     + 1 s: by then a runaway holding the worker has been stopped)
``WORKER_MEMORY``    MiB of data a query worker may hold; past it the query ends in a 503 (2048)
``EXTRA_GRAPHS``     {graph IRI: file} loaded beside the dataset (tests: W3C data)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request

from yili_kg.loaders.errors import YiliError
from yili_kg.service.config import resolve_config, start_pool


@dataclass
class State:
    """What the application shares between requests (no module-level globals)."""

    build_dir: Path
    store: object  # the in-process store for canned queries and pages
    pool: object  # the worker pool for /sparql
    graphs: list[str]
    version: str  # the dataset's sha256
    canned: object  # CannedAnswers on the store: canned answers remembered for this version


def create_app(test_config: dict | None = None, pool=None) -> Flask:
    """The application. ``pool``: a query pool already started for the same configuration
    (``yili-kg serve`` starts it before importing Flask); the application closes it."""
    app = Flask(__name__)
    app.config.from_mapping(resolve_config(test_config))
    app.json.ensure_ascii = False
    try:
        _open_state(app, pool)
    except BaseException:
        if pool is not None:  # a dataset that fails its check: no worker is left behind
            pool.close()
        raise
    from yili_kg.service import entities, pages, pictures, sparql

    app.register_blueprint(sparql.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(entities.bp)
    app.register_blueprint(pictures.bp)
    _errors(app)

    @app.after_request
    def cors(response: Response) -> Response:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Accept, Content-Type"
        response.headers.setdefault("Vary", "Accept")
        return response

    return app


def _open_state(app: Flask, pool=None) -> None:
    from yili_kg.loaders.built import check_dataset, read_manifest
    from yili_kg.service.queries import CannedAnswers
    from yili_kg.service.store import open_store

    build_dir = Path(app.config["BUILD_DIR"])
    # once, here: the store and the workers trust it (workers started before it, by
    # yili-kg serve, serve nothing until it passes, and are closed if it fails)
    check_dataset(build_dir)
    store = open_store(build_dir, app.config["STORE"], verified=True)
    extra = app.config["EXTRA_GRAPHS"]
    if extra:
        store = _with_extra_graphs(store, extra)
    if pool is None:
        pool = start_pool(app.config)
    manifest = read_manifest(build_dir) or {}
    canned = CannedAnswers(
        store, size=int(app.config["CANNED_CACHE"]), max_rows=int(app.config["MAX_ROWS"])
    )
    app.extensions["yili"] = State(
        build_dir,
        store,
        pool,
        store.graphs(),
        manifest.get("dataset", {}).get("sha256", ""),
        canned,
    )


def _with_extra_graphs(store, extra: dict):
    """A copy of the store in memory with extra graphs loaded (the W3C tests' data)."""
    from yili_kg.service.store import load_extra_graphs

    return load_extra_graphs(store, extra)


def _errors(app: Flask) -> None:
    @app.errorhandler(YiliError)
    def handle(error: YiliError):
        status = getattr(error, "status", 500) or 500
        # a 503 for want of a free worker says when to try again (RFC 9110, 10.2.3)
        headers = {"Retry-After": str(error.retry_after)} if hasattr(error, "retry_after") else {}
        if request.path.startswith("/sparql"):
            return Response(
                str(error) + "\n",
                status=status,
                content_type="text/plain; charset=utf-8",
                headers=headers,
            )
        if _wants_html():
            page = render_template("error.html", status=status, message=str(error))
            return page, status, headers
        return jsonify(error=type(error).__name__, message=str(error)), status, headers

    @app.errorhandler(413)
    def too_large(_error):
        limit = app.config["MAX_CONTENT_LENGTH"]
        message = f"the request body is larger than {limit} bytes"
        if request.path.startswith("/sparql"):
            return Response(message + "\n", status=413, content_type="text/plain")
        return jsonify(error="RequestTooLarge", message=message), 413


def _wants_html() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "text/html"
