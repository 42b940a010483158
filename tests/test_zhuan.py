"""喪服's 傳: its breaks are the table corpus/zhuan-breaks.tsv, not the learnt model's."""

import pytest

from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.text.published import published_passages
from yili_kg.loaders.text.punctuate import default_model
from yili_kg.loaders.text.rites import build_rite_layer, zhuan_pieces
from yili_kg.loaders.text.zhuan import (
    EDITION_NOTE,
    FIELDS,
    edition_cuts,
    read_table,
    write_table,
    zhuan_sentences,
)
from yili_kg.loaders.witnesses.texts import edition_id


def _zhuan_cut(layer, segment, characters="witness_text"):
    """The build's sentences of clauses of the 傳 of ``segment`` (the witness's characters)."""
    paragraph = next(
        p.id
        for p in layer.passages
        if p.level == "paragraph" and edition_id(p.id) == f"zhuan/{segment}"
    )  # zhuan/5v2: a paragraph whose characters were read anew (翦屏拄楣) took a new id
    sentences = [p for p in layer.passages if p.level == "sentence" and p.parent == paragraph]
    return [[getattr(c, characters) for c in layer.clauses if c.parent == s.id] for s in sentences]


def test_the_build_cuts_every_zhuan_piece_as_the_table_does():
    layer = build_rite_layer("sangfu")
    table = read_table()
    pieces = [p for p in layer.passages if p.level == "paragraph" and p.division == "zhuan"]
    assert len(pieces) == len([k for k in table if k[0] == "sangfu"]) > 70
    for piece in pieces:
        segment = int(edition_id(piece.id).split("/")[1])
        assert _zhuan_cut(layer, segment) == table["sangfu", segment].sentences, piece.id
    # 傳曰：斬者何？不緝也。 as the punctuated 儀禮注疏 cuts it
    assert _zhuan_cut(layer, 3)[:2] == [["傳曰", "斬者何"], ["不緝也"]]
    # the row writes the witness's 卽 (公卿大夫室老士貴臣其餘皆衆臣也君謂有地者也衆臣杖不以卽位);
    # the clause reads it 即 (corpus/variants.tsv), cut at the same places
    witness, reading = _zhuan_cut(layer, 23), _zhuan_cut(layer, 23, "text")
    assert any("卽" in c for s in witness for c in s)
    assert [[len(c) for c in s] for s in witness] == [[len(c) for c in s] for s in reading]
    assert not any("卽" in c for s in reading for c in s)


