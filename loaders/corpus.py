"""The corpus: where the witness files are, and the manifest that vouches for them.

``corpus/MANIFEST.tsv`` lists every file the build reads with its witness id, edition,
format, licence and sha256. :func:`verify` refuses a file whose checksum does not match,
naming the file, so that a silently edited witness never reaches the graph.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from yili_kg.loaders.built import sha256_of
from yili_kg.loaders.errors import ChecksumError, SourceError


def read_rows(path: Path, fields: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) of a tab-separated table with the header ``fields`` (``#`` lines
    are comments, blank lines skipped)."""
    with open(path, encoding="utf-8", newline="") as handle:
        lines = [
            (n, line)
            for n, line in enumerate(handle, start=1)
            if line.strip() and not line.startswith("#")
        ]
    reader = csv.DictReader((line for _, line in lines), delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) != fields:
        raise SourceError(path, f"header must be {' | '.join(fields)}", lines[0][0] if lines else 1)
    for (number, _), row in zip(lines[1:], reader, strict=True):
        yield number, row


MANIFEST_NAME = "MANIFEST.tsv"
MANIFEST_FIELDS = ("path", "witness", "edition", "format", "licence", "sha256")


def corpus_dir() -> Path:
    """The corpus folder: ``$YILI_CORPUS`` if set, else the one shipped in the package."""
    env = os.environ.get("YILI_CORPUS")
    if env:
        return Path(env)
    return Path(str(resources.files("yili_kg.corpus")))


@dataclass(frozen=True)
class ManifestEntry:
    """One line of the manifest: a witness file and what vouches for it."""

    path: str
    witness: str
    edition: str
    format: str
    licence: str
    sha256: str


def read_manifest(root: Path | None = None) -> dict[str, ManifestEntry]:
    """The manifest, keyed by witness id."""
    root = root or corpus_dir()
    path = root / MANIFEST_NAME
    if not path.exists():
        raise SourceError(path, "the corpus manifest is missing")
    entries: dict[str, ManifestEntry] = {}
    for number, row in read_rows(path, MANIFEST_FIELDS):
        entry = ManifestEntry(**{k: row[k] for k in MANIFEST_FIELDS})
        if entry.witness in entries:
            raise SourceError(path, f"witness {entry.witness!r} listed twice", number)
        entries[entry.witness] = entry
    return entries


def verify(root: Path | None = None) -> dict[str, ManifestEntry]:
    """Check every listed file exists and matches its sha256; return the manifest.

    Raises:
        SourceError: a listed file is missing.
        ChecksumError: a file's content differs from its manifest entry.
    """
    root = root or corpus_dir()
    entries = read_manifest(root)
    for entry in entries.values():
        path = root / entry.path
        if not path.exists():
            raise SourceError(path, f"listed in {MANIFEST_NAME} as {entry.witness!r} but missing")
        actual = sha256_of(path)
        if actual != entry.sha256:
            raise ChecksumError(
                path,
                f"sha256 {actual[:12]}… does not match {MANIFEST_NAME} ({entry.sha256[:12]}…); "
                "the witness was changed: restore it, or review the change and update the manifest "
                "with `yili-kg manifest --update`",
            )
    return entries


def witness_path(witness: str, root: Path | None = None) -> Path:
    """Path of a witness file by its manifest id (e.g. ``xiangshe-base``)."""
    root = root or corpus_dir()
    entries = read_manifest(root)
    if witness not in entries:
        raise SourceError(root / MANIFEST_NAME, f"no witness {witness!r} in the manifest")
    return root / entries[witness].path


def update_manifest(root: Path | None = None) -> list[str]:
    """Rewrite the sha256 column from the files on disk; return the witnesses that changed.

    For maintainers, after reviewing a change to a witness (``yili-kg manifest --update``).
    """
    root = root or corpus_dir()
    path = root / MANIFEST_NAME
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    changed = []
    out = []
    for line in lines:
        cells = line.split("\t")
        if line.startswith("#") or cells[0] == "path" or len(cells) != len(MANIFEST_FIELDS):
            out.append(line)
            continue
        digest = sha256_of(root / cells[0])
        if digest != cells[-1]:
            changed.append(cells[1])
            cells[-1] = digest
        out.append("\t".join(cells))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out) + "\n")
    return changed


def ontology_dir() -> Path:
    """The ontology modules: ``$YILI_ONTOLOGY`` if set (a scratch copy: tests of bad input, as
    ``$YILI_CORPUS`` for the corpus), else the ones shipped in the package."""
    env = os.environ.get("YILI_ONTOLOGY")
    if env:
        return Path(env)
    return Path(str(resources.files("yili_kg.ontology")))


def ontology_files() -> list[Path]:
    return sorted(ontology_dir().glob("*.ttl"))
