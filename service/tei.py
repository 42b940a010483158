"""TEI P5 export of one rite: the text as digital-humanities tools read it.

``<text><body>``: a ``<div>`` per division (經 ``jing``, 記 ``ji``), a ``<p>`` per paragraph,
an ``<s>`` per sentence and a ``<seg>`` per clause, each with an ``xml:id`` made from the
graph's id (``xiangshe/jing/1.2.1`` → ``xiangshe_jing_1.2.1``) and ``@corresp`` its IRI;
``<pb n="KR1d0028_WYG_005-1a">`` where a clause begins a new Kanripo page; the notes (注, 疏,
音義, 考證, quotations) as ``<note type target="#seg …" resp="…">`` at the end of the paragraph of
the first clause they comment on. ``<back>``: the events as a stand-off ``<listEvent>``, each
``<event>`` pointing at its clause's ``<seg>`` (``@corresp``) and describing who does what to
whom. The tei_all schema the test validates against (TEI P5 of 2016) has no ``<standOff>``:
the list is in the back matter instead.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from rdflib import Literal, URIRef

from yili_kg.loaders.errors import EntityNotFound
from yili_kg.loaders.graph.rdf import RITES
from yili_kg.service.queries import service_query

TEI = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ID = "https://w3id.org/yili/id/"
YL = "https://w3id.org/yili/ontology#"
DIVISIONS = {"jing": "經", "ji": "記"}
NOTE_TYPES = {"Zhu": "注", "Shu": "疏", "Yinyi": "音義", "Kaozheng": "考證", "Quotation": "引文"}
LICENCE = "https://creativecommons.org/licenses/by-sa/4.0/"


def xml_id(iri: str) -> str:
    """The TEI id of a graph IRI (an NCName: the path's slashes become underscores).

    >>> xml_id("https://w3id.org/yili/id/xiangshe/jing/1.2.1")
    'xiangshe_jing_1.2.1'
    """
    return iri[len(ID) :].replace("/", "_")


def _tag(name: str) -> str:
    return f"{{{TEI}}}{name}"


def _sub(parent, name: str, text: str | None = None, **attrs) -> ET.Element:
    element = ET.SubElement(parent, _tag(name), {k: v for k, v in attrs.items() if v})
    if text is not None:
        element.text = text
    return element


def _numbers(iri: str) -> tuple[str, tuple[int, ...]]:
    """(division, (paragraph, sentence, clause)) of a clause's IRI."""
    division, _, path = iri[len(ID) :].split("/", 1)[1].partition("/")
    return division, tuple(int(n) for n in re.findall(r"\d+", path))


def tei_export(store, rite: str) -> bytes:
    """The TEI P5 document of ``rite`` (a slug: xiangshe, xiangyinjiu, yan, dashe)."""

    if rite not in RITES:
        raise EntityNotFound(f"unknown rite {rite!r}: choose one of {', '.join(RITES)}")
    prefix = {"prefix": Literal(f"{ID}{rite}/")}
    clauses = _clauses(store, prefix)
    if not clauses:
        raise EntityNotFound(f"the build holds no clause of {rite}: build it (YILI_RITES)")
    notes = _notes(store, rite, clauses)
    events = _events(store, prefix)

    ET.register_namespace("", TEI)
    root = ET.Element(_tag("TEI"), {XML_LANG: "lzh"})
    _header(root, RITES[rite])
    text = _sub(root, "text")
    _body(_sub(text, "body"), clauses, notes)
    _list_events(_sub(_sub(_sub(text, "back"), "div", type="events"), "listEvent"), events, clauses)
    ET.indent(root, space=" ")
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        + ET.tostring(root, encoding="unicode").encode("utf-8")
        + b"\n"
    )


def _clauses(store, prefix: dict) -> dict[str, dict]:
    """The rite's clauses: IRI → characters and Kanripo pages."""
    clauses: dict[str, dict] = {}
    for row in store.query(service_query("tei-clauses"), prefix).rows:
        entry = clauses.setdefault(row["clause"].value, {"text": row["text"].value, "pages": set()})
        if "page" in row:
            entry["pages"].add(row["page"].value)
    return clauses


def _notes(store, rite: str, clauses: dict) -> dict[str, dict]:
    """The notes (注, 疏 …) on the clauses: IRI → text, kinds, the clauses it targets, author."""
    notes: dict[str, dict] = {}
    rows = store.query(service_query("tei-notes"), {"rite": URIRef(f"{ID}rite/{rite}")}).rows
    for row in rows:
        if row["clause"].value not in clauses:
            continue
        entry = notes.setdefault(
            row["note"].value,
            {"text": row["text"].value, "kinds": set(), "targets": set(), "author": None},
        )
        entry["kinds"].add(row["kind"].value[len(YL) :])
        entry["targets"].add(row["clause"].value)
        if "author" in row:
            entry["author"] = row["author"].value
    return notes


def _events(store, prefix: dict) -> dict[str, dict]:
    """The rite's events: IRI → clause, place in the sequence, kind and the labels of who/what."""
    events: dict[str, dict] = {}
    for row in store.query(service_query("tei-events"), prefix).rows:
        entry = events.setdefault(
            row["event"].value,
            {
                "clause": row["clause"].value,
                "sequence": int(row["sequence"].value),
                "kind": row["kind"].value,
            },
        )
        for key in ("kindLabel", "agentLabel", "recipientLabel"):
            if key in row:
                entry.setdefault(key, set()).add(row[key].value)
    return events


