"""Text layer → RDF (the asserted graph's passages, phases, notes, works and witnesses).

Literals of the classic and its commentary carry ``@lzh`` (Literary Chinese); labels of
terms carry ``zh-Hant`` (and ``zh-Hans``, ``zh-Latn-pinyin``, ``en`` where known).
"""

from __future__ import annotations

from functools import cache

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV

from yili_kg.loaders import iris
from yili_kg.loaders.annotation.rules import word_values
from yili_kg.loaders.corpus import read_manifest
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.graph.works import find_citations, read_works
from yili_kg.loaders.iris import OA, YL
from yili_kg.loaders.terms.ontology import parse_modules
from yili_kg.loaders.text.ritetable import read_rites
from yili_kg.loaders.text.rounds import check_rounds, read_rounds
from yili_kg.loaders.text.textlayer import TextLayer

LZH = "lzh"
LEVEL_CLASS = {
    "paragraph": YL.Paragraph,
    "sentence": YL.Sentence,
    "clause": YL.Clause,
    "heading": YL.Heading,
}
#: Who wrote each kind of note (slug, zh-Hant, en), by its class. Names of persons, not
#: vocabulary: bibliographic facts (as the titles of corpus/works.tsv), kept here because the
#: ontology has no place for them that would not be read as a verb frame (a yl: annotation
#: property) or asserted twice (the text stage already states the persons and their labels).
AUTHORS = {
    YL.Zhu: ("zheng-xuan", "鄭玄", "Zheng Xuan"),
    YL.Shu: ("jia-gongyan", "賈公彥", "Jia Gongyan"),
    YL.Yinyi: ("lu-deming", "陸德明", "Lu Deming"),
    YL.Kaozheng: ("siku-editors", "四庫館臣", "the Siku quanshu editors"),
    YL.Quotation: ("jiang-yong", "江永", "Jiang Yong"),
}
#: How the pages of 江永's witness are cited: its title before the leaf (yl:page 011-3a), as
#: a Kanripo page is cited by its text id (KR1d0028_WYG_005-1a). A mark of the witness, kept.
JIANGYONG_PAGES = "禮書綱目"
RITES = {slug: (info.hant, info.hans, info.pinyin, info.en) for slug, info in read_rites().items()}
#: the 儀禮 chapter of each rite
CHAPTERS = {slug: info.chapter for slug, info in read_rites().items()}
#: The English of each division (its zh-Hant name is the words table's: class ``division``).
DIVISION_EN = {
    "jing": "the classic (jing)",
    "ji": "the record (ji)",
    "zhuan": f"the tradition (zhuan) of {RITES['sangfu'][0]}",
}


@cache
def note_classes() -> dict[str, URIRef]:
    """The kinds of note by the word that names them: every subclass of yl:Commentary of the
    ontology by its zh-Hant ``rdfs:label``. The witnesses' rows are of those kinds (a Kanripo
    row's type is 注, 音義, 疏 or 考證), so a note's kind is the label of its class.

    >>> [note_classes()[kind].fragment for kind in ("注", "疏", "引文")]
    ['Zhu', 'Shu', 'Quotation']
    """
    graph = parse_modules()
    classes: dict[str, URIRef] = {}
    kinds = graph.transitive_subjects(RDFS.subClassOf, YL.Commentary)
    for node in sorted({n for n in kinds if isinstance(n, URIRef) and n != YL.Commentary}):
        for label in graph.objects(node, RDFS.label):
            if isinstance(label, Literal) and (label.language or "").lower() == "zh-hant":
                known = classes.setdefault(str(label), node)
                if known != node:
                    raise SourceError(
                        "ontology", f"two kinds of note labelled {label}: {known} and {node}"
                    )
    return classes


def note_class(kind: str) -> URIRef:
    """The class of a note of kind ``kind`` (注 → yl:Zhu), or an error naming the kind."""
    found = note_classes().get(kind)
    if found is None:
        raise SourceError(
            "ontology", f"no subclass of yl:Commentary labelled {kind!r} (a kind of note)"
        )
    return found


