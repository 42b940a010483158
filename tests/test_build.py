"""The build: stages, the dataset file, its manifest, checksums and what the graph says."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from rdflib import Literal, URIRef

from yili_kg.loaders import built
from yili_kg.loaders.build import check_dataset, run_build
from yili_kg.loaders.built import VERIFIED_NAME, check_store
from yili_kg.loaders.errors import ChecksumError, SourceError
from yili_kg.loaders.iris import GRAPH_ASSERTED, YL

ID = "https://w3id.org/yili/id/"


def test_second_build_with_nothing_changed_is_quick(build_dir):
    def written() -> dict:
        return {
            path: path.stat().st_mtime_ns
            for path in build_dir.rglob("*")
            # (the verification stamp is not the build's: the check writes it once the files
            # are old enough to be trusted, see the tests below)
            if path.is_file() and path.name not in (".build.lock", VERIFIED_NAME)
        }

    before = written()
    report = run_build(build_dir)
    assert report.up_to_date
    # quick because nothing is done again: no stage ran, no file of the build was written
    # (checked, not timed: a loaded machine is slow, not wrong)
    assert report.stages and not any(stage["ran"] for stage in report.stages.values())
    assert written() == before
    manifest = json.loads((build_dir / "manifest.json").read_text())
    assert set(manifest["inputs"]) == {"corpus", "ontology", "code"}
    assert manifest["counts"]["asserted"] > 20000  # the mini dataset: 27k


def test_damaged_dataset_is_detected_and_rebuilt(build_dir, tmp_path):
    copy = tmp_path / "b"
    shutil.copytree(build_dir, copy)
    with open(copy / "yili_kg.nq", "a", encoding="utf-8") as handle:
        handle.write("<urn:x> <urn:y> <urn:z> .\n")
    with pytest.raises(ChecksumError, match="yili_kg.nq"):
        check_dataset(copy)
    report = run_build(copy)
    assert not report.up_to_date
    check_dataset(copy)


@pytest.fixture()
def hashed(monkeypatch) -> list[str]:
    """The names of the files the checks read and hash; each check as in a new process."""
    names: list[str] = []
    real = built.sha256_of
    monkeypatch.setattr(built, "sha256_of", lambda path: names.append(path.name) or real(path))
    monkeypatch.setattr(built, "_CHECKED", set())  # nothing remembered from other tests
    return names


def later(monkeypatch) -> None:
    """Checks from now on run as if ten seconds later: the files just copied are not racy."""
    monkeypatch.setattr(built, "_now_ns", lambda: time.time_ns() + 10_000_000_000)


def test_a_stamped_store_is_not_hashed_again_and_a_changed_file_is_refused(
    build_dir, tmp_path, hashed, monkeypatch
):
    copy = tmp_path / "b"
    shutil.copytree(build_dir, copy)  # (the stamp copied too: it names the original's files)
    store_files = sorted(p.name for p in (copy / "oxigraph").iterdir() if p.suffix == ".sst")
    later(monkeypatch)
    check_dataset(copy)
    check_store(copy)
    assert "yili_kg.nq" in hashed and set(store_files) <= set(hashed)
    hashed.clear()
    built._CHECKED.clear()  # a new start
    check_dataset(copy)
    check_store(copy)
    assert hashed == []  # the stamp vouched for every file: none read
    sst = max((copy / "oxigraph").glob("*.sst"), key=lambda p: p.stat().st_size)
    stamped = sst.stat()
    _past_ctime(sst)
    data = bytearray(sst.read_bytes())
    data[len(data) // 2] ^= 0xFF  # in place: the same inode and size
    sst.write_bytes(bytes(data))
    os.utime(sst, ns=(stamped.st_atime_ns, stamped.st_mtime_ns))  # and its mtime set back
    assert (sst.stat().st_size, sst.stat().st_ino, sst.stat().st_mtime_ns) == (
        stamped.st_size,
        stamped.st_ino,
        stamped.st_mtime_ns,
    )
    built._CHECKED.clear()
    with pytest.raises(ChecksumError, match=sst.name):
        check_store(copy)
    assert hashed == [sst.name]  # only the changed file read again
    built._CHECKED.clear()
    with pytest.raises(ChecksumError, match=sst.name):
        check_store(copy)  # and refused again: a wrong file is never stamped


def test_a_file_changed_just_before_its_check_is_not_stamped(build_dir, tmp_path, hashed):
    copy = tmp_path / "b"
    shutil.copytree(build_dir, copy)  # just now: its files' ctimes are now
    check_store(copy)
    first = list(hashed)
    hashed.clear()
    built._CHECKED.clear()
    check_store(copy)
    # within the file system's clock tick a second write could keep every time the stamp
    # records, so a file that young is hashed again at the next check
    assert first and hashed == first


def _past_ctime(path) -> None:
    """Wait until the file system's clock has moved past ``path``'s ctime (it is coarse: a
    write within the same tick would keep it), as it has for any later damage."""
    probe = path.with_name("probe")
    while True:
        probe.write_bytes(b"")
        if probe.stat().st_ctime_ns > path.stat().st_ctime_ns:
            probe.unlink()
            return


def test_a_corpus_file_with_a_wrong_checksum_is_refused(tmp_path, monkeypatch):
    from yili_kg.loaders.corpus import corpus_dir

    corpus = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), corpus)
    witness = corpus / "seeds" / "003_21e48a33c8488481.txt"
    witness.write_text(witness.read_text(encoding="utf-8") + "衍", encoding="utf-8")
    monkeypatch.setenv("YILI_CORPUS", str(corpus))
    with pytest.raises(ChecksumError, match="003_21e48a33c8488481.txt"):
        run_build(tmp_path / "build")
    assert not (tmp_path / "build" / "yili_kg.nq").exists()
    witness.unlink()
    with pytest.raises(SourceError, match="missing"):
        run_build(tmp_path / "build")


def test_no_passage_reads_ren_jie_bin(dataset):
    texts = [str(o) for o in dataset.objects(None, YL.text)]
    assert any("主人戒賓" in t for t in texts)
    # (聘禮's 大夫使人戒賓 is the text: 使人, someone sent)
    assert not any("人戒賓" in t.replace("主人戒賓", "").replace("使人戒賓", "") for t in texts)


def test_zhu_zhouzhang_in_the_graph(dataset):
    q = """SELECT ?clause WHERE { ?z a yl:Zhu ; yl:text ?t ; yl:author ?a ; yl:commentsOn ?c .
           ?a rdfs:label "鄭玄"@zh-Hant . ?c yl:text ?clause .
           FILTER(STRSTARTS(STR(?t), "主人州長也")) }"""
    clauses = {
        str(r[0])
        for r in dataset.query(
            q, initNs={"yl": YL, "rdfs": URIRef("http://www.w3.org/2000/01/rdf-schema#")}
        )
    }
    assert "主人戒賓" in clauses


def test_at_least_twenty_cited_works(dataset):
    q = """SELECT DISTINCT ?label WHERE { ?n a yl:Commentary ; yl:cites ?w .
           ?w rdfs:label ?label FILTER(lang(?label) = "zh-Hant") }"""
    titles = {
        str(r[0])
        for r in dataset.query(
            q, initNs={"yl": YL, "rdfs": URIRef("http://www.w3.org/2000/01/rdf-schema#")}
        )
    }
    assert len(titles) >= 20
    for title in ("儀禮·鄉飲酒禮", "儀禮·大射儀", "儀禮·燕禮", "周禮", "禮記·射義"):
        assert title in titles, title


def test_phases_have_labels_in_four_languages(dataset):
    phase = URIRef(ID + "xiangshe/phase/05")
    graph = dataset.graph(GRAPH_ASSERTED)
    labels = {
        (lab.language, str(lab))
        for lab in graph.objects(phase, URIRef("http://www.w3.org/2000/01/rdf-schema#label"))
    }
    assert ("zh-Hant", "迎賓") in labels and ("zh-Hans", "迎宾") in labels
    assert ("zh-Latn-pinyin", "yíng bīn") in labels
    assert any(lang == "en" for lang, _ in labels)
    assert (phase, YL.phaseIndex, Literal(5)) in graph
