"""The discourse pass: what a clause inherits from the clauses before it.

The subject carried over (docs/annotation.md, rule 3), the other party of an exchange (rule 4),
a pending condition (rule 8), the one just commanded, the one a cup was just sent to, 皆 and
groups. :class:`Context` is the state that runs through a rite; the ``carry`` rules of
``corpus/annotation-rules.tsv`` give an event without a subject its agent (the first that
decides wins); :func:`distinct_parties` keeps an agent from being his own recipient, and
:func:`remember` updates the context after each clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING

from yili_kg.loaders.annotation.annotations import Event, paragraph_of, sentence_of
from yili_kg.loaders.annotation.rules import Rule, one_word, rule, rule_named, rules, word_values
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.lexicon import Lexicon
from yili_kg.loaders.terms.tokens import leading_roles, tokenize
from yili_kg.loaders.terms.words import is_function_word

if TYPE_CHECKING:
    from collections.abc import Sequence

    from yili_kg.loaders.annotation.annotate import ClauseReader


@dataclass
class Context:
    """What a clause inherits from the clauses before it."""

    agent: tuple[str, ...] = ()
    paragraph: str = ""
    history: list[tuple[str, Event]] = field(default_factory=list)  # (clause id, event)
    # everyone who has acted or been addressed so far (agent or to of the history): whether the
    # ruler is in the rite is asked at every bow, and the history is the whole rite
    parties: set[str] = field(default_factory=set)
    condition: str | None = None
    command_to: tuple[str, ...] = ()  # the one commanded by the last 命/使
    sentence: str = ""
    ends_sentence: bool = True  # the clause being read is the last of its sentence
    rest_of_sentence: tuple[str, ...] = ()  # the texts of the clauses after it in its sentence
    sentence_clauses: tuple[str, ...] = ()  # the texts of every clause of its sentence
    new_sentence: bool = False
    answered: tuple[str, ...] = ()  # the one answered by the last 答拜/對 (the turn goes back)
    answered_kind: str = ""  # the kind of that answer (許: a grant gives the turn back at once)
    answer_named: bool = False  # that answer's clause named the answerer (賓答拜, not …答拜)
    paragraph_has_agent: bool = False
    partners: tuple[str, ...] = ()  # those the last agent acted with (以賓)
    pending: tuple | None = None  # subject and place of a verbless clause, for the next one
    pending_face: str | None = None  # and its facing (賓右北面，至再拜: rule stance-ahead)
    pending_to: tuple[str, ...] = ()  # 主人于其羣私人，不答拜: toward whom (rule toward-whom)
    clauses: int = 0  # clauses read so far
    pending_at: int = 0  # the clause that left ``pending``
    pending_sentence: str = ""  # its sentence
    topic_role: tuple[str, ...] = ()  # X則…: the person the clause is about
    said_of: tuple[tuple[str, ...], str] = ((), "")  # 記 賓為苟敬，…: who, and the sentence
    sentence_text: str = ""
    next_sentence_text: str = ""  # the next sentence of the paragraph (若賓，若長 after 唯公所賜)
    next_clause_text: str = ""  # the clause after this one in the text (擯者請受 → 賓禮辭)
    alternatives: tuple[str, ...] = ()  # the last 唯公所酬's alternatives (若賓，若長)
    positive_agent: tuple[str, ...] = ()  # the last agent of an act not denied
    offerers: list[tuple[str, ...]] = field(default_factory=list)  # agents of 獻, in order
    sent_to: tuple[str, ...] = ()  # the one a cup was just sent to (拜送爵): he drinks next
    cond_topic: tuple[str, ...] = ()  # 其笙，則獻諸西階上: the one the condition is about
    cond_subject: tuple[str, ...] = ()  # 若賓諸公卿大夫不勝，則不降: who does what follows
    served_standing: set[int] = field(default_factory=set)  # ids of rule served-stand's events
    unnamed_party: bool = False  # 若君賜之食: 之, named by no term, does what follows
    title_roles: tuple[str, ...] = ()  # 士相見之禮 → 士: the persons the rite's title names
    title_rulers: tuple[str, ...] = ()  # 公食大夫之禮 → 公: the rulers it names
    cond_things: tuple[str, ...] = ()  # 凡挾矢，於二指之間橫之: the things it names (之)
    thing_going: tuple | None = None  # 俎由東壁: the thing, its way, the sentence (thing-goes)
    named_things: tuple[tuple[str, ...], int, str] = ((), 0, "")  # 楅，髹: named alone (where)
    listed: tuple[tuple[str, ...], int, str] = ((), -1, "")  # 鼎二七, 米百筥: things listed (where)
    unnamed_at: int = -1  # 右兼取肝: where in the history a thing no term names was taken up
    offered: set[str] = field(default_factory=set)  # those offered to (獻X)
    trace: list[str] = field(default_factory=list)  # ids of the rules applied (for the tests)
    notes: tuple[str, ...] = ()  # the 注 on the clause being read, without the marks
    quoted: bool = False  # the clause opens inside a quotation an earlier clause opened
    open_command: tuple[Event, str, int] | None = None  # a 命 naming no one: paragraph, clause
    open_request: tuple[Event, str, int] | None = None  # a 請 to no one named: paragraph, clause
    texts: dict[str, str] = field(default_factory=dict)  # clause id → text, of the clauses read
    openings: dict[str, str] = field(default_factory=dict)  # paragraph → its first clause read
    chosen: tuple[str, ...] = ()  # 唯公所酬: the one the 公 chose, until another is named
    asked: tuple[Event, tuple[str, ...]] | None = None  # 請致者: the request, the men asked for
    command_content: tuple[Event, str, str] | None = None  # 命勝者執張弓: 命, 執, its sentence
    # rite_ruler's scan: rulers → (history items of earlier paragraphs scanned, the ruler found)
    rulers_seen: dict[tuple[str, ...], tuple[int, str | None]] = field(default_factory=dict)

    @property
    def clause_text(self) -> str:
        """The text of the clause being read (the last in ``texts``), as written."""
        return next(reversed(self.texts.values()), "")

    def clause_before(self) -> tuple[str, str] | None:
        """The clause read before this one (id, text), without copying every text read."""
        return next(islice(reversed(self.texts.items()), 1, None), None)

    def sentence_read(self) -> str:
        """The text of this sentence read so far, this clause's included (not the rite's
        every text filtered by sentence)."""
        rest = sum(map(len, self.rest_of_sentence))
        return self.sentence_text[: len(self.sentence_text) - rest]

    def last_act(self) -> tuple[str, Event] | None:
        """The last act read (clause id, event), not a modifier (+ record) of one."""
        return next(((pid, e) for pid, e in reversed(self.history) if not e.modifier), None)

    def last_other(self, agent: tuple[str, ...], within: int | None = None) -> tuple[str, ...]:
        """The doer of the latest act (among the last ``within``) by none of ``agent``."""
        mine = set(agent)
        window = self.history if within is None else self.history[-within:]
        return next(
            (e.agent for _, e in reversed(window) if e.agent and not mine & set(e.agent)), ()
        )


def carry(reader: ClauseReader, event: Event, text: str) -> None:
    """The agent of an event whose clause names no subject: the first ``carry`` rule that
    decides."""
    for r in rules("carry"):
        if r.apply(reader, event, text, r):
            reader.ctx.trace.append(r.id)
            return


def _unstated(event: Event) -> bool:
    event.fields["noagent"] = ("unstated",)
    return True


@rule("unnamed-one-acts")
def unnamed_one_acts(reader, event, text, rl) -> bool:
    """若君賜之食 / 君若降送之 / 若先生異爵者請見之: a condition in which a person does something
    to 之, one no term names, is about that one: he does what follows, so no one named before is
    carried into it (annotate._condition), and an act naming no one is no one's named, until
    someone is named again; the ruler, named each time he acts (君祭, 君命之食, 君卒爵), is not
    carried past his own clause while it lasts, which is until another is named."""
    ctx = reader.ctx
    if not ctx.unnamed_party or ctx.topic_role:  # (大夫則辭: topic-does)
        return False
    if not ctx.agent or reader.all_of(ctx.agent, YL.Ruler):  # 君卒爵，然後授虛爵: not the 君
        if ctx.title_roles:  # 士相見之禮: the one 之 stands for is the 士 the rite is of
            event.set("agent", ctx.title_roles, "^")
            return True
        return _unstated(event)
    return False


@rule("meat-raiser")
def meat_raiser(reader, event, text, rl) -> bool:
    """少牢饋食禮 司馬升羊右胖。髀不升 / 有司徹 乃升羊豕魚三鼎 / 士昏禮 合升: meat put into its
    vessel (rule meat-raised) naming no one is by the one who just put meat in, else by no one
    named, not the one carried over from another act."""
    raised = rule_named("meat-raised")
    acts = (raised.word("into-vessel"), raised.word("onto-stand"))
    if event.kind not in acts or raised.word("raise") not in text or event.kind in text:
        return False
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if earlier.kind in acts and earlier.agent:
            event.set("agent", earlier.agent, "^")
            return True
    return _unstated(event)


@rule("envoy-speaks")
def envoy_speaks(reader, event, text, rl) -> bool:
    """天子使大夫戒，曰「…」 / 使擯者還其贄于門外，曰「某也使某還贄」: words said right after one
    was sent (使X) on an errand, naming no one, are the message the one sent delivers: his, not
    the sender's, who otherwise goes on after the one sent (rule sent-acts)."""
    history = reader.ctx.history
    if event.kind not in rl.words["says"] or len(history) < 2:
        return False
    (_, sent), (_, done) = history[-2], history[-1]
    if sent.kind not in rl.words["send"] or not done.agent:
        return False
    if set(done.agent) != set(sent.fields.get("to", ())):
        return False
    event.set("agent", done.agent, "^")
    return True


@rule("dialogue-turn")
def dialogue_turn(reader, event, text, rl) -> bool:
    """寡君固曰不腆…。（對）寡君君之私也…臣敢固辭: words said just after another's words, naming
    no speaker, are the answer: said by the one those words were addressed to, else by the one
    who spoke before him (the two speak in turn), not by the one who just spoke."""
    if "say" not in event.fields or not reader.ctx.history or "cond" in event.fields:
        return False  # (則曰「左賢于右」: the same speaker, under another condition)
    lex = reader.lex
    if not (event.kind in rl.words["turns"] or lex.has(event.kind, "answer")):
        return False  # 命下射曰, 遂告曰: the one carried over speaks again
    if not (text.startswith(event.kind) or event.get("say") == text):
        return False  # 上曰「揚」: words under a case named before them, the same speaker
    if reader.ctx.topic_role or "cond" in reader.ctx.history[-1][1].fields:
        return False  # 在野，則曰…；庶人則曰…: a list of what each says, not an exchange
    spoken = [e for _, e in reversed(reader.ctx.history[-int(rl.word("within")) :])]
    if not spoken or "say" not in spoken[0].fields or len(spoken[0].agent) != 1:
        return False  # (賓至擯者請，對曰: two named as one speaker, a misreading, answer no one)
    last = spoken[0]
    to = tuple(x for x in last.fields.get("to", ()) if x not in last.agent)
    before = next((e.agent for e in spoken[1:] if "say" in e.fields and e.agent), ())
    speaker = to or (before if before and before != last.agent else ())
    if not speaker:
        return False
    event.set("agent", speaker, "?")
    return True


@rule("condition-subject")
def condition_subject(reader, event, text, rl) -> bool:
    """若賓諸公卿大夫不勝，則不降; 若與四方之賓燕。媵爵: the persons a condition names first after
    若 (or feasted with) do what follows it, naming no one (rule 8)."""
    if not reader.ctx.cond_subject:
        return False
    event.set("agent", reader.ctx.cond_subject, "^")
    return True


@rule("told-to-seek")
def told_to_seek(reader, event, text, rl) -> bool:
    """命曰「取矢不索」。弟子…應曰「諾」。乃復求矢，加于楅: an act on a thing opening with 乃,
    naming no one, right after a command whose words name that thing (取矢), is done by the one
    who answered the command (鄉射禮: the 弟子), else by the last other who laid that thing down
    where it goes (大射儀 小臣坐委矢于楅 … 乃復求矢: the 小臣), not by the commander."""
    ctx = reader.ctx
    things = event.fields.get("theme", ())
    if not text.startswith(rl.words["starts"]) or not things:
        return False
    within = ctx.history[-int(rl.word("within")) :]
    told = [
        k
        for k, (pid, e) in enumerate(within)
        if e.kind in rl.words["command"] and any(t in ctx.texts.get(pid, "") for t in things)
    ]
    if not told or not within[told[-1]][1].agent:
        return False
    commander = within[told[-1]][1].agent
    answers = [
        e.agent
        for _, e in within[told[-1] + 1 :]
        if reader.lex.has(e.kind, "answer") and e.agent and e.agent != commander
    ]
    doer = answers[-1] if answers else ()
    if not doer:
        doer = next(
            (
                e.agent
                for _, e in reversed(ctx.history[-int(rl.word("laid-within")) :])
                if e.agent
                and e.agent != commander
                and set(things) & set(e.fields.get("theme", ()))
                and reader.lex.has(e.kind, "yuDestination")
                and "dest" in e.fields
            ),
            (),
        )
    if not doer:
        return False
    event.set("agent", doer, "^")
    return True


@rule("commanded-does")
def commanded_does(reader, event, text, rl: Rule) -> bool:
    if reader.ctx.command_to and text.startswith(rl.words["starts"]):
        event.set("agent", reader.ctx.command_to, "^")
        return True
    return False


@rule("commanded-task")
def commanded_task(reader, event, text, rl: Rule) -> bool:
    """大射儀 遂命量人巾車張三侯。大侯之崇，見鵠于參…。不繫左下綱: an act naming no one, after a
    command of a task to persons named (張三侯) in the same paragraph and only clauses since that
    tell how the work is done, no act between, is done by those commanded (implied), not by the
    commander (who goes on at once after his command: 命…。反位)."""
    ctx = reader.ctx
    if not ctx.command_to or not ctx.history or ctx.command_content is None:
        return False
    cid, last = ctx.history[-1]
    if last is not ctx.command_content[0] or paragraph_of(cid) != ctx.paragraph:
        return False
    read = list(ctx.texts)
    between = len(read) - read.index(cid) - 2 if cid in read else 0
    if between < int(rl.word("between")) or reader.lex.has(event.kind, "command"):
        return False
    event.set("agent", ctx.command_to, "?")
    return True


@rule("commanded-list")
def commanded_list(reader, event, text, rl: Rule) -> bool:
    """大射儀 命三耦皆袒決遂，執弓，序出取矢: acts naming no one in the clauses of its sentence
    right after a command whose content opens with 皆 (all of those told, each: a list of what
    they do) go on with that list: done by those commanded (implied; 注: 三耦入次袒決遂執弓挾矢
    乃出), not by the commander carried over."""
    ctx = reader.ctx
    content = ctx.command_content
    if not content or content[2] != ctx.sentence or not ctx.history:
        return False
    command = content[0]
    told = command.fields.get("to", ())
    where = next((pid for pid, e in reversed(ctx.history) if e is command), None)
    if not told or where is None:
        return False
    if rl.word("all") not in ctx.texts.get(where, "").partition(command.kind)[2]:
        return False
    pid, last = ctx.history[-1]
    if last is not command and (sentence_of(pid) != ctx.sentence or last.agent != told):
        return False
    event.set("agent", told, "?")
    return True


@rule("commanded-all")
def commanded_all(reader, event, text, rl: Rule) -> bool:
    """遂命三耦各與其耦拾取矢。皆袒決遂: 皆, with no subject, just after a command are the ones
    commanded, all of them (命負侯。皆執其旌: the target-bearers), not the commander with his
    companions."""
    to = reader.ctx.command_to
    if not (to and reader.all_):
        return False
    event.set("agent", to, "^")
    return True


@rule("all-things")
def all_things(reader, event, text, rl: Rule) -> bool:
    """大射儀 賓之弓矢與中、籌、豐，皆止于西堂下: 皆 naming no one right after a clause of its
    sentence that only named things, no act since, is those things: what is done or where they
    go is said of them, by no one named (注: 司射矢亦止西堂下), not the one carried over; not 如
    (皆如還玉禮: how the one carried over handles them)."""
    ctx = reader.ctx
    named, at, sentence = ctx.named_things
    if not (reader.all_ and named) or sentence != ctx.sentence or at != len(ctx.history):
        return False
    if event.kind == rl.word("like"):
        return False  # 束帛，皮，皆如還玉禮: how the doer carried over handles them
    if "theme" not in event.fields:
        event.set("theme", named, "^")
    return _unstated(event)


@rule("all-after-last")
def all_after_last(reader, event, text, rl: Rule) -> bool:
    """大射儀 二耦拾取矢…後者遂取誘射之矢，兼乘矢而取之，以授有司于次中。皆襲，反位: 皆 naming
    no one right after the acts of the last of the pairs to take arrows (rule the-last: the 下耦
    下射) is all the pairs (三耦), who have all taken theirs, not he alone."""
    last, group = rl.word("last"), rl.word("group")
    if not reader.all_ or reader.ctx.agent != (last,):
        return False
    event.set("agent", (group,), "^")  # the pairs who took their arrows, carried on (反位)
    return True