def divisions() -> dict[str, str]:
    """Each division of a chapter (``jing``, ``ji``, ``zhuan``) → its name (經, 記, 傳)."""
    return {slug: word for word, slug in word_values("division").items()}


def _labels(graph: Graph, node: URIRef, hant: str, en: str | None = None) -> None:
    graph.add((node, RDFS.label, Literal(hant, lang="zh-Hant")))
    if en:
        graph.add((node, RDFS.label, Literal(en, lang="en")))


#: the licences the manifest names, by the IRIs of their documents
LICENCE_IRIS = {
    "CC BY-SA 4.0": URIRef("https://creativecommons.org/licenses/by-sa/4.0/"),
    "public domain": URIRef("https://creativecommons.org/publicdomain/mark/1.0/"),
}


def licence_iri(text: str) -> URIRef | None:
    """The IRI of the licence a manifest's licence column names, if it names a known one.

    >>> licence_iri("public domain; transcription as supplied")
    rdflib.term.URIRef('https://creativecommons.org/publicdomain/mark/1.0/')
    """
    for words, iri in LICENCE_IRIS.items():
        if words.lower() in text.lower():
            return iri
    return None


def witnesses_graph(graph: Graph) -> None:
    """Every witness of the manifest, with its edition and licence."""
    for entry in read_manifest().values():
        node = iris.witness(entry.witness)
        graph.add((node, RDF.type, YL.Witness))
        graph.add((node, RDFS.label, Literal(entry.witness, lang="en")))
        graph.add((node, DCTERMS.description, Literal(entry.edition)))
        graph.add((node, DCTERMS.rights, Literal(entry.licence)))
        licence = licence_iri(entry.licence)
        if licence is not None:  # DCAT: a licence is a document, named by its IRI
            graph.add((node, DCTERMS.license, licence))
        graph.add((node, DCTERMS.identifier, Literal(entry.path)))


def persons_graph(graph: Graph) -> None:
    for slug, hant, en in AUTHORS.values():
        node = iris.person(slug)
        graph.add((node, RDF.type, YL.Person))
        _labels(graph, node, hant, en)


def works_graph(graph: Graph) -> None:
    for work in read_works().values():
        node = iris.work(work.id)
        graph.add((node, RDF.type, YL.Work))
        _labels(graph, node, work.title, work.en)
        for name in work.names:
            if name != work.title:
                graph.add(
                    (
                        node,
                        URIRef("http://www.w3.org/2004/02/skos/core#altLabel"),
                        Literal(name, lang="zh-Hant"),
                    )
                )
        if work.part_of:
            graph.add((node, YL.partOf, iris.work(work.part_of)))
        if work.kanripo:
            graph.add((node, DCTERMS.identifier, Literal(f"kanripo:{work.kanripo}")))
        if work.ctext:
            graph.add((node, DCTERMS.identifier, Literal(work.ctext)))


