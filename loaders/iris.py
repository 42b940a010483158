"""The only module that mints IRIs. Every IRI comes from a canonical id, never from row order.

>>> str(passage("xiangshe", "jing/12.3.2"))
'https://w3id.org/yili/id/xiangshe/jing/12.3.2'
>>> str(phase("xiangshe", 6))
'https://w3id.org/yili/id/xiangshe/phase/06'
>>> str(commentary("xiangshe", 2, YL.Zhu, 1))
'https://w3id.org/yili/id/xiangshe/commentary/s002-zhu-1'
>>> str(event("xiangshe", "jing/12.3.2", 1))
'https://w3id.org/yili/id/xiangshe/event/jing-12.3.2-1'
"""

from __future__ import annotations

from rdflib import Namespace, URIRef

YL = Namespace("https://w3id.org/yili/ontology#")
ID = Namespace("https://w3id.org/yili/id/")
OA = Namespace("http://www.w3.org/ns/oa#")
CRM = Namespace("http://www.cidoc-crm.org/cidoc-crm/")

#: Named graphs of the dataset.
GRAPH_ONTOLOGY = URIRef("https://w3id.org/yili/graph/ontology")
GRAPH_ASSERTED = URIRef("https://w3id.org/yili/graph/asserted")
GRAPH_INFERRED = URIRef("https://w3id.org/yili/graph/inferred")
DATASET = URIRef("https://w3id.org/yili/id/dataset")

#: The IRI segment of each kind of note, by its class (the kind's word, 注 …, is the class's
#: label: :func:`yili_kg.loaders.graph.rdf.note_class`). Fixed here, not derived from the
#: class, so that a published note IRI survives a renamed class.
NOTE_SLUGS = {
    YL.Zhu: "zhu",
    YL.Shu: "shu",
    YL.Yinyi: "yinyi",
    YL.Kaozheng: "kaozheng",
    YL.Quotation: "yin",
}


def rite(slug: str) -> URIRef:
    return ID[f"rite/{slug}"]


def phase(rite_slug: str, index: int) -> URIRef:
    return ID[f"{rite_slug}/phase/{index:02d}"]


def passage(rite_slug: str, passage_id: str) -> URIRef:
    return ID[f"{rite_slug}/{passage_id}"]


def division(rite_slug: str, name: str) -> URIRef:
    """The 經 (``jing``) or the 記 (``ji``) of a rite."""
    return ID[f"{rite_slug}/{name}"]


def commentary(rite_slug: str, segment: int | None, kind: URIRef, ordinal: int) -> URIRef:
    """A note by its place in the edition: segment, kind (its class), n-th of that kind on the
    segment.

    考證 entries (no segment) are numbered in the order of the appendix.
    """
    slug = NOTE_SLUGS[kind]
    if segment is None:
        return ID[f"{rite_slug}/commentary/{slug}-{ordinal:02d}"]
    return ID[f"{rite_slug}/commentary/s{segment:03d}-{slug}-{ordinal}"]


def jiangyong_citation(rite_slug: str, ordinal: int) -> URIRef:
    return ID[f"{rite_slug}/commentary/jiangyong-{ordinal:02d}"]


def target(note: URIRef) -> URIRef:
    """The Web Annotation target (a SpecificResource) of a note."""
    return URIRef(f"{note}/target")


def selector(note: URIRef, kind: str) -> URIRef:
    return URIRef(f"{note}/{kind}")


def event(rite_slug: str, passage_id: str, ordinal: int) -> URIRef:
    return ID[f"{rite_slug}/event/{passage_id.replace('/', '-')}-{ordinal}"]


def work(slug: str) -> URIRef:
    return ID[f"work/{slug}"]


def person(slug: str) -> URIRef:
    return ID[f"person/{slug}"]


def witness(slug: str) -> URIRef:
    return ID[f"witness/{slug}"]


def term(kind: str, slug: str) -> URIRef:
    """A role, object, place or direction individual: ``id/role/zhuren`` …"""
    return ID[f"{kind}/{slug}"]
