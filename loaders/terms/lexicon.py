"""The annotator's vocabulary, read from the ontology's labels (no second list in Python).

Every action class, role, ritual object, place and direction has a zh-Hant ``rdfs:label``
(its canonical form) and may have ``skos:altLabel``s (other forms: 荅拜 for 答拜, 復位 for
反位). The lexicon maps every form to its canonical label and category, and each canonical
label to its IRI, so that annotation records can be written and reviewed in the text's own
words and still resolve to exactly one term.

The verb frames are read from the same graph: every ``owl:AnnotationProperty`` of the yl:
namespace stated ``true`` on an action class or a role (``yl:Dian yl:yuDestination true``:
于X after 奠 is the destination) is a frame, held by that term and, for action classes, by
every subclass (:meth:`Lexicon.has`).

>>> lex = default_lexicon()
>>> lex.has("奠", "yuDestination"), lex.has("答再拜", "impliedRecipient"), lex.has("坐", "offering")
(True, True, False)
>>> lex.has("上耦", "collective")
True

The classes' labels are the words the annotator names them by (``yl:Speech`` is 辭令):

>>> lex.label(YL.Speech), lex.label(YL.Officiant)
('辭令', '司事者')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from rdflib import OWL, RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import SKOS
from rdflib.term import Node

from yili_kg.loaders.build import locate
from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.ontology import parse_modules

CATEGORIES = ("action", "role", "object", "place", "direction")


@dataclass(frozen=True)
class Lexicon:
    """Forms and terms by category.

    ``forms[category][form]`` is the canonical label; ``iri[category][label]`` the term;
    ``parents[label]`` the labels of an action class's superclasses (transitively).
    """

    forms: dict[str, dict[str, str]]
    iri: dict[str, dict[str, URIRef]]
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    role_classes: dict[str, frozenset[str]] = field(default_factory=dict)  # role → class labels
    frames: dict[str, frozenset[str]] = field(default_factory=dict)  # frame → labels stating it
    denied: dict[str, frozenset[str]] = field(default_factory=dict)  # frame → labels denying it
    labels: dict[URIRef, str] = field(default_factory=dict)  # class → its zh-Hant label
    doers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # act → yl:doneBy roles
    role_acts: dict[str, tuple[str, ...]] = field(default_factory=dict)  # role → yl:roleAct
    doer_kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)  # act → yl:doneByKind
    pairs: frozenset[frozenset[str]] = frozenset()  # the two archers of each yl:Pair
    counterparts: dict[str, tuple[str, ...]] = field(default_factory=dict)  # yl:counterpart
    members: dict[str, tuple[str, ...]] = field(default_factory=dict)  # group → yl:hasMember

    def label(self, node: URIRef) -> str:
        """The zh-Hant ``rdfs:label`` of a class of the ontology, the word the lexicon knows it
        by (yl:Speech → 辭令, yl:Officiant → 司事者, yl:Zhu → 注), or a clear error."""
        word = self.labels.get(node)
        if word is None:
            raise KeyError(f"no class {node} with one zh-Hant rdfs:label in the ontology")
        return word

    def resolve(self, category: str, label: str) -> URIRef:
        """The IRI of a canonical label or any of its forms, or a clear error."""
        canonical = self.forms[category].get(label)
        if canonical is None:
            raise KeyError(f"no {category} labelled {label!r} in the ontology")
        return self.iri[category][canonical]

    def is_a(self, label: str, ancestor: str) -> bool:
        """Whether the action class ``label`` is ``ancestor`` or a subclass of it."""
        return label == ancestor or ancestor in self.parents.get(label, frozenset())

    def has(self, label: str, frame: str) -> bool:
        """Whether the term ``label`` has the frame ``frame`` (an annotation property's local
        name), stated on it or, for an action class, on a superclass, unless the term itself
        states it ``false`` (出迎 is a 出, but 于X after it is where one meets, not a goal)."""
        stated = self.frames.get(frame)
        if stated is None:
            raise KeyError(f"no frame {frame!r} in the ontology (an owl:AnnotationProperty)")
        if label in self.denied.get(frame, ()):
            return False
        return label in stated or bool(stated & self.parents.get(label, frozenset()))


def _zh(graph: Graph, node, prop) -> list[str]:
    return [
        str(o)
        for o in graph.objects(node, prop)
        if isinstance(o, Literal) and o.language and o.language.lower() == "zh-hant"
    ]


def build_lexicon(graph: Graph) -> Lexicon:
    """The lexicon of an ontology graph (see the module docstring)."""
    forms, iri = _terms(graph)
    stated, denied = _frames(graph, iri, True), _frames(graph, iri, False)
    class_labels = {
        node: hant[0]
        for node in graph.subjects(RDF.type, OWL.Class)
        if isinstance(node, URIRef) and len(hant := _zh(graph, node, RDFS.label)) == 1
    }
    doers = _links(graph, iri, YL.doneBy, "action", "role")
    role_acts = _links(graph, iri, YL.roleAct, "role", "action")
    doer_kinds = _doer_kinds(graph, iri, class_labels)
    return Lexicon(
        forms,
        iri,
        _parents(graph, iri),
        _role_classes(graph, iri),
        stated,
        denied,
        class_labels,
        doers,
        role_acts,
        doer_kinds,
        _pairs(graph, iri),
        _links(graph, iri, YL.counterpart, "role", "role"),
        _links(graph, iri, YL.hasMember, "role", "role"),
    )


def _members(graph: Graph) -> dict[str, set]:
    """The terms of each category: action classes, roles, objects, places, directions."""
    members: dict[str, set] = {c: set() for c in CATEGORIES}
    action_classes = set(graph.transitive_subjects(RDFS.subClassOf, YL.Action)) - {YL.Action}
    members["action"] = {c for c in action_classes if (c, RDF.type, OWL.Class) in graph}
    members["role"] = set(graph.subjects(RDF.type, YL.Role))
    members["object"] = set(graph.subjects(RDF.type, YL.RitualObject))
    members["place"] = set(graph.subjects(RDF.type, YL.Place))
    members["direction"] = set(graph.subjects(RDF.type, YL.Direction))
    return members


def _terms(graph: Graph) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, URIRef]]]:
    """Forms (label and altLabels → label) and terms (label → IRI) by category; a label or a
    form of two terms is a clear error."""
    forms: dict[str, dict[str, str]] = {c: {} for c in CATEGORIES}
    iri: dict[str, dict[str, URIRef]] = {c: {} for c in CATEGORIES}
    for category, nodes in _members(graph).items():
        for node in sorted(nodes):
            labels = _zh(graph, node, RDFS.label)
            if len(labels) != 1:
                raise _ontology_error(
                    node, f"{node} needs exactly one zh-Hant rdfs:label, has {labels}"
                )
            label = labels[0]
            if label in iri[category] and iri[category][label] != node:
                raise _ontology_error(
                    node,
                    f"two {category} terms labelled {label!r}: {iri[category][label]} and {node}",
                )
            iri[category][label] = node
            forms[category][label] = label
        for node in sorted(nodes):
            label = _zh(graph, node, RDFS.label)[0]
            for alt in _zh(graph, node, SKOS.altLabel):
                if forms[category].get(alt, label) != label:
                    raise SourceError("ontology", f"{category} form {alt!r} belongs to two terms")
                forms[category].setdefault(alt, label)
    return forms, iri


def _parents(graph: Graph, iri: dict[str, dict[str, URIRef]]) -> dict[str, frozenset[str]]:
    """Each action class's superclasses (transitively), by label."""
    label_of: dict[Node, str] = {node: label for label, node in iri["action"].items()}
    parents: dict[str, frozenset[str]] = {}
    for label, node in iri["action"].items():
        ancestors = set(graph.transitive_objects(node, RDFS.subClassOf)) - {node}
        parents[label] = frozenset(label_of[a] for a in ancestors if a in label_of)
    return parents


