"""Readers for the Kanseki Repository witnesses (Kanripo KR1d0028 四庫, KR1d0026 四部叢刊).

The witnesses are the raw mandoku files (``corpus/kanripo-raw/``, read by :mod:`mandoku`)
as rows ``row type segment page text`` of 經, 注, 音義, 疏, ○ and 考證 (四部叢刊: 經 and 注,
its own segment numbering). :func:`read_tsv` reads the same rows written out as TSV (the form
the files derived once by hand had; ``tests/data/kanripo-derived/`` keeps them as the check).

Non-Unicode glyphs ``&KRnnnn;`` are read as the character ``corpus/kanripo-gaiji.tsv`` gives,
so that every reading is one character per character; the raw row text is kept beside.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir, read_rows, witness_path
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.witnesses.mandoku import sbck_rows, zhushu_rows

GAIJI_TABLE = "kanripo-gaiji.tsv"
GAIJI_FIELDS = ("entity", "reading", "where", "evidence")
_ENTITY = re.compile(r"&(KR\d{4});")
LOST = "〓"  # the traditional mark for an unreadable character


@cache
def gaiji() -> dict[str, str]:
    """The readings of the Kanripo glyph entities, ``corpus/kanripo-gaiji.tsv`` (each with its
    evidence there): entity number → one character, 〓 where it is unresolved."""
    path = corpus_dir() / GAIJI_TABLE
    readings: dict[str, str] = {}
    for line, row in read_rows(path, GAIJI_FIELDS):
        entity, reading = row["entity"], row["reading"]
        if not re.fullmatch(r"KR\d{4}", entity) or len(reading) != 1 or entity in readings:
            raise SourceError(path, "need a new entity KRnnnn and one character", line)
        readings[entity] = reading
    return readings


NOTE_KINDS = ("注", "音義", "疏", "考證")


def read_gaiji(text: str) -> str:
    """Replace ``&KRnnnn;`` entities by their reading (one character each; 〓 if unknown)."""
    readings = gaiji()
    return _ENTITY.sub(lambda m: readings.get(m.group(1), LOST), text)


@dataclass(frozen=True)
class Row:
    """One row of a Kanripo TSV: a 經 segment, a note, or a ○ section break."""

    row: int
    kind: str  # 經 | 注 | 音義 | 疏 | ○ | 考證
    segment: int | None  # the 經 segment it belongs to (None for 考證)
    page: str
    text: str  # reading (gaiji resolved)
    raw: str  # as transcribed

    @property
    def line(self) -> int:
        """Line in the file (for error messages): rows start after the header."""
        return self.row

    @property
    def number(self) -> int:
        """The segment number of a row that has one (every 經 row, numbered 1, 2, 3 …)."""
        if self.segment is None:
            raise ValueError(f"row {self.row} ({self.kind}) has no segment number")
        return self.segment


@cache
def read_tsv(path: Path) -> tuple[Row, ...]:
    """All rows of a zhushu or sbck TSV witness, in file order."""
    path = Path(path)
    rows: list[Row] = []
    with open(path, encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if header != ["row", "type", "jing", "page", "text"]:
        raise SourceError(path, f"unexpected TSV header {header}")
    for cells in reader:
        if len(cells) != 5:
            raise SourceError(path, f"row has {len(cells)} columns, expected 5: {cells[:2]}")
        number, kind, segment, page, text = cells
        if kind not in ("經", "○", *NOTE_KINDS):
            raise SourceError(path, f"unknown row type {kind!r} in row {number}")
        rows.append(
            Row(
                row=int(number),
                kind=kind,
                segment=int(segment) if segment else None,
                page=page,
                text=read_gaiji(text),
                raw=text,
            )
        )
    return tuple(rows)


def rite_rows(rite: str, edition: str = "zhushu") -> tuple[Row, ...]:
    """Rows of a rite's Kanripo witness; ``edition`` is ``zhushu`` (四庫) or ``sbck`` (四部叢刊).

    Read from the raw mandoku files (:mod:`mandoku`), the 四庫 aligned with the 四部叢刊.
    """

    sbck = witness_path(f"{rite}-kanripo-sbck")
    if edition == "sbck":
        return sbck_rows(sbck)
    return zhushu_rows(witness_path(f"{rite}-kanripo-zhushu"), sbck)


def jing_segments(rows: tuple[Row, ...]) -> list[Row]:
    """The 經 rows, in order (their ``segment`` numbers run 1, 2, 3 …)."""
    return [r for r in rows if r.kind == "經"]


def section_breaks(rows: tuple[Row, ...]) -> list[int]:
    """Segment numbers after which the edition places a ○ (賈疏's divisions)."""
    return [r.segment for r in rows if r.kind == "○" and r.segment is not None]
