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


def _zhuan_cut(layer, segment):
    """The build's sentences of clauses of the 傳 of ``segment``."""
    paragraph = f"zhuan/{segment}"
    sentences = [p for p in layer.passages if p.level == "sentence" and p.parent == paragraph]
    return [[c.text for c in layer.clauses if c.parent == s.id] for s in sentences]


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


def _table(tmp_path, *rows):
    path = tmp_path / "zhuan-breaks.tsv"
    lines = ["# a comment", "\t".join(FIELDS), *("\t".join(row) for row in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    read_table.cache_clear()
    return path


def test_a_row_for_other_characters_is_refused_with_its_line(tmp_path):
    path = _table(tmp_path, ("sangfu", "3", "傳曰。斬者何，不緝也", ""))
    assert zhuan_sentences("sangfu", 3, "傳曰斬者何不緝也", path) == [
        ["傳曰"],
        ["斬者何", "不緝也"],
    ]
    with pytest.raises(SourceError, match=r"zhuan-breaks.tsv:3: the 傳 of sangfu segment 3"):
        zhuan_sentences("sangfu", 3, "傳曰斬者何不緝", path)
    with pytest.raises(SourceError, match="no breaks for the 傳 of sangfu segment 4"):
        zhuan_sentences("sangfu", 4, "絞帶者繩帶也", path)


def test_an_empty_clause_is_refused(tmp_path):
    path = _table(tmp_path, ("sangfu", "3", "傳曰。，斬者何", ""))
    with pytest.raises(SourceError, match="empty sentence or clause"):
        read_table(path)


def test_writing_keeps_corrected_rows_and_cuts_stale_ones_with_the_model(tmp_path):
    corrected = ("sangfu", "3", "傳曰。斬者何，不緝也", "corrected by hand")
    path = _table(tmp_path, corrected, ("sangfu", "4", "絞帶者。繩帶", ""))
    pieces = [("sangfu", 3, "傳曰斬者何不緝也"), ("sangfu", 4, "絞帶者繩帶也")]
    assert write_table(pieces, default_model(), path) == [4]
    table = read_table(path)
    assert table["sangfu", 3].note == "corrected by hand"
    assert table["sangfu", 3].sentences == [["傳曰"], ["斬者何", "不緝也"]]
    assert "".join(c for s in table["sangfu", 4].sentences for c in s) == "絞帶者繩帶也"
    read_table.cache_clear()
