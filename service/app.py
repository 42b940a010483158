"""The Flask application factory (the Flask tutorial's pattern): configuration, state, routes.

Configuration: the settings table ``SETTINGS`` in :mod:`yili_kg.service.config` (each key's
default, type and help; resolved there without Flask), each settable from the environment as
``YILI_<KEY>``, JSON-parsed, e.g. ``YILI_QUERY_TIMEOUT=5``, and the README's table lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, Response, jsonify, render_template, request

from yili_kg.loaders.errors import YiliError
from yili_kg.service.config import resolve_config, start_pool

# The views and the store are imported inside create_app, not here: `yili-kg serve` forks its
# query workers before it imports them, and its cold start (≤ 0.5 s) is these imports' time.

if TYPE_CHECKING:
    from yili_kg.service.queries import CannedAnswers
    from yili_kg.service.resultcache import ResultCache
    from yili_kg.service.store import OxigraphStore, RdflibStore
    from yili_kg.service.workers import QueryPool

#: the headers a browser's script may read (CORS hides all others)
EXPOSED = "X-Yili-Truncated, Retry-After, ETag, Last-Modified, Link, Content-Disposition"


@dataclass
class State:
    """What the application shares between requests (no module-level globals)."""

    build_dir: Path
    store: OxigraphStore | RdflibStore  # the in-process store for canned queries and pages
    pool: QueryPool  # the worker pool for /sparql
    graphs: list[str]
    version: str  # the dataset's sha256
    canned: CannedAnswers  # canned answers on the store, remembered for this version
    results: ResultCache | None = None  # /sparql answers remembered for this version


def create_app(test_config: dict | None = None, pool=None) -> Flask:
    """The application. ``pool``: a query pool already started for the same configuration
    (``yili-kg serve`` starts it before importing Flask); the application closes it."""
    app = Flask(__name__)
    app.config.from_mapping(resolve_config(test_config))
    # once, absolutely: Flask resolves a relative path against the package, not the working
    # folder (every download and the ontology answered 500 from `yili-kg serve`'s build/)
    app.config["BUILD_DIR"] = str(Path(app.config["BUILD_DIR"]).resolve())
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # DefaultJSONProvider's
    try:
        _open_state(app, pool)
    except BaseException:
        if pool is not None:  # a dataset that fails its check: no worker is left behind
            pool.close()
        raise
    from yili_kg.service.views import (
        entities,
        openapi,
        pages,
        pictures,
        reading,
        search,
        sparql,
        steps,
    )

    app.register_blueprint(sparql.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(entities.bp)
    app.register_blueprint(pictures.bp)
    app.register_blueprint(reading.bp)
    app.register_blueprint(search.bp)
    app.register_blueprint(steps.bp)
    app.register_blueprint(openapi.bp)
    _errors(app)

    @app.after_request
    def cors(response: Response) -> Response:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Accept, Content-Type"
        response.headers["Access-Control-Expose-Headers"] = EXPOSED
        response.vary.add("Accept")
        return response

    from yili_kg.loaders.built import read_manifest
    from yili_kg.service import caching

    state = app.extensions["yili"]
    caching.install(app, (read_manifest(state.build_dir) or {}).get("built", ""), state.version)

    return app


def _open_state(app: Flask, pool=None) -> None:
    from yili_kg.loaders.built import check_dataset, check_store, read_manifest
    from yili_kg.service.precomputed import PrecomputedAnswers
    from yili_kg.service.queries import CannedAnswers
    from yili_kg.service.resultcache import ResultCache
    from yili_kg.service.store import open_store

    build_dir = Path(app.config["BUILD_DIR"])
    # once, here: the store and the workers trust it (workers started before it, by
    # yili-kg serve, serve nothing until it passes, and are closed if it fails)
    check_dataset(build_dir)
    check_store(build_dir)  # the files of build/oxigraph/ against the manifest's checksums
    store = open_store(build_dir, app.config["STORE"], verified=True)
    extra = app.config["EXTRA_GRAPHS"]
    if extra:
        store = _with_extra_graphs(store, extra)
    if pool is None:
        pool = start_pool(app.config)
    manifest = read_manifest(build_dir) or {}
    version = manifest.get("dataset", {}).get("sha256", "")
    canned = CannedAnswers(
        store,
        size=int(app.config["CANNED_CACHE"]),
        max_rows=int(app.config["MAX_ROWS"]),
        max_bytes=int(app.config["CANNED_CACHE_MB"]) << 20,
        slot=getattr(pool, "slot", None),
        # the build's answers are Oxigraph's, for its dataset alone: not with extra graphs
        # beside it, nor on the rdflib reference store (which must answer for itself)
        precomputed=(
            PrecomputedAnswers(build_dir, version)
            if not extra and app.config["STORE"] == "oxigraph"
            else None
        ),
    )
    app.extensions["yili"] = State(
        build_dir,
        store,
        pool,
        store.graphs(),
        manifest.get("dataset", {}).get("sha256", ""),
        canned,
        ResultCache(int(app.config["RESULT_CACHE"]) << 20) if app.config["RESULT_CACHE"] else None,
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

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        """A fault of ours: one line in the log (not a page of trace per request), a 500."""
        from werkzeug.exceptions import HTTPException

        if isinstance(error, HTTPException):  # werkzeug's own 4xx: as werkzeug answers them
            return error
        app.logger.error(
            "%s %s: 500 %s: %s",
            request.method,
            request.full_path[:200],
            type(error).__name__,
            str(error)[:300],
        )
        message = f"internal error ({type(error).__name__}); it has been logged"
        if request.path.startswith("/sparql") or not _wants_html():
            return Response(message + "\n", status=500, content_type="text/plain; charset=utf-8")
        return render_template("error.html", status=500, message=message), 500

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
