"""The reading view (讀): each rite's phases, then its text clause by clause with the graph's
reading of every clause, the commentary beneath it and the parallel steps of other rites.

Everything comes from SPARQL over the store (``service/rq/read-*.rq``), for any rite the
dataset holds. A phase's page is assembled once per dataset version and remembered (a small
LRU), so a page asked again is rendered from memory.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from flask import Blueprint, abort, current_app, redirect, render_template

from yili_kg.loaders.corpus import read_rows
from yili_kg.service.queries import service_query

bp = Blueprint("reading", __name__)
ID = "https://w3id.org/yili/id/"
YL = "https://w3id.org/yili/ontology#"
#: the order of the layers of commentary beneath a clause (注 first, as the 注疏 prints them)
NOTE_ORDER = {"注": 0, "音義": 1, "疏": 2, "考證": 3, "引文": 4}
OPEN_BY_DEFAULT = {"注"}


@dataclass
class Arg:
    """One value of an event's field: its labels and how the graph came by it."""

    iri: str
    zh: str
    en: str
    mark: str = ""  # "" written, "implied" (not in the text), "carried" (from a clause before)


@dataclass
class Event:
    iri: str
    seq: int
    clause: str = ""
    kind: Arg | None = None
    negated: bool = False
    args: dict[str, list[Arg]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)  # count, speech, condition …
    parallels: list[dict] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return self.iri.rsplit("/", 1)[-1]

    def zh(self) -> list[tuple[str, str, str]]:
        """The act in the graph's terms as (text, mark, iri) parts: 主人 → 獻 → 賓 · 爵."""
        parts: list[tuple[str, str, str]] = []

        def add(args, prefix="", suffix=""):
            for i, a in enumerate(args):
                if i:
                    parts.append(("、", "", ""))
                parts.append((prefix + a.zh + suffix, a.mark, a.iri))

        add(self.args.get("agent", []))
        if self.args.get("coAgent"):
            parts.append(("與", "", ""))
            add(self.args["coAgent"])
        parts.append((" → ", "sep", ""))
        if self.negated:
            parts.append(("不", "neg", ""))
        if self.kind:
            parts.append((self.kind.zh, "", self.kind.iri))
        if self.args.get("recipient"):
            parts.append((" → ", "sep", ""))
            add(self.args["recipient"])
        for key, prefix, suffix in (
            ("theme", "", ""),
            ("assumesRole", "", ""),
            ("source", "自", ""),
            ("location", "於", ""),
            ("via", "由", ""),
            ("destination", "至", ""),
            ("facing", "", "面"),
        ):
            if self.args.get(key):
                parts.append((" · ", "sep", ""))
                add(self.args[key], prefix, suffix)
        for key in ("locationText", "sourceText", "destinationText", "viaText"):
            if key in self.texts:
                parts.append((" · ", "sep", ""))
                parts.append((self.texts[key], "", ""))
        if self.texts.get("count", "1") != "1":
            parts.append((f" ×{self.texts['count']}", "", ""))
        if parts and parts[0][1] == "sep":  # no agent written or carried: the act alone
            parts = parts[1:]
        return parts

    def en(self) -> list[tuple[str, str, str]]:
        """The same in English: the host offers the jue cup to the guest, facing north-west."""
        parts: list[tuple[str, str, str]] = []

        def add(args, prefix=""):
            for i, a in enumerate(args):
                if i:
                    parts.append((_and(i, args), "", ""))
                parts.append((prefix + _the(a.en or a.zh), a.mark, a.iri))

        agents = self.args.get("agent", [])
        reason = self.texts.get("noAgentReason", "")
        themes = self.args.get("theme", [])
        if agents:
            add(agents)
            if self.args.get("coAgent"):
                parts.append((" with ", "", ""))
                add(self.args["coAgent"])
        elif reason == "state" and themes:  # 篚在其南: the basket is in place, no one does it
            agents, themes = themes, []
            add(agents)
        else:
            parts.append((NO_AGENT.get(reason, "(no agent in the graph)"), "", ""))
        plural = len(agents) > 1 or any(_plural(a.en) for a in agents)
        verb = _verb(self.kind.en if self.kind else "act", plural=plural)
        if self.negated:
            verb = ("do not " if plural else "does not ") + _bare(
                self.kind.en if self.kind else "act"
            )
        verb = _object_named_again(verb, themes)
        # a label's "one's" has a subject in a sentence: "the guest and the host go to their mats"
        verb = verb.replace("one's", "their")
        recipients = self.args.get("recipient", [])
        onto = recipients or self.args.get("destination", [])
        # a place gone to that says where by itself (適堂前 "goes in front of the hall", not
        # "goes to in"; 倚弓至堂西 "leans the bow west of the hall"): said by the loop below
        named_where = onto[0].en if onto else ""
        by_itself = not recipients and RELATIVE.match(
            named_where or self.texts.get("destinationTextEn", "")
        )
        if verb.endswith(" to") and by_itself:
            verb = verb.removesuffix(" to")
        put_on = _put_on(verb) if themes or onto else None
        done: set[str] = set()  # fields said already, before the loop below
        after = ""  # what a verb says after its recipient ("sees the guest off")
        if put_on:  # 加皮弁 to 冠者: "places the deerskin cap on the one capped"
            verb, own, particle = put_on
            parts.append((" " + verb, "", self.kind.iri if self.kind else ""))
            parts.append((" " + own if own else " ", "", ""))
            add([] if own else themes)
            themes, to, done = [], "", {"recipient"}
            if not (by_itself and named_where):
                where = self.texts.get("destinationTextEn") or self.texts.get("destinationText", "")
                parts.append((_on_what(bool(onto), where, own, particle), "", ""))
                add(onto)
                if onto and where and not recipients:  # a place named and one given in words
                    parts.append((" and " + where, "", ""))
                done = {"recipient"} if recipients else {"recipient", "destination"}
        else:
            verb, after, to = _recipient_place(verb) if recipients else (verb, "", " to ")
            parts.append((" " + verb, "", self.kind.iri if self.kind else ""))
            if recipients and not to:  # the recipient is the verb's object: "invites the guest"
                parts.append((" ", "", ""))
                add(recipients)
                if after:
                    parts.append((after, "", ""))
                done = {"recipient"}
        carry = _intransitive(self.kind.en if self.kind else "")
        # the recipient made the verb's object: the thing given comes with "with" (勞賓以束帛
        # "welcomes the guest after the journey with the bundle of silk"), or after a colon
        # where the verb has its "with" already (儐勞者 "honours … with gifts: the brocade")
        given = " with " if "recipient" in done and not put_on else ""
        if given and " with " in f"{verb} {after}":
            given = ": "
        fields = [
            ("theme", " with " if carry else (given or (": " if _has_object(verb) else " "))),
            # 主人為下射 "acts as the lower archer"; 使弟子 "sends the students as the three pairs"
            ("assumesRole", " " if verb.endswith(" as") else " as "),
            ("recipient", to),
            ("source", " from "),
            ("location", " at "),
            ("via", " by "),
            ("destination", DESTINATION_BEFORE.get(_head(verb), " to ")),
        ]
        if verb.rsplit(" ", 1)[-1] in ("to", "into"):  # the place gone to straight after the verb:
            fields.insert(1, fields.pop())  # "goes to the east steps from in front of the mat"
        elif (  # a vessel filled, not a place said in words (實爵于席前: "fills the jue cup
            _head(verb) in VESSEL_FIRST  # in front of the mat", the cup first as before)
            and (self.args.get("destination") or self.texts.get("destinationText"))
            and not by_itself
        ):
            rest = [field for field in fields if field[0] not in ("theme", "destination")]
            fields = [("destination", " "), ("theme", " with "), *rest]
        for key, prefix in fields:
            args = themes if key == "theme" else [] if key in done else self.args.get(key, [])
            for i, a in enumerate(args):
                label = a.en or a.zh
                relative = key in ("location", "destination", "source") and RELATIVE.match(label)
                parts.append((_and(i, args) if i else _before(prefix, key, label, verb), "", ""))
                parts.append((label if relative else _the(label), a.mark, a.iri))
            # 洗東: "east of the washing basin" (set by Readings), or the text's words
            text = self.texts.get(f"{key}Text")
            if text and key not in done:
                english = self.texts.get(f"{key}TextEn", "")
                parts.append((" and " if args else _before(prefix, key, english, verb), "", ""))
                parts.append((english or text, "", ""))
        if self.args.get("facing"):
            parts.append((", facing ", "", ""))
            add(self.args["facing"])
        count = self.texts.get("count", "1")
        if count != "1":
            parts.append((" " + TIMES.get(count, f"{count} times"), "", ""))
        return parts


