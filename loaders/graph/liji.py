"""The 禮記 chapters that explain the rites (冠義, 昏義, 鄉飲酒義, 射義, 燕義, 聘義), from TLS.

``corpus/liji/KR1d0052.tls.xml`` (Thesaurus Linguae Sericae, tls-texts, CC BY-SA 4.0) holds
the whole 禮記: a ``<div>`` a chapter with its ``<head>``, a ``<seg xml:id>`` a phrase, the
punctuation as ``<c n="，"/>``. The chapters read are the works of ``corpus/works.tsv`` whose
``explains`` names rites (:func:`explainers`); each becomes a text of its own,
``…/id/liji/<slug>`` (``liji/sheyi`` 射義), whose segments keep the TLS ids
(``KR1d0052_tls_047-1a.4`` → ``…/id/liji/sheyi/047-1a.4``, the id as ``dcterms:identifier``),
linked to the rites it explains (``yl:explainsRite``) where those rites are in the graph.

The notes' citations of these chapters (《射義》云…, 鄉飲酒義曰…, and 禮記曰… where the words
are found in one of them) are resolved to the segments whose words they quote: the quoted
words, folded (:func:`variants.fold`) and without punctuation, are looked for exactly and then
by alignment around their longest run in common with the chapter (difflib), since
commentators quote loosely and the quoted words of an unpunctuated note run on into its own.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, XSD
from rdflib.term import Node

from yili_kg.loaders import iris
from yili_kg.loaders.corpus import corpus_dir, witness_path
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.graph.works import read_works
from yili_kg.loaders.iris import YL
from yili_kg.loaders.text.ritetable import read_rites
from yili_kg.loaders.variants import PUNCTUATION, fold

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
WITNESS = "liji-tls"
LZH = "lzh"

#: Quoted words are looked for from this many characters; an inexact quotation needs a run of
#: MIN_ANCHOR characters in common with the chapter (or half its words, if fewer).
MIN_EXACT, MIN_ANCHOR = 4, 6


@dataclass(frozen=True)
class Explainer:
    """A 禮記 chapter that explains rites of the 儀禮 (禮記 … 義)."""

    slug: str  # IRI slug under liji/ (the work's id without its whole's: liji-sheyi → sheyi)
    title: str  # the <head> of the TEI chapter (the work's title after ·)
    en: str  # works.tsv text_en, else en
    work: str  # id in corpus/works.tsv
    rites: tuple[str, ...]  # rite slugs it explains (works.tsv explains)


@cache
def explainers() -> tuple[Explainer, ...]:
    """The chapters that explain rites, in the order of ``corpus/works.tsv``: its works with
    rites in ``explains`` (冠義, 昏義, 鄉飲酒義, 射義, 燕義, 聘義; shared/corpus/liji/SOURCES.md).

    Raises:
        SourceError: a rite not in rites.tsv, or a work that is no part (its id names the text).
    """
    rites = read_rites()
    out = []
    for work in read_works().values():
        if not work.explains:
            continue
        prefix = f"{work.part_of}-"
        unknown = [r for r in work.explains if r not in rites]
        if not work.part_of or not work.id.startswith(prefix) or unknown:
            raise SourceError(
                corpus_dir() / "works.tsv",
                f"{work.id}: explains {unknown or list(work.explains)}: a part (id <whole>-<slug>) "
                "explaining rites of rites.tsv",
            )
        slug = work.id.removeprefix(prefix)
        head = work.title.rsplit("·", 1)[-1]
        out.append(Explainer(slug, head, work.text_en or work.en, work.id, work.explains))
    return tuple(out)


def __getattr__(name: str):
    """``EXPLAINERS``: :func:`explainers`, read when first asked for (not at import)."""
    if name == "EXPLAINERS":
        return explainers()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Segment:
    id: str  # the TLS xml:id
    text: str  # characters and punctuation, as TLS gives them
    start: int  # offsets in the chapter's text (characters and punctuation)
    end: int
    paragraph: int  # 1-based <p> of the chapter


@dataclass(frozen=True)
class Chapter:
    explainer: Explainer
    head_id: str
    segments: tuple[Segment, ...]

    @property
    def node(self) -> URIRef:
        return chapter_iri(self.explainer.slug)

    def segment_node(self, segment: Segment) -> URIRef:
        return segment_iri(self.explainer.slug, segment.id)


def chapter_iri(slug: str) -> URIRef:
    return iris.ID[f"liji/{slug}"]


def segment_iri(slug: str, tls_id: str) -> URIRef:
    return iris.ID[f"liji/{slug}/{tls_id.removeprefix('KR1d0052_tls_')}"]


def liji_path() -> Path:

    return witness_path(WITNESS)


def _segment_text(seg: ET.Element) -> str:
    parts = [seg.text or ""]
    for child in seg:
        if child.tag == f"{TEI}c":
            parts.append(child.get("n", ""))
        else:
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return re.sub(r"\s+", "", "".join(parts))


def _xml_id(element: ET.Element, path: Path) -> str:
    """An element's xml:id (TLS gives every <seg> and <head> one: they are the texts' ids)."""
    value = element.get(XML_ID)
    if value is None:
        raise SourceError(path, f"a <{element.tag.split('}')[-1]}> without xml:id")
    return value


@cache
def read_chapters(path: Path | None = None) -> tuple[Chapter, ...]:
    """The six chapters, their segments in order."""
    path = path or liji_path()
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise SourceError(path, f"not well-formed TEI: {exc}") from exc
    order = explainers()
    wanted = {e.title: e for e in order}
    chapters = []
    for div in root.iter(f"{TEI}div"):
        head = div.find(f"{TEI}head")
        if head is None:
            continue
        title = "".join(head.itertext()).strip()
        if title not in wanted:
            continue
        segments, offset = [], 0
        for number, para in enumerate(div.findall(f"{TEI}p"), start=1):
            for seg in para.iter(f"{TEI}seg"):
                text = _segment_text(seg)
                if not text:
                    continue
                segments.append(
                    Segment(_xml_id(seg, path), text, offset, offset + len(text), number)
                )
                offset += len(text)
        chapters.append(Chapter(wanted[title], _xml_id(head, path), tuple(segments)))
    missing = set(wanted) - {c.explainer.title for c in chapters}
    if missing:
        raise SourceError(path, f"no chapter headed {', '.join(sorted(missing))}")
    return tuple(sorted(chapters, key=lambda c: order.index(c.explainer)))


def liji_graph(rites: set[str], chapters: tuple[Chapter, ...] | None = None) -> Graph:
    """The chapters and their segments; ``yl:explainsRite`` to those of their rites in ``rites``."""
    graph = Graph()
    witness = iris.witness(WITNESS)
    works = read_works()
    for chapter in chapters or read_chapters():
        e = chapter.explainer
        node = chapter.node
        graph.add((node, RDF.type, YL.LijiChapter))
        graph.add((node, RDFS.label, Literal(works[e.work].title, lang="zh-Hant")))
        graph.add((node, RDFS.label, Literal(f"Liji: {e.en}", lang="en")))
        graph.add((node, DCTERMS.identifier, Literal(chapter.head_id)))
        graph.add((node, DCTERMS.isVersionOf, iris.work(e.work)))
        graph.add((node, YL.witness, witness))
        for rite in e.rites:
            if rite in rites:
                graph.add((node, YL.explainsRite, iris.rite(rite)))
        for segment in chapter.segments:
            seg = chapter.segment_node(segment)
            graph.add((seg, RDF.type, YL.LijiSegment))
            graph.add((seg, YL.partOf, node))
            graph.add((seg, YL.text, Literal(segment.text, lang=LZH)))
            graph.add((seg, YL.witness, witness))
            graph.add((seg, DCTERMS.identifier, Literal(segment.id)))
            graph.add((seg, YL.startOffset, Literal(segment.start, datatype=XSD.integer)))
            graph.add((seg, YL.endOffset, Literal(segment.end, datatype=XSD.integer)))
            graph.add((seg, YL.paragraphIndex, Literal(segment.paragraph, datatype=XSD.integer)))
    return graph


def _clean(text: str) -> tuple[str, list[int]]:
    """Folded characters without punctuation, and each one's offset in ``text``."""
    kept, offsets = [], []
    for i, c in enumerate(fold(text)):
        if c not in PUNCTUATION:
            kept.append(c)
            offsets.append(i)
    return "".join(kept), offsets