def text_layer_graph(layer: TextLayer, into: Graph | None = None) -> Graph:
    """The asserted triples of the text layer of one rite (added to ``into`` if given)."""
    g = Graph() if into is None else into
    g.bind("yl", YL)
    slug = layer.rite
    rite = iris.rite(slug)
    hant, hans, pinyin, en = RITES[slug]
    g.add((rite, RDF.type, YL.Rite))
    _labels(g, rite, hant, en)
    base = iris.witness(layer.base_witness)
    g.add((rite, YL.chapter, Literal(CHAPTERS[slug], datatype=XSD.integer)))

    rounds = check_rounds(slug, layer.phases, read_rounds().get(slug, {}))
    for phase in layer.phases:
        node = iris.phase(slug, phase.index)
        g.add((node, RDF.type, YL.Phase))
        g.add((node, YL.partOf, rite))
        g.add((node, YL.phaseIndex, Literal(phase.index, datatype=XSD.integer)))
        if phase.index in rounds:
            g.add((node, YL.archeryRound, Literal(rounds[phase.index], datatype=XSD.integer)))
        _labels(g, node, phase.name, phase.en)

    for name, label in divisions().items():
        en_label = DIVISION_EN[name]
        node = iris.division(slug, name)
        g.add((node, RDF.type, YL.Division))
        g.add((node, YL.partOf, rite))
        _labels(g, node, f"{hant}·{label}", f"{en} — {en_label}")

    for p in layer.passages:
        node = iris.passage(slug, p.id)
        g.add((node, RDF.type, YL.Passage))
        g.add((node, RDF.type, LEVEL_CLASS[p.level]))
        g.add((node, YL.text, Literal(p.text, lang=LZH)))
        if p.witness_text != p.text:
            g.add((node, YL.witnessText, Literal(p.witness_text, lang=LZH)))
        g.add((node, YL.startOffset, Literal(p.start, datatype=XSD.integer)))
        g.add((node, YL.endOffset, Literal(p.end, datatype=XSD.integer)))
        g.add((node, YL.witness, base))
        parent = iris.passage(slug, p.parent) if p.parent else iris.division(slug, p.division)
        g.add((node, YL.partOf, parent))
        for index in layer.passage_phases.get(p.id, ()):
            g.add((node, YL.inPhase, iris.phase(slug, index)))
        for quote in p.speech:
            g.add((node, YL.speech, Literal(quote, lang=LZH)))
        if p.level == "clause":
            for number in layer.clause_segments.get(p.id, ()):
                g.add((node, YL.segment, Literal(number, datatype=XSD.integer)))
            if p.id in layer.clause_pages:
                g.add((node, YL.page, Literal(layer.clause_pages[p.id])))
            jy_page = layer.jiangyong.clause_page.get(p.id) if layer.jiangyong else None
            if jy_page:
                g.add((node, YL.page, Literal(f"{JIANGYONG_PAGES} {jy_page}")))
    for retired in layer.retired:
        # a published IRI that names no passage any more: what replaced it, and its characters
        node = iris.passage(slug, retired.id)
        g.add((node, OWL.deprecated, Literal(True)))
        g.add((node, RDFS.comment, Literal(retired.published.witness_text, lang=LZH)))
        for new_id in retired.replaced_by:
            g.add((node, DCTERMS.isReplacedBy, iris.passage(slug, new_id)))
    for entry in layer.jiangyong.ji_entries if layer.jiangyong else ():
        if entry.note:
            for cid in entry.clause_ids:
                g.add((iris.passage(slug, cid), YL.sectionNote, Literal(entry.note, lang=LZH)))

    works = read_works()
    notes_graph(g, layer, base, works)
    if layer.jiangyong:
        quotations_graph(g, layer, works)
    return g


def _cite(g: Graph, node: URIRef, text: str, works, punctuated: bool = False) -> None:
    for number, hit in enumerate(find_citations(text, works, punctuated=punctuated), start=1):
        g.add((node, YL.cites, iris.work(hit.work)))
        citation = URIRef(f"{node}/citation/{number}")
        g.add((node, YL.citation, citation))
        g.add((citation, DCTERMS.references, iris.work(hit.work)))
        g.add((citation, YL.citedAs, Literal(hit.name, lang=LZH)))
        g.add((citation, OA.start, Literal(hit.start, datatype=XSD.integer)))
        if hit.quote:
            g.add((citation, YL.quotes, Literal(hit.quote, lang=LZH)))