#: verbs of putting a thing on or against another, and the word before that other
PUT_ON = {"place": "on", "put": "on", "lean": "against"}


def _put_on(verb: str) -> tuple[str, str, str] | None:
    """A verb of putting on (加 "place on", 冠 "put on the cap", 倚 "lean against") split so
    that the thing put comes before "on" and the one it is put on after it: (the verb, its own
    object, the word before the one it is put on).

    >>> _put_on("places on"), _put_on("puts on the cap"), _put_on("leans against")
    (('places', '', 'on'), ('puts', 'the cap', 'on'), ('leans', '', 'against'))
    >>> _put_on("goes on"), _put_on("places")
    (None, None)
    """
    words = verb.split(" ")
    particle = PUT_ON.get(_head(verb)) if len(words) > 1 else None
    if particle is None or words[1] != particle:
        return None
    return words[0], " ".join(words[2:]), particle


def _head(verb: str) -> str:
    """A verb's first word without the -s of the third person: "places on" → "place", the key
    of PUT_ON and DESTINATION_BEFORE."""
    return verb.split(" ", 1)[0].removesuffix("s")


def _on_what(named: bool, where: str, own: str, particle: str = "on") -> str:
    """What a thing is put on: the one or thing named next, a place given in words (as it is
    where it is a relation: 左皮上 "on the left hides"), or, with neither, nothing more than
    "on" after a verb's own object ("puts the cap on") and "on top" after a thing (加勺 "places
    the ladle on top", of the jar); a thing leant with nothing named is just leant.

    >>> _on_what(True, "", ""), _on_what(False, "左皮上", ""), _on_what(False, "", "the cap")
    (' on ', ' on 左皮上', ' on')
    >>> _on_what(False, "on the left hides", ""), _on_what(False, "", "")
    (' on the left hides', ' on top')
    >>> _on_what(True, "", "", "against"), _on_what(False, "", "", "against")
    (' against ', '')
    """
    if named:
        return f" {particle} "
    if where:
        return f" {where}" if RELATIVE.match(where) else f" {particle} {where}"
    if particle != "on":
        return ""
    return " on" if own else " on top"


def _and(i: int, items: list) -> str:
    """The word before the i-th of several: "the guest, the host and the grandee"."""
    return " and " if i == len(items) - 1 else ", "


def _before(prefix: str, key: str, label: str, verb: str) -> str:
    """The word before the first place or person of a field: none where the place is already a
    relation ("is in place below the hall", not "at below") or the verb ends in a preposition
    ("goes to the basin", "arrives at the steps", not "goes to to").

    >>> _before(" at ", "location", "east of the washing basin", "is in place")
    ' '
    >>> _before(" to ", "destination", "washing basin", "goes to")
    ' '
    >>> _before(" at ", "location", "hall", "stands")
    ' at '
    >>> _before(" to ", "destination", "steps", "arrives at")
    ' '
    >>> _before(" to ", "destination", "robing tent", "enter")
    ' '
    """
    if key in ("location", "destination") and RELATIVE.match(label):
        return " "
    if prefix == " to " and verb.rsplit(" ", 1)[-1] in ("to", "at", "into", "enter", "enters"):
        return " "  # 及階 "arrives at the steps", 入次 "enters the robing tent": no "to" after them
    return prefix


