"""The examples in the modules' docstrings run (pyoxigraph's test_doc.py pattern)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "yili_kg.loaders.annotate",
    "yili_kg.loaders.annotations",
    "yili_kg.loaders.align",
    "yili_kg.loaders.iris",
    "yili_kg.loaders.ontology",
    "yili_kg.loaders.pinyin",
    "yili_kg.loaders.texts",
    "yili_kg.loaders.variants",
    "yili_kg.service.lexer",
    "yili_kg.service.sparql",
    "yili_kg.service.store",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
