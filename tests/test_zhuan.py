"""喪服's 傳: its breaks are the table corpus/zhuan-breaks.tsv, not the learnt model's."""

import pytest

from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.text.punctuate import default_model
from yili_kg.loaders.text.rites import build_rite_layer
from yili_kg.loaders.text.zhuan import (
    FIELDS,
    read_table,
    write_table,
    zhuan_sentences,
)


def _zhuan_cut(layer, segment, characters="witness_text"):
    """The build's sentences of clauses of the 傳 of ``segment`` (the witness's characters)."""
    paragraph = f"zhuan/{segment}"
    sentences = [p for p in layer.passages if p.level == "sentence" and p.parent == paragraph]
    return [[getattr(c, characters) for c in layer.clauses if c.parent == s.id] for s in sentences]


def test_the_build_cuts_every_zhuan_piece_as_the_table_does():
    layer = build_rite_layer("sangfu")
    table = read_table()
    pieces = [p for p in layer.passages if p.level == "paragraph" and p.division == "zhuan"]
    assert len(pieces) == len([k for k in table if k[0] == "sangfu"]) > 70
    for piece in pieces:
        segment = int(piece.id.split("/")[1])
        assert _zhuan_cut(layer, segment) == table["sangfu", segment].sentences, piece.id
    # the 傳 begins 傳曰 as a sentence of its own, then 斬者何
    assert _zhuan_cut(layer, 3)[0] == ["傳曰"]
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


def test_an_empty_clause_is_refused(tmp_path):
    path = _table(tmp_path, ("sangfu", "3", "傳曰。，斬者何", ""))
    with pytest.raises(SourceError, match="empty sentence or clause"):
        read_table(path)


def test_writing_keeps_corrected_rows_and_cuts_stale_ones_with_the_model(tmp_path):
    corrected = ("sangfu", "3", "傳曰。斬者何，不緝也", "corrected by hand")
    path = _table(tmp_path, corrected, ("sangfu", "4", "絞帶者。繩帶", ""))
    pieces = [
        ("sangfu", 3, "傳曰斬者何不緝也", "傳曰斬者何不緝也"),
        ("sangfu", 4, "絞帶者繩帶也", "絞帶者繩帶也"),
    ]
    assert write_table(pieces, default_model(), path) == [4]
    table = read_table(path)
    assert table["sangfu", 3].note == "corrected by hand"
    assert table["sangfu", 3].sentences == [["傳曰"], ["斬者何", "不緝也"]]
    assert "".join(c for s in table["sangfu", 4].sentences for c in s) == "絞帶者繩帶也"
    read_table.cache_clear()
