"""The build: stages, the dataset file, its manifest, checksums and what the graph says."""

from __future__ import annotations

import json
import shutil

import pytest
from rdflib import Literal, URIRef

from yili_kg.loaders.build import check_dataset, run_build
from yili_kg.loaders.errors import ChecksumError, SourceError
from yili_kg.loaders.iris import GRAPH_ASSERTED, YL

ID = "https://w3id.org/yili/id/"


def test_second_build_with_nothing_changed_is_quick(build_dir):
    def written() -> dict:
        return {
            path: path.stat().st_mtime_ns
            for path in build_dir.rglob("*")
            if path.is_file() and path.name != ".build.lock"
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