@rule("eldest-then-all")
def eldest_then_all(reader, event, text, rl: Rule) -> bool:
    """有司徹 兄弟之長升，拜受爵…不拜既爵。皆若是以辯。辯受爵: 辯 (every one in turn) opening a
    clause naming no one, right after the acts of the eldest of a group (yl:hasMember: 兄弟 →
    長兄弟), is the whole group, each doing as he did, not the eldest alone."""
    if not text.startswith(rl.word("every")) or len(reader.ctx.agent) != 1:
        return False
    eldest = reader.ctx.agent[0]
    elder = rule_named("eldest-receives").word("elder")
    if not (eldest.startswith(elder) or eldest.endswith(elder)):
        return False
    group = next((g for g, ms in reader.lex.members.items() if eldest in ms), None)
    if group is None:
        return False
    event.set("agent", (group,), "^")
    return True


@rule("all-offered")
def all_offered(reader, event, text, rl: Rule) -> bool:
    """大射儀 司馬師…洗，獻隸㒒人與巾車獲者，皆如大侯之禮: 皆, with no subject, right after an
    offering (獻, 酬 …) made in the same sentence to several persons the text names, are those
    offered to, each receiving as another did (注: 其受獻之禮如服不也), not the one who offers."""
    ctx = reader.ctx
    if not (reader.all_ and ctx.history):
        return False
    cid, last = ctx.history[-1]
    to = last.fields.get("to", ())
    if sentence_of(cid) != ctx.sentence or last.kind not in reader.lex.frames["offering"]:
        return False
    if len(to) < 2 or last.marks.get("to") or last.agent != ctx.agent:
        return False
    event.set("agent", to, "^")
    return True


@rule("all-served")
def all_served(reader, event, text, rl: Rule) -> bool:
    """士昏禮 贊…酌酳主人。主人拜受。贊…答拜。酳婦亦如之。皆祭: 皆, with no subject, after the
    one carried over offered the cup (yl:offering) to two or more persons one after the other
    in the paragraph, is those offered to, who each drink (疏: 皆祭者祭先也), not the offerer."""
    ctx, offering = reader.ctx, reader.lex.frames["offering"]
    if not (reader.all_ and ctx.agent) or event.kind in offering:
        return False
    served: list[str] = []
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        if earlier.kind in offering and set(earlier.agent) == set(ctx.agent):
            served[:0] = [p for p in earlier.fields.get("to", ()) if p not in served]
    last = ctx.history[-1][1] if ctx.history else None
    if (
        last is not None
        and set(last.agent) == set(ctx.agent)
        and len(last.fields.get("to", ())) > 1
    ):
        served = list(last.fields["to"])  # 拜 to=主人,婦 … 皆答拜: those he just bowed to
    served = [p for p in served if p not in ctx.agent]
    if len(served) < 2:
        return False
    event.set("agent", tuple(served), "^")
    return True


@rule("asked-ones-act")
def asked_ones_act(reader, event, text, rl: Rule) -> bool:
    """小臣請致者。若命皆致，則序進: what follows a request for men named for their task (rule
    asked-for), with no one named and only a condition between, is done by those men (the
    媵爵者 go forward), not by the one who asked, unless it is his command to them (乃命執冪者)."""
    asked, history = reader.ctx.asked, reader.ctx.history
    if not (asked and history and history[-1][1] is asked[0]):
        return False
    if event.kind in reader.lex.frames["command"]:
        return False  # 請執冪者與羞膳者。乃命執冪者: the one who asked commands them
    event.set("agent", asked[1], "^")
    return True


@rule("asks-again")
def asks_again(reader, event, text, rl: Rule) -> bool:
    """小臣又請媵爵者。二大夫媵爵如初。請致者: a request naming no one who makes it, soon after
    another's request, is his again (疏: 此請致者亦小臣也), not made by those who did what he
    asked for nor by the one he asked; 又請 (asking again) looks further back, and asks the
    guest (yl:Guest) asked before (既夕禮 擯者出請…士受羊，如受馬。又請 → agent=擯者^ to=賓?),
    or, the one asked before being no guest (a ruler who only sent a gift, guessed), the last
    guest to act since."""
    if not reader.is_a(event.kind, rl.word("request")):
        return False
    carried = set(reader.ctx.agent)
    if any(
        sentence_of(pid) == reader.ctx.sentence and e.agent and not e.marks.get("agent")
        for pid, e in reader.ctx.history[-3:]
    ):
        return False  # 賓執鴈，請問名: the one this sentence named asks
    again = text.startswith(rl.word("again"))  # 又請: the same request made again
    within = int(rl.word("within-again" if again else "within"))
    for _, earlier in reversed(reader.ctx.history[-within:]):
        if reader.is_a(earlier.kind, rl.word("request")) and earlier.agent:
            asker = earlier.agent
            if set(asker) & carried or carried & set(earlier.fields.get("to", ())):
                return False
            event.set("agent", asker, "^")
            if again and "to" not in event.fields:
                asked = _guest_asked(reader, earlier, within)
                if asked:
                    event.set("to", asked, "?")  # to the guest asked before
            return True
    return False


@rule("returns-command")
def returns_command(reader, event, text, rl: Rule) -> bool:
    """射人命賓，賓少進，禮辭。反命: the answer is carried back by the one who gave the
    command (注: 以賓之辭告於君), not by the one who answered it."""
    if event.kind not in rl.words["acts"]:
        return False
    within = int(rl.word("within"))
    for _, earlier in reversed(reader.ctx.history[-within:]):
        if earlier.kind in reader.lex.frames["command"] and earlier.agent:
            event.set("agent", earlier.agent, "^")
            return True
    return False


@rule("added-mat")
def added_mat(reader, event, text, rl) -> bool:
    """司宮設賓席于户西，南面，有加席 / 小臣設公席于阼階上，西鄉。設加席: an added mat laid (or
    denied) naming no one, right after one named laid a mat for one named in the same sentence
    (a facing between), is laid by him on that mat: for the same one; not after a mat laid by
    no one named (席于阼階西，北面，東上。無加席)."""
    if not set(event.fields.get("theme", ())) & set(rl.words["added"]):
        return False
    last = reader.ctx.last_act()
    if last is None or sentence_of(last[0]) != reader.ctx.sentence:
        return False
    laid = last[1]
    named = bool(laid.agent) and not laid.marks.get("agent")
    if laid.kind not in rl.words["lays"] or not named or "to" not in laid.fields:
        return False
    if laid.marks.get("to") == "?":
        return False
    event.set("agent", laid.agent, "^")
    event.set("to", laid.fields["to"], "?")
    return True


@rule("set-by-carriers")
def set_by_carriers(reader, event, text, rl) -> bool:
    """獲者執爵，使人執其薦與俎從之，適右個，設薦俎: setting down, naming no one, just after
    someone followed another carrying things, is done by those who carry what is set (注: 人謂
    主人贊者上設薦俎者也), each his own (獲者皆執其薦，庶子執俎從之，設于乏少南: both), not by
    the one carried over nor by no one."""
    if event.kind not in rl.words["lays"]:
        return False
    recent = [e for _, e in reader.ctx.history[-int(rl.word("within")) :]]
    follows = [k for k, e in enumerate(recent) if e.kind in rl.words["follow"] and "to" in e.fields]
    if not follows or any(e.kind in rl.words["hand"] for e in recent[follows[-1] :]):
        return False  # (婦贊者執棗糗以從。主婦不興，受，設棗于菹北: handed over, hers)
    things = set(event.fields.get("theme", ()))
    held = [
        e
        for e in recent[: follows[-1]]
        if e.kind in rl.words["hold"] and e.get("neg") != "1" and "theme" in e.fields
        if not things or things & set(e.fields["theme"])
    ]
    if not held:
        return False
    event.set("agent", tuple(dict.fromkeys(a for e in held for a in e.agent)), "^")
    if not things:  # 設于乏少南: what they carry
        event.set("theme", tuple(dict.fromkeys(t for e in held for t in e.fields["theme"])), "?")
    return True


@rule("setting-out-unstated")
def setting_out_unstated(reader, event, text, rl) -> bool:
    lex = reader.lex
    if lex.has(event.kind, "noAgent"):
        return _unstated(event)
    holder = named_just_before(reader.ctx)
    if event.kind in rl.words["lays"] and "theme" not in event.fields and holder:
        event.set("agent", holder, "^")  # 司宮兼卷重席，設于賓左: he lays what he holds
        return True
    if reader.assisting:
        return False  # 贊設決: the one helping lays it, carried on (rule helped-one)
    if (
        event.kind in rl.words["fills"]
        and set(event.fields.get("theme", ())) & set(rl.words["cups"])
        and not event.marks.get("theme")
    ):
        return False  # 實觶: a cup filled, one of the round, not food put into its vessel (實鼎)
    taker = _took_just_before(reader, rl, event.kind in rl.words["lays"])
    if taker and lex.has(event.kind, "settingOut"):
        event.set("agent", taker, "^")  # 主婦不興，受，設于羊鉶之西: she sets what she received
        return True
    layer = _laying_in_sentence(reader)
    if layer and lex.has(event.kind, "settingOut"):
        event.set("agent", layer, "^")  # 甸人陳鼎七，當門，南面西上，設扃鼏: he goes on
        return True
    if lex.has(event.kind, "settingOut") and (
        not reader.ctx.paragraph_has_agent or event.kind in lex.frames["unstatedAgent"]
    ):
        return _unstated(event)
    return False


def _took_just_before(reader: ClauseReader, rl, lays: bool = False) -> tuple[str, ...]:
    """有司徹 婦贊者執豕鉶以從，主婦不興，受，設于羊鉶之西; 取籩于房，䵄蕡坐設于豆西: the one who
    received or took a thing in the act just before, in the paragraph, sets it out himself; so
    one who cleared a thing away or went in or up bringing it (士虞禮 祝反，入徹，設于西北隅;
    少牢 …從入。設俎)."""
    ctx = reader.ctx
    if not ctx.history:
        return ()
    pid, last = ctx.history[-1]
    if paragraph_of(pid) != ctx.paragraph or last.get("neg") == "1" or last.modifier:
        return ()
    if set(last.fields.get("theme", ())) & set(rl.words["cups"]):
        return ()  # 辯受爵。其薦脯醢與脀，設于其位: a cup received is not what is set out
    if lays and last.kind in rl.words["cleared"]:
        return last.agent  # 入徹，設于西北隅: what he cleared away he lays there (not 徹之。乃薦)
    return last.agent if last.kind in rl.words["took"] else ()


def _laying_in_sentence(reader: ClauseReader) -> tuple[str, ...]:
    """公食大夫禮 甸人陳鼎七，當門，南面西上，設扃鼏: the person the sentence names setting things
    out (設, 陳), when only where they lie has been told since (a state), goes on setting out."""
    ctx = reader.ctx
    for pid, earlier in reversed(ctx.history):
        if sentence_of(pid) != ctx.sentence:
            return ()
        if earlier.fields.get("noagent") == ("state",):
            continue
        named = _named([earlier]) and earlier.get("neg") != "1"
        return earlier.agent if named and reader.lex.has(earlier.kind, "settingOut") else ()
    return ()


def named_just_before(ctx: Context) -> tuple[str, ...]:
    """The subject of the last act when this sentence names it (not carried), else none."""
    if not ctx.history:
        return ()
    pid, last = ctx.history[-1]
    named = sentence_of(pid) == ctx.sentence and _named([last]) and last.get("neg") != "1"
    return last.agent if named else ()


@rule("things-follow")
def things_follow(reader, event, text, rl) -> bool:
    """既夕禮 柩從 / 車從 / 茵苞器序從 / 巾席從而降: things heading a clause and 從 (they follow
    in the procession), no person named, are carried by those the text does not name: no one's,
    not the one carried over (the 祝 who lifted the offering); an act joined to it by 而 too."""
    follow = rl.word("follow")
    head, found, _ = text.partition(follow)
    if not found or not head:
        return False
    tokens = tokenize(head, reader.lex)
    if not tokens or any(t.of("role") for t in tokens):
        return False
    if any(t.of("action") and not t.of("object") for t in tokens):
        return False  # 遂從, 奠從 (奠, an act as a noun: not read as a thing)
    if is_function_word(tokens[0].text):
        return False  # 乃從, 皆從
    events = reader.events
    at = next((k for k, e in enumerate(events) if e is event), -1)
    first = (
        at >= 0
        and event.kind == follow
        and all(e.get("noagent") == "unstated" and e.kind != follow for e in events[:at])
    )  # (巾席: 席 read as an act of no one before it)
    joined = (
        len(events) > 1
        and events[-1] is event
        and rl.word("and") + event.kind in text
        and events[-2].get("noagent") == "unstated"
    )
    if not (first or joined):
        return False
    return _unstated(event)


@rule("mourners-as-before")
def mourners_as_before(reader, event, text, rl) -> bool:
    """士虞禮 尸入門，丈夫踊，婦人踊。…尸入户，踊如初 / 既夕禮 徹者入，丈夫踊…徹者入，踊如初:
    leaping or wailing 'as at first' (如初) naming no one repeats the last leaping of the
    mourners, when the one carried over (the 尸, the removers) has never done that act: the
    persons of that passage who did it (主人及兄弟踊，婦人亦如之), implied; with none, the men
    and the women (丈夫, 婦人). One who has leapt before goes on (拜稽顙，踊如初 → 主人^)."""
    if event.kind not in rl.words["acts"] or event.get("like") != rl.word("first"):
        return False
    history = reader.ctx.history
    carried = set(reader.ctx.agent)
    if carried and any(
        e.kind == event.kind and e.get("neg") != "1" and carried & set(e.agent) for _, e in history
    ):
        return False
    event.set("agent", last_mourners(history, event.kind, rl), "?")
    return True


def last_mourners(history, kind: str, rl: Rule) -> tuple[str, ...]:
    """Those who last did the mourning act ``kind`` among whom the men or the women (丈夫,
    婦人) were: every doer of it in that passage (丈夫踊，婦人踊; 主人及兄弟踊，婦人亦如之);
    else the men and the women. ``rl`` is rule mourners-as-before."""
    mourners = set(rl.words["mourners"])
    last = next(
        (
            n
            for n in range(len(history) - 1, -1, -1)
            if _mourned(history, n, kind, rl) and mourners & set(history[n][1].agent)
        ),
        None,
    )
    if last is None:
        return rl.words["mourners"]
    passage = paragraph_of(history[last][0])
    first = last
    while first > 0 and paragraph_of(history[first - 1][0]) == passage:
        first -= 1
    agents: list[str] = []
    for m in range(first, last + 1):
        if _mourned(history, m, kind, rl):
            agents.extend(a for a in history[m][1].agent if a not in agents)
    return tuple(agents)


def _mourned(history, n: int, kind: str, rl: Rule) -> bool:
    """The n-th event of the history is the act ``kind`` done (not denied) by someone named, or
    a 如之 right after it (婦人亦如之)."""
    e = history[n][1]
    if not e.agent or e.get("neg") == "1":
        return False
    if e.kind == kind:
        return True
    return (
        e.kind == rl.word("like")
        and e.get("like") == rl.word("that")
        and n > 0
        and history[n - 1][1].kind == kind
    )


@rule("fronted-object")
def fronted_object(reader, event, text, rl) -> bool:
    """三耦…拾取矢，如初，矢不挾，兼諸弦弣以退: a thing named first in a clause, before 不 or
    亦, inside a sentence whose last act was someone's, is what he goes on doing it to (the
    arrows he does not hold on the string; 獲者…適左個，中亦如之), not a thing acted on by no one
    named (衆弓矢不挾, first in its sentence; 乃張侯，下綱不及地武: no one did the act before),
    nor a thing that itself goes (酒脯醢俎從)."""
    ctx = reader.ctx
    if not reader.topic or not reader.events or reader.events[0] is not event:
        return False
    tokens = tokenize(text, reader.lex)
    if len(tokens) < 2 or not tokens[1].text.startswith(rl.words["next"]):
        return False  # 酒脯醢俎從, 爵止: the thing itself goes or stops
    last = ctx.last_act()
    if last is None or paragraph_of(last[0]) != ctx.paragraph or not last[1].agent:
        return False
    event.set("agent", last[1].agent, "^")
    return True


@rule("ji-usual-commander")
def ji_usual_commander(reader, event, text, rl) -> bool:
    """鄉射禮 記 命負侯者，由其位: a command in the 記 naming no one, to a person named, is given
    by the one who last gave that person that command, by name, in another sentence (經
    司馬命獲者執旌以負侯: the 司馬), implied; the 記 tells how he does it (注: 於賤者禮略)."""
    ctx = reader.ctx
    told = event.fields.get("to", ())
    if not ctx.sentence.startswith(rl.words["part"]) or not told or event.marks.get("to"):
        return False
    if not reader.lex.has(event.kind, "command"):
        return False
    for pid, earlier in reversed(ctx.history):
        if sentence_of(pid) == ctx.sentence or earlier.marks.get("agent") == "?":
            continue
        if earlier.kind == event.kind and earlier.fields.get("to") == told and earlier.agent:
            event.set("agent", earlier.agent, "?")
            return True
    return False


@rule("words-to-spirits")
def words_to_spirits(reader, event, text, rl) -> bool:
    """士虞禮 記 曰哀薦虞事 / 曰薦此常事 / 曰薦此祥事: words that offer
    to the spirits (饗, 薦, 奠 in what is said), said by no one named, are the 祝's, who speaks
    for the sacrificer (注 士虞禮: 祝祝; 饗辭，勸彊尸之辭也), implied, not no one's (the 記's
    rule names no one) nor a person the words name (孝子某, 皇祖)."""
    if event.kind not in rl.words["says"] or "say" not in event.fields or event.kind not in text:
        return False  # (適爾皇祖某甫…尚饗: the words go on, no new speech)
    if not any(w in (event.get("say") or "") for w in rl.words["offer"]):
        return False
    if rl.word("speaker") not in reader.lex.forms["role"]:
        return False  # 士冠禮 醴辭曰甘醴惟厚，嘉薦令芳: no 祝 serves there (the 賓's words)
    event.set("agent", (rl.word("speaker"),), "?")
    return True


