"""喪服's 傳 cut into sentences and clauses (傳之句讀), kept as data.

The punctuated 儀禮 of ``corpus/punctuated/`` prints the 經 of 喪服 without its 傳; the
punctuated 儀禮注疏 of the same collection prints it. Its breaks, projected onto the Kanripo
characters by the same alignment as the 經's (:func:`breaks.project`: used for where its marks
fall, never for its characters), are kept in a table, ``corpus/zhuan-breaks.tsv``: one row a
傳 piece (the 傳 of one 經 segment), its characters with 。 ending each sentence and ， each
clause, diffable, and corrected by hand where a reader finds a break wrong (said in its note).
The build reads the table and never cuts the 傳 itself: the learnt 句讀 model that used to
(:mod:`punctuate`) took the lexicon's tokens as features, so every term added moved breaks and
clause ids. A row holds the witness's own characters (爲, 卽 as the 四庫 writes them), so that a
change of how a character is read (``corpus/variants.tsv``) leaves it true: the clauses are cut
at the same places in the reading, which has the same length. The build refuses a row whose
characters are no longer the witness's; ``python -m yili_kg.loaders.text.zhuan`` writes the
rows missing or stale from the edition (from the model where the edition lacks the piece).

>>> split_marked("傳曰。斬者何，不緝也。")
[['傳曰'], ['斬者何', '不緝也']]
>>> join_marked([['傳曰'], ['斬者何', '不緝也']])
'傳曰。斬者何，不緝也'
>>> cut_alike([['爲父'], ['何以']], "為父何以")
[['為父'], ['何以']]
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir, read_rows, witness_path
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.text.breaks import cut, project

FILE_NAME = "zhuan-breaks.tsv"
#: the punctuated 儀禮注疏 (corpus/punctuated/SOURCES.md), which prints the 傳
EDITION = "yili-zhushu-punctuated"
#: share of a piece's characters the edition must align with for its breaks to be taken
COVERAGE = 0.9
_VOLUME = re.compile(r"^●卷[一二三四五六七八九十百]+(\S+?)第[一二三四五六七八九十]+$")
FIELDS = ("rite", "segment", "text", "note")
EDITION_NOTE = "breaks of the punctuated 儀禮注疏"
MODEL_NOTE = "breaks of the learnt 句讀 model: to be read"
SENTENCE_MARK, CLAUSE_MARK = "。", "，"
HEADER = """\
# 喪服's 傳 cut into sentences and clauses (句讀). One row a 傳 piece: the 傳 of one 經 segment of
# the rite's Kanripo witness (corpus/kanripo-raw/, KR1d0028, CC BY-SA 4.0), its characters as
# the witness writes them, with 。 after each sentence and ， after each clause. The breaks are
# those of the punctuated 儀禮注疏 (corpus/punctuated/yili-zhushu.daizhige.txt: breaks only,
# never characters), projected onto the Kanripo characters by alignment; a row cut by a reader
# or by the learnt model says so in its note. Read by loaders/text/zhuan.py; rows missing, or
# whose characters are no longer the witness's, are written again by:
# python -m yili_kg.loaders.text.zhuan
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
    for number, row in read_rows(path, FIELDS):
        text = row["text"]
        if not text or any(not clause for s in split_marked(text) for clause in s):
            raise SourceError(path, "an empty sentence or clause (two marks in a row?)", number)
        if not (row["segment"] or "").isdigit():
            raise SourceError(path, f"segment {row['segment']!r} is not a number", number)
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


