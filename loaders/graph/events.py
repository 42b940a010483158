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

from rdflib import RDF, XSD, Graph, Literal, URIRef

from yili_kg.loaders import iris
from yili_kg.loaders.annotation.annotations import Event, Record
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.lexicon import Lexicon
from yili_kg.loaders.text.rounds import read_rounds, round_numbers

LZH = "lzh"
ROLE_KEYS = {"agent": YL.agent, "to": YL.recipient, "with": YL.coAgent, "role": YL.assumesRole}
PLACE_KEYS = {
    "from": (YL.source, YL.sourceText),
    "dest": (YL.destination, YL.destinationText),
    "at": (YL.location, YL.locationText),
    "via": (YL.via, YL.viaText),
}
MANNERS = {"坐": "zuo", "立": "li", "少": "shao", "皆": "jie"}
PERSON = iris.person("zhuren-jiachen")
#: kinds that name their vessel: 卒觶 drains the 觶 (an implied theme when none is written)
KIND_THEME = {"卒觶": "觶", "卒爵": "爵", "舉觶": "觶", "拜既爵": "爵"}
VESSELS = ("爵", "觶")
#: acts done with the cup in hand: without a written theme, their theme is the cup of the
#: moment (主人坐取爵…西北面獻賓: the 爵), an implied theme
CUP_ACTS = {
    "獻",
    "酢",
    "酬",
    "授",
    "受",
    "奠",
    "反奠",
    "實",
    "洗",
    "卒洗",
    "拜受",
    "拜送",
    "執",
    "飲",
    "酌",
}
#: the roles the host's retainer plays, in the order the text gives them
RETAINER_ROLES = ("相", "司正", "司馬")


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
        role_assignments(g, placed, rite)
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
    for key, prop in ROLE_KEYS.items():
        for value in event.fields.get(key, ()):
            term = resolve_term(lexicon, "role", value)
            if term is None:
                raise item.error(f"{key}={value}: no role labelled {value!r}")
            g.add((node, prop, term))
    if kind in KIND_THEME and "theme" not in event.fields:
        g.add((node, YL.theme, lexicon.iri["object"][KIND_THEME[kind]]))
        g.add((node, YL.implied, YL.theme))
    for value in event.fields.get("theme", ()):
        term = resolve_term(lexicon, "object", value)
        if term is None:
            raise item.error(f"theme={value}: no object labelled {value!r}")
        g.add((node, YL.theme, term))
    for key, (prop, text_prop) in PLACE_KEYS.items():
        for value in event.fields.get(key, ()):
            term = resolve_term(lexicon, "place|object", value)
            if term is not None:
                g.add((node, prop, term))
            else:
                g.add((node, text_prop, Literal(value, lang=LZH)))
    for key, prop in (("face", YL.facing), ("upper", YL.upperEnd)):
        for value in event.fields.get(key, ()):
            term = resolve_term(lexicon, "direction", value)
            if term is None:
                raise item.error(f"{key}={value}: no direction labelled {value!r}")
            g.add((node, prop, term))
    if (manner := event.get("manner")) in MANNERS:
        g.add((node, YL.manner, URIRef(f"https://w3id.org/yili/id/manner/{MANNERS[manner]}")))
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

    The cup of the moment is the last 爵 or 觶 the text names in the same phase before the
    act (a new phase starts with none): 主人坐取爵于上篚 … 實之 … 西北面獻賓 → 獻 the 爵.
    """
    cup, phase = None, None
    for item in placed:
        event = item.event
        if item.phase != phase:
            cup, phase = None, item.phase
        named = [lexicon.forms["object"].get(t) for t in event.fields.get("theme", ())]
        named = [t for t in named if t in VESSELS]
        if named:
            cup = named[-1]
        elif cup and event.kind in CUP_ACTS and "theme" not in event.fields:
            event.set("theme", cup, "?")
        elif event.kind in KIND_THEME:
            cup = KIND_THEME[event.kind]


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
    if like.startswith("之") or like.startswith("其"):
        return _sentence_before(item, earlier)
    kind = _kind_of(item, earlier)
    role = _role_in(lexicon, like)
    action = _action_in(lexicon, like)
    wanted = action or kind
    candidates = [e for e in earlier if wanted and e.event.kind == wanted]
    if role:  # 如賓禮 / 如三耦: that role's last such act
        by_role = [e for e in candidates if role in e.event.agent]
        return by_role[-1] if by_role else None
    if like.startswith("初"):  # 如初: the first such act, his own if he did one
        mine = [e for e in candidates if set(e.event.agent) & set(item.event.agent)]
        pool = mine or candidates
        return pool[0] if pool else None
    return candidates[-1] if candidates else None


def _kind_of(item: Placed, earlier: list[Placed]) -> str:
    """The act a 如X repeats the kind of: its own, or for a bare 如 the last act of its
    sentence named before it (請射于賓，如初 → 請射; none: "")."""
    if item.event.kind != "如":
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
    text = text.removesuffix("禮").removeprefix("初")
    for size in range(len(text), 0, -1):
        label = lexicon.forms["action"].get(text[:size])
        if label and label != "如":
            return label
    return None


def role_assignments(g: Graph, placed: list[Placed], rite: str) -> None:
    """The retainer's roles over the phases: 相 until 作相為司正, then 司正, 司馬, 司正 again."""
    changes = [
        item
        for item in placed
        if item.event.kind == "為"
        and set(item.event.agent) & set(RETAINER_ROLES)
        and set(item.event.fields.get("role", ())) & set(RETAINER_ROLES)
    ]
    if not changes:
        return
    last_phase = max(item.phase for item in placed if item.phase < 38)
    first_usher = next(
        (
            item.phase
            for item in placed
            if "相" in item.event.fields.get("with", ()) or "相" in item.event.agent
        ),
        changes[0].phase,
    )
    spans: list[tuple[str, int, int, Placed | None]] = [("相", first_usher, changes[0].phase, None)]
    for n, change in enumerate(changes):
        end = changes[n + 1].phase if n + 1 < len(changes) else last_phase
        spans.append((change.event.fields["role"][0], change.phase, end, change))
    # PERSON is declared (a yl:Person, labelled) in ontology/roles.ttl: not stated again here
    for n, (role, start, end, made_by) in enumerate(spans, start=1):
        node = iris.ID[f"{rite}/assignment/{n}"]
        g.add((node, RDF.type, YL.RoleAssignment))
        g.add((node, YL.person, PERSON))
        g.add((node, YL.role, iris.term("role", _ROLE_SLUGS[role])))
        for phase in range(start, end + 1):
            g.add((node, YL.inPhase, iris.phase(rite, phase)))
        if made_by is not None:
            g.add((node, YL.assignedBy, made_by.iri))


_ROLE_SLUGS = {"相": "xiang", "司正": "sizheng", "司馬": "sima"}