@rule("ji-names-no-one")
def ji_names_no_one(reader, event, text, rl) -> bool:
    ctx = reader.ctx
    if ctx.sentence.startswith(rl.words["part"]) and ctx.new_sentence:
        return _unstated(event)  # (and no one is carried on: annotate._begin_clause)
    return False


@rule("generic-sentence")
def generic_sentence(reader, event, text, rl) -> bool:
    """凡燕見于君 / 凡與大人言，始視面: a sentence that opens with 凡 states a rule for anyone
    in that case, as the 記 does: no one is carried into it from the sentences before, and an
    act it names no one for is no one's (and no one is carried over: annotate._begin_clause)."""
    ctx = reader.ctx
    if ctx.new_sentence and is_generic_sentence(ctx.sentence_text, rl):
        return _unstated(event)
    return False


def is_generic_sentence(sentence: str, rl) -> bool:
    """A sentence that opens with 凡 and states a rule: not 凡 before a number, 'in all' (士喪禮
    凡十有九稱: so many garments altogether)."""
    return sentence.startswith(rl.words["generic"]) and sentence[1:2] not in word_values("numeral")


@rule("cleared-after-round")
def cleared_after_round(reader, event, text, rl) -> bool:
    """射爵辯，乃徹豐與觶: things cleared away (徹, or 退 with its thing), naming no one, right
    after a clause that says a round is over (X辯: all have drunk; 卒), are cleared by no one
    named: not the last of those who drank (注: 徹，除也)."""
    if event.kind not in rl.words["clear"] or not event.fields.get("theme"):
        return False
    before = reader.ctx.clause_before()
    if before is None or not before[1].endswith(tuple(rl.words["over"])):
        return False
    if any(pid == before[0] for pid, _ in reader.ctx.history[-3:]):
        return False  # 卒爵, 辯獻: the clause before is an act of its own
    return _unstated(event)


@rule("sent-by-host")
def sent_by_host(reader, event, text, rl) -> bool:
    """使二人舉觶于賓介 with no one named who sends them: the ones sent are of the host's side
    (yl:Principal: 注: 二人亦主人之吏), so the host sends them, not the officer carried over
    (司正降復位，使二人舉觶: the 司正 has gone back to his place)."""
    host = rl.word("host")
    sent = event.fields.get("to", ())
    if event.kind not in rl.words["send"] or not sent or host in sent:
        return False
    if not reader.all_of(sent, YL.Principal):
        return False
    event.set("agent", (host,), "?")
    return True


@rule("usher-sent")
def usher_sent(reader, event, text, rl) -> bool:
    """士相見禮 賓出。使擯者還其贄于門外 / 若他邦之人，則使擯者還其摯: the usher (擯者, the
    host's: 注: 擯者，有司佐禮者) sent with no one named who sends him is sent by his master, the
    last of the host's side or the ruler to act (the 主人 who answered the bow; the 君 who
    answered it, 疏: 君所不臣…), not the guest carried over."""
    sent = event.fields.get("to", ())
    if event.kind not in rl.words["send"] or sent != (rl.word("usher"),):
        return False
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        doer = earlier.agent
        if doer and (reader.all_of(doer, YL.Principal) or reader.all_of(doer, YL.Ruler)):
            event.set("agent", doer, "^" if doer == reader.ctx.agent else "?")
            return True
    return False


@rule("laid-opposite")
def laid_opposite(reader, event, text, rl) -> bool:
    """釋獲者坐設中，南當楅，西當西序: 當 naming no one, right after one set a thing down in the
    same sentence, is where the thing lies (opposite the 楅), a state: not the one who set it
    walking to a place opposite (甸人陳鼎七，當門: the tripods face the gate); so too after things
    set out by no one named (燕禮 設洗篚于阼階東南，當東霤), and when the thing is named before
    當 in the next sentence of the paragraph (公食大夫禮 宰夫設黍稷六簋于俎西…。黍當牛俎). Things
    set out in a row (陳) by no one named are what stands opposite (少牢饋食禮 陳鼎于東方，當序;
    士喪禮 陳一鼎于寢門外，當東塾 → theme=鼎^), as a 設 by no one named is not."""
    if event.kind != rl.word("opposite") or not reader.ctx.history:
        return False
    cid, last = reader.ctx.history[-1]
    head = text.partition(rl.word("opposite"))[0]  # 黍當牛俎: a thing (or a word no term) first
    fronted = (
        bool(head) and paragraph_of(cid) == reader.ctx.paragraph and _only_things(reader, head)
    )
    if sentence_of(cid) != reader.ctx.sentence and not fronted:
        return False
    laid = last.kind in rl.words["lays"] and bool(last.agent or last.fields.get("noagent"))
    chained = last.kind == event.kind and last.fields.get("noagent") == ("state",)
    if not (laid or chained):
        return False
    lined = last.kind in rl.words["lined"]  # 陳鼎于東方，當序: the tripods set out in a row
    carried = not fronted and (
        bool(last.agent) or chained or lined
    )  # not the 洗 of 設洗…，當東霤 (its placing)
    if carried and last.fields.get("theme") and last.marks.get("theme") != "?":  # not implied
        event.set("theme", last.fields["theme"], "^")
    event.fields["noagent"] = ("state",)
    return True


def _only_things(reader: ClauseReader, head: str) -> bool:
    """Whether the words of ``head`` name only things, or words no term (no person, place,
    direction or act)."""
    return all(
        not token.kinds or set(token.kinds) <= {"object"} for token in tokenize(head, reader.lex)
    )


@rule("served-stand")
def served_stand(reader, event, text, rl) -> bool:
    """燕禮 乃薦司正與射人一人、司士一人、執冪二人，立于觶南: standing (立) naming no one, right
    after dishes set out in the same sentence by no one named for persons the text names, is
    theirs, who take their place to be served, not the one who acted last; they are not carried
    on, nor taken for the one who acts next (辯獻士: the 主人 who offered before)."""
    ctx = reader.ctx
    if event.kind not in rl.words["stand"] or not ctx.history:
        return False
    cid, last = ctx.history[-1]
    served = last.fields.get("to", ())
    if sentence_of(cid) != ctx.sentence or last.kind not in rl.words["serve"]:
        return False
    if not served or last.marks.get("to") or last.fields.get("noagent") != ("unstated",):
        return False
    event.set("agent", served, "^")
    event.fields["_aside"] = ("1",)
    ctx.served_standing.add(id(event))
    return True


@rule("gift-met")
def gift_met(reader, event, text, rl) -> bool:
    """覲禮 天子賜侯氏以車服。迎于外門外，再拜: meeting (迎) naming no one, right after the ruler
    gave a person a gift, is that person's, who meets those who bring it (注: 王同時分命之而使賜
    侯氏也): the ruler gives by others and meets no one at the receiver's gate."""
    ctx = reader.ctx
    if event.kind not in rl.words["meet"] or not ctx.history:
        return False
    last = ctx.history[-1][1]
    given = last.fields.get("to", ())
    if last.kind not in rl.words["give"] or not given or last.marks.get("to"):
        return False
    if not last.agent or not reader.all_of(last.agent, YL.Ruler):
        return False
    event.set("agent", given, "^")
    return True


@rule("seated-leave-place")
def seated_leave_place(reader, event, text, rl) -> bool:
    """記 賓、主人射，則司射擯升降，卒射即席，而反位卒事: going back to one's place (反位) naming no
    one, right after those carried over went to their mats (就席) in the same sentence, is not
    theirs, who are seated, but the last other who acted in it (the 司射 who ushered them)."""
    ctx = reader.ctx
    if event.kind != rl.word("back") or not ctx.history:
        return False
    pid, last = ctx.history[-1]
    if last.kind != rl.word("mat") or sentence_of(pid) != ctx.sentence or last.agent != ctx.agent:
        return False
    other = next(
        (
            e.agent
            for p, e in reversed(ctx.history)
            if sentence_of(p) == ctx.sentence and e.agent and not set(e.agent) & set(ctx.agent)
        ),
        (),
    )
    if not other:
        return False
    event.set("agent", other, "^")
    return True


@rule("treated-as")
def treated_as(reader, event, text, rl) -> bool:
    """鄉射禮 記 若有諸公，則如賓禮: following another person's rite (如 + a role + 禮) naming no
    one, right after a condition that only says some are there, is theirs: they are treated as
    that person is (注: 大國之孤), not the one carried over."""
    ctx = reader.ctx
    like = event.get("like") or ""
    if event.kind != rl.word("like") or not ctx.cond_topic or not like.endswith(rl.word("rite")):
        return False
    if like[: -len(rl.word("rite"))] not in reader.lex.forms["role"]:
        return False
    event.set("agent", ctx.cond_topic, "^")
    return True


@rule("receives-handed")
def receives_handed(reader, event, text, rl) -> bool:
    """執爵者取觶，降洗，升實之，以授于席前。受觶: receiving (受) naming no one, just after the
    one carried over handed a thing (授), is the one it was handed to: the 授's recipient, else
    the last other person to act (若賓、主人、大夫不勝，則不執弓: those who lost), not the giver."""
    if event.kind not in rl.words["receive"] or not reader.ctx.history:
        return False
    last = reader.ctx.history[-1][1]
    if last.kind not in rl.words["give"] or last.agent != reader.ctx.agent:
        return False
    taker = last.fields.get("to", ()) or reader.ctx.last_other(last.agent, int(rl.word("within")))
    if not taker:
        return False
    event.set("agent", taker, "^")
    return True


@rule("eater-eats")
def eater_eats(reader, event, text, rl) -> bool:
    """尸又食, 乃皆食: eating (飯) naming no one is by those who last ate, tasted or offered food
    (飯, 嚌, 祭), among the last acts: the 尸 served, not the 佐食 who laid the portion on the
    stand after it (少牢饋食禮 佐食受，加于肵，橫之。又食 → 尸^); 皆 (all of them) after one
    person alone leaves the eaters unnamed."""
    if event.kind not in rl.words["eat"]:
        return False
    doer = last_doer(reader, rl, lambda kind: kind in rl.words["food-acts"])
    if rl.word("all") in text and len(doer) == 1 and not reader.lex.has(doer[0], "collective"):
        event.no_doer()  # 皆食 after one alone: the several who eat are not named
        return True
    if doer:
        event.set("agent", doer, "^")
    return bool(doer)


@rule("lifter-lifts")
def lifter_lifts(reader, event, text, rl) -> bool:
    """士虞禮 又三飯。舉肩 / 舉胳: lifting a portion (舉) naming no one, right after the eater
    ate or offered (飯, 祭), is by the one who last lifted a portion for him (佐食舉肺脊授尸,
    佐食舉魚腊), not the eater carried over."""
    history = reader.ctx.history
    if event.kind != rl.word("lift") or not history or history[-1][1].kind not in rl.words["eat"]:
        return False
    eater = set(history[-1][1].agent)
    lifter = last_doer(reader, rl, lambda kind: kind == rl.word("lift"))
    if not eater or not lifter or set(lifter) & eater:
        return False
    event.set("agent", lifter, "?")
    return True


@rule("finisher-of-act")
def finisher_of_act(reader, event, text, rl) -> bool:
    """卒X without a subject (卒盥, 卒洗): by the agent of the last X (or a kind of X: 拾發 is a
    射) among the last acts, when someone else declined or answered in between (主人降盥。賓降，
    主人辭降，賓對。卒盥; 拾發以將乘矢。獲者坐而獲…卒射: both archers)."""
    finish = rl.word("finish")
    done = event.kind[len(finish) :] if event.kind.startswith(finish) else ""
    if not done or done not in reader.lex.iri["action"]:  # a label of an act
        return False
    case = _case_doers(reader, done)  # 記 賓、主人射，則司射擯升降，卒射即席: the case's persons
    if case:
        event.set("agent", case, "^")
        return True
    finished = [
        e.agent for _, e in reader.ctx.history[-int(rl.word("within")) :] if e.kind == event.kind
    ]  # 三耦卒射。…公…就物…卒射如初: not those whose finishing is already told
    doer = last_doer(
        reader, rl, lambda kind: reader.is_a(kind, done), lambda agent: agent not in finished
    )
    if doer:
        event.set("agent", doer, "^")  # even when another answered last
    return bool(doer)


def _case_doers(reader: ClauseReader, done: str) -> tuple[str, ...]:
    """The persons of the case that opens this sentence, when it is only they and the act
    finished (記 賓、主人射，則…，卒射即席: the 賓 and the 主人), a case and no act told."""
    ctx = reader.ctx
    first = next((pid for pid in ctx.texts if sentence_of(pid) == ctx.sentence), None)
    if first is None or any(pid == first for pid, _ in ctx.history[-4:]):
        return ()
    tokens = tokenize(ctx.texts[first], reader.lex)
    if len(tokens) < 2 or tokens[-1].of("action") != done:
        return ()
    if not all(t.of("role") or set(t.kinds) <= {"and"} for t in tokens[:-1]):
        return ()
    return tuple(r for t in tokens[:-1] if (r := t.of("role")))


def last_doer(reader: ClauseReader, rl: Rule, did, by=None) -> tuple[str, ...]:
    """The agent of the last act, within the rule's ``within`` acts, whose kind ``did`` holds,
    whose agent ``by`` holds (if given) and which is not denied (卒盥: the one who washed;
    升成拜: the one who bowed; 乃奏: the musician who acted)."""
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if (
            did(earlier.kind)
            and earlier.agent
            and earlier.get("neg") != "1"
            and (by is None or by(earlier.agent))
        ):
            return earlier.agent
    return ()


@rule("both-parties")
def both_parties(reader, event, text, rl) -> bool:
    """主人西階上酬介…如賓酬主人之禮: a procedure repeated (如) whose model names two persons,
    one acting on the other (賓酬主人), is done again by both parties of the last such act, the
    one who did it and the one it was done to (the host pledging, the 介 pledged), not by the
    one carried over alone; not with 皆 (皆如賓酬主人之禮: those pledged in turn)."""
    model = event.get("like") or ""
    if event.kind != rl.word("like") or not model.endswith(rl.word("rite")):
        return False
    if rl.word("all") in text.split(event.kind, 1)[0]:
        return False
    tokens = tokenize(model[: -len(rl.word("rite"))], reader.lex)
    kinds = [t.kinds for t in tokens]
    if len(tokens) != 3 or not ("role" in kinds[0] and "action" in kinds[1] and "role" in kinds[2]):
        return False
    act = tokens[1].of("action")
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if earlier.kind == act and earlier.agent and earlier.fields.get("to"):
            event.set("agent", tuple(dict.fromkeys((*earlier.agent, *earlier.fields["to"]))), "^")
            return True
    return False


def rite_ruler(ctx: Context, rulers: Sequence[str]) -> str | None:
    """The ruler of the rite: the first of ``rulers`` to act in it (in 覲禮 the 天子, whose lords
    bow to him; in 燕禮 and 大射儀 the 公, whatever 天子 a later clause names), acting alone or with
    rulers only: not 士喪禮 公卿大夫逆降, the 公 one of the ruler's lords named with them."""
    if not set(rulers) & ctx.parties:
        return None
    # asked at every clause: the history of the paragraphs read before this one is scanned once
    # (an act of this paragraph may still be completed by a later clause: scanned each time)
    key, wanted = tuple(rulers), set(rulers)
    settled, found = ctx.rulers_seen.get(key, (0, None))
    if found:
        return found
    history = ctx.history
    for i in range(settled, len(history)):
        clause, event = history[i]
        current = paragraph_of(clause) == ctx.paragraph
        if not current:
            settled = i + 1
        if event.agent and set(event.agent) <= wanted:
            ctx.rulers_seen[key] = (settled, None if current else event.agent[0])
            return event.agent[0]
    ctx.rulers_seen[key] = (settled, None)
    return None


@rule("completes-bow")
def completes_bow(reader, event, text, rl) -> bool:
    """下拜，小臣辭，升成拜: the bow is completed on the hall by the one who bowed below (the
    last bower within the last acts), not by the officer who declined it for the ruler."""
    if rl.word("complete") not in text:
        return False
    doer = last_doer(reader, rl, lambda kind: reader.is_a(kind, rl.word("bow")))
    if doer:
        event.set("agent", doer, "^")
    return bool(doer)


@rule("all-who-answered")
def all_who_answered(reader, event, text, rl) -> bool:
    """賓及諸公卿大夫皆興，對曰：「諾，敢不醉。」皆反位坐: 皆 after the answer of several to one is
    those who answered, going on, not the one answered (rule turn-goes-back)."""
    ctx = reader.ctx
    if not (reader.all_ and ctx.answered and ctx.agent) or _several(reader, ctx.answered):
        return False
    if not _several(reader, ctx.agent):
        return False
    event.set("agent", ctx.agent, "^")
    return True


@rule("holder-presents")
def holder_presents(reader, event, text, rl) -> bool:
    """舉觶者…實觶，立于西階上。賓拜。進坐奠觶于薦西: a bow made to one holding the cup he
    filled, before he gives it (注: 賓拜，拜將受觶), is followed by his act: he comes forward with
    it, not the one who bowed."""
    ctx = reader.ctx
    if not ctx.history or not ctx.agent:
        return False
    bow = ctx.history[-1][1]
    if bow.agent != ctx.agent or bow.kind not in rl.words["bows"] or bow.get("neg") == "1":
        return False  # a plain bow made (士不拜，受爵: no bow, he receives)
    holder = tuple(x for x in bow.fields.get("to", ()) if x not in bow.agent)
    if not holder or event.kind in rl.words["receive"]:
        return False  # (進受爵: the bower comes forward to receive it)
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) : -1]):
        if earlier.agent != holder:
            continue
        if earlier.kind in rl.words["lets-go"] or reader.lex.has(earlier.kind, "offering"):
            return False  # he has set it down, handed or offered it: the bower receives it
        if set(earlier.fields.get("dest", ())) & set(rl.words["put-away"]):
            return False  # 實觶于篚: put away
        cup = set(earlier.fields.get("theme", ())) & set(rl.words["cups"])
        if earlier.kind in rl.words["holds"] and cup:
            event.set("agent", holder, "^")
            return True
    return False


