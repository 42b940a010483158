"""Bad input to the build: each fault gives exit code 1 and one clear line naming the file
and the place, and the last good build is left as it was.

Each test breaks a scratch copy of the corpus or of the ontology (``$YILI_CORPUS``,
``$YILI_ONTOLOGY``; the real files are never touched) and runs ``yili-kg build`` on a copy
of a good build, as a user would, in a subprocess.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yili_kg.loaders.build import check_dataset, ontology_dir
from yili_kg.loaders.corpus import corpus_dir

ANNOTATIONS = Path("annotations") / "xiangshe" / "06-獻賓.tsv"


@pytest.fixture(scope="module")
def good_build(build_dir, tmp_path_factory) -> Path:
    """A copy of a complete, good build: what a failed build must leave alone."""
    folder = tmp_path_factory.mktemp("good") / "build"
    shutil.copytree(build_dir, folder, ignore=shutil.ignore_patterns("downloads"))
    return folder


@pytest.fixture()
def corpus(tmp_path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), folder)
    return folder


def fingerprint(build: Path) -> dict[str, str]:
    """What the service reads from a build: the dataset, its manifest, the persisted store."""
    files = ["yili_kg.nq", "manifest.json", "oxigraph/BUILD", "ontology.html"]
    return {name: hashlib.sha256((build / name).read_bytes()).hexdigest() for name in files}


def build(good_build: Path, **env) -> tuple[int, list[str]]:
    """``yili-kg build`` on the good build with the given environment: (exit code, stderr lines)."""
    before = fingerprint(good_build)
    script = Path(sys.executable).with_name("yili-kg")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "yili_kg.service.cli"]
    keep = {"YILI_RITES", "YILI_PHASES"}  # the session's build selection (conftest's MINI)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("YILI_") or k in keep}
    environment.update({k: str(v) for k, v in env.items()})
    run = subprocess.run(
        [*command, "build", "--build-dir", str(good_build)],
        capture_output=True,
        text=True,
        timeout=600,
        env=environment,
    )
    assert fingerprint(good_build) == before  # the last good build is untouched ...
    check_dataset(good_build)  # ... and still opens
    return run.returncode, run.stderr.strip().splitlines()


def one_clear_line(lines: list[str], *words: str) -> str:
    assert len(lines) == 1, lines  # one message, no traceback
    line = lines[0]
    assert line.startswith("Error: "), line
    for word in words:
        assert word in line, (word, line)
    return line


def test_the_good_build_is_up_to_date_with_a_faithful_copy(good_build, corpus):
    """The control: the scratch copies themselves change nothing."""
    code, lines = build(good_build, YILI_CORPUS=corpus)
    assert code == 0 and not lines


def test_a_witness_with_a_wrong_checksum(good_build, corpus):
    witness = corpus / "seeds" / "003_21e48a33c8488481.txt"
    witness.write_text(witness.read_text(encoding="utf-8") + "衍", encoding="utf-8")
    code, lines = build(good_build, YILI_CORPUS=corpus)
    assert code == 1
    one_clear_line(lines, f"{witness}:", "sha256", "MANIFEST.tsv")


def test_a_missing_witness(good_build, corpus):
    witness = corpus / "seeds" / "004_a42613fede8b3fe5.txt"
    witness.unlink()
    code, lines = build(good_build, YILI_CORPUS=corpus)
    assert code == 1
    one_clear_line(lines, f"{witness}:", "missing", "MANIFEST.tsv")


def _break_record(corpus: Path, clause: str, change) -> tuple[Path, int]:
    """Change the record of one clause in the scratch annotations; its file and line."""
    path = corpus / ANNOTATIONS
    lines = path.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith(clause + "\t"))
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, number


@pytest.mark.slow  # a build that runs to its stages
def test_an_annotation_record_with_a_column_missing(good_build, corpus):
    path, number = _break_record(
        corpus, "jing/5.2.1", lambda line: "\t".join(line.split("\t")[:-1])
    )
    code, lines = build(good_build, YILI_CORPUS=corpus)
    assert code == 1
    one_clear_line(lines, f"{path}:{number}:", "4 columns, expected 5")


@pytest.mark.slow  # a build that runs to its stages
def test_an_annotation_record_with_an_unknown_kind_of_action(good_build, corpus):
    path, number = _break_record(corpus, "jing/5.2.1", lambda line: line.replace("\t降 ", "\t飛 "))
    code, lines = build(good_build, YILI_CORPUS=corpus)
    assert code == 1
    one_clear_line(lines, f"{path}:{number}:", "jing/5.2.1", "no action class labelled '飛'")


@pytest.mark.slow  # a build that runs to its stages
def test_an_annotation_record_with_an_unknown_field(good_build, corpus):
    path, number = _break_record(
        corpus, "jing/5.2.1", lambda line: line.replace("agent=賓", "agent=賓 colour=red")
    )
    code, lines = build(good_build, YILI_CORPUS=corpus)
    assert code == 1
    one_clear_line(lines, f"{path}:{number}:", "unknown field 'colour'")


@pytest.mark.slow  # a build that runs to its stages
def test_an_inconsistent_ontology(good_build, tmp_path):
    """An individual asserted in two disjoint classes: the reasoner names it, the build says
    which module and line state it."""
    ontology = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), ontology)
    roles = ontology / "roles.ttl"
    text = roles.read_text(encoding="utf-8")
    intruder = 'role:intruder a yl:Role , yl:Phase ; rdfs:label "闖者"@zh-Hant .'
    roles.write_text(f"{text}\n{intruder}\n", encoding="utf-8")
    number = len((text + "\n").split("\n"))
    code, lines = build(good_build, YILI_ONTOLOGY=ontology)
    assert code == 1
    one_clear_line(
        lines, f"{roles}:{number}:", "role/intruder", "ontology#Role", "ontology#Phase", "disjoint"
    )


@pytest.mark.slow  # a build that runs to its stages
def test_a_term_without_a_label_is_named_with_its_line(good_build, tmp_path):
    ontology = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), ontology)
    roles = ontology / "roles.ttl"
    text = roles.read_text(encoding="utf-8")
    roles.write_text(text + "\nrole:nameless a yl:Role .\n", encoding="utf-8")
    number = len((text + "\n").split("\n"))
    code, lines = build(good_build, YILI_ONTOLOGY=ontology)
    assert code == 1
    one_clear_line(lines, f"{roles}:{number}:", "role/nameless", "zh-Hant rdfs:label")
