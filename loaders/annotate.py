"""The automatic annotator: clauses → events (who does what, to whom, with what, where).

A rule-based reader of ritual prose, following ``docs/annotation.md``. Each clause is cut into
tokens by longest match against the ontology's labels (:mod:`yili_kg.loaders.lexicon`) and a
small set of function words (于 自 由 以 與 及 不 …); a left-to-right pass then builds one
event per verb, giving it the subject named before the verbs, the places and facings named
before it, the objects and persons after it and the phrases its prepositions introduce.
Context across clauses — the subject carried over, the other party of a bow, a pending
condition, the command just given — lives in :class:`Context`.

>>> [format_event(e) for e in annotate_text(["主人坐取爵于上篚", "以降", "賓降"])[0]]
['坐 agent=主人', '取 agent=主人 theme=爵 from=上篚']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from yili_kg.loaders.annotations import Event, Record, format_event  # noqa: F401 (doctest)
from yili_kg.loaders.lexicon import Lexicon, default_lexicon

PREPOSITIONS = {"于": "at", "於": "at", "自": "from", "由": "via", "以": "by", "與": "with"}
NEGATIONS = set("不無未弗毋")
NUMERALS = {"一": 1, "壹": 1, "二": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "八": 8, "十": 10}
SKIP = set("遂乃而且又亦猶既先後每唯焉則也矣諸皆尚卒共")
DIRECTION_CHARS = set("東西南北")
RELATIVE = (
    "東南",
    "東北",
    "西南",
    "西北",
    "東",
    "西",
    "南",
    "北",
    "前",
    "後",
    "左",
    "右",
    "上",
    "下",
    "中",
    "末",
    "端",
)
#: verbs after which 于X names where the thing goes, or where it comes from
DEST_VERBS = {
    "奠",
    "反奠",
    "加",
    "委",
    "倚",
    "設",
    "實",
    "納",
    "縣",
    "席",
    "尊",
    "遷樂",
    "張",
    "搢",
    "繫",
    "束",
    "兼",
    "薦",
    "授",
    "適",
    "及",
    "當",
    "就席",
    "升",
    "降",
    "入",
    "出",
}
SOURCE_VERBS = {"取", "取矢", "拾取矢", "求"}
#: movements whose bare object is where one goes (適洗, 及門, 入門)
MOVEMENT_DEST = {"適", "及", "當", "入", "出", "升", "降", "就", "就席", "履", "鈎", "負侯", "進"}
#: kinds whose unnamed recipient is the other party of the exchange (docs/annotation.md, rule 4)
EXCHANGE = ("拜揖", "辭", "對", "許", "告", "請", "酬", "獻", "酢", "見")
NO_RECIPIENT = {"揖", "讓", "厭"}  # salutes that need no named party when several act together
UNSTATED = {"薦", "設", "席", "尊", "縣", "張", "陳", "羞", "亨", "殺", "無算爵", "無算樂"}
#: reciprocal acts: "A與B交" is A's act with B
RECIPROCAL = {"交", "相左", "為耦"}
STATE = "在"
SPEECH = ("辭令",)
#: roles that name a group: their salutes are mutual (上耦揖進) and 皆 keeps them
GROUPS = {
    "三耦",
    "上耦",
    "次耦",
    "下耦",
    "衆耦",
    "衆賓",
    "射者",
    "勝者",
    "不勝者",
    "弟子",
    "工",
    "笙",
    "二人",
    "衆賓之長",
    "升飲者",
    "有司",
}
#: acts whose object may be followed by what the object does (命弟子納射器, 視上射命)
CONTROLS = {"使", "作", "如", "視", "厭", "俟", "授", "為"}
#: the offerings of the drinking: the role after them is the one offered to (獻工, 酬賓)
OFFERINGS = ("獻", "酬", "酢")
#: acts that do not make their agent the subject carried to the next clause
NOT_CARRIED = {"為", "為耦", "在"}


@dataclass
class Token:
    text: str
    kinds: dict[str, str]  # category → canonical label

    def of(self, category: str) -> str | None:
        return self.kinds.get(category)


@dataclass
class Context:
    """What a clause inherits from the clauses before it."""

    agent: tuple[str, ...] = ()
    paragraph: str = ""
    history: list[tuple[str, Event]] = field(default_factory=list)  # (clause id, event)
    condition: str | None = None
    command_to: tuple[str, ...] = ()  # the one commanded by the last 命/使
    sentence: str = ""
    new_sentence: bool = False
    answered: tuple[str, ...] = ()  # the one answered by the last 答拜/對 (the turn goes back)
    paragraph_has_agent: bool = False
    partners: tuple[str, ...] = ()  # those the last agent acted with (以賓)
    pending: tuple | None = None  # subject and place of a verbless clause, for the next one
    clauses: int = 0  # clauses read so far
    pending_at: int = 0  # the clause that left ``pending``
    topic_role: tuple[str, ...] = ()  # X則…: the person the clause is about
    sentence_text: str = ""
    positive_agent: tuple[str, ...] = ()  # the last agent of an act not denied
    offerers: list[tuple[str, ...]] = field(default_factory=list)  # agents of 獻, in order
    sent_to: tuple[str, ...] = ()  # the one a cup was just sent to (拜送爵): he drinks next
    cond_topic: tuple[str, ...] = ()  # 其笙，則獻諸西階上: the one the condition is about
    offered: set[str] = field(default_factory=set)  # those offered to (獻X)


def tokenize(text: str, lexicon: Lexicon) -> list[Token]:
    """Longest-match tokens; quotations 「…」 become one token of category ``say``."""
    forms: dict[str, dict[str, str]] = {}
    for category in ("role", "object", "place", "action", "direction"):
        for form, label in lexicon.forms[category].items():
            forms.setdefault(form, {})[category] = label
    longest = max(len(f) for f in forms)
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "「":
            end = text.find("」", i)
            end = len(text) if end < 0 else end
            tokens.append(Token(text[i + 1 : end], {"say": text[i + 1 : end]}))
            i = end + 1
            continue
        if char in "《":
            end = text.find("》", i)
            end = len(text) if end < 0 else end
            tokens.append(Token(text[i : end + 1], {"title": text[i + 1 : end]}))
            i = end + 1
            continue
        if char in "，。；：、！？·」":
            if char == "、":
                tokens.append(Token(char, {"and": char}))
            i += 1
            continue
        for size in range(min(longest, len(text) - i), 0, -1):
            piece = text[i : i + size]
            if piece in forms:
                if not tokens and "role" not in forms[piece]:
                    # 賓席末答拜: the subject 賓, not the place 賓席
                    role = next(
                        (
                            text[i : i + k]
                            for k in range(size - 1, 0, -1)
                            if "role" in forms.get(text[i : i + k], {})
                            and text[i + k : i + k + 1] != "之"
                        ),
                        None,
                    )
                    if role:
                        piece = role
                        size = len(role)
                tokens.append(Token(piece, dict(forms[piece])))
                i += size
                break
        else:
            tokens.append(Token(char, {}))
            i += 1
    return tokens


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
        self.with_: list[str] = []  # 以賓 / 與司射 before the verb
        self.before: dict[str, str] = {}  # 自X / 由X before the verb
        self.next_agent: tuple[str, ...] = ()  # a subject named after the clause's first acts

    # -- helpers ---------------------------------------------------------------------------
    def is_a(self, kind: str, *ancestors: str) -> bool:
        return any(self.lex.is_a(kind, a) for a in ancestors)

    def verb_here(self, tokens: list[Token], i: int) -> bool:
        """Whether the token is read as a verb: an action not in object position."""
        token = tokens[i]
        if "action" not in token.kinds:
            return False
        if i > 0 and tokens[i - 1].text in ("其", "諸"):
            return False
        if len(token.kinds) == 1:
            return True
        if self.prep is not None:
            return False
        last = self.events[-1] if self.events else None
        previous = tokens[i - 1] if i > 0 else None
        if token.text == "洗" and previous is not None and previous.text in ("盥", "降"):
            return True  # 盥洗, 降洗: wash the hands and the cup; go down and wash
        if token.text == "決" and previous is not None and previous.text == "袒":
            return True  # 袒決: bare the arm, put on the thumb-ring
        if last is not None and previous is not None and "action" in previous.kinds:
            return False  # 適洗, 設洗, 說束, 作相: after a verb, the word is its object
        if i + 1 < len(tokens) and tokens[i + 1].text in ("東", "西", "南", "北", "之"):
            return "place" not in token.kinds and "object" not in token.kinds
        return True

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
            self.neg = False
        if self.count:
            event.set("count", str(self.count))
            self.count = None
        if self.ctx.condition:
            event.fields["cond"] = (self.ctx.condition,)
        if self.topic and (kind == STATE or self.possessed):
            event.set("theme", self.topic)
        if self.with_:
            event.set("with", self.with_)
        if self.for_whom:
            event.set("to", self.for_whom)
        for key, value in self.before.items():
            event.set(key, value)
        if self.next_agent:
            event.fields["_agent"] = self.next_agent
        self.events.append(event)
        return event

    def place_or_object(self, token: Token) -> str | None:
        return token.of("place") or token.of("object")

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
            if role and prep in ("with", "by"):
                self.with_.append(role)
            elif token.of("object") and prep == "by":
                self.before["theme"] = token.of("object")
            elif role:
                self.subjects.append(role)
            elif token.of("object") and prep is None:
                self.topic.append(token.of("object"))
            elif prep == "from":
                self.before["from"] = self.place_or_object(token)
            elif prep == "via":
                self.before["via"] = self.place_or_object(token)
            else:
                self.at.append(self.place_or_object(token))
            return 1
        if role:
            moving = event.kind in MOVEMENT_DEST and event.kind != "進"
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
        if obj and (prep == "by" or (prep is None and event.kind not in MOVEMENT_DEST)):
            event.set("theme", (*event.fields.get("theme", ()), obj))
        elif obj and not token.of("place") and prep == "at" and event.kind in DEST_VERBS:
            event.set("dest", (*event.fields.get("dest", ()), obj))
        else:
            self.put_place(event, prep, thing)
        return 1

    def put_place(self, event: Event | None, prep: str | None, text: str) -> None:
        if event is None:
            self.at.append(text)
            return
        if prep == "to":
            event.set("dest", text)
        elif prep == "from" or (prep == "at" and event.kind in SOURCE_VERBS):
            event.set("from", text)
        elif prep == "via":
            event.set("via", text)
        elif prep == "at" and event.kind in DEST_VERBS:
            event.set("dest", text)
        elif prep is None and event.kind in DEST_VERBS | {"適", "及"}:
            event.set("dest", text)
        else:
            event.set("at", (*event.fields.get("at", ()), text))

    def noun_phrase(self, tokens: list[Token], i: int) -> tuple[str, int]:
        """X之Y / X東南 … : a place written relative to a person or thing (one or more tokens).

        Returns the canonical label when the phrase is a term of the ontology, else the text.
        """
        token = tokens[i]
        j = i + 1
        text = token.text
        if j < len(tokens) and tokens[j].text == "之" and j + 1 < len(tokens):
            after = tokens[j + 1]
            if after.text in RELATIVE or ("place" in after.kinds and "role" in token.kinds):
                return self.known_place(text + "之" + after.text), 3
        used = 1
        while (
            j < len(tokens)
            and set(tokens[j].text) <= DIRECTION_CHARS
            and used < 3
            and not (j + 1 < len(tokens) and tokens[j + 1].text in ("面", "上"))
        ):
            text += tokens[j].text
            used += 1
            j += 1
        if (
            used == 1
            and j < len(tokens)
            and tokens[j].text in ("上", "下", "前", "後", "中")
            and (token.kinds.keys() & {"object", "place"})
            and j + 1 >= len(tokens)
        ):
            return self.known_place(text + tokens[j].text), 2  # 矢在弓下, 奠爵于篚下
        if used > 1:
            return self.known_place(text), used
        label = token.of("role") or self.place_or_object(token) or text
        return label, 1

    def known_place(self, text: str) -> str:
        return self.lex.forms["place"].get(text, text)

    # -- the pass --------------------------------------------------------------------------
    def read(self, text: str) -> list[Event]:
        tokens = tokenize(text, self.lex)
        i = 0
        while i < len(tokens) and not self.stop:
            i += self.step(tokens, i)
        return self.finish(text)

    def step(self, tokens: list[Token], i: int) -> int:
        token = tokens[i]
        t = token.text
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if "say" in token.kinds:
            self.speech(token.kinds["say"])
            return 1
        if t in SKIP and nxt is not None and "action" in nxt.kinds and not token.of("role"):
            return 1  # 遂飲, 遂以比三耦: 'then', not the armlet 遂
        if "title" in token.kinds:
            return 1
        if token.of("action") == "獻" and nxt is not None and nxt.text == "酒":
            # 兩壺獻酒: the wine of the offerings (注: 獻讀為沙), a thing, not an act; 獻
            # takes a person (獻賓), never the wine
            return 1 + self.attach_noun(nxt, tokens, i + 1)
        if "and" in token.kinds:
            self.joined = True
            return 1
        if t in NEGATIONS and not token.kinds:
            return self.negation(tokens, i)
        if t in ("若",) and not token.kinds:
            return 1
        if t == "如" or token.of("action") == "如" or (t == "其" and nxt and nxt.text == "他"):
            return self.like(tokens, i)
        if token.of("direction") and nxt and nxt.text == "面":
            self.set_face(token.of("direction"))
            return 2
        if token.of("direction") and nxt and nxt.text == "上" and "place" not in nxt.kinds:
            target = self.events[-1] if self.events else None
            if target is not None:
                target.set("upper", token.of("direction"))
            else:
                self.upper = token.of("direction")
            return 2
        if (
            t == "答"
            and nxt
            and nxt.text in NUMERALS
            and i + 2 < len(tokens)
            and (tokens[i + 2].of("action") == "拜")
        ):
            self.count = NUMERALS[nxt.text]  # 衆賓皆答一拜
            self.verb("答拜", tokens, i)
            return 3
        if (
            t in ("反", "復")
            and not token.kinds
            and nxt is not None
            and (
                nxt.kinds.keys() & {"place", "object"} or (nxt.text == "于" and i + 2 < len(tokens))
            )
        ):
            self.verb("反位", tokens, i)  # 復阼階, 反于射位: back to a place
            self.prep = "to"
            if nxt.text == "于":
                return 2
            return 1
        if t == "作" and i > 0 and ("title" in tokens[i - 1].kinds or tokens[i - 1].text == "樂"):
            event = self.new_event("奏")  # 《陔》作, 樂作: the music is played
            event.fields["noagent"] = ("unstated",)
            self.played = True
            return 1
        if t in NUMERALS and nxt and nxt.of("role") and not token.kinds and self.subjects:
            self.with_.append(nxt.of("role"))  # 主人一相出迎: with one usher
            return 2
        if t in NUMERALS and nxt and "action" in nxt.kinds and not token.kinds:
            self.count = NUMERALS[t]
            return 1
        if (
            t in ("及", "與")
            and self.events
            and i > 0
            and nxt is not None
            and (tokens[i - 1].kinds.keys() & nxt.kinds.keys() & {"role", "object"})
        ):
            return 1  # 命三耦及衆賓, 執其薦與俎: one more of the same
        if t in PREPOSITIONS and not token.kinds:
            return self.preposition(tokens, i)
        if (
            t in ("及", "與")
            and self.events
            and i > 0
            and nxt is not None
            and (tokens[i - 1].kinds.keys() & nxt.kinds.keys() & {"role", "object"})
        ):
            return 1  # 命三耦及衆賓, 執其薦與俎: one more of the same
        if t == "及" and not token.kinds.get("role"):
            if self.subjects and not self.events and nxt and nxt.of("role"):
                self.joined = True
                return 1
        if t == "立" and nxt and self.verb_here(tokens, i + 1) and "action" in nxt.kinds:
            self.manner = "立"
            return 1
        if t == "少" and nxt and "action" in nxt.kinds:
            self.manner = "少"
            return 1
        if t == "者":
            if self.events:
                self.stop = True
            return 1
        if t == "所" and nxt is not None and "action" in nxt.kinds:
            return 2  # 立于所設中之西南: 'where the 中 is set', not an act
        if t == "之" and self.events:
            self.pronoun()
            return 1
        if (
            t == "諸"
            and not token.kinds
            and self.events
            and self.is_a(self.events[-1].kind, *OFFERINGS)
        ):
            self.pronoun()  # 獻諸西階上 (諸 = 之於): the person offered to
            return 1
        if t == "為" and nxt is not None and nxt.text == "之" and self.ctx.topic_role:
            self.for_whom = self.ctx.topic_role  # 大師則為之洗: wash the cup for him
            return 2
        if (
            (token.kinds.keys() & {"role", "object"})
            and nxt
            and nxt.text == "之"
            and (
                i + 2 < len(tokens)
                and tokens[i + 2].kinds.keys() & {"object", "role"}
                and "place" not in tokens[i + 2].kinds
            )
        ):
            return self.possessive(tokens, i)
        if t == "當" and nxt and (nxt.kinds.keys() & {"place", "object"}):
            if i + 2 < len(tokens) or self.events:
                text, used = self.noun_phrase(tokens, i + 1)
                self.at.append(text)
                self.at_marked = True
                return 1 + used
        if (
            (token.kinds.keys() & {"role", "object", "place"})
            and nxt
            and nxt.text == "之"
            and i + 2 < len(tokens)
            and (
                tokens[i + 2].text in RELATIVE
                or ("role" in token.kinds and "place" in tokens[i + 2].kinds)
            )
        ):
            # 三耦之南, 介之席前: a place, not a subject
            text, used = self.noun_phrase(tokens, i)
            self.place_here(text)
            return used
        if (
            token.of("role")
            and nxt is not None
            and nxt.text in ("左", "右")
            and (self.events or self.prep or (self.subjects and not self.joined))
        ):
            # 主人賓右拜送爵, 主人介右, 設于賓左: at X's right, a place, not a second agent
            # (with no subject before it, 有司左執弣 / 小臣左何瑟: with the left hand)
            text = token.text + nxt.text
            self.place_here(text)
            return 2
        if t in ("一人", "二人") and token.of("role"):
            if self.subjects or "舉觶" not in self.ctx.sentence_text:
                if not self.subjects and not self.events:
                    group = self.group_just_named()
                    if group:  # 主人獻之于西階上。一人拜: one of the pipers offered to
                        self.subjects.append(group)
                return 1  # 笙一人拜于下: one of the pipers
        if t == "其" and nxt and nxt.text in RELATIVE:
            self.put_place(self.events[-1] if self.events else None, self.prep, "其" + nxt.text)
            self.prep = None
            return 2
        if (
            token.of("role")
            and "action" not in token.kinds  # 以相拜: to assist, not the usher
            and self.events
            and self.prep is None
            and not self.joined
            and nxt is not None
            and self.verb_here(tokens, i + 1)
            and not self.governs(tokens, i)
        ):
            self.next_agent = (token.of("role"),)  # 卒歌，主人獻工 cut as 歌主人獻工
            return 1
        if self.verb_here(tokens, i):
            self.verb(token.kinds["action"], tokens, i)
            return 1
        if (
            token.of("role")
            and not self.events
            and self.prep is None
            and (not self.subjects or self.joined)
        ):
            self.subjects.append(token.of("role"))
            self.joined = False
            return 1
        if token.kinds.keys() & {"role", "object", "place"}:
            return self.attach_noun(token, tokens, i)
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
                groups = [r for r in earlier.fields.get(key, ()) if r in GROUPS]
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
        if self.is_a(last, "辭令") or last in CONTROLS or last in MOVEMENT_DEST:
            return True  # 就士旅食: where the host goes
        if tokens[i - 1].of("role") or tokens[i - 1].text in ("與", "及", "、"):
            return True  # 舉觶于賓介洗, 獻工與笙: one more of the persons named
        return self.is_a(last, *OFFERINGS) and "action" in tokens[i - 1].kinds

    def possessive(self, tokens: list[Token], i: int) -> int:
        """X之Y: the Y of X (主人之弓矢, 勝者之弟子, 賓與大夫之弓); X is not the agent."""
        head = tokens[i + 2]
        if head.of("role") and not head.of("object"):
            if not self.events:
                self.subjects = [head.of("role")]
            return 3
        thing = head.of("object")
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
            if event.kind in ("坐", "立", "疑立") and "face" not in event.fields:
                event.set("face", direction)

    def negation(self, tokens: list[Token], i: int) -> int:
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tokens[i].text == "無" and nxt is not None and "action" not in nxt.kinds:
            if nxt.of("role"):  # 無介: no 介 is invited
                event = self.new_event("戒")
                event.set("to", nxt.of("role"))
                event.set("neg", "1")
                return 2
            if nxt.of("object"):  # 無俎: no 俎 is set out
                event = self.new_event("設")
                event.set("theme", nxt.of("object"))
                event.set("neg", "1")
                return 2
        self.neg = True
        return 1

    def preposition(self, tokens: list[Token], i: int) -> int:
        t = tokens[i].text
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if t == "與" and self.subjects and not self.events and nxt and nxt.of("role"):
            self.joined = True
            self.joined_by = "與"
            return 1
        if t == "以" and nxt is not None and self.verb_here(tokens, i + 1):
            return 1  # 以降: 'thereupon'
        self.prep = PREPOSITIONS[t]
        return 1

    def like(self, tokens: list[Token], i: int) -> int:
        rest = "".join(t.text for t in tokens[i:])
        phrase = rest[rest.index("如") + 1 :] if "如" in rest else rest
        verbs = [e for e in self.events if not e.modifier]
        if verbs:
            for event in verbs:
                event.set("like", phrase)  # set() leaves out an empty phrase (a clause ending 如)
        else:
            event = self.new_event("如")
            event.set("like", phrase)
        return len(tokens) - i

    def pronoun(self) -> None:
        """之 after a verb: the thing (or, after 酬/獻/送/從, the person) referred to."""
        event = self.events[-1]
        if "theme" in event.fields or "to" in event.fields:
            return
        if self.is_a(event.kind, "酬", "獻", "送", "迎", "從"):
            self.person_pronoun = event
            return
        for _, earlier in reversed(self.ctx.history[-6:]):
            if "theme" in earlier.fields:
                event.set("theme", earlier.fields["theme"], "?")
                return

    def speech(self, content: str) -> None:
        if not content:  # 「」 or a 「 left open at the end: nothing is said
            return
        last = self.events[-1] if self.events else None
        if last is not None and self.is_a(last.kind, *SPEECH) and "say" not in last.fields:
            last.fields["say"] = (content,)
            return
        event = self.new_event("曰")
        event.fields["say"] = (content,)

    def verb(self, kind: str, tokens: list[Token], i: int) -> None:
        self.prep = None
        if kind == "兼" and i + 1 < len(tokens) and self.verb_here(tokens, i + 1):
            return  # 兼挾乘矢: 'together', not an act of its own
        last = self.events[-1] if self.events else None
        if last is not None and kind == "曰" and self.is_a(last.kind, *SPEECH):
            return  # 賓對曰「…」: the quotation belongs to the reply
        if (
            last is not None
            and last.kind in ("命", "作", "告", "請")
            and not self.content_done
            and kind != "為"
        ):
            self.content_done = True  # 命弟子納射器: what is commanded is not yet done
            self.stop = True
            return
        if last is not None and last.kind == "相" and kind in ("拜", "祭"):
            return  # 以相拜: to assist with the bows
        if kind == "崇酒" and self.events and self.events[-1].kind == "再拜":
            self.events[-1].kind = "崇酒"  # 再拜崇酒: one bow of thanks, made twice
            self.events[-1].set("count", "2")
            return
        self.new_event(kind)

    # -- after the pass --------------------------------------------------------------------
    def other_party(self, event: Event) -> tuple[str, ...]:
        mine = set(event.agent)
        partners = tuple(
            p
            for p in self.ctx.partners
            if not self.lex.role_classes.get(p, frozenset()) & {"司事者", "執事"}
        )
        if partners and set(self.ctx.agent) == mine:
            return partners
        for _, earlier in reversed(self.ctx.history[-40:]):
            if earlier.kind in NOT_CARRIED:
                continue
            if (
                self.is_a(earlier.kind, "辭")
                and self.is_a(event.kind, "拜揖")
                and all(
                    self.lex.role_classes.get(a, frozenset()) & {"司事者", "執事"}
                    for a in earlier.agent
                )
            ):
                continue  # 小臣辭，賓升，再拜稽首: the 小臣 declines for the ruler, bowed to
            agents = set(earlier.agent)
            if agents and not agents & mine:
                return tuple(earlier.agent)
            if agents & mine and "to" in earlier.fields and not earlier.marks.get("to"):
                return tuple(earlier.fields["to"])
        return ()

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
        return [event] if event.fields else []

    def finish(self, text: str) -> list[Event]:
        if (
            not self.events
            and not self.subjects
            and self.at
            and not self.face
            and not (self.before or self.upper)
        ):
            self.ctx.pending = ((), tuple(self.at))  # 西階上，北面作衆賓射: the next act's place
            self.ctx.pending_at = self.ctx.clauses
            return []
        if not self.events and not self.subjects:
            return self.modifier()
        if not self.events:  # 主人阼階之東，南面辭洗: the subject of the next clause
            # 賓、 / 主人 cut from their verb: the subjects of consecutive verbless clauses add
            # up; not across a clause between (執冪者，反冪。主人筵，前獻賓: 主人 alone)
            follows = self.ctx.pending and self.ctx.pending_at == self.ctx.clauses - 1
            before = self.ctx.pending[0] if follows else ()
            self.ctx.pending = (tuple(dict.fromkeys((*before, *self.subjects))), tuple(self.at))
            self.ctx.pending_at = self.ctx.clauses
            return []
        subjects = tuple(dict.fromkeys(self.subjects))
        if not subjects and self.ctx.pending:
            subjects, places = self.ctx.pending
            subjects = tuple(subjects)
            for event in self.events:
                if places and "at" not in event.fields:
                    event.set("at", places)
        self.ctx.pending = None
        for index, event in enumerate(self.events):
            if event.kind == STATE and subjects:
                event.set("agent", subjects)  # 上射在左: where a person stands
                continue
            if event.kind == STATE:
                event.fields["noagent"] = ("state",)
                continue
            if (self.possessed or (self.topic and index == 0)) and not subjects:
                if self.topic and "theme" not in event.fields:
                    event.set("theme", self.topic)  # 衆弓倚于堂西: the bows are leaned
                event.fields["noagent"] = ("unstated",)
                continue
            if subjects:
                event.set("agent", subjects)
            elif index > 0 and self.events[0].agent:
                event.set("agent", self.events[0].agent, self.events[0].marks.get("agent", ""))
            else:
                self.carry(event, text)
        for event in self.events:
            named = event.fields.pop("_agent", None)
            if named:  # 歌主人獻工: the 主人 offers
                event.set("agent", named)
                event.fields.pop("noagent", None)
        self.events = [
            e
            for e in self.events
            if not (e.kind == "為" and "role" not in e.fields and "to" not in e.fields)
        ]
        for index, event in enumerate(self.events):
            if event.kind == "釋" and event.get("theme") == "算":
                event.kind = "釋獲"  # 每一個釋一算: one tally for each hit
            if event.kind == "使" and event.get("to"):
                for later in self.events[index + 1 :]:
                    later.set("agent", event.fields["to"])  # 使人速: the one sent acts
                    later.fields["_sent"] = ("1",)
            if event.kind == "曰" and "to" not in event.fields:
                for _, earlier in reversed(self.ctx.history[-3:]):
                    if (
                        self.is_a(earlier.kind, *SPEECH)
                        and earlier.get("to")
                        and not set(earlier.fields["to"]) & set(event.agent)
                    ):
                        event.set("to", earlier.fields["to"], earlier.marks.get("to", ""))
                        break
        if (
            len(subjects) == 2
            and self.joined_by == "與"
            and any(e.kind in RECIPROCAL for e in self.events)
        ):
            for event in self.events:  # 司射與司馬交于階前: the 司射's act, with the 司馬
                event.set("agent", subjects[:1])
                event.set("with", subjects[1:])
        if self.ctx.cond_topic:
            for event in self.events:
                if self.is_a(event.kind, *OFFERINGS) and "to" not in event.fields:
                    event.set("to", self.ctx.cond_topic, "?")
        if self.person_pronoun is not None and "to" not in self.person_pronoun.fields:
            other = self.other_party(self.person_pronoun)
            if other:
                self.person_pronoun.set("to", other, "?")
        for index, event in enumerate(self.events):
            if event.kind == "為" and "to" in event.fields:
                event.set("role", event.fields.pop("to"))
                event.marks.pop("to", None)
            if event.kind == "為" and index and self.events[index - 1].kind == "作":
                called = self.events[index - 1].fields.get("to")
                if called:
                    event.set("agent", called)
            if self.is_a(event.kind, *EXCHANGE) and "to" not in event.fields and event.agent:
                if event.kind in NO_RECIPIENT and (
                    len(event.agent) > 1 or "with" in event.fields or set(event.agent) & GROUPS
                ):
                    continue
                other = self.other_party(event)
                if other:
                    event.set("to", other, "?")
        return self.events

    def archers(self, agents: tuple[str, ...]) -> bool:
        return all("射者" in self.lex.role_classes.get(a, ()) for a in agents)

    def officiants(self, agents: tuple[str, ...]) -> bool:
        return any("司事者" in self.lex.role_classes.get(a, ()) for a in agents)

    def carry(self, event: Event, text: str) -> None:
        """The agent of a clause without a subject (docs/annotation.md, rule 3)."""
        ctx = self.ctx
        if ctx.command_to and text.startswith("乃"):
            event.set("agent", ctx.command_to, "^")
            return
        setting_out = self.is_a(event.kind, "陳設") or event.kind in {"加", "繫", "掩", "束"}
        if (setting_out and (not ctx.paragraph_has_agent or event.kind in UNSTATED)) or (
            event.kind in ("無算爵", "無算樂")
        ):
            event.fields["noagent"] = ("unstated",)
            return
        if (
            event.kind in ("薦", "設")
            and "theme" in event.fields
            and event.get("theme") in ("脯醢", "俎")
        ):
            event.fields["noagent"] = ("unstated",)
            return
        if ctx.sentence.startswith("ji/") and ctx.new_sentence:
            event.fields["noagent"] = ("unstated",)  # a rule of the 記 names no one
            ctx.agent = ()
            return
        if ctx.new_sentence and ctx.answered and not self.is_a(event.kind, *SPEECH):
            event.set("agent", ctx.answered, "^")  # 賓答再拜。揖衆賓: the turn goes back
            return
        if ctx.sent_to and (event.kind in ("坐", "祭", "啐", "嚌") or self.is_a(event.kind, "飲")):
            # 主人拜送爵。階前坐祭，立飲: the one who received the cup drinks
            event.set("agent", ctx.sent_to, "^")
            return
        if ctx.agent:
            agents = ctx.agent
            if set(agents) & set(event.fields.get("to", ())):  # 授主人爵: not the host himself
                others = [
                    e.agent
                    for _, e in reversed(ctx.history)
                    if e.agent and not set(e.agent) & set(event.fields["to"])
                ]
                agents = others[0] if others else agents
            plain = re.sub(r"「.*?」", "", text)
            if "皆" in plain and ctx.partners:
                agents = tuple(dict.fromkeys((*agents, *ctx.partners)))
            elif "皆" in plain and not (len(agents) > 1 or set(agents) & GROUPS):
                distinct: list[tuple[str, ...]] = []
                for _, earlier in reversed(ctx.history[-6:]):
                    if earlier.agent and earlier.agent not in distinct:
                        distinct.append(earlier.agent)
                group = [a for agent in distinct[:2] for a in agent]
                agents = tuple(dict.fromkeys(group)) or agents
            elif (
                ctx.partners
                and not ctx.new_sentence
                and (self.is_a(event.kind, "進退") or event.kind in ("揖", "讓"))
            ):
                event.set("with", ctx.partners)
            if self.is_a(event.kind, "射") and self.officiants(agents):
                earlier = [
                    e.agent
                    for _, e in reversed(ctx.history[-30:])
                    if e.agent and self.archers(e.agent)
                ]
                agents = earlier[0] if earlier else agents
            event.set("agent", agents, "^")
        else:
            event.fields["noagent"] = ("unstated",)


def distinct_parties(event: Event, lexicon: Lexicon, ctx: Context, text: str) -> None:
    """No one acts on himself: an agent is never the recipient of the same act.

    A recipient the text names wins (a role after 獻/酬/酢 is the one offered to): the agent
    becomes the last one before who is not that recipient; an implied recipient that is the
    agent is dropped. And one offered to does not offer: the agent of a 獻 carried over from
    the clauses before, when it has only ever been offered to, is the last one who offered
    (主人…西南面獻介 after 介之席前; 獻公 after 公與賓有俎).
    """
    to = event.fields.get("to", ())
    if event.agent and to and set(event.agent) & set(to):
        if event.marks.get("to") == "?":
            rest = tuple(r for r in to if r not in event.agent)
            if rest:
                event.set("to", rest, "?")
            else:
                del event.fields["to"]
                event.marks.pop("to", None)
        elif not event.marks.get("agent") and not any(
            lexicon.is_a(event.kind, k) for k in OFFERINGS
        ):
            # 公答再拜公(卒觶): the subject named is the agent; the role after the act is the
            # subject of the next one, cut into this clause by the 句讀
            rest = tuple(r for r in to if r not in event.agent)
            if rest:
                event.set("to", rest)
            else:
                del event.fields["to"]
        else:
            rest = tuple(a for a in event.agent if a not in to)
            if rest:
                event.set("agent", rest, event.marks.get("agent", ""))
            else:
                earlier = _offerer(ctx, to) if lexicon.is_a(event.kind, "獻") else None
                earlier = earlier or next(
                    (
                        e.agent
                        for _, e in reversed(ctx.history)
                        if e.agent and not set(e.agent) & set(to)
                    ),
                    (),
                )
                if earlier:
                    event.set("agent", earlier, "^")
                else:
                    del event.fields["agent"]
                    event.marks.pop("agent", None)
                    event.fields["noagent"] = ("unstated",)
    if lexicon.is_a(event.kind, "獻") and event.agent and event.get("neg") != "1":
        if "既獻" in text:  # 士既獻者: those already offered to, by the last who offered
            if not event.marks.get("agent"):
                offered, by = event.agent, _offerer(ctx, event.agent)
                event.set("to", offered)
                if by:
                    event.set("agent", by, "^")
                else:
                    del event.fields["agent"]
                    event.fields["noagent"] = ("unstated",)
            return
        offered_only = [a for a in event.agent if a in ctx.offered and not _offered_by(ctx, a)]
        if offered_only:
            rest = tuple(a for a in event.agent if a not in offered_only)
            earlier = rest or _offerer(ctx, to)
            if earlier:
                event.set("agent", earlier, "^")
        ctx.offerers.append(event.agent)
        ctx.offered.update(event.fields.get("to", ()))


def _offered_by(ctx: Context, role: str) -> bool:
    return any(role in agents for agents in ctx.offerers)


def _offerer(ctx: Context, to: tuple[str, ...]) -> tuple[str, ...]:
    """The last one who offered (獻) to someone other than ``to``'s roles."""
    for agents in reversed(ctx.offerers):
        if not set(agents) & set(to):
            return agents
    return ()