@rule("giver-withdraws")
def giver_withdraws(reader, event, text, rl) -> bool:
    """二人…薦南奠之。介坐受以興。退，皆拜送，降: once the cup set down or handed for him is
    taken up, the one who gave it withdraws and bows as it goes (拜送), not the receiver."""
    ctx = reader.ctx
    if event.kind not in rl.words["acts"] or not ctx.agent:
        return False
    recent = [e for _, e in ctx.history[-int(rl.word("within")) :]]
    taken = [e for e in recent[-3:] if e.agent == ctx.agent and e.kind in rl.words["take"]]
    if not taken:
        return False
    for earlier in reversed(recent):
        cup = set(earlier.fields.get("theme", ())) & set(rl.words["cups"])
        gave = earlier.kind in rl.words["give"] and earlier.agent and cup
        if gave and not set(earlier.agent) & set(ctx.agent):
            event.set("agent", earlier.agent, "^")
            return True
    return False


@rule("all-assisted")
def all_assisted(reader, event, text, rl) -> bool:
    """司正立于楹間以相拜。皆揖，復席: 皆 just after one assisting several is those he assists
    (the host and the guest), not the assistant with one of them."""
    ctx = reader.ctx
    if not (reader.all_ and ctx.history):
        return False
    last = ctx.history[-1][1]
    helped = last.fields.get("to", ())
    if last.kind not in rl.words["assist"] or len(helped) < 2 or last.agent != ctx.agent:
        return False
    event.set("agent", helped, "^")
    return True


@rule("unanswered-goes-on")
def unanswered_goes_on(reader, event, text, rl) -> bool:
    """使者不答拜。遂執玉，三揖: one who does not answer a bow (答拜 denied), then (遂) an act
    naming no one: he goes on himself, the turn not going back to the one who bowed (rule
    turn-goes-back), as it does without 遂 (主人…再拜，賓不答拜。揖入: the host leads in)."""
    return _last_goes_on(
        reader,
        event,
        rl,
        lambda last: (
            text.startswith(rl.words["then"])
            and last.kind in rl.words["bow-answer"]
            and last.get("neg") == "1"
            and bool(reader.ctx.answered)
        ),
    )


@rule("reply-goes-on")
def reply_goes_on(reader, event, text, rl) -> bool:
    """主人對曰：「…敢不敬從。」出迎于門外: one who replied in words (對), consenting or not, does
    what comes next himself, in the next sentence too; the turn does not go back to the one
    he answered, as it does after a bow answered or a grant (rule turn-goes-back)."""
    return _last_goes_on(
        reader, event, rl, lambda last: last.kind in rl.words["reply"] and reader.ctx.new_sentence
    )


def _last_goes_on(reader, event, rl, goes_on) -> bool:
    """The one who did the last act does this one (no speech act), if ``goes_on(last)``."""
    last = reader.ctx.history[-1][1] if reader.ctx.history else None
    if last is None or not last.agent or reader.is_a(event.kind, *rl.words["speech"]):
        return False
    if not goes_on(last):
        return False
    event.set("agent", last.agent, "^")
    return True


@rule("offers-next")
def offers_next(reader, event, text, rl) -> bool:
    """士昏禮 贊…酌酳主人。主人拜受。贊户内北面答拜。酳婦亦如之: an offering (yl:offering) naming no
    one, to someone named other than the one whose bow was just answered, is the answerer's, who
    offers the next cup; the turn does not go back to the one answered (turn-goes-back). So
    too the act he did to the one answered, done now to another named: 士冠禮 冠者見于兄弟。
    兄弟再拜。冠者答拜。見贊者 → the 冠者; 聘禮 君勞之 … 君答拜。勞士介亦如之 → the 君."""
    ctx = reader.ctx
    if not (ctx.answered and ctx.answer_named and ctx.agent):
        return False
    if not _addresses_a_third(event, ctx.answered):
        return False
    offering = reader.lex.frames["offering"]
    offered = (  # he answered the bow of one he gave the cup to (not 有司徹 尸答拜 after 賓拜),
        # or did to him the act he now does to another (冠者見于兄弟 … 見贊者)
        e
        for _, e in ctx.history[-int(rl.word("within")) :]
        if (e.kind == event.kind or (e.kind in offering and event.kind in offering))
        and set(e.agent) == set(ctx.agent)
        and set(e.fields.get("to", ())) & set(ctx.answered)
    )
    if next(offered, None) is None:
        return False
    event.set("agent", ctx.agent, "^")
    return True


@rule("turn-goes-back")
def turn_goes_back(reader, event, text, rl) -> bool:
    ctx = reader.ctx
    if (
        text.startswith(rl.words["at-once"])
        and ctx.answer_named
        and reader.is_a(ctx.answered_kind, reader.lex.label(YL.Salutation))
    ):
        return False  # 賓拜送，遂就席: after his bow he goes on at once (not after a grant)
    granted = ctx.answered_kind in rl.words["grant"]  # 許 itself: after 許諾 the one who
    # agreed goes and does what he was told
    if (
        (
            ctx.new_sentence
            or granted
            or _salutes_a_third(reader, event)
            or (_answer_ends_turn(ctx, text, rl) and event.kind not in rl.words["withdraw"])
        )
        and ctx.answered
        and not _thanked(ctx, rl)
        and (
            not reader.is_a(event.kind, *rl.words["speech"])
            or granted
            or _addresses_a_third(event, ctx.answered)
        )
    ):  # 尸即席坐，主人拜妥尸。尸答拜，執奠: bowed to while acting, he goes on
        event.set("agent", ctx.agent if _answerer_acting(reader, rl) else ctx.answered, "^")
        return True
    return False


def _several(reader: ClauseReader, roles: tuple[str, ...]) -> bool:
    """Whether ``roles`` are more than one person (two roles, or a group: 二人, 三耦)."""
    return len(roles) > 1 or any(reader.lex.has(r, "collective") for r in roles)


def _answer_ends_turn(ctx: Context, text: str, rl) -> bool:
    """坐奠觶，遂拜，執觶興，賓答拜；坐祭: an answering bow whose clause names the answerer is
    all he does; the one answered goes on with what he was doing, in the same sentence too;
    not when the answerer goes on himself (公坐奠觶，答拜，執觶興: the answerer carried) or
    receives the cup (主人答拜，升受爵)."""
    return (
        ctx.answer_named
        and ctx.answered_kind in rl.words["bow-answer"]
        and rl.word("receive") not in text
    )


@rule("answerer-takes-cup")
def answerer_takes_cup(reader, event, text, rl) -> bool:
    """尸…坐卒爵，拜。主婦答拜。受爵，酌，獻侑: receiving, naming no one, in the sentence after
    an answering bow, when the one answered has just drained the cup (卒爵), is the answerer's,
    who takes the empty cup back to pour again: the turn does not go back to the drinker."""
    ctx = reader.ctx
    if event.kind not in rl.words["receive"] or not ctx.answered or not ctx.new_sentence:
        return False
    history = ctx.history[-int(rl.word("within")) :]
    answer = next((e for _, e in reversed(history) if e.kind in rl.words["answer"]), None)
    drained = next((e for _, e in reversed(history) if e.kind in rl.words["drained"]), None)
    if answer is None or drained is None or drained.get("neg") == "1":
        return False
    if drained.agent != ctx.answered or answer.agent == ctx.answered:
        return False
    event.set("agent", answer.agent, "^")
    return True


def _thanked(ctx: Context, rl) -> bool:
    """賓拜洗，主人…答拜。降盥: the bow answered thanked the answerer for his service (拜洗), so
    the one who answered goes on with it; the turn does not go back."""
    for _, earlier in reversed(ctx.history[-4:]):
        if earlier.agent == ctx.answered:
            return earlier.kind in rl.words["thanks"]
    return False


def _addresses_a_third(event: Event, answered: tuple[str, ...]) -> bool:
    """大史許諾。遂比三耦: a command or word to someone named who is not the one answered."""
    to = set(event.fields.get("to", ()))
    return bool(to) and not event.marks.get("to") and not to & set(answered)


def _salutes_a_third(reader: ClauseReader, event: Event) -> bool:
    """再拜賓，賓答拜；拜介: a salute to someone named who is not the one answered: the one
    answered goes on to him (the answerer only answers)."""
    to = set(event.fields.get("to", ()))
    return (
        bool(to)
        and not event.marks.get("to")
        and reader.is_a(event.kind, reader.lex.label(YL.Salutation))
        and not to & set(reader.ctx.answered)
    )


@rule("receiver-drinks")
def receiver_drinks(reader, event, text, rl) -> bool:
    lex = reader.lex
    drinks = lex.has(event.kind, "receiverAct") or lex.has(event.kind, "completesDrink")
    if reader.ctx.sent_to and drinks:
        event.set("agent", reader.ctx.sent_to, "^")
        return True
    return False


@rule("drinker-finishes")
def drinker_finishes(reader, event, text, rl) -> bool:
    """卒爵/卒觶 without a subject: by the one who was just drinking (飲, 祭, 啐 in the last
    few acts), when someone else spoke or answered in between (主人坐祭，遂飲，賓辭，卒爵)."""
    if not reader.lex.has(event.kind, "completesDrink"):
        return False
    drinker = last_doer(reader, rl, lambda kind: reader.lex.has(kind, "receiverAct"))
    drinker = drinker or _offered_holder(reader, rl)
    if not drinker or drinker == reader.ctx.agent:
        return False  # none, or the one carried over is the drinker: nothing to decide
    event.set("agent", drinker, "^")
    return True


def _offered_holder(reader: ClauseReader, rl: Rule) -> tuple[str, ...]:
    """有司徹 主人洗酌，酳尸。賓羞肝，皆如儐禮。卒爵: with no one drinking in the last acts, the
    one offered the cup (獻, 酳, 酢 to one person named) within the last acts, not drained since,
    when the one carried over is not he (the offerer and the one who served)."""
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("offered-within")) :]):
        if reader.lex.has(earlier.kind, "completesDrink") or earlier.kind in rl.words["pours"]:
            return ()  # drained, or another cup poured since (主人更爵酌醋。卒爵: his own)
        to = earlier.fields.get("to", ())
        named = len(to) == 1 and not earlier.marks.get("to")  # (更爵酢: no one named, 自酢)
        if earlier.kind in rl.words["offerings"] and named and earlier.get("neg") != "1":
            return () if set(to) & set(reader.ctx.agent) else to
        if earlier.kind in rl.words["received"] and earlier.get("neg") != "1":  # 拜受爵
            return () if set(earlier.agent) & set(reader.ctx.agent) else earlier.agent
    return ()


@rule("topic-does")
def topic_does(reader, event, text, rl) -> bool:
    """大夫則降: X則Y with no subject in Y: X, whom the clause is about, does it; not when Y
    does it to him (介則薦南奠之, 大師則為之洗: 之 is X), nor when Y is said to him."""
    topic = reader.ctx.topic_role
    if not topic or any(word in text for word in rl.words["pronoun"]):
        return False
    said = "".join(event.fields.get("say", ()))
    if (
        reader.is_a(event.kind, *rl.words["speech"])
        and not reader.is_a(event.kind, *rl.words["own-words"])
        and not any(word in said for word in rl.words["self"])
    ):
        return False  # 諸公卿則以耦告于上: they are told (by the 司射); 大夫則辭: he declines;
        # 士大夫則曰下臣: words naming the speaker (臣) are his
    event.set("agent", topic)
    return True


@rule("topic-served")
def topic_served(reader, event, text, rl) -> bool:
    """二人…薦西奠之。賓…取觶。介則薦南奠之 / 主人洗。…大師則為之洗: X則Y, Y done to X (之),
    is done by the one who did the same act just before for another (the 二人, the 主人), not
    by the one carried over (the 賓)."""
    topic = reader.ctx.topic_role
    if not topic or not any(word in text for word in rl.words["pronoun"]):
        return False
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if earlier.kind == event.kind and earlier.agent and not set(earlier.agent) & set(topic):
            event.set("agent", earlier.agent, "^")
            return True
    return False


@rule("washes-for")
def washes_for(reader, event, text, rl) -> bool:
    """主人獻工…。大師則為之洗: the cup washed for someone (為之洗) is washed by the one who
    offers it (the last who offered, 獻), not by the one carried over (the 工 who drank)."""
    ctx = reader.ctx
    whom = reader.for_whom
    after = ctx.rest_of_sentence[0] if ctx.rest_of_sentence else ctx.next_sentence_text
    offers_next = after.removeprefix(rl.word("then")).startswith(rl.word("offer"))
    drank = bool(ctx.agent) and all(  # 工…祭飲: one only offered to, carried over
        a in ctx.offered and not _offered_by(ctx, a) for a in ctx.agent
    )
    if event.kind not in rl.words["acts"] or not (whom or (offers_next and drank)):
        return False  # 不洗。遂獻笙于西階上: the one who offers next does not wash
    offerer = next((a for a in reversed(ctx.offerers) if not set(a) & set(whom)), ())
    if not offerer:
        return False
    event.set("agent", offerer, "^" if whom else "?")
    return True


@rule("usual-doer")
def usual_doer(reader, event, text, rl) -> bool:
    """歌鹿鳴 with no one named: the act's yl:doneBy role (the 工 sing), not the one carried
    over from the clause before (笙入。…歌魚麗)."""
    doers = reader.lex.doers.get(event.kind)
    if not doers:
        return False
    event.set("agent", doers, "?")
    return True


@rule("kind-of-doer")
def kind_of_doer(reader, event, text, rl) -> bool:
    """乃奏肆夏 with no one named: only one of the act's yl:doneByKind class does it (a
    musician plays), so the one carried over does it only if he is of that class; else the
    last of that class among the last acts (大師許諾，樂正退反位，乃奏: the 大師), implied and
    not carried on; else no one named (not the 公 who just went up)."""
    kinds = reader.lex.doer_kinds.get(event.kind)
    if not kinds:
        return False

    def of_kind(agents: tuple[str, ...]) -> bool:
        classes = reader.lex.role_classes
        return bool(agents) and all(classes.get(a, frozenset()) & set(kinds) for a in agents)

    if of_kind(reader.ctx.agent):
        return False  # the carried subject is one of them: carried-subject decides
    doer = last_doer(reader, rl, lambda kind: True, by=of_kind)
    if doer:
        event.set("agent", doer, "?")
        return True
    return _unstated(event)


@rule("led-sits")
def led_sits(reader, event, text, rl) -> bool:
    """弟子相工，如初入；降自西階，…西面北上坐: sitting down (坐, the clause's last act) with no
    one named, while the one carried over is leading musicians (相 to them, among the last
    acts), is theirs: the musicians sit at their place; the guide stands and hands the 瑟 (坐授瑟
    is his: an act after 坐)."""
    if event.kind not in rl.words["sit"] or event is not reader.events[-1]:
        return False
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if earlier.agent != reader.ctx.agent:
            return False  # another has acted since: not the guide's walk
        led = earlier.fields.get("to", ())
        if earlier.kind in rl.words["lead"] and led:
            if reader.all_of(led, YL.Musician):
                event.set("agent", led, "?")
                return True
            return False
    return False


@rule("pair-together")
def pair_together(reader, event, text, rl) -> bool:
    """並行, 相揖, 拾取矢 after one archer of a pair: the two act together (or in turn), so
    both are the agent, and both are carried on (上射揖，並行: 上射 and 下射 walk abreast)."""
    pair = rl.words["pair"]
    carried = reader.ctx.agent
    if (len(carried) != 1 or carried[0] not in pair) and not _one_archer_placed(reader, pair, rl):
        return False
    if not any(word in text for word in rl.words["jointly"]):
        return False
    event.set("agent", pair, "^")
    return True


def _one_archer_placed(reader, pair: tuple[str, ...], rl) -> bool:
    """上耦揖進，上射在左，並行: the clause just before, in the sentence, placed one archer of the
    pair (在, the side he keeps as they walk), the pair itself carried: that archer is the one the
    act done together follows."""
    if not reader.ctx.history:
        return False
    pid, last = reader.ctx.history[-1]
    return (
        last.kind == rl.word("state")
        and len(last.agent) == 1
        and last.agent[0] in pair
        and sentence_of(pid) == reader.ctx.sentence
    )


@rule("joined-partner")
def joined_partner(reader, event, text, rl) -> bool:
    """大夫…就其耦。大夫為下射，揖進: once one has gone to his partner (就其耦), what the two do
    next naming no one is both's (the 大夫 and his 耦 salute each other and advance), not his
    alone carried over."""
    ctx = reader.ctx
    partner = rl.word("partner")
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        joined = (*earlier.fields.get("dest", ()), *earlier.fields.get("to", ()))
        if earlier.kind in rl.words["join"] and partner in joined:
            if not earlier.agent or set(earlier.agent) != set(ctx.agent):
                return False
            event.set("agent", (*earlier.agent, partner), "^")
            return True
    return False


