"""Citations across the whole 儀禮: any chapter whose rite is in the graph is resolved."""

from __future__ import annotations

from rdflib import RDF, Graph, Literal
from rdflib.namespace import DCTERMS, XSD

from yili_kg.loaders import iris
from yili_kg.loaders.graph.bookcites import chapter_works, count, rite_works
from yili_kg.loaders.graph.citelinks import quote_links
from yili_kg.loaders.iris import YL


def _rite(graph: Graph, slug: str, chapter: int, clauses: list[str]) -> None:
    """A rite as the text layer writes it: typed, numbered, its clauses with offsets."""
    graph.add((iris.rite(slug), RDF.type, YL.Rite))
    graph.add((iris.rite(slug), YL.chapter, Literal(chapter, datatype=XSD.integer)))
    offset = 0
    for number, text in enumerate(clauses, start=1):
        node = iris.passage(slug, f"jing/1.1.{number}")
        graph.add((node, RDF.type, YL.Clause))
        graph.add((node, YL.text, Literal(text, lang="lzh")))
        graph.add((node, YL.startOffset, Literal(offset, datatype=XSD.integer)))
        offset += len(text)


def _citation(graph: Graph, rite: str, work: str, quote: str | None) -> None:
    node = iris.ID[f"{rite}/commentary/s001-zhu-1/citation/1"]
    graph.add((node, DCTERMS.references, iris.work(work)))
    if quote:
        graph.add((node, YL.quotes, Literal(quote, lang="lzh")))


def test_every_chapter_of_the_book_has_its_work():
    chapters = chapter_works()
    assert chapters[iris.work("shiguanli")] == 1 and chapters[iris.work("pinli")] == 8
    assert chapters[iris.work("xiangshe")] == 5 and chapters[iris.work("teshengkuishili")] == 15
    assert len(set(chapters.values())) == 17


def test_a_rite_added_to_the_graph_is_a_cited_rite_without_a_table():
    graph = Graph()
    # 聘禮 (chapter 8), as the new text pipeline will add it: 宰命司馬戒衆介
    _rite(graph, "pin", 8, ["宰命司馬戒衆介", "衆介皆逆命", "不辭"])
    _rite(graph, "xiangshe", 5, ["主人戒賓"])
    assert rite_works([graph])[iris.work("pinli")] == "pin"
    # a 鄉射禮 note: 聘禮曰宰命司馬戒衆介 → the clauses of 聘禮; 士冠禮 is not in the graph
    _citation(graph, "xiangshe", "pinli", "宰命司馬戒衆介衆介皆逆命")
    other = Graph()
    _citation(other, "xiangshe", "shiguanli", "筮于庿門")
    links = quote_links([graph, other])
    quoted = set(links.objects(None, YL.quotesPassage))
    assert quoted == {iris.passage("pin", "jing/1.1.1"), iris.passage("pin", "jing/1.1.2")}
    counts = count([graph, other], links)["xiangshe"]
    assert (counts.cited, counts.rite_here, counts.quoted, counts.resolved) == (2, 1, 1, 1)


def test_citations_between_the_rites_resolve_in_the_build(full_build_dir):
    build_dir = full_build_dir  # the seventeen rites whole, not the mini dataset
    graphs = []
    for name in ("text", "rites", "links"):
        graph = Graph()
        graph.parse(build_dir / "stages" / f"{name}.nt", format="nt")
        graphs.append(graph)
    counts = count(graphs[:2], graphs[2])
    for rite, c in counts.items():
        assert c.resolved <= c.quoted <= c.rite_here <= c.cited, rite
    # the whole book is in the graph: every citation of a chapter of the 儀禮 finds its rite
    assert len(counts) == 17
    assert all(c.cited == c.rite_here for c in counts.values()), counts
    # and in every chapter some of the quoted words are found in the cited rite's clauses
    # (鄉射禮's notes quote 鄉飲酒禮 and 大射儀; 特牲's quote 少牢 …; measured 2026-12-02: 3 to 40
    # a chapter, 287 in all)
    assert all(c.resolved > 0 for c in counts.values()), counts
    assert counts["xiangshe"].resolved > 0 and counts["teshengkuishi"].resolved > 0
