"""The base text split into paragraphs, sentences and clauses (seed 000)."""

from __future__ import annotations

from yili_kg.loaders.witnesses.texts import clauses, normalise, read_base, split_passages


def test_every_clause_spans_its_own_characters():
    raw, passages = read_base()
    for p in passages:
        assert raw[p.start : p.end] == p.witness_text
        assert len(p.text) == len(p.witness_text)
        assert p.text and "，" not in p.text.replace("「", "").split("」")[0][:0]


def test_counts_and_first_clauses():
    _, passages = read_base()
    cl = clauses(passages)
    jing = [c for c in cl if c.division == "jing"]
    ji = [c for c in cl if c.division == "ji"]
    assert len(jing) > 1400 and len(ji) > 200
    assert [c.text for c in jing[1:4]] == ["主人戒賓", "賓出迎", "再拜"]
    assert jing[1].id == "jing/1.2.1"
    assert ji[0].text == "大夫與" and ji[0].id == "ji/1.1.1"


def test_quotations_stay_whole_inside_their_clause():
    _, passages = read_base()
    said = {c.text: c for c in clauses(passages) if c.speech}
    clause = said["曰：「弓矢既具，有司請射。」"]
    assert clause.speech == ("弓矢既具，有司請射。",)
    # 「…。」 closes its sentence although the witness writes no 。 after it
    assert "賓對曰：「某不能。為二三子。」" in said
    long = next(t for t in said if t.startswith("命三耦及衆賓："))
    assert "不勝者皆襲" in long and long.endswith("」")


def test_normalised_reading_fixes_simplified_forms_but_keeps_the_witness():
    _, passages = read_base()
    clause = next(c for c in clauses(passages) if c.witness_text == "主人坐取觯于篚")
    assert clause.text == "主人坐取觶于篚"
    assert normalise("适洗") == "適洗"
    assert normalise("橫弓；複手自") == "橫弓；覆手自"  # context decides: 覆手, not 復手
    assert normalise("降複位") == "降復位"


def test_ids_do_not_move_when_another_paragraph_is_edited():
    raw, passages = read_base()
    third = next(p for p in passages if p.id == "jing/3")
    edited = raw[: third.start] + "羹定。羹定。" + raw[third.start :]  # a sentence added to 3
    before = {p.id: p.text for p in passages if p.id.startswith(("jing/5", "ji/"))}
    after = {p.id: p.text for p in split_passages(edited) if p.id.startswith(("jing/5", "ji/"))}
    assert before == after