def is_description(text: str) -> bool:
    """A clause that measures or places a thing (南北以堂深, 東西當東榮): no act."""
    return text.startswith(("南北", "東西"))


def is_condition(text: str) -> bool:
    """A clause that only states a condition (若矢不備; 大夫若有遵者)."""
    plain = re.sub(r"「.*?」", "", text)
    return "若" in plain and "則" not in plain and not plain.startswith("若飲君")


def quote_unmarked(text: str) -> str:
    """X曰Y in a text without quotation marks (the Kanripo 經): Y is what is said, to the end
    of the clause (大射儀 司射命上射曰某御於子 → 命…曰「某御於子」)."""
    if "「" in text or "曰" not in text:
        return text
    head, _, said = text.partition("曰")
    return f"{head}曰「{said}」" if said else text


def annotate_clause(pid: str, text: str, lexicon: Lexicon, ctx: Context) -> Record:
    """One clause's record, updating the context for the next clause."""
    record_text, text = text, quote_unmarked(text)
    paragraph = pid.rsplit(".", 2)[0]
    sentence = pid.rsplit(".", 1)[0]
    if paragraph != ctx.paragraph:
        ctx.paragraph = paragraph
        ctx.paragraph_has_agent = False
    ctx.new_sentence = sentence != ctx.sentence
    ctx.sentence = sentence
    if ctx.new_sentence:
        ctx.sentence_text = "".join(c.text for c in _SENTENCES.get(sentence, ())) or text
        if ctx.positive_agent and ctx.agent != ctx.positive_agent:
            ctx.agent = ctx.positive_agent  # 賓不辭洗。卒洗: the host, who did wash
    ctx.topic_role = ()
    if "則" in text[:4]:
        head = text.split("則", 1)[0]
        ctx.topic_role = tuple(t.of("role") for t in tokenize(head, lexicon) if t.of("role"))
    if is_description(text):
        return Record(pid, record_text, [], reason="description")
    if is_condition(text) or _followed_by_ze(pid):
        ctx.condition = re.sub(r"^.*?若", "若", text) if "若" in text else text
        subject = text.split("若", 1)[0]
        roles = [t.of("role") for t in tokenize(subject, lexicon) if t.of("role")]
        topic = subject.startswith("其")
        if ctx.new_sentence and pid.startswith("ji/") and (topic or not roles):
            ctx.agent = ()  # a rule of the 記 names no one
        if roles and topic:
            ctx.cond_topic = tuple(roles)  # 其笙，則獻諸西階上: the pipers are offered to
        elif roles:  # 大夫若有遵者，則入門左: the 大夫 enter
            ctx.agent = tuple(roles)
        return Record(pid, record_text, [], reason="cond")
    body = text.split("則", 1)[1] if "則" in text and text.index("則") < 4 else text
    ctx.clauses += 1
    reader = ClauseReader(lexicon, ctx)
    events = reader.read(body)
    ctx.condition = None
    ctx.cond_topic = ()
    for event in events:
        if not event.modifier:
            distinct_parties(event, lexicon, ctx, body)
    for event in events:
        if event.modifier:
            continue
        ctx.history.append((pid, event))
        if (
            event.kind == "為"
            and event.get("role")
            and any("司事者" in lexicon.role_classes.get(r, ()) for r in event.fields["role"])
        ):
            ctx.agent = ctx.positive_agent = event.fields["role"]  # 司馬反為司正，退: the 司正
            continue
        if "_sent" in event.fields:
            del event.fields["_sent"]
            continue
        if event.agent and event.marks.get("agent") != "?" and event.kind not in NOT_CARRIED:
            ctx.agent = event.agent
            if not (event.get("neg") and lexicon.is_a(event.kind, "辭")):
                ctx.positive_agent = event.agent
            ctx.partners = event.fields.get("with", ())
            ctx.paragraph_has_agent = True
    actions = [e for e in events if not e.modifier]
    if actions:
        last = actions[-1]
        answer = any(lexicon.is_a(last.kind, k) for k in ("答拜", "對", "拜送", "許", "辭"))
        ctx.answered = last.fields.get("to", ()) if answer else ()
        ctx.sent_to = last.fields.get("to", ()) if last.kind == "拜送" else ()
    commands = [e for e in events if e.kind in ("命", "使") and "to" in e.fields]
    if commands:
        ctx.command_to = commands[-1].fields["to"]
    elif events:
        ctx.command_to = ()
    reason = "" if events else "description"
    return Record(pid, record_text, events, reason=reason)