def notes_graph(g: Graph, layer: TextLayer, base: URIRef, works) -> None:
    """Every 注, 音義, 疏 and 考證, with its author, span, passages and citations."""
    slug = layer.rite
    siku = iris.witness(f"{slug}-kanripo-zhushu")
    for note in layer.notes:
        kind = note_class(note.kind)
        node = iris.commentary(slug, note.segment, kind, note.ordinal)
        g.add((node, RDF.type, YL.Commentary))
        g.add((node, RDF.type, kind))
        g.add((node, RDF.type, OA.Annotation))
        g.add((node, YL.text, Literal(note.text, lang=LZH)))
        if note.raw != note.text:
            g.add((node, YL.witnessText, Literal(note.raw, lang=LZH)))
        g.add((node, YL.author, iris.person(AUTHORS[kind][0])))
        g.add((node, YL.witness, siku))
        g.add((node, YL.page, Literal(note.page)))
        g.add((node, YL.noteOrder, Literal(note.ordinal, datatype=XSD.integer)))
        if note.segment is not None:
            g.add((node, YL.segment, Literal(note.segment, datatype=XSD.integer)))
        g.add((node, YL.spanSource, Literal(note.span_source)))
        g.add((node, YL.rite, iris.rite(slug)))
        for cid in note.clause_ids:
            g.add((node, YL.commentsOn, iris.passage(slug, cid)))
        if note.quote:
            x, y = note.quote
            if x:
                g.add((node, YL.quoteStart, Literal(x, lang=LZH)))
            if y:
                g.add((node, YL.quoteEnd, Literal(y, lang=LZH)))
        if note.explains:
            seg, explained, ordinal = note.explains
            g.add((node, YL.explains, iris.commentary(slug, seg, note_class(explained), ordinal)))
        if note.span:
            _target(g, node, base, layer.raw, note.span)
        _cite(g, node, note.text, works)
        g.add((node, PROV.wasDerivedFrom, siku))


def _target(g: Graph, node: URIRef, source: URIRef, raw: str, span: tuple[int, int]) -> None:
    start, end = span
    target = iris.target(node)
    g.add((node, OA.hasTarget, target))
    g.add((target, RDF.type, OA.SpecificResource))
    g.add((target, OA.hasSource, source))
    position = iris.selector(node, "position")
    g.add((target, OA.hasSelector, position))
    g.add((position, RDF.type, OA.TextPositionSelector))
    g.add((position, OA.start, Literal(start, datatype=XSD.integer)))
    g.add((position, OA.end, Literal(end, datatype=XSD.integer)))
    quote = iris.selector(node, "quote")
    g.add((target, OA.hasSelector, quote))
    g.add((quote, RDF.type, OA.TextQuoteSelector))
    g.add((quote, OA.exact, Literal(raw[start:end], lang=LZH)))
    g.add((quote, OA.prefix, Literal(raw[max(start - 8, 0) : start], lang=LZH)))
    g.add((quote, OA.suffix, Literal(raw[end : end + 8], lang=LZH)))


def quotations_graph(g: Graph, layer: TextLayer, works) -> None:
    """江永's quotations of other works (周禮, 王制, 射義 …), under their sections."""
    slug = layer.rite
    jy = layer.jiangyong
    if jy is None:  # only 鄉射禮 has 江永's reading
        return
    witness = iris.witness("xiangshe-jiangyong")
    first_clause: dict[int, str] = {}
    for cid, section in jy.clause_section.items():
        first_clause.setdefault(section, cid)
    for number, citation in enumerate(jy.citations, start=1):
        node = iris.jiangyong_citation(slug, number)
        g.add((node, RDF.type, YL.Commentary))
        g.add((node, RDF.type, YL.Quotation))
        g.add((node, YL.text, Literal(citation.text, lang=LZH)))
        g.add((node, YL.author, iris.person(AUTHORS[YL.Quotation][0])))
        g.add((node, YL.rite, iris.rite(slug)))
        g.add((node, YL.witness, witness))
        g.add((node, YL.page, Literal(f"{JIANGYONG_PAGES} {citation.page}")))
        section = citation.section or 1
        g.add((node, YL.inPhase, iris.phase(slug, section)))
        clauses = [cid for cid, s in jy.clause_section.items() if s == section]
        for cid in clauses:
            g.add((node, YL.commentsOn, iris.passage(slug, cid)))
        key = getattr(citation, "work_key", None)
        if key and key in works:
            g.add((node, YL.cites, iris.work(key)))
        else:
            _cite(g, node, citation.work + citation.text, works)
