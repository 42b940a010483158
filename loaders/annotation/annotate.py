"""The automatic annotator: clauses → events (who does what, to whom, with what, where).

A rule-based reader of ritual prose, following ``docs/annotation.md``. Each clause is cut
into tokens by longest match against the ontology's labels
(:mod:`yili_kg.loaders.terms.lexicon`) and a small set of function words (于 自 由 以 與 及 不
…); a left-to-right pass then builds one event per verb, giving it the subject named before
the verbs, the places and facings named before it, the objects and persons after it and the
phrases its prepositions introduce.
Context across clauses — the subject carried over, the other party of a bow, a pending
condition, the command just given — lives in :class:`Context`.

>>> [format_event(e) for e in annotate_text(["主人坐取爵于上篚", "以降", "賓降"])[0]]
['坐 agent=主人', '取 agent=主人 theme=爵 from=上篚']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rdflib import URIRef

from yili_kg.loaders.annotation.annotations import (  # noqa: F401 (doctest)
    Event,
    Record,
    format_event,
    format_events,
    paragraph_of,
    sentence_of,
)
from yili_kg.loaders.annotation.discourse import (
    Context,
    carry,
    distinct_parties,
    is_generic_sentence,
    remember,
)
from yili_kg.loaders.annotation.rules import one_word, rule_named, rules, word_class, word_values
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.lexicon import Lexicon, default_lexicon, lexicon_for
from yili_kg.loaders.terms.tokens import Token, leading_roles, tokenize  # noqa: F401 (tokens)
from yili_kg.loaders.terms.words import is_function_word
from yili_kg.loaders.variants import read_as_base
from yili_kg.loaders.witnesses.texts import Passage, recut

#: the chapter's title (鄉射之禮, 士相見之禮), the first clause of every rite: no event
TITLE_CLAUSE = "jing/1.1.1"


class ClauseReader:
    """Reads one clause into events (a left-to-right pass over its tokens)."""

    def __init__(self, lexicon: Lexicon, context: Context):
        self.lex = lexicon
        self.ctx = context
        self.events: list[Event] = []
        self.subjects: list[str] = []
        self.at: list[str] = []
        self.face: str | None = None
        self.manner: str | None = None
        self.neg = False
        self.not_yet = False  # 未: the act not yet done is the background of another's (rule 7)
        self.count: int | None = None
        self.prep: str | None = None
        self.topic: list[str] = []  # objects named before the verb (矢在弓下)
        self.joined = False  # the last role was joined by 、/與/及 to the subjects
        self.stop = False
        self.upper: str | None = None
        self.possessed = False
        self.person_pronoun: Event | None = None
        self.content_done = False
        self.for_whom: tuple[str, ...] = ()
        self.played = False
        self.joined_by = ""  # the clause is about someone's things (no agent named)
        self.at_marked = False  # a place introduced by 當 or 于 (a modifier clause may add it)
        self.assisting = False  # 膳宰贊授肺: the clause's acts help another's (rule assisting)
        self.helped_named = False  # 宰夫贊主人酌: the one helped named (rule assisting)
        self.with_: list[str] = []  # 以賓 / 與司射 before the verb
        self.before: dict[str, str] = {}  # 自X / 由X before the verb
        self.all_ = False  # 皆 before the first act
        self.led: list[str] = []  # 以賓: the persons the subject leads
        self.next_agent: tuple[str, ...] = ()  # a subject named after the clause's first acts
        self.side: str | None = None  # 于右 ending a clause: a side, for rule elided-act
        self.places_left: tuple[str, ...] = ()  # the places a verbless clause left for this one
        self.carry = False  # 以降: the next act goes away with the thing in hand (carried-off)
        self.carried: list[Event] = []  # the acts that carry it (rule thing-in-hand)
        self.relayed = ""  # 君曰…: the ruler's words, said by the one commanding (relayed-words)
        self.words_named = False  # 醴辭曰…: the words named, a formula of their own (named-words)
        self.relative = False  # 司射所作: 所 + an act, a noun phrase (rule nominal-sentence)
        self.text = ""  # the clause read
        self.tokens: tuple[Token, ...] = ()  # its tokens as read, before any token rule merged them

    # -- helpers ---------------------------------------------------------------------------
    def is_a(self, kind: str, *ancestors: str) -> bool:
        return any(self.lex.is_a(kind, a) for a in ancestors)

    def verb_here(self, tokens: list[Token], i: int) -> bool:
        """Whether the token is read as a verb: an action not in object position."""
        token = tokens[i]
        if "action" not in token.kinds:
            return False
        if i > 0 and tokens[i - 1].text in word_class("nominal"):
            return False  # 其薦, 諸觶: a thing, not an act
        before = word_values("object-after").get(token.text, "")
        if i > 0 and tokens[i - 1].text in before.split(","):
            return False  # 相旅: the round directed, not a second act
        if len(token.kinds) == 1:
            return True
        if self.dress_named(tokens, i):
            return False
        if self.prep is not None:
            return False
        last = self.events[-1] if self.events else None
        previous = tokens[i - 1] if i > 0 else None
        after = word_values("verb-after").get(token.text, "")
        if previous is not None and previous.text in after.split(","):
            return True  # 盥洗, 降洗, 袒決: a verb after these verbs, not their object
        if last is not None and previous is not None and "action" in previous.kinds:
            # 適洗, 設洗, 說束, 作相: after a verb, the word is its object; but a person's name
            # that is also an act, with a thing right after it, is that act on the thing
            # (公食大夫禮 擯者進相幣: he assists with the gift, 注: 為君釋幣辭於賓)
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            return "role" in token.kinds and nxt is not None and nxt.kinds.keys() == {"object"}
        relative = (*word_class("compass"), one_word("genitive"))  # X東 …, X之Y: a noun
        if self.dressed_facing(tokens, i):
            return True
        if i + 2 == len(tokens) and tokens[i + 1].text == one_word("genitive"):
            return True  # 遂薦之: 之 ends the clause, the one it is done to, not X之Y
        if i + 1 < len(tokens) and tokens[i + 1].text in relative:
            return "place" not in token.kinds and "object" not in token.kinds
        return True

    def dressed_facing(self, tokens: list[Token], i: int) -> bool:
        """少牢饋食禮 宗人朝服北面: a dress worn (yl:namesThing, 朝服) before a compass word and
        面 is the wearing, with his facing, not a place 朝服北."""
        act = tokens[i].of("action")
        return act is not None and self.lex.has(act, "namesThing") and faces_next(tokens, i + 1)

    def dress_named(self, tokens: list[Token], i: int) -> bool:
        """皮弁服, 爵弁皮弁緇布冠: a word that is a thing and the act of wearing it (yl:namesThing:
        侯氏裨冕, 賓皮弁聘) is the thing before that act or another thing (皮弁笄), or in a list of
        things that opens its clause (not 使大夫各以其爵朝服: his rank, then the dress he wears)."""
        token = tokens[i]
        act = token.of("action")
        if "object" not in token.kinds or not act or not self.lex.has(act, "namesThing"):
            return False
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        previous = tokens[i - 1] if i else None
        if nxt is not None and (nxt.of("action") == act or nxt.kinds.keys() == {"object"}):
            return True  # 皮弁服; 皮弁笄: the pin of the 皮弁
        return i == 1 and previous is not None and previous.kinds.keys() == {"object"}

    def new_event(self, kind: str) -> Event:
        event = Event(kind)
        if self.at:
            event.set("at", self.at)
        if self.face:
            event.set("face", self.face)
        if self.manner:
            event.set("manner", self.manner)
            self.manner = None
        if self.neg:
            event.set("neg", "1")
            if self.not_yet:
                event.fields["_not_yet"] = ("1",)  # not the subject to resume (discourse)
            self.neg = self.not_yet = False
        if self.count:
            event.set("count", str(self.count))
            self.count = None
        if self.ctx.condition:
            event.fields["cond"] = (self.ctx.condition,)
        if self.topic and (self.lex.has(kind, "state") or self.possessed):
            event.set("theme", self.topic)
        if self.with_:
            event.set("with", self.with_)
        if self.for_whom:
            event.set("to", self.for_whom)
        for key, value in self.before.items():
            if key == "theme" and self.events and not self.handles(kind):
                continue  # 受賜爵者以爵就席坐, 以旌負侯而俟: 以X goes with the acts on things
            event.set(key, value)
        if self.next_agent:
            event.fields["_agent"] = self.next_agent
        if self.carry:
            self.carried.append(event)
            self.carry = False
        self.events.append(event)
        return event

    def handles(self, kind: str) -> bool:
        """An act done on a thing, or with the cup in hand (奠, 酬), not a posture or waiting."""
        return self.lex.has(kind, "handlesThing") or self.lex.has(kind, "cupInHand")

    def place_or_object(self, token: Token) -> str:
        """The place or object a noun token names (its written form if, oddly, neither)."""
        return token.of("place") or token.of("object") or token.text

    def attach_noun(self, token: Token, tokens: list[Token], i: int) -> int:
        """A role, object or place after a verb or preposition; returns tokens consumed."""
        event = self.events[-1] if self.events else None
        text, consumed = self.noun_phrase(tokens, i)
        prep = self.prep
        self.prep = None
        role = token.of("role")
        if consumed > 1:
            self.put_place(event, prep, text)
            return consumed
        if event is None:
            self.noun_before_verb(token, role, prep)
            return 1
        if role:
            goal = self.lex.has(event.kind, "goalObject")
            moving = goal and not self.lex.has(event.kind, "roleIsRecipient")  # 進公: to=公
            if prep == "to" or (moving and prep is None):
                event.set("dest", role)  # 當上耦: the place of the first pair
            elif prep in ("with", "by"):
                event.set("with", (*event.fields.get("with", ()), role))
            elif prep == "from":
                event.set("from", role)
            else:
                event.set("to", (*event.fields.get("to", ()), role))
            return 1
        thing = self.place_or_object(token)
        obj = token.of("object")
        if obj and (prep == "by" or (prep is None and not self.lex.has(event.kind, "goalObject"))):
            event.set("theme", (*event.fields.get("theme", ()), obj))
        elif obj and prep == "with" and not token.of("place"):
            event.set("theme", (*event.fields.get("theme", ()), obj))  # 拜食與侑幣: one more thing
        elif (
            obj
            and not token.of("place")
            and prep == "at"
            and self.lex.has(event.kind, "yuDestination")
        ):
            event.set("dest", (*event.fields.get("dest", ()), obj))
        else:
            self.put_place(event, prep, thing)
        return 1

    def noun_before_verb(self, token: Token, role: str | None, prep: str | None) -> None:
        """A noun before the clause's first verb: a companion, the theme, a subject, the topic
        (矢在弓下), or where the act starts, goes or happens."""
        if role and prep in ("with", "by"):
            self.with_.append(role)
            if prep == "by":
                self.led.append(role)
        elif (obj := token.of("object")) and prep in ("by", "with"):  # 兼與筮執之: held with
            self.before["theme"] = obj
        elif role and prep == "at" and not self.subjects and self.text.endswith(token.text):
            pass  # 士喪禮 乃赴于君: the one it is done to, ending the clause, not a subject
        elif role:
            self.subjects.append(role)
        elif obj and prep is None:
            self.topic.append(obj)
        elif prep in ("from", "via"):
            self.before[prep] = self.place_or_object(token)
        else:
            self.at.append(self.place_or_object(token))

    def put_place(self, event: Event | None, prep: str | None, text: str) -> None:
        if event is None and prep in ("from", "via"):
            self.before[prep] = text  # 自弓上取一個: where it is taken from, before the verb
            return
        if event is None:
            self.at.append(text)
            return
        if prep == "to":
            event.set("dest", text)
        elif prep == "from" or (prep == "at" and self.lex.has(event.kind, "yuSource")):
            event.set("from", text)
        elif prep == "via":
            event.set("via", text)
        elif prep == "at" and self.lex.has(event.kind, "yuDestinationOnly"):
            event.set("dest", text)  # 婦徹于房中 (徹室中之饌: at)
        elif prep in ("at", None) and self.lex.has(event.kind, "yuDestination"):
            if "to" in event.fields and self.lex.has(event.kind, "yuPlaceWithRecipient"):
                event.set("at", (*event.fields.get("at", ()), text))  # 授有司于次中: where
            else:
                event.set("dest", text)
        elif prep is None and self.lex.has(event.kind, "goalObject"):
            event.set("dest", text)  # 就物, 履物: the thing gone to or stepped on, no 于
        else:
            event.set("at", (*event.fields.get("at", ()), text))

    def noun_phrase(self, tokens: list[Token], i: int) -> tuple[str, int]:
        """X之Y / X東南 … : a place written relative to a person or thing (one or more tokens),
        with the distance written after it (侯西北三步, 堂前三笴: a numeral and a measure; not
        after a thing alone: 退于物一笴, how far he steps back from the mark).

        Returns the canonical label when the phrase is a term of the ontology, else the text.
        """
        text, used = self.plain_phrase(tokens, i)
        j = i + used
        relative = used > 1 or tokens[i].text[-1] in word_class("relative")  # not 退于物一笴
        if relative and j + 1 < len(tokens) and tokens[j].text in word_values("numeral"):
            if tokens[j + 1].text in word_class("measure") and not tokens[j + 1].kinds:
                written = "".join(t.text for t in tokens[i : j + 2])
                return written, used + 2
        return text, used

    def plain_phrase(self, tokens: list[Token], i: int) -> tuple[str, int]:
        """X之Y / X東南 …, without a distance after it (noun_phrase)."""
        token = tokens[i]
        j = i + 1
        text = token.text
        if j < len(tokens) and tokens[j].text == one_word("genitive") and j + 1 < len(tokens):
            after = tokens[j + 1]
            if (
                after.text in word_class("relative")
                or ("place" in after.kinds and "role" in token.kinds)
            ) and not _late_comers(token, tokens[j + 2 : j + 3]):
                return self.known_place(text + tokens[j].text + after.text), 3
        used = 1
        facing = (*rule_named("facing").words["face"], rule_named("upper").word("upper"))  # 面鄉上
        while (
            j < len(tokens)
            and set(tokens[j].text) <= set(word_class("compass"))
            and used < 3
            and not (j + 1 < len(tokens) and tokens[j + 1].text in facing)
        ):
            text += tokens[j].text
            used += 1
            j += 1
        if used == 1 and j < len(tokens) and self.suffix_place(tokens, j):
            return self.known_place(text + tokens[j].text), 2  # 矢在弓下, 奠爵于篚下, 筵前受爵
        if used > 1:
            return self.known_place(text), used
        label = token.of("role") or self.place_or_object(token) or text
        return label, 1

    def suffix_place(self, tokens: list[Token], j: int) -> bool:
        """篚下, 弓下, 筵前, 户内: a word of place after the thing or place before it (tokens[j]),
        at the end of the clause or before its first act; 内 only after a place (户内, not
        以巾内拂矢: wiping inward), and before a facing too (户内西面, 户内北面拜)."""
        token, word = tokens[j - 1], tokens[j].text
        if word in word_class("place-inside"):
            if not token.of("place"):
                return False
            if faces_next(tokens, j + 1):
                return True
        elif word not in word_class("place-suffix") or not token.kinds.keys() & {"object", "place"}:
            return False
        return j + 1 >= len(tokens) or (not self.events and "action" in tokens[j + 1].kinds)

    def known_place(self, text: str) -> str:
        return self.lex.forms["place"].get(text, text)

    # -- the pass --------------------------------------------------------------------------
    def read(self, text: str) -> list[Event]:
        tokens = tokenize(text, self.lex)
        self.text, self.tokens = text, tuple(tokens)
        i = 0
        while i < len(tokens) and not self.stop:
            i += self.step(tokens, i)
        return self.finish(text)

    def step(self, tokens: list[Token], i: int) -> int:
        """The first token rule that applies to ``tokens[i]``; the tokens it consumed."""
        for rule in rules("token"):
            used = rule.apply(self, tokens, i, rule)
            if used is not None:
                self.ctx.trace.append(rule.id)
                return used
        return 1

    def place_here(self, text: str) -> None:
        """``text`` is where the act happens: on the last event, or kept for the next verb."""
        if self.events:
            self.put_place(self.events[-1], self.prep, text)
        elif self.prep in ("via", "from"):
            self.before[self.prep] = text
        else:
            self.at.append(text)
            self.at_marked = True
        self.prep = None

    def group_just_named(self) -> str | None:
        """The group that a 一人 without a subject is one of: the last group acted on (主人獻工，
        一人拜) or acting."""
        for _, earlier in reversed(self.ctx.history[-3:]):
            for key in ("to", "agent"):
                groups = [r for r in earlier.fields.get(key, ()) if self.lex.has(r, "collective")]
                if groups:
                    return groups[0]
        return None

    def governs(self, tokens: list[Token], i: int) -> bool:
        """Whether the role at ``i`` belongs to the act before it although a verb follows:
        commands and requests (命弟子納射器, 使人速, 作相為司正, 請公命), 如 (如賓酬),
        視上射命, 厭衆賓升, 俟三耦卒射, 授獲者退, movements (就士旅食), a list (舉觶于賓介)
        and the person offered to (獻釋獲者).

        Otherwise a role between two acts is the subject of the second (賓拜受，大夫拜送 and
        卒歌，主人獻工 cut by the 句讀 as 大夫拜受賓拜送, 歌主人獻工)."""
        last = self.events[-1].kind
        if (
            self.is_a(last, self.lex.label(YL.Speech))
            or self.lex.has(last, "governsAct")
            or self.lex.has(last, "goalObject")
        ):
            return True  # 就士旅食: where the host goes
        if (
            tokens[i - 1].of("role")
            or "and" in tokens[i - 1].kinds  # 、, the mark joining two (tokens.py)
            or tokens[i - 1].text in rule_named("one-more").words["and"]
        ):
            return True  # 舉觶于賓介洗, 獻工與笙: one more of the persons named
        person = self.lex.has(last, "offering") or self.lex.has(last, "personObject")
        return person and "action" in tokens[i - 1].kinds

    def possessive(self, tokens: list[Token], i: int) -> int:
        """X之Y: the Y of X (主人之弓矢, 勝者之弟子, 賓與大夫之弓); X is not the agent."""
        head = tokens[i + 2]
        if (role := head.of("role")) and not head.of("object"):
            if not self.events:
                self.subjects = [role]
            return 3
        thing = self.place_or_object(head)
        if self.events:
            self.events[-1].set("theme", (*self.events[-1].fields.get("theme", ()), thing))
        else:
            self.subjects = []  # 賓與大夫之弓倚于西序: the bows are the topic
            self.topic.append(thing)
            self.possessed = True
        return 3

    def set_face(self, direction: str) -> None:
        self.face = direction
        for event in self.events:
            if self.lex.has(event.kind, "takesLaterFacing") and "face" not in event.fields:
                event.set("face", direction)

    def like(self, tokens: list[Token], i: int, like: str) -> int:
        """如X: the procedure referred to, on every act of the clause (or one act 如)."""
        rest = "".join(t.text for t in tokens[i:])
        phrase = rest[rest.index(like) + 1 :] if like in rest else rest
        verbs = [e for e in self.events if not e.modifier]
        before = "".join(t.text for t in tokens[:i])
        if verbs:
            for event in verbs:
                event.set("like", phrase)  # set() leaves out an empty phrase (a clause ending 如)
                # the words of the act done again, from its verb on (rule like-before)
                event.set("_like_core", before[max(before.find(event.kind), 0) :])
        else:
            event = self.new_event(like)
            event.set("like", phrase)
        return len(tokens) - i

    def pronoun(self) -> None:
        """之 after a verb: the thing (or, after 酬/獻/送/從, the person) referred to. A thing 之
        stands for is written unmarked: 之 is in the text (convention settled 2026-12-06)."""
        event = self.events[-1]
        if "theme" in event.fields or "to" in event.fields:
            return
        if self.lex.has(event.kind, "personObject"):
            self.person_pronoun = event
            return
        if self.ctx.condition and self.ctx.cond_things:  # 凡挾矢，於二指之間橫之: the arrows
            event.set("theme", self.ctx.cond_things)
            return
        worn = self.lex.label(YL.Dress)  # 宰夫朝服。牽牛以致之: not the dress he put on
        named, at, sentence = self.ctx.named_things
        since = at if named and sentence == self.ctx.sentence else None
        listed = self.ctx.listed[1]  # 米百筥，設于門外: not the silk handled before the list
        start = max(since or 0, listed, self.ctx.unnamed_at, len(self.ctx.history) - 6)
        recent = self.ctx.history[start:]  # 取肝…嚌之: the liver, not the cup held before
        for _, earlier in reversed([*recent, *(("", e) for e in self.events[:-1])]):
            if "theme" in earlier.fields and not self.in_hand(earlier):
                if self.is_a(earlier.kind, worn):
                    continue
                event.set("theme", tuple(dict.fromkeys(earlier.fields["theme"])))
                return
        if since is not None:  # 記 楅，髹，橫而拳之: the thing named alone since
            event.set("theme", named)

    def in_hand(self, event: Event) -> bool:
        """Whether the event's theme is only the thing taken to be in hand (rule thing-in-hand),
        which a pronoun does not refer to."""
        return event.marks.get("theme") == "?" and self.lex.has(event.kind, "handlesThing")

    def speech(self, content: str) -> None:
        if not content:  # 「」 or a 「 left open at the end: nothing is said
            return
        last = self.events[-1] if self.events else None
        if (
            last is not None
            and self.is_a(last.kind, self.lex.label(YL.Speech))
            and "say" not in last.fields
        ):
            last.fields["say"] = (content,)
            return
        event = self.new_event(self.lex.label(YL.Yue))
        event.fields["say"] = (content,)

    def verb(self, kind: str, tokens: list[Token], i: int) -> None:
        """A verb: the first verb rule that handles it (most make a new event)."""
        self.prep = None
        for rule in rules("verb"):
            if rule.apply(self, kind, tokens, i, rule):
                self.ctx.trace.append(rule.id)
                return

    # -- after the pass --------------------------------------------------------------------
    def other_party(self, event: Event) -> tuple[str, ...]:
        mine = set(event.agent)
        staff = {self.lex.label(YL.Officiant), self.lex.label(YL.Attendant)}  # 司事者, 執事
        partners = tuple(
            p for p in self.ctx.partners if not self.lex.role_classes.get(p, frozenset()) & staff
        )
        if partners and set(self.ctx.agent) == mine:
            return partners
        implied = rule_named("implied-recipient")
        stance = implied.words["stance"]  # 立
        if self.ctx.topic_role:  # 士…則不敢顧辭，遂出。大夫則辭: to the one the other did not
            for _, earlier in reversed(self.ctx.history[-4:]):
                if (
                    earlier.kind == event.kind
                    and earlier.get("to")
                    and not set(earlier.agent) & mine
                ):
                    return tuple(earlier.fields["to"])
        for pid, earlier in reversed(self.ctx.history[-40:]):
            if self.lex.has(earlier.kind, "notCarried") or self.lex.has(earlier.kind, "noParty"):
                continue  # (為, 在; 踊, 哭: done toward no one, no party to an exchange)
            if earlier.kind in stance and "at" in earlier.fields:
                continue  # 大夫立于東夾南…士立于門東: the order of the court, no party to it
            if _passed_over(self, earlier, event, staff, implied):
                continue  # 小臣辭 / 擯者進 … 再拜: not the one bowed to
            agents = set(earlier.agent)
            if agents and not agents & mine:
                return tuple(earlier.agent)
            if agents & mine and "to" in earlier.fields:
                if not earlier.marks.get("to") or sentence_of(pid) == self.ctx.sentence:
                    return tuple(earlier.fields["to"])
        return ()

    def lists_things(self) -> bool:
        """鼎二七, 堂上八豆, 米百筥, 腥二牢: a clause with no act that counts things, named by a
        term or by a word the ontology does not name: the thing in hand before is no longer the
        one at hand (rule thing-in-hand; 聘禮)."""
        tokens = self.tokens
        numerals = word_values("numeral")
        if any(t.of("action") for t in tokens):
            return False

        def thing(k: int, after: bool) -> bool:  # a term of a thing, or after the numeral a word
            if not 0 <= k < len(tokens) or tokens[k].text in numerals:  # no term nor function word
                return False
            if tokens[k].text in word_class("measure") or is_function_word(tokens[k].text):
                return False  # 長三尺: a measure; 振之三: how many times
            return bool(tokens[k].of("object")) or (after and not tokens[k].kinds)

        return any(
            t.text in numerals and (thing(n - 1, False) or thing(n + 1, True))
            for n, t in enumerate(tokens)
        )

    def names_only(self) -> bool:
        """楅, 鹿中, 綌冪: a clause that only names a thing (and words no term, before it), no
        number, place or facing (鑿背容八算 describes it)."""
        tokens = self.tokens
        numerals = word_values("numeral")
        return (
            not (self.at or self.face or self.before)
            and bool(tokens)
            and bool(tokens[-1].of("object"))
            and all(t.of("object") or not (t.kinds or t.text in numerals) for t in tokens)
        )

    def modifier(self) -> list[Event]:
        """A clause with places or facings but no verb adds them to the previous event."""
        event = Event("", modifier=True)
        if self.face:
            event.set("face", self.face)
        if self.at and self.at_marked:
            event.set("at", self.at)
        for key, value in self.before.items():
            event.set(key, value)
        if self.upper:
            event.set("upper", self.upper)
        if self.relayed:
            event.fields["say"] = (self.relayed,)  # 皆命。君曰無不醉: what he commanded
        return [event] if event.fields else []

    def finish(self, text: str) -> list[Event]:
        """After the pass: a verbless clause, the agents, then the clause rules in order."""
        if not self.events:
            return self.verbless()
        subjects = self.pending_subjects(tuple(dict.fromkeys(self.subjects)))
        for index, event in enumerate(self.events):
            self.assign_agent(index, event, subjects, text)
        for rule in rules("clause"):
            if rule.apply(self, subjects, rule):
                self.ctx.trace.append(rule.id)
        if self.assisting:
            for event in self.events:
                event.fields["_aside"] = ("1",)  # not carried on (discourse.remember)
        return self.events

    def verbless(self) -> list[Event]:
        """A clause with no verb: its subjects and places wait for the next clause, or its
        places and facings add to the previous event (a ``+`` record)."""
        ctx = self.ctx
        for rule in rules("verbless"):  # 司馬正東面: where he stands; 洗南: where he was
            if rule.apply(self, tuple(dict.fromkeys(self.subjects)), rule):
                ctx.trace.append(rule.id)
                return self.events
        if not self.subjects and self.lists_things():  # 鼎二七, 米百筥: the things at hand now
            ctx.listed = (tuple(self.topic), len(ctx.history), ctx.paragraph)
        if not self.subjects and self.at and not self.face and not (self.before or self.upper):
            ctx.pending = ((), tuple(self.at))  # 西階上，北面作衆賓射: the next act's place
            ctx.pending_at = ctx.clauses
            ctx.pending_sentence = ctx.sentence
            return []
        if not self.subjects:
            if self.topic and self.names_only():  # 記 楅，髹，橫而拳之: a thing named alone
                ctx.named_things = (tuple(self.topic), len(ctx.history), ctx.sentence)
            return self.modifier()
        # 主人阼階之東，南面辭洗 / 賓、 cut from their verb: the subjects of consecutive
        # verbless clauses add up; not across a clause between (執冪者，反冪。主人筵，前獻賓)
        follows = ctx.pending and ctx.pending_at == ctx.clauses - 1
        before = ctx.pending[0] if follows and ctx.pending else ()
        ctx.pending = (tuple(dict.fromkeys((*before, *self.subjects))), tuple(self.at))
        ctx.pending_at = ctx.clauses
        ctx.pending_sentence = ctx.sentence
        return []

    def pending_subjects(self, subjects: tuple[str, ...]) -> tuple[str, ...]:
        """The subjects (and places) a verbless clause just before left for this one."""
        if not subjects and self.ctx.pending:
            subjects, places = self.ctx.pending
            subjects = tuple(subjects)
            self.places_left = tuple(places)
            for event in self.events:
                if places and "at" not in event.fields:
                    event.set("at", places)
                if self.ctx.pending_face and "face" not in event.fields:
                    event.set("face", self.ctx.pending_face)
                    self.ctx.trace.append("stance-ahead")  # the rule left it for this act
        if self.ctx.pending_to:
            for event in self.events:
                if self.lex.has(event.kind, "impliedRecipient") and "to" not in event.fields:
                    event.set("to", self.ctx.pending_to, "?")
                    self.ctx.trace.append("toward-whom")  # the rule left it for this act
        self.ctx.pending = None
        self.ctx.pending_face = None
        self.ctx.pending_to = ()
        return subjects

    def assign_agent(self, index: int, event: Event, subjects: tuple[str, ...], text: str):
        """The clause's subjects, the first event's agent, or the discourse pass's."""
        if self.lex.has(event.kind, "state"):
            if subjects:
                event.set("agent", subjects)  # 上射在左: where a person stands
            else:
                event.fields["noagent"] = ("state",)
        elif (self.possessed or (self.topic and index == 0)) and not subjects:
            if self.topic and "theme" not in event.fields:
                event.set("theme", self.topic)  # 衆弓倚于堂西: the bows are leaned
            fronted = rule_named("fronted-object")  # 矢不挾: the archers' arrows, carried on
            held = rule_named("held-things-set")  # 匕皆加于鼎: by those who held the 匕
            if not self.possessed and fronted.apply(self, event, text, fronted):
                self.ctx.trace.append(fronted.id)
            elif not self.possessed and held.apply(self, event, text, held):
                self.ctx.trace.append(held.id)
            else:
                event.fields["noagent"] = ("unstated",)
        elif subjects:
            if "noagent" not in event.fields:  # 公樂作而后就物: the music, no one, is played
                event.set("agent", subjects)
        elif index > 0 and self.events[0].agent:
            event.set("agent", self.events[0].agent, self.events[0].marks.get("agent", ""))
        else:
            carry(self, event, text)

    def all_of(self, agents: tuple[str, ...], kind: URIRef) -> bool:
        """Whether every one of ``agents`` is a role of the class ``kind`` (yl:Archer …)."""
        return all(self.lex.label(kind) in self.lex.role_classes.get(a, ()) for a in agents)

    def archers(self, agents: tuple[str, ...]) -> bool:
        return self.all_of(agents, YL.Archer)

    def officiants(self, agents: tuple[str, ...]) -> bool:
        return any(self.lex.label(YL.Officiant) in self.lex.role_classes.get(a, ()) for a in agents)


