"""Shared fixtures: real builds of the dataset, once per test session.

``build_dir`` (and ``dataset``, ``store``, ``reference_store``, ``ask``) is the MINI dataset:
the real pipeline on a few phases of two rites (``MINI``: 鄉射禮 戒賓 … 酬賓, 鄉飲酒禮 …
主人酬賓), built in seconds and kept in ``.pytest_cache`` for the next session while nothing
it depends on changes (:func:`source_digest`). ``full_build_dir`` (``full_dataset``,
``full_store``, ``full_ask``) is the whole book, for the tests marked ``slow`` that assert
facts of the whole text; a module of them points the short names at the full ones.

``MINI`` is put in the environment for the whole session, so that a ``yili-kg build`` or
``serve`` a test starts on the mini build finds it up to date (the selection is part of
every stage's key: a mini build never passes for a whole one, nor the reverse).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: the mini dataset's selection (loaders/subset.py): phases 1-8 of 鄉射禮 (戒賓 … 酬賓) and
#: sections 1-9 of 鄉飲酒禮 (… 主人戒賓 … 主人酬賓): both rites' host-and-guest exchanges, aligned
MINI = {"YILI_RITES": "xiangshe,xiangyinjiu", "YILI_PHASES": "xiangshe:1-8,xiangyinjiu:1-9"}


def pytest_configure(config):
    os.environ.update(MINI)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config, items):
    """A test that needs the whole book's build is slow (``pytest -m slow`` runs it)."""
    for item in items:
        if "full_build_dir" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


#: what a build reads, and what serves it: every file of these folders of the checkout
SOURCES = ("loaders", "service", "ontology", "queries", "corpus")


def source_digest() -> str:
    """A digest of every file a build of ``MINI`` reads or its answers depend on (the package's
    folders, their code and corpus), the ``YILI_*`` environment (the selection, a corpus named
    by ``YILI_CORPUS`` …), Python and every installed distribution's version: a kept mini
    build is used again only while all of these are the same."""
    import hashlib
    import sys
    from importlib import metadata

    settings = {k: v for k, v in os.environ.items() if k.startswith("YILI_")}
    digest = hashlib.sha256(json_of([settings, sys.version]).encode())
    root = Path(__file__).resolve().parents[1]
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update(json_of(versions).encode())
    return digest.hexdigest()


def json_of(value) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@pytest.fixture(scope="session")
def build_dir(request, tmp_path_factory):
    """A folder holding a build of the mini corpus (``MINI``; built once per session).

    The build is kept between sessions in pytest's cache folder (``.pytest_cache/d/``) and
    used again only if :func:`source_digest` is unchanged; otherwise it is removed and built
    from nothing. The downloads the web app writes into it (``downloads/``, once per dataset
    version) are kept with it: the same code on the same dataset writes the same bytes (a
    test says so), and any change of either starts from nothing. A second session running at
    the same time in the same checkout builds its own, in a temporary folder."""
    import fcntl
    import shutil

    from yili_kg.loaders.build import run_build

    # YILI_TEST_BUILD_DIR: a build folder kept between sessions (rebuilt only if out of date)
    kept = os.environ.get("YILI_TEST_BUILD_DIR")
    if kept:
        folder = Path(kept).resolve()
        run_build(folder)
        yield folder
        return
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    home = cache.mkdir("yili-mini-build") if cache is not None else None
    with open(home / "session.lock" if home else os.devnull, "a+") as lock:
        try:
            if home is None:
                raise BlockingIOError
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # no cache, or another session holds it: a build of our own
            folder = tmp_path_factory.mktemp("build")
            run_build(folder)
            yield folder
            return
        folder, key = home / "build", home / "build.key"
        digest = source_digest()
        if not key.exists() or key.read_text(encoding="ascii") != digest:
            key.unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)
        run_build(folder)  # checks the kept dataset and store against their checksums
        key.write_text(digest, encoding="ascii")
        yield folder


