"""The table of the rites of the 儀禮 (``corpus/rites.tsv``): one row a chapter.

Each row names the rite's slug (its IRI segment), chapter, titles, the Kanripo juan that holds
it and the witnesses its text layer reads. Adding a rite is a row here and its files in
``corpus/`` (with their rows in ``MANIFEST.tsv``), not a module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError

TABLE = "rites.tsv"
FIELDS = ("slug", "chapter", "hant", "hans", "pinyin", "en", "juan", "base", "witnesses")


@dataclass(frozen=True)
class RiteInfo:
    """A rite of the 儀禮: its chapter, names (zh-Hant, zh-Hans, pinyin, en), juan, witnesses."""

    slug: str
    chapter: int
    hant: str
    hans: str
    pinyin: str
    en: str
    juan: int = 0
    base: str = ""
    witnesses: tuple[str, ...] = ()


@cache
def read_rites() -> dict[str, RiteInfo]:
    """Every rite of the table, in chapter order, keyed by slug."""
    path = corpus_dir() / TABLE
    try:
        rows = list(read_rows(path, FIELDS))
    except OSError as error:
        raise SourceError(path, f"cannot read the table of rites: {error.strerror}") from error
    rites: dict[str, RiteInfo] = {}
    for number, row in rows:
        slug = row["slug"]
        if slug in rites:
            raise SourceError(path, f"rite {slug!r} listed twice", number)
        try:
            rites[slug] = RiteInfo(
                slug,
                int(row["chapter"]),
                row["hant"],
                row["hans"],
                row["pinyin"],
                row["en"],
                int(row["juan"]),
                row["base"],
                tuple(w for w in row["witnesses"].split(",") if w),
            )
        except (TypeError, ValueError) as error:
            raise SourceError(path, f"rite {slug!r}: {error}", number) from error
    return dict(sorted(rites.items(), key=lambda item: item[1].chapter))


def rite_info(slug: str) -> RiteInfo:
    rites = read_rites()
    if slug not in rites:
        raise SourceError(corpus_dir() / TABLE, f"no rite {slug!r} in the table of rites")
    return rites[slug]