def _role_classes(graph: Graph, iri: dict[str, dict[str, URIRef]]) -> dict[str, frozenset[str]]:
    """Each role's classes (yl:Officiant, yl:Archer …), by their zh-Hant labels."""
    role_classes = {}
    for label, node in iri["role"].items():
        classes = {
            c for c in graph.objects(node, RDF.type) if c not in (YL.Role, OWL.NamedIndividual)
        }
        role_classes[label] = frozenset(
            str(lab) for c in classes for lab in _zh(graph, c, RDFS.label)
        )
    return role_classes


def _pairs(graph: Graph, iri: dict[str, dict[str, URIRef]]) -> frozenset[frozenset[str]]:
    """The two archers of each yl:Pair (yl:upperArcher, yl:lowerArcher), by label."""
    upper = _links(graph, iri, YL.upperArcher, "role", "role")
    lower = _links(graph, iri, YL.lowerArcher, "role", "role")
    return frozenset(
        frozenset((*upper[pair], *lower[pair])) for pair in upper.keys() & lower.keys()
    )


def _doer_kinds(graph: Graph, iri, class_labels: dict) -> dict[str, tuple[str, ...]]:
    """Act → the labels of its yl:doneByKind classes of roles (奏 → 樂工), or a clear error."""
    kinds: dict[str, tuple[str, ...]] = {}
    for act, node in iri["action"].items():
        values = sorted(graph.objects(node, YL.doneByKind), key=str)
        for value in values:
            if value not in class_labels:
                raise SourceError(
                    "ontology", f"yl:doneByKind of {act}: {value} is no labelled class"
                )
        if values:
            kinds[act] = tuple(class_labels[v] for v in values)
    return kinds