#: the subject of an act no one is named to do, by the graph's yl:noAgentReason: 乃張侯 "someone
#: stretches the target" (the text names no one); a state naming nothing (在南) says so
NO_AGENT = {"unstated": "someone", "state": "(nothing named)"}

#: place labels that are already a relation ("below the hall", "east of the east steps"),
#: after a distance too ("three paces north-west of the left side of the target")
RELATIVE = re.compile(
    r"^((one|two|three|four|five|six|seven|eight|nine|ten) [\w-]+ )?"
    r"(among|at|below|above|behind|between|in front of|in|inside|on|outside|(left|right) of|"
    r"(a little )?(north|south|east|west)(-\w+)? of|a little to the)\b"
)


@dataclass(frozen=True)
class RelativeWords:
    """service/relative-places.tsv: the words that end a place given relative to a person or
    thing (東, 右, 之間), the words between (之), the word standing for the thing (其), the
    word for whose a thing is (其階 "their steps"), the places the ontology has no term for
    (次 "the robing tent"), the words that say which of a thing (西墉 "the west wall"), where a
    thing is set (所設), and a distance (三步 "three paces")."""

    relations: dict[str, tuple[str, str]]  # word → (after a thing, alone), longest word first
    links: tuple[str, ...]
    pronouns: dict[str, str]
    prefixes: dict[str, str]  # 其階 "their steps", 所設楅 "where the arrow rack is set", 西墉
    places: dict[str, str]
    measures: dict[str, str]  # 三步 "three paces"
    numbers: dict[str, str]


@cache
def relative_words() -> RelativeWords:
    relations: dict[str, tuple[str, str]] = {}
    links: list[str] = []
    kinds = ("pronoun", "prefix", "place", "measure", "number")
    of_kind: dict[str, dict[str, str]] = {kind: {} for kind in kinds}
    path = Path(__file__).parent.parent / "relative-places.tsv"
    for _, row in read_rows(path, ("word", "kind", "after", "alone")):
        if row["kind"] == "relation":
            relations[row["word"]] = (row["after"], row["alone"])
        elif row["kind"] == "link":
            links.append(row["word"])
        else:  # whose (其), where set (所設) and which (西) are all words before a thing
            kind = "prefix" if row["kind"] in ("possessive", "where", "modifier") else row["kind"]
            of_kind[kind][row["word"]] = row["after"]
    longest_first = dict(sorted(relations.items(), key=lambda item: -len(item[0])))
    return RelativeWords(longest_first, tuple(links), *(of_kind[kind] for kind in kinds))


def place_english(text: str, terms: dict[str, str], words: RelativeWords) -> str:
    """A place the text gives in words (yl:locationText …) in English, or "" if its words are
    not a term or place of the table, a relation, and a distance: 洗東 → "east of the
    washing basin".

    >>> terms = {"洗": "washing basin", "司馬": "the master of horse", "乏": "screen",
    ...          "房": "east chamber", "左個": "left side of the target", "階": "steps"}
    >>> [place_english(t, terms, relative_words()) for t in ("洗東", "司馬之南", "其右", "左")]
    ['east of the washing basin', 'south of the master of horse', 'right of it', 'the left']
    >>> [place_english(t, terms, relative_words()) for t in ("其洗", "次", "其位南", "乏少南")]
    ['their washing basin', 'the robing tent', 'south of their appointed place', \
'a little south of the screen']
    >>> place_english("房中西墉下", terms, relative_words())
    'below the west wall in the east chamber'
    >>> place_english("左個之西北三步", terms, relative_words())
    'three paces north-west of the left side of the target'
    >>> [place_english(t, terms, relative_words()) for t in ("所設乏之南", "房東階")]
    ['south of where the screen is set', '']
    >>> terms |= {"户": "chamber door", "牖": "window", "主人": "host", "席": "mat"}
    >>> terms["室"] = "chamber"
    >>> [place_english(t, terms, relative_words()) for t in ("户牖間", "主人席北", "室西北隅")]
    ['between the chamber door and the window', 'north of the mat of the host', \
'at the north-west corner of the chamber']
    """
    named = _thing_english(text, terms, words)
    if named:
        return named
    for unit, pattern in words.measures.items():  # 三步: a distance before the place it is from
        head = text.removesuffix(unit)
        if head != text and head[-1:] in words.numbers:
            place = _relation_english(head[:-1], terms, words)
            return f"{pattern.format(words.numbers[head[-1]])} {place}" if place else ""
    return _relation_english(text, terms, words)


def _relation_english(text: str, terms: dict[str, str], words: RelativeWords) -> str:
    """A place by a relation to a thing (房中 "in the east chamber", 司馬之南), "" if not one."""
    for word, (after, alone) in words.relations.items():  # 之間 before 間
        if not text.endswith(word):
            continue
        head = text[: -len(word)]
        if not head:
            return alone
        for link in words.links:
            head = head.removesuffix(link)
        if head in words.pronouns:
            return after.format(words.pronouns[head])
        pair = _pair_english(head, terms, words) if after.startswith("between") else ""
        thing = pair or _thing_english(head, terms, words)
        return after.format(thing) if thing else ""
    return ""


def _pair_english(text: str, terms: dict[str, str], words: RelativeWords) -> str:
    """Two things side by side, as between them (户牖間 "between the chamber door and the
    window"), or "" if the words are not two things."""
    for cut in range(1, len(text)):
        first, second = (
            _thing_english(text[:cut], terms, words),
            _thing_english(text[cut:], terms, words),
        )
        if first and second:
            return f"{first} and {second}"
    return ""