@rule("pair-salutes")
def pair_salutes(reader, event, text, rl) -> bool:
    """大夫為下射，揖進，耦少退，揖如三耦: a salute naming no one, when the one carried over is
    one of two who acted together just before (the 大夫 and his partner), is the two's (a
    mutual salute), and they go on together (及階)."""
    ctx = reader.ctx
    if event.kind not in rl.words["salute"] or len(ctx.agent) != 1:
        return False
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        both = earlier.agent
        if len(both) == 2 and ctx.agent[0] in both:
            event.set("agent", both, "^")
            return True
    return False


@rule("three-salutes")
def three_salutes(reader, event, text, rl) -> bool:
    """公揖入。賓入，三揖。至于階，三讓: the three salutes on the way in and the three yieldings
    at the steps (三揖, 三讓) naming no one are mutual (注: 每曲揖及當碑揖，相人偶): both the one
    carried over and the other who acted just before (the one who went in ahead), carried on
    together, as 主人與賓三揖，至于階，三讓 names them; so are the salutes at each gate and
    turn (聘禮 公揖入，每門每曲揖。及廟門 → 公, 賓; 士冠禮 每曲揖。至于廟門)."""
    ctx = reader.ctx
    if event.kind not in rl.words["salute"]:
        return False
    if event.get("count") != rl.word("count") and not text.startswith(rl.word("each")):
        return False  # 每曲揖, 每門每曲揖: at each turn, mutual too (注: 以相人偶為敬也)
    if len(ctx.agent) != 1:
        return False
    other = _host_ahead(ctx, rl) or ctx.last_other(ctx.agent, int(rl.word("within")))
    if not other:  # 主人…揖入。至于廟門，揖入，三揖: the one he saluted to lead him in
        led = next(
            (
                e.fields.get("to", ()) or e.fields.get("with", ())  # (與賓揖: with him)
                for _, e in reversed(ctx.history[-int(rl.word("within")) :])
                if e.kind in rl.words["salute"] and e.agent == ctx.agent
            ),
            (),
        )
        if len(led) == 1:
            event.set("agent", (*ctx.agent, *led), "^")
            event.unset("to")
            return True
    if len(other) != 1:
        return False
    event.set("agent", (*other, *ctx.agent), "^")
    event.unset("to")
    return True


@rule("guest-commanded")
def guest_commanded(reader, event, text, rl) -> bool:
    """賓栗階升，不拜。命之成拜: a command naming no one, when the one carried over is a guest
    (yl:Guest), is not his: a guest commands no one in his host's house; the ruler or the host
    (yl:Ruler, yl:Principal) who acted last, just before, gives it, to the guest (之)."""
    ctx = reader.ctx
    if event.kind not in rl.words["command"] or not ctx.agent or rl.word("to-him") not in text:
        return False  # 將命, 復命: delivering his lord's message (注: 將猶致也), his own act
    if not reader.all_of(ctx.agent, YL.Guest):
        return False
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        doer = earlier.agent
        if doer and (reader.all_of(doer, YL.Ruler) or reader.all_of(doer, YL.Principal)):
            event.set("agent", doer, "?")
            event.set("to", ctx.agent, "?")
            return True
    return False


@rule("officiant-commands")
def officiant_commands(reader, event, text, rl) -> bool:
    """大射儀 衆耦立于大夫之南…若有士與大夫為耦，則以大夫之耦為上。命大夫之耦曰「子與某子射」:
    a command naming no one, when those carried over are archers (yl:Archer), is not theirs:
    archers are paired and called, they command no one; the officiant (yl:Officiant) who acted
    last gives it (注: 士雖爲上射，其辭猶尊大夫: the 司射's words)."""
    ctx = reader.ctx
    if not reader.lex.has(event.kind, "command") or not ctx.agent or not reader.archers(ctx.agent):
        return False
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        doer = tuple(a for a in earlier.agent if reader.officiants((a,)))
        if doer:
            event.set("agent", doer, "^")
            return True
    return False


@rule("chosen-acts")
def chosen_acts(reader, event, text, rl) -> bool:
    """唯公所酬，以旅于西階上: the one the 公 chose (rule chosen-by) does what follows, until the
    text names another."""
    ctx = reader.ctx
    if not ctx.chosen or ctx.agent != ctx.chosen:
        return False
    event.set("agent", ctx.chosen, "^")
    return True


@rule("thanks-the-washer")
def thanks_the_washer(reader, event, text, rl) -> bool:
    """主人降洗，賓降，主人辭降，賓辭洗，卒洗，揖升，不拜洗: the bow for the washing (拜洗) is made
    by the one washed for, never by the washer: with no one named and the washer carried over,
    it is the last other person to act with him (the 賓), not the host (注: 不拜洗，酬而禮殺)."""
    ctx = reader.ctx
    if event.kind not in rl.words["thanks"] or not ctx.agent:
        return False
    within = int(rl.word("within"))
    if not any(
        e.kind in rl.words["wash"] and e.agent == ctx.agent for _, e in ctx.history[-within:]
    ):
        return False
    other = ctx.last_other(ctx.agent, within)
    if not other:
        return False
    event.set("agent", other, "^")
    return True


@rule("visited-one")
def visited_one(reader, event, text, rl) -> bool:
    """士見于大夫。終辭其贄。于其入也，一拜其辱也: declining the visitor's gift (辭 the 摯) and
    bowing for his trouble in coming (拜辱) are the acts of the one visited, not of the visitor
    carried over: the one the visitor's last 見 was to, within the last acts."""
    declines_gift = event.kind in rl.words["decline"] and set(event.fields.get("theme", ())) & set(
        rl.words["gift"]
    )
    if not (event.kind in rl.words["thanks"] or declines_gift) or not reader.ctx.agent:
        return False
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if (
            earlier.kind in rl.words["visit"]
            and earlier.agent == reader.ctx.agent
            and earlier.get("neg") != "1"  # 主人不見…拜辱于門外: no visit received
        ):
            visited = earlier.fields.get("to", ())
            if visited:
                event.set("agent", visited, "^")
                return True
    return False


@rule("seen-off")
def seen_off(reader, event, text, rl) -> bool:
    """賓退。送，再拜: seeing off (送, no thing handed) naming no one, right after one went out or
    withdrew, is done by the one he leaves, the last other to act, not by the one who goes."""
    ctx = reader.ctx
    last = ctx.history[-1][1] if ctx.history else None
    if event.kind not in rl.words["see-off"] or "theme" in event.fields or last is None:
        return False
    since: int | None = -1
    leaver = last.agent
    if last.kind not in rl.words["leave"]:
        leaver, since = _leaving_when(reader, event, rl), None  # 既夕禮 賓出，則拜送
    if not leaver or rl.word("all") in text:
        return False  # (鄉飲酒禮 皆拜送: those who bow are named)
    if event.kind == rl.word("bow-off") and not reader.all_of(leaver, YL.Guest):
        return False  # 士喪禮 主人出，拜送: the host goes out to bow the guests off
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) : since]):
        if earlier.agent and not set(earlier.agent) & set(leaver):
            event.set("agent", earlier.agent, "^")
            return True
    return False


@rule("homage-not-by-ruler")
def homage_not_by_ruler(reader, event, text, rl) -> bool:
    """王勞之。再拜稽首 / 公…命之成拜。階上北面再拜稽首: homage (稽首, yl:toRuler) and the bow
    with it, naming no one, are never the ruler's, though he is carried over: they are made by
    the one his last act was done to (之: the one welcomed, commanded), within the last acts."""
    ctx = reader.ctx
    if not ctx.agent or not reader.all_of(ctx.agent, YL.Ruler):
        return False
    if not any(reader.lex.has(e.kind, "toRuler") for e in reader.events):
        return False
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        if set(earlier.agent) == set(ctx.agent):
            to = tuple(x for x in earlier.fields.get("to", ()) if x not in ctx.agent)
            if to and not reader.all_of(to, YL.Ruler):  # (聘禮 君勞之: not the 公)
                event.set("agent", to, "^")
                return True
    return False


@rule("rest-as-rite")
def rest_as_rite(reader, event, text, rl) -> bool:
    """公食大夫禮 (大夫相食…) 其他皆如公食大夫之禮: the rest of a rite done as another rite's is
    the host's, who gives it (疏: 其他謂豆數俎體陳設皆不異上), not the last one carried."""
    ctx = reader.ctx
    if not (text.startswith(rl.words["rest"]) and text.endswith(rl.words["rite"])):
        return False
    host = rl.word("host")
    if not any(host in e.agent for p, e in ctx.history[-int(rl.word("within")) :]):
        return False
    event.set("agent", (host,), "^")
    return True


@rule("followed-goes-on")
def followed_goes_on(reader, event, text, rl) -> bool:
    """公食大夫禮 賓降一等，主人從。受侑幣，再拜稽首: one named only following, in a sentence of
    its own (X從。, X從之。: nothing else, no 不, no 遂), is not the subject of the next sentence:
    the one he follows is, and he goes with him where he reaches (賓從。及廟門 → 公, 賓); not
    when that sentence goes on with 遂 (祝先，尸從，遂出于廟門: the 尸 goes out)."""
    ctx = reader.ctx
    before = ctx.clause_before()
    if not (ctx.history and before and ctx.new_sentence) or text.startswith(rl.words["then"]):
        return False
    pid, last = ctx.history[-1]
    if pid != before[0] or last.kind not in rl.words["follow"] or last.get("neg"):
        return False
    head = before[1].removesuffix(rl.word("it")).removesuffix(rl.word("follow"))
    held = ctx.history[-2] if len(ctx.history) > 1 else None  # 士昏禮 賓執鴈從: holding it
    if held and held[0] == pid and held[1].kind in rl.words["hold"] and held[1].agent == last.agent:
        head = head.removesuffix("".join(held[1].fields.get("theme", ())))
        head = head.removesuffix(rl.word("hold"))
    if not last.agent or head != "".join(last.agent) or last.agent != ctx.agent:
        return False  # 有司二人牽馬以從, 衆介不從, 賓及衆賓遂從之: more than following
    followed = last.fields.get("to") or ctx.last_other(last.agent, int(rl.word("within")))
    if not followed or reader.lex.has(event.kind, "notCarried"):
        return False
    if reader.is_a(event.kind, *rl.words["moving"]):
        followed = followed + tuple(a for a in last.agent if a not in followed)
    event.set("agent", followed, "^")
    return True


@rule("holder-drinks")
def holder_drinks(reader, event, text, rl) -> bool:
    """主人…拜受爵 … 次賓羞匕湇，如尸禮。席末坐啐酒: drinking (yl:receiverAct: 啐, 飲, 祭, 坐)
    naming no one, in a new sentence, after one who served a dish (羞) and did nothing else, is
    the one who holds the cup (who last bowed to receive it, not drained since), not the server."""
    ctx = reader.ctx
    if not ctx.agent or not reader.lex.has(event.kind, "receiverAct") or not ctx.history:
        return False
    last = ctx.history[-1][1]
    answered = last.kind in rl.words["answer"] and last.agent == ctx.agent and last.get("to")
    if answered:  # 尸…授之。尸升筵，南面答拜，坐祭: the answerer of the holder's bow
        return _holder_after_answer(reader, event, last, rl)
    if not ctx.new_sentence:
        return False
    mine = [e for _, e in ctx.history[-int(rl.word("served-within")) :] if e.agent == ctx.agent]
    if not mine or mine[0].kind not in rl.words["serve"]:
        return False
    for _, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        if earlier.kind in rl.words["drained"]:
            return False
        if earlier.kind in rl.words["received"] and earlier.agent != ctx.agent:
            event.set("agent", earlier.agent, "^")
            return True
    return False


def _holder_after_answer(reader, event: Event, answer: Event, rl) -> bool:
    """有司徹 三獻西楹西北面拜受爵，尸在其右以授之。尸升筵，南面答拜，坐祭，遂飲: drinking naming
    no one right after the carried one answered the bow of one who received the cup from him
    (拜受, not drained since) is that receiver's, who holds the cup, not the answerer's."""
    holder = answer.fields["to"]
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) : -1]):
        if earlier.kind in rl.words["drained"]:
            return False
        if earlier.kind in rl.words["received"] and earlier.get("neg") != "1":
            if earlier.agent != holder or set(holder) & set(answer.agent):
                return False
            event.set("agent", holder, "^")
            return True
    return False


@rule("offered-receives")
def offered_receives(reader, event, text, rl) -> bool:
    """有司徹 主人洗，獻内賓于房中。南面拜受爵: bowing to receive the cup (拜受) naming no one,
    right after the one carried offered it (獻) to another, is the one offered's, never the
    offerer's, who gives the cup."""
    ctx = reader.ctx
    if event.kind not in rl.words["receive"] or not ctx.agent or not ctx.history:
        return False
    last = ctx.history[-1][1]
    offered = last.fields.get("to", ())
    if last.kind not in rl.words["offerings"] or last.agent != ctx.agent or not offered:
        return False
    if set(offered) & set(ctx.agent) or last.get("neg") == "1":
        return False
    event.set("agent", offered, "^")
    return True


@rule("placed-one-acts")
def placed_one_acts(reader, event, text, rl) -> bool:
    """侑…拜受爵，主人在其右，北面答拜; 司馬在羊鼎之東，二手執挑匕枋以挹湇; 特牲饋食禮 主人在右，
    答拜: an act naming no one, right after a clause of its sentence that only placed one person
    (X在Y, a state, named), is that person's, who was placed there to do it (注: 答拜拜於侑之右),
    not the one carried over from before; not a going (上射在左，並行: the pair walks)."""
    ctx = reader.ctx
    if ctx.new_sentence or not ctx.history or event.agent:
        return False
    pid, placed = ctx.history[-1]
    if sentence_of(pid) != ctx.sentence or placed.modifier or placed.marks.get("agent"):
        return False
    if placed.kind not in rl.words["state"] or len(placed.agent) != 1:
        return False
    if reader.lex.has(placed.agent[0], "collective"):
        return False
    at = "".join(placed.fields.get("at", ()))
    if not at or not any(at.endswith(side) for side in rl.words["sides"]):
        return False  # 君在堂: where he is, not placed beside someone to act
    if reader.is_a(event.kind, reader.lex.label(YL.Movement)):
        return False
    event.set("agent", placed.agent, "^")
    return True


@rule("mourning-aside")
def mourning_aside(reader, event, text, rl) -> bool:
    """既夕禮 婦人入，丈夫踊，升自阼階 / 徹者入，丈夫踊，設于西北 / 唯主人主婦哭…讀書: the mourners'
    wailing or leaping is done as another acts: an act (not itself a mourning act) naming no one
    just after it is by the one who acted just before the wailing (in the paragraph, within the
    last acts), not by the mourners carried over."""
    mourning = rl.words["mourning"]
    history = reader.ctx.history
    if event.kind in mourning or not history or history[-1][1].kind not in mourning:
        return False
    last_text = reader.ctx.texts.get(history[-1][0], "")
    if history[-1][1].get("neg") == "1" and last_text.startswith(rl.word("only")):
        return False  # 唯主人不哭，洗廢爵: the one singled out not to wail is the one who acts
    if sentence_of(history[-1][0]) == reader.ctx.sentence and reader.ctx.sentence_text.startswith(
        last_text
    ):
        return False  # 主人哭，拜稽顙: the wailing opens the sentence, the wailer goes on in it
    wailers = set(history[-1][1].agent)
    if not wailers or set(reader.ctx.agent) != wailers:
        return False
    paragraph = reader.ctx.paragraph
    for pid, earlier in reversed(history[-int(rl.word("within")) :]):
        if paragraph_of(pid) != paragraph or earlier.modifier:
            return False
        if earlier.kind in mourning or not earlier.agent:
            continue
        if set(earlier.agent) & wailers or earlier.get("neg") == "1":
            return False
        event.set("agent", earlier.agent, "^")
        return True
    return False


@rule("leader-and-led")
def leader_and_led(reader, event, text, rl) -> bool:
    """士虞禮 祝前尸。出户，踊如初。降堂: the one who goes before leading another (帥 to=X, within
    the last acts, the leader carried) and the one led go together: a going naming no one is
    both of theirs, not the leader's alone."""
    carried = set(reader.ctx.agent)
    if not carried or not reader.is_a(event.kind, *rl.words["going"]):
        return False
    for _, earlier in reversed(reader.ctx.history[-int(rl.word("within")) :]):
        if earlier.kind == rl.word("lead") and set(earlier.agent) == carried and earlier.get("to"):
            event.set("agent", (*earlier.fields["to"], *earlier.agent), "^")
            return True
        if carried & set(earlier.agent):
            return False
    return False


@rule("dead-do-nothing")
def dead_do_nothing(reader, event, text, rl) -> bool:
    """既夕禮 知死者贈，知生者賻。書賵于方 / 乃代哭: the dead (死者) do nothing: an act naming no
    one is never carried from him; the others carried with him go on, else the wailing or
    leaping is the mourners' (丈夫, 婦人), else no one named does it."""
    dead = set(rl.words["dead"])
    carried = reader.ctx.agent
    if not dead & set(carried):
        return False
    living = tuple(a for a in carried if a not in dead)
    if living:
        event.set("agent", living, "^")
    elif reader.is_a(event.kind, *rl.words["mourning"]):
        event.set("agent", rl.words["mourners"], "?")
    else:
        return _unstated(event)
    return True


@rule("carried-subject")
def carried_subject(reader, event, text, rl) -> bool:
    ctx = reader.ctx
    if not ctx.agent:
        return False
    agents = _not_the_recipient(ctx, event, ctx.agent)
    plain = re.sub(r"「.*?」", "", text)
    if rl.word("all") in plain:
        agents = _all_of(reader, agents)
    elif (
        ctx.partners
        and not ctx.new_sentence
        and (reader.is_a(event.kind, *rl.words["moving"]) or event.kind in rl.words["salute"])
    ):
        event.set("with", ctx.partners)
    if (
        reader.is_a(event.kind, *rl.words["shoot"])
        and reader.officiants(agents)
        and not _demonstrating(reader, event, rl)
    ):
        agents = shooters(reader, int(rl.word("pairs-within"))) or agents
    event.set("agent", agents, "^")
    return True


