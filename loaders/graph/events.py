"""Annotation records → RDF events: one individual of its most specific action class per act.

Each event gets its agent, recipient, theme, source, destination, location, facing and the
other fields of its record (docs/annotation.md), ``yl:derivedFrom`` its clause, ``yl:inPhase``
the clause's phase, its place in the whole rite (``yl:sequenceIndex`` and ``yl:next``), and
marks for what the text leaves implicit (``yl:implied``, ``yl:carriedOver``). A ``如X`` is
linked to the earlier act it repeats (``yl:repeats``). The man behind 相, 司正 and 司馬 gets
his role assignments from the 為 events.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef

from yili_kg.loaders import iris
from yili_kg.loaders.annotation.annotations import Event, Record
from yili_kg.loaders.annotation.rules import word_class
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.lexicon import Lexicon
from yili_kg.loaders.terms.ontology import parse_modules
from yili_kg.loaders.text.rounds import read_rounds, round_numbers

LZH = "lzh"
ROLE_KEYS = {"agent": YL.agent, "to": YL.recipient, "with": YL.coAgent, "role": YL.assumesRole}
PLACE_KEYS = {
    "from": (YL.source, YL.sourceText),
    "dest": (YL.destination, YL.destinationText),
    "at": (YL.location, YL.locationText),
    "via": (YL.via, YL.viaText),
}
PERSON = iris.person("zhuren-jiachen")
# The vocabulary is the ontology's (docs: ontology/actions.ttl, "verb frames"): the acts done
# with the cup in hand (yl:cupInHand), those that name their cup (yl:namesCup: 卒觶 drains the
# 觶), the act that takes a role (yl:takesRole), the 如 (yl:repeatsAct), the roles of the
# host's retainer (yl:hostRetainer) and the manners (yl:Manner); the words of a 如X are
# corpus/annotation-words.tsv's (like-previous, like-first, like-suffix).


@cache
def ontology_modules() -> Graph:
    """The ontology's modules, parsed once, for what the lexicon does not read: the manners
    (yl:Manner) and the class of a role (yl:Officiant)."""
    return parse_modules()


@cache
def manners() -> dict[str, URIRef]:
    """The manners (yl:Manner) by their zh-Hant label: 坐 → ``…/id/manner/zuo``."""
    graph = ontology_modules()
    return {
        str(label): node
        for node in graph.subjects(RDF.type, YL.Manner)
        if isinstance(node, URIRef)
        for label in graph.objects(node, RDFS.label)
        if isinstance(label, Literal) and (label.language or "").lower() == "zh-hant"
    }


def named_cup(lexicon: Lexicon, kind: str) -> str:
    """The cup an act that names its cup (yl:namesCup) is done with: the ritual object its
    name ends with, the longest form (卒觶 → 觶, 拜既爵 → 爵)."""
    for start in range(len(kind)):
        label = lexicon.forms["object"].get(kind[start:])
        if label is not None:
            return label
    raise SourceError("ontology", f"{kind!r} is yl:namesCup, but its name ends with no object")


@dataclass
class Placed:
    """An event with where it stands: its clause, its index there, its IRI and phase."""

    event: Event
    clause: str
    index: int
    iri: URIRef
    phase: int
    sentence: str
    path: str = ""  # the annotation file and line of a reviewed record, for error messages
    line: int = 0

    def error(self, message: str) -> SourceError:
        """An error naming the record's file and line (or, for an automatic one, its clause)."""
        where = f"{self.clause} (event {self.index})"
        if self.path:
            return SourceError(self.path, f"{where}: {message}", self.line or None)
        return SourceError(where, message)


def resolve_term(lexicon: Lexicon, categories: str, value: str) -> URIRef | None:
    for category in categories.split("|"):
        label = lexicon.forms[category].get(value)
        if label is not None:
            return lexicon.iri[category][label]
    return None


def place_events(records: list[Record], phases: dict[str, int], rite: str) -> list[Placed]:
    """Every event of the records, in text order, with modifiers merged into the event before."""
    placed: list[Placed] = []
    for record in records:
        index = 0
        for event in record.events:
            if event.modifier:
                if not placed:
                    raise SourceError(
                        getattr(record, "path", None) or record.id,
                        f"{record.id}: a '+' modifier with no event before it",
                        record.line or None,
                    )
                target = placed[-1].event
                for key, values in event.fields.items():  # a repeated key adds values
                    merged = (*target.fields.get(key, ()), *values)
                    target.fields[key] = tuple(dict.fromkeys(merged))
                target.fields.setdefault("_also", ())
                target.fields["_also"] = (*target.fields["_also"], record.id)
                continue
            index += 1
            placed.append(
                Placed(
                    event,
                    record.id,
                    index,
                    iris.event(rite, record.id, index),
                    phases[record.id],
                    record.id.rsplit(".", 1)[0],
                    str(getattr(record, "path", "") or ""),
                    record.line,
                )
            )
    return placed


