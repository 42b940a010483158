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
def serve_app():
    """``with serve_app(config, threads) as base_url``: the app behind a real waitress server
    on a free loopback port, its query workers closed afterwards."""
    import contextlib
    import threading

    @contextlib.contextmanager
    def serve(config: dict, threads: int = 4):
        import waitress

        from yili_kg.service.app import create_app

        app = create_app(config)
        server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.effective_port}"
        finally:
            server.close()
            thread.join(timeout=5)
            app.extensions["yili"].pool.close()

    return serve