def shooters(reader: ClauseReader, within: int) -> tuple[str, ...]:
    """Those who shoot when the one carried over does not (an officiant who calls the shooting,
    a musician who plays for it): the last archers to act as a group (乃射: the pair that went up,
    not its 上射), else the last archers to act."""
    history = reader.ctx.history
    pairs = [
        e.agent
        for _, e in reversed(history[-within:])
        if e.agent
        and reader.archers(e.agent)
        and all(reader.lex.has(r, "collective") for r in e.agent)
    ]
    earlier = [e.agent for _, e in reversed(history[-30:]) if e.agent and reader.archers(e.agent)]
    return (pairs or earlier or [()])[0]


def _demonstrating(reader: ClauseReader, event: Event, rl) -> bool:
    """誘射，射三侯，卒射: the officiant shoots himself, from his 誘射 until his 卒射."""
    if event.kind in rl.words["demonstration"]:
        return True
    for _, earlier in reversed(reader.ctx.history[-30:]):
        if earlier.kind in rl.words["demonstration"]:
            return bool(earlier.agent) and reader.officiants(earlier.agent)
        if reader.is_a(earlier.kind, *rl.words["shoot"]) and earlier.kind in rl.words["finish"]:
            return False
    return False


def _not_the_recipient(ctx: Context, event: Event, agents: tuple[str, ...]) -> tuple[str, ...]:
    """授主人爵: the one carried over is not the one handed to."""
    to = event.fields.get("to", ())
    if not set(agents) & set(to):
        return agents
    others = (
        e.agent
        for _, e in reversed(ctx.history)
        if e.agent and not set(e.agent) & set(to) and id(e) not in ctx.served_standing
    )
    return next(others, agents)  # the nearest: not a list of the whole rite's doers


def _all_of(reader: ClauseReader, agents: tuple[str, ...]) -> tuple[str, ...]:
    """皆 with a carried subject: those acting together (with partners), or the last two when
    they acted in the same sentence or are the two archers of a pair (yl:Pair: 賓 and 主人)."""
    ctx = reader.ctx
    if ctx.partners:
        return tuple(dict.fromkeys((*agents, *ctx.partners)))
    if len(agents) > 1 or any(reader.lex.has(a, "collective") for a in agents):
        return agents
    distinct: list[tuple[str, ...]] = []
    where: list[str] = []
    for pid, earlier in reversed(ctx.history[-6:]):
        if earlier.agent and earlier.agent not in distinct:
            distinct.append(earlier.agent)
            where.append(sentence_of(pid))
    paired = len(distinct) > 1 and frozenset((*distinct[0], *distinct[1])) in reader.lex.pairs
    if len(distinct) > 1 and where[0] != where[1] and not paired:
        return agents  # 賓答拜。…皆拜送: one who acted in another sentence is not one of 皆
    group = [a for agent in distinct[:2] for a in agent]
    return tuple(dict.fromkeys(group)) or agents


@rule("no-one-named")
def no_one_named(reader, event, text, rl) -> bool:
    return _unstated(event)


# -- no one acts on himself -------------------------------------------------------------------


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
        _self_recipient(event, lexicon, ctx, to)
    if lexicon.is_a(event.kind, lexicon.label(YL.Xian)):
        _offerers(event, ctx, text, lexicon)


def _self_recipient(event: Event, lexicon: Lexicon, ctx: Context, to: tuple[str, ...]) -> None:
    if event.marks.get("to") == "?":
        rest = tuple(r for r in to if r not in event.agent)
        if rest:
            event.set("to", rest, "?")
        else:
            event.unset("to")
        return
    if not event.marks.get("agent") and not lexicon.has(event.kind, "offering"):
        # 公答再拜公(卒觶): the subject named is the agent; the role after the act is the
        # subject of the next one, cut into this clause by the 句讀
        rest = tuple(r for r in to if r not in event.agent)
        if rest:
            event.set("to", rest)
        else:
            del event.fields["to"]
        return
    rest = tuple(a for a in event.agent if a not in to)
    if rest:
        event.set("agent", rest, event.marks.get("agent", ""))
        return
    earlier = _offerer(ctx, to) if lexicon.is_a(event.kind, lexicon.label(YL.Xian)) else None
    earlier = earlier or next(
        (e.agent for _, e in reversed(ctx.history) if e.agent and not set(e.agent) & set(to)),
        (),
    )
    if earlier:
        event.set("agent", earlier, "^")
    else:
        event.no_doer()


def _offerers(event: Event, ctx: Context, text: str, lexicon: Lexicon) -> None:
    """Who offered (獻) to whom: one only offered to does not offer, unless he is an attendant
    named doing the act just before in the sentence (特牲饋食禮 利洗散，獻于尸: the 佐食 offers);
    既獻 names the offered."""
    if not event.agent:
        return
    denied = event.get("neg") == "1"  # 則不獻庶子: no offering made, but whose it would be
    to = event.fields.get("to", ())
    already = one_word("perfective") + lexicon.label(YL.Xian)  # 既獻
    if already in text and not denied:  # 士既獻者: those already offered to, by the last
        if not event.marks.get("agent"):
            offered, by = event.agent, _offerer(ctx, event.agent)
            event.set("to", offered)
            if by:
                event.set("agent", by, "^")
            else:
                event.no_doer()
        return
    attendant = lexicon.label(YL.Attendant)
    serving = all(
        attendant in lexicon.role_classes.get(a, frozenset()) and not _offered_by(ctx, a)
        for a in event.agent
    )
    named = set(named_just_before(ctx)) == set(event.agent)  # 利洗散，獻于尸: he offers himself
    if event.marks.get("agent") == "^" and serving and ctx.offerers and not named:
        earlier = _offerer(ctx, to)  # 胥薦主人于洗北。辯獻大夫: the one who serves does not offer
        if earlier:
            event.set("agent", earlier, "^")
    offered_only = [a for a in event.agent if a in ctx.offered and not _offered_by(ctx, a)]
    if offered_only and not (named and serving):  # (尸醋，獻祝: the 尸 only answered)
        rest = tuple(a for a in event.agent if a not in offered_only)
        earlier = rest or _offerer(ctx, to)
        if earlier:
            event.set("agent", earlier, "^")
    if not denied:
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


@rule("tasted-drink")
def tasted_drink(pid, events, lexicon, ctx, rl) -> bool:
    """士虞禮 尸嘗醴, 嘗之 (the 酒 he offered): 嘗, tasting (an altLabel of 嚌), of a drink is
    sipping it, 啐 (啐，嘗也), as 少牢饋食禮 尸祭酒，啐酒; 嘗 of food (嘗鉶) stays 嚌."""
    if rl.word("taste") not in ctx.clause_text:
        return False
    done = False
    for event in events:
        if event.kind != rl.word("food") or event.modifier:
            continue
        if set(event.fields.get("theme", ())) & set(rl.words["drinks"]):
            event.kind = rl.word("drink")
            done = True
    return done


# -- after a clause ---------------------------------------------------------------------------


def remember(pid: str, events: list[Event], lexicon: Lexicon, ctx: Context) -> None:
    """Update the context with a clause's events: history, the subject carried, the one
    answered, the one a cup was sent to, the one commanded; then the ``after`` rules, which
    may complete an earlier clause from this one."""
    for r in rules("after"):
        if r.apply(pid, events, lexicon, ctx, r):
            ctx.trace.append(r.id)
    actions = [e for e in events if not e.modifier]
    # 主人拜送爵。薦脯醢。使人相祭。卒爵: the cup stays with the one it was sent to while
    # no one acts but the unnamed and those sent or assisting (and the one who sends them)
    keeps_cup = all(
        not e.agent or "_aside" in e.fields or e.kind in lexicon.frames["command"] for e in actions
    )
    holders = [e.fields.pop("_holder", ()) for e in actions]  # rule answers-the-bower
    for event in actions:
        _remember_event(pid, event, lexicon, ctx)
    if actions:
        last = actions[-1]
        ctx.answered = last.fields.get("to", ()) if lexicon.has(last.kind, "answer") else ()
        ctx.answered = holders[-1] or ctx.answered  # 祝受尸爵。尸答拜。易爵: the holder goes on
        ctx.answered_kind = last.kind if ctx.answered else ""
        ctx.answer_named = bool(ctx.answered) and not last.marks.get("agent")
        if lexicon.has(last.kind, "sendsCup"):
            ctx.sent_to = last.fields.get("to", ())
        elif not keeps_cup:
            ctx.sent_to = ()
    commands = [e for e in events if e.kind in lexicon.frames["command"] and "to" in e.fields]
    if commands:
        ctx.command_to = commands[-1].fields["to"]
    elif events:
        ctx.command_to = ()


@rule("commanded-answers")
def commanded_answers(pid, events, lexicon, ctx, rl) -> bool:
    """命去侯。負侯者許諾: a 命 that names no one was given to the one who next acts under his
    own name (he answers or does what was commanded), within a few clauses of the paragraph."""
    paragraph = paragraph_of(pid)
    waiting = ctx.open_command[0] if ctx.open_command else None
    answerers = _named(events) + _spoken_answer(events, waiting, lexicon, rl)
    ctx.open_command, found = _answered(
        ctx.open_command, paragraph, ctx.clauses, int(rl.word("within")), answerers
    )
    for event in events:
        if found and waiting and event.kind in rl.words["says"] and "to" not in event.fields:
            event.set("to", waiting.agent, "?")  # 主人曰…。賓曰「俟閒」: back to the speaker
            continue
        if (
            (
                event.kind in lexicon.frames["command"]
                or _calls(event, pid, ctx, rl)
                or _spoken_to_no_one(event, pid, ctx, rl)
            )
            and event.agent
            and "to" not in event.fields
            and event.get("neg") != "1"
        ):
            ctx.open_command = (event, paragraph, ctx.clauses)
    return found


def _spoken_answer(events: list[Event], waiting, lexicon: Lexicon, rl: Rule) -> list[Event]:
    """燕禮 曰「寡君有不腆之酒…」。對曰「…臣敢辭」〔注：上介出答主國使者辭也〕: words said to no
    one named are answered by one the 注 names (an implied answer, 對, 辭, 許, with its words):
    they were said to him (to=上介?), as to one the text names."""
    if waiting is None or waiting.kind not in rl.words["says"]:
        return []
    return [
        e
        for e in events
        if e.marks.get("agent") == "?" and "say" in e.fields and lexicon.has(e.kind, "answer")
    ]


@rule("commanded-each")
def commanded_each(pid, events, lexicon, ctx, rl) -> bool:
    """司馬正命退楅解綱。小臣師退楅。…巾車量人解左下綱: a command of several acts that named no one,
    already answered by the doer of one of them, was given too to each who next does another of
    them under his own name, within a few clauses of its paragraph (to=小臣師,巾車,量人?)."""
    found = False
    for event in _named(events):
        for cid, command in reversed(ctx.history[-int(rl.word("within")) :]):
            if paragraph_of(cid) != paragraph_of(pid) or command.marks.get("to") != "?":
                continue
            if command.kind not in lexicon.frames["command"] or command.get("neg") == "1":
                continue
            acts = _commanded_acts(ctx.texts.get(cid, ""), command.kind, lexicon)
            if len(acts) > 1 and event.kind in acts and not set(event.agent) & set(command.agent):
                if not set(event.agent) <= set(command.fields["to"]):
                    to = tuple(dict.fromkeys((*command.fields["to"], *event.agent)))
                    command.set("to", to, "?")
                    found = True
            break
    return found


def _commanded_acts(text: str, kind: str, lexicon: Lexicon) -> set[str]:
    """The acts a command's clause names after its verb (命退楅解綱 → 退, 說)."""
    tokens = tokenize(text, lexicon)
    at = next((k for k, t in enumerate(tokens) if t.of("action") == kind), None)
    if at is None:
        return set()
    return {a for t in tokens[at + 1 :] if (a := t.of("action")) and not t.of("role")}


def _spoken_to_no_one(event: Event, pid: str, ctx: Context, rl: Rule) -> bool:
    """司正升相旅，曰「某子受酬」。受酬者降席: words said (曰, with the words) to no one named
    are answered like a command; not words that go with an act to someone by the same speaker
    just before in the sentence (媵爵，曰「臣受賜矣」: said to the one he presents to, rule
    said-to), nor words without their words (傳曰: the 傳 says what follows), nor in the 傳, a
    commentary that narrates no act (布曰錫: what a cloth is called), nor the words of a case
    (X則曰: 覲禮 同姓小邦則曰叔父, what each is called, answered by no other case's words)."""
    if event.kind not in rl.words["says"] or "say" not in event.fields:
        return False
    if pid.startswith(rl.word("commentary")):
        return False
    if rl.word("case") + event.kind in ctx.texts.get(pid, ""):
        return False  # 同姓小邦則曰叔父。其異姓小邦則曰叔舅: each case's words, no dialogue
    last = ctx.last_act()
    return not (
        last is not None
        and sentence_of(last[0]) == ctx.sentence
        and last[1].agent == event.agent
        and "to" in last[1].fields
    )


def _calls(event: Event, pid: str, ctx: Context, rl: Rule) -> bool:
    """作射如初, 作取矢如初: a call naming no one is answered like a command; not one whose
    clause ends naming those called (作升飲射爵者: the 升飲者)."""
    return event.kind in rl.words["calls"] and not ctx.texts.get(pid, "").endswith(rl.word("zhe"))


def told_just_before(ctx: Context, event: Event, reports) -> tuple[str, ...]:
    """賓告于擯者，請旅諸臣: the one a report (告) just before, in the sentence, by the same
    one, was made to by name: a request after it naming no one is what he says to him."""
    if not ctx.history:
        return ()
    pid, last = ctx.history[-1]
    if sentence_of(pid) != ctx.sentence or last.kind not in reports:
        return ()
    if last.agent != event.agent or last.marks.get("to"):
        return ()
    return last.fields.get("to", ())


@rule("request-answered")
def request_answered(pid, events, lexicon, ctx, rl) -> bool:
    """射人請立司正。公許: a 請 that names no one it is made to was made to the one who grants
    it or commands in answer next (the 公), within a few clauses of the paragraph."""
    paragraph = paragraph_of(pid)
    answers = [
        e for e in _named(events) if any(lexicon.is_a(e.kind, w) for w in rl.words["answer"])
    ]
    ctx.open_request, found = _answered(
        ctx.open_request, paragraph, ctx.clauses, int(rl.word("within")), answers
    )
    for event in events:
        implied = event.open_to_guess("to")
        if told_just_before(ctx, event, rule_named("to-the-ruler").words["reports"]):
            continue  # 賓告于擯者，請旅諸臣: said to the 擯者, who reports it to the 公
        if not (lexicon.is_a(event.kind, rl.word("request")) and event.agent and implied):
            continue
        if not any(
            e.kind == rl.word("send") and set(event.agent) <= set(e.fields.get("to", ()))
            for e in events
        ):  # (君使下大夫請行: his errand to the guest, which the sender does not answer)
            ctx.open_request = (event, paragraph, ctx.clauses)
    return found


@rule("like-before")
def like_before(pid, events, lexicon, ctx, rl) -> bool:
    """命去侯如初: a command or request done as at first (如初) that names no one it is
    addressed to was addressed to the one the same act was before: the last earlier act of
    its kind with a recipient whose clause holds the same words from the verb on (命去侯),
    to=X?."""
    found = False
    for event in events:
        core = event.fields.pop("_like_core", ())
        if (
            not core
            or event.get("like") != rl.word("first")
            or "to" in event.fields
            or event.kind not in lexicon.frames["contentFollows"]  # 命, 作, 告, 請: not 揖, 升
        ):
            continue
        for earlier_pid, earlier in reversed(ctx.history):
            if (
                earlier.kind == event.kind
                and "to" in earlier.fields
                and core[0] in ctx.texts.get(earlier_pid, "")
            ):
                event.set("to", earlier.fields["to"], "?")
                found = True
                break
    return _like_next(events, lexicon, ctx, rl) or found


def _like_next(events: list[Event], lexicon: Lexicon, ctx: Context, rl: Rule) -> bool:
    """命拾取矢。如初; 司射命設豐實觶。如初: a command naming no one, followed by a clause that
    is only 如初, was made to those the same command was made to before: the last earlier one
    with a recipient whose clause ends with the words commanded, or with their beginning (設豐)."""
    if not ctx.history or len(events) != 1 or events[0].kind != rl.word("like"):
        return False
    if events[0].get("like") != rl.word("first"):
        return False
    last_pid = ctx.history[-1][0]
    if sentence_of(last_pid) != ctx.sentence:
        return False
    found = False
    for event in _events_of(ctx, last_pid):
        named = not event.open_to_guess("to")
        if named or event.kind not in lexicon.frames["contentFollows"]:
            continue
        said = ctx.texts.get(last_pid, "")
        content = said[said.find(event.kind) + len(event.kind) :]
        if len(content) < 2:
            continue
        for earlier_pid, earlier in reversed(ctx.history[:-1]):
            text = re.sub(
                r"[「」。！：]", "", ctx.texts.get(earlier_pid, "")
            )  # the marks of what is said
            same = earlier.kind == event.kind and "to" in earlier.fields
            if same and _ends_with(text, content, event.kind):
                event.set("to", earlier.fields["to"], "?")
                found = True
                break
    return found


