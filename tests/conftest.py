"""Shared fixtures: one real build of the dataset per test session, in a temporary folder."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory):
    """A folder holding a complete build of the real corpus (built once per session)."""
    from yili_kg.loaders.build import run_build

    folder = tmp_path_factory.mktemp("build")
    run_build(folder)
    return folder


@pytest.fixture(scope="session")
def dataset(build_dir):
    """The built dataset in an rdflib Dataset."""
    from yili_kg.service.export import load_dataset

    return load_dataset(build_dir / "yili_kg.nq")


@pytest.fixture(scope="session")
def store(build_dir):
    """The built dataset in the embedded Oxigraph store (the service's default)."""
    from yili_kg.service.store import open_store

    return open_store(build_dir, "oxigraph")


@pytest.fixture(scope="session")
def reference_store(build_dir):
    """The built dataset in rdflib's store (the reference)."""
    from yili_kg.service.store import open_store

    return open_store(build_dir, "rdflib")


@pytest.fixture(scope="session")
def text_layer():
    from yili_kg.loaders.textlayer import build_text_layer

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