class ChapterText:
    """A chapter's characters (folded, no punctuation) and the segment of each."""

    def __init__(self, chapter: Chapter):
        self.chapter = chapter
        self.text = ""
        self.starts: list[int] = []
        for segment in chapter.segments:
            self.starts.append(len(self.text))
            self.text += _clean(segment.text)[0]

    def find(self, words: str) -> tuple[list[URIRef], str]:
        """The segments ``words`` quote, and how they were found ("exact", "aligned" or "").

        The words are looked for whole; failing that, the longest run they share with the
        chapter is the anchor (at least :data:`MIN_ANCHOR` characters, or half the words if
        fewer), and the quotation is the stretch of the chapter that the words' matching runs
        of two or more characters cover around it (the 疏 runs on into its own words, or
        paraphrases: 主人盥洗揚觶所以致潔也 → 盥洗揚觶，所以致絜也).
        """

        quote = _clean(words)[0]
        if len(quote) < MIN_EXACT:
            return [], ""
        at = self.text.find(quote)
        if at >= 0:
            return self._covered(at, at + len(quote)), "exact"
        matcher = SequenceMatcher(None, quote, self.text, autojunk=False)
        anchor = matcher.find_longest_match(0, len(quote), 0, len(self.text))
        if anchor.size < min(MIN_ANCHOR, max(MIN_EXACT, (len(quote) + 1) // 2)):
            return [], ""
        lo = max(0, anchor.b - anchor.a)
        hi = min(len(self.text), anchor.b + (len(quote) - anchor.a))
        window = SequenceMatcher(None, quote, self.text[lo:hi], autojunk=False)
        blocks = [b for b in window.get_matching_blocks() if b.size >= 2]
        start = lo + min(b.b for b in blocks)
        end = lo + max(b.b + b.size for b in blocks)
        return self._covered(start, end), "aligned"

    def _covered(self, start: int, end: int) -> list[URIRef]:
        first = bisect_right(self.starts, start) - 1
        last = bisect_right(self.starts, end - 1) - 1
        return [self.chapter.segment_node(s) for s in self.chapter.segments[first : last + 1]]


@dataclass
class CitationCount:
    """Citations of 禮記 chapters in one rite's notes."""

    cited: int = 0  # citations of any 禮記 chapter (or of 禮記 itself)
    chapter_here: int = 0  # … of one of the six chapters (or 禮記 with quoted words)
    quoted: int = 0  # … of those, with quoted words
    resolved: int = 0  # … of those, resolved to segments


def _rite_of(citation: Node) -> str:
    rest = str(citation)[len(str(iris.ID)) :]
    return rest.split("/", 1)[0]


def liji_work_ids() -> tuple[set[URIRef], URIRef]:
    """The work nodes of the 禮記's chapters (any, from works.tsv) and of the 禮記 itself."""

    works = read_works()
    parts = {iris.work(w.id) for w in works.values() if w.part_of == "liji"}
    return parts, iris.work("liji")


def citation_links(
    graphs: list[Graph], chapters: tuple[Chapter, ...] | None = None, into: Graph | None = None
) -> tuple[Graph, dict[str, CitationCount]]:
    """``citation yl:quotesPassage segment`` for the notes' quotations of the six chapters.

    A citation of 禮記 itself (禮記曰…) is looked for in all six and kept only where its
    words are found exactly. Returns the links and the counts per rite.
    """
    out = Graph() if into is None else into
    chapters = chapters or read_chapters()
    texts: dict[Node, ChapterText] = {iris.work(c.explainer.work): ChapterText(c) for c in chapters}
    parts, whole = liji_work_ids()
    counts: dict[str, CitationCount] = {}
    for graph in graphs:
        for citation, work in graph.subject_objects(DCTERMS.references):
            if work not in parts and work != whole:
                continue
            count = counts.setdefault(_rite_of(citation), CitationCount())
            count.cited += 1
            quote = graph.value(citation, YL.quotes)
            if work != whole and work not in texts:
                continue
            if work == whole and quote is None:
                continue
            count.chapter_here += 1
            if quote is None:
                continue
            count.quoted += 1
            found: list[URIRef] = []
            if work == whole:
                for text in texts.values():
                    found, how = text.find(str(quote))
                    if found and how == "exact":
                        break
                    found = []
            else:
                found, _ = texts[work].find(str(quote))
            if found:
                count.resolved += 1
            for segment in found:
                out.add((citation, YL.quotesPassage, segment))
    return out, counts


def render_counts(counts: dict[str, CitationCount]) -> str:
    lines = ["rite          cited  to the six  quoted  resolved"]
    total: Counter[str] = Counter()
    for rite in sorted(counts):
        c = counts[rite]
        lines.append(f"{rite:12} {c.cited:6d} {c.chapter_here:11d} {c.quoted:7d} {c.resolved:9d}")
        total.update(c.__dict__)
    lines.append(
        f"{'all':12} {total['cited']:6d} {total['chapter_here']:11d} "
        f"{total['quoted']:7d} {total['resolved']:9d}"
    )
    return "\n".join(lines)
