"""The reviewed annotation layer: which record each clause gets, coverage, and stale records.

For every clause the build takes the record of ``corpus/annotations/<rite>/`` when there is one
whose text is the clause's text, and the automatic annotator's reading otherwise. ``yili-kg
annotate`` writes the automatic reading for the clauses that have no record yet (never
touching a reviewed one), one file per phase; ``yili-kg check`` reports review coverage and
any record whose text no longer matches the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from yili_kg.loaders.annotation.annotate import annotate_clauses, commentary_of
from yili_kg.loaders.annotation.annotations import (
    Record,
    annotation_dir,
    read_layer,
    read_records,
    write_records,
)
from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.terms.lexicon import Lexicon, default_lexicon, lexicon_for
from yili_kg.loaders.text.rites import build_rite_layer
from yili_kg.loaders.text.ritetable import read_rites
from yili_kg.loaders.text.textlayer import build_text_layer


@dataclass
class LayerReport:
    clauses: int = 0
    reviewed: int = 0  # ok or fixed
    fixed: int = 0
    automatic: int = 0  # no record, or a record still marked auto
    stale: list[str] = field(default_factory=list)  # records whose text is not the corpus's
    unknown: list[str] = field(default_factory=list)  # records of clauses that do not exist

    @property
    def coverage(self) -> float:
        return self.reviewed / self.clauses if self.clauses else 0.0

    def render(self) -> str:
        lines = [
            f"review coverage: {self.reviewed}/{self.clauses} clauses "
            f"({self.coverage:.1%}; {self.fixed} corrected, {self.automatic} automatic only)"
        ]
        for pid in self.stale:
            lines.append(f"  stale record (its text is no longer the corpus's): {pid}")
        for pid in self.unknown:
            lines.append(f"  record of a clause that does not exist: {pid}")
        return "\n".join(lines)


def compose(layer, lexicon: Lexicon, rite: str = "xiangshe") -> tuple[list[Record], LayerReport]:
    """One record per clause, in text order: reviewed where it can be, automatic otherwise."""
    reviewed = read_layer(rite)
    automatic = annotate_clauses(layer.clauses, lexicon, commentary_of(layer))
    report = LayerReport(clauses=len(automatic))
    ids = {c.id for c in layer.clauses}
    report.unknown = sorted(set(reviewed) - ids)
    records = []
    for auto in automatic:
        record = reviewed.get(auto.id)
        if record is not None and record.text != auto.text:
            report.stale.append(auto.id)
            record = None
        if record is None or record.review == "auto":
            report.automatic += 1
            records.append(record or auto)
            continue
        report.reviewed += 1
        report.fixed += record.review == "fixed"
        records.append(record)
    return records, report


def reviewed_rites() -> list[str]:
    """The rites with a reviewed layer (a row of ``corpus/annotations/status.tsv``), in
    chapter order."""

    status = review_status()
    return [slug for slug in read_rites() if slug in status]


def review_status() -> dict[str, str]:
    """Each reviewed rite's status, ``complete`` (every clause must be reviewed: ``yili-kg
    check`` fails otherwise) or ``in review``, from ``corpus/annotations/status.tsv``."""

    path = corpus_dir() / "annotations" / "status.tsv"
    status: dict[str, str] = {}
    lines = enumerate(path.read_text("utf-8").splitlines(), start=1)
    rows = [(n, line.split("\t")) for n, line in lines if line and not line.startswith("#")]
    if not rows or rows[0][1] != ["rite", "status"]:
        raise SourceError(path, "header must be: rite, status")
    for number, cells in rows[1:]:
        if len(cells) != 2 or cells[1] not in ("complete", "in review"):
            raise SourceError(path, "expected a rite and complete | in review", number)
        status[cells[0]] = cells[1]
    return status


def review_layer(rite: str):
    """A rite's whole text layer and lexicon, as its review reads them (鄉射禮's own builder,
    the Kanripo builder for the others; the rite's senses of its words)."""

    if rite == "xiangshe":
        return build_text_layer(), default_lexicon()

    return build_rite_layer(rite), lexicon_for(rite)


def phase_file(rite: str, index: int, name: str) -> Path:
    return annotation_dir(rite) / f"{index:02d}-{name}.tsv"


def write_missing(layer, lexicon: Lexicon, rite: str = "xiangshe") -> int:
    """Write the automatic reading of every clause without a record; return how many.

    A record whose clause no longer exists (a correction of the witness gave the clause new
    characters and a new id) is kept where it is, after the file's other records: it is a
    reader's work, reported by the coverage (``record of a clause that does not exist``) for
    someone to move to its clause, never dropped by rewriting its file."""
    reviewed = read_layer(rite)
    automatic = annotate_clauses(layer.clauses, lexicon, commentary_of(layer))
    current = {record.id for record in automatic}
    names = {p.index: p.name for p in layer.phases}
    by_phase: dict[int, list[Record]] = {}
    for record in automatic:
        by_phase.setdefault(layer.passage_phases[record.id][0], []).append(record)
    written = 0
    for index, records in sorted(by_phase.items()):
        path = phase_file(rite, index, names[index])
        existing = {r.id: r for r in read_records(path)} if path.exists() else {}
        merged = []
        for record in records:
            if record.id in existing:
                merged.append(existing[record.id])
            elif record.id not in reviewed:
                merged.append(record)
                written += 1
        merged.extend(r for r in existing.values() if r.id not in current)
        title = (
            f"{names[index]} (phase {index}): one record per clause; review = auto | ok | "
            "fixed (docs/annotation.md)"
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        write_records(path, merged, title)
    return written