def _thing_english(text: str, terms: dict[str, str], words: RelativeWords) -> str:
    """A thing or place by its words: a term (洗 "the washing basin"), a place of the table (次
    "the robing tent"), whose it is (其位 "their appointed place"), which of it (西墉 "the west
    wall"), where it is set (所設楅 "where the arrow rack is set"), where it is (房中西墉 "the
    west wall in the east chamber"), or whose, of two terms of four characters at most (主人席
    "the mat of the host"); "" for anything else."""
    if text in terms:  # 席前 "in front of the mat" is already a place, with no article
        return terms[text] if RELATIVE.match(terms[text]) else _the(terms[text])
    if text in words.places:
        return words.places[text]
    for word, pattern in words.prefixes.items():
        thing = text.removeprefix(word)
        named = _thing_english(thing, terms, words) if thing != text else ""
        if named:
            return pattern.format(named.removeprefix("the "))
    if text[:1] in words.numbers and len(text) > 1:  # 二鼎 "the two tripods"
        thing = _thing_english(text[1:], terms, words)
        if not thing.startswith("the ") or words.numbers[text[0]] == "one":
            return ""  # 二 + a place that is a relation, or 一: no things counted
        return f"the {words.numbers[text[0]]} {_plural_of(thing)}"
    for cut in range(2, len(text) - 1):  # 房中 + 西墉: a thing in a place
        where = _relation_english(text[:cut], terms, words)
        thing = _thing_english(text[cut:], terms, words) if RELATIVE.match(where) else ""
        if thing:
            return f"{thing} {where}"
    return _of_english(text, terms) if len(text) <= 4 else ""


def _plural_of(thing: str) -> str:
    """A thing's English after a number, without its article: "the tripod" → "tripods"."""
    noun = thing.removeprefix("the ")
    return noun if _plural(noun) else noun + "s"


def _of_english(text: str, terms: dict[str, str]) -> str:
    """Two terms, a thing of the first (主人席 "the mat of the host"), or "" if they are not; a
    label not said twice (賓館 "the guest lodging", 禰廟 "the father's temple")."""
    for cut in range(1, len(text)):
        owner, thing = terms.get(text[:cut], ""), terms.get(text[cut:], "")
        if not (owner and thing) or RELATIVE.match(owner) or RELATIVE.match(thing):
            continue  # 堂 + 中西 "west of the tally-holder": a place, not a thing of the hall
        if owner.split(" ")[-1] == thing.split(" ")[-1]:
            return _the(owner)
        return _the(thing) if owner in thing else f"{_the(thing)} of {_the(owner)}"
    return ""


#: acts that take no object: their theme is what the agent carries (降 with the cup)
INTRANSITIVE = {"kneel", "rise", "stand", "sit", "return", "enter", "withdraw", "turn", "wait"}


#: how an act's recipient follows its English verb, by the verb's first word: as its object
#: ("" : after that word, "invites the guest in advance", "sees the guest off") or with another
#: word than "to" ("condoles with the host", "spreads a mat for the guest"); every other verb:
#: "bows to the guest"
RECIPIENT_AFTER = {
    **dict.fromkeys(
        (
            "assist",
            "ask",
            "bless",
            "bring",  # 納工: "brings the singers in"
            "command",
            "feast",
            "follow",
            "honour",
            "invite",
            "join",
            "lead",
            "match",
            "pledge",
            "salute",  # 揖賓: "salutes the guest with clasped hands"
            "see",
            "send",  # 使人: "sends someone"
            "summon",
            "urge",
            "welcome",
        ),
        "",
    ),
    "condole": " with ",
    "set": " for ",  # 設俎 to the guest: "sets out the meat stand for the guest"
    "spread": " for ",  # 席賓: "someone spreads a mat for the guest"
}
#: the word before the place a thing is put, by the verb's first word: 奠爵于序端 "sets down
#: the jue cup at the end of the east wall", not "to"; every other verb: "goes to the hall"
DESTINATION_BEFORE = {"set": " at ", "lay": " at "}
#: verbs whose place gone to is their object and whose thing comes after "with": 實櫛于簞
#: "fills the round basket with the comb", not "fills the comb to the round basket"
VESSEL_FIRST = {"fill"}
#: words that end a verb whose recipient comes straight after it ("goes to meet the guest",
#: "calls upon the grandee", "goes to the basin", not "goes to to")
RECIPIENT_NEXT = {"to", "at", "upon", "for", "with", "on", "meet", "meets"}


def _recipient_place(verb: str) -> tuple[str, str, str]:
    """A conjugated verb, split where its recipient goes: (the verb up to the recipient, the
    rest of the verb after it, the word before the recipient where it follows the whole verb).

    >>> _recipient_place("invites in advance"), _recipient_place("pledges")
    (('invites', ' in advance', ''), ('pledges', '', ''))
    >>> _recipient_place("goes to meet"), _recipient_place("does not see off")
    (('goes to meet', '', ' '), ('does not see', ' off', ''))
    >>> _recipient_place("bows twice"), _recipient_place("condoles")
    (('bows twice', '', ' to '), ('condoles', '', ' with '))
    >>> _recipient_place("spreads a mat"), _recipient_place("brings in")
    (('spreads a mat', '', ' for '), ('brings', ' in', ''))
    """
    for negation in ("does not ", "do not "):
        if verb.startswith(negation):
            head, after, to = _recipient_place(verb.removeprefix(negation))
            return negation + head, after, to
    words = verb.split(" ")
    if words[-1] in RECIPIENT_NEXT:
        return verb, "", " "
    stem = re.sub(r"(?<=[^aeiou])ies$", "y", words[0]) if words[0].endswith("ies") else words[0]
    for form in (words[0], stem, stem.removesuffix("es"), stem.removesuffix("s")):
        if form in RECIPIENT_AFTER:
            how = RECIPIENT_AFTER[form]
            if how:
                return verb, "", how
            return words[0], "".join(" " + w for w in words[1:]), ""
    return verb, "", " to "