def _links(
    graph: Graph, iri: dict[str, dict[str, URIRef]], prop: URIRef, subject: str, value: str
) -> dict[str, tuple[str, ...]]:
    """Label → labels of an annotation property between two categories of terms (yl:doneBy:
    act → role, 歌 → 工; yl:roleAct: role → act, 笙 → 奏)."""
    subjects: dict[Node, str] = {node: label for label, node in iri[subject].items()}
    values: dict[Node, str] = {node: label for label, node in iri[value].items()}
    links: dict[str, list[str]] = {}
    for s, o in sorted(graph.subject_objects(prop)):
        if s in subjects and o in values:
            links.setdefault(subjects[s], []).append(values[o])
    return {label: tuple(found) for label, found in links.items()}


def _frames(graph: Graph, iri: dict[str, dict[str, URIRef]], value: bool):
    """Frame name → labels of the action classes and roles that state it ``value``."""
    label_of: dict[Node, str] = {
        node: label for cat in ("action", "role") for label, node in iri[cat].items()
    }
    frames: dict[str, frozenset[str]] = {}
    for prop in sorted(graph.subjects(RDF.type, OWL.AnnotationProperty), key=str):
        if not str(prop).startswith(str(YL)):
            continue
        if any(isinstance(o, URIRef) for o in graph.objects(None, prop)):
            continue  # a link between terms (yl:doneBy, yl:roleAct: _links), not a frame
        frames[str(prop)[len(str(YL)) :]] = frozenset(
            label_of[s]
            for s, o in graph.subject_objects(prop)
            if s in label_of and getattr(o, "toPython", lambda: None)() is value
        )
    return frames


@cache
def default_lexicon() -> Lexicon:
    """The ontology's lexicon, with the book-wide rows of ``corpus/rite-senses.tsv`` (rite *)."""

    return with_senses(build_lexicon(parse_modules()), "*")


NO_TERM = "-"  # rite-senses.tsv: a label "-" reads the form as no term at all in that rite


SENSE_FIELDS = ("rite", "form", "category", "label", "example", "note")


@dataclass(frozen=True)
class Sense:
    """In ``rite`` (``*``: every rite without its own row) ``form`` is read only as the term
    of ``category`` labelled ``label`` (侑: the person in 有司徹, the act in 特牲)."""

    rite: str
    form: str
    category: str
    label: str
    example: str


@cache
def rite_senses() -> tuple[Sense, ...]:
    """The rows of ``corpus/rite-senses.tsv``."""

    path = corpus_dir() / "rite-senses.tsv"
    senses = []
    for number, row in read_rows(path, SENSE_FIELDS):
        if row["category"] not in CATEGORIES:
            raise SourceError(path, f"unknown category {row['category']!r}", number)
        senses.append(
            Sense(row["rite"], row["form"], row["category"], row["label"], row["example"])
        )
    return tuple(senses)


def with_senses(lexicon: Lexicon, rite: str) -> Lexicon:
    """``lexicon`` with the forms of ``rite``'s senses read only as their terms."""
    senses = [s for s in rite_senses() if s.rite == rite]
    if not senses:
        return lexicon
    forms = {category: dict(table) for category, table in lexicon.forms.items()}
    for sense in senses:
        if sense.label == NO_TERM:  # 重 outside the mourning rites: heavy, again, no term
            for category in CATEGORIES:
                forms[category].pop(sense.form, None)
            continue
        if sense.label not in lexicon.iri[sense.category]:
            raise SourceError(
                "corpus/rite-senses.tsv", f"no {sense.category} labelled {sense.label!r}"
            )
        for category in CATEGORIES:
            forms[category].pop(sense.form, None)
        forms[sense.category][sense.form] = sense.label
    return replace(lexicon, forms=forms)


def lexicon_for(rite: str, lexicon: Lexicon | None = None) -> Lexicon:
    """The lexicon a rite is read with: ``lexicon`` (else the book's), then the rite's own
    senses, which replace the book-wide row of the same form.

    >>> lexicon_for("shisang").forms["role"]["尸"], lexicon_for("teshengkuishi").forms["role"]["尸"]
    ('死者', '尸')
    >>> "侑" in lexicon_for("yousiche").forms["action"]
    False
    >>> lexicon_for("teshengkuishi").forms["action"]["侑"]
    '侑'
    >>> "重" in lexicon_for("pin").forms["object"], lexicon_for("jixi").forms["object"]["重"]
    (False, '重')
    """
    if lexicon is None:
        return _rite_lexicon(rite)
    return with_senses(lexicon, rite)


@cache
def _rite_lexicon(rite: str) -> Lexicon:
    return with_senses(default_lexicon(), rite)


def _ontology_error(node, message: str) -> SourceError:
    """An error about a term, naming the module and line that state it where they can be found."""

    place = locate(str(node))
    if place:
        path, _, line = place.rpartition(":")
        return SourceError(path, message, int(line))
    return SourceError("ontology", message)
