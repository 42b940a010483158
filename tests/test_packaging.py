"""The package list of pyproject.toml covers every folder of code (a wheel drops the rest)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_python_folder_is_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = {Path(folder) for folder in config["package-dir"].values()}
    listed = set(config["packages"])
    for init in ROOT.glob("*/**/__init__.py"):
        folder = init.parent.relative_to(ROOT)
        if folder.parts[0] in {"tests", "bench", "build", "docs"} or ".venv" in folder.parts:
            continue
        top = Path(folder.parts[0])
        assert top in mapped, f"{folder} is not mapped in [tool.setuptools.package-dir]"
        dotted = "yili_kg." + ".".join(folder.parts)
        assert dotted in listed, f"{dotted} missing from [tool.setuptools] packages"


def test_package_data_covers_the_corpus_and_queries():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    data = config["package-data"]
    assert (
        "kanripo-raw/*/*.txt" in data["yili_kg.corpus"] and "seeds/*.txt" in data["yili_kg.corpus"]
    )
    # every witness the manifest lists ships in the wheel
    corpus = ROOT / "corpus"
    shipped = {
        p.relative_to(corpus).as_posix() for g in data["yili_kg.corpus"] for p in corpus.glob(g)
    }
    listed = [
        line.split("\t")[0] for line in (corpus / "MANIFEST.tsv").read_text("utf-8").splitlines()
    ]
    listed = [path for path in listed if path and not path.startswith("#") and path != "path"]
    assert set(listed) <= shipped, sorted(set(listed) - shipped)
    assert "*.ttl" in data["yili_kg.ontology"]