def faces_next(tokens: list[Token], k: int) -> bool:
    """A compass word and 面 or 鄉 from ``tokens[k]`` on (北面, 西鄉): a facing (rule facing)."""
    rest = "".join(t.text for t in tokens[k : k + 2])
    return rest[:1] in word_class("compass") and rest[1:2] in rule_named("facing").words["face"]


def is_description(text: str) -> bool:
    """A clause that measures or places a thing (南北以堂深, 東西當東榮; 楅長如笴: its length),
    lists the pieces played (周南關雎葛覃卷耳), or is only the way things are laid out (南陳;
    after an adverb too: 皆進下, 亦進下):
    no act."""
    return (
        text.startswith(word_class("description"))
        or text.startswith(word_class("pieces"))
        or text in word_class("arrangement")
        or (text[:1] in word_class("adverb") and text[1:] in word_class("arrangement"))
        or any(word in text[1:] for word in word_class("length"))
    )


def _says_who(text: str, lexicon: Lexicon, ctx: Context) -> bool:
    """記 羞卿者，小膳宰也; 凡薦與羞者，小膳宰也: X者 before a clause that is only a person and
    也 says who does X (注: 膳宰之佐也): a description, no act of the X者."""
    rest = ctx.rest_of_sentence
    if not (
        text.endswith(one_word("said-who")) and rest and rest[0].endswith(one_word("said-who-end"))
    ):
        return False
    tokens = tokenize(rest[0][: -len(one_word("said-who-end"))], lexicon)
    return bool(tokens) and all(t.of("role") for t in tokens)