def events_graph(
    records: list[Record],
    phases: dict[str, int],
    lexicon: Lexicon,
    rite: str = "xiangshe",
    assignments: bool = True,
    into: Graph | None = None,
) -> Graph:
    """The asserted triples of every event of a rite's records (in text order)."""

    g = Graph() if into is None else into
    g.bind("yl", YL)
    placed = place_events(records, phases, rite)
    cup_in_hand(placed, lexicon)
    rounds = round_numbers(read_rounds().get(rite, {}))  # names checked by the text stage
    previous: URIRef | None = None
    for number, item in enumerate(placed, start=1):
        _event(g, item, number, lexicon, rite)
        archery_round(g, item, rounds)
        if previous is not None:
            g.add((previous, YL.next, item.iri))
        previous = item.iri
    for item, target in resolve_repeats(placed, lexicon):
        g.add((item.iri, YL.repeats, target.iri))
    if assignments:  # the host's retainer's roles: read for 鄉射禮 only
        role_assignments(g, placed, rite, lexicon)
    for record in records:
        g.add((iris.passage(rite, record.id), YL.reviewStatus, Literal(record.review)))
    return g


def _event(g: Graph, item: Placed, number: int, lexicon: Lexicon, rite: str) -> None:
    event, node = item.event, item.iri
    kind = lexicon.forms["action"].get(event.kind)
    if kind is None:
        raise item.error(f"no action class labelled {event.kind!r} in the ontology")
    g.add((node, RDF.type, lexicon.iri["action"][kind]))
    g.add((node, YL.kind, lexicon.iri["action"][kind]))
    g.add((node, YL.derivedFrom, iris.passage(rite, item.clause)))
    for also in event.fields.get("_also", ()):
        g.add((node, YL.derivedFrom, iris.passage(rite, also)))
    g.add((node, YL.inPhase, iris.phase(rite, item.phase)))
    g.add((node, YL.sequenceIndex, Literal(number, datatype=XSD.integer)))
    g.add((node, YL.eventIndex, Literal(item.index, datatype=XSD.integer)))
    g.add((node, YL.negated, Literal(event.get("neg") == "1")))
    _event_terms(g, item, kind, lexicon)
    _event_details(g, item)


#: the fields whose values must be terms of the ontology, the category each is read in, and
#: the property it becomes (places may be written as the text has them: PLACE_KEYS)
TERM_FIELDS = {
    **{key: ("role", prop) for key, prop in ROLE_KEYS.items()},
    "theme": ("object", YL.theme),
    "face": ("direction", YL.facing),
    "upper": ("direction", YL.upperEnd),
}


def _field_terms(event: Event, lexicon: Lexicon):
    """(key, value, term or None, property) of each field of an event that names a term."""
    for key, (category, prop) in TERM_FIELDS.items():
        for value in event.fields.get(key, ()):
            yield key, value, resolve_term(lexicon, category, value), prop


def refused_terms(records: list[Record], lexicon: Lexicon) -> list[tuple[Record, str]]:
    """Every record whose events name what the graph does not take (an act no action class is
    labelled with, a role, thing or direction no term is labelled with), and what: all of them
    at once, as :func:`events_graph` refuses the first (``yili-kg check`` runs it on the
    reviewed layers, whose readers may write a word that is no term)."""
    refused = []
    for record in records:
        for event in record.events:
            if not event.modifier and lexicon.forms["action"].get(event.kind) is None:
                refused.append((record, f"no action class labelled {event.kind!r}"))
            for key, value, term, _ in _field_terms(event, lexicon):
                if term is None:
                    category = TERM_FIELDS[key][0]
                    refused.append((record, f"{key}={value}: no {category} labelled {value!r}"))
    return refused