@pytest.fixture(scope="session")
def full_build_dir(tmp_path_factory):
    """A folder holding a complete build of the real corpus, every rite and phase (slow)."""
    from yili_kg.loaders.build import run_build

    # YILI_TEST_FULL_BUILD_DIR: a whole-book build folder kept between sessions (rebuilt only if
    # out of date), as YILI_TEST_BUILD_DIR is for the mini one
    kept = os.environ.get("YILI_TEST_FULL_BUILD_DIR")
    folder = Path(kept).resolve() if kept else tmp_path_factory.mktemp("full-build")
    with pytest.MonkeyPatch.context() as patch:
        for name in MINI:
            patch.delenv(name, raising=False)
        run_build(folder)
    return folder


@pytest.fixture(scope="session")
def dataset(build_dir):
    """The built dataset in an rdflib Dataset."""
    from yili_kg.service.export import load_dataset

    return load_dataset(build_dir / "yili_kg.nq")


@pytest.fixture(scope="session")
def full_dataset(full_build_dir):
    """The whole book's dataset in an rdflib Dataset."""
    from yili_kg.service.export import load_dataset

    return load_dataset(full_build_dir / "yili_kg.nq")


@pytest.fixture(scope="session")
def store(build_dir):
    """The built dataset in the embedded Oxigraph store (the service's default)."""
    from yili_kg.service.store import open_store

    return open_store(build_dir, "oxigraph")


@pytest.fixture(scope="session")
def full_store(full_build_dir):
    """The whole book's dataset in the embedded Oxigraph store."""
    from yili_kg.service.store import open_store

    return open_store(full_build_dir, "oxigraph")


@pytest.fixture(scope="session")
def reference_store(build_dir):
    """The built dataset in rdflib's store (the reference)."""
    from yili_kg.service.store import open_store

    return open_store(build_dir, "rdflib")


@pytest.fixture(scope="session")
def text_layer():
    from yili_kg.loaders.text.textlayer import build_text_layer

    return build_text_layer()


PREFIXES = """PREFIX yl: <https://w3id.org/yili/ontology#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX role: <https://w3id.org/yili/id/role/>
PREFIX object: <https://w3id.org/yili/id/object/>
PREFIX place: <https://w3id.org/yili/id/place/>
PREFIX direction: <https://w3id.org/yili/id/direction/>
"""


@pytest.fixture(scope="session")
def ask(store):
    """Run a SPARQL query (with the project's prefixes) on the embedded store."""

    def run(sparql: str, **bindings):
        return store.query(PREFIXES + sparql, bindings or None)

    return run


@pytest.fixture(scope="session")
def full_ask(full_store):
    """Run a SPARQL query (with the project's prefixes) on the whole book's store."""

    def run(sparql: str, **bindings):
        return full_store.query(PREFIXES + sparql, bindings or None)

    return run


@pytest.fixture(scope="session")
def serve():
    """``with serve(app, threads=4, **waitress_options) as base_url``: ``app`` behind a real
    waitress server on a free loopback port (as ``yili-kg serve`` runs it), stopped after."""
    import contextlib
    import threading

    @contextlib.contextmanager
    def running(app, threads: int = 4, **options):
        import waitress

        server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads, **options)
        stopping = threading.Event()

        def run() -> None:
            try:
                server.run()
            except OSError:  # its loop polled a socket closed under it by close() below
                if not stopping.is_set():
                    raise

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.effective_port}"
        finally:
            stopping.set()
            server.close()
            thread.join(timeout=5)

    return running


@pytest.fixture(scope="session")
def serve_app(serve):
    """``with serve_app(config, threads) as base_url``: a new app made from ``config``, served
    as by :func:`serve`; its query workers closed afterwards."""
    import contextlib

    @contextlib.contextmanager
    def serving(config: dict, threads: int = 4):
        from yili_kg.service.app import create_app

        app = create_app(config)
        try:
            with serve(app, threads) as url:
                yield url
        finally:
            app.extensions["yili"].pool.close()

    return serving


@pytest.fixture(scope="module")
def app(build_dir):
    """An app on the session's build, for the test client (pages without a server); to
    iterate quickly, point ``YILI_TEST_BUILD_DIR`` at a finished build."""
    from yili_kg.service.app import create_app

    app = create_app({"BUILD_DIR": str(build_dir), "WORKERS": 1, "TESTING": True})
    yield app
    app.extensions["yili"].pool.close()


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()