def annotate_text(texts: Iterable[str], lexicon: Lexicon | None = None) -> list[list[Event]]:
    """Events of consecutive clauses of one paragraph (for tests and doctests)."""
    lexicon = lexicon or default_lexicon()
    ctx = Context()
    return [
        annotate_clause(f"jing/1.1.{n}", text, lexicon, ctx).events
        for n, text in enumerate(texts, start=1)
    ]


_SENTENCES: dict[str, list] = {}


def _followed_by_ze(pid: str) -> bool:
    """X，則Y: a clause followed in its sentence by one beginning with 則 states a condition."""
    clauses = _SENTENCES.get(pid.rsplit(".", 1)[0], [])
    ids = [c.id for c in clauses]
    if pid not in ids or ids.index(pid) + 1 >= len(ids):
        return False
    return clauses[ids.index(pid) + 1].text.startswith("則")


def annotate_clauses(clauses, lexicon: Lexicon | None = None) -> list[Record]:
    """Records for every clause of a rite, in order (the context runs through the whole text)."""
    lexicon = lexicon or default_lexicon()
    _SENTENCES.clear()
    for clause in clauses:
        _SENTENCES.setdefault(clause.id.rsplit(".", 1)[0], []).append(clause)
    ctx = Context()
    records = []
    for clause in clauses:
        if clause.id in ("jing/1.1.1",) or clause.level == "heading":
            records.append(Record(clause.id, clause.text, [], reason="title"))
            continue
        records.append(annotate_clause(clause.id, clause.text, lexicon, ctx))
    return records