def _table(tmp_path, *rows):
    path = tmp_path / "zhuan-breaks.tsv"
    lines = ["# a comment", "\t".join(FIELDS), *("\t".join(row) for row in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    read_table.cache_clear()
    return path


def test_a_row_for_other_characters_is_refused_with_its_line(tmp_path):
    path = _table(tmp_path, ("sangfu", "3", "傳曰。斬者何，不緝也", ""))
    text = "傳曰斬者何不緝也"
    assert zhuan_sentences("sangfu", 3, text, text, path) == [["傳曰"], ["斬者何", "不緝也"]]
    with pytest.raises(SourceError, match=r"zhuan-breaks.tsv:3: the 傳 of sangfu segment 3"):
        zhuan_sentences("sangfu", 3, "傳曰斬者何不緝", "傳曰斬者何不緝", path)
    with pytest.raises(SourceError, match="no breaks for the 傳 of sangfu segment 4"):
        zhuan_sentences("sangfu", 4, "絞帶者繩帶也", "絞帶者繩帶也", path)


def test_the_row_holds_the_witness_and_cuts_its_reading(tmp_path):
    """A row writes the witness's characters (爲); the clauses are the reading's (為), so a
    change of the variants table leaves the row true."""
    path = _table(tmp_path, ("sangfu", "7", "傳曰。爲父何以斬衰也", ""))
    cut = zhuan_sentences("sangfu", 7, "傳曰爲父何以斬衰也", "傳曰為父何以斬衰也", path)
    assert cut == [["傳曰"], ["為父何以斬衰也"]]


def test_a_blank_line_is_skipped_and_the_lines_still_named(tmp_path):
    path = _table(tmp_path, ("sangfu", "3", "傳曰。斬者何", ""), ("", "", "", ""))
    path.write_text(path.read_text("utf-8").replace("\t\t\t\n", "\n") + "sangfu\t3\t傳曰\t\n")
    read_table.cache_clear()
    with pytest.raises(SourceError, match=r"zhuan-breaks.tsv:5: a second row for sangfu segment 3"):
        read_table(path)


def test_an_empty_clause_or_a_segment_not_a_number_is_refused(tmp_path):
    path = _table(tmp_path, ("sangfu", "3", "傳曰。，斬者何", ""))
    with pytest.raises(SourceError, match="empty sentence or clause"):
        read_table(path)
    path = _table(tmp_path, ("sangfu", "三", "傳曰。斬者何", ""))
    with pytest.raises(SourceError, match=r"zhuan-breaks.tsv:3: segment '三' is not a number"):
        read_table(path)


def test_writing_keeps_corrected_rows_and_cuts_the_others_by_the_edition_else_the_model(tmp_path):
    corrected = ("sangfu", "3", "傳曰。斬者何，不緝也", "corrected by hand")
    path = _table(tmp_path, corrected, ("sangfu", "4", "絞帶者。繩帶", ""))
    pieces = [
        ("sangfu", 3, "傳曰斬者何不緝也", "傳曰斬者何不緝也"),
        ("sangfu", 4, "絞帶者繩帶也", "絞帶者繩帶也"),
        ("sangfu", 5, "居倚廬寢苫枕塊", "居倚廬寢苫枕塊"),
    ]
    edition = {("sangfu", 4): [["絞帶者", "繩帶也"]]}
    written = write_table(pieces, default_model(), edition, path)
    assert written == {4: "edition", 5: "model"}
    table = read_table(path)
    assert table["sangfu", 3].note == "corrected by hand"
    assert table["sangfu", 3].sentences == [["傳曰"], ["斬者何", "不緝也"]]
    assert table["sangfu", 4].sentences == [["絞帶者", "繩帶也"]]
    assert table["sangfu", 4].note == EDITION_NOTE
    assert "".join(c for s in table["sangfu", 5].sentences for c in s) == "居倚廬寢苫枕塊"
    assert "model" in table["sangfu", 5].note
    # --redo: every row from its source, the reader's correction too
    assert write_table(pieces, default_model(), edition, path, redo=True)[3] == "model"
    read_table.cache_clear()


def test_the_rows_said_to_be_the_editions_are_what_the_edition_cuts():
    """Every row whose note credits the punctuated 儀禮注疏 is its projected breaks; the edition
    holds every 傳 piece (壻 of 緦麻, a 經 item the edition writes 婿, is no 傳)."""
    pieces = [
        (segment, witness) for rite, segment, witness, _ in zhuan_pieces() if rite == "sangfu"
    ]
    cuts = edition_cuts("sangfu", "丧服", pieces)
    table = read_table()
    credited = [row for row in table.values() if row.note == EDITION_NOTE]
    assert len(credited) >= 85
    for row in credited:
        assert cuts[row.segment] == row.sentences, row.segment
    assert len(cuts) >= len(pieces) - 1
    layer = build_rite_layer("sangfu")
    assert layer.by_id["jing/186"].witness_text == "壻" and "zhuan/186" not in layer.by_id


def test_the_zhuan_ids_published_before_keep_their_characters_or_redirect():
    """The 傳's sentences and clauses as the build of 19ee35f published them (cut by the model):
    each id still names its characters, or is retired with the passages that replace it."""
    layer = build_rite_layer("sangfu")
    retired = {r.id: r.replaced_by for r in layer.retired}
    for p in published_passages()["sangfu"]:
        if p.id in layer.by_id:
            assert layer.by_id[p.id].witness_text == p.witness_text, p.id
        else:
            assert retired[p.id], p.id
