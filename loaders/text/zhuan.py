"""喪服's 傳 cut into sentences and clauses (傳之句讀), kept as data.

The punctuated edition of ``corpus/punctuated/`` prints the 經 of 喪服 without its 傳, so its
breaks cannot come from there. They used to come from the learnt 句讀 model
(:mod:`punctuate`) at every build; that model takes the lexicon's tokens as features, so every
term added to the ontology moved some of the 傳's breaks, and with them its clause ids. The
breaks are now a table, ``corpus/zhuan-breaks.tsv``: one row a 傳 piece (the 傳 of one 經
segment), its reading with 。 ending each sentence and ， each clause, diffable and corrected by
hand where a reader finds a break wrong. A row holds the witness's own characters (爲, 卽 as
the 四庫 writes them), so that a change of how a character is read (``corpus/variants.tsv``)
leaves it true: the clauses are cut at the same places in the reading, which has the same
length. The build refuses a row whose characters are no longer the witness's: ``python -m
yili_kg.loaders.text.zhuan`` writes the rows missing or stale from the model, for a reader to
correct.

>>> split_marked("傳曰。斬者何，不緝也。")
[['傳曰'], ['斬者何', '不緝也']]
>>> join_marked([['傳曰'], ['斬者何', '不緝也']])
'傳曰。斬者何，不緝也'
>>> cut_alike([['爲父'], ['何以']], "為父何以")
[['為父'], ['何以']]
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError

FILE_NAME = "zhuan-breaks.tsv"
FIELDS = ("rite", "segment", "text", "note")
SENTENCE_MARK, CLAUSE_MARK = "。", "，"
HEADER = """\
# 喪服's 傳 cut into sentences and clauses (句讀): the punctuated edition (corpus/punctuated/)
# does not print the 傳. One row a 傳 piece: the 傳 of one 經 segment of the rite's Kanripo
# witness (corpus/kanripo-raw/, KR1d0028, CC BY-SA 4.0), its characters as the witness writes
# them, with 。 after each sentence and ， after each clause. First written by the learnt
# 句讀 model (loaders/text/punctuate.py, trained on 鄉射禮's punctuated base text) on
# 2026-12-06; breaks corrected by hand are said in the row's note. Read by
# loaders/text/zhuan.py; rows missing, or whose characters are no longer the witness's, are
# written again from the model by: python -m yili_kg.loaders.text.zhuan
"""


@dataclass(frozen=True)
class ZhuanBreaks:
    """One row: the 傳 of segment ``segment`` of ``rite``, cut (``text`` with its marks)."""

    rite: str
    segment: int
    text: str
    note: str
    line: int

    @property
    def sentences(self) -> list[list[str]]:
        return split_marked(self.text)


def split_marked(text: str) -> list[list[str]]:
    """Sentences of clauses from a reading marked with 。 and ，."""
    return [
        sentence.split(CLAUSE_MARK) for sentence in text.rstrip(SENTENCE_MARK).split(SENTENCE_MARK)
    ]


def join_marked(sentences: list[list[str]]) -> str:
    """The reading marked with 。 and ， (the inverse of :func:`split_marked`)."""
    return SENTENCE_MARK.join(CLAUSE_MARK.join(sentence) for sentence in sentences)


def cut_alike(sentences: list[list[str]], text: str) -> list[list[str]]:
    """``text`` cut where ``sentences`` (of the same length) are cut."""
    out, at = [], 0
    for sentence in sentences:
        out.append([text[at : (at := at + len(clause))] for clause in sentence])
    return out


def model_cut(model, reading: str) -> list[list[str]]:
    """The learnt 句讀's cut of a 傳 piece; 傳曰 is a sentence of its own."""
    if reading.startswith("傳曰"):
        return [["傳曰"], *(model.punctuate(reading[2:]) if len(reading) > 2 else [])]
    return model.punctuate(reading)


def table_path() -> Path:
    return corpus_dir() / FILE_NAME


@cache
def read_table(path: Path | None = None) -> dict[tuple[str, int], ZhuanBreaks]:
    """The table's rows by (rite, segment)."""
    path = path or table_path()
    rows: dict[tuple[str, int], ZhuanBreaks] = {}
    with open(path, encoding="utf-8", newline="") as handle:
        lines = [(n, line) for n, line in enumerate(handle, start=1) if not line.startswith("#")]
    reader = csv.DictReader([line for _, line in lines], delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise SourceError(path, f"header {reader.fieldnames}, expected {list(FIELDS)}")
    for (number, _), row in zip(lines[1:], reader, strict=True):
        text = row["text"]
        if not text or any(not clause for s in split_marked(text) for clause in s):
            raise SourceError(path, "an empty sentence or clause (two marks in a row?)", number)
        key = (row["rite"], int(row["segment"]))
        if key in rows:
            raise SourceError(path, f"a second row for {key[0]} segment {key[1]}", number)
        rows[key] = ZhuanBreaks(key[0], key[1], text, row["note"] or "", number)
    return rows


def zhuan_sentences(rite: str, segment: int, witness: str, reading: str, path: Path | None = None):
    """The 傳 of ``rite``'s segment ``segment`` (``witness``: its characters, ``reading``: their
    reading) cut as the table cuts it: sentences of clauses of the reading.

    Raises :class:`SourceError` if the table has no row for it, or a row for other characters.
    """
    path = path or table_path()
    row = read_table(path).get((rite, segment))
    if row is None:
        raise SourceError(
            path,
            f"no breaks for the 傳 of {rite} segment {segment} ({witness[:12]}…); "
            "write them: python -m yili_kg.loaders.text.zhuan",
        )
    sentences = row.sentences
    if "".join(c for s in sentences for c in s) != witness:
        raise SourceError(
            path,
            f"the 傳 of {rite} segment {segment} is now {witness[:12]}… ({len(witness)} "
            "characters), not the row's characters; write the row again: "
            "python -m yili_kg.loaders.text.zhuan",
            row.line,
        )
    return cut_alike(sentences, reading)


def write_table(pieces, model, path: Path | None = None) -> list[int]:
    """Write the table: kept rows whose characters are still the witness's, the model's cut
    (of the reading, put on the witness's characters) for the others. ``pieces``: (rite,
    segment, witness characters, reading) of every 傳 piece. Returns the segments written from
    the model."""
    path = path or table_path()
    old = read_table(path) if path.exists() else {}
    written, rows = [], []
    for rite, segment, witness, reading in pieces:
        kept = old.get((rite, segment))
        if (
            kept is not None
            and kept.text.replace(SENTENCE_MARK, "").replace(CLAUSE_MARK, "") == witness
        ):
            rows.append((rite, str(segment), kept.text, kept.note))
            continue
        written.append(segment)
        cut = cut_alike(model_cut(model, reading), witness)
        rows.append((rite, str(segment), join_marked(cut), ""))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(HEADER)
        handle.write("\t".join(FIELDS) + "\n")
        for row in rows:
            handle.write("\t".join(row) + "\n")
    read_table.cache_clear()
    return written


def main() -> int:
    from yili_kg.loaders.text.punctuate import default_model
    from yili_kg.loaders.text.rites import zhuan_pieces

    written = write_table(zhuan_pieces(), default_model())
    print(f"{table_path()}: {len(written)} rows written from the model: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
