"""The archery rounds (三番射) of the phases, from ``corpus/archery-rounds.tsv``.

Each row puts one phase of an archery rite into round 1, 2 or 3 and repeats the phase's name,
so that a renumbering of the phases cannot silently move a round: :func:`check_rounds`
refuses a row whose name is not the phase's.
"""

from __future__ import annotations

from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError

FILE_NAME = "archery-rounds.tsv"
FIELDS = ("rite", "phase", "round", "name")


def read_rounds(path: Path | None = None) -> dict[str, dict[int, tuple[int, str]]]:  # 三番射
    """rite slug → phase index → (round, phase name), as the file lists them."""
    path = path or corpus_dir() / FILE_NAME
    rounds: dict[str, dict[int, tuple[int, str]]] = {}
    for line, row in read_rows(path, FIELDS):
        try:
            phase, number = int(row["phase"]), int(row["round"])
        except (TypeError, ValueError):
            raise SourceError(path, f"phase and round must be integers: {row}", line) from None
        if number not in (1, 2, 3):
            raise SourceError(path, f"round {number} is not 1, 2 or 3", line)
        if phase in rounds.setdefault(row["rite"], {}):
            raise SourceError(path, f"{row['rite']} phase {phase} is listed twice", line)
        rounds[row["rite"]][phase] = (number, row["name"])
    return rounds


def check_rounds(rite: str, phases, rounds: dict[int, tuple[int, str]], path: object = FILE_NAME):
    """``rounds`` of one rite, checked against its phases (objects with .index and .name)."""
    names = {phase.index: phase.name for phase in phases}
    for index, (_, name) in sorted(rounds.items()):
        if names.get(index) != name:
            raise SourceError(
                path, f"{rite} phase {index} is {names.get(index)!r} in the build, not {name!r}"
            )
    return round_numbers(rounds)


def round_numbers(rounds: dict[int, tuple[int, str]]) -> dict[int, int]:
    """phase index → round, from :func:`read_rounds`' rows of one rite (names dropped)."""
    return {index: number for index, (number, _) in rounds.items()}