def _ends_with(text: str, content: str, verb: str) -> bool:
    """遂命三耦各與其耦拾取矢 ends with 拾取矢; 司射命設豐 with 設豐 (all it commands), the start of
    設豐實觶."""
    return text.endswith(content) or any(
        text.endswith(verb + content[:n]) for n in range(2, len(content))
    )


@rule("goes-up-with")
def goes_up_with(pid, events, lexicon, ctx, rl) -> bool:
    """主人…揖讓升。賓厭介升: the salute and yielding before going up were to the one named
    going up in the clause after (the 賓), not to the last one offered to (the 衆賓); 主人揖讓。
    以賓升: those made just before going up leading one (以X升) are to him."""
    if not ctx.history:
        return False
    if _leads_up(events, ctx, rl) or _led_in(events, ctx, rl):
        return True
    named = _named(events)
    if not named or not any(e.kind in rl.words["up"] for e in events):
        return False
    climber = named[0].agent
    if len(climber) != 1:
        return False
    before = _events_of(ctx, ctx.history[-1][0])
    if not any(e.kind in rl.words["up"] for e in before):
        return False
    found = False
    for event in before:
        implied = event.marks.get("to") == "?"  # the other party, guessed (not mutual salutes)
        if event.kind in rl.words["salute"] and implied and event.agent:
            if not set(climber) & set(event.agent) and len(event.agent) == 1:
                event.set("to", climber, "?")
                found = True
    return found


def _led_in(events: list[Event], ctx: Context, rl: Rule) -> bool:
    """有司徹 主人揖，先入門，右。尸入門，左: the salute made before going in first (揖 … 入 by
    the same one in the sentence before) is to the one named entering in the next sentence,
    the guest led in, not the last to answer a bow (the 侑)."""
    named = [e for e in _named(events) if e.kind in rl.words["in"] and len(e.agent) == 1]
    if not named or not ctx.new_sentence:
        return False
    entering = named[0].agent
    last = sentence_of(ctx.history[-1][0])
    before = _events_of_sentence(ctx, last)
    found = False
    for event in before:
        if event.kind not in rl.words["salute"] or event.marks.get("to") != "?":
            continue
        goes_in = any(e.kind in rl.words["in"] and e.agent == event.agent for e in before)
        if goes_in and len(event.agent) == 1 and event.agent != entering:
            event.set("to", entering, "?")
            found = True
    return found


@rule("answered-bow")
def answered_bow(pid, events, lexicon, ctx, rl) -> bool:
    """主人阼階上再拜。賓西階上答再拜 (記 賓拜酒，主人答拜): a bow naming no one, in the clause
    just before one named answers it (答拜, or does not: 賓不答拜), was made to that one, also
    where the edition begins a paragraph between them (覲禮 再拜。¶使者不答拜)."""
    answer = next((e for e in _named(events) if lexicon.is_a(e.kind, rl.word("answer"))), None)
    if answer is None:
        answer = _not_looking_back(ctx.texts.get(pid, ""), lexicon, rl)
    if answer is None or not ctx.history:
        return False
    last = ctx.history[-1][0]  # in its paragraph or across the edition's break (再拜。¶使者不答拜)
    found = False
    for event in _bows_before(ctx, last, lexicon, rl):
        implied = event.open_to_guess("to")
        bow = lexicon.is_a(event.kind, rl.word("bow")) and not lexicon.is_a(
            event.kind, rl.word("answer")
        )
        if not (bow and implied and event.agent) or set(event.agent) & set(answer.agent):
            continue
        if event.fields.get("to") != answer.agent:
            event.set("to", answer.agent, "?")
            found = True
    return found


def _not_looking_back(text: str, lexicon: Lexicon, rl: Rule) -> Event | None:
    """公…送于大門内，再拜。賓不顧: one named who does not look back (ROLE不顧, all the clause)
    leaves without answering the bow sent after him, the one it was made to (有司徹
    主人送于廟門之外，拜，尸不顧 → to=尸?, not the 侑 who followed him out)."""
    if not text.endswith(rl.word("no-look")):
        return None
    who = leading_roles(tokenize(text[: -len(rl.word("no-look"))], lexicon))
    if not who or "".join(who) != text[: -len(rl.word("no-look"))]:
        return None
    event = Event(rl.word("no-look"))
    event.set("agent", who)
    return event


def _events_of(ctx: Context, pid: str) -> list[Event]:
    """The events of clause ``pid``, looked for from the end of the history: a clause's events
    are together, and the rules ask for the last clauses', so the walk is short (not the whole
    rite's history at every clause)."""
    found: list[Event] = []
    for p, event in reversed(ctx.history):
        if p == pid:
            found.append(event)
        elif found:
            break
    return found[::-1]


def _clauses_back(ctx: Context) -> Iterator[tuple[str, list[Event]]]:
    """The clauses before this one, the nearest first, each with its events (none for one that
    only names things: 腊、膚俎), for the rules that read back over a row of clauses; the rite's
    clauses are walked from the end, not copied."""
    for pid in islice(reversed(ctx.texts), 1, None):
        yield pid, _events_of(ctx, pid)


def _events_of_sentence(ctx: Context, sentence: str) -> list[Event]:
    """The events of the history's last clauses that belong to ``sentence`` (the sentence's
    events are together at the end), in order."""
    found: list[Event] = []
    for p, event in reversed(ctx.history):
        if sentence_of(p) != sentence:
            break
        found.append(event)
    return found[::-1]


def _bows_before(ctx: Context, last: str, lexicon: Lexicon, rl: Rule) -> list[Event]:
    """The events of the clause just before the answer; when that clause only goes on with the
    bower's own acts, no bow (坐奠爵，拜，執爵興。尸侑答拜: he rises holding the cup), the
    clause before it too, in its sentence."""
    events = _events_of(ctx, last)
    if any(lexicon.is_a(e.kind, rl.word("bow")) for e in events) or not events:
        return events
    sentence = sentence_of(last)
    before = next(
        (p for p, _ in reversed(ctx.history) if p != last and sentence_of(p) == sentence), None
    )
    if before is None:
        return events
    earlier = _events_of(ctx, before)
    doers = {e.agent for e in events} | {
        e.agent for e in earlier if lexicon.is_a(e.kind, rl.word("bow"))
    }
    return events + earlier if len(doers) == 1 else events


@rule("handed-then-sent")
def handed_then_sent(pid, events, lexicon, ctx, rl) -> bool:
    """侯氏先升，授几。侯氏拜送几: a handing over naming no one, in the clause just before the
    giver's bow sending it (拜送) to someone, was to that one (implied, to=X?)."""
    sent = next(
        (e for e in events if e.kind in rl.words["send"] and e.agent and e.fields.get("to")), None
    )
    if sent is None or not ctx.history or _denied(sent):
        return False
    found = False
    for event in _events_of(ctx, ctx.history[-1][0]):
        if event.kind in rl.words["give"] and "to" not in event.fields and not _denied(event):
            if event.agent == sent.agent and not set(sent.fields["to"]) & set(event.agent):
                event.set("to", sent.fields["to"], "?")
                found = True
    return found


@rule("handed-to-receiver")
def handed_to_receiver(pid, events, lexicon, ctx, rl) -> bool:
    """升實觶以授。賓諸公卿大夫受觶于席 (宰授几。主人受): a handing over naming no one, in the
    clause just before, was to the one the text names receiving it there, implied (to=X?)."""
    takers = [e for e in events if not e.modifier and e.agent]  # named, or carried: 受觶
    taker = next((e for e in takers if e.kind in rl.words["receive"]), None)
    if taker is None or not ctx.history or _denied(taker):
        return False
    found = False
    for event in _events_of(ctx, ctx.history[-1][0]):
        if event.kind in rl.words["give"] and "to" not in event.fields and event.agent:
            if not set(event.agent) & set(taker.agent) and not _denied(event):
                event.set("to", taker.agent, "?")
                found = True
    return found


def _denied(event: Event) -> bool:
    return event.get("neg") == "1"


def _leads_up(events: list[Event], ctx: Context, rl: Rule) -> bool:
    """主人揖讓。以賓升 (以大夫升): the salute and yielding naming no one, in the clause just
    before one goes up leading another, are to that one (注: 將升賓)."""
    up = next((e for e in events if e.kind in rl.words["up"] and e.fields.get("with")), None)
    if up is None or not up.agent or len(up.fields["with"]) != 1:
        return False
    led = up.fields["with"]
    found = False
    for event in _events_of(ctx, ctx.history[-1][0]):
        if event.kind in rl.words["salute"] and event.marks.get("to") == "?":
            if event.agent == up.agent and event.fields.get("to") != led:
                event.set("to", led, "?")
                found = True
    return found


def _named(events: list[Event]) -> list[Event]:
    """The acts of a clause whose subject the text names (not carried, not implied)."""
    return [e for e in events if not e.modifier and e.agent and not e.marks.get("agent")]


def _answered(open_act, paragraph: str, clauses: int, within: int, answerers: list[Event]):
    """An act waiting for its other party (a 命 or 請 to no one named: (event, paragraph,
    clause)) gets the first answerer who is not its own agent, implied (to=X?); it waits no
    longer than ``within`` clauses, nor past its paragraph but for the next one's first clause
    (命去侯 ends a paragraph of the punctuated edition, 負侯皆許諾 opens the next). Returns
    (still waiting, found)."""
    if open_act is None:
        return None, False
    act, where, at = open_act
    if (where != paragraph and clauses - at > 1) or clauses - at > within:
        return None, False
    if answerers and answerers[0].agent != act.agent:
        act.set("to", answerers[0].agent, "?")
        return None, True
    return open_act, False


def _remember_event(pid: str, event: Event, lexicon: Lexicon, ctx: Context) -> None:
    ctx.history.append((pid, event))
    ctx.parties.update(event.agent, event.fields.get("to", ()))
    chosen = event.fields.pop("_chosen", None)
    if chosen:  # 唯公所酬。以旅于西階上: the one chosen acts next (rules chosen-by, chosen-acts)
        ctx.agent = ctx.positive_agent = ctx.chosen = chosen
        ctx.paragraph_has_agent = True
        return
    if event.agent and not event.marks.get("agent"):
        ctx.chosen = ()
        ruler = lexicon.label(YL.Ruler)
        if not all(ruler in lexicon.role_classes.get(a, ()) for a in event.agent):
            ctx.unnamed_party = False  # 大夫則辭: another is named (rule unnamed-one-acts)
    not_yet = bool(event.fields.pop("_not_yet", None))  # 諸公卿皆未降。遂命三耦: not them
    if (
        lexicon.has(event.kind, "takesRole")
        and event.get("role")
        and any(
            lexicon.label(YL.Officiant) in lexicon.role_classes.get(r, ())
            for r in event.fields["role"]
        )
    ):
        ctx.agent = ctx.positive_agent = event.fields["role"]  # 司馬反為司正，退: the 司正
        return
    if "_aside" in event.fields:  # done by one sent or one assisting: not carried on
        del event.fields["_aside"]
        return
    if (
        event.agent
        and event.marks.get("agent") != "?"
        and not lexicon.has(event.kind, "notCarried")
    ):
        ctx.agent = event.agent
        declined = event.get("neg") and lexicon.is_a(event.kind, lexicon.label(YL.Ci))
        if not declined and not not_yet:
            ctx.positive_agent = event.agent
        ctx.partners = event.fields.get("with", ())
        ctx.paragraph_has_agent = True


# --- r-agent rules


@rule("like-the-errand")
def like_the_errand(reader, event, text, rl) -> bool:
    """聘禮 公使卿贈，如覿幣; 使下大夫贈上介，亦如之; 若不親食，使大夫各以其爵朝服致之以侑幣。
    如致饔: 如X naming no one right after one was sent (使X) on an errand, in the paragraph, is
    how the one sent does it (the first named after 使; the rest are whom the errand is to), not
    the sender, who goes on after it (使下大夫贈上介: the 公 again); not 其他如… (the rest of the
    rite: 使大夫受于廟，其他如遭君喪)."""
    ctx = reader.ctx
    if event.kind not in rl.words["like"] or rl.word("rest") in text:
        return False
    last = ctx.last_act()
    if last is None or paragraph_of(last[0]) != ctx.paragraph:
        return False
    sent = _sent_on_errand(ctx, last, rl)
    if not sent:
        return False
    event.set("agent", sent[:1], "^")
    event.fields["_aside"] = ("1",)  # the sender goes on: 公使卿贈，如覿幣。使下大夫贈上介
    return True


def _sent_on_errand(ctx: Context, last: tuple[str, Event], rl: Rule) -> tuple[str, ...]:
    """Those sent (使X) in the clause of the last act, when that act is the errand (not one
    sent only to follow: 使人執俎從之, the sender goes on)."""
    recent = ctx.history[-int(rl.word("within")) :]
    sends = [e for pid, e in recent if pid == last[0] and e.kind in rl.words["send"]]
    if not sends or last[1].kind in rl.words["follow"]:
        return ()
    return sends[-1].fields.get("to", ())


@rule("saluted-goes")
def saluted_goes(reader, event, text, rl) -> bool:
    """士冠禮 冠者興，賓揖之。適房，服玄端爵韠; 賓揖之，即筵坐: an act naming no one right after
    a clause ending X揖之 (the one saluted only a pronoun, 之) is the one saluted, who goes on as
    bidden (the 冠者), not the one who saluted him."""
    ctx = reader.ctx
    last, before = ctx.last_act(), ctx.clause_before()
    if last is None or before is None or last[0] != before[0]:
        return False
    if last[1].kind not in rl.words["salute"] or not before[1].endswith(rl.word("salute-it")):
        return False
    saluted = last[1].fields.get("to", ())
    if not saluted or set(saluted) & set(last[1].agent):
        return False
    event.set("agent", saluted, "^")
    return True


@rule("unstated-alike")
def unstated_alike(reader, event, text, rl) -> bool:
    """特牲 几席陳于西堂，如初; 大射儀 退豐與觶，如初; 聘禮 饌于東方，亦如之: 如初 or 亦如之
    naming no one, right after an act of its sentence that names no doer (things set out,
    cleared, put away), is that act done as before, still by no one named: not the one carried
    over from before it."""
    ctx = reader.ctx
    if event.kind not in rl.words["like"] or event.get("like") not in rl.words["before"]:
        return False
    last = ctx.last_act()
    if last is None or sentence_of(last[0]) != ctx.sentence:
        return False
    if last[1].agent or last[1].fields.get("noagent") != ("unstated",):
        return False
    return _unstated(event)


@rule("rises-early")
def rises_early(reader, event, text, rl) -> bool:
    """特牲 夙興，主人服如初; 士昏禮 夙興，婦沐浴; 士冠禮 夙興，設洗: rising early, the whole
    clause, is done by those the next clause of its sentence names as its subject (implied), and
    by no one named when it names none (things are set out): not the one carried over from the
    day before."""
    if text != rl.word("early") or not reader.ctx.rest_of_sentence:
        return False
    risers = leading_roles(tokenize(reader.ctx.rest_of_sentence[0], reader.lex))
    if not risers:
        return _unstated(event)
    event.set("agent", risers, "?")
    return True


# --- r-agent5 rules


@rule("errand-goes-on")
def errand_goes_on(reader, event, text, rl) -> bool:
    """聘禮 君使士請事，遂以入竟; 君使下大夫請行，反; 君使卿皮弁，還玉于館; 記 使大夫受，自下聽命;
    特牲 宗人遣佐食及執事盥，出; 少牢 宗人遣賓就主人，皆盥于洗; 聘禮 君使卿韋弁，歸饔餼五牢 (the
    errand told in the next clause): an act naming no one in the
    same sentence right after one was sent (使X, 遣X) and did the errand is the one sent going on
    with it (those who did it), not the sender; not after 使人執俎從之 (the sender goes
    on, the one sent follows him), nor 其他… (the rest of the rite), nor in the next sentence
    (主人使人速。迎于門外: the 主人)."""
    ctx = reader.ctx
    if ctx.new_sentence or rl.word("rest") in text:
        return False
    last = ctx.last_act()
    if last is None or sentence_of(last[0]) != ctx.sentence:
        return False
    doers = last[1].agent
    if last[1].kind in rl.words["send"] and last[1].agent:
        told = tokenize(ctx.texts.get(last[0], ""), reader.lex)
        if not told or told[-1].of("role"):
            return False  # 皆使能，不宿戒; 必使異姓，不使賤者: a choice of whom, no errand
        doers = last[1].fields.get("to", ())  # 君使卿韋弁，歸饔餼五牢: the errand is told next
    elif not doers or not set(doers) <= set(_sent_on_errand(ctx, last, rl)):
        return False
    if not doers:
        return False
    event.set("agent", doers, "^")
    return True


# --- r-recip7 rules


def _guest_asked(reader: ClauseReader, earlier: Event, within: int) -> tuple[str, ...]:
    """又請: the guests (yl:Guest) the earlier request asked, else the last guest to act within
    the last ``within`` acts (賓入。宰受幣。又請 → 賓)."""
    asked = earlier.fields.get("to", ())
    if asked and reader.all_of(asked, YL.Guest):
        return tuple(asked)
    for _, e in reversed(reader.ctx.history[-within:]):
        if e.agent and reader.all_of(e.agent, YL.Guest):
            return tuple(e.agent)
    return ()


# --- r-agent7 rules


