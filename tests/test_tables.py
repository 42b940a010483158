"""The project's tab-separated tables are read by one reader (``loaders.corpus.read_rows``):
``#`` lines are comments, the header is checked, and an error names the line of the file, counted
with its comments, so that a scholar editing a table is sent to the right row."""

from __future__ import annotations

import pytest

from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.text.published import published_passages
from yili_kg.loaders.text.rounds import read_rounds
from yili_kg.loaders.variants import _table as variant_table
from yili_kg.loaders.witnesses.texts import _corrections

# (reader, header, a good row, a bad row: the reader's own check refuses it)
TABLES = {
    "variants": (variant_table, "variant\tbase\tnote", "爲\t為\t", "爲爲\t為\t"),
    "rounds": (read_rounds, "rite\tphase\tround\tname", "xiangshe\t9\t1\t", "xiangshe\t10\t4\t"),
    "corrections": (_corrections, "form\treading\tcontext\tnote", "觯\t觶\t\t", "觯\t觶觶\t\t"),
    "published": (
        published_passages,
        "rite\tlevel\tid\tstart\tend\twitness_text",
        "xiangshe\tclause\tjing/1.1.1\t0\t2\t主人",
        "xiangshe\tclause\tjing/1.1.2\t2\t9\t戒賓",
    ),
}


def _write(tmp_path, name, *lines):
    path = tmp_path / f"{name}.tsv"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", TABLES)
def test_a_bad_row_is_named_by_its_line_in_the_file(tmp_path, name):
    reader, header, good, bad = TABLES[name]
    lines = ("# source: a test", "# a second comment", header, good, "# x", bad)
    path = _write(tmp_path, name, *lines)
    with pytest.raises(SourceError) as error:
        reader(path)
    assert error.value.line == 6, str(error.value)  # the bad row is line 6, comments counted


@pytest.mark.parametrize("name", TABLES)
def test_a_wrong_header_is_refused_not_read_as_rows(tmp_path, name):
    reader, header, good, _ = TABLES[name]
    wrong = header.replace("\t", "\tx", 1)
    path = _write(tmp_path, name, "# source: a test", wrong, good)
    with pytest.raises(SourceError, match="header must be") as error:
        reader(path)
    assert error.value.line == 2


@pytest.mark.parametrize("name", TABLES)
def test_good_rows_are_read(tmp_path, name):
    reader, header, good, _ = TABLES[name]
    assert reader(_write(tmp_path, name, "# source: a test", header, good))