def edition_zhuan(hans: str) -> str:
    """The 傳 of chapter ``hans`` (its simplified title) as the punctuated 儀禮注疏 prints it:
    from each 傳曰 of a 經 paragraph to the paragraph's end, the 注 in （…） left out, the 疏's
    paragraphs ([疏], ○) skipped; paragraphs joined by line ends."""
    path = witness_path(EDITION)
    out: list[str] = []
    title = None
    for line in path.read_text("utf-8").splitlines():
        text = line.strip("\u3000 ")
        volume = _VOLUME.match(text)
        if volume:
            title = volume.group(1)
            continue
        if title != hans or not text or text[0] in "○●[":
            continue
        text = re.sub(r"（[^（）]*）", "", text).replace("《传》曰", "传曰")
        if "传曰" in text:
            out.append(text[text.index("传曰") :])
    if not out:
        raise SourceError(path, f"no 传曰 in a chapter titled {hans}")
    return "\n".join(out)


def edition_cuts(rite: str, hans: str, pieces) -> dict[int, list[list[str]]]:
    """The edition's breaks on each 傳 piece (``pieces``: (segment, witness characters) in
    order) that it holds: the pieces of which at least ``COVERAGE`` of the characters align."""
    text = "".join(witness for _, witness in pieces)
    edition = edition_zhuan(hans)
    projection = project(rite, text, edition)
    aligned = [True] * len(text)
    for stretch in projection.stretches:  # a variant one for one is aligned (breaks.project)
        if len(stretch.kanripo) != len(stretch.punctuated):
            aligned[stretch.start : stretch.end] = [False] * (stretch.end - stretch.start)
    cuts, start = {}, 0
    for segment, witness in pieces:
        if sum(aligned[start : start + len(witness)]) >= COVERAGE * len(witness):
            cuts[segment] = cut(witness, start, projection)
        start += len(witness)
    return cuts


def write_table(pieces, model, edition=None, path: Path | None = None, redo=False) -> dict:
    """Write the table. A row whose characters are still the witness's is kept (unless
    ``redo``); any other is cut by the punctuated 儀禮注疏 where it holds the piece
    (``edition``: {(rite, segment): sentences}, :func:`edition_cuts`), else by the learnt model
    (its cut of the reading put on the witness's characters). ``pieces``: (rite, segment, witness
    characters, reading) of every 傳 piece. Returns {segment: "edition" | "model"} of the rows
    written anew."""
    path = path or table_path()
    old = read_table(path) if path.exists() else {}
    edition = edition or {}
    written, rows = {}, []
    marks = str.maketrans("", "", SENTENCE_MARK + CLAUSE_MARK)
    for rite, segment, witness, reading in pieces:
        kept = old.get((rite, segment))
        if kept is not None and not redo and kept.text.translate(marks) == witness:
            rows.append((rite, str(segment), kept.text, kept.note))
            continue
        if (rite, segment) in edition:
            written[segment] = "edition"
            rows.append((rite, str(segment), join_marked(edition[rite, segment]), EDITION_NOTE))
            continue
        written[segment] = "model"
        sentences = cut_alike(model_cut(model, reading), witness)
        rows.append((rite, str(segment), join_marked(sentences), MODEL_NOTE))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(HEADER)
        handle.write("\t".join(FIELDS) + "\n")
        for row in rows:
            handle.write("\t".join(row) + "\n")
    read_table.cache_clear()
    return written


def main(argv: list[str] | None = None) -> int:
    """Write the rows missing or stale (``--redo``: every row) from their sources."""
    from yili_kg.loaders.text.punctuate import default_model
    from yili_kg.loaders.text.rites import zhuan_pieces
    from yili_kg.loaders.text.ritetable import rite_info

    redo = "--redo" in (sys.argv[1:] if argv is None else argv)
    pieces = zhuan_pieces()
    edition = {}
    for rite in dict.fromkeys(p[0] for p in pieces):
        mine = [(segment, witness) for r, segment, witness, _ in pieces if r == rite]
        cuts = edition_cuts(rite, rite_info(rite).hans, mine)
        edition.update({(rite, segment): sentences for segment, sentences in cuts.items()})
    written = write_table(pieces, default_model(), edition, redo=redo)
    print(f"{table_path()}: {len(written)} rows written: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