def _event_terms(g: Graph, item: Placed, kind: str, lexicon: Lexicon) -> None:
    """The terms of an event: its persons, things, places and directions."""
    event, node = item.event, item.iri
    if kind in lexicon.frames["namesCup"] and "theme" not in event.fields:
        g.add((node, YL.theme, lexicon.iri["object"][named_cup(lexicon, kind)]))
        g.add((node, YL.implied, YL.theme))
    for key, value, term, prop in _field_terms(event, lexicon):
        if term is None:
            raise item.error(f"{key}={value}: no {TERM_FIELDS[key][0]} labelled {value!r}")
        g.add((node, prop, term))
    for key, (prop, text_prop) in PLACE_KEYS.items():
        for value in event.fields.get(key, ()):
            term = resolve_term(lexicon, "place|object", value)
            if term is not None:
                g.add((node, prop, term))
            else:
                g.add((node, text_prop, Literal(value, lang=LZH)))


def _event_details(g: Graph, item: Placed) -> None:
    """The rest of an event: manner, count, condition, words, why no agent, implied fields."""
    event, node = item.event, item.iri
    if (manner := manners().get(event.get("manner") or "")) is not None:
        g.add((node, YL.manner, manner))
    if count := event.get("count"):
        g.add((node, YL["count"], Literal(int(count), datatype=XSD.integer)))
    for key, prop in (("cond", YL.condition), ("say", YL.speech), ("like", YL.like)):
        if event.get(key):
            g.add((node, prop, Literal(event.get(key), lang=LZH)))
    if event.get("noagent"):
        g.add((node, YL.noAgentReason, Literal(event.get("noagent"))))
    for key, mark in event.marks.items():
        marked = {**ROLE_KEYS, "theme": YL.theme, **{k: v[0] for k, v in PLACE_KEYS.items()}}
        if key in marked:
            g.add((node, YL.implied if mark == "?" else YL.carriedOver, marked[key]))


def archery_round(g: Graph, item: Placed, rounds: dict[int, int]) -> None:  # 番
    """The archery round of an act: its phase's (corpus/archery-rounds.tsv), or the one its
    record names (``round=``) when the text speaks of another round than the phase's: the 記's
    始射，獲而未釋獲；復，釋獲 stands in 江永's first round, but its 釋獲 is the second's."""
    number = item.event.get("round") or rounds.get(item.phase)
    if number:
        g.add((item.iri, YL.archeryRound, Literal(int(number), datatype=XSD.integer)))


def cup_in_hand(placed: list[Placed], lexicon: Lexicon) -> None:
    """Give acts done with the cup the cup of the moment, as an implied theme.

    The cup of the moment is the last 爵 or 觶 (the cups the yl:namesCup acts name) the text
    names in the same phase before the act (a new phase starts with none): 主人坐取爵于上篚 …
    實之 … 西北面獻賓 → 獻 the 爵. The acts done with it are the yl:cupInHand ones.
    """
    naming, in_hand = lexicon.frames["namesCup"], lexicon.frames["cupInHand"]
    cups = {named_cup(lexicon, kind) for kind in naming}
    cup, phase = None, None
    for item in placed:
        event = item.event
        if item.phase != phase:
            cup, phase = None, item.phase
        named = [lexicon.forms["object"].get(t) for t in event.fields.get("theme", ())]
        named = [t for t in named if t in cups]
        if named:
            cup = named[-1]
        elif cup and event.kind in in_hand and "theme" not in event.fields:
            event.set("theme", cup, "?")
        elif event.kind in naming:
            cup = named_cup(lexicon, event.kind)


def resolve_repeats(placed: list[Placed], lexicon: Lexicon):
    """Pairs (event, earlier event it repeats) for every 如X the records do not resolve.

    如初 is the first time the act was done in the rite; 如賓禮 / 如三耦 the act done by that
    role; 亦如之 the act of the sentence before; 如升射 / 如作射 the last act of that kind. A 如
    event stands for the act of its sentence named before it (請射于賓，如初 → 請射).
    """
    by_clause = {item.clause: item for item in placed}
    for position, item in enumerate(placed):
        like = item.event.get("like")
        explicit = item.event.get("repeats")
        if explicit:  # a reviewed record's repeats=<clause>#<n>: its clause's event
            target = by_clause.get(explicit.split("#")[0])
        elif like:
            target = _repeated(item, like, placed[:position], lexicon)
        else:
            continue
        if target is not None:
            yield item, target