def is_condition(text: str) -> bool:
    """A clause that only states a condition (若矢不備; 大夫若有遵者)."""
    plain = re.sub(r"「.*?」", "", text)  # 「…」: the edition's quotation marks, what is said
    if_, then = rule_named("if").word("if"), one_word("condition-then")  # 若, 則
    return if_ in plain and then not in plain


def _so_like(text: str) -> bool:
    """若是者三, 若是以授尸, 衆皆若是: 若是 is 如是, 'so' (rule so-like), not a condition, unless
    a clause with 則 follows it in the sentence (喪服 傳 若是，則生養之: 'if so')."""
    so = rule_named("so-like").word("so")
    return so in text and text != so


def quote_unmarked(text: str, lexicon: Lexicon | None = None) -> str:
    """X曰Y in a text without quotation marks (the Kanripo 經): Y is what is said, to the end
    of the clause (大射儀 司射命上射曰某御於子 → 命…曰「某御於子」)."""
    yue = (lexicon or default_lexicon()).label(YL.Yue)  # 曰; 「」 are the edition's marks
    if "「" in text or yue not in text:
        return text
    head, _, said = text.partition(yue)
    if any(word in head for word in rule_named("unmarked-speech").words["speech-words"]):
        return text  # 寡君固曰不腆，使某固以請: 曰 inside the words said (rule unmarked-speech)
    return f"{head}{yue}「{said}」" if said else text