def _object_named_again(verb: str, themes: list) -> str:
    """The verb without its own object where the things named say it more exactly: "drains
    the cup" with the jue cup → "drains" (the jue cup), not "drains the cup the jue cup".

    >>> _object_named_again("drains the cup", [Arg("", "爵", "jue cup")])
    'drains'
    >>> _object_named_again("makes the offering", [Arg("", "酒", "wine")])
    'makes the offering'
    >>> _object_named_again("drain the zhi cup", [Arg("", "觶", "zhi cup")])
    'drain'
    """
    own = re.search(r" the ([\w -]+)$", verb)
    if own and themes and all(f" {a.en}".endswith(f" {own.group(1)}") for a in themes):
        return verb[: own.start()]
    return verb


#: a count of acts in words
TIMES = {"2": "twice", "3": "three times", "4": "four times", "5": "five times"}


def _has_object(verb: str) -> bool:
    """Whether a verb phrase holds its own object ("makes the offering", "gives a parting
    gift"): the thing handled then follows after a colon, "makes the offering: the dried meat".

    >>> [_has_object(v) for v in ("makes the offering", "gives a parting gift", "sets out")]
    [True, True, False]
    """
    return bool(re.search(r" (the|a|an) [\w' -]+$", verb))


def _intransitive(label: str) -> bool:
    words = _bare(label).split()
    return bool(words) and (
        words[0] in INTRANSITIVE
        or (words[0] in ("go", "come", "step", "walk", "move") and len(words) > 1)
    )


def _bare(label: str) -> str:
    """A label as a bare verb: "offer (the cup)" → "offer"; of two senses, the first ("load;
    carry" → "load", "step back, withdraw" → "step back"); brackets first, whatever they hold.

    >>> _bare("raise (a cup, a flag)")
    'raise'
    """
    plain = re.sub(r"\s*\([^)]*\)", "", label or "act")
    return re.split(r"[;,]", plain)[0].strip() or "act"


def _verb(label: str, plural: bool = False) -> str:
    """The label's first word in the third person: "bow twice" → "bows twice"."""
    words = _bare(label).split(" ")
    if plural and words[0] == "be":  # 從者、小臣師…東堂下: "are in place"
        return " ".join(["are", *words[1:]])
    if plural or not words[0].isalpha():
        return " ".join(words)
    head = words[0]
    if head == "be":
        head = "is"
    elif head == "have":
        head = "has"
    elif head == "go":
        head = "goes"
    elif re.search(r"(s|sh|ch|x|z|o)$", head):
        head += "es"
    elif re.search(r"[^aeiou]y$", head):
        head = head[:-1] + "ies"
    else:
        head += "s"
    return " ".join([head, *words[1:]])


#: role labels that take no article (人 someone)
PRONOUNS = {"someone", "anyone", "everyone"}

#: English plurals that do not end in -s (丈夫 the men, 婦人 the women)
IRREGULAR_PLURALS = {"men", "women", "people", "children"}