def _repeated(item: Placed, like: str, earlier: list[Placed], lexicon: Lexicon) -> Placed | None:
    """The earlier act a 如X (``like`` = X) repeats, or None: 亦如之 the sentence before's,
    else the act named by X, or the one of its kind."""
    if like.startswith(word_class("like-previous")):
        return _sentence_before(item, earlier)
    kind = _kind_of(item, earlier, lexicon)
    role = _role_in(lexicon, like)
    action = _action_in(lexicon, like)
    wanted = action or kind
    candidates = [e for e in earlier if wanted and e.event.kind == wanted]
    if role:  # 如賓禮 / 如三耦: that role's last such act
        by_role = [e for e in candidates if role in e.event.agent]
        return by_role[-1] if by_role else None
    if like.startswith(word_class("like-first")):  # 如初: the first such act, his own if any
        mine = [e for e in candidates if set(e.event.agent) & set(item.event.agent)]
        pool = mine or candidates
        return pool[0] if pool else None
    return candidates[-1] if candidates else None


def _kind_of(item: Placed, earlier: list[Placed], lexicon: Lexicon) -> str:
    """The act a 如X repeats the kind of: its own, or for a bare 如 (yl:repeatsAct) the last
    act of its sentence named before it (請射于賓，如初 → 請射; none: "")."""
    if not lexicon.has(item.event.kind, "repeatsAct"):
        return item.event.kind
    same_sentence = [e for e in earlier if e.sentence == item.sentence]
    return same_sentence[-1].event.kind if same_sentence else ""


def _sentence_before(item: Placed, earlier: list[Placed]) -> Placed | None:
    """亦如之 / 如其X: the first act of the last sentence before the 如's own, or None."""
    sentences = [e for e in earlier if e.sentence != item.sentence]
    if not sentences:
        return None
    return next(e for e in sentences if e.sentence == sentences[-1].sentence)


def _role_in(lexicon: Lexicon, text: str) -> str | None:
    for size in range(len(text), 0, -1):
        for start in range(0, len(text) - size + 1):
            label = lexicon.forms["role"].get(text[start : start + size])
            if label:
                return label
    return None


def _action_in(lexicon: Lexicon, text: str) -> str | None:
    """The act a 如X names at its start (如升射 → 升射), without the words around the name
    (如賓禮, 如初X: like-suffix, like-first), never a 如 itself."""
    after, before = word_class("like-suffix"), word_class("like-first")
    text = next((text.removesuffix(w) for w in after if text.endswith(w)), text)
    text = next((text.removeprefix(w) for w in before if text.startswith(w)), text)
    for size in range(len(text), 0, -1):
        label = lexicon.forms["action"].get(text[:size])
        if label and not lexicon.has(label, "repeatsAct"):
            return label
    return None


def role_assignments(g: Graph, placed: list[Placed], rite: str, lexicon: Lexicon) -> None:
    """The retainer's roles (yl:hostRetainer) over the phases: 相 until 作相為司正 (the role the
    first yl:takesRole act makes him leave), then 司正, 司馬, 司正 again."""
    retainer = lexicon.frames["hostRetainer"]
    changes = [
        item
        for item in placed
        if lexicon.has(item.event.kind, "takesRole")
        and set(item.event.agent) & retainer
        and set(item.event.fields.get("role", ())) & retainer
    ]
    if not changes:
        return
    first = next(agent for agent in changes[0].event.agent if agent in retainer)
    last_phase = max(item.phase for item in placed if item.phase < 38)
    first_usher = next(
        (
            item.phase
            for item in placed
            if first in item.event.fields.get("with", ()) or first in item.event.agent
        ),
        changes[0].phase,
    )
    spans: list[tuple[str, int, int, Placed | None]] = [
        (first, first_usher, changes[0].phase, None)
    ]
    for n, change in enumerate(changes):
        end = changes[n + 1].phase if n + 1 < len(changes) else last_phase
        spans.append((change.event.fields["role"][0], change.phase, end, change))
    # PERSON is declared (a yl:Person, labelled) in ontology/roles.ttl: not stated again here
    for n, (role, start, end, made_by) in enumerate(spans, start=1):
        node = iris.ID[f"{rite}/assignment/{n}"]
        g.add((node, RDF.type, YL.RoleAssignment))
        g.add((node, YL.person, PERSON))
        g.add((node, YL.role, lexicon.iri["role"][role]))
        for phase in range(start, end + 1):
            g.add((node, YL.inPhase, iris.phase(rite, phase)))
        if made_by is not None:
            g.add((node, YL.assignedBy, made_by.iri))
