"""The service's text scans are linear: adversarial queries at the size limit cost the web
process no more per character than small ones (20 KB of ``"\\`` took seconds when the
tokenizer was quadratic, outside any worker and any time limit).

Work is compared between two sizes (CPU time of this process, best of three), not against a
wall-clock threshold: a linear scan of ten times the text costs about ten times as much, a
quadratic one a hundred times.
"""

from __future__ import annotations

import random
import time

import pytest

from yili_kg.service import lexer, remote
from yili_kg.service.views import sparql

LIMIT = 20000  # MAX_QUERY_CHARS
SHAPES = ['"\\', "'\\", "a.", '"""\\', "'''\\", "<a", "a:\\", "?", "a-", '"a\\\n', "<.", "#\n"]


def cost(function, text: str) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        function(text)
        best = min(best, time.process_time() - started)
    return best


def scan(text: str) -> None:
    list(lexer.tokens(text))
    lexer.without_comments(text)
    sparql.inspect_query(text)
    remote.query_form(text)


def fuzz(seed: int, size: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("\"'\\<>:.a#\n ?{}-") for _ in range(size))


@pytest.mark.parametrize("shape", SHAPES + ["fuzz"], ids=repr)
def test_scans_are_linear_at_the_size_limit(shape):
    def text(size: int) -> str:
        if shape == "fuzz":
            return fuzz(7, size)
        return (shape * size)[:size]

    small, large = text(LIMIT // 10), text(LIMIT)
    scan(small)  # warm (regex compilation, caches)
    ratio = cost(scan, large) / max(cost(scan, small), 1e-4)
    assert ratio < 30, f"{ratio:.0f}× the work for 10× the text"


def test_the_tokens_are_what_the_parser_reads():
    values = [t.value for t in lexer.tokens('SELECT * { ?s a.b "x\\"y" . ?s ex:o. } # }')]
    assert values == ["SELECT", "*", "{", "?s", "a", ".", "b", '"x\\"y"', ".", "?s", "ex:o.", "}"]
    # a string that does not close runs to its line's end: the parser fails on it too
    assert [t.kind for t in lexer.tokens('"abc } FROM <x:g>\nSELECT')] == ["string", "word"]
    assert sparql.inspect_query('SELECT * { ?s ?p "\\\\" } FROM <x:g>').from_graphs == ["x:g"]
