"""The assembled text layer: segments, pages, phases and every note attached to its span."""

from __future__ import annotations

from collections import Counter

from yili_kg.loaders.variants import fold


def test_every_clause_has_a_kanripo_segment_and_page(text_layer):
    for clause in text_layer.clauses:
        assert text_layer.clause_segments[clause.id], clause.id
        assert text_layer.clause_pages[clause.id].startswith("KR1d0028_WYG_005-")
    first = text_layer.passage("jing/1.2.1")
    assert text_layer.clause_segments[first.id] == (2,)
    assert text_layer.clause_pages[first.id] == "KR1d0028_WYG_005-1a"


def test_every_jing_clause_in_exactly_one_of_the_37_phases(text_layer):
    names = {p.index: p.name for p in text_layer.phases}
    assert len([i for i in names if i <= 37]) == 37
    for clause in text_layer.clauses:
        phases = text_layer.passage_phases[clause.id]
        assert len(phases) == 1
        if clause.division == "jing":
            assert 1 <= phases[0] <= 37

    def phase_of(text):
        hits = [c for c in text_layer.clauses if c.text == text]
        assert hits, text
        return {names[text_layer.passage_phases[c.id][0]] for c in hits}

    assert phase_of("主人阼階上當楣北面再拜") == {"迎賓"}
    assert phase_of("獻用爵") == {"獻賓"} and phase_of("其他用觶") == {"獻賓"}
    assert phase_of("司正為司馬") == {"請射"}
    assert phase_of("主人戒賓") == {"戒賓"}


def test_all_notes_of_the_zhushu_are_attached(text_layer):
    kinds = Counter(n.kind for n in text_layer.notes)
    assert kinds == {"注": 382, "疏": 317, "音義": 145, "考證": 41}
    for note in text_layer.notes:
        assert note.clause_ids, (note.kind, note.row)
        assert note.span and 0 <= note.span[0] < note.span[1] <= len(text_layer.raw)


def test_zhu_zhuren_zhouzhang_comments_on_zhuren_jie_bin(text_layer):
    note = next(n for n in text_layer.notes if n.kind == "注" and n.text.startswith("主人州長也"))
    assert "jing/1.2.1" in note.clause_ids
    assert text_layer.passage("jing/1.2.1").text == "主人戒賓"


def test_shu_that_quote_a_span_resolve_to_it(text_layer):
    quoting = [n for n in text_layer.notes if n.kind == "疏" and n.quote]
    resolved = [n for n in quoting if n.span_source in ("quote", "quote-zhu", "extent")]
    assert len(quoting) >= 50
    assert len(resolved) / len(quoting) >= 0.95
    # 疏 “賓俎”至“進腠” (from the web transcription) spans exactly those words of the 記
    note = next(n for n in quoting if n.quote == ("賓俎", "進腠"))
    span_text = fold(text_layer.raw[note.span[0] : note.span[1]])
    assert span_text.startswith("賓俎") and span_text.endswith("進腠")
    # 疏 自此至無介 spans the first paragraph from 主人戒賓 to 無介
    extent = next(n for n in quoting if n.quote == (None, "無介"))
    assert text_layer.raw[extent.span[0] : extent.span[1]].endswith("無介")
    assert "jing/1.2.1" in extent.clause_ids


def test_kaozheng_attached_to_the_words_they_quote(text_layer):
    notes = [n for n in text_layer.notes if n.kind == "考證"]
    first = notes[0]
    assert first.text.startswith("主人戒賓")
    assert "jing/1.2.1" in first.clause_ids
