"""Issue 16: no function of loaders/ above cyclomatic complexity 25 (radon), so that a rule of
the annotator or a stage of the pipeline can be read and changed alone."""

from pathlib import Path

import pytest

complexity = pytest.importorskip("radon.complexity")

LIMIT = 25


def test_no_function_of_the_loaders_is_above_the_limit():
    root = Path(__file__).resolve().parent.parent / "loaders"
    over = [
        f"{path.relative_to(root)}:{block.lineno} {block.fullname} ({block.complexity})"
        for path in sorted(root.rglob("*.py"))
        for block in complexity.cc_visit(path.read_text(encoding="utf-8"))
        if block.complexity > LIMIT
    ]
    assert over == [], over