def _body(body, clauses: dict, notes: dict) -> None:
    """The text: ``<div>`` per division, ``<p>`` per paragraph, ``<s>`` per sentence, a ``<seg>``
    per clause, ``<pb>`` at each new page, each paragraph closed by the notes on its clauses."""
    order = sorted(
        clauses, key=lambda iri: (list(DIVISIONS).index(_numbers(iri)[0]), _numbers(iri)[1])
    )
    first_target = {note: min(entry["targets"], key=order.index) for note, entry in notes.items()}
    notes_after: dict[str, list[str]] = {}
    for note in sorted(notes):
        notes_after.setdefault(first_target[note], []).append(note)

    div = paragraph = sentence = None
    # where the current paragraph and sentence are: (division, paragraph, sentence numbers)
    where: tuple[str | None, tuple[int, ...] | None, tuple[int, ...] | None] = (None, None, None)
    page = None
    pending: list[str] = []  # notes to close the current paragraph with
    for iri in order:
        division, numbers = _numbers(iri)
        para, sent = numbers[:1], numbers[:2]
        if division != where[0]:
            _close(paragraph, pending, notes)
            div = _sub(body, "div", type=division, n=DIVISIONS[division])
            paragraph = None
        if paragraph is None or para != where[1]:
            _close(paragraph, pending, notes)
            paragraph = _sub(div, "p", n=".".join(map(str, para)))
            sentence = None
        if sentence is None or sent != where[2]:
            sentence = _sub(paragraph, "s", n=".".join(map(str, sent)))
        where = (division, para, sent)
        for new_page in sorted(clauses[iri]["pages"]):
            if new_page != page:
                _sub(sentence, "pb", n=new_page, edRef="#kanripo")
                page = new_page
        _sub(sentence, "seg", clauses[iri]["text"], **{XML_ID: xml_id(iri), "corresp": iri})
        pending.extend(notes_after.get(iri, []))
    _close(paragraph, pending, notes)


def _list_events(listing, events: dict, clauses: dict) -> None:
    """The stand-off ``<listEvent>``: an ``<event>`` per event, pointing at its clause's seg."""
    for iri in sorted(events, key=lambda e: (events[e]["sequence"], e)):
        entry = events[iri]
        kind = entry["kind"][len(YL) :] if entry["kind"].startswith(YL) else entry["kind"]
        event = _sub(
            listing,
            "event",
            type=kind,
            n=str(entry["sequence"]),
            **{XML_ID: xml_id(iri), "corresp": "#" + xml_id(entry["clause"])},
        )
        words = [
            "、".join(sorted(entry.get(key, ())))
            for key in ("agentLabel", "kindLabel", "recipientLabel")
        ]
        label = " ".join(w for w in words if w) or kind
        _sub(event, "label", label)
        _sub(event, "desc", clauses[entry["clause"]]["text"])


def _close(paragraph, pending: list[str], notes: dict) -> None:
    """End a paragraph with the notes on its clauses."""
    if paragraph is not None:
        for note in pending:
            entry = notes[note]
            kind = sorted(entry["kinds"])[0]
            targets = " ".join("#" + xml_id(t) for t in sorted(entry["targets"]))
            _sub(
                paragraph,
                "note",
                entry["text"],
                type=kind,
                subtype=NOTE_TYPES.get(kind),
                target=targets,
                resp=entry["author"],
                **{XML_ID: xml_id(note)},
            )
    pending.clear()


def _header(root, names: tuple) -> None:
    chinese, _, pinyin, english = names
    header = _sub(root, "teiHeader")
    file_desc = _sub(header, "fileDesc")
    title_stmt = _sub(file_desc, "titleStmt")
    _sub(title_stmt, "title", f"儀禮·{chinese}")
    _sub(title_stmt, "title", f"Yili: {english} ({pinyin})", type="sub", **{XML_LANG: "en"})
    publication = _sub(file_desc, "publicationStmt")
    _sub(publication, "publisher", "yili-kg")
    availability = _sub(publication, "availability")
    _sub(
        availability,
        "licence",
        "CC BY-SA 4.0. Texts: Kanseki Repository (kanripo.org), texts KR1d0028 and KR1d0026.",
        target=LICENCE,
        **{XML_LANG: "en"},
    )
    source = _sub(file_desc, "sourceDesc")
    _sub(
        source,
        "bibl",
        "The clauses, notes and events of the yili-kg graph (https://w3id.org/yili/id/); "
        "page breaks of the Kanseki Repository's 儀禮注疏 (KR1d0028, 四庫全書文淵閣本).",
        **{XML_LANG: "en"},
    )
    encoding = _sub(header, "encodingDesc")
    _sub(
        encoding,
        "p",
        "One seg per clause (xml:id from the graph's id, corresp its IRI); notes point at the "
        "segs they comment on; events in back/listEvent point at their clause.",
        **{XML_LANG: "en"},
    )
    editions = _sub(encoding, "listPrefixDef")
    _sub(editions, "prefixDef", ident="yl", matchPattern="(.+)", replacementPattern=f"{YL}$1")
    # the edition the page breaks belong to
    witnesses = _sub(source, "listWit")
    _sub(
        witnesses, "witness", "儀禮注疏, 四庫全書文淵閣本 (Kanripo KR1d0028)", **{XML_ID: "kanripo"}
    )