def annotate_clause(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> Record:
    """One clause's record, updating the context for the next clause."""
    record_text, text = text, quote_unmarked(text, lexicon)
    _begin_clause(pid, text, lexicon, ctx)
    if is_description(text) or _says_who(text, lexicon, ctx):
        return Record(pid, record_text, [], reason="description")
    if (
        (is_condition(text) and not _so_like(text))
        or _followed_by_ze(pid)
        or _generic_condition(pid, text, lexicon, ctx)
        or _generic_case(pid, text, lexicon, ctx)
        or _presence_condition(text, lexicon, ctx)
        or _command_case(text, lexicon, ctx)
        or _arrival_head(pid, text, lexicon, ctx) == (text, "")
    ):
        _condition(pid, text, lexicon, ctx)
        return Record(pid, record_text, [], reason="cond")
    then = one_word("condition-then")  # 則
    body = text.split(then, 1)[1] if then in text and text.index(then) < 4 else text
    case = text[: len(text) - len(body) - len(then)] if body != text else ""
    if case and not ctx.topic_role:  # (the persons _begin_clause found before 則: none)
        ctx.condition = case  # 十純則縮而委之, 豫則鈎楹内: the case the act is for (cond=十純)
    head, body = _temporal_head(pid, body, lexicon)
    if not head:
        head, body = _arrival_head(pid, body, lexicon, ctx)
    if head:
        ctx.condition = head  # 記 既舉觶而薦諸其位: once he has raised it, the dishes
    ctx.clauses += 1
    events = ClauseReader(lexicon, ctx).read(body)
    ctx.condition = None
    ctx.cond_topic = ctx.cond_subject = ctx.cond_things = ()
    for event in events:
        if not event.modifier:
            distinct_parties(event, lexicon, ctx, body)
    remember(pid, events, lexicon, ctx)
    return Record(pid, record_text, events, reason="" if events else "description")


def _begin_clause(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> None:
    """A new paragraph or sentence; X則…: the person the clause is about."""
    paragraph = paragraph_of(pid)
    sentence = sentence_of(pid)
    ctx.texts[pid] = text
    ctx.openings.setdefault(paragraph, text)
    if paragraph != ctx.paragraph:
        ctx.paragraph = paragraph
        ctx.paragraph_has_agent = False
    ctx.new_sentence = sentence != ctx.sentence
    ctx.sentence = sentence
    clauses = _SENTENCES.get(sentence, ())
    ids = [c.id for c in clauses]
    ctx.ends_sentence = not ids or ids[-1] == pid
    after = ids.index(pid) + 1 if pid in ids else len(ids)
    ctx.sentence_clauses = tuple(c.text for c in clauses) or (text,)
    ctx.rest_of_sentence = ctx.sentence_clauses[after:] if pid in ids else ()
    following = _NEXT_CLAUSE.get(pid)
    ctx.next_clause_text = following.text if following is not None else ""
    if ctx.new_sentence:
        ctx.sentence_text = "".join(c.text for c in _SENTENCES.get(sentence, ())) or text
        ctx.next_sentence_text = _next_sentence_text(sentence)
        if ctx.positive_agent and ctx.agent != ctx.positive_agent:
            ctx.agent = ctx.positive_agent  # 賓不辭洗。卒洗: the host, who did wash
        if sentence.startswith(rule_named("ji-names-no-one").word("part")):
            ctx.agent = ()  # a rule of the 記 carries no one over from the sentence before
        if is_generic_sentence(ctx.sentence_text, rule_named("generic-sentence")):
            ctx.agent = ctx.positive_agent = ()  # 凡燕見于君: a rule for anyone, as the 記's
            ctx.unnamed_party = False  # 凡執幣者: a new rule, not about the one 之 stood for
    ctx.topic_role = ()
    then = one_word("condition-then")  # 則
    if then in text[:4]:
        head = text.split(then, 1)[0]
        ctx.topic_role = tuple(r for t in tokenize(head, lexicon) if (r := t.of("role")))


def _condition(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> None:
    """A clause that states a condition: it holds for the clauses after it (rule 8)."""
    if_ = rule_named("if").word("if")  # 若
    ctx.condition = text[text.index(if_) :] if if_ in text else text
    subject = text.split(if_, 1)[0]
    tokens = tokenize(subject, lexicon)
    genitive = one_word("genitive")  # 大夫之矢，則兼束之: the arrows, not the 大夫, are the topic
    roles = [
        r
        for i, t in enumerate(tokens)
        if (r := t.of("role")) and not (i + 1 < len(tokens) and tokens[i + 1].text == genitive)
    ]
    ctx.cond_things = tuple(x for t in tokens if (x := t.of("object")) and not t.of("action"))
    topic = subject.startswith(one_word("condition-topic"))
    present = _present(text.partition(if_)[2] if if_ in text else text, lexicon)
    if if_ not in text and present:
        roles = []  # 有諸公，則辭加席: a condition that only says they are there, as 若有諸公
    if roles and topic:
        ctx.cond_topic = tuple(roles)  # 其笙，則獻諸西階上: the pipers are offered to
    elif not roles and present:
        ctx.cond_topic = present  # 若有諸公，則先卿獻之: the 諸公 are offered to
    elif roles and not _commands(subject, lexicon):  # 大夫若有遵者，則入門左: the 大夫 enter
        ctx.agent = tuple(roles)  # (公有命，則不易不洗: the 公 only commands)
    elif not roles:  # 若賓諸公卿大夫不勝，則不降: they stay (rule condition-subject)
        ctx.cond_subject = _condition_subject(text.partition(if_)[2], lexicon, ctx)
    if one_word("genitive") in text and _done_to_unnamed(tokenize(text, lexicon)):
        ctx.agent = ctx.positive_agent = ctx.cond_subject = ()  # 若君賜之食 (unnamed-one-acts)
        ctx.unnamed_party = True


def _done_to_unnamed(tokens: list) -> bool:
    """若君賜之食, 君為之興: a person, then an act done to 之 (之 right after an act, no person
    after it): the one the condition is about is one no term names."""
    genitive = one_word("genitive")  # 之
    person = False
    for i, token in enumerate(tokens):
        person = person or bool(token.of("role"))
        after = tokens[i + 2] if i + 2 < len(tokens) else None
        if (
            person
            and token.text == genitive
            and i
            and "action" in tokens[i - 1].kinds
            and not (after is not None and after.of("role"))
        ):
            return True
    return False


def _present(text: str, lexicon: Lexicon) -> tuple[str, ...]:
    """若有諸公: the persons a condition says are present (有 and only persons after it)."""
    exists = rule_named("condition-topic").word("exists")  # 有
    if not text.startswith(exists):
        return ()
    tokens = tokenize(text[len(exists) :], lexicon)
    roles = tuple(r for t in tokens if (r := t.of("role")))
    return roles if len(roles) == len(tokens) else ()


def _condition_subject(text: str, lexicon: Lexicon, ctx: Context) -> tuple[str, ...]:
    """若賓諸公卿大夫不勝: the persons first after 若, before an act that is not a command, are
    the subject of what follows; 若與四方之賓燕: the one feasted with too, and the one 之 stands
    for (則公迎之). Not the one an act is done to (若飲公), nor one who commands (若君命皆致),
    nor an alternative (若賓，若長)."""
    tokens = tokenize(text, lexicon)
    with_ = rule_named("condition-subject").word("with")  # 與
    companion = bool(tokens) and tokens[0].text == with_
    if companion:
        ctx.cond_topic = tuple(r for t in tokens if (r := t.of("role")))
        return ctx.cond_topic
    roles: list[str] = []
    named = 0  # the tokens that name the persons
    for token in tokens:
        if not (role := token.of("role")):
            break
        named += 1
        if one_word("genitive") in token.text:
            # 若諸公卿大夫之耦不勝: the partners (耦) of those named, persons of their own
            head = token.text.rsplit(one_word("genitive"), 1)[1]
            roles = [lexicon.forms["role"][head]] if head in lexicon.forms["role"] else []
            break
        roles.append(role)
    rest = tokens[named:]
    acts = [t for t in rest if t.of("action") or t.text in word_class("negation")]
    if not roles or not acts or _commands(text, lexicon):
        return ()  # (若賓諸公卿大夫不勝: 勝 is no act of the lexicon, 不 says one is denied)
    after = rest[rest.index(acts[0]) + 1 :]
    if any(t.of("role") or t.text == one_word("genitive") for t in after):
        return ()  # 若君賜之爵，則下席: the one it is done to acts, not the 君
    return tuple(roles)


def _commands(text: str, lexicon: Lexicon) -> bool:
    """A condition that is someone's command (公有命): its subject does not do what follows."""
    return any(t.of("action") in lexicon.frames["command"] for t in tokenize(text, lexicon))


def annotate_text(texts: Iterable[str], lexicon: Lexicon | None = None) -> list[list[Event]]:
    """Events of consecutive clauses of one paragraph (for tests and doctests)."""
    lexicon = lexicon or default_lexicon()
    ctx = Context()
    return [
        annotate_clause(f"jing/1.1.{n}", text, lexicon, ctx).events
        for n, text in enumerate(texts, start=1)
    ]


_SENTENCES: dict[str, list] = {}
_NEXT_CLAUSE: dict[str, Passage] = {}  # clause id → the clause after it in the text


_NEXT_SENTENCE: dict[str, str] = {}  # sentence id → the next one of the text read


def _next_sentence_text(sentence: str) -> str:
    """The text of the sentence after ``sentence`` in its paragraph ("" if it is the last)."""
    after = _NEXT_SENTENCE.get(sentence, "")
    if not after or paragraph_of(_SENTENCES[after][0].id) != paragraph_of(
        _SENTENCES[sentence][0].id
    ):
        return ""
    return "".join(c.text for c in _SENTENCES[after])


def _generic_case(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> bool:
    """士相見禮 凡侍坐于君子，君子欠伸 / 凡自稱于君，士大夫則曰下臣: in the 經, a clause that
    opens its sentence with 凡 and names no one who acts (a person only after 于 or 與: the one
    attended, spoken to), followed by another clause of its sentence with an act, is the case
    the sentence's rule is for: a condition, as 凡X in the 記 (_generic_condition). Not one
    that names whose or who (凡宰夫之具; 凡執幣者: 者 ending it)."""
    generic = word_values("condition-generic-case")  # 凡 (in the 經: jing/)
    if not any(pid.startswith(part) and text.startswith(word) for word, part in generic.items()):
        return False
    if not ctx.new_sentence or not ctx.rest_of_sentence:
        return False
    if not is_generic_sentence(text, rule_named("generic-sentence")):
        return False  # 凡十有九稱: in all
    if text.endswith(rule_named("commanded-act").word("doer")):  # 凡執幣者: says who
        return False
    if not any("action" in t.kinds for t in tokenize(ctx.rest_of_sentence[0], lexicon)):
        return False  # 凡燕見于君，必辯君之南面: what follows has no act the case could be of
    tokens = tokenize(text, lexicon)
    prepositions = word_class("preposition")
    return not any(
        t.of("role") and not (i and tokens[i - 1].text in prepositions)
        for i, t in enumerate(tokens)
    )


def _generic_condition(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> bool:
    """記 凡舉爵，三作而不徒爵 / 既旅，士不入: a generic 凡X or temporal 既X of the 記 followed by
    another clause of its sentence, naming one act and no one, states a condition; not one
    that says where (凡奠者于左: a rule of its own), names who (凡薦與羞者) or whose act it is
    (凡公所酬, 凡婦人相饗: left as they are).
    A 之 in what it governs is the thing it names.

    >>> record, _ = annotate_example("記：凡挾矢，於二指之間橫之")
    >>> format_events(record.events)
    '橫 theme=矢 cond=凡挾矢 noagent=unstated'
    """
    generic = word_values("condition-generic")  # 凡, 既 (in the 記: ji/)
    if not any(pid.startswith(part) and word in text for word, part in generic.items()):
        return False  # (cheap: before tokenizing every clause of the book)
    tokens = tokenize(text, lexicon)
    named = len(leading_roles(tokens))  # 記 司正既舉觶，而薦諸其位: the persons before 既
    rest = "".join(t.text for t in tokens[named:])
    if named and not rest.startswith(one_word("perfective")):
        return False
    if not any(pid.startswith(part) and rest.startswith(word) for word, part in generic.items()):
        return False
    tokens = tokens[named:]
    if any(t.of("role") for t in tokens) or len([t for t in tokens if t.of("action")]) != 1:
        return False
    if text.endswith(rule_named("commanded-act").word("doer")) or any(
        p in text for p in word_class("preposition")
    ):
        return False
    return bool(ctx.rest_of_sentence)


def _temporal_head(pid: str, text: str, lexicon: Lexicon) -> tuple[str, str]:
    """記 既舉觶而薦諸其位: a clause of the 記 opening with a temporal 既 and one act, then 而
    and more, is the condition (既舉觶) of what follows 而, in one clause ("" and the text when
    it is not so)."""
    since, and_ = one_word("perfective"), one_word("temporal-then")
    if not (pid.startswith(word_values("condition-generic")[since]) and text.startswith(since)):
        return "", text
    head, _, rest = text.partition(and_)
    tokens = tokenize(head, lexicon)
    acts = [t for t in tokens if t.of("action")]
    if not rest or len(acts) != 1 or any(t.of("role") for t in tokens):
        return "", text
    return head, rest


def _presence_condition(text: str, lexicon: Lexicon, ctx: Context) -> bool:
    """記 君在，大夫射，則肉袒: a clause that is only persons and a state (在), no place, with a
    clause beginning with 則 later in its sentence, says when: a condition (when the ruler is
    present), not a state of his.

    >>> clauses, notes = example_clauses("記：君在，大夫射，則肉袒")
    >>> [record.reason for record, _ in _annotate(clauses, default_lexicon(), notes)]
    ['cond', 'cond', '']
    """
    if not any(t.startswith(one_word("condition-then")) for t in ctx.rest_of_sentence):
        return False
    tokens = tokenize(text, lexicon)
    if len(tokens) < 2 or not all(t.of("role") for t in tokens[:-1]):
        return False
    return lexicon.has(tokens[-1].of("action") or "", "state")


def _arrival_head(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> tuple[str, str]:
    """記 賓至，徹之 / 賓至徹之: persons and 至 opening a clause of the 記, before an act of its
    sentence, say when (when the guest arrives): a condition, the act no one's named (the
    attendants take the cover off). The condition and the rest of the clause ("", text if it
    is not so; text, "" when the act is in the next clause of the sentence).

    >>> record, _ = annotate_example("記：尊綌冪，賓至徹之")
    >>> format_events(record.events)
    '徹 theme=幂 cond=賓至 noagent=unstated'
    >>> format_events(annotate_example("記：賓至，徹之")[0].events)
    '徹 cond=賓至 noagent=unstated'
    """
    arrive = one_word("arrival")
    part = word_values("condition-generic")[one_word("perfective")]  # the 記
    if not pid.startswith(part) or arrive not in text:
        return "", text
    tokens = tokenize(text, lexicon)
    named = len(leading_roles(tokens))
    if not (named and named < len(tokens)):
        return "", text
    if tokens[named].text != arrive:
        return "", text
    head = "".join(t.text for t in tokens[: named + 1])
    rest = text[len(head) :]
    if rest:
        acts = [t for t in tokens[named + 1 :] if t.of("action")]
        return (head, rest) if acts and tokens[named + 1].of("action") else ("", text)
    return (text, "") if ctx.rest_of_sentence else ("", text)


def _followed_by_ze(pid: str) -> bool:
    """X，則Y: a clause followed in its sentence by one beginning with 則 states a condition;
    the clause next in the text, within the paragraph, when clauses re-cut (…v2) put the two
    in sentences of different numbers (無諸公，則大夫辭加席)."""
    clauses = _SENTENCES.get(sentence_of(pid), [])
    ids = [c.id for c in clauses]
    if pid not in ids:
        return False
    if ids.index(pid) + 1 < len(ids):
        after = clauses[ids.index(pid) + 1]
        following = _NEXT_CLAUSE.get(pid)
        if following is not None and following.id != after.id:
            # 三耦卒飲。若賓諸公卿大夫不勝，則不降 (a witness's sentences interleaved): the clause
            # next in the text, if the text layer puts it in the same sentence (有諸公，則辭加席)
            parent = getattr(clauses[ids.index(pid)], "parent", None)
            return (
                parent is not None
                and getattr(following, "parent", None) == parent
                and following.text.startswith(one_word("condition-then"))
            )
        return after.text.startswith(one_word("condition-then"))
    after = _NEXT_CLAUSE.get(pid)
    if after is None or paragraph_of(after.id) != paragraph_of(pid):
        return False
    cut_anew = recut(pid) or recut(after.id)  # a clause published re-cut (jing/131.2.1v2)
    return cut_anew and after.text.startswith(one_word("condition-then"))


def annotate_clauses(clauses, lexicon: Lexicon | None = None, notes=None) -> list[Record]:
    """Records for every clause of a rite, in order (the context runs through the whole text).

    ``notes`` maps a clause id to the 注 on it (:func:`commentary_of`): where 鄭玄 names the
    party of a bow (再拜，拜賓許也), the annotator follows him.
    """
    return [record for record, _ in _annotate(clauses, lexicon or default_lexicon(), notes)]


def commentary_of(layer) -> dict[str, tuple[str, ...]]:
    """Clause id → the texts of the 注 attached to it, in order, from a text layer."""
    notes: dict[str, list[str]] = {}
    zhu = default_lexicon().label(YL.Zhu)  # 注: a kind of note is the label of its class
    for note in layer.notes:
        if note.kind == zhu:
            for cid in note.clause_ids:
                notes.setdefault(cid, []).append(note.text)
    return {cid: tuple(texts) for cid, texts in notes.items()}


#: the edition's marks, which the rules reading the 注 look past (再拜，拜賓許也 as 再拜拜賓許也)
_NOTE_MARKS = re.compile(r"[，。、；：！？「」]")


def _annotate(clauses, lexicon: Lexicon, notes=None):
    """(record, ids of the rules applied) for every clause, in order."""
    notes = notes or {}
    _SENTENCES.clear()
    for clause in clauses:
        _SENTENCES.setdefault(sentence_of(clause.id), []).append(clause)
    _NEXT_SENTENCE.clear()
    _NEXT_SENTENCE.update(zip(_SENTENCES, list(_SENTENCES)[1:], strict=False))
    _NEXT_CLAUSE.clear()
    _NEXT_CLAUSE.update((a.id, b) for a, b in zip(clauses, list(clauses)[1:], strict=False))
    ctx = Context()
    for clause in clauses:
        if clause.id == TITLE_CLAUSE or clause.level == "heading":
            if clause.id == TITLE_CLAUSE:  # 士相見之禮: whose rite it is (rule unnamed-one-acts)
                ctx.title_roles, ctx.title_rulers = _title_persons(clause.text, lexicon)
            yield Record(clause.id, clause.text, [], reason="title"), []
            continue
        ctx.trace = []
        ctx.notes = tuple(_NOTE_MARKS.sub("", note) for note in notes.get(clause.id, ()))
        # the edition's “…” goes on (rule quote-goes-on); a clause of no text layer has no quotes
        ctx.quoted = getattr(clause, "quoted", False)
        record = annotate_clause(clause.id, clause.text, lexicon, ctx)
        yield record, ctx.trace


def _title_persons(title: str, lexicon: Lexicon) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The persons a rite's title names, and of them its rulers: 士相見之禮 → (士,), ();
    公食大夫之禮 → (大夫,), (公,) (the ruler of the rite before he acts)."""
    ruler = lexicon.label(YL.Ruler)
    roles = [r for t in tokenize(title, lexicon) if (r := t.of("role"))]
    rulers = tuple(r for r in roles if ruler in lexicon.role_classes.get(r, ()))
    return tuple(r for r in roles if r not in rulers), rulers


QUOTE_GOES_ON = "“"  # in a rule's example: the clause opens inside an earlier clause's words


@dataclass(frozen=True)
class ExampleClause:
    id: str
    text: str
    level: str = "clause"
    quoted: bool = False  # opened with “: inside the quotation of a clause before it


def example_clauses(example: str) -> tuple[list[ExampleClause], dict[str, tuple[str, ...]]]:
    """The clauses of a punctuated example, and the 注 written after a clause in 〔注：…〕:
    sentences end at 。 (and at 。」), clauses at ， or ； (not inside 「…」 or 〔…〕), and ¶
    begins a new paragraph; ``記：`` before it puts it in the 記; “ opening a clause says it
    goes on with the words an earlier clause quoted (:attr:`Passage.quoted`).

    >>> clauses, notes = example_clauses("主人拜，賓答再拜〔注：答拜主人〕。揖衆賓")
    >>> [(c.id, c.text) for c in clauses]
    [('jing/2.1.1', '主人拜'), ('jing/2.1.2', '賓答再拜'), ('jing/2.2.1', '揖衆賓')]
    >>> notes
    {'jing/2.1.2': ('答拜主人',)}
    """
    # the examples' format: a division's name and ： before the text, a note in 〔kind：…〕,
    # what is said in 「…」, clauses cut at ，；and sentences at 。 (marks, not words)
    ji = next(word for word, part in word_values("division").items() if part == "ji")  # 記
    zhu = default_lexicon().label(YL.Zhu)  # 注
    part = "jing"
    if example.startswith(f"{ji}："):
        part, example = "ji", example[len(ji) + 1 :]
    notes: dict[str, tuple[str, ...]] = {}
    clauses, paragraph, sentence, clause, depth, current = [], 2, 1, 1, 0, ""
    if example.startswith("《"):  # 《士相見之禮》: the rite's title, its first clause
        title, _, example = example[1:].partition("》")
        clauses.append(ExampleClause(TITLE_CLAUSE, title))
    # 曰：「…。」 ends its sentence with the quotation, as the punctuated edition writes it
    for char in example.replace("。」", "。」。") + "。":
        depth += {"「": 1, "」": -1, "〔": 1, "〕": -1}.get(char, 0)
        if char == "¶" and not depth:  # a new paragraph (its own passage), after a 。
            paragraph, sentence, clause = paragraph + 1, 1, 1
            continue
        if depth or char not in "，；。":
            current += char
            continue
        current, _, note = current.partition(f"〔{zhu}：")
        if current:
            cid = f"{part}/{paragraph}.{sentence}.{clause}"
            quoted = current.startswith(QUOTE_GOES_ON)
            clauses.append(ExampleClause(cid, current.removeprefix(QUOTE_GOES_ON), quoted=quoted))
            if note:
                notes[cid] = (note.rstrip("〕"),)
            clause += 1
        current = ""
        if char == "。":
            sentence, clause = sentence + 1, 1
    return clauses, notes


LOOK_AHEAD = "‖"  # in a rule's example: the clause checked is the one before it
RITE_MARK = "@"  # in a rule's example: @rite, the rite whose senses it is read with


def annotate_example(example: str, lexicon: Lexicon | None = None) -> tuple[Record, list[str]]:
    """The last clause of an example (a rule's, in corpus/annotation-rules.tsv): its record and
    the ids of the rules applied to it.

    >>> record, applied = annotate_example("主人拜，賓答再拜。揖衆賓")
    >>> format_events(record.events), "turn-goes-back" in applied
    ('揖 agent=主人^ to=衆賓', True)

    A rule that reads the clauses after its own (placed-row) marks its clause with ‖ after it:
    the text after ‖ is read too, and the clause before ‖ is the one returned.

    >>> format_events(annotate_example("士西方‖，東面北上")[0].events)
    '在 agent=士 at=西方'

    An example of a form read as another term in one rite (corpus/rite-senses.tsv) opens with
    @ and the rite's slug: it is read with that rite's senses.

    >>> format_events(annotate_example("@teshengkuishi 祝侑")[0].events)
    '侑 agent=祝'
    """
    if example.startswith(RITE_MARK):  # @teshengkuishi 祝侑: 侑 the act, not the person
        rite, _, example = example[len(RITE_MARK) :].partition(" ")
        lexicon = lexicon_for(rite, lexicon)
    head, ahead, _ = example.partition(LOOK_AHEAD)  # 士西方‖，東面北上: the clause before ‖
    clauses, notes = example_clauses(example.replace(LOOK_AHEAD, ""))
    results = list(_annotate(clauses, lexicon or default_lexicon(), notes))
    return results[len(example_clauses(head)[0]) - 1] if ahead else results[-1]


# --- r-recip6 rules


def _late_comers(token: Token, rest: list[Token]) -> bool:
    """士喪禮 拜大夫之後至者: a role, 之, 後 and arriving (至) after it are those of the role who
    come later, the persons bowed to, not a place behind them."""
    return "role" in token.kinds and bool(rest) and rest[0].text[:1] in word_class("arrival")


# --- r-recip7 rules


def _passed_over(reader: ClauseReader, earlier: Event, event: Event, staff, rl) -> bool:
    """Whether the one who did ``earlier`` is passed over as the party of the bow or salute
    ``event``: an officer declining for the ruler (小臣辭，賓升，再拜稽首: the ruler is bowed
    to), or an usher, who carries the words between the parties (擯者進。公當楣再拜)."""
    if (
        reader.is_a(earlier.kind, reader.lex.label(YL.Ci))
        and reader.is_a(event.kind, reader.lex.label(YL.Salutation))
        and all(reader.lex.role_classes.get(a, frozenset()) & staff for a in earlier.agent)
    ):
        return True
    return event.kind in rl.words["past-usher"] and _ushers_only(earlier, rl)


def _ushers_only(event: Event, rl) -> bool:
    """Whether ``event`` is done by ushers only (擯者, 儐者), who carry the words between the
    parties and are not bowed or saluted to (rule implied-recipient)."""
    return bool(event.agent) and set(event.agent) <= set(rl.words["ushers"])


# --- r-agent8 rules


def _command_case(text: str, lexicon: Lexicon, ctx: Context) -> bool:
    """士喪禮 唯君命，出; 既夕禮 記 唯君命，止柩于堩; 尸在室，有君命，衆主人不出: a clause
    that is only 唯 or 有, the ruler and his command (命, no one commanded, nothing said),
    before another clause of its sentence, says when: a condition (cond=唯君命), not a command
    he gives; the one carried over goes on (the ruler only commands, _commands).

    >>> clauses, notes = example_clauses("主人拜送如初。唯君命，出")
    >>> [format_events(r.events) for r, _ in _annotate(clauses, default_lexicon(), notes)]
    ['拜送 agent=主人 like=初', '—', '出 agent=主人^ cond=唯君命']
    """
    exists = rule_named("condition-topic").word("exists")  # 有君命 (有: no function word)
    heads = (*word_class("condition-command"), exists)
    if not ctx.rest_of_sentence or not read_as_base(text).startswith(heads):
        return False  # (most clauses: no tokenizing)
    tokens = tokenize(text, lexicon)
    if len(tokens) != 3 or tokens[0].text not in heads:
        return False
    rulers = rule_named("relayed-words").words["rulers"]
    return tokens[1].of("role") in rulers and _commands(tokens[2].text, lexicon)
