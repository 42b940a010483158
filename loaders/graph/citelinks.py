"""Citations between rites resolved to passages (引文): 《大射》云X → the clauses that say X.

The text layer links a note to the work it names (``yl:cites``) and keeps the words it quotes
on the citation node (``yl:quotes``). When the work is one of the rites in the graph, this
module looks for those words in that rite's 經 and 記 (variant-folded, punctuation ignored)
and links the citation to every clause the words cover (``yl:quotesPassage``). Commentators
quote loosely, so the words are tried whole and then by shrinking prefix, down to
:data:`MIN_CHARS` characters; a shorter match is not a quotation.
"""

from __future__ import annotations

import bisect

from rdflib import RDF, Graph
from rdflib.namespace import DCTERMS
from rdflib.term import Node

from yili_kg.loaders import iris
from yili_kg.loaders.graph.bookcites import rite_works
from yili_kg.loaders.iris import YL
from yili_kg.loaders.variants import PUNCTUATION, fold

RITE_WORKS = ("xiangyinjiu", "xiangshe", "yan", "dashe")
MIN_CHARS = 5


def _clean(text: str) -> str:
    return "".join(c for c in fold(text) if c not in PUNCTUATION)


class RiteText:
    """A rite's clauses joined (folded, no punctuation), with each clause's offset."""

    def __init__(self, graphs: list[Graph], rite: str):
        prefix = str(iris.ID[f"{rite}/"])
        clauses = []
        for graph, node in ((g, n) for g in graphs for n in g.subjects(RDF.type, YL.Clause)):
            if str(node).startswith(prefix):
                start = graph.value(node, YL.startOffset)
                clauses.append((int(str(start)), node, _clean(str(graph.value(node, YL.text)))))
        clauses.sort(key=lambda c: c[0])
        self.text = ""
        self.starts: list[int] = []
        self.nodes: list[Node] = []
        for _, node, text in clauses:
            self.starts.append(len(self.text))
            self.nodes.append(node)
            self.text += text

    def find(self, words: str) -> list[Node]:
        """The clauses covered by ``words`` (or by its longest prefix found, ≥ MIN_CHARS)."""
        words = _clean(words)
        for size in range(len(words), MIN_CHARS - 1, -1):
            at = self.text.find(words[:size])
            if at >= 0:
                first = bisect.bisect_right(self.starts, at) - 1
                last = bisect.bisect_right(self.starts, at + size - 1) - 1
                return self.nodes[first : last + 1]
        return []


def quote_links(graphs: list[Graph], into: Graph | None = None) -> Graph:
    """``citation yl:quotesPassage clause`` for every quotation of a rite found in its text.

    ``graphs``: the text layers (with their citation nodes) of the rites.
    """
    out = Graph() if into is None else into

    # the four first rites by slug, and every chapter of the book whose rite is in the graph
    works = {iris.work(slug): slug for slug in RITE_WORKS} | rite_works(graphs)
    texts: dict[str, RiteText] = {}
    for graph, citation, work in (
        (g, c, w) for g in graphs for c, w in g.subject_objects(DCTERMS.references)
    ):
        rite = works.get(work)
        if rite is None:
            continue
        quote = graph.value(citation, YL.quotes)
        if quote is None:
            continue
        if rite not in texts:
            texts[rite] = RiteText(graphs, rite)
        for clause in texts[rite].find(str(quote)):
            out.add((citation, YL.quotesPassage, clause))
    return out