@rule("led-in-reaches")
def led_in_reaches(reader, event, text, rl) -> bool:
    """士昏禮 主人…再拜，賓不答拜。揖入。至于廟門: one who saluted another and went in, a
    sentence of only that (揖入), led him in: the two reach the gate together (及 agent=主人,賓^),
    as after 賓從 (rule followed-goes-on); 聘禮 大夫不答拜。揖入。及廟門 → 賓, 大夫."""
    ctx = reader.ctx
    before = ctx.clause_before()
    if not (before and ctx.new_sentence and len(ctx.history) > 1):
        return False
    if event.kind not in rl.words["moving"]:
        return False
    (pid, salute), (pid2, went) = ctx.history[-2:]
    if before[1] != rl.word("salute") + rl.word("enter") or not pid == pid2 == before[0]:
        return False
    led = salute.fields.get("to", ())
    if salute.kind != rl.word("salute") or went.kind != rl.word("enter") or len(led) != 1:
        return False
    if not went.agent or went.agent != salute.agent or went.agent != ctx.agent:
        return False
    event.set("agent", (*ctx.agent, *led), "^")
    return True


@rule("leads-in-again")
def leads_in_again(reader, event, text, rl) -> bool:
    """士昏禮 主人揖入，賓執鴈從。至于廟門，揖入: the two who reached the gate together, 揖入 naming
    no one is the one of them who went in first (入 alone, within the last acts), saluting the
    other to lead him in again (揖 agent=主人^ to=賓?), not both."""
    ctx = reader.ctx
    if text != rl.word("salute") + rl.word("enter") or event.kind != rl.word("salute"):
        return False
    if len(ctx.agent) != 2:
        return False
    leader = next(
        (
            e.agent
            for _, e in reversed(ctx.history[-int(rl.word("within")) :])
            if e.kind == rl.word("enter") and len(e.agent) == 1 and e.agent[0] in ctx.agent
        ),
        (),
    )
    if not leader:
        return False
    event.set("agent", leader, "^")
    event.set("to", tuple(a for a in ctx.agent if a not in leader), "?")
    return True


def _leaving_when(reader, event: Event, rl) -> tuple[str, ...]:
    """既夕禮 賓出，則拜送: the one whose going out (ROLE + 出) is the condition of the act."""
    for cond in event.fields.get("cond", ()):
        for leave in rl.words["leave"]:
            role = reader.lex.forms["role"].get(cond.removesuffix(leave))
            if cond.endswith(leave) and role:
                return (role,)
    return ()


# --- r-agent8 rules


@rule("capper-caps")
def capper_caps(reader, event, text, rl) -> bool:
    """士冠禮 賓答拜。冠者奠爵于薦東，立于筵西。徹薦、爵，筵尊不徹。加皮弁，如初儀；再醮，攝酒:
    an act of the capping (醮, 冠, 字; 加 of a cap, 皮弁, 爵弁) naming no one, where the one
    carried over is the one capped (冠者, 將冠者) or no one, is not his (no one caps himself or
    pours him his own toast) but the capper's: the last other to act toward the one capped,
    within the last acts (賓答拜 to=冠者 → 加 agent=賓, 醮 agent=賓); a cap put on after the
    capper's own acts is his, carried, not a thing set out (再醮…如初。加爵弁 → 加 agent=賓)."""
    ctx = reader.ctx
    capped = set(rl.words["capped"])
    if not ctx.agent:
        return False  # 記 冠義：始冠: no one carried, no capping told
    caps = set(event.fields.get("theme", ())) & set(rl.words["caps"])
    cap_put_on = event.kind in rl.words["puts-on"] and bool(caps)
    if event.kind not in rl.words["acts"] and not cap_put_on:
        return False
    if not set(ctx.agent) & capped:
        if not cap_put_on:
            return False  # 賓…醮: the capper carried over, as any act (rule carried-subject)
        event.set("agent", ctx.agent, "^")  # 加爵弁 after the capper's acts: his, not set out
        return True
    capper = next(
        (
            e.agent
            for _, e in reversed(ctx.history[-int(rl.word("within")) :])
            if set(e.fields.get("to", ())) & capped and e.agent and not set(e.agent) & capped
        ),
        (),
    )
    if not capper:
        return False
    event.set("agent", capper, "^")
    return True


@rule("toasted-tastes")
def toasted_tastes(reader, event, text, rl) -> bool:
    """士冠禮 三醮有乾肉折俎，嚌之，其他如初: an act of the one who receives a cup or a dish
    (yl:receiverAct: 嚌, 啐, 祭) naming no one, in the sentence of a capping toast (醮) given to
    the one capped, is his, the one toasted, not the capper's who poured it."""
    ctx = reader.ctx
    if not reader.lex.has(event.kind, "receiverAct"):
        return False
    for pid, earlier in reversed(ctx.history):
        if sentence_of(pid) != ctx.sentence:
            return False
        toasted = tuple(p for p in earlier.fields.get("to", ()) if p in rl.words["capped"])
        if earlier.kind in rl.words["toasts"] and toasted:
            event.set("agent", toasted, "^")
            return True
    return False


# --- r-group8 rules


@rule("all-who-moved-return")
def all_who_moved_return(reader, event, text, rl) -> bool:
    """鄉飲酒禮 主人降，賓介降，衆賓皆降，復初位，主人迎; 有司徹 主人升，尸侑升，復位: going back to
    one's place (反位) naming no one, after clauses in a row each naming who made the same move
    (降, 升, 出, 入), is done by all those named, who left their places together; not by one the
    next clause names doing something else (主人迎: the host goes on to meet the 遵者, his
    going down was for that). Not with 皆, which reads its own group (士虞禮 祝…出。…主人出門，
    哭止，皆復位: not the 祝 who went out before)."""
    ctx = reader.ctx
    if event.kind != rl.word("back") or not ctx.agent or reader.all_:
        return False
    movers = _moved_in_a_row(ctx, rl)
    nxt = tokenize(ctx.next_clause_text, reader.lex)
    going_on = leading_roles(nxt)
    if any(t.of("action") for t in nxt[len(going_on) :]):
        movers = tuple(a for a in movers if a not in going_on)
    if len(movers) <= len(ctx.agent) or not set(ctx.agent) <= set(movers):
        return False
    event.set("agent", movers, "^")
    return True


def _moved_in_a_row(ctx: Context, rl) -> tuple[str, ...]:
    """The persons named by the clauses just before, in a row, each only one move of the same
    kind by those it names (主人升。尸侑升)."""
    movers: list[str] = []
    kind = ""
    for _, events in _clauses_back(ctx):
        if len(events) != 1 or events[0].marks.get("agent") or not events[0].agent:
            break
        if events[0].kind not in rl.words["moving"] or kind not in ("", events[0].kind):
            break
        kind = events[0].kind
        movers[:0] = [a for a in events[0].agent if a not in movers]
    return tuple(movers) if len(movers) > 1 else ()


@rule("all-stationed")
def all_stationed(reader, event, text, rl) -> bool:
    """既夕禮 主人袒。衆主人西面，北上。婦人東面。皆不哭; 士虞禮 主人及兄弟如葬服，賓執事者如弔服，
    皆即位于門外: 皆 naming no one, when every clause of the paragraph before it only says how
    persons it names stand, face or are dressed (立, 袒, 如X服), is all of them: the roll call
    the paragraph opened with, not the last named."""
    ctx = reader.ctx
    if not (reader.all_ and ctx.agent):
        return False
    paragraph = paragraph_of(next(reversed(ctx.texts)))
    named: list[str] = []
    stations = 0
    for pid, events in _clauses_back(ctx):
        if paragraph_of(pid) != paragraph:
            break
        if not all(_stationed(e, rl) for e in events):
            return False
        stations += bool(events)
        named[:0] = [a for e in events for a in e.agent if a not in named]
    if stations < 2 or not set(ctx.agent) < set(named):
        return False
    event.set("agent", tuple(named), "^")
    return True


def _stationed(event: Event, rl) -> bool:
    """衆主人西面 (立), 主人袒, 賓執事者如弔服: a person named standing, baring or dressed."""
    if not event.agent or event.marks.get("agent"):
        return False
    likes = event.fields.get("like", ())
    dressed = bool(likes) and all(x.endswith(rl.word("dress")) for x in likes)
    return event.kind in rl.words["stance"] or (event.kind == rl.word("like") and dressed)


@rule("bearers-go")
def bearers_go(reader, event, text, rl) -> bool:
    """少牢饋食禮 佐食上利執羊俎，下利執豕俎，司士三人執魚、腊、膚俎，序升自西階; 有司徹
    司馬舉羊鼎，司士舉豕鼎、舉魚鼎，以入: a move (進退: 升, 入, 出 …) naming no one, right
    after clauses in a row that each only say who holds or lifts what (執, 舉, 奉), is all the
    bearers', who carry their things in together, not only the last named; not after clauses
    that move already (雍正執一匕以從…: each goes with his own), nor 從, the last bearer following
    the things before his (聘禮 擯者執上幣，士執衆幣，有司二人舉皮，從其幣: the 有司)."""
    ctx = reader.ctx
    if not ctx.agent or not reader.is_a(event.kind, *rl.words["moving"]):
        return False
    if event.kind in rl.words["follow"]:  # 有司二人舉皮，從其幣: the last, after his own thing
        return False
    bearers: list[str] = []
    rows = 0
    for pid, events in _clauses_back(ctx):
        if not events:
            if pid in ctx.openings.values():
                break
            continue  # 腊、膚俎: the things named go on with the clause before
        if any(e.kind not in rl.words["bear"] or e.marks.get("agent") for e in events):
            break
        rows += 1
        bearers[:0] = [a for e in events for a in e.agent]
    if rows < 2 or not set(ctx.agent) < set(bearers):
        return False
    event.set("agent", tuple(dict.fromkeys(bearers)), "^")
    return True


def _host_ahead(ctx: Context, rl) -> tuple[str, ...]:
    """聘禮 大夫揖入。擯者請命。庭實設四皮。賓奉束帛入，三揖: the one carried over having just
    gone in (入), the host who saluted him and went in ahead (揖 to him, 入, in one clause,
    within the last acts) is the other of the three salutes, not one acting between (擯者)."""
    guest = ctx.agent[0]
    enter = rl.word("enter")
    if not any(e.kind == enter and guest in e.agent for _, e in ctx.history[-3:]):
        return ()
    window = ctx.history[-int(rl.word("ahead-within")) :]
    for pid, e in reversed(window):
        if (
            e.kind == rl.words["salute"][0]
            and guest in e.fields.get("to", ())
            and guest not in e.agent
        ):
            if any(x.kind == enter and x.agent == e.agent for x in _events_of(ctx, pid)):
                return e.agent
    return ()


# --- r-group9 rules


@rule("followers-go-with")
def followers_go_with(reader, event, text, rl) -> bool:
    """士冠禮 賓如主人服，贊者玄端從之，立于外門之外; 特牲饋食禮 主人揖入，兄弟從，賓及衆賓從，
    即位于堂下: a going or standing naming no one, right after clauses of its sentence that only
    say who follows (X從, X從之, X牽馬以從), is the one followed and all who follow him together,
    not the last follower alone; not when the one followed already did that act in the
    sentence (士昏禮 賓降，出。婦從，降自西階: she goes down after him), nor when he leads
    (祝前，哭者皆從: rule leader-and-led), nor after 遂."""
    ctx = reader.ctx
    if ctx.new_sentence or text.startswith(rl.words["then"]):
        return False
    if not (reader.is_a(event.kind, *rl.words["moving"]) or event.kind in rl.words["stance"]):
        return False
    sentence = ctx.sentence
    followers: list[str] = []
    for pid, events in _clauses_back(ctx):
        if sentence_of(pid) != sentence or not events:
            return False
        named = _follow_clause(events, rl)
        if named == ():
            return False
        if named is not None:
            followers[:0] = [a for a in named if a not in followers]
            continue
        doers = tuple(dict.fromkeys(a for e in events for a in e.agent))
        if not (followers and doers) or set(doers) & set(followers):
            return False
        if any(e.kind in rl.words["lead"] for e in events) or any(
            e.kind == event.kind and set(e.agent) & set(doers)
            for e in _events_of_sentence(ctx, sentence)
        ):
            return False
        event.set("agent", (*doers, *followers), "^")
        return True
    return False


def _follow_clause(events: list[Event], rl) -> tuple[str, ...] | None:
    """Those a clause that only says who follows names (兄弟從, 贊者玄端從之); None if its last
    act is no following, () if it cannot be read so: no one named, one carried over, a following
    denied, or one sent to carry (使人執俎從之: he carries for him, no one goes with him)."""
    last = events[-1]
    if last.kind != rl.word("follow"):
        return None
    if not last.agent or last.marks.get("agent") or last.get("neg"):
        return ()
    if any(e.kind == rl.word("send") for e in events):
        return ()
    return tuple(last.agent)


# --- r-agent9 rules


def _answerer_acting(reader: ClauseReader, rl) -> bool:
    """特牲饋食禮 尸即席坐，主人拜妥尸。尸答拜，執奠: the bow answered was made to one who was
    acting (in the sentence of that bow, or in the answer's own sentence: 主人拜，尸奠觶答拜。祭鉶),
    and he goes on after answering it: the turn does not go back (rule turn-goes-back)."""
    ctx = reader.ctx
    if ctx.answered_kind not in rl.words["bow-answer"]:
        return False  # a word declining (辭) answered, not a bow
    answerer, answered = set(ctx.agent), set(ctx.answered)
    salutation = reader.lex.label(YL.Salutation)
    bow = None
    answer = sentence_of(ctx.history[-1][0]) if ctx.history else None
    for pid, earlier in reversed(ctx.history[-int(rl.word("within")) :]):
        if bow is None and sentence_of(pid) == answer and set(earlier.agent) == answerer:
            if "theme" in earlier.fields and not reader.is_a(earlier.kind, salutation):
                return True  # 尸奠觶答拜: acting in the answer's sentence
            continue
        if bow is None:
            if set(earlier.agent) != answered or not reader.is_a(earlier.kind, salutation):
                return False
            if rl.word("receive") in earlier.kind:
                return False  # 尸拜受。舉奠答拜。祭酒: the one who bowed to receive drinks
            bow = pid
            continue
        return set(earlier.agent) == answerer and sentence_of(pid) == sentence_of(bow)
    return False


# --- r-agent10 rules


@rule("business-done")
def business_done(reader, event, text, rl) -> bool:
    """士冠禮 宗人告事畢 … 宰告曰質明行事…告事畢; 士虞禮 宗人告事畢 … 記 哭止，告事畢: the report
    that the business is done (告事畢), naming no one, is made by the one who made it by name
    before in the rite, the officer whose task it is (注 士冠禮: 宗人告事畢), implied; not the
    one carried over (the 宰 who announced the time), nor no one (the 記's rule)."""
    ctx = reader.ctx
    report = rl.word("report")
    if event.kind != report or not text.endswith(report + rl.word("done")):
        return False
    for pid, earlier in reversed(ctx.history):
        if earlier.kind != report or not _named([earlier]):
            continue
        if not ctx.texts.get(pid, "").endswith(report + rl.word("done")):
            continue
        if set(earlier.agent) == set(ctx.agent):
            return False  # 特牲饋食禮 …告事畢: the 宗人 carried over, as he is
        event.set("agent", earlier.agent, "?")
        return True
    return False


# --- r-group10 rules


@rule("held-things-set")
def held_things_set(reader, event, text, rl) -> bool:
    """少牢饋食禮 雍正執一匕以從，雍府執四匕以從，司士合執二俎以從…匕皆加于鼎…俎皆設于鼎西;
    特牲饋食禮 主人在右，及佐食舉牲鼎。賓長在右，及執事舉魚腊鼎…鼎西面錯:
    a thing named first in a clause (its topic), laid down or brought in (設, 加, 入) by no one
    named, is laid down or brought in by all who were last seen holding or lifting it (執, 舉,
    奉), when they are two or more, not by no one; not a thing after its act (設棗于菹北: the one
    who received it)."""
    if not reader.topic or not reader.events or reader.events[0] is not event:
        return False  # 設棗于菹北: the thing after its act, the one carried over sets it
    things = set(event.fields.get("theme", ()))
    if not things or event.marks.get("theme"):
        return False
    if event.kind not in rl.words["lays"] and event.kind not in rl.words["bring"]:
        return False
    if any(t.of("role") for t in reader.tokens):
        return False
    holders: list[str] = []
    for _, events in islice(_clauses_back(reader.ctx), int(rl.word("within"))):
        for earlier in events:
            held = set(earlier.fields.get("theme", ())) & things
            if held and earlier.kind in rl.words["hold"] and earlier.get("neg") != "1":
                holders[:0] = [a for a in earlier.agent if a not in holders]
    if len(holders) < 2:
        return False  # 士喪禮 執醴酒…醴酒錯于豆南: one carried over may not be the one who sets it
    event.set("agent", tuple(holders), "^")
    return True


@rule("all-alike")
def all_alike(reader, event, text, rl) -> bool:
    """既夕禮 (主人)袒，拜賓。主婦亦拜賓。即位，拾踊三: 皆, or taking their places (即位), naming
    no one, right after a clause whose subject did the same as another before him (亦, 亦如之),
    is the two of them, the one carried over and the one he did likewise (注: 拾，更也: they leap
    in turn), not the last named alone."""
    ctx = reader.ctx
    if not (reader.all_ or event.kind in rl.words["place"]) or len(ctx.agent) != 1:
        return False
    also = rl.word("also")
    likened = False
    for pid, events in _clauses_back(ctx):
        acting = [e for e in events if e.agent]
        if not acting:
            continue
        if not likened:
            named = all(e.agent == ctx.agent and not e.marks.get("agent") for e in acting)
            if not named or also not in ctx.texts.get(pid, ""):
                return False
            likened = True
            continue
        other = next((e.agent for e in acting if not set(e.agent) & set(ctx.agent)), ())
        if not other:
            return False
        event.set("agent", (*other, *ctx.agent), "^")
        return True
    return False
