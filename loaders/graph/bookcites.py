"""Citations across the whole 儀禮 (全書互引): which work is which rite, and how many resolve.

A note cites another chapter of the 儀禮 by its title (《士冠禮》, 聘禮, 特牲) or its 記
(鄉飲酒記, 聘禮記); :mod:`works` links the citation to the chapter's work, and
:mod:`citelinks` resolves its quoted words to that rite's clauses. This module says which
work is which rite for any number of rites: a 儀禮 chapter's work carries its juan of the
四庫 儀禮注疏 (``kanripo`` KR1d0028_<juan> in ``corpus/works.tsv``, one juan a chapter), and a
rite in the graph its ``yl:chapter``; the four first rites' works also bear the rite's slug.
So a rite added to the graph is found as a cited rite with no table to update.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rdflib import RDF, Graph
from rdflib.namespace import DCTERMS
from rdflib.term import Node

from yili_kg.loaders import iris
from yili_kg.loaders.graph.works import read_works
from yili_kg.loaders.iris import YL

_JUAN = re.compile(r"^KR1d0028_(\d{3})$")


def rites_in(graphs: list[Graph]) -> dict[int, str]:
    """Chapter number → rite slug, for the rites of these graphs."""
    out = {}
    for graph in graphs:
        for rite in graph.subjects(RDF.type, YL.Rite):
            chapter = graph.value(rite, YL.chapter)
            if chapter is not None:
                out[int(str(chapter))] = str(rite).rsplit("/", 1)[-1]
    return out


def rite_works(graphs: list[Graph], works=None) -> dict[Node, str]:
    """Work node → rite slug, for every 儀禮 chapter whose rite is in ``graphs``."""

    rites = rites_in(graphs)
    out: dict[Node, str] = {}
    for work in (works or read_works()).values():
        match = _JUAN.match(work.kanripo or "")
        if match and int(match.group(1)) in rites:
            out[iris.work(work.id)] = rites[int(match.group(1))]
        elif work.id in rites.values():
            out[iris.work(work.id)] = work.id
    return out


def chapter_works(works=None) -> dict[Node, int]:
    """Work node → chapter number, for every 儀禮 chapter of the works authority."""

    out: dict[Node, int] = {}
    for work in (works or read_works()).values():
        match = _JUAN.match(work.kanripo or "")
        if match:
            out[iris.work(work.id)] = int(match.group(1))
    return out


@dataclass
class RiteCitations:
    """Citations in one rite's notes of the other chapters of the 儀禮."""

    cited: int = 0  # citations of another chapter
    rite_here: int = 0  # … whose rite is in the graph
    quoted: int = 0  # … of those, with quoted words
    resolved: int = 0  # … of those, resolved to clauses


def count(graphs: list[Graph], links: Graph) -> dict[str, RiteCitations]:
    """Per citing rite: citations of other chapters, and how many resolve (``links``)."""
    chapters = chapter_works()
    here = rite_works(graphs)
    resolved = set(links.subjects(YL.quotesPassage, None))
    counts: dict[str, RiteCitations] = {}
    prefix = str(iris.ID)
    for graph in graphs:
        for citation, work in graph.subject_objects(DCTERMS.references):
            if work not in chapters:
                continue
            citing = str(citation)[len(prefix) :].split("/", 1)[0]
            if here.get(work) == citing:
                continue  # a note naming its own chapter
            c = counts.setdefault(citing, RiteCitations())
            c.cited += 1
            if work not in here:
                continue
            c.rite_here += 1
            if graph.value(citation, YL.quotes) is None:
                continue
            c.quoted += 1
            c.resolved += citation in resolved
    return counts


def render(counts: dict[str, RiteCitations]) -> str:
    lines = ["rite          cited  rite here  quoted  resolved"]
    for rite in sorted(counts):
        c = counts[rite]
        lines.append(f"{rite:12} {c.cited:6d} {c.rite_here:10d} {c.quoted:7d} {c.resolved:9d}")
    return "\n".join(lines)