def _plural(label: str) -> bool:
    """Whether a role's English label names several: its head noun, before any "of", is a
    plural ("the other guests", "the three pairs"; not "the master of the officers").

    >>> [_plural(x) for x in ("the other guests", "the men", "the master of the officers")]
    [True, True, False]
    >>> _plural("the father's and elder kinsmen")
    True
    >>> [_plural(x) for x in ("the guest", "the host's assistant", "the impersonator's companion")]
    [False, False, False]
    """
    head = (label or "").split(" of ")[0].split()
    if not head:
        return False
    word = head[-1].lower()
    return (
        word in IRREGULAR_PLURALS
        or word.endswith("smen")
        or (word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")))
    )


def _the(label: str) -> str:
    """A role or thing with its article: "guest" → "the guest" (directions stay bare); of two
    senses, the second in brackets ("aunt; mother-in-law" → "the aunt (mother-in-law)").

    >>> [_the(x) for x in ("guest", "aunt; mother-in-law", "the bride; wife", "someone")]
    ['the guest', 'the aunt (mother-in-law)', 'the bride (wife)', 'someone']
    >>> _the("those below the hall")
    'those below the hall'
    """
    first, sep, other = (label or "").partition("; ")
    if sep:
        return f"{_the(first)} ({other})"
    if label in PRONOUNS:
        return label
    if not label or label[0].isupper() or label.startswith(("the ", "a ", "an ", "those ")):
        return label
    if label in ("north", "south", "east", "west") or re.fullmatch(r"(north|south)-\w+", label):
        return label
    if not label.split(" (")[0].isascii():
        return label
    return "the " + label


@dataclass
class Mourning:
    """An obligation of mourning a clause of 喪服 states (服制): who wears which grade for whom."""

    grade: str
    grade_en: str
    months: str
    mourner: str  # "" where the entry names no one: the speaker, 己
    mourner_en: str
    mourned: str  # "" in a row of 報 whose other party is the speaker, 己
    mourned_en: str
    through: str
    through_en: str
    condition: str

    @property
    def zh(self) -> str:  # 斬衰三年 · 女子子為父 · 在室
        whom = self.mourned or "己"
        whom = f"{self.through}之{whom}" if self.through else whom
        parts = [self.grade, f"{self.mourner or '己'}為{whom}"]
        return " · ".join(parts + ([self.condition] if self.condition else []))

    @property
    def en(self) -> str:  # cut-edged sackcloth, three years (25 months), worn by … for …
        speaker = "the speaker (己)"
        who = _the(self.mourner_en or self.mourner) if self.mourner else speaker
        whom = _the(self.mourned_en or self.mourned) if self.mourned else speaker
        if self.through:
            whom += f", through {_the(self.through_en or self.through)}"
        months = f" ({self.months} months)" if self.months else ""
        when = f" ({self.condition})" if self.condition else ""
        return f"{self.grade_en}{months}, worn by {who} for {whom}{when}"


@dataclass
class Clause:
    iri: str
    text: str
    pages: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    mourning: list[Mourning] = field(default_factory=list)

    @property
    def pid(self) -> str:  # jing/5.1.1
        return self.iri[len(ID) :].split("/", 1)[1]

    @property
    def anchor(self) -> str:  # jing-5.1.1
        return self.pid.replace("/", "-")

    @property
    def kanripo(self) -> str:
        return next((p for p in self.pages if p.startswith("KR")), "")


@dataclass
class PhaseReading:
    rite: str
    index: int
    label: str
    en: str
    clauses: list[Clause]
    parallel_phases: list[dict]
    toc: list[dict]

    def neighbour(self, step: int) -> dict | None:
        for i, row in enumerate(self.toc):
            if row["index"] == self.index and 0 <= i + step < len(self.toc):
                return self.toc[i + step]
        return None


def slug_of(iri: str) -> tuple[str, str]:
    """(rite slug, rest) of one of our IRIs: …/id/xiangshe/phase/06 → (xiangshe, phase/06)."""
    rest = iri[len(ID) :]
    slug, _, tail = rest.partition("/")
    return slug, tail


def reading_url(phase_iri: str, anchor: str = "") -> str:
    slug, tail = slug_of(phase_iri)
    return f"/read/{slug}/{int(tail.rsplit('/', 1)[-1])}" + (f"#{anchor}" if anchor else "")


class Readings:
    """The reading view's data per dataset version: rites, tables of contents, phases."""

    def __init__(self, store, size: int = 128):
        self.store = store
        self.size = size
        self._phases: OrderedDict = OrderedDict()
        self._tocs: dict = {}
        self._rites: list[dict] | None = None
        self._terms: dict[str, str] | None = None
        self.roles: dict[str, str] = {}
        self.pages: dict[tuple[str, int], str] = {}
        self._lock = threading.Lock()

    def _ask(self, name: str, **bindings):
        from rdflib import URIRef  # with the first page that needs it: not on the start path

        terms = {k: URIRef(v) for k, v in bindings.items()}
        return self.store.query(service_query(name), terms).rows

    def rites(self) -> list[dict]:
        if self._rites is None:
            rows = self._ask("read-rites")
            self._rites = [
                {
                    "slug": r["rite"].value.rsplit("/", 1)[-1],
                    "iri": r["rite"].value,
                    "label": r["label"].value,
                    "en": r["en"].value if "en" in r else "",
                    "chapter": int(r["chapter"].value) if "chapter" in r else None,
                    "phases": int(r["phases"].value),
                }
                for r in rows
            ]
        return self._rites

    def rite(self, slug: str) -> dict:
        for rite in self.rites():
            if rite["slug"] == slug:
                return rite
        abort(
            404,
            f"no rite {slug!r} in this dataset (rites: "
            f"{', '.join(r['slug'] for r in self.rites())})",
        )

    def terms(self) -> dict[str, str]:
        """The English label of every person, thing and place by each of its Chinese names
        (洗 → "washing basin"), for the places the text gives relative to them."""
        if self._terms is None:
            self._terms = {r["label"].value: r["en"].value for r in self._ask("read-terms")}
        return self._terms

    def toc(self, slug: str) -> list[dict]:
        if slug not in self._tocs:
            rite = self.rite(slug)
            self._tocs[slug] = [
                {
                    "iri": r["phase"].value,
                    "index": int(r["index"].value),
                    "label": r["label"].value,
                    "en": r["en"].value if "en" in r else "",
                    "clauses": int(r["clauses"].value) if "clauses" in r else 0,
                    "events": int(r["events"].value) if "events" in r else 0,
                    "obligations": int(r["obligations"].value) if "obligations" in r else 0,
                    "url": reading_url(r["phase"].value),
                }
                for r in self._ask("read-toc", rite=rite["iri"])
            ]
        return self._tocs[slug]

    def phase(self, slug: str, index: int) -> PhaseReading:
        key = (slug, index)
        with self._lock:
            if key in self._phases:
                self._phases.move_to_end(key)
                return self._phases[key]
        reading = self._read_phase(slug, index)
        with self._lock:
            self._phases[key] = reading
            while len(self._phases) > self.size:
                self._phases.popitem(last=False)
        return reading

    def _read_phase(self, slug: str, index: int) -> PhaseReading:
        toc = self.toc(slug)
        entry = next((t for t in toc if t["index"] == index), None)
        if entry is None:
            abort(404, f"{slug} has no phase {index}")
        phase = entry["iri"]
        clauses: dict[str, Clause] = {}
        for r in self._ask("read-clauses", phase=phase):
            c = clauses.setdefault(r["clause"].value, Clause(r["clause"].value, r["text"].value))
            if "page" in r and r["page"].value not in c.pages:
                c.pages.append(r["page"].value)
        events = _events(self._ask("read-events", phase=phase))
        for e in events.values():
            for key in ("location", "source", "destination", "via"):
                if f"{key}Text" in e.texts:
                    english = place_english(e.texts[f"{key}Text"], self.terms(), relative_words())
                    e.texts[f"{key}TextEn"] = english
            target = clauses.get(e.clause)
            if target is not None:
                target.events.append(e)
        for r in self._ask("read-parallels", phase=phase):
            parallel_of = events.get(r["event"].value)
            if parallel_of is None:
                continue
            parallel_of.parallels.append(
                {
                    "rite": r["riteLabel"].value,
                    "phase": r["phaseLabel"].value,
                    "text": r["text"].value,
                    "url": reading_url(
                        r["otherPhase"].value,
                        slug_of(r["clause"].value)[1].replace("/", "-"),
                    ),
                }
            )
        _in_text_order(list(clauses.values()), self._text_before(toc, index))
        _place_notes(clauses, self._ask("read-notes", phase=phase))
        for r in self._ask("read-mourning", phase=phase):
            target = clauses.get(r["clause"].value)
            if target is not None:
                target.mourning.append(Mourning(*(_value(r, name) for name in _MOURNING)))
        parallel_phases = [
            {
                "rite": r["riteLabel"].value,
                "label": r["label"].value,
                "url": reading_url(r["other"].value),
            }
            for r in self._ask("read-phase-parallels", phase=phase)
        ]
        return PhaseReading(
            slug,
            index,
            entry["label"],
            entry["en"],
            list(clauses.values()),
            parallel_phases,
            toc,
        )

    def _text_before(self, toc: list[dict], index: int) -> str:
        """The text of the phase before: it names those a phase's first clauses carry on with."""
        earlier = [t["iri"] for t in toc if t["index"] < index]
        if not earlier:
            return ""
        return "".join(r["text"].value for r in self._ask("read-clauses", phase=earlier[-1]))


def _events(rows) -> dict[str, Event]:
    """Events from their facts (one row a fact), in the order of the rite."""
    events: dict[str, Event] = {}
    marks: dict[str, dict[str, str]] = {}
    for r in rows:
        iri = r["event"].value
        e = events.setdefault(iri, Event(iri, int(r["seq"].value)))
        p = r["p"].value[len(YL) :]
        o = r["o"]
        if p == "derivedFrom":
            # the clause the event is read from is the one its id names (jing-5.1.1-2)
            own = iri.rsplit("/", 1)[-1].rsplit("-", 1)[0].replace("-", "/", 1)
            if not e.clause or o.value.endswith("/" + own):
                e.clause = o.value
        elif p in ("implied", "carriedOver"):
            marks.setdefault(iri, {})[o.value[len(YL) :]] = (
                "implied" if p == "implied" else "carried"
            )
        elif p == "negated":
            e.negated = o.value == "true"
        elif p == "kind":
            e.kind = Arg(o.value, _value(r, "label"), _value(r, "en"))
        elif o.type == "uri":
            args = e.args.setdefault(p, [])
            if all(a.iri != o.value for a in args):
                args.append(Arg(o.value, _value(r, "label") or o.value, _value(r, "en")))
        else:
            e.texts[p] = o.value
    for iri, fields in marks.items():
        for prop, mark in fields.items():
            for a in events[iri].args.get(prop, []):
                a.mark = mark
    return dict(sorted(events.items(), key=lambda item: item[1].seq))


def _in_text_order(clauses: list[Clause], before: str = "") -> None:
    """Put the several agents, recipients or things of an act in the order the text names them.

    The graph keeps no order among an event's agents (several yl:agent facts), so the store's row
    order would decide whether a line reads 主人、賓 or 賓、主人. The text decides instead: the
    clause's order where the clause names them all (賓主人皆升), else the order the phase first
    named them in (揖如三耦 after 大夫…就其耦: 大夫、耦, not the 耦 of 三耦 first), then the
    phase before (``before``, its text: those carried into a phase's first clauses), then the
    label.

    >>> c = Clause("c", "賓主人皆升")
    >>> c.events.append(Event("e", 1, args={"agent": [Arg("a", "主人", "host"),
    ...     Arg("b", "賓", "guest")], "theme": [Arg("d", "耦", "pair"), Arg("f", "大夫", "")]}))
    >>> _in_text_order([Clause("p", "大夫就其耦"), c])
    >>> [[a.zh for a in args] for args in c.events[0].args.values()]
    [['賓', '主人'], ['大夫', '耦']]
    """
    phase = ""
    for clause in clauses:
        phase += clause.text
        for event in clause.events:
            for args in event.args.values():
                if all(a.zh in clause.text for a in args):
                    args.sort(key=lambda a: clause.text.index(a.zh))
                else:
                    args.sort(key=lambda a: _named_at(a.zh, phase, before))


def _named_at(label: str, phase: str, before: str) -> tuple[int, int, str]:
    """Where the phase (to this clause) first names a label, else the phase before, else nowhere;
    then the label, which keeps the order the same on every store."""
    for rank, text in enumerate((phase, before)):
        if label in text:
            return (rank, text.index(label), label)
    return (2, 0, label)


#: the columns of read-mourning.rq, in the order of Mourning's fields
_MOURNING = (
    "grade gradeEn months mourner mournerEn mourned mournedEn through throughEn condition".split()
)


def _value(row, name: str) -> str:
    return row[name].value if name in row else ""


def _place_notes(clauses: dict[str, Clause], rows) -> None:
    """Each note once, beneath the last clause of the phase that it comments on."""
    order = {iri: i for i, iri in enumerate(clauses)}
    notes: dict[str, dict] = {}
    for r in rows:
        iri = r["note"].value
        n = notes.setdefault(
            iri,
            {
                "iri": iri,
                "text": r["text"].value,
                "kind": _value(r, "kind") or "注",
                "author": _value(r, "author"),
                "order": int(_value(r, "order") or 0),
                "page": _value(r, "page"),
                "clauses": [],
            },
        )
        if r["clause"].value in order:
            n["clauses"].append(r["clause"].value)
    for n in notes.values():
        if n["clauses"]:
            last = max(n["clauses"], key=order.__getitem__)
            first = min(n["clauses"], key=order.__getitem__)
            n["span"] = (clauses[first].anchor, clauses[last].anchor, len(set(n["clauses"])))
            clauses[last].notes.append(n)
    for c in clauses.values():
        c.notes.sort(key=lambda n: (NOTE_ORDER.get(n["kind"], 9), n["iri"]))


#: characters of pages :func:`remembered` holds at most, all together (a canned page is
#: remembered per spelling of its question, and a long answer's page is megabytes)
REMEMBERED_CHARS = 64 << 20


def remembered(name: str, key, make):
    """``make()`` once per dataset version and key (pictures, pages that do not change)."""
    state = current_app.extensions["yili"]
    slot = current_app.extensions.get("yili-remembered")
    if slot is None or slot[0] != state.version:
        slot = (state.version, {}, [0])
        current_app.extensions["yili-remembered"] = slot
    store: dict = slot[1]
    held: list[int] = slot[2]
    found = store.get((name, key))
    if found is None:
        found = make()
        size = len(found) if isinstance(found, str | bytes) else 0
        # bounds on memory, by count and by size: start again
        if len(store) > 256 or held[0] + size > REMEMBERED_CHARS:
            store.clear()
            held[0] = 0
        if size <= REMEMBERED_CHARS:
            store[(name, key)] = found
            held[0] += size
    return found


def readings() -> Readings:
    state = current_app.extensions["yili"]
    found = current_app.extensions.get("yili-readings")
    if found is None or found[0] != state.version:
        found = (state.version, Readings(state.store))
        current_app.extensions["yili-readings"] = found
    return found[1]


@bp.route("/read")
@bp.route("/read/")
def rites():
    r = readings()
    return render_template(
        "read_rites.html", rites=r.rites(), tocs={x["slug"]: r.toc(x["slug"]) for x in r.rites()}
    )


@bp.route("/read/<slug>")
def toc(slug: str):
    r = readings()
    return render_template("read_toc.html", rite=r.rite(slug), toc=r.toc(slug))


@bp.route("/read/<slug>/<phase>")
def phase(slug: str, phase: str):
    r = readings()
    if not phase.isdigit():  # a phase named by its label: 獻賓
        found = next((t for t in r.toc(slug) if t["label"] == phase), None)
        if found is None:
            abort(404, f"{slug} has no phase named {phase!r}")
        return redirect(found["url"])
    key = (slug, int(phase))
    if key not in r.pages:  # the page of a phase is the same for this version: made once
        reading = r.phase(slug, int(phase))
        r.pages[key] = render_template(
            "read_phase.html",
            rite=r.rite(slug),
            reading=reading,
            previous=reading.neighbour(-1),
            following=reading.neighbour(1),
            open_kinds=OPEN_BY_DEFAULT,
        )
    return r.pages[key]


def locate(iri: str) -> str | None:
    """The reading view's address of a clause, event, note or phase (None for anything else)."""
    rows = readings()._ask("read-locate", x=iri)
    if not rows:
        return None
    phase_iri = rows[0]["phase"].value
    anchor = ""
    if iri.rsplit("/", 2)[-2] == "event":
        anchor = iri.rsplit("/", 1)[-1]
    elif "clause" in rows[0]:
        anchor = slug_of(rows[0]["clause"].value)[1].replace("/", "-")
    return reading_url(phase_iri, anchor)


@bp.route("/read/at/<path:path>")
def at(path: str):
    """/read/at/xiangshe/jing/5.1.1 → the phase of that clause, at the clause."""
    url = locate(ID + path)
    if url is None:
        abort(404, f"{ID + path} is not read in any phase")
    return redirect(url)


def entity_reading(iri: str) -> tuple[str | None, str]:
    """(the reading view's address, an HTML block) for an entity page: a clause or an event
    with its clause's characters, events and notes; a phase's events in order; a role's acts
    by rite and phase. ("", "") for anything else."""
    if not iri.startswith(ID):
        return None, ""
    tail = slug_of(iri)[1]
    if iri.startswith(ID + "role/"):
        roles = readings().roles
        if iri not in roles:  # remembered: a role's acts are the same for this version
            roles[iri] = _role_acts(iri)
        return None, roles[iri]
    if not re.match(r"(jing|ji|event|phase|commentary)/", tail):
        return None, ""
    url = locate(iri)
    if url is None:
        return None, ""
    slug, rest = url[len("/read/") :].split("/", 1)
    index, _, anchor = rest.partition("#")
    reading = readings().phase(slug, int(index))
    phase_url = url.split("#")[0]
    clause = None
    if anchor:
        clause_anchor = anchor.rsplit("-", 1)[0] if tail.startswith("event/") else anchor
        clause = next((c for c in reading.clauses if c.anchor == clause_anchor), None)
    html = render_template(
        "read_entity.html",
        reading=reading,
        clause=clause,
        phase_url=phase_url,
        rite_label=readings().rite(slug)["label"],
        open_kinds=OPEN_BY_DEFAULT | {"音義", "疏", "考證", "引文"},
    )
    return url, html


def _role_acts(iri: str) -> str:
    r = readings()
    rows = r._ask("read-role", role=iri)
    if not rows:
        return ""
    phases: dict[str, dict] = {}
    for row in rows:
        phase_iri = row["phase"].value
        if phase_iri not in phases:
            slug = slug_of(phase_iri)[0]
            entry = next((t for t in r.toc(slug) if t["iri"] == phase_iri), None)
            if entry is None:
                continue
            phases[phase_iri] = {**entry, "slug": slug, "acts": [], "seen": set()}
        phase = phases[phase_iri]
        if row["event"].value in phase["seen"]:
            continue
        phase["seen"].add(row["event"].value)
        phase["acts"].append(
            {
                "kind": row["kind"].value,
                "negated": _value(row, "negated") == "true",
                "text": _value(row, "text"),
                "url": reading_url(phase_iri, row["event"].value.rsplit("/", 1)[-1]),
            }
        )
    grouped = []
    for rite in r.rites():  # rites in chapter order, phases in their order
        listed = sorted(
            (p for p in phases.values() if p["slug"] == rite["slug"]), key=lambda p: p["index"]
        )
        for p in listed:
            p["count"] = len(p["acts"])
        if listed:
            grouped.append((rite["label"], listed))
    return render_template("read_entity.html", acts=grouped, reading=None, clause=None)
