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
    """The built dataset in an rdflib Dataset (the reference store)."""
    from yili_kg.service.export import load_dataset

    return load_dataset(build_dir / "yili_kg.nq")


@pytest.fixture(scope="session")
def text_layer():
    from yili_kg.loaders.textlayer import build_text_layer

    return build_text_layer()
