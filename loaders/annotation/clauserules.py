"""The rules of one clause: the token pass, the verbs and the events after the pass.

Each function is the code of one row of ``corpus/annotation-rules.tsv`` (its id, pattern,
words, doc rule and example are there; :mod:`rules`). The literal words a rule looks for are
the row's ``words`` (``rule.words``); what a verb does is its frame in the ontology
(``reader.lex.has(kind, "yuDestination")``, :mod:`lexicon`).

A token rule returns how many tokens it consumed, or ``None`` when it does not apply (the next
rule is tried); a verb rule returns whether it handled the verb; a clause rule changes the
clause's events in place.
"""

from __future__ import annotations

import re
from itertools import islice, takewhile
from typing import TYPE_CHECKING

from yili_kg.loaders.annotation.annotations import Event, paragraph_of, sentence_of
from yili_kg.loaders.annotation.discourse import (
    last_doer,
    last_mourners,
    named_just_before,
    rite_ruler,
    shooters,
    told_just_before,
)
from yili_kg.loaders.annotation.rules import Rule, rule, rule_named, word_class, word_values
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.tokens import Token, leading_roles, tokenize
from yili_kg.loaders.terms.words import is_function_word

if TYPE_CHECKING:
    from yili_kg.loaders.annotation.annotate import ClauseReader

Tokens = list["Token"]
PLACES = {"place", "object"}  # the kinds of token that name where (a thing may mark a place)


def _next(tokens: Tokens, i: int, k: int = 1):
    return tokens[i + k] if i + k < len(tokens) else None


def _has(token, text_or_texts) -> bool:
    return token is not None and token.text in text_or_texts


def _last_event(ctx) -> Event | None:
    """The last act read (not a + record), without its clause id."""
    last = ctx.last_act()
    return last[1] if last else None


# -- the token pass ---------------------------------------------------------------------------


@rule("unmarked-speech")
def unmarked_speech(r, tokens, i, rl):
    """寡君，君之私也。君無所辱賜于使臣，臣敢固辭: a clause that speaks in the words of a speech
    (寡君, 吾子, 使臣, 某: 'our ruler', 'you', 'your servant', 'I, so-and-so') and has no 曰 is
    all said: one act, the bow it makes (拜賜) or else the last answer (辭) or speech act it
    names, or 曰, with the clause as what is said; its persons (君) are not the speaker."""
    if i:
        return None
    text = "".join(t.text for t in tokens)
    first = min((text.find(w) for w in rl.words["speech-words"] if w in text), default=-1)
    if first < 0 or any(t.kinds.get("say") for t in tokens):
        return None
    if rl.word("says") in text[:first]:
        return None  # X曰「…」: the words after 曰 are said (quote_unmarked)
    acts = [t.of("action") for t in tokens if t.of("action")]
    bows = [a for a in acts if r.is_a(a, rl.word("bow"))]
    answers = [a for a in acts if r.lex.has(a, "answer")]  # 某固辭，不得命: the declining
    speech = [a for a in acts if r.is_a(a, r.lex.label(YL.Speech))]
    says = [a for a in acts if a == rl.word("says")]  # 寡君固曰不腆: 曰, not the 請 said
    kind = (bows or answers or says or speech or [rl.word("says")])[-1]
    event = r.new_event(kind)
    event.fields["say"] = ("".join(t.text for t in tokens),)
    return len(tokens)


@rule("quote-goes-on")
def quote_goes_on(r, tokens, i, rl):
    """大射儀 司射西面命曰「中離維綱…衆則不與。¶唯公所中，中三侯皆獲。」: a clause opening inside
    the words an earlier clause quoted (the punctuated edition's “…” cut where a 注 comes between)
    is more of those words, + say= on the speech, not acts of the persons it names; only
    while the last event read says something (士冠禮's blessings, 士虞禮's prayers)."""
    last = r.ctx.history[-1][1] if r.ctx.history else None
    if i or not r.ctx.quoted or last is None or "say" not in last.fields:
        return None
    r.relayed = "".join(ch for ch in r.text if ch not in rl.words["marks"])
    if r.ctx.open_command and r.ctx.open_command[0] is last:
        # the command's words end here, not where the 注 cut them: its answerer is looked for
        # from this clause (司射…命曰「…唯公所中…」。釋獲者命小史 → 命 to=釋獲者?)
        r.ctx.open_command = (last, r.ctx.paragraph, r.ctx.clauses)
    return len(tokens)


@rule("relayed-words")
def relayed_words(r, tokens, i, rl):
    """命卿大夫，君曰「以我安」; 皆命。君曰「無不醉」: the ruler's words quoted right after
    another's command that says nothing yet are what that one commands, in the ruler's name
    (注: 君意殷勤…命卿大夫以我故安): the say of the command, not a speech of the ruler nor a
    recipient."""
    role, yue, said = tokens[i], _next(tokens, i), _next(tokens, i, 2)
    if not (role.of("role") in rl.words["rulers"] and _has(yue, rl.words["says"])):
        return None
    if said is None or "say" not in said.kinds or r.subjects:
        return None
    words = role.text + yue.text + said.kinds["say"]
    if r.events:
        command = r.events[-1]
        if command.kind not in r.lex.frames["command"] or "say" in command.fields:
            return None
        command.fields["say"] = (words,)
        return 3
    last = r.ctx.history[-1] if r.ctx.history else None
    if last is None or paragraph_of(last[0]) != r.ctx.paragraph:
        return None
    command = last[1]
    if command.kind not in r.lex.frames["command"] or "say" in command.fields:
        return None
    if set(command.agent) & set(rl.words["rulers"]):
        return None  # 公命…。公曰: his own words
    r.relayed = words
    return 3


@rule("goes-before")
def goes_before(r, tokens, i, rl):
    """士虞禮 祝前尸 / 有司徹 祝前 / 少牢饋食禮 祝先: a clause that is only a person and 前 or 先
    (and the one he goes before) is his going before, leading (帥; 注: 前，道也), the other the
    one led: an act, not a place in front of him nor a description."""
    texts = [t.text for t in tokens]
    if i or len(tokens) not in (2, 3) or texts[1] not in rl.words["before"] or r.subjects:
        return None
    if not tokens[0].of("role") or (len(tokens) == 3 and not tokens[2].of("role")):
        return None
    r.subjects.append(tokens[0].of("role"))
    event = r.new_event(rl.word("lead"))
    if len(tokens) == 3:
        event.set("to", tokens[2].of("role"))
    return len(tokens)


@rule("owned-alike")
def owned_alike(r, tokens, i, rl):
    """士昏禮 婦車亦如之 / 既夕禮 記 主婦之車亦如之: a person, (之,) a word no term names and 如之
    (亦如之), the whole clause, is that person's thing made or fitted the same way (注: 亦如之
    者，車同等): no one acts, the person is whose it is, not the subject."""
    if i or r.subjects or not tokens[0].of("role") or len(tokens) not in (3, 4):
        return None
    middle, last = tokens[1:-1], tokens[-1]
    if last.of("action") != rl.word("like") or not last.text.endswith(rl.word("it")):
        return None
    if len(middle) == 2 and middle[0].text != rl.word("of"):
        return None
    if middle[-1].kinds or is_function_word(middle[-1].text):
        return None
    r.possessed = True
    r.topic.clear()
    return len(tokens) - 1


@rule("say")
def say(r: ClauseReader, tokens: Tokens, i: int, rl: Rule) -> int | None:
    if "say" in tokens[i].kinds:
        r.speech(tokens[i].kinds["say"])
        return 1
    return None


@rule("puts-on")
def puts_on(r, tokens, i, rl):
    """少牢饋食禮 主婦被錫，衣侈袂 / 婦贊者…亦被錫 / 士昏禮 被顈黼: 被 or 衣 opening what a clause
    says of its subject (after the subject and 亦) is putting on the dress after it (注: 被錫讀為
    髲鬄; 言被，明非常服): an act of dress, 服, the garment its theme, not a list of things."""
    token = tokens[i]
    if r.events or not token.text.startswith(rl.words["wear"]):
        return None
    if any(not (t.of("role") or t.text in rl.words["also"]) for t in tokens[:i]):
        return None
    if token.kinds.keys() - {"object"} or (not token.kinds and i + 1 >= len(tokens)):
        return None  # (衣 alone: the robe, no act)
    event = r.new_event(rl.word("act"))
    event.fields["_dress"] = ("1",)  # its subject stays for the next clause (dress-keeps-subject)
    if token.of("object"):
        event.set("theme", token.of("object"))  # 被錫: the wig, 髲鬄
    return 1


@rule("says-nothing")
def says_nothing(r, tokens, i, rl):
    """少牢饋食禮 主人不言，拜侑 / 尸不言，尸答拜 / 有司徹 不言: 不言 is saying nothing, the act of
    speech (曰) denied (注: 祝言而不拜，主人不言而拜), not a word no term names; not under a case
    (若不言) nor a rule of conduct (非喪事不言)."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("speak") or token.kinds or not r.neg or r.events:
        return None
    if r.ctx.clause_text.startswith(rl.words["not-after"]):
        return None
    if nxt is not None and not nxt.of("role"):
        return None
    r.new_event(rl.word("act"))  # (said to no one: rule unsaid)
    return 1


@rule("prays")
def prays(r, tokens, i, rl):
    """士虞禮 祝祝卒 (注: 祝祝者，釋孝子祭辭): 祝 right after the 祝 named as the subject, and 卒,
    is his prayer finished, an act of speech (曰, as 少牢饋食禮 祝祝曰…), not the 祝 named twice."""
    prayer = rl.word("prayer")
    if i != 1 or tokens[0].of("role") != prayer or tokens[1].text != prayer or r.events:
        return None
    if [t.text for t in tokens[2:]] != [rl.word("finish")]:
        return None  # 祝祝曰…: the 曰 is the act; 祝祝 alone: left (see the rule's row)
    r.new_event(rl.word("act"))
    return len(tokens) - 1


@rule("wailing-stops")
def wailing_stops(r, tokens, i, rl):
    """士虞禮 哭止 (注: 哭止，尊尸) / 既夕禮 衆主人…哭止: the wailing stops, the wailing no more,
    one act denied (哭 neg=1), not a wailing and a standing still (止)."""
    texts = [t.text for t in tokens[i:]]
    if r.events or texts != [rl.word("wail"), rl.word("stop")]:
        return None
    r.neg = True
    r.new_event(rl.word("wail"))
    return 2


@rule("zhu-gloss")
def zhu_gloss(r, tokens, i, rl):
    """則侍射者降 〔注：侍射，賓也〕: a word of the clause that is no term of the ontology, which
    the 注 glosses as a role (W，R也: at its start or after a gloss ending 也), is that role (W者
    too): the clause is read with R in its place (正坐左右撫之〔注：…正，司馬正也〕). Not a word
    with an act in it (君使人弔〔注：使人，士也〕: 使 is the act)."""
    if i or not r.ctx.notes or any("say" in t.kinds or "title" in t.kinds for t in tokens):
        return None  # (a quotation's marks are not in its token: the clause is not rebuilt)
    text = "".join(t.text for t in tokens)
    for word, role in _glosses(r, r.ctx.notes[0], text, rl):
        whole = word + rl.word("zhe") if word + rl.word("zhe") in text else word
        start = text.index(whole)
        covered, at = [], 0
        for token in tokens:
            if at < start + len(whole) and at + len(token.text) > start:
                covered.append(token)
            at += len(token.text)
        if any("action" in t.kinds and not t.of("role") for t in covered):
            continue
        tokens[:] = tokenize(text.replace(whole, role, 1), r.lex)
        r.ctx.trace.append(rl.id)
        return None
    return None


def _glosses(r: ClauseReader, note: str, text: str, rl: Rule):
    """(W, R) for each gloss W，R也 of the 注 (at its start or after a 也) whose W is in the
    clause's text and is no role (the longest W first); a W of one character only where it
    begins the clause, its subject (正坐; not 順爾成德〔注：爾，女也〕, 爾 'you')."""
    is_, roles = rl.word("is"), r.lex.forms["role"]
    starts = [0] + [m.end() for m in re.finditer(is_, note)]
    for start in starts:
        for length in range(int(rl.word("longest")), 0, -1):
            word, rest = note[start : start + length], note[start + length :]
            # R也 after W: R runs to the first 也 (no role's name holds one); or W，X，謂R也:
            # the word glossed, then whom it means (鄉，鄉人，謂鄉大夫也)
            role = rest[: rest.find(is_)] if is_ in rest else ""
            role = role.rsplit(rl.word("means"), 1)[-1] if role not in roles else role
            if role in roles and len(word) == length and word in text and word not in roles:
                if length > 1 or text.startswith(word):  # 正坐: one character, as the subject
                    yield word, role
                break


@rule("split-act")
def split_act(r, tokens, i, rl):
    """負其侯, 拜其辱, 復其位: an act of two characters written with 其 between them (負侯, 拜辱,
    復位) is that act, 其 the one's own: the three tokens, here or just after (以負其侯), are
    read as one act token; the other rules then read it (returns None)."""
    for k in (i, i + 1):
        third = _next(tokens, k, 2)
        if third is None or tokens[k + 1].text != rl.word("its") or "action" in third.kinds:
            continue
        form = tokens[k].text + third.text
        kind = r.lex.forms["action"].get(form)
        if kind and not tokens[k].of("role"):
            text = tokens[k].text + tokens[k + 1].text + third.text
            tokens[k : k + 3] = [Token(text, {"action": kind})]
            r.ctx.trace.append(rl.id)
    return None


@rule("all-together")
def all_together(r, tokens, i, rl):
    """皆 before the clause's first act: every one named does it (公以賓及卿大夫皆坐)."""
    if tokens[i].text in rl.words["all"] and not tokens[i].kinds and not r.events:
        r.all_ = True
        return 1
    return None


@rule("once-done")
def once_done(r, tokens, i, rl):
    """卒歌，主人獻工 / 卒祭，左個之西北三步: 卒 and an act, alone opening a sentence, is the
    time of what follows (when the singing is done), no act of its own."""
    nxt = _next(tokens, i)
    if i or len(tokens) != 2 or tokens[0].text != rl.word("finish") or tokens[0].kinds:
        return None
    if nxt is None or "action" not in nxt.kinds or not r.ctx.new_sentence:
        return None
    r.stop = True
    return 2


@rule("days-before")
def days_before(r, tokens, i, rl):
    """前射三日, 前期三日: 前, an event or a date, a number of days: a time (so many days
    before), no act of the event named (射 is no shooting), the whole clause."""
    if i or len(tokens) < 4 or tokens[0].text != rl.word("before") or tokens[0].kinds:
        return None
    if tokens[-1].text != rl.word("day") or tokens[-2].text not in word_class("numeral"):
        return None
    r.stop = True
    return len(tokens)


@rule("months-since")
def months_since(r, tokens, i, rl):
    """士昏禮 婦入三月, 則婦入三月: an act and a number of months ending the clause is a time (注:
    入夫之室三月之後), so many months since it was done, no act told: the whole clause."""
    if i or len(tokens) < 3 or tokens[-1].text != rl.word("month"):
        return None
    if tokens[-2].text not in word_class("numeral") or not tokens[-3].of("action"):
        return None
    if any(t.of("action") for t in tokens[:-3]):
        return None
    r.subjects.extend(t.of("role") or "" for t in tokens[:-3] if t.of("role"))  # for what follows
    r.stop = True
    return len(tokens)


@rule("held-with")
def held_with(r, tokens, i, rl):
    """釋獲者遂以所執餘獲: 以所V X ending the clause ('with the X he Vs') names what the subject
    holds as he goes on: the act V on X (執 theme=餘獲, the tallies left), by him; not 所V as a
    place (立于所設中之西南) nor the 遂 an armlet."""
    adverb = tokens[i].text in word_class("adverb") and not tokens[i].kinds.keys() - {"object"}
    j = i + 1 if adverb else i
    if (
        len(tokens) < j + 4
        or tokens[j].text != rl.word("yi")
        or tokens[j + 1].text != rl.word("suo")
    ):
        return None
    act, things = tokens[j + 2].of("action"), tokens[j + 3 :]
    if not act or not all(t.of("object") and not t.of("action") for t in things):
        return None
    r.new_event(act).set("theme", tuple(t.of("object") for t in things))
    return len(tokens) - i


@rule("shows-at")
def shows_at(r, tokens, i, rl):
    """大侯之崇，見鵠於參: 見 with a thing after it and 于 a place is the thing showing there (the
    target's centre seen above the next target; the arrowhead over the grip), a description of
    how things stand, no act of seeing or meeting: the clause has no event."""
    nxt = _next(tokens, i)
    if tokens[i].of("action") != rl.word("show") or nxt is None:
        return None
    if nxt.text in rl.words["yu"] or nxt.of("role") or nxt.of("action"):
        return None  # 見於君, 贊見婦于舅姑: a person met
    if not any(t.text in rl.words["yu"] for t in tokens[i + 2 :]):
        return None  # 見馬首: seen, no place it shows at
    r.stop = True
    r.at.clear()  # 于弓外: where the thing shows, no place left for the next act
    return len(tokens) - i


@rule("unread-act")
def unread_act(r, tokens, i, rl):
    """記 朝服而謀賓介, 主人就先生而謀賓介: after an act read, 而 before a word the lexicon knows
    as nothing (謀, to deliberate) opens an act of its own the annotator does not read: the
    persons after it are that act's (the 賓 and 介 deliberated on), not the wearer's nor more
    persons gone to (就 to=先生 only), and are passed over with it; a thing referred to after
    it (橫而拳之) is left to the rules (not 而后, 'and then')."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["then"] or nxt is None or not r.events:
        return None
    if nxt.kinds or is_function_word(nxt.text) or nxt.text in rl.words["except"]:
        return None
    j = i + 2
    while j < len(tokens) and tokens[j].of("role"):
        j += 1  # 謀賓介: the persons it is done to
    return j - i


@rule("skip-adverb")
def skip_adverb(r, tokens, i, rl):
    token, nxt = tokens[i], _next(tokens, i)
    if token.text not in word_class("adverb") or nxt is None or token.of("role"):
        return None
    if "action" in nxt.kinds:
        return 1
    after = _next(tokens, i + 1)  # 遂下拜: the adverb before the 下 of down-to-bow
    if nxt.text in word_class("compass") and after is not None and "action" in after.kinds:
        return 1  # 遂西取弓矢: then (going) west, not a place 遂西
    down = rule_named("down-to-bow").word("down")
    if nxt.text == down and not nxt.kinds and after is not None and "action" in after.kinds:
        return 1
    yi = rule_named("thereupon").word("yi")  # 遂以比三耦: then, thereupon, an act
    if nxt.text == yi and not nxt.kinds and after is not None and "action" in after.kinds:
        return 1
    return None


@rule("title")
def title(r, tokens, i, rl):
    return 1 if "title" in tokens[i].kinds else None


@rule("worship-at")
def worship_at(r, tokens, i, rl):
    """覲禮 禮日于南門外，禮月與四瀆于北門外: 禮 opening a clause, before what it is done to and
    于 a place, is worshipping with a sacrifice (注: 變拜言禮者，容祀也), 祭; not 禮于阼 (no thing
    named: the 醴 of 士冠禮), 禮辭, 禮玉 (a thing)."""
    if i or tokens[i].text != rl.word("worship") or r.events:
        return None
    yu = next((j for j, t in enumerate(tokens) if t.text in rl.words["yu"]), None)
    if yu is None or yu < 2 or yu + 1 >= len(tokens):
        return None
    r.verb(rl.word("act"), tokens, i)
    return yu  # what is worshipped is no term of the ontology: read on from 于


@rule("offering-wine")
def offering_wine(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].of("action") == rl.word("act") and _has(nxt, rl.words["thing"]):
        return 1 + r.attach_noun(nxt, tokens, i + 1)
    return None


@rule("and")
def and_(r, tokens, i, rl):
    if "and" in tokens[i].kinds:
        r.joined = True
        return 1
    return None


def _bare_negation(tokens, i, rl) -> bool:
    return (
        tokens[i].text in word_class("negation")
        and not tokens[i].kinds
        and tokens[i].text in rl.words["neg"]
    )


def _denied_thing(r, tokens, i, rl, category: str, field: str):
    """無 + a thing of ``category`` and no act after it: the rule's act denied, the thing in
    ``field`` (無介: no 戒 to the 介; 無加席: no 設 of the extra mat)."""
    nxt = _next(tokens, i)
    if not (_bare_negation(tokens, i, rl) and nxt is not None and "action" not in nxt.kinds):
        return None
    if not nxt.of(category):
        return None
    event = r.new_event(rl.word("act"))
    event.set(field, nxt.of(category))
    event.set("neg", "1")
    return 2


@rule("mat-spread")
def mat_spread(r, tokens, i, rl):
    """士昏禮 主人筵于户西; 有司徹 司宮筵于户西, 又筵于西序; 公食大夫禮 記 宰夫筵: 筵 right after
    the person, or opening the clause, before 于 and a place or ending the clause, is laying the
    mat, 席 (注: 筵本在房，宰夫敷之也), not the thing; 筵賓 is rule mat-for's."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("mat") or token.kinds.keys() != {"object"} or r.events:
        return None
    if nxt is not None and nxt.text != rl.word("at"):
        return None
    if any(t.kinds and not t.of("role") for t in tokens[:i]):
        return None  # (蒲筵, 設筵: a thing, or the thing of an act)
    tokens[i] = Token(token.text, {"action": rl.word("act")})
    return 0


@rule("mat-for")
def mat_for(r, tokens, i, rl):
    """司宮筵賓于户西, 筵祝: a thing whose name is also an act (席, the mat and laying it),
    written in another form of the thing only (筵) before any act of the clause and right
    before a person, is that act done for him, as 席賓 (注: 筵，席也)."""
    thing = tokens[i].of("object")
    if r.events or len(tokens[i].kinds) != 1 or not thing or thing not in r.lex.forms["action"]:
        return None
    nxt = _next(tokens, i)
    if nxt is None or not nxt.of("role") or tokens[i].text == thing:
        return None
    tokens[i] = Token(tokens[i].text, {"action": r.lex.forms["action"][thing]})
    return 0


@rule("robes-named")
def robes_named(r, tokens, i, rl):
    """覲禮 諸公奉篋服, 天子賜侯氏以車服, 諸公賜服者: 服 right after a thing (篋服: the box of
    robes) or among what an act of giving gives, no other act between (賜服, 賜侯氏以車服: the
    chariot and the robes given), is the robes, no act of putting them on; the robes are a class
    of clothing, no thing (注: 服則衮也，鷩也，毳也)."""
    token = tokens[i]
    if token.text != rl.word("robes") or token.of("action") != rl.word("robes") or i == 0:
        return None
    acts = [t.of("action") for t in tokens[:i] if t.of("action") and not t.of("object")]
    given = bool(acts) and acts[-1] in rl.words["given"]
    off = tokens[i - 1].of("action") in rl.words["off"]  # 士昏禮 主人說服于房: taken off
    if not (tokens[i - 1].of("object") or given or off):
        return _robes_handled(r, tokens, i, rl)
    return 1


@rule("bare-role")
def bare_role(r, tokens, i, rl):
    """乃薦司正與射人一人…執冪二人 / 授執散爵: an act and its thing whose form with 者 is a
    role (執冪者, 執散爵者), written without 者 where a person is wanted (after 與 in a list of
    persons, after 授, or before a number of men), is that role, no act of holding."""
    if not tokens[i].of("action"):
        return None
    roles = r.lex.forms["role"]
    found = [
        (k, role)
        for k in (2, 1)
        if i + k < len(tokens)
        and all(t.of("object") for t in tokens[i + 1 : i + k + 1])
        and (role := roles.get("".join(t.text for t in tokens[i : i + k + 1]) + rl.word("doer")))
    ]
    if not found:
        return None
    k, role = found[0]
    after = tokens[i + k + 1].text if i + k + 1 < len(tokens) else ""
    before = tokens[i - 1] if i else None
    wanted = (
        before is not None
        and (before.text in rl.words["with"] or before.of("action") in rl.words["hands"])
    ) or bool(after and after[0] in word_values("numeral"))
    if not wanted:
        return None
    tokens[i : i + k + 1] = [Token("".join(t.text for t in tokens[i : i + k + 1]), {"role": role})]
    return 0


@rule("named-for-act")
def named_for_act(r, tokens, i, rl):
    """笙由庚: a role named for its act (yl:roleAct) opening a clause, then a piece and no act
    and no place, does that act (the pipers play 由庚); a role alone is no act."""
    acts = tokens[i].of("role") and r.lex.role_acts.get(tokens[i].of("role"))
    rest = tokens[i + 1 :]
    if i or not acts or not rest:
        return None
    if any(set(t.kinds) & {"action", "place", "direction", "role"} for t in rest):
        return None
    r.subjects.append(tokens[i].of("role"))
    r.new_event(acts[0])
    return len(tokens)  # the piece's name is no term: nothing more to read


@rule("office-held")
def office_held(r, tokens, i, rl):
    """大射儀 大射正擯 / 鄉射禮 記 則司射擯升降: the usher's office (擯, a form of 相) written
    right after the person who holds it is no second person: alone it is the office he takes
    (為 role=擯者, 注: 大射正，射人之長), before acts it is his ushering of those who do them
    (相: the 升 and 降 are theirs, 注: 擯賓主人升降者皆尊之也)."""
    token = tokens[i]
    if token.text not in rl.words["office"] or i == 0 or r.events or not r.subjects:
        return None
    if not tokens[i - 1].of("role"):
        return None
    rest = tokens[i + 1 :]
    if not rest:
        r.new_event(rl.word("as")).set("role", (rl.word("role"),))
        return 1
    if not all(t.of("action") for t in rest):
        return None
    r.new_event(rl.word("act"))
    r.stop = True  # the acts after it are those ushered, not his
    return len(tokens) - i


@rule("person-not-act")
def person_not_act(r, tokens, i, rl):
    """士昏禮 媵受, 媵布席于奧, 媵禦餕: a word that names both a person and an act (媵: the bride's
    companion, 注: 媵，送也，謂女從者也; and presenting the cup), opening a clause before another
    act, a person or a word no term reads, is the person, the clause's subject; before a thing
    it is the act (燕禮 媵觚于賓); 相 before an act is each other (相揖), no usher."""
    token, nxt = tokens[i], _next(tokens, i)
    role = token.of("role")
    if i or r.subjects or not role or not token.of("action") or nxt is None:
        return None
    then = _next(tokens, i, 2)  # 媵布席: a word no term reads, then the act
    if token.text in rl.words["each-other"] or not (
        "action" in nxt.kinds or (not nxt.kinds and then is not None and "action" in then.kinds)
    ):
        return None
    tokens[i] = Token(token.text, {"role": role})
    r.tokens = (tokens[i], *r.tokens[1:])  # read as the person by the rules that look back too
    return 0


@rule("facing-thing")
def facing_thing(r, tokens, i, rl):
    """士昏禮 設對醤于東, 禦布對席, 即對筵; 少牢饋食禮 司宮設對席: 對 right before a thing is
    'facing', the one of a pair set opposite the other (注: 對醬，婦醬也), no reply: no act."""
    nxt = _next(tokens, i)
    if tokens[i].of("action") not in rl.words["facing"] or nxt is None:
        return None
    if "object" not in nxt.kinds:
        return None
    joined = tokens[i - 1].text + nxt.text if i else ""
    if joined in r.lex.forms["action"]:  # 即對筵: going to (即筵) the facing mat
        tokens[i - 1 : i + 2] = [Token(joined, {"action": r.lex.forms["action"][joined]})]
        return -1  # read again from the act just joined
    others = [t for k, t in enumerate(tokens) if k != i and "action" in t.kinds]
    return 1 if others else None  # (對敦于北, no other act: left as it was read)


@rule("meat-raised")
def meat_raised(r, tokens, i, rl):
    """有司徹 乃升羊豕魚三鼎; 少牢饋食禮 司馬升羊右胖, 髀不升; 士昏禮 合升: 升 of meat is putting it
    into its vessel (實), or loading the stands (載) after a stand was moved or loaded within
    the last acts (疏: 實鼎曰升，實俎曰載，今實俎而言升者，以其升者上也), not going up."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.of("action") != rl.word("raise"):
        return None
    before = tokens[i - 1].text if i else ""
    meat = nxt is not None and nxt.text[:1] in rl.words["meats"]
    together = before == rl.word("together")
    thing_not = (
        before == rl.word("negation")
        and i == 2
        and (not tokens[0].kinds or tokens[0].kinds.keys() == {"object"})
        and nxt is None
    )  # 髀不升: a part of the animal (a term or none), opening the clause
    if not (meat or together or thing_not):
        return None
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :]]
    on_stand = any(
        e.kind == rl.word("onto-stand")
        or any(t.endswith(rl.word("stand")) for t in e.fields.get("theme", ()))
        for e in recent
    )
    act = rl.word("onto-stand") if on_stand else rl.word("into-vessel")
    tokens[i] = Token(token.text, {"action": act})
    if not r.subjects and r.ctx.pending_sentence != r.ctx.sentence:
        r.ctx.pending = None  # 乃燅尸俎。卒燅。乃升羊豕魚三鼎: no person of an earlier sentence
    return 0


@rule("poured-from")
def poured_from(r, tokens, i, rl):
    """士昏禮 酌于户外尊, 贊酌外尊酳之: 尊 after pouring (酌), with only where it stands between,
    is the vessel the wine is taken from (注: 外尊，房户外之東尊), no act of setting out wine."""
    token = tokens[i]
    if token.of("action") != rl.word("vessel") or not token.of("object") or not r.events:
        return None
    last = r.events[-1]
    start = next((k for k in range(i - 1, -1, -1) if tokens[k].of("action")), None)
    if last.kind != rl.word("pour") or start is None or tokens[start].of("action") != last.kind:
        return None
    between = tokens[start + 1 : i]
    if any(t.kinds.keys() - {"place"} for t in between):
        return None  # (酌散, 酌膳: the wine, not where it stands)
    words = [t.text for t in between if t.text != rl.word("at")]
    if any(t.of("place") for t in between):
        last.unset("at")  # 户外尊 is one place as written, not the door
    last.set("from", "".join(words) + token.text)
    return 1


@rule("genitive-thing")
def genitive_thing(r, tokens, i, rl):
    """士昏禮 婦餕姑之饌: a word that is also an act, right after ROLE之 following an act of its
    clause, is that person's thing (X之Y: the 姑's meal), no act; the person is whose it is."""
    token = tokens[i]
    if i < 2 or not r.events or "action" not in token.kinds or token.kinds.keys() - {"action"}:
        return None
    if tokens[i - 1].text != rl.word("of") or not tokens[i - 2].of("role"):
        return None
    owner = tokens[i - 2].of("role")
    last = r.events[-1]
    if last.fields.get("to", ())[-1:] == (owner,):  # whose it is, not the one it is done to
        rest = last.fields["to"][:-1]
        if rest:
            last.set("to", rest)
        else:
            last.unset("to")
    return 1


@rule("drives-carriage")
def drives_carriage(r, tokens, i, rl):
    """士昏禮 壻御婦車: 御 between the subject and a carriage (車, with whose it is) is driving it
    (注: 壻御者，親而下之), read as 乘, not a second person; 御 before an act is the attendant."""
    token = tokens[i]
    if not i or r.events or token.of("role") != rl.word("driver") or not tokens[i - 1].of("role"):
        return None
    rest = tokens[i + 1 :]
    if not rest or rest[-1].text != rl.word("carriage") or rest[-1].kinds:
        return None
    if any(not t.of("role") for t in rest[:-1]):
        return None
    r.new_event(rl.word("act"))
    return len(tokens) - i


@rule("assistant-named")
def assistant_named(r, tokens, i, rl):
    """士昏禮 贊者徹尊冪 … 贊洗爵, 贊答拜: 贊 opening a clause before an act, where a 贊者 has
    acted or been addressed before in the rite, is that assistant named short (贊 = 贊者, 注:
    贊者西面告饌具也), the clause's subject; not help given by the one carried over (rule
    assisting: 大射儀 贊設決, no 贊者 in the rite)."""
    nxt = _next(tokens, i)
    if i or r.subjects or tokens[i].text not in rl.words["assist"] or tokens[i].kinds:
        return None
    if nxt is None or rl.word("assistant") not in r.ctx.parties or nxt.of("role"):
        return None
    if not any("action" in t.kinds for t in tokens[i + 1 :]) and not _honours_with_wine(tokens, 1):
        return None  # (贊以肝從, 贊户内北面答拜: the act after a thing or a place; 贊醴婦: an act)
    r.subjects.append(rl.word("assistant"))
    return 1


@rule("assisting")
def assisting(r, tokens, i, rl):
    """膳宰贊授肺: 贊 before an act marks it as help given to another, whose acts go on (不拜酒
    is the 公's, not the 膳宰's); 贊 itself is no act."""
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["assist"] and not tokens[i].kinds and nxt is not None:
        if "action" in nxt.kinds:
            r.assisting = True
            return 1
        after = _next(tokens, i, 2)
        if nxt.of("role") and after is not None and "action" in after.kinds:
            if r.subjects and not r.events:  # 宰夫贊主人酌: the 主人 helped, no second doer
                r.assisting = r.helped_named = True
                return 2
    return None


@rule("help-commanded")
def help_commanded(r, tokens, i, rl):
    """命弟子贊工, 樂正命弟子贊工即位: after a command to someone, 贊 and a person is what he is
    commanded, to help that one (注: 贊，佐也): the person helped is not commanded, and the clause
    stops there."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["assist"] or tokens[i].kinds or nxt is None:
        return None
    last = r.events[-1] if r.events else None
    if last is None or last.kind not in r.lex.frames["command"] or "to" not in last.fields:
        return None
    if not nxt.of("role"):
        return None
    r.content_done = r.stop = True
    return len(tokens) - i


@rule("no-role")
def no_role(r, tokens, i, rl):
    return _denied_thing(r, tokens, i, rl, "role", "to")


@rule("thing-first")
def thing_first(r, tokens, i, rl):
    """既夕禮 席升設于柩西, 巾席俟于西方, 巾席從而降; 士虞禮 記 席設于尊西北: 席, which names the
    mat and laying a mat, opening the clause or after things only, right before another act, is
    the thing, what that act moves or sets out (升 theme=席), not the
    act of laying a mat; so 薦 (the dishes, 脯醢, and presenting them) before the stand and an
    act (大射儀 薦俎從之; 特牲饋食禮 薦俎從設, 薦俎設于其位: 從, 設 theme=脯醢,俎)."""
    token = tokens[i]
    if token.of("object") not in (rl.word("mat"), rl.word("dish")) or not token.of("action"):
        return None
    if r.events or r.subjects:
        return None
    after = list(takewhile(lambda t: t.kinds.keys() == {"object"}, tokens[i + 1 :]))
    stands = {t.of("object") for t in after} <= set(rl.words["stands"])
    if token.of("object") == rl.word("dish") and not (after and stands):
        return None  # 薦脯醢, 薦馬如初 (acts), 薦于席前: only before the stand
    nxt = _next(tokens, i + len(after))
    if nxt is None:
        return None
    if not nxt.of("action") or nxt.of("object") or nxt.of("role"):
        return None
    if any(t.kinds.keys() != {"object"} for t in tokens[:i]):
        return None
    tokens[i] = Token(token.text, {"object": token.of("object")})
    return 0


@rule("offering-handled")
def offering_handled(r, tokens, i, rl):
    """既夕禮 徹奠, 祝及執事舉奠, 辟奠不出室, 祝饌祖奠于主人之南; 士虞禮 尸取奠:
    奠 right after an act that takes, moves or sets out a thing (or after such an act and a word
    no term names: 祖奠, the offering of the departure) is the offering, or the cup set down,
    the thing of that act, not a second act of setting down; before a thing (舉奠觶) rule
    set-down-cup reads it."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("offering") or not i or (nxt is not None and nxt.of("object")):
        return None  # (舉奠觶: rule set-down-cup)
    before = tokens[i - 1]
    if not before.kinds and i > 1 and not is_function_word(before.text):
        before = tokens[i - 2]
    if before.of("action") not in rl.words["takes"]:
        return None
    return 1


@rule("morning")
def morning(r, tokens, i, rl):
    """既夕禮 猶朝夕哭; 少牢饋食禮 朝筮尸: 朝 before 夕, or opening the
    clause right before its act, is a time, the morning (and evening), when the act is done: no
    place 朝 (the court of 覲禮 乃朝以瑞玉, 既夕禮 朝于禰廟 keep theirs)."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("morning") or nxt is None:
        return None
    if nxt.text == rl.word("evening") and not nxt.kinds:
        return 2
    if any(t.text not in word_class("adverb") for t in tokens[:i]):
        return None
    return 1 if nxt.of("action") and not nxt.of("role") else None


@rule("cloth-cover")
def cloth_cover(r, tokens, i, rl):
    """既夕禮 奠設如初，巾之; 記 凡籩豆實具設，皆巾之; 士喪禮 祝受巾，巾之: the cloth 巾 and 之
    ending the clause, no act before it, is covering the thing with the cloth:
    加 theme=巾, the thing named before covered, not a clause with no act."""
    if r.events or tokens[i].of("object") != rl.word("cloth"):
        return None
    used = _cloth_used(r, tokens, i, rl)
    if used is None:
        return None
    r.new_event(rl.word("act")).set("theme", rl.word("cloth"))
    return used


@rule("side-taken")
def side_taken(r, tokens, i, rl):
    """既夕禮 衆主人東即位: a compass word between the persons and 即位 is the side where they
    take their places (即位 at=東), not a word dropped."""
    token, nxt = tokens[i], _next(tokens, i)
    if not i or not tokens[i - 1].of("role") or nxt is None or r.events:
        return None
    if token.kinds.keys() != {"direction"} or token.text not in word_class("compass"):
        return None
    if nxt.of("action") not in rl.words["acts"]:
        return None
    r.at.append(token.text)
    return 1


@rule("thing-follows")
def thing_follows(r, tokens, i, rl):
    """既夕禮 重先，奠從，燭從; 士虞禮 記 席從: a clause that is only a word of an act and 從 is
    that thing following in the file (the offering, the mat), no act of its own: 從 with the
    thing when it is one (席從 → 從 theme=席), as 燭從 reads."""
    if i or len(tokens) != 2 or tokens[1].text != rl.word("follow"):
        return None
    if "action" not in tokens[0].kinds:
        return None
    thing = tokens[0].of("object")
    if not thing:
        return 1
    tokens[0] = Token(tokens[0].text, {"object": thing})
    return 0


@rule("without-count")
def without_count(r, tokens, i, rl):
    """既夕禮 主人踊無算; 鄉射禮 記 射無算; 有司徹 爵無算: 無算 after an act or a thing is 'without
    number', how often it is done, not a tally (算) denied: no event, no negation."""
    nxt = _next(tokens, i)
    if not i or tokens[i].text != rl.word("neg") or tokens[i].kinds or nxt is None:
        return None
    return 2 if nxt.text == rl.word("count") else None


@rule("no-object")
def no_object(r, tokens, i, rl):
    return _denied_thing(r, tokens, i, rl, "object", "theme")


@rule("set-there")
def set_there(r, tokens, i, rl):
    """有脀, 有加席: 有 and a stand or a mat ending the clause, naming no one, not after 辯 or 皆
    (辯有脯醢: what each has, a description), is that thing set out, the counterpart of 無俎
    (rule no-object); 有司徹 亦有薦脀, the dish (薦, a noun) before the stand: both set out."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("have") or tokens[i].kinds or nxt is None:
        return None
    dish = nxt.of("object") if nxt.text in rl.words["dish"] and nxt is tokens[-2] else None
    if dish:  # 有司徹 亦有薦脀: the dish (脯醢) and the stand set out
        nxt = tokens[-1]
    thing = nxt.of("object")
    if nxt is not tokens[-1] or thing not in rl.words["things"] or "action" in nxt.kinds:
        return None
    if i and tokens[i - 1].text in rl.words["each"] or r.subjects or r.with_:
        return None  # (惟公與賓有俎: whose stands, left to the clause after, 獻公)
    r.new_event(rl.word("act")).set("theme", (dish, thing))  # (no dish: the stand alone)
    return 2 + bool(dish)


@rule("negation")
def negation(r, tokens, i, rl):
    if tokens[i].text in word_class("negation") and not tokens[i].kinds:
        nxt = _next(tokens, i)
        # 無所辱賜: 無 before a word that is no term denies no act ('there is nothing that …')
        r.neg = not (tokens[i].text in rl.words["none"] and nxt is not None and not nxt.kinds)
        r.not_yet = r.neg and tokens[i].text in rl.words["not-yet"]
        return 1
    return None


@rule("so-like")
def so_like(r, tokens, i, rl):
    """衆皆若是: 若是 is 如是, the act done as just told (如 like=是), not a condition; 若是以授尸,
    若是以辯 ('so', the manner of the act after 以) and 若是者三 (so, three times: what is
    repeated, often an exchange of two, is left unread) make no act of their own (有司徹;
    特牲饋食禮 若是者三; 士相見禮 衆皆若是, 注: 皆若是，其視之儀無異也)."""
    if not (tokens[i].text + "".join(t.text for t in tokens[i + 1 : i + 2])) == rl.word("so"):
        return None
    rest = tokens[i + 2 :]
    if rest and rest[0].text in rl.words["with"]:
        return 2  # 若是以授尸: the manner of the act after 以
    counted = len(rest) == 2 and rest[0].text in rl.words["zhe"]
    if counted:
        return len(tokens) - i
    if rest or not (r.subjects or r.all_):
        return None  # 若是 alone: a condition (喪服 傳 若是，則…)
    r.new_event(rl.word("act")).set("like", rl.word("it"))
    return len(tokens) - i


@rule("if")
def if_(r, tokens, i, rl):
    return 1 if tokens[i].text in rl.words["if"] and not tokens[i].kinds else None


@rule("like")
def like(r, tokens, i, rl):
    token, nxt = tokens[i], _next(tokens, i)
    if token.text == rl.word("like") or token.of("action") == rl.word("like"):
        return r.like(tokens, i, rl.word("like"))
    if token.text == rl.word("its") and _has(nxt, rl.words["other"]):
        if any(t.text == rl.word("like") for t in tokens[i + 2 :]):
            return r.like(tokens, i, rl.word("like"))  # 其他如初儀: the rest as at first
        return 2  # 其他不拜: the others (of those carried over) do not bow
    return None


@rule("place-beyond")
def place_beyond(r, tokens, i, rl):
    """于帷門之外, 于外門外, 于戶牖之間, 于醬湇間: right after 于, the words up to 外 or 間
    ending the clause (places, things, a compass word, words the ontology does not name, 之
    before the last) are one place as written, outside or between them: not the bare 門, nor
    a thing handled."""
    if r.prep is None or not i or tokens[i - 1].text not in rl.words["yu"]:
        return None
    span, last = tokens[i:-1], tokens[-1]
    if last.text not in rl.words["beyond"] or last.kinds or not span:
        return None
    if span[-1].text in rl.words["of"]:
        span = span[:-1]
    if not span or len(span) > int(rl.word("longest")):
        return None
    for token in span:
        if "role" in token.kinds or token.text in word_values("preposition"):
            return None
        if token.kinds and not token.kinds.keys() & {"place", "object", "direction"}:
            return None
    r.place_here(r.known_place("".join(t.text for t in tokens[i:])))
    return len(tokens) - i


@rule("qualified-place")
def qualified_place(r, tokens, i, rl):
    """既夕禮 二燭俟于殯門外; 少牢饋食禮 雍人摡鼎匕俎于雍爨, 廩人…于廩爨: right after 于, one word
    no term names (no function word) and a place or a thing (with 上, 下 … after it) ending the
    clause are one place as written, the place of that one (殯門外: outside the door of the
    殯宮; 雍爨: the cooks' stove, 注: 雍爨在門東南), not the bare 門外 or 爨."""
    if r.prep is None or not i or tokens[i - 1].text not in rl.words["yu"]:
        return None
    word, rest = tokens[i], tokens[i + 1 :]
    if word.kinds or is_function_word(word.text) or not rest:
        return None
    if not rest[0].kinds.keys() & {"place", "object"} or rest[0].kinds.keys() & {"role", "action"}:
        return None
    if rest[0].text in word_class("place-suffix"):  # 于次中: the place 次 and 中 (unnamed-place)
        return None
    if any(t.kinds or t.text not in word_class("place-suffix") for t in rest[1:]):
        return None
    r.place_here(r.known_place("".join(t.text for t in tokens[i:])))
    return len(tokens) - i


@rule("written-relative-place")
def written_relative_place(r, tokens, i, rl):
    """少牢饋食禮 肵俎在羊俎之北, 設于薦豆之北, 三鼎在羊鑊之西; 有司徹 司馬在羊鼎之東, 設于初籩之南;
    大射儀 尊士旅食于西鑮之南: right after 于 or 在, two or three words (things, places, a compass
    word, words no term names, a word that is also an act used of the thing: 薦豆) then 之 and a
    word of relative place ending the clause are one place as written, not the last thing's side
    alone (俎之北)."""
    if not i or tokens[i - 1].text not in rl.words["at"] or not r.events:
        return None
    span, rest = tokens[i:-2], tokens[-2:]
    if len(rest) < 2 or rest[0].text != rl.word("of") or rest[1].text not in word_class("relative"):
        return None
    if not int(rl.word("shortest")) <= len(span) <= int(rl.word("longest")):
        return None
    stops = (*word_values("preposition"), rl.word("of"), *word_class("negation"), *rl.words["not"])
    if any(t.of("role") or t.text in stops for t in span):
        return None  # (主人之北: a person's side, rule relative-place)
    if not span[-1].kinds.keys() & {"object", "place"} and span[-1].kinds:
        return None
    r.place_here(r.known_place("".join(t.text for t in tokens[i:])))
    return len(tokens) - i


@rule("dipped-in")
def dipped_in(r, tokens, i, rl):
    """有司徹 右取菹㨎于醢, 取肝㨎于鹽; 公食大夫禮 以辯擩于醢: 㨎 (擩, to dip, 注: 擩猶染也), which
    no class names, and the 于X after it, ending the clause, are where the thing taken is
    dipped: no event, and not where the act before took it from (取 … from=醢); so is a thing
    straight after it (士虞禮 祝取肝擩鹽: no theme 鹽 on 取, nor on the 嚌之 after)."""
    if tokens[i].text not in rl.words["dip"] or tokens[i].kinds:
        return None
    rest = tokens[i + 1 :]
    if not rest or any("action" in t.kinds or "role" in t.kinds for t in rest):
        return None
    if rest[0].text not in rl.words["yu"] and not _dipped_straight(rest):
        return None
    return len(tokens) - i


def _dipped_straight(rest) -> bool:
    """士虞禮 祝取肝擩鹽, 取脯擩醢: 擩 with the thing dipped in written straight after it (no 于),
    a thing ending the clause."""
    return len(rest) == 1 and "object" in rest[0].kinds


@rule("offering-place")
def offering_place(r, tokens, i, rl):
    """有司徹 兼祭于豆祭, 同祭于豆祭; 少牢饋食禮 同祭于豆祭: right after 于, a thing and 祭 ending
    the clause are a place, where that thing was offered (豆祭: the 豆's offering, 祭于豆間), as
    written: one offering there, not a second 祭."""
    if r.prep is None or not i or tokens[i - 1].text not in rl.words["yu"]:
        return None
    if i + 2 != len(tokens) or "object" not in tokens[i].kinds:
        return None
    if tokens[i + 1].of("action") != rl.word("offer") or tokens[i + 1].text != rl.word("offer"):
        return None
    r.place_here(r.known_place(tokens[i].text + tokens[i + 1].text))
    return 2


@rule("side-of-thing")
def side_of_thing(r, tokens, i, rl):
    """公食大夫禮 大夫長盥洗東南: a thing that is also a place and an act (洗, the basin and
    washing), right before a compass word that ends the clause, is a side of that place (洗東南,
    where they stand), even after 盥 (盥洗 elsewhere: two acts), not a second act."""
    token = tokens[i]
    if not (token.of("action") and token.of("place")) or i + 2 != len(tokens):
        return None
    if not all(ch in word_class("compass") for ch in tokens[i + 1].text):
        return None
    r.place_here(r.known_place(token.text + tokens[i + 1].text))
    return 2


@rule("compass-place")
def compass_place(r, tokens, i, rl):
    """東堂, 西堂下: a compass word before a place is part of the place, as written (the
    known place when the ontology names it)."""
    token, nxt = tokens[i], _next(tokens, i)
    if not (token.of("direction") and token.text in word_class("compass")):
        return None
    if nxt is None or "place" not in nxt.kinds:
        return None
    if "object" in nxt.kinds and not r.events and r.prep is None:
        return None  # 東篚在洗西: the eastern basket, the topic, not a place
    text, j = token.text + nxt.text, i + 2
    while j < len(tokens) and tokens[j].text in rl.words["then"]:
        text, j = text + tokens[j].text, j + 1
    r.place_here(r.known_place(text))
    return j - i


@rule("facing")
def facing(r, tokens, i, rl):
    if tokens[i].of("direction") and _has(_next(tokens, i), rl.words["face"]):
        r.set_face(tokens[i].of("direction"))
        if r.events and i + 2 == len(tokens) and "face" not in r.events[-1].fields:
            r.events[-1].set("face", r.face)  # 反位于階西東面: ending the clause, the act's
        return 2
    return None


@rule("upper")
def upper(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].of("direction") and _has(nxt, rl.words["upper"]) and "place" not in nxt.kinds:
        if r.events:
            r.events[-1].set("upper", tokens[i].of("direction"))
        else:
            r.upper = tokens[i].of("direction")
        return 2
    return None


@rule("answer-count")
def answer_count(r, tokens, i, rl):
    nxt, third = _next(tokens, i), _next(tokens, i, 2)
    numerals = word_values("numeral")
    if (
        tokens[i].text == rl.word("answer")
        and nxt is not None
        and nxt.text in numerals
        and third is not None
        and third.of("action") == rl.word("bow")
    ):
        r.count = int(numerals[nxt.text])
        r.verb(rl.word("act"), tokens, i)
        return 3
    return None


@rule("cover-on")
def cover_on(r, tokens, i, rl):
    """執冪者蓋冪, 執冪者反冪: covering the vessels with the cloth, or putting it back over them,
    is 加 (put on), the cloth its theme; not 反位 to a place."""
    return _act_on_thing(r, tokens, i, rl.words["cover"], rl.words["thing"], rl.word("act"))


@rule("laid-across")
def laid_across(r, tokens, i, rl):
    """有餘純，則橫于下 / 奇則又縮諸純下: 橫 (crosswise) or 縮 (lengthwise) before 于 or 諸 (之於)
    is laying the thing in hand that way there (委), as 十純則縮而委之 says in full; not in the
    記, whose 橫于上 describes how a thing lies."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text not in rl.words["lay"] or nxt is None:
        return None
    if r.ctx.sentence.startswith(rl.word("part")):
        return None
    if nxt.text not in rl.words["yu"] and nxt.text not in rl.words["zhu"]:
        return None
    r.verb(rl.word("act"), tokens, i)
    if nxt.text in rl.words["zhu"]:
        r.pronoun()  # 縮諸純下 (諸 = 之於): the tallies in hand
    r.prep = word_values("preposition")[rl.word("yu")]
    rest = tokens[i + 2 :]  # 下, 純下: the side of the pile as written (注: 自近為下)
    if rest and not any(t.kinds for t in rest) and rest[-1].text in word_class("relative"):
        r.place_here("".join(t.text for t in rest))
        return 2 + len(rest)
    return 2


@rule("arrive")
def arrive(r, tokens, i, rl):
    """至于階, 至乏: 至 before 于 or a place is reaching it (及), an act, as 及階 is; not 賓至
    (the time the guest comes) nor 至再拜 (the bow at his coming)."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("reach") or token.kinds or nxt is None:
        return None
    if nxt.text not in rl.words["yu"] and not nxt.kinds.keys() & PLACES:
        return None
    r.verb(rl.word("act"), tokens, i)
    if nxt.text in rl.words["yu"]:
        r.prep = word_values("preposition")[nxt.text]
        return 2
    return 1


@rule("return-to")
def return_to(r, tokens, i, rl):
    token, nxt = tokens[i], _next(tokens, i)
    if token.text not in rl.words["back"] or token.kinds or nxt is None:
        return None
    yu = nxt.text in rl.words["yu"]
    if not (nxt.kinds.keys() & {"place", "object"} or (yu and i + 2 < len(tokens))):
        return None
    if nxt.of("object") in rl.words["mat"] and "place" not in nxt.kinds:
        r.verb(rl.word("to-mat"), tokens, i)  # 復席, 復筵: back to one's mat is 就席
        return 2
    r.verb(rl.word("act"), tokens, i)
    r.prep = "to"
    return 2 if yu else 1


@rule("goes-back")
def goes_back(r, tokens, i, rl):
    """司射反, 反由司射之南: 反 ending its clause, or before the way taken (由X), is going back,
    an act of moving (行), not the return to a place (反位) nor 'back' before another act
    (反升, 反委之)."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("back") or token.kinds:
        return None
    if nxt is not None and nxt.text not in rl.words["via"]:
        return None
    r.verb(rl.word("act"), tokens, i)
    return 1


@rule("down-to-bow")
def down_to_bow(r, tokens, i, rl):
    """下拜: 降 (go down the steps), then the bow the next token names."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("down") or token.kinds or nxt is None or "action" not in nxt.kinds:
        return None
    if not r.is_a(nxt.of("action"), *rl.words["bow"]):
        return None
    r.verb(rl.word("act"), tokens, i)
    return 1


@rule("goes-down")
def goes_down(r, tokens, i, rl):
    """升酌膳，下 / 受爵以下: 下 alone as a clause, or after 以 ending it, is going down (降),
    with what 以 names before it carried down; so is 下 ending a clause right after withdrawing
    (士相見禮 退下, 注: 下亦降也); not 于下, below (a place)."""
    if tokens[i].text != rl.word("down") or tokens[i].kinds or _next(tokens, i) is not None:
        return None
    if (
        i
        and tokens[i - 1].text != rl.word("with")
        and tokens[i - 1].of("action") not in rl.words["moves"]
    ):
        return None  # 拜于下, 遷樂于下: below, the place (士相見禮 退下: withdraws and goes down)
    r.verb(rl.word("act"), tokens, i)
    return 1


@rule("down-by")
def down_by(r, tokens, i, rl):
    """大射儀 卒畫，自北階下 / 司宮埽所畫物，自北階下: 自 and the stairs with 下 ending the last
    clause of a sentence, no act before it in the clause, is going down by those stairs (降
    from=北階), as 下 alone is (rule goes-down; 士相見禮 注: 下亦降也); not the foot of the
    stairs where one stands before an act that follows (燕禮 射人自阼階下，請立司正)."""
    down = rl.word("down")
    if tokens[i].text != rl.word("from") or r.events or not r.ctx.ends_sentence:
        return None
    rest = tokens[i + 1 :]
    text = "".join(t.text for t in rest)
    if not rest or not all(t.of("place") or t.of("direction") for t in rest):
        return None
    if not text.endswith(rl.word("stairs") + down):
        return None
    if r.ctx.pending and r.ctx.pending_sentence != r.ctx.sentence:
        r.ctx.pending = None  # 射正莅之。卒畫，自北階下: those who drew go down, carried
    r.verb(rl.word("act"), tokens, i)
    if r.events:
        r.events[-1].set("from", (r.known_place(text[: -len(down)]),))
    return len(tokens) - i


@rule("music-plays")
def music_plays(r, tokens, i, rl):
    if tokens[i].text != rl.word("rise") or i == 0:
        return None
    if "title" in tokens[i - 1].kinds or tokens[i - 1].text in rl.words["music"]:
        event = r.new_event(rl.word("act"))
        event.fields["noagent"] = ("unstated",)
        r.played = True
        return 1
    return None


@rule("numeral-companion")
def numeral_companion(r, tokens, i, rl):
    token, nxt = tokens[i], _next(tokens, i)
    if token.text in word_values("numeral") and nxt and nxt.of("role") and not token.kinds:
        if r.subjects:
            r.with_.append(nxt.of("role"))
            return 2
    return None


@rule("cover-named")
def cover_named(r, tokens, i, rl):
    """少牢饋食禮 乃啓二尊之蓋冪; 公食大夫禮 記 簠有蓋冪: 蓋冪 after 之 (the cover of the vessels
    named) or 有 (a vessel that has a cover) is the cover, a thing, not putting it on (rule
    cover-on): after 之, the theme of the act before; after 有, no act."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["cover"] or tokens[i].kinds or not i or nxt is None:
        return None
    thing = nxt.of("object")
    if thing not in rl.words["thing"] or tokens[i - 1].text not in rl.words["after"]:
        return None
    if tokens[i - 1].text == rl.word("of") and r.events:
        event = r.events[-1]
        kept = tuple(t for t in event.fields.get("theme", ()) if t != tokens[i - 2].of("object"))
        event.set("theme", (*kept, thing))  # 二尊之蓋冪: the cover, not the vessels
    return 2


@rule("change-cup")
def change_cup(r, tokens, i, rl):
    """則降更觶洗: 更 and a cup is taking another cup (更爵), that cup its theme (注: 言更觶，
    卿尊也)."""
    return _act_on_thing(r, tokens, i, rl.words["change"], rl.words["cups"], rl.word("act"))


def _act_on_thing(r, tokens: Tokens, i: int, words, things, act: str):
    """A word that is no term (蓋, 反, 更) just before a thing of the rule's class is the rule's
    act on that thing, its theme (rules cover-on, change-cup)."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text not in words or token.kinds or nxt is None:
        return None
    if nxt.of("object") not in things:
        return None
    r.verb(act, tokens, i)
    r.events[-1].set("theme", nxt.of("object"))
    return 2


@rule("set-down-cup")
def set_down_cup(r, tokens, i, rl):
    """公又舉奠觶, 取奠觶飲: 奠 between an act of taking and a cup is the cup set down before
    (the 觶 the 媵爵者 set south of the 公's dishes), what is taken, not a setting down."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.of("action") != rl.word("set") or nxt is None or i == 0 or not r.events:
        return None
    if (
        tokens[i - 1].of("action") not in rl.words["takes"]
        or nxt.of("object") not in rl.words["cups"]
    ):
        return None
    r.events[-1].set("theme", nxt.of("object"))
    return 2


@rule("arrows-counted")
def arrows_counted(r, tokens, i, rl):
    """搢三挾一個: a numeral just after 搢 is how many arrows are stuck in the belt (the arrows
    implied), not how many times the next act is done."""
    if tokens[i].text not in word_values("numeral") or tokens[i].kinds or not r.events:
        return None
    if i == 0 or tokens[i - 1].of("action") not in rl.words["acts"]:
        return None
    if "theme" not in r.events[-1].fields:
        r.events[-1].set("theme", rl.word("thing"), "?")
    return 1


@rule("thing-counted")
def thing_counted(r, tokens, i, rl):
    """辭一席, 納一尊: a numeral between an act just read and a word that is also a thing counts
    that thing, the act's object (one mat, one vessel), not how many times a second act is done
    (席 laying a mat, 尊 setting out the wine): the word is read as the thing."""
    nxt = _next(tokens, i)
    if not (tokens[i].text in word_values("numeral") and not tokens[i].kinds and nxt):
        return None
    if not (r.events and i > 0 and "action" in tokens[i - 1].kinds):
        return None
    thing = nxt.of("object")
    if not thing or "action" not in nxt.kinds:
        return None
    tokens[i + 1] = Token(nxt.text, {"object": thing})
    return 1


@rule("count")
def count(r, tokens, i, rl):
    token, nxt = tokens[i], _next(tokens, i)
    numerals = word_values("numeral")
    if token.text in numerals and nxt and "action" in nxt.kinds and not token.kinds:
        r.count = int(numerals[token.text])
        return 1
    return None


@rule("act-as-thing")
def act_as_thing(r, tokens, i, rl):
    """有司徹 宰夫羞房中之羞于尸侑主人主婦: after an act, a word and 之 before the same act's word
    are what it handles, the X's dishes (注: 房中之羞，內羞也), one act, not a second one; the
    word before 之 says whose they are, no place of the act."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("of") or tokens[i].kinds or not r.events or nxt is None:
        return None
    last = r.events[-1]
    if nxt.of("action") != last.kind or i < 2 or tokens[i - 2].of("action") != last.kind:
        return None
    whose = tokens[i - 1].of("place")
    if whose and whose in last.fields.get("at", ()):
        last.fields.pop("at")
    return 2


@rule("one-more")
def one_more(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["and"] and r.events and i > 0 and nxt is not None:
        if tokens[i - 1].kinds.keys() & nxt.kinds.keys() & {"role", "object"}:
            return 1
    return None


@rule("laid-on")
def laid_on(r, tokens, i, rl):
    """覲禮 四享皆束帛加璧; 聘禮 享玄纁束帛加琮: 加 between two things, after an act of giving or
    holding a gift that takes the first, is one gift, the second laid on the first (注: 皆以璧帛
    致之): both the act's things, no act of laying."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("on") or not r.events or i == 0 or nxt is None:
        return None
    if r.events[-1].kind not in rl.words["gives"]:
        return None  # 蓋冪，加勺: the ladle laid on after the cover, an act
    if not (tokens[i - 1].of("object") and nxt.of("object")) or nxt.of("role"):
        return None
    return 1


def _bare_preposition(tokens, i) -> bool:
    return tokens[i].text in word_values("preposition") and not tokens[i].kinds


@rule("owners-officers")
def owners_officers(r, tokens, i, rl):
    """大射儀 宰夫有司薦 (注: 宰夫有司，宰夫之吏也); 特牲饋食禮 記 公有司門西: a person right
    before 有司 with nothing between is whose officers they are: the 有司 are the subject, not
    he with them; so is one right before 贊者, whose helper he is (有司徹 司士贊者亦合執二俎以從;
    宰夫贊者取白黑以授尸; 少牢饋食禮 有司贊者取爵于篚以升)."""
    nxt = _next(tokens, i)
    if r.events or not tokens[i].of("role") or nxt is None or nxt.text not in rl.words["officers"]:
        return None
    if i and tokens[i - 1].of("role"):
        return None
    r.subjects.append(nxt.of("role"))
    return 2


@rule("eldest-receives")
def eldest_receives(r, tokens, i, rl):
    """鄉射禮 若無大夫，則長受酬 / 大夫之觶長受: 長 alone right before receiving (受, 受酬) is the
    eldest of the 衆賓, who receives the pledge first (注: 長謂以長幼之次酬衆賓), not the one
    carried over nor the owner of the cup."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("elder") or tokens[i].kinds or r.events or nxt is None:
        return None
    eldest = _eldest_of_named(r, tokens, i, rl)
    if eldest:
        r.subjects[:] = [eldest]  # 兄弟之長升: the 長兄弟
        return 1
    if nxt.of("action") != rl.word("receive"):
        eldest = _eldest_of_last(r, tokens, i, rl)
        if not eldest:
            return None
        r.subjects[:] = [eldest]
        return 1
    r.subjects[:] = [rl.word("eldest")]
    return 1


def _eldest_of_named(r, tokens: Tokens, i: int, rl: Rule) -> str:
    """有司徹 兄弟之長升: a group just named as the subject, 之 and 長 are the member the
    ontology names its eldest (兄弟 yl:hasMember 長兄弟), not the whole group."""
    if i < 2 or tokens[i - 1].text != rl.word("of") or r.subjects != [tokens[i - 2].of("role")]:
        return ""
    return _eldest_member(r, tokens[i - 2].of("role") or "", rl)


def _eldest_member(r, group: str, rl: Rule) -> str:
    for member in r.lex.members.get(group, ()):
        if member.startswith(rl.word("elder")) or member.endswith(rl.word("elder")):
            return member
    return ""


def _eldest_of_last(r, tokens: Tokens, i: int, rl: Rule) -> str:
    """有司徹 兄弟之後生者舉觶于其長。洗，升酌，降…長在左 … 長答拜: 長 alone opening a clause
    before an act is the eldest of the group of the last act's doer, the member the ontology
    names its eldest (yl:hasMember: 兄弟 → 長兄弟), not that doer; not 長皆 (the elders of each)."""
    if i or not tokens[i + 1].of("action") or not r.ctx.history:
        return ""
    pid, last = r.ctx.history[-1]
    if paragraph_of(pid) != r.ctx.paragraph:
        return ""
    return next((m for m in (_eldest_member(r, g, rl) for g in last.agent) if m), "")


@rule("third-offerer")
def third_offerer(r, tokens, i, rl):
    """有司徹 三獻答拜, 三獻北面答拜, 三獻西楹西北面拜受爵: 三獻 opening a clause before another
    act is the one who made the third offering, the 長賓 (賓長洗爵獻于尸), answering the one he
    gave the cup: a person, not an offering made again."""
    if i or len(tokens) < 3 or tokens[0].text != rl.word("three"):
        return None
    if tokens[1].of("action") != rl.word("offer"):
        return None
    if not any(t.of("action") in rl.words["bows"] for t in tokens[2:]):
        return None  # (特牲饋食禮 三獻作止爵: left as it was read)
    r.subjects[:] = [rl.word("offerer")]
    return 2


@rule("other-pairs")
def other_pairs(r, tokens, i, rl):
    """大射儀 上耦…反位。二耦拾取矢，亦如之: 二耦 opening a clause is the two pairs of the three
    other than the first (上耦), who always goes first (yl:hasMember of 三耦: 次耦, 下耦), not
    one 耦."""
    nxt = _next(tokens, i)
    if i or tokens[i].text != rl.word("two") or nxt is None or nxt.of("role") != rl.word("pair"):
        return None
    members = r.lex.members.get(rl.word("group"), ())
    first = rl.word("first")
    if first not in members:
        return None
    r.subjects.extend(m for m in members if m != first)
    return 2


@rule("paired-alike")
def paired_alike(r, tokens, i, rl):
    """大射儀 司射…比耦：大夫與大夫，命上射曰: a clause that is only a person with (與) the same
    person (大夫與大夫) names a pairing, the case of two of that rank paired together (against 若
    有士與大夫為耦), not two subjects of what follows: nothing of it is carried."""
    if i or len(tokens) != 3 or tokens[1].text != rl.word("with"):
        return None
    role = tokens[0].of("role")
    if not role or tokens[2].of("role") != role:
        return None
    return len(tokens)


@rule("with-subject")
def with_subject(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if _bare_preposition(tokens, i) and tokens[i].text == rl.word("with"):
        if r.subjects and not r.events and nxt and nxt.of("role"):
            r.joined = True
            r.joined_by = rl.word("with")
            return 1
        partner = _next(tokens, i, 2)
        if r.subjects and not r.events and not r.all_ and _has(nxt, rl.word("its")):
            if partner is not None and partner.of("role"):  # 大夫與其耦皆適次: his partner
                r.joined = True
                r.joined_by = rl.word("with")
                return 2
    return None


@rule("carried-off")
def carried_off(r, tokens, i, rl):
    """以降, 以出, 以適X: 以 with its object left unsaid before going away is going with the thing
    in hand: the act handles what its doer last took or was given (rule thing-in-hand)."""
    nxt = _next(tokens, i)
    if not (_bare_preposition(tokens, i) and tokens[i].text == rl.word("yi") and nxt is not None):
        return None
    if nxt.of("action") not in rl.words["acts"] or not r.verb_here(tokens, i + 1):
        return None
    r.carry = True
    return 1


@rule("told-by")
def told_by(r, tokens, i, rl):
    """以矢行告于公, 以純數告: between 以 and 告 is what is told, a noun phrase (the
    course of the arrows, the number of pairs): a word of an act in it (行, 數) is no act of
    its own, nor is the arrow of 矢行 a thing handled."""
    if not (_bare_preposition(tokens, i) and tokens[i].text == rl.word("yi")):
        return None
    ends = [j for j in range(i + 1, len(tokens)) if tokens[j].of("action") in rl.words["tell"]]
    if not ends or not any(t.of("action") for t in tokens[i + 1 : ends[0]]):
        return None
    return ends[0] - i


@rule("thereupon")
def thereupon(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if _bare_preposition(tokens, i) and tokens[i].text == rl.word("yi"):
        if nxt is not None and r.verb_here(tokens, i + 1):
            return 1
    return None


@rule("offered-too")
def offered_too(r, tokens, i, rl):
    """遂獻左右正與内小臣 (燕禮, 大射儀): 與 and a person after an offering are one more of those
    offered to (注: 獻三官於阼階), not one offering with the host."""
    if not (_bare_preposition(tokens, i) and tokens[i].text in rl.words["and"]):
        return None
    if not r.events or not r.lex.has(r.events[-1].kind, "offering"):
        return None
    k = 1
    while (nxt := _next(tokens, i, k)) is not None and not nxt.kinds and k < 3:
        k += 1  # 内小臣: a word the lexicon lacks before the person (the inner 小臣, 注: 奄人)
    if nxt is None or not nxt.of("role"):
        return None
    event = r.events[-1]
    event.set("to", (*event.fields.get("to", ()), nxt.of("role")))
    return k + 1


@rule("toward-whom")
def toward_whom(r, tokens, i, rl):
    """有司徹 主人于其羣私人，不答拜: a person, 于 and persons (其, 羣 before them), the whole of a
    clause with no act, is the one the next clause is about and those he acts toward: the
    persons after 于 are the other party of what he does next (to), not its subjects."""
    if tokens[i].text not in rl.words["yu"] or tokens[i].kinds or r.events or not r.subjects:
        return None
    k = i + 1
    while k < len(tokens) and tokens[k].text in rl.words["skip"] and not tokens[k].kinds:
        k += 1
    if k != len(tokens) - 1 or not tokens[k].of("role"):
        return None
    r.ctx.pending_to = (tokens[k].of("role"),)
    return len(tokens) - i


@rule("preposition")
def preposition(r, tokens, i, rl):
    if _bare_preposition(tokens, i):
        r.prep = word_values("preposition")[tokens[i].text]
        return 1
    return None


@rule("attendants-joined")
def attendants_joined(r, tokens, i, rl):
    """士虞禮 佐食及執事盥 / 既夕禮 祝及執事舉奠: 執事 joined by 及 or 與 to a subject, an act
    after it, is the attendants (the role 執事者, 注: 執事者，諸執奠事者), one more subject, not
    acts 及 and 執; 及執事 opening a clause joins them to the subject carried over."""
    words = [t.text for t in tokens[i + 1 : i + 3]]
    if tokens[i].text not in rl.words["and"] or "".join(words) != rl.word("attendants"):
        return None
    if not any(t.of("action") for t in tokens[i + 3 :]):
        return None
    if r.events:
        return _attendants_sent(r, tokens, i, rl)
    if not i and not r.subjects:
        r.subjects = list(_placed_just_before(r) or r.ctx.agent)  # 賓長在右，及執事舉魚腊鼎
    if not r.subjects:
        return None
    r.subjects.append(rl.word("role"))
    r.joined = True
    return 3


@rule("two-of-office")
def two_of_office(r, tokens, i, rl):
    """少牢饋食禮 二佐食各取黍于一敦 / 祝與二佐食皆出: 二 and an office held by two, an upper
    and a lower (上佐食, 下佐食), as the subject, or joined to it by 與 or 及, is the two of them,
    each by his role, not the office once."""
    joined = tokens[i].text in rl.words["and"]
    k = i + 1 if joined else i
    if k + 1 >= len(tokens) or tokens[k].text != rl.word("two") or r.events:
        return None
    office = tokens[k + 1].of("role")
    pair = tuple(side + (office or "") for side in rl.words["sides"])
    if office not in rl.words["offices"] or not all(p in r.lex.iri["role"] for p in pair):
        return None  # (二大夫, 二耦: two of many, not an upper and a lower)
    if joined != bool(r.subjects) or (r.subjects and r.joined):
        return None
    r.subjects.extend(pair)
    r.joined = False
    return k + 2 - i


@rule("and-subject")
def and_subject(r, tokens, i, rl):
    """賓及衆賓: one more subject; 賓反入，及卿大夫皆說屨: first in its clause, 及 and a person
    join him to the subject carried over (the 賓 and the 卿大夫 take off their shoes), not 及 a
    place reached; so past 衆 (no term) before the person, the rest of them (特牲饋食禮
    衆賓及衆兄弟交錯以辯 → 衆賓, 兄弟); right after a clause that only says where someone is,
    him (特牲饋食禮 主人在右，及佐食舉牲鼎 → 主人, 佐食, not the 賓 who went out with him)."""
    nxt, skip = _next(tokens, i), 0
    if nxt is not None and nxt.text in rl.words["many"] and i and _next(tokens, i, 2) is not None:
        nxt, skip = _next(tokens, i, 2), 1  # 衆賓及衆兄弟: the rest of them (no term)
    if tokens[i].text in rl.words["and"] and not tokens[i].kinds.get("role"):
        acted = any(not t.of("role") for t in tokens[2:])  # not 及佐食 alone: one offered to
        if not i and acted and not r.ctx.pending and r.ctx.agent and nxt and nxt.of("role"):
            r.subjects = list(_placed_just_before(r) or r.ctx.agent)
        if r.subjects and not r.events and nxt and nxt.of("role"):
            r.joined = True
            return 1 + skip
    return None


@rule("standing")
def standing(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["manner"] and nxt and r.verb_here(tokens, i + 1):
        if "action" in nxt.kinds:
            r.manner = tokens[i].text
            return 1
    return None


@rule("slightly")
def slightly(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["manner"] and nxt and "action" in nxt.kinds:
        r.manner = tokens[i].text
        return 1
    return None


@rule("a-little-aside")
def a_little_aside(r, tokens, i, rl):
    """獻釋獲者于其位，少南: 少 and a compass word, the whole clause, is a place as written, a
    little that way from where one was (注: 少南，辟中)."""
    nxt = _next(tokens, i)
    if i or len(tokens) != 2 or tokens[0].text not in rl.words["manner"] or nxt is None:
        return None
    if nxt.text not in word_class("compass"):
        return None
    r.place_here(tokens[0].text + nxt.text)
    return 2


@rule("there-is")
def there_is(r, tokens, i, rl):
    """飲辯有脯醢, 皆有祭: 有X says X is there (each has 脯醢; the stand has its offering portion,
    注: 祭，祭肺也): X is no theme of the act before it, and 祭 after 有 is the portion, no act."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["there"] or tokens[i].kinds or nxt is None:
        return None
    if nxt.of("object") or nxt.of("action") in rl.words["portion"]:
        return 2
    return None


@rule("steps-aside")
def steps_aside(r, tokens, i, rl):
    """升堂少右, 少左: 少 and a side, ending a clause that names no one, is stepping a little
    aside (辟 manner=少; 注: 少右，辟飲者), the act of the one carried over; with a subject
    (下射少右，從之) it says where he keeps, a description."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("manner") or not _has(nxt, rl.words["sides"]):
        return None
    if i + 2 != len(tokens) or r.subjects:
        return None
    event = r.new_event(rl.word("act"))
    event.set("manner", tokens[i].text)
    event.set("dest", nxt.text)
    return 2


@rule("zhe")
def zhe(r, tokens, i, rl):
    """衆賓之長升拜受者三人: 者 after an act closes what the clause says of its agent; ending a
    clause that names its persons, in a sentence that goes on (覲禮 儐使者，諸公賜服者，束帛四馬),
    it says who they are, those of them who did it (the envoys, 諸公 who brought the robes): no
    act told."""
    if tokens[i].text in rl.words["zhe"]:
        if r.events:
            r.stop = True
            ending = i + 1 == len(tokens) and r.subjects and not r.ctx.ends_sentence
            if ending and r.ctx.history and sentence_of(r.ctx.history[-1][0]) == r.ctx.sentence:
                r.events.clear()
                r.subjects.clear()  # nor persons left for the next act (儐大史亦如之: the 侯氏)
        return 1
    return None


@rule("chosen-by")
def chosen_by(r, tokens, i, rl):
    """唯公所酬 / 唯公所賜 (a whole clause): the 公 pledges or gives the cup to whichever he
    chooses: the act, done to the alternatives the sentence names (若賓，若長: 注 長，公卿之尊者,
    the 卿), or else to the one pledged; and the one chosen is the subject of what follows
    (以旅于西階上)."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("suo") or nxt is None or i + 2 != len(tokens):
        return None
    if any(t.text in rl.words["generic"] for t in tokens[:i]):
        return None  # 記 凡公所酬: whoever the 公 pledges, a rule's topic, not an act
    kind = nxt.of("action")
    if kind not in rl.words["acts"] or not r.subjects or r.events:
        return None
    r.verb(nxt.kinds["action"], tokens, i + 1)
    if not r.events:
        return None
    alternatives = _alternatives(r, rl)
    if alternatives:
        r.events[-1].fields.pop("cond", None)  # 若賓，若長: whom he may choose, not a condition
        r.ctx.alternatives = alternatives
    elif rl.word("again") in r.ctx.sentence_text:
        alternatives = r.ctx.alternatives  # 唯公所賜，以旅于西階上，如初: those of the first time
    chosen = alternatives or rl.words["else"]
    r.events[-1].set("to", chosen, "?")
    r.events[-1].fields["_chosen"] = chosen  # the discourse pass carries them on
    return 2


def _alternatives(r: ClauseReader, rl: Rule) -> tuple[str, ...]:
    """若賓，若長，唯公所酬 (or 唯公所賜，若賓，若長): the roles each 若 of the sentence names."""
    text = r.ctx.clause_text  # this clause's (the last read)
    rest = r.ctx.sentence_text.replace(text, "", 1) if text else ""
    either = rl.word("either")
    if either not in rest and r.ctx.next_sentence_text.startswith(either):
        rest = r.ctx.next_sentence_text  # 唯公所賜。若賓，若長，以旅于西階上
    found: list[str] = []
    for part in rest.split(either)[1:]:  # the words after each 若
        elder = next((e for e in rl.words["elder"] if part.startswith(e)), None)
        if elder:
            found.append(rl.word("elder-is"))
            continue
        role = next((t.of("role") for t in tokenize(part, r.lex)[:1]), None)
        if role:
            found.append(role)
    return tuple(dict.fromkeys(found))


@rule("suo")
def suo(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["suo"] and nxt is not None and "action" in nxt.kinds:
        r.neg = False  # 無所辱: 'nothing that demeans', not a denied act
        after = _next(tokens, i, 2)
        if r.prep in rl.words["after"] and after is not None and after.kinds.keys() & PLACES:
            _, used = r.noun_phrase(tokens, i + 2)  # 立于所設中之西南: the place as written
            r.place_here("".join(t.text for t in tokens[i : i + 2 + used]))
            return 2 + used
        r.relative = i + 2 == len(tokens)  # 司射所作, ending the clause: those he calls
        return 2
    return None


@rule("served-pronoun")
def served_pronoun(r, tokens, i, rl):
    """遂薦之, 則薦諸其席: 之 (or 諸, 之於) just after a dish set out (薦) is the person served,
    whom rules served-persons and served-one name, not the thing last handled; after 諸 the
    place that follows is where the dish goes."""
    token = tokens[i]
    if token.text not in rl.words["it"] or not r.events or i == 0:
        return None
    if r.events[-1].kind not in rl.words["acts"] or tokens[i - 1].of("action") != r.events[-1].kind:
        return None
    if token.text in rl.words["zhu"]:
        r.prep = word_values("preposition")[rl.word("yu")]
    return 1


@rule("outside-of-place")
def outside_of_place(r, tokens, i, rl):
    """帷門之外, 東門之外: 之 between a place and its outside or inside (外, 內) joins them, no
    pronoun (no one met at the gate, no thing bowed with); the place is read as before."""
    nxt = _next(tokens, i)
    if (
        tokens[i].text in rl.words["of"]
        and i
        and tokens[i - 1].of("place")
        and _has(nxt, rl.words["side"])
    ):
        return 2
    return None


@rule("pronoun")
def pronoun(r, tokens, i, rl):
    if tokens[i].text in rl.words["it"] and r.events:
        r.pronoun()
        return 1
    return None


@rule("zhu-pronoun")
def zhu_pronoun(r, tokens, i, rl):
    token, nxt = tokens[i], _next(tokens, i)
    if token.text in rl.words["zhu"] and not token.kinds and r.events:
        if r.lex.has(r.events[-1].kind, "offering"):
            r.pronoun()
            return 1
        if nxt is not None and nxt.kinds.keys() & {"place", "object"} and tokens[i - 1].kinds:
            r.pronoun()  # 兼諸弣 (諸 = 之於): the arrows, held against the grip
            r.prep = word_values("preposition")[rl.word("yu")]
            return 1
    return None


@rule("for-him")
def for_him(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["for"] and _has(nxt, rl.words["it"]) and r.ctx.topic_role:
        r.for_whom = r.ctx.topic_role
        return 2
    return None


@rule("owners-thing")
def owners_thing(r, tokens, i, rl):
    """設公席, 設大夫席: after a verb, a role before a word that is a thing as well as an act is
    whose the thing is: the thing is the act's theme and the role the one it is for (to), not a
    席 (laying a mat) done by the 公."""
    nxt = _next(tokens, i)
    role = tokens[i].of("role")
    if not role and i and r.events and "action" in tokens[i - 1].kinds:
        return _owners_place(r, tokens[i])
    if not (role and i and r.events and nxt is not None and "action" in tokens[i - 1].kinds):
        return None
    thing = nxt.of("object")
    if not thing or "action" not in nxt.kinds or "theme" in r.events[-1].fields:
        return None
    if r.events[-1].kind in r.lex.frames["command"]:
        return None  # 王使人皮弁用璧勞: the one sent, and what he does (服 the 皮弁)
    r.events[-1].set("theme", thing)
    r.events[-1].set("to", role)
    return 2


def _owners_place(r: ClauseReader, token) -> int | None:
    """設賓席: a place that is a role and such a thing (賓席, the guest's mat) written right
    after the act is the thing, for the role."""
    if not token.of("place") or "theme" in r.events[-1].fields:
        return None
    forms = r.lex.forms
    for k in range(1, len(token.text)):
        role, thing = forms["role"].get(token.text[:k]), token.text[k:]
        if role and forms["object"].get(thing) and thing in forms["action"]:
            r.events[-1].set("theme", forms["object"][thing])
            r.events[-1].set("to", role)
            return 1
    return None


@rule("asked-for")
def asked_for(r, tokens, i, rl):
    """小臣請媵爵者, 請執冪者與羞膳者: after a request, a role named for what it does (X者) is
    the men asked for, not the one asked (the 公, who answers: rule request-answered). In a rite
    with a ruler, a role ending the request of one of his subjects (擯者請賓: whom to make 賓) is
    what is asked about: the request goes to the 公 (rule to-the-ruler), who answers."""
    role = tokens[i].of("role")
    if not (role and r.events and r.events[-1].kind in rl.words["acts"]):
        return None
    if "to" in r.events[-1].fields:
        return None
    if not _asked(tokens[i], rl):
        return 1 if _asked_of_ruler(r, tokens, i, rl) else None
    j = i + 1
    while _has(_next(tokens, j - 1), rl.words["and"]) and _asked(_next(tokens, j), rl):
        j += 2  # 執冪者與羞膳者
    asked = tuple(t.of("role") for t in tokens[i:j:2])
    r.ctx.asked = (r.events[-1], asked)  # they act next (discourse rule asked-ones-act)
    return j - i


def _asked_of_ruler(r, tokens, i, rl: Rule) -> bool:
    """擯者請賓, 射人請賓: a role right after a subject's request, ending the clause, in a rite
    whose ruler has acted or been addressed."""
    rulers = set(rl.words["rulers"])
    if _next(tokens, i) is not None or "action" not in tokens[i - 1].kinds:
        return False
    if tokens[i].of("role") in rulers or rulers & set(r.events[-1].agent):
        return False
    return bool(rulers & r.ctx.parties)


def _asked(token, rl: Rule) -> bool:
    return token is not None and bool(token.of("role")) and token.text.endswith(rl.word("doer"))


@rule("whose-thing")
def whose_thing(r, tokens, i, rl):
    """徹公俎, 受公爵, 取大夫所媵觶: after an act that takes a thing, not a person, a role just
    before the thing (or before 所V and the thing) is whose it is or who presented it: the thing
    is the theme, the role no party of the act."""
    role = tokens[i].of("role")
    if not (role and i and r.events and "action" in tokens[i - 1].kinds):
        return None
    if r.events[-1].kind not in rl.words["acts"] or "theme" in r.events[-1].fields:
        return None
    j = i + 1
    if _has(_next(tokens, i), rl.words["suo"]) and "action" in getattr(
        _next(tokens, i, 2), "kinds", {}
    ):
        j = i + 3  # 大夫所媵觶: the cup the 大夫 presented
    thing = tokens[j].of("object") if j < len(tokens) else None
    if not thing or "role" in tokens[j].kinds:
        return None
    r.events[-1].set("theme", thing)
    return j + 1 - i


@rule("whose-portion")
def whose_portion(r, tokens, i, rl):
    """舉尸牢幹, 舉尸一魚, 受尸牢肺正脊: after an act that lifts or receives a portion, a role
    followed by a word that tells which portion (牢, 腊, a numeral: no person, act or place) is
    whose the portion is, not the one it is lifted to: the role is passed over, and what
    follows is read as the thing."""
    nxt = _next(tokens, i)
    if not (tokens[i].of("role") and i and r.events and "action" in tokens[i - 1].kinds):
        return None
    if r.events[-1].kind not in rl.words["acts"] or nxt is None or r.prep is not None:
        return None
    if nxt.kinds.keys() & {"role", "action", "place"}:
        return None
    if is_function_word(nxt.text) and nxt.text not in word_class("numeral"):
        return None
    return 1


@rule("portion-name")
def portion_name(r, tokens, i, rl):
    """舉肺一, 祭肺三, 嚌肺一, 橫脊一: in a list of the portions of a stand or a 鼎 (each thing
    followed by how many), an act word right before the thing and its count names the portion
    (the lung to raise, to offer, to taste; the crosswise spine), no act: the word is passed
    over and the thing read as one of the list."""
    if tokens[i].text not in rl.words["names"] or "action" not in tokens[i].kinds:
        return None
    j = i + 1
    while j < len(tokens) and not tokens[j].kinds and tokens[j].text in rl.words["animals"]:
        j += 1  # 嚌羊肺一: the sheep's lung
    k = j
    while k < len(tokens) and set(tokens[k].kinds) == {"object"}:
        k += 1
    if k == j or k >= len(tokens) or tokens[k].text not in word_class("numeral"):
        return None
    return 1 if all(_list_item(t, rl.words["names"]) for t in tokens[:i]) else None


def _list_item(token, names) -> bool:
    """A word of a list of portions: a thing, a count, a word no term names (臑折: cut), not a
    person, an act (but a portion's name before) or a function word (以柶祭醴三: offered three
    times, with the spoon)."""
    if token.text in word_class("numeral") or token.text in names:
        return True
    return not is_function_word(token.text) and not token.kinds.keys() & {"role", "action"}


@rule("brought-to-person")
def brought_to_person(r, tokens, i, rl):
    """司士進一敦黍于上佐食, 進一鉶于上餕, 進二豆湇于兩下: after an act of going to or bringing
    (yl:goalObject, a person after it its recipient: 進), a thing before 于 and a person (or
    words no term names) ending the clause is what is brought to him, the theme, not where he
    goes."""
    thing = tokens[i].of("object")
    if not (thing and r.events and r.prep is None and "place" not in tokens[i].kinds):
        return None
    kind = r.events[-1].kind
    if not (r.lex.has(kind, "goalObject") and r.lex.has(kind, "roleIsRecipient")):
        return None
    rest = tokens[i + 1 :]
    at = next((k for k, t in enumerate(rest) if t.text in rl.words["yu"]), None)
    if at is None or at + 1 >= len(rest):
        return None
    if any(t.kinds.keys() - {"object"} for t in rest[:at]):
        return None  # (only the things brought before 于)
    after = rest[at + 1 :]
    if not (after[0].of("role") or all(not t.kinds for t in after)):
        return None
    r.events[-1].set("theme", (*r.events[-1].fields.get("theme", ()), thing))
    return 1


@rule("eats")
def eats(r, tokens, i, rl):
    """尸又食, 又食, 食胾, 食舉, 乃皆食, 然後食: 食 where the clause's act stands (after only its
    subjects and adverbs, before the food or nothing) is eating, the act 飯 (注: 或言食，或言
    飯，食大名，小數曰飯); 舉 after it is the portion eaten, no act. Not a meal named after an
    act or 之 (揖食, 賜之食, 俟君之食), nor 食 in a longer name (將食者, 饋食之禮)."""
    if tokens[i].text != rl.word("eat") or tokens[i].kinds or r.events:
        return None
    lead = "".join(t.text for t in tokens[:i] if not t.of("role"))
    words = [t.text for t in tokens[:i] if not t.of("role")]
    if not (lead in rl.words["lead"] or all(w in word_class("adverb") for w in words)):
        return None
    rest = tokens[i + 1 :]
    if len(rest) > 1 or (rest and rest[0].text in word_values("preposition")):
        return None
    if rest and is_function_word(rest[0].text) and rest[0].text not in rl.words["portion"]:
        return None
    r.verb(rl.word("act"), tokens, i)
    return 2 if rest and rest[0].text in rl.words["portion"] else 1


@rule("portion-handed")
def portion_handed(r, tokens, i, rl):
    """少牢饋食禮 上佐食以綏祭, 上佐食綏祭; 有司徹 上佐食綏祭: 綏祭 (綏 read as 堕, the portion
    taken for the offering: 注 綏…讀為堕) done by the 佐食, who offers nothing himself, is his
    handing the portion to the one at the cup, who offers it (右受佐食，坐祭之; 受祭，祭之): 授,
    to the last who received the cup with a bow, implied. The portion is a thing no term
    names: what is handed and received after it is that (rule unnamed-taken), not the cup.
    After 授 (特牲饋食禮 佐食授挼祭) it is the thing handed, no second act."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["portion"] or tokens[i].kinds:
        return None
    if nxt is None or nxt.of("action") != rl.word("offer") or _next(tokens, i, 2) is not None:
        return None
    if r.events:  # 特牲饋食禮 佐食授挼祭: after 授, the thing handed, one 授
        return 2 if r.events[-1].kind == rl.word("act") else None
    if not r.subjects or not set(r.subjects) <= set(rl.words["givers"]):
        return None
    event = r.new_event(rl.word("act"))
    holder = next(
        (
            e.agent
            for _, e in reversed(r.ctx.history[-int(rl.word("within")) :])
            if e.kind in rl.words["received"] and e.agent and not set(e.agent) & set(r.subjects)
        ),
        (),
    )
    if holder:
        event.set("to", holder, "?")
    r.ctx.unnamed_at = len(r.ctx.history)  # the portion, a thing no term names, in hand now
    return 2


@rule("ever-done")
def ever_done(r, tokens, i, rl):
    """聘禮 下大夫嘗使至者: 嘗 right before another act is 'once, ever' (the 大夫 who was once sent
    there), no tasting: the word is passed over."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["once"] or nxt is None or "action" not in nxt.kinds:
        return None
    return 1


@rule("portion-handled")
def portion_handled(r, tokens, i, rl):
    """少牢饋食禮 餕者皆祭黍祭舉, 餕者奠舉于俎, 取舉; 特牲饋食禮 佐食授舉: 舉 right after an
    act that handles or offers a thing is the portion raised (注: 舉，舉膚), a thing no term
    names, no act of raising: the word is passed over; so is 祭 after taking, receiving, holding
    or sweeping (有司徹 賓坐取祭以降, 司宮埽祭; 少牢饋食禮 受祭; 特牲饋食禮 執祭以降: the portions
    for the offering). What is handled after it is that portion, not the cup (rule
    unnamed-taken)."""
    if tokens[i].text not in rl.words["portion"] or not i or not r.events:
        return None
    if tokens[i - 1].of("action") != r.events[-1].kind or r.events[-1].kind not in rl.words["acts"]:
        return None
    r.ctx.unnamed_at = len(r.ctx.history) + len(r.events)  # (in hand now: not the cup)
    return 1


@rule("whose-unnamed")
def whose_unnamed(r, tokens, i, rl):
    """說婦之纓, 媵餕主人之餘, 則俟君之食: a person and 之 right after an act, before a word no
    term names (nor a function word), is whose that thing is, not the act's recipient: the three
    words are passed over."""
    token, nxt, head = tokens[i], _next(tokens, i), _next(tokens, i, 2)
    act = tokens[i - 1].of("action") if i else None
    if not (token.of("role") and r.events and r.prep is None and act):
        return None
    if r.lex.has(act, "takesRole"):  # 為庶子之長殤: for whom one mourns, another reading
        return None
    if not _has(nxt, rl.words["of"]) or head is None or head.kinds or is_function_word(head.text):
        return None
    return 3


@rule("possessive")
def possessive(r, tokens, i, rl):
    token, nxt, head = tokens[i], _next(tokens, i), _next(tokens, i, 2)
    if (
        token.kinds.keys() & {"role", "object"}
        and _has(nxt, rl.words["of"])
        and head is not None
        and head.kinds.keys() & {"object", "role"}
        and "place" not in head.kinds
    ):
        return r.possessive(tokens, i)
    return None


@rule("facing-place")
def facing_place(r, tokens, i, rl):
    nxt = _next(tokens, i)
    if tokens[i].text in rl.words["at"] and nxt and (nxt.kinds.keys() & {"place", "object"}):
        if _opens_clause(r, tokens, i):
            return None  # 當階北面揖: the clause's first act, going to stand over against X
        if i + 2 < len(tokens) or r.events:
            text, used = r.noun_phrase(tokens, i + 1)
            r.at.append(text)
            r.at_marked = True
            return 1 + used
    return None


def _opens_clause(r: ClauseReader, tokens: Tokens, i: int) -> bool:
    """當 first in its clause (after 皆 at most: r.all_), no subject or place before it."""
    return not (r.events or r.subjects or r.at) and i == (1 if r.all_ else 0)


@rule("thing-at-place")
def thing_at_place(r, tokens, i, rl):
    """取俎西之觶, 取豐上之觶: after an act that takes from somewhere (yl:yuSource), a thing, a
    word of place and 之 before another thing is that thing, taken from there (theme=觶
    from=俎西), not the first thing handled and the second taken at a place."""
    token = tokens[i]
    if not (r.events and r.lex.has(r.events[-1].kind, "yuSource") and token.of("object")):
        return None
    if "theme" in r.events[-1].fields or r.prep is not None:
        return None
    j = i + 1
    while j < len(tokens) and j - i <= 2 and tokens[j].text in rl.words["where"]:
        j += 1
    if j == i + 1 or not _has(_next(tokens, j - 1), rl.words["of"]):
        return None
    thing = tokens[j + 1].of("object") if j + 1 < len(tokens) else None
    if not thing:
        return None
    r.events[-1].set("theme", thing)
    r.events[-1].set("from", r.known_place("".join(t.text for t in tokens[i:j])))
    return j + 2 - i


@rule("relative-then-facing")
def relative_then_facing(r, tokens, i, rl):
    """賓主人之西北面拜送, 由堂下西階之東北面視上射: X之 and two compass words before 面 is X之
    and the first (a place), then the second and 面 (a facing): 面 needs a direction of its own."""
    token, of, after, nxt = tokens[i], _next(tokens, i), _next(tokens, i, 2), _next(tokens, i, 3)
    if not (token.kinds.keys() & {"role", "object", "place"} and _has(of, rl.words["of"])):
        return None
    return 4 if _place_and_facing(r, token.text + of.text, after, nxt, rl) else None


def _place_and_facing(r, place: str, after, nxt, rl) -> bool:
    """Two compass words (``after``) before 面 (``nxt``): the first closes the place begun by
    ``place``, the second and 面 are the facing; set both."""
    if after is None or len(after.text) != 2 or not set(after.text) <= set(word_class("compass")):
        return False
    direction = r.lex.forms["direction"].get(after.text[1])
    if not _has(nxt, rl.words["face"]) or direction is None:
        return False
    r.place_here(r.known_place(place + after.text[0]))
    r.set_face(direction)
    return True


@rule("place-then-facing")
def place_then_facing(r, tokens, i, rl):
    """覲禮 階東北面再拜稽首, 有司徹 主人東楹東北面拜受爵: a place and two compass words before
    面 is the place and the first (階東, as 西楹西北面 is read 西楹之西 and 北面), then the second
    and 面, a facing: 面 needs a direction of its own (rule relative-then-facing)."""
    token, after, nxt = tokens[i], _next(tokens, i), _next(tokens, i, 2)
    if set(token.kinds) != {"place"} or token.text[-1] in word_class("relative"):
        return None
    return 3 if _place_and_facing(r, token.text, after, nxt, rl) else None


@rule("state-place")
def state_place(r, tokens, i, rl):
    """魚在牛南, 在車南, 賓之乘車在大門外西方: right after a state (在, no 于), ending the
    clause, words the ontology does not name and a word of relative place, or a place and a
    place, are one place as written, where the thing lies (at=牛南, at=大門外西方)."""
    if r.prep is not None or not i or not r.events:
        return None
    state = r.events[-1]
    if tokens[i - 1].of("action") != state.kind or not r.lex.has(state.kind, "state"):
        return None
    rest = tokens[i:]
    if not 2 <= len(rest) <= int(rl.word("longest")):
        return None
    unnamed = not any(t.kinds or t.text in rl.words["its"] for t in rest[:-1])
    unnamed = unnamed and rest[-1].text in word_class("relative")  # 篚在其南: rule its-side
    places = len(rest) == 2 and all(t.kinds.keys() & {"place"} == t.kinds.keys() for t in rest)
    if not (unnamed or places):
        return None
    state.set("at", (*state.fields.get("at", ()), r.known_place("".join(t.text for t in rest))))
    return len(rest)


@rule("food-vessel-place")
def food_vessel_place(r, tokens, i, rl):
    """有司徹 乃載于羊俎, 加于羊俎; 少牢饋食禮 加于菹豆: after 于, a food and the vessel it is in
    (羊俎, the sheep's stand; 菹豆, the 豆 of pickles) are one place, the vessel, not a place 羊
    and a thing 俎 (the reviews write dest=俎); with a side after them, the place as written
    (奠于羊俎東 → dest=羊俎東)."""
    token, nxt = tokens[i], _next(tokens, i)
    if r.prep != "at" or token.text not in rl.words["foods"] or nxt is None:
        return None
    foods = 1  # 有司徹 乃摭于魚腊俎: two foods, the stands of fish and dried meat
    if nxt.text in rl.words["foods"] and _next(tokens, i, 2) is not None:
        foods, nxt = 2, _next(tokens, i, 2)
    after = _next(tokens, i, foods + 1)
    if nxt.text not in rl.words["vessels"]:
        return None
    written = "".join(t.text for t in tokens[i : i + foods + 1])
    if (
        after is not None
        and after.text in word_class("relative")
        and _next(tokens, i, foods + 2) is None
    ):
        r.place_here(written + after.text)  # 奠于羊俎東: the place as written
        return foods + 2
    if after is not None:
        return None  # 羊俎之北, 羊鼎之西: a place written whole (rule written-relative-place)
    r.place_here(r.known_place(nxt.text))
    return foods + 1


@rule("place-within-place")
def place_within_place(r, tokens, i, rl):
    """亨于門外東方: after 于, a place and a place right after it are one place as written (the
    east side outside the gate), not two; not after 由 (由楹内東楹之東: the way, then where to)."""
    token, nxt = tokens[i], _next(tokens, i)
    if r.prep != "at" or "place" not in token.kinds or "role" in token.kinds:
        return None
    if nxt is None or "place" not in nxt.kinds or "role" in nxt.kinds:
        return None
    rest, used = r.noun_phrase(tokens, i + 1)
    r.place_here(r.known_place(token.text + rest))
    return 1 + used


@rule("relative-place")
def relative_place(r, tokens, i, rl):
    token, nxt, after = tokens[i], _next(tokens, i), _next(tokens, i, 2)
    if (
        token.kinds.keys() & {"role", "object", "place"}
        and _has(nxt, rl.words["of"])
        and after is not None
        and (
            after.text in word_class("relative")
            or ("role" in token.kinds and "place" in after.kinds)
        )
    ):
        if _those_later(tokens, i, rl):
            if r.events or r.subjects:
                return None
            r.subjects.append(token.of("role"))  # 兄弟之後生者舉觶: of the 兄弟, the subject
            return 5
        text, used = r.noun_phrase(tokens, i)
        r.place_here(text)
        return used
    return _between(r, tokens, i, rl)


def _those_later(tokens: Tokens, i: int, rl: Rule) -> bool:
    """有司徹 兄弟之後生者舉觶于其長: a person, 之, 後 and an act with 者 are those of them who
    were born or came later (注: 後生，年少也), persons, not a place behind them."""
    k = i + 3
    return (
        tokens[i].of("role") is not None
        and tokens[i + 2].text in rl.words["later"]
        and k + 1 < len(tokens)
        and not tokens[k].kinds
        and tokens[k + 1].text in rl.words["who"]
    )


def _between(r, tokens: Tokens, i: int, rl: Rule) -> int | None:
    """上豆之間祭, 侯氏降兩階之間: a thing or place, 之 and 間 is the place between them, as
    written with the word before it that tells which (上, the upper ones; 兩), not a thing the
    act handles; not 其間 (its measure, in the 記)."""
    token, nxt, after = tokens[i], _next(tokens, i), _next(tokens, i, 2)
    if not (token.kinds.keys() & {"object", "place"} and _has(nxt, rl.words["of"])):
        return None
    if not _has(after, rl.words["between"]):
        return None
    before = tokens[i - 1] if i else None
    which = before.text if before is not None and before.text in rl.words["which"] else ""
    r.place_here(which + token.text + nxt.text + after.text)
    return 3


@rule("beside-person")
def beside_person(r, tokens, i, rl):
    """主人賓右拜送爵: at the 賓's right; 大射正立于公後: behind the 公 (前, 後 only after a
    preposition: 大夫後出 is the 大夫 going out after)."""
    token, nxt = tokens[i], _next(tokens, i)
    if not token.of("role") or nxt is None:
        return None
    if _has(nxt, rl.words["front-back"]) and r.prep == "at":
        r.place_here(token.text + nxt.text)
        return 2
    if _has(nxt, rl.words["side"]) and (
        r.events or r.prep or (r.subjects and not r.joined) or _stance_after(r, tokens, i, rl)
    ):
        r.place_here(token.text + nxt.text)
        return 2
    return None


def _stance_after(r, tokens: Tokens, i: int, rl: Rule) -> bool:
    """介右坐奠爵, 賓右北面: first in its clause, ROLE右 before a facing, a posture or a bow is
    the other's right, where the one carried over stands (賓右取脯: the right hand takes)."""
    after = _next(tokens, i, 2)
    if i or after is None or _next(tokens, i).text not in rl.words["at"]:
        return False
    if after.of("direction"):
        return True
    act = after.of("action")
    return bool(act) and r.is_a(act, *rl.words["stance"])


@rule("one-of-group")
def one_of_group(r, tokens, i, rl):
    token = tokens[i]
    if token.text not in rl.words["one"] or not token.of("role"):
        return None
    if r.events and r.events[-1].kind in rl.words["send"] and "to" not in r.events[-1].fields:
        return None  # 使一人去之: the one sent (read as a role by the noun rule)
    if r.subjects or rl.word("raise") not in r.ctx.sentence_text:
        if not r.subjects and not r.events:
            group = r.group_just_named()
            if group:
                r.subjects.append(group)
            elif (
                token.text != rl.word("single")
                and r.ctx.clause_text.startswith(token.text)
                and i + 1 < len(tokens)
                and tokens[i + 1].of("action")
                and tokens[i + 1].text not in rl.words["helps"]
            ):
                r.subjects.append(token.of("role"))  # 有司徹 二人洗觶: the two, no group before
        return 1
    if token.text == rl.word("single"):
        r.subjects.append(rl.word("raiser"))  # 一人舉觶 (注: 一人，主人之吏)
        return 1
    return None


@rule("its-side")
def its_side(r, tokens, i, rl):
    """其南, 其位, 其位南: a place relative to the one just named, or his own place (位),
    written as it stands."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["its"] or nxt is None:
        return None
    used = 2
    if nxt.text in rl.words["place"] and not nxt.kinds:  # 獻釋獲者于其位, 出于其位南
        after = _next(tokens, i, 2)
        used += 1 if after is not None and after.text in word_class("relative") else 0
    elif nxt.text in rl.words["mat"] and r.prep is not None:
        pass  # 則薦諸其席: his mat, where the dish goes
    elif nxt.text not in word_class("relative"):
        return None
    text = "".join(t.text for t in tokens[i : i + used])
    r.put_place(r.events[-1] if r.events else None, r.prep, text)
    r.prep = None
    return used


@rule("subject-between")
def subject_between(r, tokens, i, rl):
    """卒歌主人獻工: a role between two acts, not governed by the first, is the subject of the
    second; after 而后 (then) always, and all the roles named there (賓升復筵而后卿大夫繼射:
    the 卿 and 大夫 shoot next, not where the 賓 goes back to); and after going out or in, done by
    one named before it, a person is no place he goes (士冠禮 賓出主人送于廟門外: the host sees
    him off; 特牲饋食禮 尸入主人退)."""
    token = tokens[i]
    then = i >= 2 and tokens[i - 2].text == rl.word("and")
    then = then and tokens[i - 1].text in rl.words["then"]  # 而后
    run = 1
    while then and i + run < len(tokens) and tokens[i + run].of("role"):
        run += 1
    nxt = _next(tokens, i, run)
    if (
        token.of("role")
        and "action" not in token.kinds
        and r.events
        and r.prep is None
        and not r.joined
        and nxt is not None
        and r.verb_here(tokens, i + run)
        and (then or not r.governs(tokens, i) or _gone_by_one_named(r, rl))
    ):
        r.next_agent = tuple(t.of("role") or "" for t in tokens[i : i + run])
        return run
    return None


@rule("act-as-noun")
def act_as_noun(r, tokens, i, rl):
    """于使臣, 于旅: after 于/自/由 an act's word is a noun (the person, the occasion), never an
    act of the clause."""
    token = tokens[i]
    after = i > 0 and tokens[i - 1].text in word_values("preposition")
    if after and r.prep in rl.words["after"] and set(token.kinds) == {"action"}:
        r.prep = None
        return 1
    return None


@rule("doer-named")
def doer_named(r, tokens, i, rl):
    """負侯許諾, 負侯皆許諾: an act named at the head of a clause, before an answer (許諾, 對) or
    皆 and an answer, names the one who does it (負侯者, the role of that form), who answers."""
    token, nxt = tokens[i], _next(tokens, i)
    if i or r.subjects or "action" not in token.kinds or nxt is None:
        return None
    if nxt.text in rl.words["all"]:  # 負侯皆許諾
        nxt = _next(tokens, i, 2)
    doer = r.lex.forms["role"].get(token.text + rl.word("suffix"))
    if doer and nxt is not None and nxt.of("action") and r.lex.has(nxt.of("action"), "answer"):
        r.subjects.append(doer)
        return 1
    return None


@rule("with-the-one-who")
def with_the_one_who(r, tokens, i, rl):
    """與立于洗南者二人皆再拜稽首送觶: 與, an act and its place, and 者, heading a clause, is
    'with the one who stands south of the washer': a person, no act of the clause; the count
    after it (二人) is the two of them, and the one carried over acts with him."""
    if i or tokens[i].text not in rl.words["with"] or tokens[i].kinds:
        return None
    nxt = _next(tokens, i)
    if nxt is None or "action" not in nxt.kinds:
        return None
    end = next((k for k in range(i + 2, len(tokens)) if tokens[k].text in rl.words["zhe"]), None)
    if end is None or any(set(t.kinds) == {"action"} for t in tokens[i + 2 : end]):
        return None
    after = _next(tokens, end)
    return end + 1 - i + (1 if after is not None and after.text in rl.words["count"] else 0)


@rule("already-done")
def already_done(r, tokens, i, rl):
    """士既獻者立于東方: ROLE既ACT者 heading a clause names those of the role the act was
    already done to or by (the 士 already offered), the subject of what follows; the act is
    not done again here (注: 每已獻而即位于東方)."""
    nxt, zhe = _next(tokens, i), _next(tokens, i, 2)
    if tokens[i].text not in rl.words["already"] or tokens[i].kinds or r.events:
        return None
    if nxt is None or "action" not in nxt.kinds or not _has(zhe, rl.words["zhe"]):
        return None
    return 3


@rule("goers-and-comers")
def goers_and_comers(r, tokens, i, rl):
    """大射儀 退者與進者相左, 公食大夫禮 退者與進者交于前: an act with 者, then 與 and another
    such doer, heading a clause whose act is done to each other (yl:reciprocal: 相左, 交), names
    the two files passing: those the text is following now, carried over, and the others they
    pass (鄉射禮 writes only 與進者相左); not the last who did that act some while ago."""
    if i or r.subjects or "action" not in tokens[i].kinds or tokens[i].of("role"):
        return None
    if not (
        _has(_next(tokens, i), rl.words["zhe"]) and _has(_next(tokens, i, 2), rl.words["with"])
    ):
        return None
    if not any(r.lex.has(t.of("action"), "reciprocal") for t in tokens[i + 3 :] if t.of("action")):
        return None
    return 2


@rule("goes-to")
def goes_to(r, tokens, i, rl):
    """之 as a verb, going to (適): 以之 and a person after an act of the clause (燕禮, 大射儀
    執散爵者酌以之公 → 適 to=公: he goes to the ruler with the cup), or 之 and a place opening a
    clause (公食大夫禮 賓執粱與湇，之西序端 → 適 dest=西序端, 注: 不敢食於尊處); not the pronoun
    after an act (取之), nor X之Y."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text == rl.word("yi") and r.events and _has(nxt, rl.words["go"]):
        start = i + 1
    elif i == 0 and token.text in rl.words["go"] and not token.kinds:
        start = i
    else:
        return None
    goal = _next(tokens, start)
    if goal is None or _next(tokens, start, 2) is not None:
        return None  # the person or place ends the clause
    role, place = goal.of("role"), goal.of("place")
    if not (role or (place and start == 0)):
        return None
    event = r.new_event(rl.word("act"))
    if role:
        event.set("to", role)
    else:
        event.set("dest", place)
    return start - i + 2


@rule("men-and-women")
def men_and_women(r, tokens, i, rl):
    """士虞禮 記 男女拾踊三 / 既夕禮 記 男女，改服 / 士喪禮 男女奉尸: 男女 as the subject is the men
    and the women of the house (丈夫, 婦人; 注: 男女從尸，男由左，女由右), not the bride (女)."""
    words = rl.words["pair"]
    if [t.text for t in tokens[i : i + len(words)]] != list(words):
        return None
    if r.events or r.prep is not None or (r.subjects and not r.joined):
        return None
    r.subjects.extend(rl.words["roles"])
    r.joined = False
    return len(words)


@rule("mourners-unnamed")
def mourners_unnamed(r, tokens, i, rl):
    """既夕禮 哭者相止也 / 士喪禮 哭者止: a mourning act (哭, 踊) with 者 heading a clause, when no
    one did it just before (rule doer-of-act), is the mourners, the men and the women (丈夫,
    婦人), not someone unnamed (人)."""
    nxt = _next(tokens, i)
    if i or r.subjects or tokens[i].of("action") not in rl.words["acts"]:
        return None
    if not _has(nxt, rl.words["zhe"]) or i + 2 >= len(tokens):
        return None
    r.subjects.extend(rl.words["mourners"])
    return 2


@rule("doer-of-act")
def doer_of_act(r, tokens, i, rl):
    """酌者加勺, 致者阼階下再拜稽首, 卒爵者興: an act with 者 at the head of a clause, more
    following, is the one who just did it (the last to do it within a few acts; 受者: the last
    given the cup) and the subject of the rest; a role labelled ACT者 (獲者) is read as a role."""
    nxt = _next(tokens, i)
    if i or r.subjects or "action" not in tokens[i].kinds or tokens[i].of("role"):
        return None
    if not _has(nxt, rl.words["zhe"]) or i + 2 >= len(tokens):
        return None
    kind = tokens[i].of("action")
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :]]
    for earlier in reversed(recent):
        if r.is_a(earlier.kind, kind) and earlier.agent and earlier.get("neg") != "1":
            r.subjects.extend(earlier.agent)
            return 2
        if kind in rl.words["receive"] and earlier.kind in rl.words["give"] and earlier.get("to"):
            r.subjects.extend(earlier.fields["to"])
            return 2
    return None


@rule("unnamed-doer")
def unnamed_doer(r, tokens, i, rl):
    """公食大夫禮 授者升一等; 既夕禮 徹者入; 士喪禮 弔者入: an act with 者 heading a clause, more
    following, when no one did that act just before (rule doer-of-act), is someone the text
    leaves unnamed who does it (人), the subject of the rest: not the act itself done here."""
    nxt = _next(tokens, i)
    if i or r.subjects or "action" not in tokens[i].kinds or tokens[i].of("role"):
        return None
    if not _has(nxt, rl.words["zhe"]) or i + 2 >= len(tokens):
        return None
    if tokens[i].text.startswith(rl.words["finish"]):
        return None  # 卒飲者: the one who has just drunk, of those acting
    if not any(t.of("action") or t.of("direction") for t in tokens[i + 2 :]):
        return None
    r.subjects.append(rl.word("someone"))
    return 2


@rule("verb")
def verb(r, tokens, i, rl):
    if r.verb_here(tokens, i):
        r.verb(tokens[i].kinds["action"], tokens, i)
        return 1
    return None


@rule("group-member")
def group_member(r, tokens, i, rl):
    """大夫卒受者以虛觶降: a role that is one member of the group named just before it (the
    last of the 大夫 to receive) is the subject in the group's place, not beside it; so the
    juniors of a side (特牲饋食禮 賓弟子及兄弟弟子洗: the 弟子 of the guests' and of the
    brothers' side, 注: 弟子，後生也), each right after the side it is of."""
    role = tokens[i].of("role")
    if role not in rl.words["member"] or not r.subjects or r.events:
        return None
    if r.joined and tokens[i - 1].of("role") != r.subjects[-1]:
        return None
    r.subjects[-1] = role
    if r.subjects.count(role) > 1:
        r.subjects.pop()
    return 1


@rule("each-pair")
def each_pair(r, tokens, i, rl):
    """一耦 is the first pair (上耦, its term), the one called first; right after a call made as
    for shooting (作升飲者，如作射。一耦進) it stands for each pair in its turn (三耦)."""
    if tokens[i].text != rl.word("one-pair") or r.events or r.subjects:
        return None
    last = _last_event(r.ctx)
    if last is None or rl.word("like") not in last.fields.get("like", ()):
        return None
    r.subjects.append(rl.word("each"))
    return 1


@rule("the-last")
def the_last(r, tokens, i, rl):
    """三耦拾取矢，亦如之。後者遂取誘射之矢: 後者, first in its clause just after pairs took
    their arrows in turn, is the last to take them, the lower archer of the last pair (疏: 下耦
    將司射矢來), not the pairs carried over."""
    nxt = _next(tokens, i)
    if i or tokens[i].text != rl.word("after") or not _has(nxt, rl.word("zhe")):
        return None
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :] if not e.modifier]
    if not any(e.kind in rl.words["in-turn"] for e in recent):
        return None
    r.subjects.append(rl.word("last"))
    return 2


@rule("taking-part")
def taking_part(r, tokens, i, rl):
    """衆賓將與射者皆降, 衆賓不與射者: a role after the subject and 將 or 不 (與射者: those who
    take part in the shooting) says which of them are meant: no second subject."""
    token = tokens[i]
    if not (i and token.of("role") and r.subjects and not r.events):
        return None
    return 1 if tokens[i - 1].text in rl.words["modal"] else None


@rule("subject")
def subject(r, tokens, i, rl):
    token = tokens[i]
    if token.of("role") and not r.events and r.prep is None and (not r.subjects or r.joined):
        r.subjects.append(token.of("role"))
        r.joined = False
        return 1
    return None


@rule("up-or-down")
def up_or_down(r, tokens, i, rl):
    """笙一人拜于下, 諸公卿則以耦告于上: 于上, 于下 ending a clause, after an act that puts
    nothing anywhere, are up on the hall and below it (注: 告諸公卿於堂上)."""
    token = tokens[i]
    place = word_values("up-down").get(token.text)  # 上 → 堂上, 下 → 堂下
    if not place or token.kinds or i + 1 != len(tokens) or r.prep != "at" or not r.events:
        return None
    if i == 0 or tokens[i - 1].text not in rl.words["yu"]:
        return None
    if r.lex.has(r.events[-1].kind, "yuDestination"):
        return None  # 則橫于下: the tallies laid crosswise on the near side (注: 自近為下)
    r.place_here(r.known_place(place))
    return 1


@rule("side-of-state")
def side_of_state(r, tokens, i, rl):
    """上射在左, 卦者在左, 主人在右: a side (左, 右) right after a state (在) is where one is, a
    place as written (at=左); so is a compass word alone ending the clause (罍水在東, 酒在北 →
    at=北: where the thing stands, 注: 玄酒在西，上也; convention settled 2026-12-06)."""
    token = tokens[i]
    compass = token.of("direction") and i + 1 == len(tokens)
    side = token.text in rl.words["sides"] and not token.kinds
    if not r.events or i == 0 or not (compass or side):
        return None
    if tokens[i - 1].of("action") != r.events[-1].kind or not r.lex.has(r.events[-1].kind, "state"):
        return None
    r.events[-1].set("at", (*r.events[-1].fields.get("at", ()), token.text))
    return 1


@rule("someones-mat")
def someones_mat(r, tokens, i, rl):
    """有司徹 西面于主人席北，立卒爵; 立于主人席北: right after 于, a person and 席 (his mat),
    with a word of relative place after it, are one place as written (主人席北: north of the
    主人's mat), as 主人之席北 is: not the person acting, nor the one the act is for."""
    if r.prep is None or not i or tokens[i - 1].text not in rl.words["yu"]:
        return None
    if not tokens[i].of("role") or i + 2 >= len(tokens):
        return None
    if tokens[i + 1].text not in rl.words["mat"]:
        return None
    if tokens[i + 2].text not in word_class("relative"):
        return None
    r.place_here(r.known_place("".join(t.text for t in tokens[i : i + 3])))
    return 3


@rule("unnamed-place")
def unnamed_place(r, tokens, i, rl):
    """于鼓北, 于其位南: after 于/自/由, words the ontology does not name followed by a word of
    relative place are a place written as it stands (docs/annotation.md, rule 6). A side (左,
    右) alone after 于 at the end of a clause is kept aside for rule elided-act (上射于右: where
    his tally goes); elsewhere the reviews read such a clause as a description."""
    if r.prep not in rl.words["after"]:
        return None
    after_yu = i > 0 and tokens[i - 1].text in rl.words["yu"]
    if tokens[i].text in rl.words["sides"] and after_yu and i + 1 == len(tokens):
        r.side = tokens[i].text  # 上射于右: the side, for rule elided-act (else a description)
        return 1
    j = i
    while j < len(tokens) and j - i < int(rl.word("longest")) and not tokens[j].kinds:
        if tokens[j].text in word_values("preposition"):
            return None
        j += 1
    if j == i or j >= len(tokens) or tokens[j].text not in word_class("relative"):
        return None
    r.place_here("".join(t.text for t in tokens[i : j + 1]))
    return j + 1 - i


@rule("noun")
def noun(r, tokens, i, rl):
    if tokens[i].kinds.keys() & {"role", "object", "place"}:
        return r.attach_noun(tokens[i], tokens, i)
    return None


# -- verbs ------------------------------------------------------------------------------------


@rule("together")
def together(r, kind, tokens, i, rl) -> bool:
    """兼挾乘矢: 'together', not an act of its own; so too before a count and its act (公食大夫禮
    兼壹祭之: one offering of them all together, 注: 兼一祭之), and before 與 and the things held
    together with (少牢饋食禮 上佐食兼與黍以授尸; 兼與筮執之)."""
    if kind not in rl.words["act"]:
        return False
    k = i + 2 if i + 2 < len(tokens) and tokens[i + 1].text in word_class("numeral") else i + 1
    if k < len(tokens) and tokens[k].text in rl.words["with"]:  # 兼與黍以授尸: with the millet
        k = next((j for j in range(k + 1, len(tokens)) if "action" in tokens[j].kinds), k)
    return k < len(tokens) and r.verb_here(tokens, k)


@rule("reply-says")
def reply_says(r, kind, tokens, i, rl) -> bool:
    last = r.events[-1] if r.events else None
    return last is not None and kind in rl.words["act"] and r.is_a(last.kind, *rl.words["speech"])


@rule("prompted")
def prompted(r, kind, tokens, i, rl) -> bool:
    """小臣師詔揖諸公卿大夫: 詔 (告, 注: 詔，告也) just before an act tells another to do it, and
    that one does it (揖 by the one told, the 公), not only what is commanded (rule
    commanded-act) nor the teller's act: a new event, its doer set after the pass (rule
    prompted-does)."""
    last = r.events[-1] if r.events else None
    if last is None or i == 0 or tokens[i - 1].text != rl.word("prompt"):
        return False
    event = r.new_event(kind)
    event.fields["_prompted"] = ("1",)
    return True


@rule("commanded-act")
def commanded_act(r, kind, tokens, i, rl) -> bool:
    last = r.events[-1] if r.events else None
    if last is None or r.content_done:
        return False
    told = last.kind in rl.words["warns"] and "to" in last.fields  # 射人戒諸公卿大夫射
    if last.kind not in r.lex.frames["contentFollows"] and not told:
        return False  # (戒宿, 戒速: two acts, no one named between)
    if kind in rl.words["except"]:
        return False
    r.content_done = True
    r.stop = True
    # what is commanded (rules command-goes-on, commands-the-player)
    r.ctx.command_content = (last, kind, r.ctx.sentence)
    doer = r.lex.forms["role"].get(tokens[i].text + rl.word("doer"))
    if doer and len(kind) > 1 and last.kind in r.lex.frames["command"] and "to" not in last.fields:
        last.set("to", doer, "?")  # 命負侯: those who bear the targets (負侯者) are told
    # 命取矢如初: the clause stops at what is commanded, but 如初 says how the command is given
    like = rule_named("like").word("like")
    ahead = [
        j for j in range(i + 1, len(tokens)) if like in (tokens[j].text, tokens[j].of("action"))
    ]
    if ahead:
        r.like(tokens, ahead[0], like)
    return True


@rule("awaited-act")
def awaited_act(r, kind, tokens, i, rl) -> bool:
    """立于堂西以俟射: an act right after 俟 is what is waited for, not done yet (the shooting
    is told when it comes); the clause stops there (士昏禮 以俟見)."""
    last = r.events[-1] if r.events else None
    if last is None or last.kind not in rl.words["wait"] or i == 0:
        return False
    if tokens[i - 1].of("action") not in rl.words["wait"]:
        return False
    r.stop = True
    return True


@rule("assist")
def assist(r, kind, tokens, i, rl) -> bool:
    """以相拜: to assist with the bows, one act 相, for the two who just bowed to each other, or
    for the one who alone bowed just before (聘禮 公答再拜。擯者出，立于門中以相拜 → to=公?)."""
    last = r.events[-1] if r.events else None
    if last is None or last.kind not in rl.words["after"] or kind not in rl.words["act"]:
        return False
    if kind == rl.word("bow") and "to" not in last.fields:
        bowers = [
            e.agent
            for _, e in reversed(r.ctx.history[-int(rl.word("within")) :])
            if r.is_a(e.kind, kind) and e.agent
        ][:2]
        if len(bowers) == 2 and bowers[0] != bowers[1]:
            last.set("to", tuple(dict.fromkeys((*bowers[1], *bowers[0]))), "?")
        elif len(bowers) == 1:  # 公答再拜。擯者出，立于門中以相拜: the one who just bowed
            last.set("to", bowers[0], "?")
    return True


@rule("thanks-twice")
def thanks_twice(r, kind, tokens, i, rl) -> bool:
    """再拜崇酒, 再拜受, 再拜送: the bow right before is the thanks or the bow on receiving or
    sending, made twice: one act (崇酒, 拜受, 拜送) with count=2; 受 made 拜受 still has the
    thing received (rule thing-in-hand)."""
    if kind in rl.words["act"] and r.events and r.events[-1].kind in rl.words["bow"]:
        r.events[-1].kind = rl.words["as"][rl.words["act"].index(kind)]
        if r.lex.has(kind, "handlesThing"):  # 再拜受: what is received, as 受 has it
            r.carried.append(r.events[-1])
        r.events[-1].set("count", rl.word("count"))
        return True
    return False


@rule("causes-to-go-up")
def causes_to_go_up(r, kind, tokens, i, rl) -> bool:
    """射人升賓, 擯者升卿: 升 with a person for its object is having him go up (作), not going
    up oneself; the person is the one called (to)."""
    nxt = _next(tokens, i)
    if kind not in rl.words["acts"] or nxt is None or not nxt.of("role") or "action" in nxt.kinds:
        return False
    r.new_event(rl.word("as"))
    return True


@rule("row-of-mats")
def row_of_mats(r, kind, tokens, i, rl) -> bool:
    """大夫繼而東上, 繼賓以西: 繼 in a list of mats (a mat or the food of a round just set out)
    is the next mat laid in the row, not a person falling in behind (繼三耦而立)."""
    nxt = _next(tokens, i)
    if kind not in rl.words["act"] or (nxt is not None and "action" in nxt.kinds):
        return False
    last = _recent_mat(r, rl)
    if last is None:
        return False
    # after the dish of a round (遂薦之) the next mat is the served one's; after a mat laid for
    # X (乃席賓) the row goes on from X's and names no one: rule seated-one reads the marker
    served = last.fields.get("to", ()) if last.kind in rl.words["dish"] else ()
    r.new_event(rl.word("as")).fields["_row"] = ("row", *served)
    return True


def _recent_mat(r, rl: Rule):
    """The last mat (or, words ``mats``, dish) set out within ``within`` events, or None."""
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :] if not e.modifier]
    for event in reversed(recent):
        if event.kind in rl.words["mats"] or set(event.fields.get("theme", ())) & set(
            rl.words["mat"]
        ):
            return event
    return None


@rule("set-where")
def set_where(r, kind, tokens, i, rl) -> bool:
    """設膳篚在其北: 在 after a thing laid (設) in the clause says where it is laid (dest), not a
    second act, a state."""
    last = r.events[-1] if r.events else None
    if last is None or not r.lex.has(kind, "state") or "theme" not in last.fields:
        return False
    if last.kind not in rl.words["acts"]:
        return False  # 膳尊兩甒在南: the vessels of the ruler's wine are in the south (a state)
    r.prep = "to"
    return True


@rule("new-event")
def new_event(r, kind, tokens, i, rl) -> bool:
    r.new_event(kind)
    return True


# -- after the pass: the clause's events; each returns whether it changed them --------------


@rule("place-left-in-paragraph")
def place_left_in_paragraph(r, subjects, rl) -> bool:
    """既夕禮 記 寢東首于北墉下。有疾 … 徹琴瑟; 寢苫枕塊。不說絰帶: a place a verbless clause left
    for the next act is that act's only within the paragraph: an act of another paragraph (of
    the 記, another rule) was not done there (徹琴瑟, no at=寢東)."""
    if not r.places_left or sentence_of(r.ctx.pending_sentence) == r.ctx.paragraph:
        return False
    done = False
    for event in r.events:
        at = tuple(p for p in event.fields.get("at", ()) if p not in r.places_left)
        if at != tuple(event.fields.get("at", ())):
            event.unset("at")
            if at:
                event.set("at", at)
            done = True
    return done


@rule("one-of-those")
def one_of_those(r, subjects, rl) -> bool:
    """公食大夫禮 士舉鼎…右人抽扃…左人待載; 士羞庶羞…衆人騰羞者盡階不升堂: a 人 named only by
    his side or as the rest (右人, 左人, 衆人) is one of those doing the work, the men carried
    over (the 士), not some unnamed person."""
    carried = r.ctx.agent
    person = rl.word("person")
    if r.text[1:2] != person:
        return False
    side = r.text.startswith(tuple(rl.words["one-of"]))  # 右人, 左人
    rest = r.text.startswith(rl.word("rest")) and rl.word("doer") in r.text  # 衆人騰羞者
    if not (side or rest) or len(carried) != 1 or person in carried:
        return False
    if r.all_of(carried, YL.Ruler) or r.officiants(carried):
        return False  # 宗人執畢先入…右人抽扃: the officer leads, the men at the 鼎 are others
    done = False
    for event in r.events:
        if event.agent == (person,) and not event.marks.get("agent"):
            event.set("agent", carried)
            done = True
    return done


@rule("target-middle")
def target_middle(r, subjects, rl) -> bool:
    """獲者…適左個，中亦如之: 中 opening a clause that names no one, just after acts at a
    side of the target (左個, 右個; within the last two), is the middle of the target, where
    he does it again (注: 至中若神在中), a place (at=侯中): not the tally-holder 中 as a thing."""
    if subjects or not r.events or not r.ctx.clause_text.startswith(tuple(rl.words["middle"])):
        return False
    tokens = tokenize(r.ctx.clause_text, r.lex)
    if not tokens or tokens[0].text not in rl.words["middle"]:
        return False
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :]]
    there = {v for e in recent for k in ("dest", "at", "like") for v in e.fields.get(k, ())}
    if not set(rl.words["sides"]) & there:
        return False
    for event in r.events:
        kept = tuple(t for t in event.fields.get("theme", ()) if t not in rl.words["middle"])
        event.unset("theme")
        event.set("theme", kept)
    r.events[0].set("at", (rl.word("place"),))
    return True


@rule("all-of-them")
def all_of_them(r, subjects, rl) -> bool:
    """皆 with one who leads others (以X): all are agents, not one with the others."""
    if not (r.all_ and r.led and subjects):
        return False
    done = False
    everyone = tuple(dict.fromkeys((*subjects, *r.led)))
    for event in r.events:
        if event.agent == subjects and event.fields.get("with") == tuple(r.led):
            event.set("agent", everyone)
            del event.fields["with"]
            done = True
    return done


@rule("named-agent")
def named_agent(r, subjects, rl) -> bool:
    done = False
    for event in r.events:
        named = event.fields.pop("_agent", None)
        if named:
            event.set("agent", named)
            event.fields.pop("noagent", None)
            done = True
    return done


@rule("named-doer-again")
def named_doer_again(r, subjects, rl) -> bool:
    """酌膳，執冪如初 / 執冪如初: an act and its thing done again as at first (如初), naming no
    one, whose form with 者 is a role (執冪者), is that role's, implied, as it was at first
    (執冪者舉冪), not the one carried over who pours."""
    if subjects or rl.word("like") not in r.text:
        return False
    roles = r.lex.forms["role"]
    done = False
    for event in r.events:
        if event.get("like") != rl.word("first") or event.marks.get("agent") != "^":
            continue
        start = r.text.find(event.kind)
        head = r.text[start : r.text.find(rl.word("like"), start)] if start >= 0 else ""
        thing = head[len(event.kind) :] if head.startswith(event.kind) else ""
        things = tokenize(thing, r.lex)
        named = bool(things) and all(t.of("object") for t in things)
        role = roles.get(head + rl.word("doer")) if named else None
        if role and role not in event.agent:
            event.set("agent", (role,), "?")
            done = True
    return done


@rule("not-yet-done")
def not_yet_done(r, subjects, rl) -> bool:
    """未旅; 獲而未釋獲: an act the text says has not yet been done (未 just before it), in a
    clause that names no one, has no doer: not the one carried over, nor the doer of the act
    before it in the clause, nor its usual doer (注: 但大言獲，未釋其算)."""
    if subjects:
        return False  # 衆賓未拾取矢: his act, not yet done
    if rl.word("yet") not in r.text or not any(e.get("neg") == "1" for e in r.events):
        return False
    tokens = r.tokens
    pairs = zip(tokens, tokens[1:], strict=False)
    yet = {n.of("action") for t, n in pairs if t.text == rl.word("yet")}
    done = False
    for event in r.events:
        if event.get("neg") == "1" and event.kind in yet and event.agent:
            event.no_doer()
            done = True
    return done


@rule("shooting-to-music")
def shooting_to_music(r, subjects, rl) -> bool:
    """乃奏《騶虞》以射: the shooting the music is played for (以射) is the archers', not the
    musician's who plays (大師): the archers of the round, the group (yl:hasMember) of the last
    pair to act (三耦, not the 上耦 called first)."""
    done = False
    for event in r.events:
        players = event.agent and r.all_of(event.agent, YL.Musician)
        if event.kind in rl.words["shoot"] and players and not subjects:
            archers = shooters(r, int(rule_named("carried-subject").word("pairs-within")))
            if not archers:
                continue  # no archer has acted: left as it is (not the lexicon's first group)
            group = [g for g, members in r.lex.members.items() if set(archers) <= set(members)]
            archers = tuple(group[:1]) or archers  # the round's shooting: 三耦, not one pair
            event.set("agent", archers, "?")
            done = True
    return done


@rule("doer-over-topic")
def doer_over_topic(r, subjects, rl) -> bool:
    """記：君，國中射，則皮樹中，以翿旌獲: a person named alone before (the topic: whose shooting
    the sentence is about) is not the doer of an act only another role does (yl:doneBy: 獲 by the
    獲者, who calls the hits), when this clause names no one itself."""
    if r.subjects or not subjects:
        return False  # 獲者坐而獲: the clause names its doer
    done = False
    for event in r.events:
        doers = r.lex.doers.get(event.kind)
        if doers and event.agent == subjects and not set(subjects) & set(doers):
            event.set("agent", doers, "?")
            done = True
    return done


@rule("seated-one")
def seated_one(r, subjects, rl) -> bool:
    """卿席賓東: 席 with the person before it and no other is his mat laid, not a mat he lays:
    he is the one seated (to), the layer unstated; the next mat of a row (rule row-of-mats) is
    the subject's, else the one the last dish of a round was for (辯獻大夫，遂薦之，繼賓以西:
    the 大夫; the 賓 is whom the row goes on from), else no one named (乃席賓…衆賓之席，繼而西:
    the row goes on from the 賓's mat)."""
    done = False
    if any(t.text in rl.words["spread"] for t in r.tokens):
        return False  # 士昏禮 媵布席于奧, 主人筵于户西: the one named spreads the mat, not his
    for event in r.events:
        row = event.fields.pop("_row", None)  # ("row", whom the last dish was for …)
        is_row = row is not None
        if event.kind not in rl.words["act"]:
            continue
        if row is not None and not subjects:
            seated = row[1:]
        elif subjects and event.agent == subjects and (is_row or "to" not in event.fields):
            seated = subjects
        else:
            continue
        if seated:
            event.set("to", seated)
        else:
            event.fields.pop("to", None)  # 繼賓: the 賓 is whom the row goes on from
        event.no_doer()
        done = True
    return done


@rule("mat-taken")
def mat_taken(r, subjects, rl) -> bool:
    """士昏禮 席于阼，舅即席; 席于房外，南面，姑即席: a mat laid for no one named is for the one who
    takes it next in its sentence (to=舅?), implied."""
    mats = [e for e in r.events if e.kind == rl.word("mat") and "to" not in e.fields]
    if not mats or (subjects and any(e.agent != subjects for e in mats)):
        return False  # (主人之贊者筵于東序: the one who lays it, read on)
    for text in (*r.ctx.rest_of_sentence, *_mats_ahead(r.ctx, int(rl.word("within")), rl)):
        tokens = tokenize(text, r.lex)
        if len(tokens) > 1 and tokens[0].of("role") and tokens[1].of("action") in rl.words["take"]:
            for event in mats:
                event.set("to", (tokens[0].of("role") or "",), "?")
            return True
    return False


@rule("offered-eaters")
def offered_eaters(r, subjects, rl) -> bool:
    """士昏禮 媵餕主人之餘，禦餕婦餘，贊酌外尊酳之: 之 after an offering of the cup is those who
    have just eaten (to=媵,御?), the rinsing cup being theirs; not one who helped them."""
    offered = [
        e
        for e in r.events
        if e.kind in r.lex.frames["offering"] and e.marks.get("to") in (None, "?")
    ]
    if not offered or not r.text.endswith(offered[-1].kind + rl.word("of")):
        return False
    eaters: list[str] = []
    for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
        if earlier.kind in rl.words["eat"] and earlier.agent:
            eaters[:0] = [a for a in earlier.agent if a not in eaters]
        elif eaters:
            break  # the last run of eating only
    eaters = [a for a in eaters if a not in offered[-1].agent]
    if not eaters:
        return False
    offered[-1].set("to", tuple(eaters), "?")
    return True


@rule("command-goes-on")
def command_goes_on(r, subjects, rl) -> bool:
    """遂命勝者執張弓，不勝者執弛弓: right after a command to someone named whose content is an act,
    another person doing the same act in the same sentence is more of what is commanded, not a
    narrated act: the clause adds him to those commanded (+ to=不勝者)."""
    content = r.ctx.command_content
    if not (content and subjects and r.events and r.ctx.history):
        return False
    command, kind, sentence = content
    if sentence != r.ctx.sentence or r.ctx.history[-1][1] is not command:
        return False
    told = command.fields.get("to", ())
    if r.events[0].kind != kind or not told or command.marks.get("to") or set(subjects) & set(told):
        return False  # 擯者以命升賓。賓升: the one told does it (no one named: rule 4)
    more = Event("", modifier=True)
    more.set("to", subjects)
    r.events[:] = [more]
    r.ctx.agent = r.ctx.positive_agent = subjects  # 升飲如初: the one told last goes on
    return True


@rule("counterpart-told")
def counterpart_told(r, subjects, rl) -> bool:
    """大射儀 命三耦及衆射者勝者皆袒決遂執張弓。不勝者皆襲，說決拾…遂以執弣: right after a
    command whose words tell one side all to do something (勝者皆…), a sentence opening with the
    other side (yl:counterpart: 不勝者) and 皆 is more of those words (鄉射禮 quotes both in one
    「…」), not acts told: + say= on the command."""
    ctx = r.ctx
    if not (subjects and r.events and ctx.history and ctx.new_sentence):
        return False
    pid, last = ctx.history[-1]
    if not r.lex.has(last.kind, "command") or sentence_of(pid) == ctx.sentence:
        return False
    words = ctx.texts.get(pid, "").partition(last.kind)[2]
    told = [c for s in subjects for c in r.lex.counterparts.get(s, ())]
    if not any(f"{c}{rl.word('all')}" in words for c in told):
        return False
    if not r.text.startswith(tuple(f"{s}{rl.word('all')}" for s in subjects)):
        return False
    more = Event("", modifier=True)
    more.set("say", (r.text,))
    r.events[:] = [more]
    ctx.agent = ctx.positive_agent = last.agent
    return True


@rule("helped-one")
def helped_one(r, subjects, rl) -> bool:
    """小臣正贊袒, 贊設決朱極三, 膳宰贊授肺: an act of help (rule assisting) is done for the
    one helped, implied (to=公?): the ruler if he acted just before, else the last other to
    act; helping one bare or cover his arm (贊袒, 贊襲) is 相, the baring his own act."""
    if not r.assisting or r.helped_named:
        return False
    done = False
    for event in r.events:
        if "to" in event.fields:
            continue
        helped = _helped(r, event, rl)
        if not helped:
            continue
        if event.kind in rl.words["bodily"]:
            event.kind = rl.word("as")
        event.set("to", helped, "?")
        done = True
    return done


def _helped(r, event: Event, rl: Rule) -> tuple[str, ...]:
    within, ruler = int(rl.word("within")), rl.word("ruler")
    if any(ruler in e.agent for _, e in r.ctx.history[-within:]):
        return (ruler,)
    return r.ctx.last_other(event.agent, within)


@rule("handed-to-ruler")
def handed_to_ruler(r, subjects, rl) -> bool:
    """記 君…袒朱襦以射。小臣以巾執矢以授: a handing over naming no one, when the last other
    person to act was the ruler, is to him (注: 君尊不搢矢，不挾矢，授之稍屬)."""
    if not set(rl.words["rulers"]) & r.ctx.parties:
        return False  # no ruler in the rite so far
    done = False
    for event in r.events:
        if event.kind not in rl.words["give"] or "to" in event.fields or not event.agent:
            continue
        if rl.word("empty") in r.text:
            continue  # 君卒爵，然後授虛爵: the empty cup goes to one who serves (注: 坐授人耳)
        if set(event.agent) & set(rl.words["rulers"]):
            continue
        last = r.ctx.last_other(event.agent)
        if len(last) == 1 and set(last) <= set(rl.words["rulers"]):
            event.set("to", last, "?")
            done = True
    return done


@rule("likewise-to")
def likewise_to(r, subjects, rl) -> bool:
    """主人戒賓…介亦如之: a person of the party a passage just before was done to, doing nothing
    but 如之, is the one it is done to next, by the same doer (注: 如戒賓也): 如 agent=主人^
    to=介; the passage is the last of the ``within`` before whose first act was done to one of
    his party by one of another; else he does it himself (賓于堂西亦如之)."""
    if len(r.events) != 1 or not subjects:
        return False
    event = r.events[0]
    if event.kind not in rl.words["act"] or event.fields.get("like") != (rl.word("it"),):
        return False

    def party(roles) -> set[str]:
        return {c for role in roles for c in r.lex.role_classes.get(role, ())}

    for head in _heads_of_passages_before(r, int(rl.word("within"))):
        done_to = head.fields.get("to", ())
        if not head.agent or not done_to or set(subjects) & set(done_to):
            continue
        if party(subjects) & party(done_to) and not party(subjects) & party(head.agent):
            event.set("agent", head.agent, "^")
            event.set("to", subjects)
            return True
    return False


def _heads_of_passages_before(r, within: int) -> list[Event]:
    """The first act of each of the ``within`` paragraphs before the clause's, latest first."""
    firsts: dict[str, Event] = {}
    for pid, earlier in reversed(r.ctx.history):
        paragraph = paragraph_of(pid)
        if paragraph == r.ctx.paragraph or earlier.modifier:
            continue
        if paragraph not in firsts and len(firsts) == within:
            break
        firsts[paragraph] = earlier  # reversed: the last one kept is the paragraph's first
    return list(firsts.values())


@rule("named-thing-there")
def named_thing_there(r, subjects, rl) -> bool:
    """應鼙在其東, 膳尊兩甒在南: a clause that ends saying where a thing is (在, a state of no
    one) names the thing before 在: the act words there are part of its name (應鼙, the
    answering drum; 膳尊, the ruler's vessels), no acts; what they took as their thing is the
    thing that is there (在 theme=甒)."""
    if len(r.events) < 2 or r.events[-1].kind != rl.word("act"):
        return False
    there = r.events[-1]
    if there.fields.get("noagent") != ("state",):
        return False
    things = [e.fields["theme"] for e in r.events[:-1] if e.fields.get("theme")]
    if things:
        there.set("theme", things[-1])
    r.events[:] = [there]
    return True


@rule("prompted-does")
def prompted_does(r, subjects, rl) -> bool:
    """小臣師詔揖諸公卿大夫 → 告 agent=小臣師 to=公? ; 揖 agent=公?: the act prompted (rule
    prompted) is the one told's, else no one named's; not the teller's, who only helps and is
    not carried on (…揖大夫: the 公 goes on)."""
    done = False
    for index, event in enumerate(r.events):
        if not event.fields.pop("_prompted", None) or index == 0:
            continue
        teller = r.events[index - 1]
        teller.fields["_aside"] = ("1",)  # he prompts, as a helper: the one carried goes on
        told = teller.fields.get("to", ())
        if told:
            event.set("agent", told, "?")
        else:
            event.no_doer()
        done = True
    return done


@rule("role-taken")
def role_taken(r, subjects, rl) -> bool:
    kept = [
        e
        for e in r.events
        if not (e.kind in rl.words["act"] and "role" not in e.fields and "to" not in e.fields)
    ]
    done, r.events = len(kept) != len(r.events), kept
    return done


@rule("ji-said-of")
def ji_said_of(r, subjects, rl) -> bool:
    """記 賓為苟敬，席于阼階之西，…不嚌肺，不啐酒: a 記 sentence that opens with who a person is
    (X為Y, 為 taking no role: no event) is about him: the acts of the sentence that name no one
    are his, carried (the 記 carries no one in from the sentence before)."""
    ctx = r.ctx
    if r.events or not subjects or not (ctx.new_sentence and ctx.rest_of_sentence):
        return False
    if not ctx.sentence.startswith(rl.word("part")) or rl.word("act") not in r.text:
        return False
    ctx.agent = ctx.positive_agent = subjects
    ctx.said_of = (subjects, ctx.sentence)
    return True


@rule("one-tally")
def one_tally(r, subjects, rl) -> bool:
    done = False
    for event in r.events:
        if event.kind in rl.words["act"] and event.get("theme") in rl.words["thing"]:
            event.kind, done = rl.word("kind"), True
    return done


@rule("sent-acts")
def sent_acts(r, subjects, rl) -> bool:
    """使人速: the one sent does what follows in the clause, and only that (the sender goes
    on), unless what he is sent to do is a round he carries through (使二人舉觶于賓介，洗，升，
    實觶: the two who lift the cups wash, go up and fill them)."""
    done = False
    for index, event in enumerate(r.events):
        if event.kind in rl.words["act"] and event.get("to"):
            for later in r.events[index + 1 :]:
                later.set("agent", event.fields["to"])
                if later.kind not in rl.words["goes-on"]:  # 使人相祭: a helper, then back
                    later.fields["_aside"] = ("1",)
                done = True
    return done


@rule("said-to")
def said_to(r, subjects, rl) -> bool:
    done = False
    for event in r.events:
        if event.kind not in rl.words["act"] or "to" in event.fields:
            continue
        for back, (pid, earlier) in enumerate(reversed(r.ctx.history[-3:])):
            if _unnamed_words_apart(r, event, pid, earlier):
                break
            offered = (  # 獻公，曰「臣敢奏爵以聽命」: said to the one he offers to, as he does
                (
                    r.lex.has(earlier.kind, "offering")
                    or earlier.kind in rl.words["presents"]
                    or not back
                )
                and sentence_of(pid) == r.ctx.sentence
                and earlier.agent == event.agent
            )  # 擯者延之，曰「升」: to the one he acts on just before, in the sentence
            if not ((r.is_a(earlier.kind, *rl.words["speech"]) or offered) and earlier.get("to")):
                if r.lex.has(earlier.kind, "answer") and "say" in earlier.fields:
                    break  # 曰…。對曰…。曰: an answer to no one known stands between
                continue
            if not set(earlier.fields["to"]) & set(event.agent):
                event.set("to", earlier.fields["to"], earlier.marks.get("to", ""))
            elif earlier.agent and not set(earlier.agent) & set(event.agent):
                event.set("to", earlier.agent, "?")  # 命樂正曰…。樂正曰諾: back to the speaker
            else:
                continue
            done = True
            break
    return done


def _unnamed_words_apart(r, event: Event, pid: str, earlier: Event) -> bool:
    """士虞禮 記 宗人詔降如初。始虞用柔日，曰：「哀子某…」: words no one is named saying (the
    記's prayers, 注: 祝辭) are no reply to a named speaker's words of another sentence: they
    take no recipient from them (rule said-to); nor are words the clause names as a formula of
    their own (士冠禮 醴辭曰…, rule named-words), whoever is carried over as their speaker."""
    unnamed = not event.agent or r.words_named
    return unnamed and bool(earlier.agent) and sentence_of(pid) != r.ctx.sentence


@rule("reciprocal-with")
def reciprocal_with(r, subjects, rl) -> bool:
    if not (
        len(subjects) == 2
        and r.joined_by in rl.words["with"]
        and any(r.lex.has(e.kind, "reciprocal") for e in r.events)
    ):
        return False
    for event in r.events:
        event.set("agent", subjects[:1])
        event.set("with", subjects[1:])
    return True


@rule("condition-topic")
def condition_topic(r, subjects, rl) -> bool:
    done = False
    for event in r.events if r.ctx.cond_topic else ():
        if r.lex.has(event.kind, "offering") and "to" not in event.fields:
            event.set("to", r.ctx.cond_topic, "?")
            done = True
    return done


@rule("person-pronoun")
def person_pronoun(r, subjects, rl) -> bool:
    """酬之, 送之: the person 之 stands for: one the clause named before it who is not its
    agent (主人就旅食之尊而獻之: the 士旅食者 whose jar it is), else the other party of the
    exchange."""
    event = r.person_pronoun
    if event is None or "to" in event.fields:
        return False
    topic = tuple(x for x in r.ctx.cond_topic if x not in event.agent)  # 若與賓燕，則公迎之
    if not topic:  # 射者有過，則撻之: the one the condition is about
        topic = tuple(x for x in _named_in_condition(r) if x not in event.agent)
    named = topic or _named_in_clause(r, event)
    if named:  # the one 之 stands for is in the text: not implied
        event.set("to", named)
        return True
    other = _just_called(r, event, rl) or r.other_party(event)
    if other:
        event.set("to", other, "?")
        return True
    return False


def _just_called(r: ClauseReader, event: Event, rl: Rule) -> tuple[str, ...]:
    """有司徹 乃升長賓。侑酬之: the one just called up (作, 升 a person: yl:takesRole … the
    last act, its person named), by another, is the one 之 stands for, not that caller."""
    if not r.ctx.history:
        return ()
    _, last = r.ctx.history[-1]
    to = last.fields.get("to", ())
    if last.kind not in rl.words["calls"] or not to or last.marks.get("to"):
        return ()
    return to if not set(to) & set(event.agent) else ()


def _named_in_clause(r: ClauseReader, event: Event) -> tuple[str, ...]:
    """The persons the clause names before ``event``'s verb, other than its agent."""
    text = r.ctx.clause_text
    head = text[: text.rfind(event.kind)] if event.kind in text else ""
    tokens = tokenize(head, r.lex)
    first = next((i for i, t in enumerate(tokens) if t.of("action")), len(tokens))
    roles = [t.of("role") for t in tokens[first:] if t.of("role")]  # 士三人坐取…: not 人
    return tuple(dict.fromkeys(x for x in roles if x and x not in event.agent))


@rule("takes-role")
def takes_role(r, subjects, rl) -> bool:
    done = False
    for event in r.events:
        if event.kind in rl.words["act"] and "to" in event.fields:
            event.set("role", event.fields.pop("to"))
            event.marks.pop("to", None)
            done = True
    return done


@rule("called-to-role")
def called_to_role(r, subjects, rl) -> bool:
    done = False
    for index, event in enumerate(r.events):
        if event.kind in rl.words["act"] and index and r.events[index - 1].kind in rl.words["call"]:
            called = r.events[index - 1].fields.get("to")
            if called:
                event.set("agent", called)
                done = True
    return done


def _among_themselves(r: ClauseReader, event: Event, rl: Rule) -> bool:
    """辯旅，皆不拜: all (皆) of those the pledge just went round (旅酬, their last act) act among
    themselves (注: 主人之贊者於此始旅，嫌有拜): no one of them the other party."""
    last = r.ctx.last_act()
    return (
        r.all_
        and last is not None
        and last[1].kind in rl.words["round"]
        and last[1].agent == event.agent
    )


def _mutual(r: ClauseReader, event: Event) -> bool:
    """A salute of several together (賓、主人、大夫揖; 上耦揖進) has no recipient."""
    return r.lex.has(event.kind, "mutualAmongMany") and (
        len(event.agent) > 1
        or "with" in event.fields
        or any(r.lex.has(a, "collective") for a in event.agent)
    )


@rule("homage-to-ruler")
def homage_to_ruler(r, subjects, rl) -> bool:
    """再拜稽首 by a subject, in a rite with a ruler, is to the ruler (稽首 is yl:toRuler): to
    the 公, not to the 射人, 小臣 or 大夫 who spoke his command; the 再拜 just before it with it.
    So is a bow made below the hall, just after going down in its clause (降拜, 下拜): not to the
    one who last took a cup from him (若飲公，則侍射者降…降拜: not the 執爵者). The ruler is the
    first ruler to act in the rite (覲禮 天子; 燕禮 公), before any has acted the one the rite's
    title names (公食大夫之禮 公: 大夫…將命。賓再拜稽首, 注: 受命, the lord's command his envoy
    brings), or where none of them is there, the one ruler who is (士相見禮 君)."""
    if not any(r.lex.has(e.kind, "toRuler") or e.kind == rl.word("bow") for e in r.events):
        return False  # (the clause first: the ruler of the rite is looked for after)
    ruler = rite_ruler(r.ctx, rl.words["ruler"]) or next(iter(r.ctx.title_rulers), None)
    if ruler is None:
        rulers = sorted(p for p in r.ctx.parties if r.all_of((p,), YL.Ruler))
        if len(rulers) != 1:
            return False
        ruler = rulers[0]
    if _host_instead(r, ruler, rl):
        return False
    done = False
    for index, event in enumerate(r.events):
        if ruler in event.agent or not (event.agent or event.get("noagent") == "unstated"):
            continue  # (若君賜之爵，則下席，再拜稽首: the one fed, no term, to the 君)
        if not (r.lex.has(event.kind, "toRuler") or _bow_below(r, index, rl)):
            continue
        before = r.events[index - 1] if index else (r.ctx.history[-1][1] if r.ctx.history else None)
        for bow in (event, before):
            if bow is None or bow.agent != event.agent or not r.is_a(bow.kind, rl.word("bow")):
                continue
            if bow.open_to_guess("to"):
                done = True  # (also where an earlier rule found the ruler: 升聽命，降拜)
                bow.set("to", ruler, "?")
    return done


def _host_instead(r: ClauseReader, ruler: str, rl: Rule) -> bool:
    """公食大夫禮 大夫相食 … 主人從。受侑幣，再拜稽首 (疏: 以食禮相尊敬，雖敵亦稽首): where the
    ruler, who acted in the rite, has not acted nor been addressed within the last acts while
    the host (主人) did in the last few, the homage goes to the other party, not the ruler (not
    聘禮 …主人曰…。卿致命。賓再拜稽首: the 主人 long before, the lord's command delivered)."""
    recent = r.ctx.history[-int(rl.word("away")) :]
    if not any(ruler in e.agent for _, e in r.ctx.history):
        return False  # (before he acts: the ruler the title names)
    if any(ruler in e.agent or ruler in e.fields.get("to", ()) for _, e in recent):
        return False
    near = r.ctx.history[-int(rl.word("near")) :]
    return any(rl.word("host") in e.agent for _, e in near)


def _bow_below(r: ClauseReader, index: int, rl: Rule) -> bool:
    """降拜, 下拜: a bow just after going down, by the same one, in one clause, while the ruler
    is at hand: he acted or was addressed in the last acts, or the sentence names him (若飲公)."""
    event = r.events[index]
    if not index or event.kind != rl.word("bow"):
        return False
    down = r.events[index - 1]
    if down.kind != rl.word("down") or down.agent != event.agent:
        return False
    ruler = rite_ruler(r.ctx, rl.words["ruler"])
    recent = r.ctx.history[-int(rl.word("within")) :]
    if any(ruler in e.agent or ruler in e.fields.get("to", ()) for _, e in recent):
        return True
    return any(ruler == tok.of("role") for tok in tokenize(r.ctx.sentence_read(), r.lex))


@rule("completed-bow-to")
def completed_bow_to(r, subjects, rl) -> bool:
    """升成拜: the bow begun below and completed on the hall goes to the one the bow it
    completes went to (the bower's last bow within the last acts: 覲禮 侯氏…再拜稽首 … 升成拜 →
    to=天子?), not to the usher who led him up nor the officer who declined it."""
    if rl.word("complete") not in r.ctx.clause_text:
        return False
    done = False
    for event in r.events:
        if not r.is_a(event.kind, rl.word("bow")) or not event.open_to_guess("to"):
            continue
        for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
            if earlier.agent == event.agent and r.is_a(earlier.kind, rl.word("bow")):
                if earlier.fields.get("to") and earlier.get("to") != event.get("to"):
                    event.set("to", earlier.fields["to"], "?")
                    done = True
                break
    return done


@rule("errand-to-guest")
def errand_to_guest(r, subjects, rl) -> bool:
    """天子使大夫戒: an errand (yl:errandToGuest: to invite, welcome, present, give back) done by
    the one sent, naming no one, is done to the one the sender (named in the clause) last dealt
    with, else to the guest last named (注: 戒猶告也); a carried sender is not trusted."""
    done = False
    for index, event in enumerate(r.events):
        if not r.lex.has(event.kind, "errandToGuest") or not event.open_to_guess("to"):
            continue
        senders = [
            e.agent
            for e in r.events[:index]
            if e.kind in rl.words["send"] and e.fields.get("to") == event.agent and e.agent
        ]
        if not senders:
            continue
        if r.events[0].marks.get("agent"):  # the sender carried or implied: not trusted
            found = _paragraph_guest(r, set(event.agent))
        else:
            found = _sender_counterpart(r, set(senders[-1]), set(event.agent))
        found = found or _guest_next(r, set(senders[-1]) | set(event.agent))
        if found:
            done = done or event.fields.get("to") != (found,)
            event.set("to", (found,), "?")
    return done


def _guest_next(r: ClauseReader, parties: set[str]) -> str | None:
    """覲禮 王使人皮弁用璧勞。侯氏亦皮弁迎于帷門之外: with no guest before, the first guest
    (yl:Guest) the next sentence of the paragraph names, neither the sender nor the one sent."""
    guest = r.lex.label(YL.Guest)
    for token in tokenize(r.ctx.next_sentence_text, r.lex):
        p = token.of("role")
        if p and p not in parties and guest in r.lex.role_classes.get(p, ()):
            return p
    return None


def _guest_among(r: ClauseReader, acts, not_these: set[str]) -> str | None:
    """The first guest (yl:Guest) to act or be addressed in ``acts`` ((id, event), nearest
    first), not one of ``not_these``."""
    guest = r.lex.label(YL.Guest)
    for _, earlier in acts:
        for p in (*earlier.agent, *earlier.fields.get("to", ())):
            if p not in not_these and guest in r.lex.role_classes.get(p, ()):
                return p
    return None


def _paragraph_guest(r: ClauseReader, sent: set[str]) -> str | None:
    """使擯者還其贄 with the sender not written: the last guest (yl:Guest) to act or be
    addressed in the clause's paragraph, not the one sent; none there, no one."""
    here = takewhile(lambda act: paragraph_of(act[0]) == r.ctx.paragraph, reversed(r.ctx.history))
    return _guest_among(r, here, sent)


def _sender_counterpart(r: ClauseReader, sender: set[str], sent: set[str]) -> str | None:
    """The one the sender last dealt with (acted to, or was acted to by), else the last guest
    (yl:Guest) to act or be addressed: neither the sender nor the one sent."""
    guest = r.lex.label(YL.Guest)
    for _, earlier in reversed(r.ctx.history):
        to = set(earlier.fields.get("to", ()))
        party = to if sender & set(earlier.agent) else set(earlier.agent) if sender & to else set()
        if found := sorted(party - sender - sent):
            return found[0]
    for _, earlier in reversed(r.ctx.history):
        for p in (*earlier.agent, *earlier.fields.get("to", ())):
            if p not in sender | sent and guest in r.lex.role_classes.get(p, ()):
                return p
    return None


@rule("guest-invited")
def guest_invited(r, subjects, rl) -> bool:
    """鄉，朝服而謀賓介，皆使能，不宿戒 / 大夫相食，親戒速 / 天子賜舍: an invitation, summons or
    gift to the guest (yl:invitesGuest: 戒, 宿, 速, 賜), by one named or carried and naming no
    one, is to the guests (yl:Guest) the sentence named before the clause, neither its doer nor
    those he employs (使能), else to the last guest to act or be addressed within the last acts,
    in an act not denied (無介), not its doer; not in a clause ending with 者, which names
    persons by what they did (覲禮 諸公賜服者), nor one whose act has its person in 之 or 諸 (士昏禮
    記 父西面戒之: the daughter) or is a noun after 之 (士喪禮 棺中之賜), nor an errand of one
    sent (使人速: rule errand-to-guest)."""
    text = r.ctx.clause_text
    if text.endswith(rl.word("who")) or any(e.kind in rl.words["send"] for e in r.events):
        return False
    done = False
    for event in r.events:
        if not r.lex.has(event.kind, "invitesGuest") or "to" in event.fields:
            continue
        unstated = event.get("noagent") == "unstated" and r.ctx.new_sentence
        unstated = unstated and event.kind in rl.words["invite"]  # (聘禮 記 賜饔: no act told)
        if not (event.agent or unstated):
            continue  # 公食大夫禮 記 不宿戒 (its own sentence): by no one named, to the 賓
        if (
            any(event.kind + it in text for it in rl.words["it"])
            or rl.word("of") + event.kind in text
        ):
            continue  # 戒之: the person is 之; 棺中之賜: a thing given, no act
        doer = set(event.agent)
        found = _sentence_guests(r, doer, rl) or _last_guest_party(r, doer, rl)
        if found:
            event.set("to", found, "?")
            done = True
    return done


def _sentence_guests(r: ClauseReader, doer: set[str], rl: Rule) -> tuple[str, ...]:
    """The guests (yl:Guest) the sentence names before the clause being read, neither ``doer``
    nor one sent or employed (使X) in it."""
    guest = r.lex.label(YL.Guest)
    before = r.ctx.sentence_read()[: -len(r.ctx.clause_text) or None]
    sent = {
        p
        for pid, e in r.ctx.history
        if sentence_of(pid) == r.ctx.sentence and e.kind in rl.words["send"]
        for p in e.fields.get("to", ())
    }
    found = (t.of("role") for t in tokenize(before, r.lex))
    return tuple(
        dict.fromkeys(
            p
            for p in found
            if p and p not in doer | sent and guest in r.lex.role_classes.get(p, ())
        )
    )


def _last_guest_party(r: ClauseReader, doer: set[str], rl: Rule) -> tuple[str, ...]:
    """The last guest (yl:Guest) to act or be addressed within the last acts, in an act not
    denied, not ``doer``."""
    recent = reversed(r.ctx.history[-int(rl.word("within")) :])
    found = _guest_among(r, ((p, e) for p, e in recent if e.get("neg") != "1"), doer)
    return (found,) if found else ()


@rule("thanks-to-host")
def thanks_to_host(r, subjects, rl) -> bool:
    """明日，賓朝服拜賜于朝: the bow of thanks for the feast or gift (拜賜), naming no one, is
    to the host of the rite who gave it: the first of the ruler and the 主人 to act in it (the
    公 of 公食大夫禮, the 主人 of 鄉飲酒禮), not the officer who brought the gift last; acting as
    the text names him (a 主人? a 注 gives the 公's officers, 即位 注: 主人也, is not)."""
    hosts = rl.words["hosts"]
    named = (e for _, e in r.ctx.history if e.marks.get("agent") != "?")
    host = next((p for e in named for p in e.agent if p in hosts), None)
    done = False
    for event in r.events if host else ():
        gift = event.kind in rl.words["bow"] and set(event.fields.get("theme", ())) & set(
            rl.words["gifts"]
        )  # 拜食與侑幣: the bow for the meal and the gift is a thanks too
        if not (event.kind in rl.words["thanks"] or gift) or not event.open_to_guess("to"):
            continue
        if host in event.agent or event.fields.get("to") == (host,):
            continue
        event.set("to", (host,), "?")
        done = True
    return done


@rule("to-the-ruler")
def to_the_ruler(r, subjects, rl) -> bool:
    """小臣又請媵爵者, 射人告具, 司正升受命: in a rite with a ruler, a request, report, command
    taken or returned, or cup presented (yl:addressesRuler) by one of his subjects naming no one
    is addressed to the 公, not to the other party of the last exchange."""
    ruler = rite_ruler(r.ctx, rl.words["ruler"])
    if ruler is None or _host_before_ruler(r, rl):
        return False
    done = False
    for event in r.events:
        if not r.lex.has(event.kind, "addressesRuler") or set(event.agent) & set(
            rl.words["rulers"]
        ):
            continue  # 君曰無不醉: the ruler's own words
        if event.get("neg") == "1" or not event.open_to_guess("to"):
            continue
        told = () if r.events.index(event) else told_just_before(r.ctx, event, rl.words["reports"])
        told = told or _usher_goes_in_next(r, event, rl)
        if told:  # 賓告于擯者，請旅諸臣: what he says to the 擯者, who reports to the 公
            done = True  # (kept from the ruler)
            event.set("to", told, "?")
            continue
        done = done or event.get("to") != ruler
        event.set("to", ruler, "?")
    return done


def _host_before_ruler(r, rl: Rule) -> bool:
    """Whether the 主人 acted in the rite, named, before any ruler did (既夕禮: the mourner's
    rite, the 公 only sending his gift): the ruler is not the one addressed there."""
    named = (e for _, e in r.ctx.history if e.marks.get("agent") != "?")
    hosts = (*rl.words["rulers"], rl.word("host"))
    return next((p for e in named for p in e.agent if p in hosts), None) == rl.word("host")


@rule("usher-tells-guest")
def usher_tells_guest(r, subjects, rl) -> bool:
    """覲禮 侯氏…再拜稽首。擯者謁 (注: 謁猶告也。上擯告以天子前辭): the usher carries the words
    between the ruler or host inside and the guest: his report naming no one, not going in
    (入告: to the ruler, rule to-the-ruler), is to the guest (yl:Guest) when he goes out to tell
    it (出告須) or when the guest acted just before: the ruler's word brought to him (to=侯氏?);
    a bare report (擯者告, the whole clause) is to the one who acts next under his own name
    (士冠禮 擯者告。主人迎 → to=主人?: the host told the guest is there comes out to meet him)."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["report"] or not set(event.agent) & set(rl.words["usher"]):
            continue
        named = not event.open_to_guess("to")
        if named or any(e.kind in rl.words["in"] for e in r.events):
            continue  # 擯者謁諸天子: to the one named; 入告: to the ruler
        told = _acts_next(r, event)
        if told:  # 擯者告。主人迎: the one he told comes out to meet the guest
            event.set("to", told, "?")
            done = True
            continue
        out = any(e.kind in rl.words["out"] for e in r.events) or (
            bool(r.ctx.history)
            and r.ctx.history[-1][1].kind in rl.words["out"]
            and r.ctx.history[-1][1].agent == event.agent
        )
        guest = _last_guest(r, int(rl.word("within")), only_last=not out)
        if guest and event.get("to") not in guest:
            event.set("to", guest, "?")
            done = True
    return done


@rule("usher-asks-outside")
def usher_asks_outside(r, subjects, rl) -> bool:
    """士昏禮 賓出。擯者出請 (注: 不必賓之事有無); 既夕禮 賓賵者將命…擯者出請: the usher who goes
    out to ask (出請), naming no one, asks the guest (yl:Guest) outside, the last to act, whose
    business he will report inside; not the host he serves, nor a ruler (rule to-the-ruler).
    Out or not, the one he asks is the guest who answers or comes forward in the next clause
    (聘禮 擯者請受。賓禮辭 → to=賓?; 擯者出請。上介奉束錦 → to=上介?), not the one who comes out
    to welcome him (擯者出請事。大夫朝服迎于外門外)."""
    out = any(e.kind == rl.word("out") for e in r.events)
    answering = _guest_answering(r, rl)
    if not out and not answering:
        return False
    done = False
    for event in r.events:
        if event.kind != rl.word("ask") or not set(event.agent) & set(rl.words["usher"]):
            continue
        if not event.open_to_guess("to"):
            continue
        within = int(rl.word("within"))
        guest = (
            answering or _last_gone_out(r, within, rl.word("out")) or _last_guest(r, within, False)
        )
        if guest and event.fields.get("to") != guest:
            event.set("to", guest, "?")
            done = True
    return done


@rule("usher-goes-in")
def usher_goes_in(r, subjects, rl) -> bool:
    """士昏禮 擯者出請事，入告: the usher who goes in to report carries the guest's words to the
    one inside he serves, where no ruler is (rule to-the-ruler) the host, implied (to=主人?),
    not the guest who spoke last; so too where the 主人 acted in the rite before any ruler did
    (既夕禮 公賵玄纁束，馬兩。擯者出請，入告: a ruler named only as sending a gift is not the one
    the usher serves)."""
    host = rl.word("host")
    if set(rl.words["rulers"]) & r.ctx.parties and not _host_before_ruler(r, rl):
        return False
    if not any(e.kind in rl.words["in"] for e in r.events):
        return False
    reports = (
        e
        for e in r.events
        if e.kind in rl.words["report"]
        # (入告: the usher carried)
        and set(e.agent or tuple(subjects) or r.ctx.agent) & set(rl.words["usher"])
    )
    return _imply_recipient(reports, host)


@rule("message-to-host")
def message_to_host(r, subjects, rl) -> bool:
    """士昏禮 賓升西階，當阿，東面致命; 凡使者歸，反命: a message delivered or a report brought
    back naming no one, where no ruler is (rule to-the-ruler), is to the host (to=主人?), whose
    house the messenger comes to or who sent him (疏: 賓堂上致命)."""
    host = rl.word("host")
    if set(rl.words["rulers"]) & r.ctx.parties or host not in r.ctx.parties:
        return False
    messages = (e for e in r.events if e.kind in rl.words["acts"] and host not in e.agent)
    return _imply_recipient(messages, host)


def _imply_recipient(events, who: str | tuple[str, ...]) -> bool:
    """Give each event that names no recipient (or only an implied one) ``who`` (one person or
    several), implied; True if any reading changed."""
    party = (who,) if isinstance(who, str) else tuple(who)
    done = False
    for event in events:
        if not event.open_to_guess("to"):
            continue  # named
        if event.fields.get("to") != party:
            event.set("to", party, "?")
            done = True
    return done


def _last_guest(r, within: int, only_last: bool, not_by: tuple = (), only=None) -> tuple[str, ...]:
    """The guest (yl:Guest) who acted last, within the last acts (only the very last act's
    doer when ``only_last``); not one only named to an office (聘禮 卿為上擯…士為紹擯;
    下大夫擯: the host's ushers, not the guest outside), nor ``not_by``; of the acts ``only``
    accepts, when given."""
    for _, earlier in reversed(r.ctx.history[-(1 if only_last else within) :]):
        if "role" in earlier.fields or set(earlier.agent) & set(not_by):
            continue
        if only is not None and not only(earlier):
            continue
        if earlier.agent and r.all_of(earlier.agent, YL.Guest):
            return tuple(earlier.agent)
    return ()


@rule("zhu-names-party")
def zhu_names_party(r, subjects, rl) -> bool:
    """注 K拜X (再拜，拜賓許也; 再拜稽首，拜君命也; 拜君樂…): the bow K of the clause is made to X,
    whatever the clause before suggests. Only an implied recipient is replaced, never a named
    one; 君 in the 注 is the ruler the text calls 公."""
    done = False
    for kinds, party in _bows_named(r, rl):
        party = rl.word("as") if party in rl.words["ruler"] else party
        for event in r.events:
            named = not event.open_to_guess("to")
            if named or party in event.agent or not r.lex.has(event.kind, "impliedRecipient"):
                continue
            if kinds and event.kind not in kinds:
                continue
            if not kinds and (
                not r.is_a(event.kind, rl.word("bow")) or r.lex.has(event.kind, "answer")
            ):
                continue
            event.set("to", party, "?")
            done = True
    return done


@rule("addressee-of-rule")
def addressee_of_rule(r, subjects, rl) -> bool:
    """凡自稱于君，士大夫則曰下臣: a paragraph that opens with a rule of conduct toward someone
    (凡 + act + 于 + ROLE) names the one its words, requests and reports naming no one are
    addressed to (凡侍坐于君子…以食具告 → to=君子?), unless he speaks them himself."""
    speech = [
        e for e in r.events if e.kind in rl.words["says"] or r.is_a(e.kind, rl.word("speech"))
    ]
    if not speech:
        return False
    first = r.ctx.openings.get(r.ctx.paragraph, "")
    if not first.startswith(rl.word("every")) or first == r.ctx.clause_text:
        return False
    tokens = tokenize(first, r.lex)
    addressee = next(
        (
            b.of("role")
            for a, b in zip(tokens, tokens[1:], strict=False)
            if a.text in rl.words["to"] and b.of("role")
        ),
        None,
    )
    done = False
    for event in speech if addressee else ():
        if event.agent == (addressee,) and event.marks.get("agent") == "^":
            if not r.lex.has(event.kind, "contentFollows"):
                continue  # 君子…問日之早晏: he asks, carried
            event.unset("agent")  # 以食具告, 請退: the one serving him reports, asks
            event.unset("to")
            event.fields["noagent"] = ("unstated",)
        if not event.open_to_guess("to") or addressee in event.agent:
            continue
        done = done or event.fields.get("to") != (addressee,)
        event.set("to", (addressee,), "?")
    return done


@rule("zhu-names-other")
def zhu_names_other(r, subjects, rl) -> bool:
    """小樂正從之 (注: 從大師也), 一小射正授弓 (注: 授弓當授大射正): a 注 that writes the clause's
    act with a person right after it names the other party of that act, when the clause names
    none (or only by guess); not a bow (rule zhu-names-party), nor a command (rule
    zhu-names-commanded), nor the doer himself, nor anyone (授人綏, a saying), nor the first
    of those who do it (序從主人以下); 君 in the 注 is the 公 of the text. 相 (leading a musician)
    only where the 注 opens with it, every role after it (後者徒相入, 注: 謂相大師少師者也; not 燕禮
    注 …後二人徒相天子大僕二人也, the officers who lead in the king's court)."""
    if not r.ctx.notes:
        return False
    roles = _role_names(r)
    done = False
    for event in r.events:
        if not event.open_to_guess("to"):
            continue
        if not event.agent or event.kind in r.lex.frames["command"]:
            continue
        if r.is_a(event.kind, rl.word("bow")) or event.kind not in rl.words["acts"]:
            continue
        for note in r.ctx.notes:
            head = f"^{rl.word('means')}?" if event.kind in rl.words["opening"] else ""
            act = f"{head}{re.escape(event.kind)}"
            found = re.search(f"{act}((?:{roles})+)(?!{rl.word('below')})", note)
            if not found or found.group(1) in rl.words["anyone"]:
                continue
            # 謂相大師少師者也: every role of the run after the act
            names = re.findall(roles, found.group(1))
            party = tuple(
                dict.fromkeys(
                    rl.word("as") if p in rl.words["ruler"] else p
                    for p in (r.lex.forms["role"][n] for n in names)
                )
            )
            if not set(party) & set(event.agent):
                event.set("to", party, "?")
                done = True
            break
    return done


@rule("zhu-names-served")
def zhu_names_served(r, subjects, rl) -> bool:
    """設席于堂廉 (注: 為工布席也), 又尊于大侯之乏東北 (注: 為隸僕人巾車糝侯豻侯之獲者): a 注 that
    opens with 為 (for) names whom the thing set out is for: the person of the 之 phrase after it
    (the 獲者 of those targets), or else the person right after 為; for an act of setting out
    (yl:unstatedAgent) that names no one it is for (or only by guess)."""
    notes = r.ctx.notes
    if not notes or not notes[0].startswith(rl.word("for")):
        return False
    roles = _role_names(r)
    head = notes[0][: int(rl.word("within"))]
    found = re.search(f"{re.escape(rl.word('of'))}({roles})", head) or re.match(
        f"{re.escape(rl.word('for'))}({roles})", head
    )
    if not found:
        return False
    served = r.lex.forms["role"][found.group(1)]
    done = False
    for event in _settings_open_to_whom(r):
        event.set("to", (served,), "?")
        done = True
    return done


def _settings_open_to_whom(r) -> list[Event]:
    """The clause's acts of setting out (yl:unstatedAgent) that name no one they are for (or
    only by guess): those a 注 naming whom they serve may still give a recipient."""
    return [
        e
        for e in r.events
        if not e.modifier and r.lex.has(e.kind, "unstatedAgent") and e.open_to_guess("to")
    ]


@rule("zhu-glosses-for-whom")
def zhu_glosses_for_whom(r, subjects, rl) -> bool:
    """士昏禮 主人筵于户西 (注: 主人，女父也。筵，為神布席也): a 注 glossing the word of the
    clause's act of setting out as done for someone (筵，為神布席) names whom it is for, for that
    act naming no one it is for (or only by guess)."""
    if not r.ctx.notes:
        return False
    text = r.ctx.clause_text
    done = False
    for event in _settings_open_to_whom(r):
        words = "|".join(re.escape(w) for w in rl.words["words"] if w in text)
        found = words and re.search(
            f"(?:{words}){re.escape(rl.word('for'))}({_role_names(r)})", r.ctx.notes[0]
        )
        if found:
            event.set("to", (r.lex.forms["role"][found.group(1)],), "?")
            done = True
    return done


@rule("zhu-names-commanded")
def zhu_names_commanded(r, subjects, rl) -> bool:
    """司射命射 (注: 司射命賓及諸公卿大夫射): a 注 that opens restating the clause's command, its
    subject and the verb, and then names persons (joined by 及, 與 or nothing) names those
    commanded, for a command of the clause that names no one (or only by guess)."""
    commands = [
        e
        for e in r.events
        if e.kind in r.lex.frames["command"] and e.agent and e.open_to_guess("to")
    ]
    if not commands or not r.ctx.notes:
        return False
    roles, joins = _role_names(r), "|".join(map(re.escape, rl.words["and"]))
    note = r.ctx.notes[0]
    done = False
    for event in commands:
        head = "|".join(map(re.escape, event.agent))
        found = re.match(f"^(?:{head}){re.escape(event.kind)}((?:(?:{joins})?(?:{roles}))+)", note)
        if not found:
            continue
        named = re.findall(roles, found.group(1))
        event.set("to", tuple(dict.fromkeys(r.lex.forms["role"][n] for n in named)), "?")
        done = True
    return done


def _role_names(r: ClauseReader) -> str:
    """Every name of a role, longest first, as one regular-expression alternation (for the
    rules that find roles in the 注 or the clause's words: zhu-names-party, zhu-names-speaker,
    received-from); made once a lexicon, not on every clause (keyed as tokens._forms_index)."""
    names = r.lex.forms["role"]
    cached = _ROLE_NAMES.get(id(names))
    if cached is None or cached[0] is not names:
        cached = (names, "|".join(map(re.escape, sorted(names, key=len, reverse=True))))
        _ROLE_NAMES[id(names)] = cached
    return cached[1]


_ROLE_NAMES: dict[int, tuple[dict, str]] = {}  # id of a lexicon's role forms → its alternation


def _bows_named(r: ClauseReader, rl: Rule):
    """(bow kinds, role) for every K拜X of the clause's 注: K the bows explained (再拜稽首 → 再拜,
    稽首), none when the 注 begins 拜X (every bow of the clause that is not an answer)."""
    roles = _role_names(r)
    kinds = "|".join(map(re.escape, rl.words["kinds"]))
    bows = "|".join(map(re.escape, rl.words["bow"]))  # 拜, and the salute 揖 (揖，揖賓也)
    pattern = re.compile(f"((?:{kinds})*)(?:{bows})({roles})")
    for note in r.ctx.notes:
        for match in pattern.finditer(note):
            head = re.findall(kinds, match.group(1))
            if head or match.start() == 0:
                yield tuple(head), r.lex.forms["role"][match.group(2)]


@rule("zhu-names-someone")
def zhu_names_someone(r, subjects, rl) -> bool:
    """士昏禮 授人脯 (注: 人，謂使者從者), 授人 (注: 人，有司): a 注 that opens glossing 人 with a
    role says who that someone is: the one handed to, 人, is that role (with an attendant after
    it, his: 使者從者, the messenger's attendants)."""
    someone = rl.word("someone")
    if not r.ctx.notes or not r.ctx.notes[0].startswith(someone):
        return False
    if not any(e.kind in rl.words["hand"] for e in r.events):
        return False
    names = _role_names(r)
    found = re.match(f"^{someone}，?(?:{rl.word('means')})?((?:{names})+)", r.ctx.notes[0])
    if not found:
        return False
    run = [r.lex.forms["role"][n] for n in re.findall(names, found.group(1))]
    role = run[0] if run else None
    for after in run[1:]:  # 使者從者: the messenger's attendants; 有司。姑執笲: a new sentence
        if not r.all_of((after,), YL.Attendant):
            break
        role = after
    if not role or role == someone:
        return False
    done = False
    for event in r.events:
        if event.fields.get("to") == (someone,):
            event.set("to", (role,), event.marks.get("to", ""))
            done = True
    return done


@rule("zhu-names-doer")
def zhu_names_doer(r, subjects, rl) -> bool:
    """公食大夫禮 即位 (注: 主人也); 大射儀 坐授瑟，乃降 (注: 相者也): a 注 that opens with a role
    and 也, glossing a clause that names no one, says who does its acts, not the one carried
    over."""
    one = r.text.startswith(rl.word("one"))  # 一人拜受爵 (注: 謂大師也): which one
    if (r.subjects and not one) or not r.ctx.notes:
        return False
    said = f"(?:{re.escape(rl.word('means'))})?" if one else ""
    found = re.match(f"^{said}({_role_names(r)}){re.escape(rl.word('end'))}", r.ctx.notes[0])
    if not found:
        return False
    doer = (r.lex.forms["role"][found.group(1)],)
    done = False
    for event in r.events:
        if r.lex.has(event.kind, "state") or (
            event.agent and not event.marks.get("agent") and not one
        ):
            continue
        event.fields.pop("noagent", None)
        event.set("agent", doer, "" if one else "?")
        done = True
    return done


@rule("ruler-spoken-for")
def ruler_spoken_for(r, subjects, rl) -> bool:
    """公食大夫禮 擯者辭…公降一等。辭曰「寡君從子，雖將拜，興也」: words that name 寡君 (our
    ruler) are not the ruler's own: when the ruler is only carried over to them, the usher who
    speaks for him (擯者) says them (疏: 公降，擯者釋辭矣), implied."""
    if subjects:
        return False
    done = False
    for event in r.events:
        said = "".join(event.fields.get("say", ()))
        if rl.word("our-ruler") not in said or not event.agent or event.marks.get("agent") != "^":
            continue
        if not r.all_of(event.agent, YL.Ruler):
            continue
        event.set("agent", (rl.word("usher"),), "?")
        done = True
    return done


@rule("zhu-names-speaker")
def zhu_names_speaker(r, subjects, rl) -> bool:
    """注 君使人戒客辭也 / 上介出答主國使者辭也: the 注 opening with the one who says the words
    (one sent: 使X; or X (出) 答, 戒, 告, 請, 致, 辭, 拜) names the speaker of words whose
    clause names none (not the 公 carried over)."""
    if r.subjects or not r.ctx.notes or (subjects and r.ctx.pending_sentence == r.ctx.sentence):
        return False  # (a subject left by a clause of another sentence, 公與客燕, is not named)
    if not any("say" in event.fields for event in r.events):
        return False
    roles = _role_names(r)
    acts = "|".join(map(re.escape, rl.words["acts"]))
    sent, out = rl.word("sent"), rl.word("out")
    note = r.ctx.notes[0]
    this = re.escape(rl.word("this"))  # 此使者致館辭: 'these are the envoy's words'
    found = re.match(f"^(?:{this})?(?:{roles})?(?:{sent})?({roles})(?:{out})?(?:{acts})", note)
    if rl.word("words-of") not in note.split(rl.word("end"))[0] + rl.word("end"):
        found = None  # the 注's formula X…辭也 ('these are X's words') in its first gloss
    bow = rl.word("bow")  # 從使者拜君之賜命: X拜Y anywhere in it, for words said bowing
    bowed = re.search(f"({roles}){re.escape(bow)}({roles})", note)
    done = False
    for event in r.events:
        if "say" not in event.fields:
            continue
        if bowed and r.is_a(event.kind, bow):
            speaker, to = (r.lex.forms["role"][g] for g in bowed.groups())
            event.set("to", (rl.word("as") if to in rl.words["ruler"] else to,), "?")
        elif found:
            speaker = r.lex.forms["role"][found.group(1)]
        else:
            continue
        if event.agent != (speaker,):
            event.fields.pop("noagent", None)
            event.set("agent", (speaker,), "?")
            done = True
    return done


@rule("received-from")
def received_from(r, subjects, rl) -> bool:
    """唯受爵于公者拜: the bow of one named as having received from X (受…于X者) is to X, the
    giver his name says (注: 公所賜者也), not the officer he just handed the cup to."""
    text = r.ctx.clause_text
    recv, yu, zhe = (rl.word(k) for k in ("receive", "yu", "zhe"))
    if recv not in text or not any(r.is_a(e.kind, rl.word("bow")) for e in r.events):
        return False
    roles = _role_names(r)
    found = re.search(f"{recv}[^{yu}]{{0,2}}{yu}({roles}){zhe}", text)
    if not found:
        return False
    giver = r.lex.forms["role"][found.group(1)]
    done = False
    for event in r.events:
        implied = event.open_to_guess("to")
        if implied and r.is_a(event.kind, rl.word("bow")) and giver not in event.agent:
            event.set("to", (giver,), "?")
            done = True
    return done


@rule("bow-to-offerer")
def bow_to_offerer(r, subjects, rl) -> bool:
    """A bow, or the praise of the wine, by one drinking the cup, after he made its offering,
    tasted or drained it, is to the one who offered it (公…立卒爵，坐奠爵，拜; 賓…啐酒，降席，
    坐奠爵，拜，告旨: to the 主人 who offered, not to the 膳宰 who set the dishes or handed the
    lung in between)."""
    done = False
    for event in r.events:
        if "to" in event.fields or not event.agent or r.lex.has(event.kind, "answer"):
            continue
        if not (r.is_a(event.kind, rl.word("bow")) or event.kind in rl.words["praise"]):
            continue
        receives = event.kind in rl.words["receive"] or _receives_next(r, rl)
        if not receives and not _drained(r, event.agent, rl):
            continue
        offerer = (
            _addressed_by(r, event.agent, rl)
            if receives
            else _offerer_of(r, event.agent, rl.words["pledges"])
        )
        if not offerer and not receives:
            offerer = _received_from(r, event.agent, rl)
        if offerer:
            event.set("to", offerer, "?")
            done = True
    return done


def _receives_next(r: ClauseReader, rl: Rule) -> bool:
    """衆賓皆不拜，受爵: a bow (made or not) just before the bower receives the cup, the next
    clause of its sentence, is the bow on receiving it (注: 自第四以下又不拜受爵)."""
    rest = r.ctx.rest_of_sentence
    return bool(rest) and rest[0].startswith(rl.word("takes"))


def _drained(r: ClauseReader, agent: tuple[str, ...], rl: Rule) -> bool:
    recent = r.ctx.history[-int(rl.word("drained")) :]
    return any(
        (r.lex.has(e.kind, "completesDrink") or e.kind in rl.words["tasted"])
        and e.agent == agent
        and e.get("neg") != "1"
        for _, e in recent
    )


def _addressed_by(r: ClauseReader, agent: tuple[str, ...], rl: Rule) -> tuple[str, ...]:
    """The one who gives ``agent`` the cup: the agent of the last offering to him or the last
    pouring or filling by another (卿升，拜受觚: the 主人 who offered, not the 司宮 who laid the
    mats in between; 賓…升酌。冠者拜受: the 賓 who poured); in the 記 within the sentence."""
    ji = r.ctx.sentence.startswith(rl.word("part"))
    for pid, earlier in reversed(r.ctx.history[-int(rl.word("given")) :]):
        if ji and sentence_of(pid) != r.ctx.sentence:
            break
        if not earlier.agent or set(agent) & set(earlier.agent) or earlier.get("neg") == "1":
            continue
        to = set(earlier.fields.get("to", ()))
        if r.lex.has(earlier.kind, "offering") and set(agent) <= to:
            return earlier.agent
        if earlier.kind in rl.words["hands"] and to and not set(agent) & to:
            return earlier.fields["to"]  # 祝酌授尸。賓拜受爵: the 尸 holds it and gives it
        if earlier.kind in rl.words["gives"] and (not to or set(agent) <= to):
            return earlier.agent
    return ()


def _received_from(r: ClauseReader, agent: tuple[str, ...], rl: Rule) -> tuple[str, ...]:
    """有司徹 主人…獻尸。尸北面拜受爵 …(the stands loaded, the dishes served)… 尸…啐酒，興，坐奠爵，
    拜: with the offering too far back, the one ``agent`` last received the cup from with a bow
    (拜受, its recipient), within a longer stretch: he drinks that cup."""
    for _, earlier in reversed(r.ctx.history[-int(rl.word("received-within")) :]):
        if r.lex.has(earlier.kind, "offering") and earlier.get("neg") != "1":
            return ()  # 燕禮 卒受者…西階上酬士…大夫立卒爵，不拜: a pledge made since
        if earlier.kind in rl.words["receive"] and earlier.agent == agent:
            return earlier.fields.get("to", ()) if earlier.get("neg") != "1" else ()
    return ()


def _offerer_of(
    r: ClauseReader, agent: tuple[str, ...], pledges: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The agent of the last offering (獻, 酬, 酢) made to ``agent``, or to a group he is of
    (yl:hasMember: 獻工 … 一人拜受爵, 注: 謂大師也); or, when he pledged (酬) someone since, that
    one, to whom he drinks first."""
    for _, earlier in reversed(r.ctx.history[-40:]):
        if not r.lex.has(earlier.kind, "offering") or not earlier.agent:
            continue
        to = earlier.fields.get("to", ())
        offered = {*to, *(m for g in to for m in r.lex.members.get(g, ()))}
        if set(agent) <= offered and not set(agent) & set(earlier.agent):
            return earlier.agent
        if earlier.agent == agent and to and earlier.kind in pledges and earlier.get("neg") != "1":
            return to  # 主人以酬侑…卒爵，不拜既爵: he drinks first the pledge he brings the 侑
    return ()


@rule("bow-beside")
def bow_beside(r, subjects, rl) -> bool:
    """賓大夫之右坐奠觶，拜: a bow by one who stands at another's side (ROLE之右, ROLE右, in
    this clause or an act of his just before in the sentence) is to that one (the 大夫 he
    pledges), not to the last other who acted (the 射人 who called him up)."""
    done = False
    for index, event in enumerate(r.events):
        if "to" in event.fields or not event.agent or _mutual(r, event):
            continue
        if not r.lex.has(event.kind, "impliedRecipient") or r.lex.has(event.kind, "offering"):
            continue
        beside = _beside_whom(r, event, r.events[: index + 1], rl)
        if beside and not set(beside) & set(event.agent):
            event.set("to", beside, "?")
            done = True
    return done


def _beside_whom(r: ClauseReader, event: Event, here: list[Event], rl: Rule) -> tuple[str, ...]:
    """The person at whose side the agent of ``event`` stands: the place of his last act in
    the sentence (this clause's acts up to it, then the acts before) written ROLE(之)右/左."""
    before = [
        e
        for pid, e in r.ctx.history[-int(rl.word("within")) :]
        if sentence_of(pid) == r.ctx.sentence
    ]
    of, sides = rl.word("of"), rl.words["side"]
    for earlier in reversed([*before, *here]):
        if earlier.agent != event.agent:
            return ()
        for place in earlier.fields.get("at", ()):
            head = place[:-1].removesuffix(of) if place[-1:] in sides else ""
            role = r.lex.forms["role"].get(head)
            if role:
                return (role,)
    return ()


@rule("leads-the-player")
def leads_the_player(r, subjects, rl) -> bool:
    """相者…左何瑟…右手相; 小臣坐授瑟: the one who carries a musician's 瑟 leads him and hands
    it to him (注: 相，扶工也): 相 and 授 naming no one are to the musician last led (㒒人士相上工
    … 右手相 → the 上工), else to the 工."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["acts"] or "to" in event.fields or not event.agent:
            continue
        text = r.ctx.clause_text  # this clause's
        if not _carries_instrument(r, event, rl) or rl.word("bare") in text:
            continue  # 後者徒相入: leading empty-handed, not the one with the 瑟
        if event.kind != rl.word("lead"):
            event.set("to", (rl.word("player"),), "?")  # the 瑟 handed to its player
            done = True
            continue
        led = next(
            (
                e.fields["to"]
                for _, e in reversed(r.ctx.history[-int(rl.word("within")) :])
                if e.kind == rl.word("lead") and e.get("to") and not e.marks.get("to")
            ),
            (rl.word("player"),),
        )
        event.set("to", led, "?")
        done = True
    return done


def _carries_instrument(r: ClauseReader, event: Event, rl: Rule) -> bool:
    """Whether the event hands the instrument, or its agent carried it in the acts before."""
    if set(event.fields.get("theme", ())) & set(rl.words["instrument"]):
        return True
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :]]
    return any(
        set(e.fields.get("theme", ())) & set(rl.words["instrument"]) and e.agent == event.agent
        for e in recent
    )


@rule("commands-the-player")
def commands_the_player(r, subjects, rl) -> bool:
    """樂正命奏陔: a command to do what only one of a class of roles does (yl:doneByKind: 奏 by
    a musician), naming no one, is to the last of that class to act, not to whoever acts next
    (賓出)."""
    content = r.ctx.command_content  # (the command, what it commands, its sentence)
    if content is None or not any(e is content[0] for e in r.events):
        return False  # no command in this clause
    event, commanded, _ = content
    kinds = r.lex.doer_kinds.get(commanded, ())
    if not kinds or "to" in event.fields:
        return False
    for _, earlier in reversed(r.ctx.history):
        players = [
            a
            for a in earlier.agent
            if r.lex.role_classes.get(a, frozenset()) & set(kinds) and a not in event.agent
        ]
        if players:
            event.set("to", tuple(players), "?")
            return True
    return False


@rule("declined-bow")
def declined_bow(r, subjects, rl) -> bool:
    """賓…下拜。公降一等，小臣辭: an officer declining, naming no one, declines for another the
    bow just made below: to the one who bowed (the 賓), not to the ruler who stepped down."""
    done = False
    staff = {r.lex.label(YL.Officiant), r.lex.label(YL.Attendant)}
    for event in r.events:
        if "to" in event.fields or not event.agent or not r.is_a(event.kind, rl.word("decline")):
            continue
        if not all(r.lex.role_classes.get(a, frozenset()) & staff for a in event.agent):
            continue
        bowed = last_doer(r, rl, lambda kind: r.is_a(kind, rl.word("bow")))
        if bowed and not set(bowed) & set(event.agent):
            event.set("to", bowed, "?")
            done = True
    return done


@rule("answers-the-bower")
def answers_the_bower(r, subjects, rl) -> bool:
    """有司徹 主人拜。祝受尸爵。尸答拜: an answering bow naming no one answers the last bow made
    by another, within the last few acts, when someone else only took the cup in between (the
    祝 who takes the drained cup for the 尸): to the one who bowed, not to the third person who
    acted last, who holds the cup and goes on (祝…易爵, 祝酌授尸)."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["answer"] or "to" in event.fields or not event.agent:
            continue
        mine = set(event.agent)
        between: tuple[str, ...] = ()
        for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
            if not earlier.agent or set(earlier.agent) & mine:
                break  # the answerer acted since: the other party as usual
            if r.is_a(earlier.kind, rl.word("bow")) and earlier.kind not in rl.words["answer"]:
                if between and earlier.get("neg") != "1":
                    event.set("to", earlier.agent, "?")
                    event.fields["_holder"] = between  # he holds the cup and goes on
                    done = True
                break
            between = between or earlier.agent
    return done


@rule("rite-complete")
def rite_complete(r, subjects, rl) -> bool:
    """有司徹 祝告利成; 特牲饋食禮, 少牢饋食禮 祝告曰利成: the report that the rite is complete
    (利成, 特牲 注: 利猶養也，供養之禮成), naming no one, is made to the host, whose sacrifice
    it is, as written in full (祝告于主人曰利成): to=主人?, the words say=利成."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["report"] or "to" in event.fields:
            continue
        words = r.ctx.clause_text.partition(event.kind)[2]
        words = words.removeprefix(rl.word("says"))
        if words != rl.word("complete"):
            continue
        event.set("to", rl.word("host"), "?")
        event.set("say", words)
        done = True
    return done


@rule("heard-above")
def heard_above(r, subjects, rl) -> bool:
    """侯氏升聽命, 賓…升聽命: going up to hear (升聽命), naming no one heard, is hearing the one
    on the hall whose word it is: the last other person to act, not an officer who only carries
    or speaks it (覲禮 使者…先升。侯氏升聽命 → `聽 to=使者?`, 注: 使者東面致命，侯氏東階上西面聽之;
    公食大夫禮 擯者進相幣。賓降辭幣，升聽命 → `to=公?`, 注: 主國君又命之升; convention settled
    2026-12-06); so too 聽命, 聽之 where he does not go up (聘禮 大夫先升一等，賓從，升堂，北面聽命
    → to=大夫?; 賓禮辭，聽命 → to=公?; 公食大夫禮 賓朝服拜賜于朝…訝聽之 → to=賓?, 之 the one heard,
    not the gift), not 進聽嘏 (the 尸's blessing, another act)."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["hear"] or "to" in event.fields or not event.agent:
            continue
        up = any(e.kind in rl.words["up"] and e.agent == event.agent for e in r.events)
        heard = _word_after(r, event.kind)
        if not up and heard not in rl.words["heard"]:
            continue  # 進聽嘏: the blessing heard is another's act, not a word given him
        mine = set(event.agent)
        for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
            agents = set(earlier.agent)
            if not agents or agents & mine or r.officiants(earlier.agent):
                continue
            event.set("to", tuple(earlier.agent), "?")
            if heard == rl.word("him"):
                event.unset("theme")  # 訝聽之: 之 is the one heard, not the gift in hand
            done = True
            break
    return done


@rule("prompted-mourners")
def prompted_mourners(r, subjects, rl) -> bool:
    """士虞禮 宗人詔踊如初: the one prompted to leap or wail (詔踊, rule prompted), named by no
    one, is the mourners who last did it (丈夫踊，婦人踊: rule mourners-as-before), told (to)
    and doing it; not the 尸 just named, who does not leap (注: 言詔踊如初，則凡踊宗人詔之)."""
    as_before = rule_named("mourners-as-before")
    done = False
    for index, event in enumerate(r.events):
        if not event.get("_prompted") or index == 0 or event.kind not in as_before.words["acts"]:
            continue
        teller = r.events[index - 1]
        if "to" in teller.fields:
            continue
        teller.set("to", last_mourners(r.ctx.history, event.kind, as_before), "?")
        done = True
    return done


@rule("dress-keeps-subject")
def dress_keeps_subject(r, subjects, rl) -> bool:
    """少牢饋食禮 主婦被錫，衣侈袂，薦自東房 / 士昏禮 被顈黼，在其後: the dress put on (puts-on)
    is said of the one who then acts: its subject waits for the next clause, as a verbless
    clause's does (she presents, not no one named; they stand behind)."""
    done = False
    for event in r.events:
        if event.fields.pop("_dress", None) and event.agent:
            r.ctx.pending = (tuple(event.agent), ())
            r.ctx.pending_at = r.ctx.clauses
            r.ctx.pending_sentence = r.ctx.sentence
            done = True
    return done


@rule("implied-recipient")
def implied_recipient(r, subjects, rl) -> bool:
    done = False
    for event in r.events:
        if not r.lex.has(event.kind, "impliedRecipient") or "to" in event.fields:
            continue
        if not event.agent or _salute_on_the_way(r, event, rl):
            continue
        if _mutual(r, event) and not _paired(r, event):
            continue
        if _among_themselves(r, event, rl):
            continue  # 辯旅，皆不拜: the pledging went round them, no one the other party
        if rl.word("each-other") + event.kind in r.ctx.clause_text:
            continue  # 下大夫相見以鴈: they see each other (相見), no one the other party
        if event.kind in rl.words["push"] and "theme" in event.fields:
            continue  # 揖弓: a push of the bow toward the target (注: 揖，推之), no one saluted
        other = (
            _washer(r, event, rl)
            or _mat_declined(r, event, rl)
            or _counterpart(r, event, _partner_of(r, event, r.other_party(event), rl))
        )
        if other:
            event.set("to", other, "?")
            done = True
    return done


@rule("bow-past-the-server")
def bow_past_the_server(r, subjects, rl) -> bool:
    """少牢饋食禮 主人西面，祝在左，主人再拜稽首。祝祝曰…尚饗。主人又再拜稽首; 士虞禮 主人再拜稽首。
    祝饗: the sacrificer's bow (再拜, 稽首, 拜), its other party only guessed to be the 祝 or a
    佐食 who serve at the meal, is not to them but to the one they serve: the 尸 while he is at
    hand (he acted within the last acts: 皇尸命工祝…主人…再拜稽首, the blessing his), else the
    spirit (神) offered to before the 尸 comes in (the 陰厭, 注: 為神奠之)."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["bow"] or not set(event.agent) & set(rl.words["hosts"]):
            continue
        told = event.fields.get("to", ())
        if not told or event.marks.get("to") != "?" or not set(told) <= set(rl.words["servers"]):
            continue
        event.set("to", (_one_served(r, rl),), "?")
        done = True
    return done


@rule("ready-to-host")
def ready_to_host(r, subjects, rl) -> bool:
    """少牢饋食禮 宗人告備, 士虞禮 宗人告有司具, 宗人告事畢, 少牢饋食禮 尸告飽: the report that
    all is ready, that the service is over, or that the 尸 has eaten his fill, naming no one, is to
    the host whose rite it is (注: 此實既省告備乃殺之), where no ruler is (to him: rule
    to-the-ruler), not to the officer who acted last; a role between 告 and 具 is the one ready
    (有司具), not the one told. A guest's 告事畢 answers the usher who asked (rule
    implied-recipient). The ruler of the rite is the 公 or 天子 who acts in it alone, before its
    主人 (rule to-the-ruler): not the 君 who comes to another's rite (士喪禮 君使人弔, 君至; so
    its 宗人告事具 → to=主人?), nor the 公 who only sends a gift (既夕禮 公賵)."""
    host = rl.word("host")
    if host not in r.ctx.parties:
        return False
    if rite_ruler(r.ctx, rl.words["ruler"]) and not _host_before_ruler(r, rl):
        return False
    text = r.ctx.clause_text
    done = False
    for event in r.events:
        if event.kind != rl.word("report") or host in event.agent or rl.word("report") not in text:
            continue
        if event.agent and r.all_of(event.agent, YL.Guest):
            continue
        rest = text[text.index(rl.word("report")) + 1 :]
        word = next((w for w in rl.words["ready"] if rest.endswith(w)), None)
        told = event.fields.get("to", ())
        if word is None or (
            told and event.marks.get("to") != "?" and told != (rest[: -len(word)],)
        ):
            continue
        between = rest[: -len(word)]
        if between and told != (between,) and _names_person(r, between):
            continue  # 告X具: only the one ready stands between (告濯具: the washing, no one)
        if host in told and event.marks.get("to") == "?" and not _guests_in(r, told):
            continue  # (祝,主人? already; 主人,兄弟,賓,衆賓?: the guests he went in with, no)
        event.set("to", (host,), "?")
        done = True
    return done


@rule("message-to-the-met")
def message_to_the_met(r, subjects, rl) -> bool:
    """既夕禮 主人…迎于廟門外…賓奉幣，由馬西當前輅，北面致命; 公食大夫禮 賓…拜至。大夫不答拜，
    將命 (注: 將猶致也): the message delivered (致命, 將命) naming no one is to the one who came out
    to meet the messenger: the last other person to act, within the last acts, who is neither the
    usher who brought him in nor an officer or attendant taking the gifts (士受馬, 宰受幣), nor a
    ruler (who is told by rule to-the-ruler)."""
    done = False
    for event in r.events:
        if event.kind != rl.word("deliver") or "to" in event.fields or "say" in event.fields:
            continue
        if not event.agent or set(event.agent) & set(rl.words["ushers"]):
            continue
        met: tuple[str, ...] = ()
        for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
            who = tuple(p for p in earlier.agent if p not in event.agent)
            if not who or set(who) & set(rl.words["ushers"]) or earlier.get("neg") == "1":
                continue
            if r.officiants(who) or r.all_of(who, YL.Attendant):
                continue
            met = who[:1]  # 主人及衆主人: the chief of those who met him
            break
        if met and not set(met) & set(rl.words["rulers"]):
            event.set("to", met, "?")
            done = True
    return done


@rule("bow-to-the-sender")
def bow_to_the_sender(r, subjects, rl) -> bool:
    """既夕禮 公賵玄纁束…賓…北面致命。主人哭，拜稽顙; 公使宰夫贈…賓由右致命。主人哭，拜稽顙 (疏:
    賓既致公贈命訖，主人乃哭拜稽顙): the bow of the one a message was just delivered to, naming no
    one, is to the ruler who sent it (as 聘禮 卿致命。賓再拜稽首, the lord's command), not to the
    envoy: the ruler acted (sent) shortly before the message was delivered."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["bow"] or not event.agent:
            continue
        if not event.open_to_guess("to"):
            continue
        ruler = _message_sender(r, event, rl)
        if ruler and event.fields.get("to") != (ruler,):
            event.set("to", (ruler,), "?")
            done = True
    return done


@rule("offering-carried")
def offering_carried(r, subjects, rl) -> bool:
    """既夕禮 重先，奠從; 奠止于西階之下; 奠升; 奠設如初; 士喪禮 奠由楹内入于室: 奠 opening a
    clause, setting nothing it names down anywhere, right before an act of going (從, 止, 升,
    入, 設) is the offering, the food carried (疏: 重先奠從者…), which goes, by no one named: no
    act of setting down and no one carried over; 奠俟于下 is where it waits, a state (在, rule
    thing-waits)."""
    events = r.events
    if not events or not r.ctx.clause_text.startswith(rl.word("offering")):
        return False
    first = events[0]
    if first.kind in rl.words["goes"] and (not first.agent or first.marks.get("agent") == "^"):
        events = [Event(rl.word("offering")), *events]  # 奠從: read as the going alone
    if len(events) < 2:
        return False
    first, second = events[0], events[1]
    if first.kind != rl.word("offering") or second.kind not in rl.words["goes"]:
        return False
    if not first.open_to_guess("theme") or "dest" in first.fields:
        return False
    if "via" in first.fields and "via" not in second.fields:
        second.set("via", first.fields["via"])  # 奠由楹内入于室: the way the offering goes
    for event in events[1:]:
        event.unset("agent")
        if event.marks.get("theme") == "?":
            event.unset("theme")  # 奠設如初: the offering is what is set, not the mat before
        if event.kind in rl.words["wait"]:
            event.kind = rl.word("state")
            event.unset("noagent")
            event.fields["noagent"] = (rl.word("noagent"),)
        else:
            event.no_doer()
    r.events[:] = events[1:]
    return True


@rule("thing-beside")
def thing_beside(r, subjects, rl) -> bool:
    """士昏禮 設黍于腊北，其西稷; 士虞禮 …其東稷; 聘禮 黍其南稷: a clause with no verb and no one,
    a thing and a place relative to the thing just set (其西, 其東, 其南), tells where that
    thing stands beside it: a description, not the place of the next act (設湇于醤北 is north
    of the 醤, not at 其西)."""
    if subjects or not r.topic or not r.at or r.face:
        return False
    return all(place.startswith(rl.word("its")) for place in r.at)


@rule("together-with")
def together_with(r, subjects, rl) -> bool:
    """少牢饋食禮 上佐食兼與黍以授尸; 史…右抽上韇，兼與筮執之: 兼與X is the thing in the doer's
    hand together with X (兼, adverbial: one act), so the act handles both: the thing he last
    took, held or was handed (the lung the 下佐食 handed him, the case he drew), then X."""
    text = r.ctx.clause_text
    if rl.word("together") not in text:
        return False
    for event in r.events:
        named = event.fields.get("theme", ())
        if not named or event.marks.get("theme") or not event.agent:
            continue
        doer = set(event.agent)
        held = next(
            (
                e.fields["theme"]
                for _, e in reversed(r.ctx.history[-int(rl.word("within")) :])
                if "theme" in e.fields and doer & {*e.agent, *e.fields.get("to", ())}
            ),
            (),
        )
        things = [t for t in held if t not in named]
        if not things:
            return False
        event.set("theme", (*things, *named))
        return True
    return False


@rule("dress-not-offered")
def dress_not_offered(r, subjects, rl) -> bool:
    """士喪禮 …襲絰于序東。乃奠; 士虞禮 記 丈夫說絰帶于廟門外。入徹: what is offered, set out or
    cleared (奠, 徹) naming nothing is the food of the offering, never the band, girdle or staff
    the mourners just put on or took off: an implied thing (?) that is only dress is dropped."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["acts"] or event.marks.get("theme") != "?":
            continue
        if set(event.fields["theme"]) <= set(rl.words["dress"]):
            event.unset("theme")
            done = True
    return done


@rule("follows-its")
def follows_its(r, subjects, rl) -> bool:
    """既夕禮 車各從其馬; 聘禮 有司二人舉皮，從其幣 (注: 從其幣者，言隨幣): 從其X is following
    X, the thing one goes after, not a thing carried or following (theme); 柩從, 從俎升 keep
    theirs."""
    text = r.ctx.clause_text
    done = False
    for event in r.events:
        if event.kind != rl.word("follow") or event.marks.get("theme"):
            continue
        followed = [t for t in event.fields.get("theme", ()) if rl.word("follow-its") + t in text]
        if followed and len(followed) == len(event.fields["theme"]):
            event.unset("theme")
            done = True
    return done


def _message_sender(r, event: Event, rl: Rule) -> str | None:
    """The ruler whose message (致命) was delivered to ``event``'s agent within the last
    ``near`` acts, the ruler acting within the ``within`` acts before it."""
    history = r.ctx.history
    for back in range(1, min(int(rl.word("near")), len(history)) + 1):
        earlier = history[-back][1]
        if earlier.kind != rl.word("deliver"):
            continue
        if not set(earlier.fields.get("to", ())) & set(event.agent):
            return None
        before = history[max(0, len(history) - back - int(rl.word("within"))) : -back]
        rulers = [p for _, e in before for p in e.agent if p in rl.words["rulers"]]
        if rulers and rulers[-1] not in event.agent and rulers[-1] not in earlier.agent:
            return rulers[-1]
        return None
    return None


@rule("mourners-bidden")
def mourners_bidden(r, subjects, rl) -> bool:
    """既夕禮 商祝…聲三，啓三，命哭 (注 8: 將有事止讙囂也); 史…讀遣，卒，命哭; 士虞禮 宗人詔踊如初
    (注: 凡踊宗人詔之): a command or prompt (命, 詔) to wail or leap (哭, 踊), naming no one, is to
    the mourners, the men and the women (丈夫, 婦人), implied: not the one who acted last."""
    text = r.ctx.clause_text
    done = False
    for event in r.events:
        if event.kind not in rl.words["bid"] or not event.open_to_guess("to"):
            continue
        mourning = any(b + a in text for b in rl.words["written"] for a in rl.words["acts"])
        if not mourning or set(event.agent) & set(rl.words["mourners"]):
            continue
        if event.fields.get("to") != rl.words["mourners"]:
            event.set("to", rl.words["mourners"], "?")
            done = True
    return done


@rule("offering-in-order")
def offering_in_order(r, subjects, rl) -> bool:
    """士虞禮 主婦…亞獻尸…酌獻祝…獻佐食…賓長洗繶爵，三獻 (疏: 賓長終三獻之事); 記 主婦洗足爵，
    亞獻如主人儀: the second or third offering of the meal (亞獻, 三獻), naming no one (or by
    guess), is to the one the offering before it opened with (the 尸): the first its maker (the
    host or his wife) offered to by name, in the last run of offerings; not the 祝 and 佐食
    offered to after him, nor the one who acted last."""
    text = r.ctx.clause_text
    if not any(text.startswith(o + rl.word("offer")) for o in rl.words["ordinals"]):
        return False
    done = False
    for event in r.events:
        if event.kind != rl.word("offer") or not event.open_to_guess("to"):
            continue
        first = _first_of_last_run(r, rl)
        if first and event.fields.get("to") != first:
            event.set("to", first, "?")
            done = True
    return done


def _first_of_last_run(r, rl: Rule) -> tuple[str, ...]:
    """The recipient of the first of the last run of offerings (獻, named recipient) by one
    host (rule offering-in-order)."""
    maker: tuple[str, ...] = ()
    first: tuple[str, ...] = ()
    for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
        named = "to" in earlier.fields and not earlier.marks.get("to")
        if earlier.kind != rl.word("offer") or not named:
            continue
        if not set(earlier.agent) & set(rl.words["hosts"]) or (maker and earlier.agent != maker):
            break
        maker, first = earlier.agent, tuple(earlier.fields["to"])
    return first


@rule("unsaid")
def unsaid(r, subjects, rl) -> bool:
    """少牢饋食禮 主人不言，拜侑: nothing said (rule says-nothing) is said to no one: the other
    party an earlier rule gave it is taken back (the bow to the 尸 that follows is the host's
    to him, not to one he spoke to)."""
    done = False
    for event in r.events:
        denied = event.kind == rl.word("say") and event.get("neg") == "1"
        if denied and "to" in event.fields:
            event.unset("to")
            done = True
    return done


@rule("content-subject")
def content_subject(r, subjects, rl) -> bool:
    """命三耦及衆射者勝者皆袒決遂執張弓: after those commanded, a role right before 皆 and an act,
    with no 及 or 與 joining it to them, is who does what is commanded (the winners bare their
    arms), not one more commanded."""
    if not any(w in r.ctx.clause_text for w in rl.words["all"]):
        return False
    tokens = tokenize(r.ctx.clause_text, r.lex)
    done = False
    for k in range(2, len(tokens) - 1):
        role = tokens[k - 1].of("role")
        if tokens[k].text not in rl.words["all"] or not tokens[k + 1].of("action"):
            continue
        if not (role and tokens[k - 2].of("role")):
            continue
        for event in r.events:
            told = event.fields.get("to", ())
            if event.kind in r.lex.frames["command"] and role in told and len(told) > 1:
                event.fields["to"] = tuple(x for x in told if x != role)
                done = True
    return done


@rule("all-sent-off")
def all_sent_off(r, subjects, rl) -> bool:
    """二人皆進…賓…坐取觶以興；介則…坐受以興。退，皆拜送: a bow sending the cups that all of
    those who brought them make (皆), naming no one, is to every one who took or received a cup
    from them since they came forward (進), not only the last (to=賓,介?)."""
    if not r.all_:
        return False
    done = False
    for event in r.events:
        if event.kind not in rl.words["send"] or event.marks.get("to") != "?":
            continue
        takers: list[str] = []
        for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
            if earlier.agent == event.agent and earlier.kind in rl.words["forward"]:
                break
            if earlier.kind in rl.words["take"] and not set(earlier.agent) & set(event.agent):
                takers[:0] = [p for p in earlier.agent if p not in takers]
        else:
            continue  # they came forward too long ago, or not at all
        if len(takers) > 1 and set(event.fields["to"]) < set(takers):
            event.set("to", tuple(takers), "?")
            done = True
    return done


def _washer(r: ClauseReader, event: Event, rl: Rule) -> tuple[str, ...]:
    """記 衆賓之長，一人辭洗: a guest (yl:Guest) declining the washing, or bowing for it, with
    no one named does so to the host, who washes the cup for the guests (疏: 賓辭主人為己洗爵),
    not the last other person the text named."""
    if event.kind not in rl.words["for-washing"] or not event.agent:
        return ()
    for _, earlier in reversed(r.ctx.history[-int(rl.word("washed-within")) :]):
        if earlier.kind in rl.words["wash"] and earlier.get("neg") != "1" and earlier.agent:
            if not set(earlier.agent) & set(event.agent):  # 尸…降洗。…主人降…辭洗: the washer
                return earlier.agent
            break
    if not r.all_of(event.agent, YL.Guest):
        return ()
    return (rl.word("host"),)


def _mat_declined(r: ClauseReader, event: Event, rl: Rule) -> tuple[str, ...]:
    """大夫辭加席, 卿辭重席, 公辭一席: a mat declined, naming no one, is declined to the host,
    whose mats they are (主人), while he is a party of the rite; not the last other to act (鄉飲酒禮
    若有諸公，則辭加席: the 大夫, to the 主人, not the 公 who came in before)."""
    host = rl.word("host")
    if event.kind not in rl.words["decline"] or host in event.agent or host not in r.ctx.parties:
        return ()
    mats = [t for t in event.fields.get("theme", ()) if t.endswith(rl.word("mat"))]
    return (host,) if mats else ()


def _paired(r: ClauseReader, event: Event) -> bool:
    """不勝者…揖: a group named alone whose role has a counterpart (yl:counterpart: the losers,
    the winners) salutes that counterpart, not one another."""
    return (
        len(event.agent) == 1
        and "with" not in event.fields
        and event.agent[0] in r.lex.counterparts
    )


def _counterpart(r: ClauseReader, event: Event, other: tuple[str, ...]) -> tuple[str, ...]:
    """受酬者拜: the other party of a role with a counterpart (yl:counterpart: the one pledged,
    the one pledging) is that counterpart, not an officer who only called him (the 司正), nor
    another of his own kind in the round (酬者不拜: to the 受酬者, not the 卒受者, last to act)."""
    mine = r.lex.counterparts.get(event.agent[0], ()) if len(event.agent) == 1 else ()
    if mine and (not other or r.officiants(other) or _same_kind(r, event.agent[0], other)):
        return mine
    return other


def _same_kind(r: ClauseReader, role: str, others: tuple[str, ...]) -> bool:
    """Whether every one of ``others`` is of a class of ``role`` (guests among guests)."""
    classes = r.lex.role_classes.get(role, frozenset())
    return all(r.lex.role_classes.get(o, frozenset()) & classes for o in others)


def _partner_of(r: ClauseReader, event: Event, other: tuple[str, ...], rl: Rule):
    """一耦出…上射揖進: one archer of a pair saluting after his own pair (上耦, 三耦: archers
    named as a group) acted salutes his partner (下射), not the pair he is one of."""
    pair = rl.words["pair"]
    if len(event.agent) != 1 or event.agent[0] not in pair or not other:
        return other
    if r.archers(other) and all(r.lex.has(o, "collective") for o in other):
        return tuple(p for p in pair if p != event.agent[0])
    return other


def _salute_on_the_way(r, event: Event, rl: Rule) -> bool:
    """司射…當階北面揖，及階揖，升堂揖: a salute an archer makes just after reaching a station of
    the archers' path (當X, 及X, 升堂 earlier in the clause; 當X, 及X as the clause before) is a
    bow of the walk, to no one, unless one archer of a pair makes it (to his partner); the
    司射's, who walks the path alone to show the archers the bows of a pair (疏: 耦耦各相對揖),
    are to no one wherever he makes them (揖進, 南面揖); 揖升 and the host's and guest's
    及階，揖 are to the other party."""
    if event.kind not in rl.words["walk"] or set(event.agent) & set(rl.words["pair"]):
        return False
    if set(event.agent) <= set(rl.words["walkers"]):
        return True  # 司射…揖進: he walks alone, showing the bows a pair exchange, anywhere
    if not r.archers(event.agent):
        return False  # 賓…及階，揖，升: host and guest salute each other at the steps
    here = [e.kind for e in r.events[: r.events.index(event)]]  # a station before the salute
    before = [e.kind for pid, e in r.ctx.history[-1:] if sentence_of(pid) == r.ctx.sentence]
    return bool(set(here) & set(rl.words["stations"]) or set(before) & set(rl.words["reached"]))


@rule("own-return")
def own_return(r, subjects, rl) -> bool:
    """主人獻公…升酌膳酒以降，酢于阼階下 / 主人實爵，酢于西階上: a return of the cup (酢) naming
    no one, by the one who made the last offering (獻), is his own return, poured for himself
    (疏: 主人受公酢而自酌者不敢煩公; 主人酌自酢): no recipient, not the one he offered."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["returns"]:
            continue
        if _return_in_name(r, event, rl):
            event.unset("to")  # 酢于長賓: poured for himself in the 長賓's name
            done = True
            continue
        if event.marks.get("to") != "?":
            continue
        offerer = last_doer(r, rl, lambda kind: kind in rl.words["offered"])
        if event.agent and set(event.agent) <= set(offerer):
            event.unset("to")
            done = True
    return done


def _return_in_name(r: ClauseReader, event: Event, rl: Rule) -> bool:
    """有司徹 主人酌，酢于長賓 (注: 主人酌自酢，序賓意，賓卑不敢酢); 賓…洗酌，醋于主人: a return
    written with 于 before the person (酢于X, not 酢X nor 以酢X于西階上) is poured by its doer for
    himself in that one's name: X is no recipient."""
    to = event.fields.get("to", ())
    if len(to) != 1 or event.marks.get("to") or not event.agent:
        return False
    return any(w + rl.word("yu") + to[0] in r.text for w in rl.words["written"])


@rule("there-on-arrival")
def there_on_arrival(r, subjects, rl) -> bool:
    """以至于乏，坐: a posture naming no place, the first act of the clause just after
    arriving at a place (及X) in the same sentence, is taken there (implied: at=乏?)."""
    if not r.events or r.events[0].kind not in rl.words["postures"] or "at" in r.events[0].fields:
        return False
    if r.ctx.new_sentence or not r.ctx.history:
        return False
    pid, last = r.ctx.history[-1]
    if last.kind not in rl.words["arrive"] or "dest" not in last.fields:
        return False
    if sentence_of(pid) != r.ctx.sentence or set(last.agent) != set(r.events[0].agent):
        return False
    r.events[0].set("at", last.fields["dest"], "?")
    return True


@rule("laid-there")
def laid_there(r, subjects, rl) -> bool:
    """西序之席, 左個之西北三步，東面設薦俎: a place named before an act of setting out (in its
    clause, or a verbless clause before it) is where the thing is laid (dest), not where one
    stands."""
    done = False
    before = {*r.at, *r.places_left}  # not 亨于堂東北: where the cooking is done
    for event in r.events:
        if "at" in event.fields and "dest" not in event.fields:
            if r.lex.has(event.kind, "unstatedAgent") and set(event.fields["at"]) <= before:
                event.set("dest", event.fields.pop("at"))
                done = True
    return done


@rule("served-persons")
def served_persons(r, subjects, rl) -> bool:
    """祝史小臣師亦就其位而薦之; 司正，既舉觶而薦諸其位: the dishes set out for them (之, 諸)
    are for the persons the clause names, not set out by them: 薦 to=them, no one named who
    sets them out, nor who goes to their places (就其位: the server's); with no one named, the
    persons the clause before in the sentence named (記 司正既舉觶，而薦諸其位); so are dishes set
    out for all (皆薦) of the persons a clause with no verb named just before (記 樂正與立者，
    皆薦以齒: 注 既飲皆薦於其位)."""
    topic = bool(subjects) and not r.subjects and r.all_  # 樂正與立者，皆薦以齒
    subjects = subjects or _named_before_in_sentence(r) or _named_in_condition(r)
    if not subjects:
        return False
    text = r.ctx.clause_text
    done = False
    for index, event in enumerate(r.events):
        if event.kind not in rl.words["acts"] or "to" in event.fields:
            continue
        if not (topic or any(event.kind + it in text for it in rl.words["it"])):
            continue
        event.no_doer()
        event.set("to", subjects, "?")
        if event.marks.get("theme") == "?":
            event.unset("theme")  # not the thing last handled: 之 is the persons
        for earlier in r.events[:index]:
            if r.lex.has(earlier.kind, "goalObject") and earlier.kind + rl.word("their") in text:
                earlier.no_doer()
        done = True
    return done


def _named_before_in_sentence(r: ClauseReader) -> tuple[str, ...]:
    """The subject the clause just before named (not carried), when it is of this sentence and
    did its act to no one (司正既舉觶; not 主人…辯獻大夫, who serves the 大夫)."""
    named = named_just_before(r.ctx)
    return named if named and "to" not in r.ctx.history[-1][1].fields else ()


def _named_in_condition(r: ClauseReader) -> tuple[str, ...]:
    """記 司正既舉觶，而薦諸其位: the persons a temporal condition of the sentence opens with."""
    tokens = tokenize(r.ctx.condition or "", r.lex)
    named = leading_roles(tokens)
    return named if len(named) < len(tokens) else ()


@rule("their-place")
def their_place(r, subjects, rl) -> bool:
    """有司徹 獻兄弟…辯受爵。其位在洗東; 獻私人…其位繼兄弟之南: 其位 opening a clause of
    standing or following on (在, 繼) is the place of those last offered to (the last acts)
    (注: 先著其位於上), who stand there, implied: not the one carried over, and 其位 no place."""
    if not r.ctx.clause_text.startswith(rl.word("its")):
        return False
    offered = next(
        (
            e.fields["to"]
            for _, e in reversed(r.ctx.history[-int(rl.word("within")) :])
            if e.kind in rl.words["offerings"] and e.fields.get("to") and e.get("neg") != "1"
        ),
        None,
    )
    done = False
    for event in r.events:
        if offered is None or event.kind not in rl.words["acts"]:
            continue
        event.fields.pop("noagent", None)
        event.set("agent", offered, "?")
        at = tuple(a for a in event.fields.get("at", ()) if a != rl.word("its"))
        if at:
            event.fields["at"] = at
        else:
            event.fields.pop("at", None)
        done = True
    return done


@rule("served-one")
def served_one(r, subjects, rl) -> bool:
    """主人獻賓。…膳宰薦脯醢 / 設折俎: the dried meat and the stand set out in a round of drinking
    are for the one just offered the cup (to=賓?), when the clause names no one: the recipient
    of the last offering (獻, 酢) within the last few acts; a stand denied (無脀) is no one's."""
    done = False
    for event in r.events:
        if event.kind not in rl.words["acts"] or "to" in event.fields or event.get("neg") == "1":
            continue
        brought = event.kind in rl.words["brought"]
        if brought and (not event.agent or event.marks.get("agent")):
            continue  # 乃羞, 羞唯所有: the dishes served to all at the end, no bringer named
        theme = event.fields.get("theme", ())
        laid = set(theme) & set(rl.words["mats"])  # 司宮設席: a mat laid, as 席
        if event.kind not in rl.words["any-theme"] and not set(theme) & set(rl.words["dishes"]):
            if not laid:
                continue  # (席 with no one named: the mat of the one just offered, as a dish)
        mat = event.kind in rl.words["mats"] or bool(laid)
        served = _last_offered(r, rl, mat=mat) or _said_of(r)
        if not served and (laid or not mat and (brought or set(theme) & set(rl.words["dishes"]))):
            served = _cup_holder(r, rl, theme)
        if not served and brought:
            served = _last_eater(r, rl, set(event.agent))
        if not served and not mat:
            served = _corpse_at_hand(r, rl, event)
        if served and not set(served) & set(event.agent):
            event.set("to", served, "?")
            done = True
    return done


@rule("served-in-hand")
def served_in_hand(pid, events, lexicon, ctx, rl) -> bool:
    """有司徹 侑…拜受爵…司馬橫執羊俎以升，設于豆東 → to=侑?: a dish set out naming neither
    the dish nor the one it is for, the dish only known once the clause is read (the thing in
    hand, implied), is for the one served as rule served-one reads it (the one just offered,
    or who holds the cup)."""
    from yili_kg.loaders.annotation.annotate import ClauseReader  # (annotate imports this)

    served_rule = rule_named("served-one")
    done = False
    for event in events:
        theme = event.fields.get("theme", ())
        if event.kind not in rl.words["acts"] or "to" in event.fields or not event.agent:
            continue
        if event.marks.get("theme") != "?" or not set(theme) & set(served_rule.words["dishes"]):
            continue
        if event.get("neg") == "1" or _presented_before(ctx, event, served_rule):
            continue
        reader = ClauseReader(lexicon, ctx)
        reader.events = list(events)
        served = _last_offered(reader, served_rule) or _cup_holder(reader, served_rule, theme)
        if served and not set(served) & set(event.agent):
            event.set("to", served, "?")
            done = True
    return done


def _presented_before(ctx, event: Event, served_rule: Rule) -> bool:
    """主婦薦韭菹醢…坐設于席前: the same one presented the dishes to someone named or implied
    in the paragraph (薦 with a recipient): the setting down goes with that presenting."""
    return any(
        paragraph_of(p) == ctx.paragraph
        and e.agent == event.agent
        and e.kind in served_rule.words["acts"]
        and "to" in e.fields
        for p, e in ctx.history
    )


def _cup_holder(r: ClauseReader, rl: Rule, theme: tuple[str, ...]) -> tuple[str, ...]:
    """有司徹 主人…獻尸。尸…拜受爵…(the stands loaded)…賓長設羊俎于豆南; 尸…酌。主人…拜受爵。
    主婦薦韭菹醢: with no offering in the last few acts, a dish is for the one who last received
    the cup with a bow (拜受) within a longer stretch, still holding it (not drained, 卒爵); not
    the same dishes set out again for him, moved (大射儀 …設折俎…設薦俎 at the target)."""
    recent = r.ctx.history[-int(rl.word("cup-within")) :]
    if r.ctx.sentence.startswith(rl.word("part")):
        return ()
    served: set[str] = set()
    took_after: set[str] = set()  # who received it (受) after the last who bowed to
    for index in range(len(recent) - 1, -1, -1):
        earlier = recent[index][1]
        before = recent[index - 1][1] if index else None
        if earlier.get("neg") == "1":
            continue
        if earlier.kind in rl.words["drained"]:
            return ()
        if earlier.kind in rl.words["acts"] and "to" in earlier.fields:
            served.update(earlier.fields.get("theme", ()))
            if (set(theme) & served) - set(rl.words["victims"]):
                return ()  # (羊 of 羊俎 and of 羊燔: not the same dish)
        if not set(earlier.fields.get("theme", ())) & set(rl.words["cups"]):
            continue  # (主人拜送: the guest sent off, no cup)
        if earlier.kind in rl.words["gives"] and set(theme) & set(rl.words["mats"]):
            return earlier.fields.get("to", ())  # 致爵于主婦。…司宮設席: hers, to receive it
        if earlier.kind in rl.words["sent"]:  # 拜受…拜送: the one who bowed to receive it
            near = [
                e for _, e in recent[max(0, index - 4) : index] if e.kind in rl.words["received"]
            ]
            return near[-1].agent if near else earlier.fields.get("to", ())
        if earlier.kind in rl.words["received"] or _bowed_and_took(earlier, before, rl):
            group = [g for g in took_after if set(earlier.agent) <= set(r.lex.members.get(g, ()))]
            return tuple(group) or earlier.agent
        if earlier.kind in rl.words["takes"]:
            took_after.update(earlier.agent)  # 兄弟之長…拜受爵…辯受爵: the whole group took it
    return ()


def _bowed_and_took(event: Event, before: Event | None, rl: Rule) -> bool:
    """尸拜。于筵上受 / 西面拜。受爵: a bow, then receiving the cup, by the same one, is 拜受 told
    in two clauses (not 答拜…受爵, the one who offered taking the drained cup back)."""
    return (
        event.kind in rl.words["takes"]
        and bool(set(event.fields.get("theme", ())) & set(rl.words["cups"]))
        and before is not None
        and before.kind in rl.words["bow"]
        and before.agent == event.agent
    )


def _said_of(r: ClauseReader) -> tuple[str, ...]:
    """記 賓為苟敬，席于阼階之西…有脀: the one a 記 sentence opened by saying who he is (rule
    ji-said-of) is the one its mats and dishes laid for no one are for."""
    who, sentence = r.ctx.said_of
    return who if sentence == r.ctx.sentence else ()


def _last_offered(r: ClauseReader, rl: Rule, mat: bool = False) -> tuple[str, ...]:
    """The one offered to by the last 獻/酢 within ``within`` acts (this clause's first); in
    the 記, whose sentences are rules each on its own, only within the sentence; for a mat,
    only when no one but the one who offered has acted since (先卿獻之，如獻卿之禮。席于阼階西)."""
    within = int(rl.word("within"))
    if any(o in (r.ctx.condition or "") for o in rl.words["offerings"]):
        within = int(rl.word("within-case"))  # 每一人獻，則薦諸其席: the round the case is of
    recent = r.ctx.history[-within:]
    if r.ctx.sentence.startswith(rl.word("part")):
        recent = [(pid, e) for pid, e in recent if sentence_of(pid) == r.ctx.sentence]
    recent = recent + [("", e) for e in r.events]
    since: set[str] = set()
    took: tuple[str, ...] = ()  # the last who bowed to take the cup, or was sent it
    received: tuple[str, ...] = ()  # the last who bowed to take it (拜受)
    given = False  # a cup given since by 致, no offering (獻, 酢) of the table
    for _, earlier in reversed(recent):
        if earlier.kind in rl.words["offerings"] and earlier.get("neg") != "1":
            if mat and since - set(earlier.agent):
                return ()  # others acted between: the mat is not his (士喪禮 卜人…有席)
            offered = earlier.fields.get("to", ())
            if given and received and not set(received) & set(offered) and not mat:
                return received  # 致爵于主人。主人拜受爵: he holds the cup now
            return _member_who_took(r, offered, took)
        if not received and earlier.kind in rl.words["received"] and earlier.get("neg") != "1":
            received = earlier.agent
        given = given or earlier.kind in rl.words["gives"]
        if not took and earlier.kind in rl.words["took"] and earlier.get("neg") != "1":
            took = (
                earlier.fields.get("to", ()) if earlier.kind in rl.words["sent"] else earlier.agent
            )
        since.update(earlier.agent)
    return ()


def _member_who_took(
    r: ClauseReader, offered: tuple[str, ...], took: tuple[str, ...]
) -> tuple[str, ...]:
    """獻工。…一人拜受爵〔注：謂大師也〕。主人…拜送爵。薦脯醢: of a group offered to
    (yl:hasMember), the member who took the cup is the one served."""
    members = {m for g in offered for m in r.lex.members.get(g, ())}
    return took if took and set(took) <= members else offered


@rule("from-the-dishes")
def from_the_dishes(r, subjects, rl) -> bool:
    """辯有脯醢。不祭: an offering (祭) naming nothing, just after a clause that says the dishes
    each one has (有X), is from those dishes (注: 衆工…不祭脯醢), implied."""
    if not any(e.kind in rl.words["acts"] and "theme" not in e.fields for e in r.events):
        return False
    clause_before = r.ctx.clause_before()
    if clause_before is None:
        return False
    before = tokenize(clause_before[1], r.lex)
    had = [
        t.of("object")
        for k, t in enumerate(before[1:], start=1)
        if before[k - 1].text in rl.words["there"] and t.of("object")
    ]
    done = False
    for event in r.events:
        if had and event.kind in rl.words["acts"] and "theme" not in event.fields:
            event.set("theme", had[-1], "?")
            done = True
    return done


@rule("thing-there")
def thing_there(r, subjects, rl) -> bool:
    """斯禁，有玄酒，在西 / 主人之弓矢，在東序東: a state (在) naming nothing, right after a
    clause of its sentence that only names things (X, 有X, ROLE之X, X與Y), is of those things;
    so is an act that always handles a thing, naming no one (司射之弓矢與撲，倚于西階之西)."""
    events = [
        e
        for e in r.events
        if (r.lex.has(e.kind, "state") or r.lex.has(e.kind, "handlesThing"))
        and "theme" not in e.fields
    ]
    if subjects or not events:
        return False
    clause_before = r.ctx.clause_before()
    if clause_before is None or sentence_of(clause_before[0]) != r.ctx.sentence:
        return False
    before = tokenize(clause_before[1], r.lex)
    numerals = word_values("numeral")
    things = [t.of("object") for t in before if t.of("object") and "action" not in t.kinds]
    for k, t in enumerate(before):
        nxt = before[k + 1].text if k + 1 < len(before) else ""
        if t.of("object") and "action" not in t.kinds:
            continue
        if t.text in (*rl.words["there"], *rl.words["of"], *rl.words["and"]) or t.text in numerals:
            continue
        if t.of("role") and nxt in rl.words["of"]:
            continue  # 主人之弓矢: whose they are
        return False
    if not things:
        return False
    for event in events:
        event.set("theme", tuple(dict.fromkeys(x for x in things if x)))
    return True


@rule("commanded-thing")
def commanded_thing(r, subjects, rl) -> bool:
    """司馬師命獲者以旌與薦俎退, 司正命執爵者爵辯: a command (yl:command: 命, 使) that names
    whom it commands handles nothing itself: a thing written after the one commanded is of the
    act commanded (the flag the 獲者 is to take away, the cup to go round), no theme of the 命."""
    done = False
    for event in r.events:
        if event.kind in r.lex.frames["command"] and "to" in event.fields:
            if "theme" in event.fields and not event.marks.get("theme"):
                event.unset("theme")
                done = True
    return done


@rule("used-for")
def used_for(r, subjects, rl) -> bool:
    """王使人皮弁用璧勞, 侯氏用束帛乘馬儐使者: 用 and the things right after it, before an act,
    are what that act is done with, its theme (the 璧 he welcomes with, not a dress worn; the
    silk and the team given in honour), as 以X before the act."""
    if not any(w in r.ctx.clause_text for w in rl.words["use"]):
        return False
    tokens = tokenize(r.ctx.clause_text, r.lex)
    done = False
    for i, token in enumerate(tokens):
        if token.text not in rl.words["use"]:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].of("object") and not tokens[j].of("action"):
            j += 1
        act = tokens[j].of("action") if i + 1 < j < len(tokens) else None
        event = next((e for e in r.events if e.kind == act and not e.modifier), None)
        if event is None:
            continue
        things = tuple(t.of("object") for t in tokens[i + 1 : j])
        for other in r.events:  # 皮弁用璧: the 璧 read as the dress's thing
            kept = tuple(t for t in other.fields.get("theme", ()) if t not in things)
            if other is not event and kept != other.fields.get("theme", kept):
                other.unset("theme")
                other.set("theme", kept)
        event.unset("theme")
        event.set("theme", things)
        done = True
    return done


@rule("thing-waits")
def thing_waits(r, subjects, rl) -> bool:
    """記 几，俟于東箱 / 燭俟于饌東: waiting (俟) said of things, named before it in the clause
    or alone in the clause just before one that is only the waiting (its sentence, no act
    since), naming no one, is where
    the things are kept until used (注: 東箱…相翔待事之處): a state, 在, the things its theme."""
    named, at, sentence = r.ctx.named_things
    alone = r.ctx.clause_text.startswith(rl.words["wait"]) and len(r.events) == 1  # 俟于東箱
    just_named = sentence == r.ctx.sentence and at == len(r.ctx.history)
    things = tuple(r.topic) or (named if alone and just_named else ())
    if subjects or not things:
        return False
    done = False
    for event in r.events:
        if event.kind in rl.words["wait"] and not event.agent:
            event.kind = rl.word("state")
            event.unset("theme")
            event.set("theme", things)
            event.unset("noagent")
            event.fields["noagent"] = (rl.word("noagent"),)
            done = True
    return done


@rule("jade-named")
def jade_named(r, subjects, rl) -> bool:
    """覲禮 遂執玉, 遂升受玉, 王撫玉; 聘禮 公側授宰玉: 玉 (jade, no term: the class of the jades)
    right after an act that names no other thing is the jade last handled in the rite (the 璧
    the king's envoy brings, 2.1.2 用璧勞; the 圭 of the mission), implied."""
    if not any(w in r.ctx.clause_text for w in rl.words["jade"]):
        return False
    tokens = tokenize(r.ctx.clause_text, r.lex)
    jades = set(rl.words["jades"])
    done = False
    for i, token in enumerate(tokens[1:], 1):
        act = tokens[i - 1].of("action")  # 授宰玉: a person between
        if not act and i > 1 and tokens[i - 1].of("role"):
            act = tokens[i - 2].of("action")
        if token.text not in rl.words["jade"] or token.kinds or not act:
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and not nxt.kinds.keys() & {"action"}:
            if nxt.text not in word_values("preposition"):
                continue  # 奉玉錦束: jade and silk, a thing of its own
        event = next((e for e in r.events if e.kind == act and "theme" not in e.fields), None)
        last = next(
            (
                t
                for _, e in reversed(r.ctx.history)
                for t in e.fields.get("theme", ())
                if t in jades
            ),
            None,
        )
        if event is not None and last:
            event.set("theme", (last,), "?")
            done = True
    return done


@rule("thing-in-name")
def thing_in_name(r, subjects, rl) -> bool:
    """工左瑟, 朝服: an act whose name ends with the thing it handles (yl:namesThing) has that
    thing for its theme when no other is written: the thing its form in the clause is (朝服,
    an altLabel of 服: the court dress worn), else the longest object its name ends with."""
    text = r.ctx.clause_text
    objects = r.lex.forms["object"]
    done = False
    for event in r.events:
        if "theme" in event.fields or not r.lex.has(event.kind, "namesThing"):
            continue
        written = [
            form
            for form, kind in r.lex.forms["action"].items()
            if kind == event.kind and form in text and form in objects
        ]
        named = [form for form, kind in r.lex.forms["action"].items() if kind == event.kind]
        thing = objects[max(written, key=len)] if written else None
        thing = (
            thing
            or next(  # 還璧, written for 還玉: the 璧 (its form's end, then its name's)
                (
                    t
                    for name in [f for f in named if f in text] + [event.kind]
                    for k in range(1, len(name))
                    if (t := objects.get(name[k:]))
                ),
                None,
            )
        )
        if thing:
            event.set("theme", thing)
            done = True
    return done


def _held(r, rl, index: int, within: int, doer: set) -> list:
    """The acts of the last ``within`` that left a thing in hand (not a thing itself only taken
    to be in hand), of anyone (doer empty) or the doer's (his agent or recipient; not the one a
    thing is declined to, 辭一席: the host is not handed the mat). Anyone's thing from an
    earlier paragraph only among the last few acts (宰右執鐙: not the 鼎 laid out before)."""
    near = len(r.ctx.history) - int(rl.word("other-paragraph"))
    listed = max(r.ctx.listed[1], r.ctx.unnamed_at)  # 鼎二七，…設于阼階前: not the cover laid
    # before the list; 取肝…加于菹豆: not the cup held before a thing no term names was taken
    recent = [
        e
        for n, (cid, e) in enumerate(r.ctx.history[-within:], max(0, len(r.ctx.history) - within))
        if (doer or paragraph_of(cid) == r.ctx.paragraph or n >= near) and n >= listed
    ] + r.events[:index]

    def party(e: Event) -> set:
        return set(e.agent) | set(() if e.kind in rl.words["addressed"] else e.fields.get("to", ()))

    return [
        e
        for e in recent
        if "theme" in e.fields
        and e.kind not in rl.words["not-held"]
        and e.get("neg") != "1"
        and not r.in_hand(e)
        and (not doer or doer & party(e))
    ]


@rule("unnamed-taken")
def unnamed_taken(r, subjects, rl) -> bool:
    """右兼取肝, 上佐食舉尸一魚, 上佐食舉尸牢幹: taking up a thing no term names (the word right
    after the act, or after whose portion it is: a person and 牢, 腊, a numeral) puts that thing
    in hand: a thing or 之 implied after it (受, 嚌之, 加于俎) is that one, unnamed, not the cup
    or dish handled before it (the carry of things stops there, rule thing-in-hand); also when
    the act holds it in a vessel named before it (宰夫以籩受嗇黍。主人嘗之: the millet)."""
    for event in r.events:
        if event.kind not in rl.words["takes"]:
            continue
        tokens = tokenize(r.ctx.clause_text, r.lex)
        verb = next((k for k, t in enumerate(tokens) if t.of("action") == event.kind), None)
        if verb is None:
            continue
        named = {t.of("object") for t in tokens[verb + 1 :] if t.of("object")}
        if set(event.fields.get("theme", ())) & named:
            continue  # (舉尸牢肺正脊: the things named after the act, in hand)
        rest = tokens[verb + 1 :]
        if rest and rest[0].of("role"):  # 舉尸一魚: whose portion
            rest = rest[1:]
        while rest and rest[0].text in word_class("numeral"):
            rest = rest[1:]
        if rest and not rest[0].kinds and not is_function_word(rest[0].text):
            held = "theme" in event.fields  # (以籩受嗇黍: the vessel it is held in, not it)
            r.ctx.unnamed_at = len(r.ctx.history) + r.events.index(event) + held
            return True
    return False


@rule("zhu-thing-gloss")
def zhu_thing_gloss(r, subjects, rl) -> bool:
    """士相見禮 徧嘗膳〔注：膳謂進庶羞〕: a thing of the clause that the 注 glosses as meaning
    another (W謂…X, up to the gloss's end), one thing the ontology names, is that thing: the
    dishes tasted, not the ruler's wine the word names elsewhere."""
    if not r.ctx.notes:
        return False
    note, done = r.ctx.notes[0], False
    for event in r.events:
        themes = list(event.fields.get("theme", ()))
        for k, thing in enumerate(themes):
            at = note.find(thing + rl.word("means"))
            if at < 0 or thing not in r.ctx.clause_text:
                continue
            gloss = re.split(rl.word("ends"), note[at + len(thing) + 1 :])[0]
            meant = {t.of("object") for t in tokenize(gloss, r.lex) if t.of("object")}
            if len(meant) == 1 and thing not in meant:
                themes[k] = meant.pop()
                event.set("theme", tuple(themes), event.marks.get("theme"))
                done = True
    return done


@rule("listed-put-in")
def listed_put_in(r, subjects, rl) -> bool:
    """肩臂臑膞骼，正脊一…代脅一，…腸三胃三舉肺一祭肺三，實于一鼎: an act that handles a thing
    and names none, right after clauses of its sentence that only list things (no act since
    the sentence's last one), handles all the things they list (implied), not only the last
    clause's nor one handled before the list."""
    if subjects or not r.events or r.ctx.clause_text.startswith(rl.words["generic"]):
        return False
    event = r.events[0]
    if "theme" in event.fields or not (
        r.lex.has(event.kind, "handlesThing") or event.kind in rl.words["also"]
    ):
        return False
    last = r.ctx.history[-1][0] if r.ctx.history else ""
    ids = [c for c in r.ctx.texts if sentence_of(c) == r.ctx.sentence][:-1]
    if last in ids:
        ids = ids[ids.index(last) + 1 :]
    tokens = tokenize(r.ctx.clause_text, r.lex)
    verb = next((k for k, t in enumerate(tokens) if t.of("action") == event.kind), None)
    if verb is None or verb + 1 >= len(tokens) or tokens[verb + 1].text not in rl.words["to"]:
        return False  # 實于一鼎: straight to where it goes, no thing named
    things = _listed_things(r, rl, ids)
    if not things:
        return False
    goal = {t.of("object") for t in tokens[verb + 1 :]}  # 侑俎…載于一俎: not the stand itself
    event.set("theme", tuple(dict.fromkeys(t for t in things if t not in goal)), "?")
    return True


def _listed_things(r, rl, ids: list[str]) -> list[str]:
    """The things the clauses ``ids`` list, when each names none or only lists (things, counts,
    words no term names) and at least the rule's ``lists`` of them name things (a list of
    several, not one count: 鼎二七); else none (有醢，亦用瓦豆: said of a dish, not a list)."""
    things: list[str] = []
    naming = 0
    for c in ids:
        listed = tokenize(r.ctx.texts[c], r.lex)
        named = [str(t.of("object")) for t in listed if t.of("object") and not t.of("action")]
        if named and not all(_list_item(t, rl.words["names"]) for t in listed):
            return []
        things += named
        naming += bool(named)
    return things if naming >= int(rl.word("lists")) else []


@rule("drained-cup")
def drained_cup(r, subjects, rl) -> bool:
    """士虞禮 尸卒爵，祝受; 士昏禮 婦…卒爵，姑受; 少牢饋食禮 祝…卒爵…坐授主婦。主婦受: receiving or
    handing over naming nothing, right after a cup was drained (an act that names its cup,
    yl:namesCup: 卒爵) with nothing handled since, in the paragraph, is that cup, the empty
    one passed on (受 theme=爵?): not the last thing handled before the drinking."""
    done = False
    for event in r.events:
        if "theme" in event.fields or event.kind not in rl.words["acts"]:
            continue
        cup = _cup_just_drained(r, rl)
        if cup:
            event.set("theme", (cup,), "?")
            done = True
    return done


def _cup_just_drained(r, rl) -> str | None:
    """The cup named by the drinking act among the last few acts of the paragraph (卒爵 → 爵),
    when no act since has handled a thing."""
    for pid, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
        if paragraph_of(pid) != r.ctx.paragraph or earlier.fields.get("theme"):
            return None
        if r.lex.has(earlier.kind, "namesCup"):
            cups = r.lex.forms["object"]
            ends = (earlier.kind[k:] for k in range(len(earlier.kind)))
            return next((cups[end] for end in ends if end in cups), None)
    return None


@rule("thing-in-hand")
def thing_in_hand(r, subjects, rl) -> bool:
    """坐奠于薦南, 授主人, 反奠于豐上: an act that always handles a thing (yl:handlesThing) and
    names none handles the thing its doer last took, held or was handed (a cup, a bow; not
    the wine he poured, 酌散), else the one last handled by anyone (implied, ?). Not in a rule
    of the 記 about any such act (凡奠者于左)."""
    if r.ctx.clause_text.startswith(rl.words["generic"]):
        return False
    done = unnamed = False
    for index, event in enumerate(r.events):
        if "theme" in event.fields:
            continue
        if not (r.lex.has(event.kind, "handlesThing") or event in r.carried):
            continue
        if _meat_raised(r, event):
            continue  # 司馬升羊右胖, 合升, 髀不升: the meat, named by no term or implied
        if _names_unnamed_thing(r, event) or (unnamed and event in r.carried):
            unnamed = True  # 士受馬以出: the horse he goes out with, not the silk handled before
            continue
        doer = set(event.agent)
        brought = _brought_to(r, rl, event) or _just_received(r, rl, event)
        if brought:  # 次賓羞燔。主人受: what another just brought him, not his own cup
            if not _beside_itself(r, rl, event, brought):
                event.set("theme", brought, "?")
            done = True  # (or, nothing set beside itself, decided it takes none)
            continue
        held = _held(r, rl, index, int(rl.word("within")), doer=set())
        own = _held(r, rl, index, int(rl.word("own-within")), doer)
        source = (own if doer else held) or held
        listed = r.ctx.listed[0]
        if not source and listed and _first_since(r, r.ctx.listed[1]):
            if not _beside_itself(r, rl, event, listed):
                event.set("theme", listed, "?")  # 鼎二七，…設于阼階前: the 鼎 listed
            done = True
            continue
        if source:
            things = source[-1].fields["theme"]
            for other in _followed(r, rl, doer):  # 獲者執其薦，使人執俎從之，辟設于乏南
                found = _held(r, rl, index, int(rl.word("within")), other)
                things = (*found[-1].fields["theme"], *things) if found else things
            if not _beside_itself(r, rl, event, things):
                event.set("theme", tuple(dict.fromkeys(things)), "?")
            done = True
    return done


def _beside_itself(r, rl: Rule, event: Event, things) -> bool:
    """既夕禮 記 奠升，設于柩西: an act whose place (after 于) is named after the very things it
    would be given (柩西, west of the coffin) does not handle them: nothing is set beside
    itself (有司徹 實于一俎以出, 鄉射禮 委于楅: not the stand nor the rack); 設乏西十北十 (no 于)
    still sets the 乏."""
    if rl.word("at") not in r.ctx.clause_text:
        return False
    places = [p for key in rl.words["places"] for p in event.fields.get(key, ())]
    return bool(places) and all(any(p.startswith(t) for p in places) for t in things)


def _brought_to(r, rl, event) -> tuple[str, ...]:
    """次賓羞燔。主人受; 婦贊者執二籩麷蕡…主婦不興，受: receiving naming nothing takes what
    another just brought or held out to him (羞, 執, 授: the last acts, in the paragraph), not
    the thing the receiver himself last handled (his cup)."""
    if event.kind not in rl.words["receive"] or not event.agent:
        return ()
    recent = r.ctx.history[-int(rl.word("brought-within")) :]
    for k in range(len(recent) - 1, -1, -1):
        pid, earlier = recent[k]
        if paragraph_of(pid) != r.ctx.paragraph:
            break
        if set(earlier.agent) & set(event.agent):
            continue
        if earlier.kind in rl.words["brings"] and earlier.fields.get("theme"):
            if earlier.marks.get("theme") and not _lifted_then_handed(recent[:k], earlier, rl):
                return ()  # (what he holds out only implied: left to the thing in hand)
            return tuple(earlier.fields["theme"])
        if earlier.agent and earlier.kind not in rl.words["follow"]:
            break  # (執豕鉶以從: what he holds as he follows)
    return ()


def _lifted_then_handed(before, handed, rl) -> bool:
    """士虞禮 佐食舉肺脊授尸。尸受: the thing handed, implied, is what the same man lifted or held,
    named, in the act just before it: what the receiver takes (rule thing-in-hand)."""
    if not before:
        return False
    lifted = before[-1][1]
    return (
        lifted.agent == handed.agent
        and lifted.kind in rl.words["brings"]
        and not lifted.marks.get("theme")
        and lifted.fields.get("theme") == handed.fields.get("theme")
    )


def _just_received(r, rl, event) -> tuple[str, ...]:
    """主婦不興，受，設于羊鉶之西: what the doer received in the act just before, not a thing he
    handled earlier (the mutton 鉶 he took himself)."""
    if not r.ctx.history or not event.agent or event.kind not in rl.words["sets"]:
        return ()
    last = r.ctx.history[-1][1]
    if last.agent != event.agent or last.kind not in rl.words["receive"]:
        return ()
    return tuple(last.fields.get("theme", ()))


def _meat_raised(r, event) -> bool:
    """The act is 升 of meat read as 實 or 載 (rule meat-raised): its thing is the meat."""
    rl = rule_named("meat-raised")
    if event.kind not in (rl.word("into-vessel"), rl.word("onto-stand")):
        return False
    return rl.word("raise") in r.ctx.clause_text and event.kind not in r.ctx.clause_text


def _names_unnamed_thing(r, event) -> bool:
    """The act's clause names its thing right after the verb by a word no term names nor is a
    function word (聘禮 士受馬, 大夫二手授栗; 公食大夫禮 宰右執鐙): that thing, not one carried."""
    tokens = tokenize(r.ctx.clause_text, r.lex)
    acts = [k for k, t in enumerate(tokens) if t.of("action")]
    for k, token in enumerate(tokens[:-1]):
        if token.of("action") == event.kind or (acts == [k] and len(r.events) == 1):
            nxt = tokens[k + 1]  # (the one verb of the clause, its act read anew: 升羊 → 實)
            if nxt.text == rule_named("offering-handled").word("offering"):
                return True  # 士虞禮 尸取奠: the offering, its thing (rule offering-handled)
            return not nxt.kinds and not is_function_word(nxt.text) and len(nxt.text) == 1
    return _fronted_unnamed(tokens, acts)


def _fronted_unnamed(tokens, acts: list[int]) -> bool:
    """髀不升: a word no term names opening the clause, then a negation and its one verb: the
    thing (not) handled, named, not one carried."""
    if acts != [2] or tokens[0].kinds or is_function_word(tokens[0].text):
        return False
    return tokens[1].text in word_class("negation")


def _first_since(r, at: int) -> bool:
    """The things were listed (at: where in the history) in this paragraph, at most one act
    ago, and no act since handled a thing."""
    _, _, paragraph = r.ctx.listed
    if at < len(r.ctx.history) - 1 or paragraph != r.ctx.paragraph:
        return False
    return not any("theme" in e.fields for _, e in r.ctx.history[at:])


def _followed(r, rl, doer: set) -> list[set]:
    """The one who just followed the doer carrying something, or whom the doer just followed
    (從: 庶子執俎從之), when the act before is that following: each sets down his own thing."""
    last = r.ctx.history[-1][1] if r.ctx.history else None
    if not doer or last is None or last.kind not in rl.words["follow"]:
        return []
    party = set(last.agent) | set(last.fields.get("to", ()))
    return [party - doer] if doer & party and party - doer else []


@rule("so-round")
def so_round(r, subjects, rl) -> bool:
    """有司徹 …不拜既爵。若是以辯 / 皆若是以辯: 'so, to every one of them' (若 = 如, 注: 今文若為如)
    after an offering is the round done so again: 如 like=是, by the one who offered (獻), or,
    with 皆, by those offered to, each as the first; no act of its own otherwise."""
    text = r.text
    all_ = text.startswith(rl.word("all"))
    if subjects or text.removeprefix(rl.word("all")) != rl.word("so-round"):
        return False
    for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
        if earlier.kind == rl.word("offer") and earlier.agent and earlier.get("to"):
            doers = earlier.fields["to"] if all_ else earlier.agent
            event = r.new_event(rl.word("like"))
            event.set("like", rl.word("so"))
            event.set("agent", doers, "?" if all_ else "^")
            return True
    return False


@rule("dress-worn")
def dress_worn(r, subjects, rl) -> bool:
    """既夕禮 丈夫髽 / 衆主人布帶 / 士虞禮 祝免 / 士昏禮 女次 / 姆纚笄宵衣: a person named
    and only the dress he has on (a word of dress, 髽 免 絰 帶 衰 次 袗 纚 笄, and the words
    that qualify it), no verb, no place, is his wearing it, 服 (the garments the terms name its
    theme), not a description; his name stays the subject of the next clause, as before; with
    where he puts it on, 于X ending the clause (士喪禮 衆主人免于房, 婦人髽于室 → at=); not with no
    one named (魚次腊特于俎北: 次, next, no dress)."""
    if not subjects or r.face:
        return False
    rest = [t for t in tokenize(r.text, r.lex) if not t.of("role")]
    if r.at:
        rest = list(takewhile(lambda t: t.text not in rl.words["at"], rest))
    dress_act = rl.word("act")  # 玄端: a garment the act of dress is named by, no other act
    if not rest or any(
        t.of("place") or t.of("direction") or (t.of("action") and not worn(t, (), dress_act))
        for t in rest
    ):
        return False
    if any(t.of("action") for t in rest) and not all(t.kinds for t in rest):
        return False  # 記 三王共皮弁素積: what they have in common (共), no one dressing
    if not any(c in t.text for t in rest for c in rl.words["dress"]):
        return False
    event = r.new_event(rl.word("act"))
    event.set("agent", subjects)
    things = [t.of("object") for t in rest if t.of("object")]
    if things:
        event.set("theme", tuple(things))
    if r.at:
        event.set("at", tuple(r.known_place(a) for a in r.at))
        r.at.clear()
    r.ctx.pending = (tuple(subjects), ())
    r.ctx.pending_at = r.ctx.clauses
    r.ctx.pending_sentence = r.ctx.sentence
    return True


@rule("denied-unknown")
def denied_unknown(r, subjects, rl) -> bool:
    """有司徹 主人送于廟門之外，拜，尸不顧。拜侑與長賓: persons, 不 and a word the ontology does
    not name as an act (顧, 與), the whole clause and the last of its sentence, say what they do
    not do: no subject left waiting for the next sentence, which goes on with the one carried."""
    tokens = r.tokens
    k = next((j for j, t in enumerate(tokens) if t.text in rl.words["not"]), None)
    if not subjects or k is None or k == 0 or k != len(tokens) - 2:
        return False
    if not r.ctx.sentence_text.endswith(r.ctx.clause_text):
        return False  # 少牢 主人不言，拜侑: he bows without a word, the next clause his
    if tokens[-1].kinds or not all(t.of("role") or t.text in rl.words["and"] for t in tokens[:k]):
        return False
    r.subjects.clear()
    return True


@rule("thing-goes")
def thing_goes(r, subjects, rl) -> bool:
    """記 俎由東壁，自西階升: a thing and 由X opening a sentence, no one named, is the thing
    going that way: no event, and the next act of the sentence moves it (rule thing-moved)."""
    if subjects or not r.topic or set(r.before) != {"via"} or r.at or r.face:
        return False
    if not r.ctx.new_sentence:
        return False
    r.ctx.thing_going = (tuple(r.topic), r.before["via"], r.ctx.sentence)
    return True


@rule("thing-moved")
def thing_moved(r, subjects, rl) -> bool:
    """俎由東壁，自西階升 → 升 theme=俎 via=東壁: the act after a thing going some way (rule
    thing-goes), in its sentence and naming no one, is that thing's going."""
    going, r.ctx.thing_going = r.ctx.thing_going, None
    if going is None or subjects or going[2] != r.ctx.sentence or not r.events:
        return False
    event = r.events[0]
    if "theme" in event.fields or "via" in event.fields:
        return False
    event.set("theme", going[0])
    event.set("via", going[1])
    return True


@rule("made-with")
def made_with(r, subjects, rl) -> bool:
    """記 …橫于上。醢以豆 / 士布侯，畫以鹿豕 / 旌，各以其物: a clause with no verb and no one,
    only 以X, right after a clause with no act (a description, a thing named, a condition)
    goes on describing: what the thing is held in or made with, no theme of an earlier act."""
    if subjects or "theme" not in r.before or r.at_marked or r.face:
        return False
    if r.topic:
        return True  # 醢以豆: a thing, and what it is held in
    before = r.ctx.clause_before()
    if before is None:
        return False
    return not (r.ctx.history and r.ctx.history[-1][0] == before[0])


@rule("elided-act")
def elided_act(r, subjects, rl) -> bool:
    """釋獲者每一個釋一算，上射于右，下射于左: a person and 于 a place with no verb, just after
    an act done for each of several (the tally for each archer), is that act again,
    for him and put there: not a subject waiting for the next clause's verb."""
    place = r.at or ([r.side] if r.side else [])
    if not (subjects and place and (r.at_marked or r.side)) or r.face:
        return False
    last = _last_event(r.ctx)
    if last is None or last.kind not in rl.words["acts"] or not last.agent:
        return False
    event = _laid_at(r.new_event(last.kind), place)
    event.set("agent", last.agent, "^")
    event.set("to", subjects)
    if "cond" in last.fields and "cond" not in event.fields:
        event.fields["cond"] = last.fields["cond"]  # 若中，則…釋一算，上射于右: still if a hit
    return True


@rule("set-out-too")
def set_out_too(r, subjects, rl) -> bool:
    """天子設斧依于戶牖之間，左右几 / 宰夫設筵，加席几: a clause that is only things (after a side
    word, 左右), naming no one, right after an act of setting out that named its thing in the
    sentence, is more things set out (設), by the same one: not a description."""
    if subjects or r.at or r.face or r.before or not r.topic:
        return False
    tokens = tokenize(r.ctx.clause_text, r.lex)
    rest = [t for t in tokens if t.text not in rl.words["sides"]]
    if len(rest) != len(r.topic) or not all(set(t.kinds) == {"object"} for t in rest):
        return False
    last = r.ctx.last_act()
    if last is None or sentence_of(last[0]) != r.ctx.sentence:
        return False
    laid = last[1].kind in rl.words["after"] and last[1].fields.get("theme")
    if not (laid or last[1].kind == rl.word("mat")):  # 主人筵于户西，西上，右几: the mat laid
        return False
    event = r.new_event(rl.word("act"))
    event.set("theme", tuple(r.topic))
    sides = [t.text for t in tokens if t.text in rl.words["sides"]]
    if len(sides) == 1:
        event.set("dest", sides[0])  # 右几: on the right (左右几: on either side, no one place)
    if last[1].agent:
        event.set("agent", last[1].agent, "^")
    else:
        event.no_doer()
    return True


@rule("dish-alone")
def dish_alone(r, subjects, rl) -> bool:
    """胥薦主人于洗北，西面，脯醢 / 薦脯醢，折俎: a clause that is only a dish, after food was
    presented, is what was presented (``+ theme=``), or, when that act named its dish, one more
    set out (設) for the same one (rule served-one)."""
    if subjects or r.at or r.face or r.before or len(r.topic) != 1:
        return False
    dish = r.topic[0]
    if dish not in rl.words["dishes"]:
        return False
    last = _last_event(r.ctx)
    if last is None or last.kind not in rl.words["after"]:
        return False
    if "theme" not in last.fields:
        event = Event("", modifier=True)
        event.set("theme", (dish,))
        r.events.append(event)
        return True
    if dish in last.fields["theme"]:
        return False
    event = r.new_event(rl.word("act"))
    event.set("theme", (dish,))
    event.fields["noagent"] = ("unstated",)
    _serve(r, event)
    return True


def _serve(r: ClauseReader, event: Event) -> None:
    """The dish set out for the one just offered the cup (rule served-one)."""
    served = _last_offered(r, rule_named("served-one"))
    if served:
        event.set("to", served, "?")


@rule("stance-ahead")
def stance_ahead(r, subjects, rl) -> bool:
    """賓右北面，至再拜: a place and a facing with no subject and no verb, first in a sentence
    in which an act follows, are where and how the next act is done (the 主人 at the 賓's right,
    facing north, bows), not an addition to the sentence before."""
    ctx = r.ctx
    if subjects or not (r.at and r.face) or r.before or r.upper or not ctx.new_sentence:
        return False
    if not any(_has_act(r, text, rl) for text in ctx.rest_of_sentence):
        return False
    ctx.pending = ((), tuple(r.at))
    ctx.pending_at = ctx.clauses
    ctx.pending_sentence = ctx.sentence
    ctx.pending_face = r.face
    return True


@rule("stance-after-move")
def stance_after_move(r, subjects, rl) -> bool:
    """侑降筵自北方，北面于西楹西，坐卒爵; 主婦執爵以出于房，西面于主人席北，立卒爵: a facing
    and a place with no subject and no verb, right after a going that named where it went from
    or to (降筵自北方, 出于房) and right before an act of the sentence, are where and how that act
    is done (注: 出房立卒爵，宜鄉尊), not more of the going (as rule stance-ahead)."""
    ctx = r.ctx
    if subjects or not (r.at and r.face) or r.before or r.upper or ctx.new_sentence:
        return False
    if not ctx.rest_of_sentence or not _has_act(r, ctx.rest_of_sentence[0], rl):
        return False
    last = ctx.last_act()
    if last is None or sentence_of(last[0]) != ctx.sentence:
        return False
    move = last[1]
    if not r.is_a(move.kind, r.lex.label(YL.Movement)):
        return False
    placed = [v for key in rl.words["placed"] for v in move.fields.get(key, ())]
    if not placed or all(v in word_class("compass") for v in placed):
        return False  # (祝受以東，北面于户西: a way gone, 東, is no place left for the act)
    ctx.pending = ((), tuple(r.at))
    ctx.pending_at = ctx.clauses
    ctx.pending_sentence = ctx.sentence
    ctx.pending_face = r.face
    return True


@rule("walks-by")
def walks_by(r, subjects, rl) -> bool:
    """司馬適堂西，袒執弓，由其位南: a clause that is only 由 and a place, after an act that is no
    movement (a salute, taking up a bow), is the one carried over walking that way (行 via=), a
    new step of his; after a movement or a bringing (三耦皆進，由司射之西; 宰胥薦脯醢，由左房) it
    is the way that one went (rule place-of-last-act, + via=). A person named with it, the
    whole clause, walks that way himself (既夕禮 宰由主人之北; 士喪禮 主人由足西)."""
    ctx = r.ctx
    if r.topic or set(r.before) != {rl.word("via")} or r.face or r.upper:
        return False
    if subjects:  # 既夕禮 宰由主人之北; 士喪禮 主人由足西: the one named walks that way
        named = ctx.clause_text.partition(rl.word("by"))[0]
        if r.at or named.endswith(rl.word("zhe")):
            return False  # (燕禮 樂正由楹内東楹之東: a going to; 奠者由重南: who, not guessed)
        r.new_event(rl.word("act")).set("agent", subjects)
        return True
    last = _last_event(ctx)
    if last is None or not ctx.agent or ctx.sentence.startswith(rl.words["part"]):
        return False
    own_case = ctx.condition and ctx.condition not in last.fields.get("cond", ())
    moved = last.kind not in rl.words["passing"] and any(
        r.is_a(last.kind, r.lex.label(c)) for c in (YL.Movement, YL.SettingOut)
    )  # 相左，由堂下西階之東: after passing each other, the way he then goes
    if moved and not own_case:  # (豫則鈎楹内，堂則由楹外: the other case, a way of its own)
        return False
    event = r.new_event(rl.word("act"))
    event.set("agent", ctx.agent, "^")
    return True


@rule("owner-listed")
def owner_listed(r, subjects, rl) -> bool:
    """記 主人俎，脊、脅、臂、肺: a person and a thing, no verb, no place nor facing, in the 記,
    is whose the thing is (the host's stand, what it holds listed after it): no one is left as
    the subject of the next clause (進腠 is how the meat lies, not the host going forward);
    not before an act of its sentence (公食大夫禮 記 宰夫筵，出自東房: the 宰夫 lays the mat
    and comes out)."""
    if not (subjects and r.topic) or r.at or r.face or r.before or r.upper:
        return False
    if not r.ctx.sentence.startswith(rl.words["part"]):
        return False
    after = tokenize(r.ctx.rest_of_sentence[0], r.lex) if r.ctx.rest_of_sentence else []
    if any(t.of("action") for t in after):
        return False
    r.ctx.pending = None
    return True


@rule("row-if-facing")
def row_if_facing(r, subjects, rl) -> bool:
    """繼三耦而立，東上。…若有東面者，則北上: only an end of honour (X上) under a condition that
    some face another way (若有Y面者) is the same row again for those: the last act (立, 席) once
    more, facing Y, upper X, its doer or the one seated carried over, under the condition."""
    ctx = r.ctx
    if subjects or not r.upper or r.face or r.at or r.before or not ctx.condition:
        return False
    facing = [t.of("direction") for t in tokenize(ctx.condition, r.lex) if t.of("direction")]
    if not facing or not ctx.condition.endswith(rl.word("facing")):
        return False
    last = _last_event(ctx)
    if last is None or last.kind not in rl.words["rows"]:
        return False
    event = r.new_event(last.kind)
    event.set("face", facing[-1])
    event.set("upper", r.upper)
    for key in ("agent", "to"):
        if last.fields.get(key):
            event.set(key, last.fields[key], "^" if key == "agent" else "?")
    if "noagent" in last.fields:
        event.fields["noagent"] = last.fields["noagent"]
    return True


@rule("place-of-last-act")
def place_of_last_act(r, subjects, rl) -> bool:
    """主人降洗，洗南，西北面 / 遂獻左右正與内小臣，皆于阼階上，如獻庶子之禮: a clause that is
    only a place (and a facing), not first in its sentence, with no act after it in the
    sentence (a 如X is none), is where the act just before was done (``+ at=``), or where it
    went or was set out (``+ dest=``: 升…兩楹之間); not the next act's place (西階上，北面作衆賓射),
    nor in the 記."""
    ctx = r.ctx
    if subjects or r.topic or not r.at or r.before or r.upper or ctx.new_sentence:
        return False
    if ctx.sentence.startswith(rl.words["part"]):
        return False  # a rule of the 記 (朝服，于寢: where the feast is held)
    if any(_has_act(r, text, rl) for text in ctx.rest_of_sentence):
        return False
    last = ctx.last_act()
    if last is None or sentence_of(last[0]) != ctx.sentence:
        return False  # 卒祭，左個之西北三步，東面: no act of the sentence to place
    last = last[1]
    # going (升…兩楹之間) or setting out (席工于西階上，少東): where it goes; else where it was done
    going = any(r.lex.has(last.kind, frame) for frame in ("goalObject", "unstatedAgent"))
    going = going or "dest" in last.fields  # 牛羊豕陳于門内，西方: more of where they were laid
    ctx.pending = None
    event = Event("", modifier=True)
    event.set("dest" if going else "at", r.at)
    if r.face:
        event.set("face", r.face)
    r.events.append(event)
    return True


def _has_act(r: ClauseReader, text: str, rl: Rule) -> bool:
    """Whether a clause names an act, other than 如X (the procedure repeated)."""
    if text.startswith(rl.words["like"]):
        return False
    return any("action" in t.kinds for t in tokenize(text, r.lex))


@rule("each-to-his-place")
def each_to_his_place(r, subjects, rl) -> bool:
    """主人堂東，賓堂西，皆袒決遂: a person and a place and no verb, beside another person and
    another place in the same sentence, is each going to his own side (適 dest=X), not a
    subject and a place waiting for the act after them, which both do, each at his side."""
    ctx = r.ctx
    if len(subjects) != 1 or len(r.at) != 1 or r.face or r.before or r.at_marked:
        return False
    texts = list(ctx.rest_of_sentence[:1])
    if not ctx.new_sentence and (before := ctx.clause_before()) is not None:
        texts.append(before[1])  # the clause before, in the sentence
    if not any(_other_at_other_place(r, text, subjects[0], r.at[0]) for text in texts):
        return False
    event = _laid_at(r.new_event(rl.word("act")), r.at)
    event.set("agent", subjects)
    r.ctx.pending = None
    return True


@rule("side-kept")
def side_kept(r, subjects, rl) -> bool:
    """並行，上射于左: a person and 于 a side alone, no verb, not an act again (elided-act), is
    the side that one keeps as the pair walks, a description: no act, and no subject left for
    the next clause (與升射者相左 is the pair's, carried on)."""
    if not (subjects and r.side) or r.at or r.face:
        return False
    r.ctx.pending = None
    return True


def _other_at_other_place(r: ClauseReader, text: str, role: str, place: str) -> bool:
    """Whether a clause is only another person and another place (賓堂西 beside 主人堂東)."""
    tokens = tokenize(text, r.lex)
    if len(tokens) != 2:
        return False
    other, there = tokens[0].of("role"), tokens[1].of("place")
    return bool(other and there and other != role and there != place)


@rule("faces-person")
def faces_person(r, subjects, rl) -> bool:
    """士虞禮 記 祝前，鄉尸。還，出户，又鄉尸: a clause that is only (又) 鄉 and a person, no verb,
    is the one carried over turning toward him as he goes (注: 鄉尸，還，出户，又鄉尸，每將還必
    鄉之者), no subject: the person faced is not the subject of the next clause, the one
    turning is (in the 記 too, whose next sentence otherwise names no one)."""
    text = r.text
    for word in rl.words["again"]:
        text = text.removeprefix(word)
    if not subjects or not text.startswith(rl.word("toward")):
        return False
    if text[len(rl.word("toward")) :] not in subjects or len(subjects) != 1:
        return False
    r.ctx.pending = None
    if r.ctx.agent:  # the one turning is the subject of the next clause, as if named here
        r.ctx.pending = (tuple(r.ctx.agent), ())
        r.ctx.pending_at = r.ctx.clauses
        r.ctx.pending_sentence = r.ctx.sentence
    return True


@rule("nominal-sentence")
def nominal_sentence(r, subjects, rl) -> bool:
    """司射所作，唯上耦: a clause that ends with 所 and an act (those the 司射 calls), its only
    act, or that is only 唯 and a person (only the first pair) says who is who, no act: no
    subject left for the next clause (卒射 is the shooters', carried on); not 以所執餘獲, where
    the thing follows."""
    if not subjects or not (r.relative or r.text.startswith(rl.word("only"))):
        return False
    r.ctx.pending = None
    return True


@rule("seating-list")
def seating_list(r, subjects, rl) -> bool:
    """卿席賓東，東上。小卿賓西: in a list of mats, a person and a place and no verb is where
    that one's mat is laid (席 to=卿 dest=賓西), not a stance."""
    if not subjects or not r.at or r.face or _recent_mat(r, rule_named("row-of-mats")) is None:
        return False
    event = _laid_at(r.new_event(rl.word("act")), r.at)
    event.set("to", subjects)
    event.fields["noagent"] = ("unstated",)
    return True


def _laid_at(event: Event, place) -> Event:
    """A verbless clause's place as where the thing is put (dest), not where one stands."""
    event.fields.pop("at", None)
    event.set("dest", place)
    return event


def _faced_next(r, rl) -> bool:
    """記 立者，東面北上: a clause that is only persons, followed by the last clause of its
    sentence, which is only a facing (and an end of honour)."""
    rest = r.ctx.rest_of_sentence
    if r.at or r.topic or r.before or len(rest) != 1:
        return False
    tokens = tokenize(rest[0], r.lex)
    marks = rl.words["facing-marks"]
    return any(t.of("direction") for t in tokens) and all(
        t.of("direction") or t.text in marks for t in tokens
    )


def _after_persons(r) -> bool:
    """西面北上, ending its sentence, right after a clause that was only persons (主人之贊者),
    naming no thing (not 筵祝，南面: the 祝's mat laid facing south)."""
    ctx = r.ctx
    clause_before = ctx.clause_before()
    before = tokenize(clause_before[1], r.lex) if clause_before else []
    if any(t.of("object") and not t.of("role") for t in before):
        return False
    return bool(
        ctx.ends_sentence
        and ctx.pending
        and ctx.pending[0]
        and not ctx.pending[1]
        and ctx.pending_at == ctx.clauses - 1
        and ctx.pending_sentence == ctx.sentence
        and not (r.at or r.topic or r.before)
    )


def _row_next(r, rl) -> bool:
    """The next clause of the sentence is only a facing and an end of honour (東面北上)."""
    rest = r.ctx.rest_of_sentence
    if not rest or not _only_facing(r, rest[0], rl):
        return False
    tokens = tokenize(rest[0], r.lex)
    marks = rl.words["facing-marks"]
    return any(t.text == marks[-1] for t in tokens) and any(t.of("direction") for t in tokens)


def _only_facing(r, text: str, rl) -> bool:
    """Is this clause only a facing (directions and 面, 上: 東面北上)?"""
    tokens = tokenize(text, r.lex)
    marks = rl.words["facing-marks"]
    return bool(tokens) and all(t.of("direction") or t.text in marks for t in tokens)


@rule("placed-row")
def placed_row(r, subjects, rl) -> bool:
    """士西方，東面北上: persons and a place and no verb, the rest of the sentence only their
    facing, is where they are (在 agent=士 at=西方; the facing added next), not subjects waiting
    for a verb, nor the facing added to the act before (諸公卿大夫皆入門右)."""
    if not subjects or not r.at or r.face or r.topic or r.before or not _row_next(r, rl):
        return False
    return _are_there(r, subjects, rl)


@rule("placed-alone")
def placed_alone(r, subjects, rl) -> bool:
    """既夕禮 主人柩東，西面; 少牢饋食禮 主人門東，南面; 有司徹 主婦北堂: persons and a place and
    no verb, ending their sentence or followed in it only by a facing with no end of honour,
    are where those persons are (在 agent=主人 at=門東), as placed-row reads a row; not
    subjects waiting for the next sentence's verb, nor a person and 于 a place (歸于賓館,
    記 大夫于主人之北: a seat listed)."""
    if not subjects or not r.at or r.face or r.topic or r.before or r.upper:
        return False
    if any(t.text in rl.words["at"] for t in r.tokens):  # 大夫于主人之北: a seat listed
        return False
    rest = r.ctx.rest_of_sentence
    if rest and (len(rest) != 1 or not _only_facing(r, rest[0], rl)):
        return False
    if not rest and not r.ctx.ends_sentence:
        return False
    return _are_there(r, subjects, rl)


def _are_there(r, subjects, rl) -> bool:
    """The persons of a clause with no verb are where it says (在): their event, and no
    subject left waiting for a verb."""
    r.new_event(rl.word("act")).set("agent", subjects)
    r.ctx.pending = None
    return True


@rule("back-to")
def back_to(r, subjects, rl) -> bool:
    """公食大夫禮 贊者負東房，南面，告具于公; 覲禮 天子袞冕，負斧依: 負X with no verb is standing
    with one's back to X (注: 負東房，負房户而立也), 立 at X when X is a place; his place stays for
    the act after it in the sentence; not when an act follows in the next clause (贊者負東房，
    告備于公: the subject and place of that act), nor 負侯 (an act of its own)."""
    ctx = r.ctx
    if rl.word("back") not in r.text:
        return False
    tokens = r.tokens
    at = next((k for k, t in enumerate(tokens) if t.text == rl.word("back") and not t.kinds), None)
    if at is None or any(t.of("action") or t.of("direction") for t in tokens):
        return False
    if any(t.of("role") for t in tokens[at:]) or r.before:
        return False
    if ctx.rest_of_sentence and _has_act(r, ctx.rest_of_sentence[0], rl):
        return False
    pending = ctx.pending[0] if ctx.pending and ctx.pending_at == ctx.clauses - 1 else ()
    doer, mark = (subjects, "") if subjects else (pending or ctx.agent, "^")
    if not doer:
        return False
    event = r.new_event(rl.word("act"))
    event.set("agent", doer, mark)
    ctx.pending = ((), tuple(r.at)) if r.at else None
    ctx.pending_at = ctx.clauses
    ctx.pending_sentence = ctx.sentence
    return True


@rule("persons-then-place")
def persons_then_place(r, subjects, rl) -> bool:
    """公食大夫禮 小臣，東堂下，南面西上: persons alone, no verb, the next clause of their
    sentence only a place and the last only a facing (and X上), is where they are, as 士西方，
    東面北上 (rule placed-row) with the place cut off by the witness: 在 with the persons, the
    place and the facing added next (rule place-of-last-act)."""
    rest = r.ctx.rest_of_sentence
    if not subjects or r.at or r.face or r.topic or r.before or r.upper or len(rest) != 2:
        return False
    place = tokenize(rest[0], r.lex)
    if not any(t.of("place") for t in place) or rl.word("face") in rest[0]:
        return False
    if any(t.of("role") or t.of("action") for t in place):
        return False
    if not _only_facing(r, rest[1], rl):
        return False
    return _are_there(r, subjects, rl)


@rule("place-after-persons")
def place_after_persons(r, subjects, rl) -> bool:
    """公食大夫禮 賓，西階東，北面答拜: a clause that is only a place, right after a clause of its
    sentence that was only persons, with an act after it in the sentence, is where those persons
    do it: they stay the subject of that act, the place its place (as 主人阼階之東，南面辭洗
    in one clause), not a place alone that forgets them."""
    ctx = r.ctx
    if subjects or not r.at or r.face or r.topic or r.before or r.upper:
        return False
    pending = ctx.pending
    if not (pending and pending[0] and not pending[1]) or ctx.pending_at != ctx.clauses - 1:
        return False
    if ctx.pending_sentence != ctx.sentence:
        return False
    before = ctx.clause_before()
    persons = tokenize(before[1], r.lex) if before else []
    if not all(t.of("role") or t.text in rl.words["and"] for t in persons):
        return False  # 其獻祝與二佐食，其位: the offering to them, not the persons alone
    if not any(_has_act(r, text, rl) for text in ctx.rest_of_sentence):
        return False
    ctx.pending = (pending[0], tuple(r.at))
    ctx.pending_at = ctx.clauses
    return True


@rule("piped")
def piped(r, subjects, rl) -> bool:
    """乃管新宮三終, naming no one in the clause: 奏 written 管, played on the pipes, is the
    pipers' (笙), implied; not the persons of a verbless clause before (羣工陪于後), nor the last
    musician to act."""
    if r.subjects or rl.word("pipe") not in r.text:
        return False
    played = [e for e in r.events if e.kind == rl.word("act")]
    for event in played:
        event.fields.pop("noagent", None)
        event.set("agent", (rl.word("pipers"),), "?")
    return bool(played)


def _nothing_done_next(r, rl) -> bool:
    """司馬正東面，以弓為畢: the next clause of the sentence names no one and does nothing
    (no act, or only 為, what a thing serves as): no act for the stance to wait for (上射東面，
    下射西面: the persons next may be those it waits with); not when the clause names a thing."""
    rest = r.ctx.rest_of_sentence
    if not rest or any(t.of("object") and not t.of("role") for t in r.tokens):
        return False  # 笙磬西面: a chime and how it faces
    tokens = tokenize(rest[0], r.lex)
    return bool(tokens) and all(
        not (t.of("role") or t.of("action")) or t.text in rl.words["serves-as"] for t in tokens
    )


@rule("verbless-stance")
def verbless_stance(r, subjects, rl) -> bool:
    """司馬正東面 (the last clause of its sentence, no verb): where he stands, 立 with the
    subject, the facing and any place."""
    ctx = r.ctx
    if subjects and not r.face and _faced_next(r, rl):
        if rl.word("act") not in r.text:
            return False  # 主人之贊者，西面北上: the stance is the facing's clause (faced-row)
        ctx.pending = None  # 記 立者，東面北上: those standing; the facing is added next (+)
    elif not subjects and r.face and _after_persons(r):
        subjects = ctx.pending[0]  # 主人之贊者，西面北上: they stand so
        ctx.pending = None
    elif not subjects or not r.face:
        return False  # 膳宰具官饌于寢東: a place alone may wait for a verb the lexicon lacks
    elif not (ctx.ends_sentence or _nothing_done_next(r, rl) or r.upper or _row_ahead(r, rl)):
        return False  # (同姓西面北上，異姓東面北上: a row with its end of honour stands)
    elif ctx.pending:
        return False
    event = r.new_event(_stance_act(r, rl))
    event.set("agent", subjects, "" if r.subjects else "^")
    if r.upper:
        event.set("upper", r.upper)  # 立者東面北上
    last = ctx.history[-1][1] if ctx.history else None
    if last is not None and last.agent and set(subjects) <= set(last.fields.get("to", ())):
        event.fields["_aside"] = ("1",)  # 南鄉爾卿。卿西面北上: those bowed to take their places
    return True


# --- r-recipient rules


@rule("urged-one")
def urged_one(r, subjects, rl) -> bool:
    """特牲饋食禮 祝侑, 祝侑之, 祝侑之如初; 少牢饋食禮 獨侑不拜, 主人…拜侑: the act 侑 (注 特牲:
    侑，勸也) urges the 尸 to eat on: its other party is the 尸, at the meal of the rite, not the
    one who acted last (the host whose bow it follows); 之 after it stands for him, not for the
    dishes just set before him (祝侑之 → to=尸, no theme)."""
    impersonator = rl.word("impersonator")
    if impersonator not in r.ctx.parties:
        return False
    done = False
    for event in r.events:
        if event.kind != rl.word("urge") or not event.open_to_guess("to"):
            continue
        if rl.word("urge") + rl.word("it") in r.ctx.clause_text:
            event.unset("theme")  # 祝侑之: 之 is the 尸 urged
        event.set("to", impersonator, "?")
        done = True
    return done


@rule("offering-reaches")
def offering_reaches(r, subjects, rl) -> bool:
    """特牲饋食禮 主婦…獻祝，籩燔從，如初儀。及佐食，如初; 利…獻于尸，酢。及祝，如初儀: 及 and a
    person, the whole clause (不及 denied), after an act done to a person named, is that act
    reaching him too (the offering goes on to the 佐食), to=him, not a going to where he is (及
    dest=佐食); as 及 before a place stays reaching it (及階). Only the
    same one's act goes on: where the last act to a person named was another's (主人獻內兄弟 …
    長兄弟洗觚為加爵 … 不及佐食), 及 stays as read."""
    if len(r.events) != 1 or r.events[0].kind != rl.word("reach"):
        return False
    event = r.events[0]
    reached = event.fields.get("dest", ())
    if len(reached) != 1 or reached[0] not in r.lex.role_classes:
        return False
    words = [t.text for t in r.tokens]
    if words[-2:] != [rl.word("reach"), words[-1]] or not set(words[:-2]) <= set(
        word_class("negation")
    ):
        return False  # (不)及佐食: nothing else in the clause
    for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
        if earlier.modifier or not earlier.get("to") or earlier.marks.get("to"):
            continue
        if r.is_a(earlier.kind, r.lex.label(YL.Salutation)):
            continue
        if set(earlier.agent) != set(event.agent):
            return False  # 獻內兄弟…長兄弟…不及佐食: another's act, not his going on
        event.kind = earlier.kind
        event.unset("dest")
        event.set("to", reached)
        return True
    return False


@rule("ranked-among")
def ranked_among(r, subjects, rl) -> bool:
    """特牲饋食禮 記 宗人，獻與旅齒于衆賓, 佐食，于旅齒于兄弟: 齒 (taking one's place by age)
    with 于 and persons is being ranked among them: they are those he is ranked with (with=), as
    鄉射禮 記 樂正與立者齒, not ones he does something to (to=)."""
    done = False
    for event in r.events:
        named = event.fields.get("to", ())
        if event.kind != rl.word("rank") or not named or event.marks.get("to"):
            continue
        event.unset("to")
        event.set("with", (*event.fields.get("with", ()), *named))
        done = True
    return done


@rule("cleared-of")
def cleared_of(r, subjects, rl) -> bool:
    """特牲饋食禮 徹主婦薦俎, 佐食徹尸薦俎敦: a person right after 徹 and before the things
    cleared is whose they are (the hostess's dishes, the 尸's), no one they are cleared for or
    to (no to)."""
    words = [t.text for t in r.tokens]
    if rl.word("clear") not in words:
        return False
    at = words.index(rl.word("clear"))
    person, thing = _next(list(r.tokens), at), _next(list(r.tokens), at, 2)
    if not (person is not None and person.of("role") and thing is not None and thing.of("object")):
        return False
    done = False
    for event in r.events:
        if event.kind == rl.word("clear") and event.fields.get("to") == (person.of("role"),):
            event.unset("to")
            done = True
    return done


@rule("answers-the-asker")
def answers_the_asker(r, subjects, rl) -> bool:
    """聘禮 擯者出請事。賓告事畢; 擯者出請。賓告事畢 (as 士昏禮 擯者出請。賓告事畢 reads): a report
    naming no one, right after another asked in the clause before (請), answers the one who
    asked, the usher at the door (to=擯者?), not the ruler inside (rule to-the-ruler) whom the
    usher then tells (擯者入告); a report made going in (入告) carries the request inside."""
    if not r.ctx.history or any(e.kind == rl.word("in") for e in r.events):
        return False  # 賓請覿。擯者入告: going in, he tells the one inside (rule usher-goes-in)
    last = r.ctx.history[-1][0]
    asked = [
        e
        for p, e in r.ctx.history[-int(rl.word("within")) :]
        if p == last and e.kind == rl.word("ask") and e.agent
    ]
    if not asked:
        return False
    asker = asked[-1].agent
    done = False
    for event in r.events:
        if event.kind != rl.word("report") or not event.agent or not event.open_to_guess("to"):
            continue
        if set(event.agent) & set(asker) or event.fields.get("to") == asker:
            continue
        event.set("to", asker, "?")
        done = True
    return done


# --- r-themeloc rules


@rule("looked-at-thing")
def looked_at_thing(r, tokens, i, rl):
    """特牲饋食禮 宗人視牲; 主婦視饎爨于西堂下: a thing right after 視 is what is
    looked over, examined (its theme), not a place looked toward (視侯中: dest) nor a person
    (視上射: to); not a pit looked into (士喪禮 北面視肂: where he looks), nor a thing after 其
    (喪服 帶緣各視其冠: matching, the measure of another thing)."""
    event = r.events[-1] if r.events else None
    if event is None or event.kind not in rl.words["look"] or r.prep is not None:
        return None
    token = tokens[i]
    obj = token.of("object")
    if not obj or token.kinds.keys() & {"role", "place"} or obj in rl.words["into"]:
        return None
    j = i - 1
    while j > 0 and (tokens[j].text in rl.words["and"] or _thing_word(tokens[j])):
        j -= 1  # 視饎爨, 視壺濯及豆籩: things and words no term names since the act
    if j < 0 or tokens[j].of("action") not in rl.words["look"]:
        return None
    if r.noun_phrase(tokens, i)[1] > 1:
        return None  # 視牲北: a place written relative to the thing
    event.set("theme", (*event.fields.get("theme", ()), obj))
    return 1


def _thing_word(token) -> bool:
    """A thing, or a word no term names and no function word (饎, 濯: of a thing's name)."""
    if token.kinds:
        return token.kinds.keys() == {"object"}
    return not is_function_word(token.text)


@rule("one-more-past-word")
def one_more_past_word(r, tokens, i, rl):
    """特牲饋食禮 宗人視壺濯及豆籩; 舉骼及獸魚: 及 between two things an act handles, with a word
    no term names beside it (濯, what is washed; 獸, the game; a numeral), is one more thing, as
    rule one-more reads 命三耦及衆賓, not an act of reaching (及 dest=X); not persons (有司徹
    獻祝及二佐食: whose the act is, the next clauses carry, is read elsewhere)."""
    if tokens[i].text not in rl.words["and"] or not r.events or i < 2:
        return None
    before = tokens[i - 1] if tokens[i - 1].kinds else tokens[i - 2]
    if before is not tokens[i - 1] and (
        tokens[i - 2].of("action") or is_function_word(tokens[i - 1].text)
    ):
        return None  # 舉濯及X: the word after the act is its thing, unnamed
    after = _next(tokens, i)
    if after is not None and not after.kinds:
        if is_function_word(after.text) and after.text not in word_values("numeral"):
            return None
        after = _next(tokens, i, 2)
    if after is None or (before is tokens[i - 1] and after is tokens[i + 1]):
        return None  # (rule one-more)
    if before.of("object") and after.of("object") and not (before.of("role") or after.of("role")):
        return 1
    return None


@rule("unnamed-place-word")
def unnamed_place_word(r, tokens, i, rl):
    """既夕禮 主人拜于位; 士喪禮 主婦立于其内; 士昏禮 記 立于其内: a place the ontology does not
    name, his place (位) or inside it (其内), right after 于 and ending the clause, is where the
    act is done, written as it stands (at=位, at=其内), as rule unnamed-place writes 于鼓北."""
    if r.prep is None or i == 0 or tokens[i - 1].text not in rl.words["yu"]:
        return None
    for place in rl.words["places"]:
        used = len(tokenize(place, r.lex))
        if i + used == len(tokens) and "".join(t.text for t in tokens[i:]) == place:
            r.place_here(place)
            return used
    return None


@rule("follows-in-row")
def follows_in_row(r, tokens, i, rl):
    """聘禮 六鉶繼之; 兩簠繼之; 六簋繼之: things (a count, the vessels, termed or not) and 繼之
    ending the clause, no one named, are those things set next in the row, after the ones just
    laid: the things are what is set (theme=鉶 where a term names them), no one's act carried
    over, and 之 is the row before them, not a thing handled (theme=壺)."""
    event = r.events[-1] if r.events else None
    if tokens[i].text != rl.word("it") or i + 1 != len(tokens) or event is None:
        return None
    if i < 2 or tokens[i - 1].of("action") != rl.word("follow") or r.subjects or len(r.events) > 1:
        return None
    numerals = word_values("numeral")
    front = tokens[: i - 1]
    if not all(_thing_word(t) or t.text in numerals for t in front):
        return None  # 賓繼之: a person goes on
    r.possessed = True
    return 1


@rule("spread-side")
def spread_side(r, tokens, i, rl):
    """士喪禮 燭俟于饌東; 設盆盥于饌東; 奠席在饌北; 在饌東: 饌 (the food set out, a word of the
    act 陳) and a compass word right after 于 or 在, ending the clause, is a place written as it
    stands (at=饌東, dest=饌東 after setting out), not an act of setting out nor a lost place."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["spread"] or nxt is None or i + 2 != len(tokens):
        return None
    if not nxt.of("direction") or i == 0:
        return None
    previous = tokens[i - 1]
    if not (previous.text in rl.words["yu"] or previous.of("action") in rl.words["state"]):
        return None
    r.place_here(tokens[i].text + nxt.text)
    return 2


@rule("put-into-thing")
def put_into_thing(r, tokens, i, rl):
    """士喪禮 主人奉尸斂于棺; 巾柶鬊蚤埋于坎; 釋匕于鼎; 聘禮 則既斂于棺: 于 and a thing (no place)
    after laying the dead in, burying or letting go of a thing is where it goes (dest=棺), the
    thing it is put in, not where the act is done; 大斂于阼 (a place) stays where (at)."""
    event = r.events[-1] if r.events else None
    if event is None or event.kind not in rl.words["puts"] or r.prep != rl.word("at"):
        return None
    token = tokens[i]
    if i == 0 or tokens[i - 1].text not in rl.words["yu"]:
        return None
    if not token.of("object") or token.kinds.keys() & {"place", "role"}:
        return None
    if r.noun_phrase(tokens, i)[1] > 1:
        return None  # 奠于貝北: a place written relative to the thing
    event.set("dest", token.of("object"))
    r.prep = None
    return 1


@rule("spread-laid-there")
def spread_laid_there(r, subjects, rl) -> bool:
    """士喪禮 東方之饌; 既夕禮 東方之饌亦如之; 聘禮 堂上之饌八: a place, 之 and 饌 (the food set
    out, the act 陳) opening the clause is where the food is laid out (dest), as rule laid-there
    reads 西序之席, not where anyone stands."""
    tokens = r.tokens
    if len(tokens) < 3 or not tokens[0].of("place") or tokens[1].text not in rl.words["of"]:
        return False
    if tokens[2].text not in rl.words["spread"]:
        return False
    done = False
    for event in r.events:
        if (
            event.kind == tokens[2].of("action")
            and "at" in event.fields
            and "dest" not in event.fields
        ):
            place, mark = event.fields["at"], event.marks.get("at", "")
            event.unset("at")
            event.set("dest", place, mark)
            done = True
    return done


@rule("middle-side")
def middle_side(r, tokens, i, rl):
    """聘禮 受幣堂中西: a place, 中 and a compass word (the place 中西) is one place as written,
    the middle of it toward that side (at=堂中西: west of the middle of the hall), not the place
    and a second place 中西."""
    nxt = _next(tokens, i)
    if not tokens[i].of("place") or nxt is None or not nxt.text.startswith(rl.word("middle")):
        return None
    if nxt.text[1:] not in word_class("compass"):
        return None
    r.place_here(tokens[i].text + nxt.text)
    return 2


# --- r-agent rules


@rule("holder-named")
def holder_named(r, tokens, i, rl):
    """特牲 記 奉槃者東面，執匜者西面淳沃，執巾者在匜北 (注: 每事各一人); 既夕禮 記 執燭者滅燭出:
    an act and its thing with 者 heading a clause, more following (an act, a facing), is the one
    who just did that act to that thing, else someone the text leaves unnamed (人): the subject
    of the rest, not the act done here (as rule unnamed-doer reads 徹者入); not a cup no one was
    just seen to take so (有司徹 舉爵者東面答拜: one of the round)."""
    if i or r.subjects or "action" not in tokens[i].kinds or tokens[i].of("role"):
        return None
    things = []
    for token in tokens[i + 1 : i + 3]:
        if not token.of("object") or token.of("action") or token.of("role"):
            break
        things.append(token.of("object"))
    end = i + 1 + len(things)
    if not things or not _has(_next(tokens, end, 0), rl.words["zhe"]):
        return None
    if not any(t.of("action") or t.of("direction") for t in tokens[end + 1 :]):
        return None
    kind = tokens[i].of("action")
    recent = [e for _, e in r.ctx.history[-int(rl.word("within")) :]]
    doers = (
        e.agent
        for e in reversed(recent)
        if r.is_a(e.kind, kind) and e.agent and set(things) & set(e.fields.get("theme", ()))
    )
    doer = next(doers, ())
    if not doer and set(things) & set(rl.words["cups"]):
        return None  # 有司徹 舉爵者東面答拜: one of the round, not someone unnamed
    r.subjects.extend(doer or (rl.word("someone"),))
    return end + 1


@rule("staff-taken")
def staff_taken(r, subjects, rl) -> bool:
    """既夕禮 主人拜送，復位，杖; 士喪禮 三日，成服，杖: the staff named alone, after an act of
    its sentence, is the mourner taking up his staff again (執 the 杖), by the one carried over,
    not a thing listed (既夕禮 燕器，杖，笠，翣), nor a kind of staff (喪服 削杖)."""
    ctx = r.ctx
    if r.text != rl.word("staff"):
        return False  # 喪服 苴絰杖, 削杖: the mourning dress listed
    last = ctx.last_act()
    if last is None or sentence_of(last[0]) != ctx.sentence or not ctx.agent:
        return False
    event = r.new_event(rl.word("act"))
    event.set("theme", (rl.word("staff"),))
    event.set("agent", ctx.agent, "^")
    return True


@rule("stances-listed")
def stances_listed(r, subjects, rl) -> bool:
    """士喪禮 衆婦人户外北面，衆兄弟堂下北面; 婦人尸西東面: a sentence whose every clause is
    persons, a place and a facing, no act, tells where each of them is placed: 在 with the
    persons, place and facing of each clause (as rule placed-row), not subjects left for an act
    that never comes; not without a place (鄉射禮 上射東面，下射西面: how they face each other
    on their way). Tried after rule verbless-stance, which reads such a clause alone."""
    ctx = r.ctx
    if not (subjects and r.face and r.at) or r.topic or r.before:
        return False
    for text in ctx.sentence_clauses:
        tokens = tokenize(text, r.lex)
        if any(t.of("action") for t in tokens) or not any(t.of("direction") for t in tokens):
            return False
        placed = [t for t in tokens if t.of("role") or t.of("place")]  # 婦人尸西: 尸 a place
        if len(placed) < 2 or not placed[0].of("role"):
            return False  # 鄉射禮 上射東面，下射西面: facing each other on the way, no place
    event = r.new_event(rl.word("act"))
    event.set("agent", subjects)
    ctx.pending = None
    return True


# --- r-agent5 rules


@rule("sent-written")
def sent_written(r, tokens, i, rl):
    """特牲饋食禮 宗人遣佐食及執事盥; 少牢饋食禮 宗人遣賓就主人: 遣 (no term) between the
    subject and a person is sending him, the act 使 (遣 the written form: 注 既夕禮 遣猶送也),
    the person the one sent; not 遣 after an act (既夕禮 書遣於策, 讀遣: the list of what is
    sent to the grave, a thing)."""
    nxt = _next(tokens, i)
    if tokens[i].text != rl.word("written") or tokens[i].kinds or r.events or not r.subjects:
        return None
    if nxt is None or not nxt.of("role"):
        return None
    r.verb(rl.word("act"), tokens, i)
    return 1


def _attendants_sent(r, tokens, i, rl):
    """特牲饋食禮 宗人遣佐食及執事盥: 及執事 right after the person sent (使X, 遣X) is one more
    sent, the attendants (rule attendants-joined), not the acts 及 and 執 of the one sent."""
    sent = r.events[-1]
    if sent.kind not in rl.words["send"] or not (i and tokens[i - 1].of("role")):
        return None
    if not sent.get("to"):
        return None
    sent.set("to", (*sent.fields["to"], rl.word("role")))
    return 3


@rule("sent-home")
def sent_home(r, tokens, i, rl):
    """聘禮 君使卿韋弁，歸饔餼五牢; 宰夫始歸乘禽; 有司徹 司士歸尸侑之俎, 歸之 / 聘禮 使者歸: 歸
    (no term) before what is sent (a thing, 之; 禮, 主人歸禮幣: the gifts) is sending it to one's
    lodging, the act 致 (注 覲禮: 王或不親，以其禮幣致之); a person's 歸 ending the clause is his
    going home, 行; read only where the doer is named or in the sentence; not with 于, nor 歸
    intended or asked for (客將歸, 賓請歸), a time (卒窆而歸, 歸大禮之日), nor in a rule
    (凡使者歸)."""
    token, nxt, text = tokens[i], _next(tokens, i), r.ctx.clause_text
    if token.text != rl.word("home") or token.kinds or text.startswith(rl.word("generic")):
        return None
    if r.ctx.sentence.startswith(rl.word("commentary")):
        return None  # 喪服 傳 有餘則歸之宗: given back to the lineage, not sent to a lodging
    if (i and tokens[i - 1].text in rl.words["not-after"]) or text.endswith(rl.word("day")):
        return None
    if rl.word("yu") in text or not (r.subjects or r.events or not r.ctx.new_sentence):
        return None  # (歸賓俎 opening a sentence: sent by one the text leaves unnamed)
    if nxt is None and r.subjects:
        r.verb(rl.word("go"), tokens, i)
    elif nxt is not None and (nxt.of("object") or nxt.of("role") or nxt.text in rl.words["sent"]):
        r.verb(rl.word("send"), tokens, i)
    elif nxt is not None and nxt.text in rl.words["rites"]:  # 主人歸禮幣: the gifts, no act 禮
        r.verb(rl.word("send"), tokens, i)
        return 2
    else:
        return None
    return 1


@rule("handed-back")
def handed_back(r, subjects, rl) -> bool:
    """士喪禮 筮人執卦以示命筮者。命筮者受視，反之; 士虞禮 記 佐食授嚌。尸受，振祭，嚌，反之:
    反之, the whole clause, right after the one carried over received a thing (受) that another
    handed or showed him (授, 示) and looked at or tasted it, is his handing it back (授) to that
    one (implied), not a clause of no act."""
    ctx = r.ctx
    if subjects or r.text != rl.word("back") + rl.word("it") or not ctx.agent:
        return False
    recent = ctx.history[-int(rl.word("within")) :]
    took = [k for k, (_, e) in enumerate(recent) if e.kind in rl.words["receive"]]
    if not took or not took[-1] or set(recent[took[-1]][1].agent) != set(ctx.agent):
        return False
    received = recent[took[-1]][1]
    givers = [e.agent for _, e in recent[: took[-1]] if e.kind in rl.words["hands"] and e.agent]
    if not givers or set(givers[-1]) & set(ctx.agent):
        return False  # 宗人受卜人龜，示高。莅卜受視: read as the 宗人 again, from no one
    event = r.new_event(rl.word("act"))
    event.set("agent", ctx.agent, "^")
    event.set("to", givers[-1], "?")  # the one who handed or showed it to him
    if received.get("theme") and received.marks.get("theme") != "?":
        event.set("theme", received.fields["theme"])
    return True


# --- r-recip5 rules


def _last_gone_out(r, within: int, out: str) -> tuple[str, ...]:
    """The guest (yl:Guest) who last went out (出) empty-handed, within the last acts: the one
    the usher finds outside (聘禮 賓降，出。大夫降…擯者出請事 → 賓), not the host's officers who
    acted inside since, nor one carrying a thing out (既夕禮 士受馬以出: taking it away)."""
    return _last_guest(r, within, False, only=lambda e: e.kind == out and "theme" not in e.fields)


@rule("answer-carried-out")
def answer_carried_out(r, subjects, rl) -> bool:
    """聘禮 擯者入告，出許; 出辭玉; 下大夫取以入告，出許: the answer (許, 辭, 禮辭) one brings out
    (出 in its clause), naming no one, is to the one outside whose request he carried in, the
    last guest (yl:Guest) to act but himself, not the ruler inside he reported to (rule
    to-the-ruler)."""
    if not any(e.kind == rl.word("out") for e in r.events):
        return False
    done = False
    for event in r.events:
        if event.kind not in rl.words["answers"] or not event.open_to_guess("to"):
            continue
        guest = _last_guest(r, int(rl.word("within")), False, not_by=event.agent)
        if guest and event.fields.get("to") != guest:
            event.set("to", guest, "?")
            done = True
    return done


def _word_after(r, word: str) -> str:
    """The character right after ``word`` in the clause (聽命 → 命), or ''."""
    text = r.ctx.clause_text
    at = text.find(word)
    return text[at + len(word) : at + len(word) + 1] if at >= 0 else ""


@rule("body-carried")
def body_carried(r, subjects, rl) -> bool:
    """士喪禮 士舉遷尸, 男女奉尸; 既夕禮 記 遷尸: the dead body moved or carried (尸, the dead one,
    死者) is the thing the act moves, no one it is done to or for (no to), as the reviews read
    it; not 馮尸 (leaning on the body, to the dead: to=死者)."""
    done = False
    for event in r.events:
        if event.kind in rl.words["acts"] and event.fields.get("to") == (rl.word("dead"),):
            event.unset("to")
            done = True
    return done


@rule("date-asked")
def date_asked(r, subjects, rl) -> bool:
    """士冠禮 擯者請期，宰告曰質明行事; 特牲饋食禮 宗人…告絜。請期，曰羹飪: asking the time of the
    rite (請期), naming no one, is asking the host whose rite it is (to=主人?), where no ruler
    is, not the officer who acted last (the 有司 standing in the west, the 雍正); as 既夕禮
    有司請祖期 reads (rule ready-to-host for the reports of the same officers)."""
    host = rl.word("host")
    if set(rl.words["rulers"]) & r.ctx.parties or host not in r.ctx.parties:
        return False
    text = r.ctx.clause_text
    ask = rl.word("ask")
    if ask not in text or rl.word("date") not in text[text.index(ask) :]:
        return False
    asks = (e for e in r.events if e.kind == ask and e.agent and host not in e.agent)
    return _imply_recipient(asks, host)


def _names_person(r, text: str) -> bool:
    """Whether ``text`` names a person (a role term), as 有司 in 告有司具, not 濯 in 告濯具."""
    return any(t.of("role") for t in tokenize(text, r.lex))


@rule("seen-thing")
def seen_thing(r, subjects, rl) -> bool:
    """士喪禮 掘肂見衽; 主人出迎于外門外，見馬首; 士昏禮 記 釋外足，見文: 見 with a thing after it
    (a term of a thing or a word no term names) is the thing seen or showing, no one met: no
    implied recipient (見於君, 見賓, 見之 are meetings: rule implied-recipient)."""
    tokens = list(r.tokens)
    at = next((i for i, t in enumerate(tokens) if t.of("action") == rl.word("see")), None)
    nxt = _next(tokens, at) if at is not None else None
    if nxt is None or nxt.of("role") or nxt.of("action") or nxt.text in rl.words["not-thing"]:
        return False
    return _drop_guessed_recipient(r, rl.word("see"))


def _drop_guessed_recipient(r, kind: str) -> bool:
    """Take back the recipient guessed (``?``) for the clause's events of ``kind``: 見衽 a thing
    seen (rule seen-thing), 交錯 pledges among those who drink them (rule pledges-cross)."""
    done = False
    for event in r.events:
        if event.kind == kind and event.marks.get("to") == "?":
            event.unset("to")
            done = True
    return done


@rule("self-return")
def self_return(r, subjects, rl) -> bool:
    """少牢饋食禮 主人受上餕爵，酌以醋于户内; 特牲饋食禮 主人更爵酌醋; 更爵酢: the return cup
    (酢, 醋) poured or taken in a fresh cup by its own doer in the clause, with no 之 after it,
    is the host toasting himself in the other's stead (注 特牲: 男子不承婦人爵也), no one it goes
    to: no implied recipient (受三獻酌以酢之: the one 之 stands for)."""
    text = r.ctx.clause_text
    ret = rl.word("return")
    if any(w + rl.word("it") in text for w in rl.words["forms"]):
        return False  # 酌以酢之: to the one 之 stands for
    done = False
    for event in r.events:
        if event.kind != ret or event.marks.get("to") != "?" or not event.agent:
            continue
        pours = any(e.kind in rl.words["pour"] and e.agent == event.agent for e in r.events)
        if pours:
            event.unset("to")
            done = True
    return done


@rule("past-the-assistant")
def past_the_assistant(r, subjects, rl) -> bool:
    """公食大夫禮 擯者進相幣。賓降辭幣 (聘禮 the same): the answer naming no one, its other party
    only guessed to be the usher who has just assisted (相) with the ruler's gift, goes to the
    ruler he assists, whose gift it is, not to the usher (as rule implied-recipient passes over
    the 小臣 who declines for the ruler); the usher's assisting itself, naming no one, is the
    ruler's (擯者進相幣 → 相 to=公?)."""
    ruler = rite_ruler(r.ctx, rl.words["ruler"])
    if ruler is None:
        return False
    assisting = (
        e
        for e in r.events
        if e.kind == rl.word("assist")
        and set(e.agent) & set(rl.words["ushers"])
        and "to" not in e.fields  # (以相拜: rule assist, the one who bowed)
    )  # 擯者進相幣: the usher assists the ruler
    done = _imply_recipient(assisting, ruler)
    for event in r.events:
        to = event.fields.get("to", ())
        if event.marks.get("to") != "?" or not to or ruler in event.agent:
            continue
        last = next((e for _, e in reversed(r.ctx.history) if set(e.agent) == set(to)), None)
        if last is None or last.kind != rl.word("assist") or not set(to) & set(rl.words["ushers"]):
            continue
        event.set("to", (ruler,), "?")
        done = True
    return done


# --- r-agent6 rules


@rule("goes-that-way")
def goes_that_way(r, tokens, i, rl):
    """少牢饋食禮 祝受以東 / 既夕禮 宰舉幣以東 / 聘禮 有司二人坐舉皮以東: 以 and a compass word
    ending a clause, right after its act of taking up or receiving a thing, is going that way
    with it (行 dest=東, what was taken carried, implied), the same doer: an act, not a place
    of the taking (降自阼階以東: after a movement, only where it goes, no act)."""
    nxt = _next(tokens, i)
    if tokens[i].text not in rl.words["with"] or not r.events or nxt is None:
        return None
    if _next(tokens, i + 1) is not None or nxt.text not in word_class("compass"):
        return None
    taken, before = r.events[-1], tokens[i - 1]
    if taken.kind not in rl.words["takes"]:
        return None
    if before.of("action") != taken.kind and not before.of("object"):
        return None  # (the act right before 以, or the thing it takes)
    r.verb(rl.word("act"), tokens, i)
    if r.events and r.events[-1] is not taken:
        r.events[-1].set("dest", (nxt.text,))
        if taken.fields.get("theme"):
            r.events[-1].set("theme", taken.fields["theme"], "?")
    return 2


@rule("goes-ahead")
def goes_ahead(r, tokens, i, rl):
    """士喪禮 夏祝…執醴先 / 小臣二人執戈先 / 祝…遂先: 先 ending a clause right after its act of
    holding a thing, or 遂先 the whole clause, is going ahead with it (行), the same doer, not
    'first' before an act that is not written; a thing alone before 先 (瑟先, 重先) is rule
    thing-goes-first's: the thing going first, 行 with no one named."""
    texts = [t.text for t in tokens]
    if not i and texts == [texts[0], rl.word("ahead")] and texts[0] in rl.words["then"]:
        r.verb(rl.word("act"), tokens, 1)
        return 2
    if texts[i] != rl.word("ahead") or _next(tokens, i) is not None or not r.events:
        return None
    if r.events[-1].kind not in rl.words["holds"]:
        return None
    r.verb(rl.word("act"), tokens, i)
    return 1


@rule("elders-each")
def elders_each(r, tokens, i, rl):
    """特牲饋食禮 賓弟子及兄弟弟子洗…舉觶于其長…長皆答拜 / 長皆執以興: 長皆 opening a clause,
    no one named, after the juniors (弟子) of two sides were named in the last clauses, is the
    elder of each side, the member the ontology names its eldest (兄弟 → 長兄弟) or the side's
    own head (賓): not the juniors carried over, nor the last to act."""
    nxt = _next(tokens, i)
    if i or tokens[i].kinds or tokens[i].text != rl.word("elder") or r.subjects:
        return None
    if nxt is None or nxt.text != rl.word("all"):
        return None
    sides: list[str] = []
    for text in islice(reversed(r.ctx.texts.values()), int(rl.word("within"))):
        if sides:
            break
        words = tokenize(text, r.lex)
        sides = [
            side
            for before, word in zip(words, words[1:], strict=False)
            if word.of("role") == rl.word("junior") and (side := before.of("role") or "")
        ]
    if len(sides) < 2:
        return None
    r.subjects[:] = [_eldest_member(r, side, rl) or side for side in sides]
    return 1


def worn(token: Token, dress: tuple[str, ...], act: str) -> bool:
    """Whether ``token`` can name what one wears: a thing, or a word no term names, with a
    word of dress in it (韋弁, 爵韠, 衰, 紒; any, with no words of dress given), no act but the
    dress's own (玄端: 服), no person, place or direction."""
    if token.kinds.keys() - {"object", "action"} or is_function_word(token.text):
        return False
    if token.of("action") and (token.of("action") != act or not token.of("object")):
        return False
    return not dress or any(c in token.text for c in dress)


@rule("dressed-to-act")
def dressed_to_act(r, tokens, i, rl):
    """聘禮 上介韋弁以受 / 主人長衣練冠以受 / 衰而出; 士冠禮 主人紒而迎賓: the dress a clause names
    right after its subject (or opening it), before 以 or 而 and an act, is his putting it on,
    服 (the garments its theme), then the act, by the same one: not a thing he takes (以受),
    nor words passed over; right after one sent (君使卿韋弁), ending the clause too, his."""
    dressed = rule_named("dress-worn")
    dress, act = dressed.words["dress"], dressed.word("act")
    sent = _sent_one(r, tokens, i, rl)
    if (r.events and not sent) or any(
        not (t.of("role") or t.text in rl.words["also"]) for t in tokens[: i - 2 if sent else i]
    ):
        return None
    k = i
    while k < len(tokens) and worn(tokens[k], (), act):
        k += 1  # (長衣練冠: the words of dress and what goes with them)
    if not any(worn(t, dress, act) for t in tokens[i:k]) or not _dress_ends(
        tokens, k, bool(sent), rl
    ):
        return None
    event = r.new_event(act)
    if sent:
        event.set("agent", sent)
    things = tuple(t.of("object") or "" for t in tokens[i:k] if t.of("object"))
    if things:
        event.set("theme", things)
    return k - i


def _dress_ends(tokens: Tokens, k: int, sent: bool, rl: Rule) -> bool:
    """Whether dress read up to ``k`` is followed as rule dressed-to-act needs: 以|而 and an
    act; after one sent, also the clause's end or a word no term names (韋弁歸禮: 歸)."""
    if k >= len(tokens):
        return sent
    after = _next(tokens, k)
    if sent and (after is None or not tokens[k].kinds):
        return not tokens[k].kinds
    return after is not None and tokens[k].text in rl.words["then"] and "action" in after.kinds


def _sent_one(r, tokens: Tokens, i: int, rl: Rule) -> tuple[str, ...]:
    """聘禮 君使卿韋弁: the one just sent (使X) right before the dress, who puts it on."""
    if i < 2 or not r.events or r.events[-1].kind not in rl.words["send"]:
        return ()
    role = tokens[i - 1].of("role")
    sent = r.events[-1].fields.get("to", ())
    return (role,) if role and role in sent and tokens[i - 2].of("action") else ()


# --- r-recip6 rules


@rule("homage-for-guests-gift")
def homage_for_guests_gift(r, subjects, rl) -> bool:
    """聘禮 賓用束錦儐勞者。勞者再拜稽首受 (注: 稽首尊國賓也); 賓致幣。大夫對…再拜稽首 (注:
    稽首尊君客也); 賓東面致命。大夫降，階西再拜稽首: the homage (稽首, with its 再拜) made for
    what the guest (賓) or one of his mission (yl:Envoy) has just given (儐, 致, 致命) is to that
    giver, not to the ruler, who is not there; and the giver's own 再拜稽首 sending it (賓再拜稽首
    送幣) is to the one he gave it to, named (儐勞者), not only implied (記 賓若私獻，奉獻，將命…
    賓東面坐奠獻，再拜稽首: to the 公 inside). Not the homage for a gift the ruler's officer brings
    (大夫東面致命。賓降，階西再拜稽首: to the 公)."""
    if not any(r.lex.has(e.kind, "toRuler") for e in r.events):
        return False
    recent = r.ctx.history[-int(rl.word("within")) :]
    gift = next((e for _, e in reversed(recent) if e.kind in rl.words["gives"]), None)
    if gift is None or gift.get("neg") == "1" or not gift.agent:
        return False
    giver = set(gift.agent) <= {rl.word("guest")} or r.all_of(gift.agent, YL.Envoy)
    if not giver:
        return False
    done = False
    for event in r.events:
        if not r.is_a(event.kind, rl.word("bow")) or not event.open_to_guess("to"):
            continue
        if not event.agent or r.all_of(event.agent, YL.Ruler):
            continue
        if event.agent == gift.agent:  # 賓再拜稽首送幣: to the one he gave it to, named
            party = () if gift.marks.get("to") else gift.fields.get("to", ())
        elif not gift.fields.get("to") or set(event.agent) <= set(gift.fields["to"]):
            party = gift.agent  # 勞者再拜稽首受: to the guest who gave it
        else:
            continue
        if party and not r.all_of(party, YL.Ruler) and event.fields.get("to") != party:
            event.set("to", party, "?")
            done = True
    return done


@rule("aide-between")
def aide_between(r, subjects, rl) -> bool:
    """聘禮 君使卿朝服，用束帛勞。上介出請，入告 (注: 出門西面請所以來事也…入北面告賓也); 君使卿
    韋弁，歸饔餼五牢。上介請事; 公食大夫禮 使大夫戒。上介出請，入告 (注: 問所以為來事): the guest's
    first assistant (上介) stands between him and those who come to his lodging, as the usher
    does for the host: his request naming no one asks the one come, the last to act who is
    neither the guest (賓) nor of his mission (yl:Envoy) nor a ruler (who sent him); his report
    going in (入告) is to the guest inside, not to the one come nor to the ruler (rule
    to-the-ruler)."""
    aide = rl.word("aide")
    going_in = any(e.kind in rl.words["in"] for e in r.events)
    done = False
    for event in r.events:
        if event.agent != (aide,) or not event.open_to_guess("to"):
            continue
        if event.kind == rl.word("report") and going_in:
            party: tuple[str, ...] = (rl.word("guest"),)
        elif event.kind == rl.word("ask"):
            party = _one_come(r, rl)
        else:
            continue
        if party and event.fields.get("to") != party:
            event.set("to", party, "?")
            done = True
    return done


def _one_come(r, rl: Rule) -> tuple[str, ...]:
    """The last to act within the last acts who is neither the guest (賓) nor of his mission
    (yl:Envoy) nor a ruler, nor one only named to an office: the one come to the guest."""
    for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
        who = earlier.agent
        if not who or "role" in earlier.fields or rl.word("guest") in who:
            continue
        if r.all_of(who, YL.Envoy) or r.all_of(who, YL.Ruler):
            continue
        return tuple(who)
    return ()


@rule("gift-held")
def gift_held(r, tokens, i, rl):
    """聘禮 記 賓若私獻，奉獻，將命; 賓東面坐奠獻; 擯者東面坐取獻 (注: 時有珍異之物或賓奉之):
    獻 right after an act of handling (奉, 奠, 取) ending the clause is the gift held, set down
    or taken up, a thing no term names, not an offering made to someone."""
    if tokens[i].of("action") != rl.word("offer") or not i or _next(tokens, i) is not None:
        return None
    if tokens[i - 1].of("action") not in rl.words["handles"] or not r.events:
        return None
    return 1


@rule("towel-to-washer")
def towel_to_washer(r, subjects, rl) -> bool:
    """士虞禮 淳尸盥…宗人授巾; 特牲饋食禮 尸入門左，北面盥。宗人授巾: the towel handed (授巾),
    naming no one, is for the one who has just washed his hands (盥, within the last acts) to
    dry them, implied, not the giver."""
    towels = [
        e
        for e in r.events
        if e.kind == rl.word("hand") and rl.word("towel") in e.fields.get("theme", ())
    ]
    if not towels:
        return False
    recent = reversed(r.ctx.history[-int(rl.word("within")) :])
    washed = next((e.agent for _, e in recent if e.kind == rl.word("wash") and e.agent), ())
    if not washed:
        return False
    return _imply_recipient((e for e in towels if not set(washed) & set(e.agent)), washed)


@rule("gift-to-guest")
def gift_to_guest(r, subjects, rl) -> bool:
    """聘禮 君使卿韋弁，歸饔餼五牢; 宰夫始歸乘禽; 致食以侑幣: a gift brought (致, 歸 read as 致)
    naming no one, a thing named and no cup, by one who is neither the guest (賓) nor of his
    mission (yl:Envoy), is brought to the guest, implied; not 致之, 歸之 (之 is the one it goes to,
    or the thing), nor a cup presented (致爵: rule to-the-ruler)."""
    guest = rl.word("guest")
    if guest not in r.ctx.parties:
        return False
    if any(form + rl.word("it") in r.ctx.clause_text for form in rl.words["forms"]):
        return False  # 致之, 歸之 (有司徹 歸之: the 祝's 俎 sent to him)
    cups = set(rl.words["cups"])
    gifts = (
        e
        for e in r.events
        if e.kind == rl.word("give")
        and e.fields.get("theme")
        and not set(e.fields["theme"]) & cups
        and e.agent
        and guest not in e.agent
        and not r.all_of(e.agent, YL.Envoy)
    )
    return _imply_recipient(gifts, guest)


@rule("sent-to-ask")
def sent_to_ask(r, subjects, rl) -> bool:
    """聘禮 君使士請事 (注: 請事，問所為來之故也); 君使下大夫請行 (注: 請行，問所之也): a request
    by one a ruler sends in the clause (使X請), naming no one, is his errand to the guest (賓),
    implied, not to the ruler who sent him (rule to-the-ruler)."""
    guest = rl.word("guest")
    if guest not in r.ctx.parties:
        return False
    sent = {
        p
        for e in r.events
        if e.kind == rl.word("send") and e.agent and r.all_of(e.agent, YL.Ruler)
        for p in e.fields.get("to", ())
    }
    asks = (
        e
        for e in r.events
        if e.kind == rl.word("ask") and e.agent and set(e.agent) <= sent and guest not in e.agent
    )
    return _imply_recipient(asks, guest)


# --- r-recip7 rules


def _guest_answering(r: ClauseReader, rl: Rule) -> tuple[str, ...]:
    """The guests (yl:Guest, or of a mission: yl:Envoy) the next clause of the text opens with,
    answering the usher or coming forward (擯者請受。賓禮辭; 擯者出請事。上介特面), not the
    usher himself, nor one welcoming (迎) the one asked (擯者出請事。大夫朝服迎于外門外: the
    host)."""
    tokens = tokenize(r.ctx.next_clause_text, r.lex)
    if any(t.of("action") in rl.words["welcome"] for t in tokens):
        return ()
    roles = leading_roles(tokens)
    if not roles or set(roles) & set(rl.words["usher"]):
        return ()
    outside = all(r.all_of((p,), YL.Guest) or r.all_of((p,), YL.Envoy) for p in roles)
    return roles if outside else ()


@rule("capped-one")
def capped_one(r, subjects, rl) -> bool:
    """士冠禮 乃冠; 醮用脯醢; 記 適子冠于阼，醮于客位，冠而字之: the acts of the capping (冠, 醮,
    字), naming no one they are done to, are done to the one capped, the last of his names
    (將冠者 before the cap, 冠者 after it) to act or be addressed within the last acts: to=冠者?;
    not where he is their doer (carried over to them: a misreading this rule leaves alone)."""
    events = [e for e in r.events if e.kind in rl.words["acts"] and e.open_to_guess("to")]
    recent = r.ctx.history[-int(rl.word("within")) :]
    parties = (
        p
        for _, e in reversed(recent)
        if "role" not in e.fields  # (為X: one named to an office, not a party)
        for p in (*e.agent, *e.fields.get("to", ()))
    )
    capped = next((p for p in parties if p in rl.words["capped"]), None) if events else None
    doing = (e for e in events if capped and capped not in e.agent)
    return _imply_recipient(doing, capped) if capped else False


def _last_eater(r: ClauseReader, rl: Rule, bringer: set[str]) -> tuple[str, ...]:
    """少牢饋食禮 尸受，同祭于豆祭…主人羞肵俎; 有司徹 尸祭酒，啐酒。次賓羞牢燔: a dish brought
    with no offering nor cup held in reach is for the one eating: the last to eat, taste or
    offer a portion (飯, 嚌, 啐, 祭), within the last acts, not its bringer."""
    for _, earlier in reversed(r.ctx.history[-int(rl.word("eat-within")) :]):
        if earlier.kind in rl.words["eats"] and earlier.get("neg") != "1" and earlier.agent:
            return () if set(earlier.agent) & bringer else tuple(earlier.agent)
    return ()


# --- r-agent7 rules


def _gone_by_one_named(r, rl) -> bool:
    """賓出主人送: the act before went out or in (出, 入), by a subject the clause named."""
    return bool(r.subjects) and r.events[-1].kind in rl.words["go"]


@rule("named-by-deed")
def named_by_deed(r, tokens, i, rl):
    """特牲饋食禮 嗣舉奠 … 舉奠左執觶, 舉奠洗酌入, 舉奠答拜, 舉奠許諾: taking up the offering
    set down (an act of rule offering-handled's + 奠) that an earlier clause of the rite gave
    one person alone (ROLE + 舉奠, the whole clause), opening a later clause before another act,
    names him by that deed: the subject (嗣子, the one who lifted the set-down cup), not an act
    again."""
    if i or r.subjects or r.events or len(tokens) < 3:
        return None
    handled = rule_named("offering-handled")  # 舉奠: the offering set down, taken up
    if tokens[0].text not in handled.words["takes"] or tokens[1].text != handled.word("offering"):
        return None
    if not any(t.of("action") for t in tokens[2:]):
        return None
    deed = tokens[0].text + tokens[1].text
    roles = r.lex.forms["role"]
    for text in r.ctx.texts.values():
        head = text.removesuffix(deed)
        if head != text and head and roles.get(head):
            r.subjects.append(roles[head])
            return 2
    return None


def _row_ahead(r, rl) -> bool:
    """聘禮 賓南面，上介西面，衆介北面東上。史讀書: the clauses after it in its sentence are only
    persons and how they face, the last of them with its end of honour (X上): a row that stands,
    each clause a stance (not 上射東面，下射西面: how a pair faces, no end of honour)."""
    marks = rl.words["facing-marks"]
    row = []
    for text in r.ctx.rest_of_sentence:  # the persons and facings that follow, up to an act
        tokens = tokenize(text, r.lex)
        if not tokens or not tokens[0].of("role"):
            break
        if not all(t.of("role") or t.of("direction") or t.text in marks for t in tokens):
            break
        row.append(tokens)
    return bool(row) and row[-1][-1].text == rl.word("upper")


# --- r-kind7 rules


@rule("thing-goes-first")
def thing_goes_first(r, subjects, rl) -> bool:
    """鄉飲酒禮 / 鄉射禮 瑟先; 既夕禮 重先; 聘禮 皮先: a clause that is only a thing and 先 is that
    thing going first in the file (行 theme=瑟), carried by no one named (注 鄉射禮: 相者挾瑟…
    瑟先，賤者先就事也; the reviews since harm9): not a person going before (rule goes-before),
    nor a clause of no act."""
    tokens = r.tokens
    if subjects or len(tokens) != 2 or tokens[1].text != rl.word("ahead") or tokens[1].kinds:
        return False
    thing = tokens[0].of("object")
    if not thing or tokens[0].kinds.keys() != {"object"}:
        return False
    event = r.new_event(rl.word("act"))
    event.set("theme", (thing,))
    event.fields["noagent"] = ("unstated",)
    return True


def _stance_act(r, rl: Rule) -> str:
    """士虞禮 宗人西階前北面; 士喪禮 衆兄弟堂下北面; 既夕禮 衆主人堂下東面: a stance that names its
    place before the facing, no 于, is where that one is (在), as a sentence of such stances reads
    (rule stances-listed); with 于 after the facing (母南面于房外) or with no place, his standing
    so (立)."""
    placed = r.at and not any(t.text in rl.words["yu"] for t in r.tokens)
    return rl.word("placed") if placed else rl.word("act")


def _robes_handled(r, tokens: Tokens, i: int, rl: Rule) -> int | None:
    """士冠禮 陳服于房中西墉下, 在服北; 既夕禮 記 斂服載之; 士冠禮 咸加爾服, 乃申爾服: 服 right
    after an act that lays out, shrouds or puts on a thing (陳, 斂, 加) or after 爾 (yours) is the
    robes handled, no act of putting them on (rule robes-named); after 在 and before a compass
    word it is where a thing is, 服北 (the place by the robes laid out)."""
    before = tokens[i - 1]
    if before.of("action") in rl.words["laid"] or before.text in rl.words["yours"]:
        return 1
    nxt = _next(tokens, i)
    if before.of("action") in rl.words["at"] and nxt is not None and nxt.of("direction"):
        r.place_here(tokens[i].text + nxt.text)
        return 2
    return None


@rule("pledges-cross")
def pledges_cross(r, subjects, rl) -> bool:
    """特牲饋食禮 衆賓及衆兄弟交錯以辯 (注: 交錯猶言東西); 有司徹 賓及兄弟交錯其酬: the pledges
    crossing (交錯, a form of 酬) go back and forth among those who drink them, each side to the
    other: no one else is the other party, so no recipient is guessed for it."""
    if rl.word("cross") not in r.ctx.clause_text:
        return False
    return _drop_guessed_recipient(r, rl.word("pledge"))


@rule("named-words")
def named_words(r, tokens, i, rl):
    """士冠禮 醴辭曰甘醴惟厚, 醮辭曰旨酒既清; 士昏禮 記 昏辭曰吾子有惠; 士虞禮 記 卒辭曰哀子某,
    饗辭曰哀子某: a word that is no person before 辭曰, opening the clause, names the words said
    (the words of the 醴, of the wedding, the last words, the words bidding the dead partake):
    what follows is said, 曰, not a declining (辭) nor an act of the word before it (醮, 饗);
    a person before 辭曰 (姆辭曰) declines, and 辭曰 alone (辭曰非禮也) too."""
    if i or len(tokens) < 3 or tokens[0].of("role") or tokens[0].kinds.get("say"):
        return None
    if tokens[1].of("action") != rl.word("words") or tokens[2].text != rl.word("says"):
        return None
    r.words_named = True
    return 2


@rule("bids-partake")
def bids_partake(r, tokens, i, rl):
    """士虞禮 祝饗，命佐食祭 (注: 饗，告神饗); 特牲饋食禮 祝饗，主人拜如初 (注: 饗，勸強之
    也): 饗 right after the 祝, the whole clause, is his words bidding the one offered to
    partake, an act of speech (告) to the 尸 or the spirit (_one_served), not a feast he gives."""
    if i != 1 or len(tokens) != 2 or tokens[0].of("role") != rl.word("speaker"):
        return None
    if tokens[1].of("action") != rl.word("partake"):
        return None
    r.verb(rl.word("act"), tokens, i)
    if r.events:
        r.events[-1].set("to", (_one_served(r, rl),), "?")
    return 1


def _one_served(r, rl: Rule) -> str:
    """The one the meal is served to: the 尸 while he is at hand (he acted or was addressed
    within the last acts), else the spirit (神) offered to before he comes in (the 陰厭, 注:
    為神奠之); rules bow-past-the-server, bids-partake."""
    impersonator = rl.word("impersonator")
    recent = r.ctx.history[-int(rl.word("within")) :]
    near = any(impersonator in e.agent or impersonator in e.fields.get("to", ()) for _, e in recent)
    return impersonator if near else rl.word("spirit")


@rule("stance-in-case")
def stance_in_case(r, subjects, rl) -> bool:
    """特牲饋食禮 記 佐食當事，則户外南面；無事，則中庭北面; 士冠禮 賓升則東面: a facing (and a
    place) after 則, no one named and no verb, is where the one the case is about, or the one
    carried over, stands in that case (立 cond=…), not a facing added to the act before the case;
    not a case that names a thing (聘禮 馬則北面: how the horses face)."""
    ctx = r.ctx
    if subjects or not r.face or r.topic or r.before or not ctx.condition or not ctx.agent:
        return False
    if rl.word("then") not in ctx.clause_text:
        return False
    if any(t.of("object") for t in tokenize(ctx.condition, r.lex)):
        return False  # 聘禮 馬則北面: how the horses face, a thing's case
    event = r.new_event(rl.word("act"))
    event.set("agent", ctx.agent, "^")
    if r.upper:
        event.set("upper", r.upper)
    return True


@rule("measure-named")
def measure_named(r, tokens, i, rl):
    """聘禮 記 十斗曰斛，十六斗曰籔，十籔曰秉; 四秉曰筥，十筥曰稯，十稯曰秅: a number of a measure,
    曰 and one word, the whole clause, names the larger measure (注: 秉十六斛; 今江淮之間量名有為
    籔者): what a word means, no one speaking, no act."""
    says = [k for k, t in enumerate(tokens) if t.text == rl.word("says")]
    if i or tokens[0].text not in word_values("numeral") or len(says) != 1:
        return None
    if says[0] < 2 or says[0] != len(tokens) - 2:
        return None
    if any(t.kinds for t in tokens[: says[0]]) or tokens[-1].of("role") or tokens[-1].of("action"):
        return None
    return len(tokens)


def _cloth_used(r, tokens: Tokens, i: int, rl: Rule) -> int | None:
    """How many tokens the cloth covering uses (rule cloth-cover): 巾之 (2); 巾奠, the offerings
    covered (既夕禮 記 巾奠, 2); 巾 before 如 (士喪禮 巾如初, 1, the way read after it); 巾 ending
    the clause after the persons or 不 (士喪禮 不巾, 1): not a cloth named in a list."""
    nxt = _next(tokens, i)
    if nxt is None:
        return 1 if r.subjects or r.neg else None
    if i + 2 == len(tokens) and nxt.text in (rl.word("it"), rl.word("offering")):
        return 2
    return 1 if nxt.of("action") == rl.word("like") else None


# --- r-agent8 rules


@rule("attendants-named")
def attendants_named(r, tokens, i, rl):
    """特牲饋食禮 主人及賓、兄弟、羣執事，即位于門外; 士喪禮 執事豆北: 執事
    after 羣, or heading a clause with no act in it, is the attendants, the role 執事者 (the word
    labels the class of attendants), a subject, not an act of holding: 羣執事 joins the subjects
    named before it, and 執事 before a place stands there (在 agent=執事者 at=豆北); not 執事之俎,
    the attendants' stands (特牲饋食禮 執事之俎，陳于階間: set out, no one named)."""
    words = [t.text for t in tokens[i : i + 3]]
    if r.events or len(words) < 2:
        return None
    if words[0] == rl.word("all") and "".join(words[1:]) == rl.word("attendants"):
        r.subjects.append(rl.word("role"))
        r.joined = bool(r.subjects[:-1])
        return 3
    if i or "".join(words[:2]) != rl.word("attendants") or len(tokens) < 3:
        return None
    if any(t.of("action") for t in tokens[2:]) or tokens[2].text == rl.word("of"):
        return None  # 執事之俎: whose stands, no subject (the act is the setting-out after it)
    r.subjects.append(rl.word("role"))
    return 2


# --- r-group8 rules


def _placed_just_before(r) -> tuple[str, ...]:
    """特牲饋食禮 主人在右; 賓長在右: the persons the clause just before only placed (a state,
    在, naming them), whom a state does not carry over (rule and-subject)."""
    before = r.ctx.clause_before()
    events = [e for p, e in r.ctx.history[-3:] if before and p == before[0]]
    if not events or not all(r.lex.has(e.kind, "state") and e.agent for e in events):
        return ()
    return tuple(dict.fromkeys(a for e in events for a in e.agent))


# --- r-recip8 rules


def _corpse_at_hand(r: ClauseReader, rl: Rule, event: Event) -> tuple[str, ...]:
    """有司徹 尸坐執爵以興。次賓羞羊燔; 主人…酳尸。賓羞肝; 特牲饋食禮 尸實舉于菹豆。佐食羞庶羞四豆;
    少牢饋食禮 主人羞肵俎…上佐食羞兩鉶: a dish brought by one named, with no offering, cup or
    eater to tell whose it is, is for the 尸 at the meal while he is at hand (he acted or was
    served within the last acts), not its bringer; so the dishes set out naming no one (士虞禮
    記 主人拜送…薦脯醢，設俎于薦東 → to=尸?); in the 記, whose passages are rules each on its own,
    only within the passage (特牲饋食禮 記 佐食設豆鹽: the 嗣子's, not the 尸's of the passage
    before)."""
    corpse = rl.word("corpse")
    dish = set(event.fields.get("theme", ())) & set(rl.words["dishes"])
    if corpse in event.agent or not (event.kind in rl.words["brought"] or dish):
        return ()
    for pid, earlier in r.ctx.history[-int(rl.word("corpse-within")) :]:
        if r.ctx.sentence.startswith(rl.word("part")) and paragraph_of(pid) != r.ctx.paragraph:
            continue
        if earlier.get("neg") != "1" and corpse in (*earlier.agent, *earlier.fields.get("to", ())):
            return (corpse,)
    return ()


@rule("bow-past-the-speaker")
def bow_past_the_speaker(r, subjects, rl) -> bool:
    """少牢饋食禮 祝告曰孝孫某…敢宿。尸拜，許諾; 特牲饋食禮 祝曰酳有與也…兩餕執爵拜: a bow naming
    no one, whose other party the last exchange only suggests to be the 祝, when the 祝 last
    spoke (告, 曰, 命) and did not give or take a cup, is to the host in whose name he spoke (to=
    主人?), not to the 祝 who carried the words; not the host's own bow (rule
    bow-past-the-server). The assent after it (尸拜，許諾) still answers the 祝's words (to=祝?).
    Only while the host is at hand (he acted or was addressed within the last acts)."""
    host, speaker = rl.word("host"), rl.word("speaker")
    recent = r.ctx.history[-int(rl.word("within")) :]
    if not any(host in (*e.agent, *e.fields.get("to", ())) for _, e in recent):
        return False  # (士昏禮 婦…祝告…婦拜扱地: no host at hand, the 祝 speaks for the bride)
    last = next((e for _, e in reversed(r.ctx.history) if speaker in e.agent), None)
    if last is None or last.kind not in rl.words["speaks"]:
        return False
    done = False
    for event in r.events:
        if host in event.agent or speaker in event.agent or event.marks.get("to") != "?":
            continue
        if event.kind in rl.words["bow"] and event.fields.get("to") == (speaker,):
            event.set("to", (host,), "?")
            done = True
        elif event.kind in rl.words["assent"] and event.fields.get("to") == (host,):
            event.set("to", (speaker,), "?")  # 許諾: to the words the 祝 spoke
            done = True
    return done


# --- r-group9 rules


def _guests_in(r: ClauseReader, persons: tuple[str, ...]) -> bool:
    """Whether any of ``persons`` is a guest (yl:Guest)."""
    return any(r.all_of((p,), YL.Guest) for p in persons)


# --- r-recip9 rules


@rule("bringer-honoured")
def bringer_honoured(r, subjects, rl) -> bool:
    """聘禮 宰夫朝服，牽牛以致之。士介…受。無儐; 公使卿贈…受于舍門外…無儐; 大夫以束帛致之…上介…
    儐之兩馬束錦: 儐, the gift honouring one who brought a gift or a message, naming no one (or
    only 之), is to the last who brought one (致, 致命, 贈, 歸) within the last acts, not one of
    those who honour him: to=宰夫?, to=卿?, to=大夫? (注 聘禮 出迎勞者: 欲儐之), denied (無儐) or
    not; not the other party of the last exchange (the 賓, beside the 上介)."""
    done = False
    for event in r.events:
        if event.kind != rl.word("act") or not event.open_to_guess("to"):
            continue
        for _, earlier in reversed(r.ctx.history[-int(rl.word("within")) :]):
            if earlier.kind in rl.words["brings"] and earlier.agent:
                if not set(earlier.agent) & set(event.agent):
                    event.set("to", earlier.agent, "?")
                    done = True
                break
    return done


def _usher_goes_in_next(r, event: Event, rl: Rule) -> tuple[str, ...]:
    """聘禮 賓奉束錦以請覿。擯者入告; 上介…請覿。擯者入告: a request naming no one, right before
    the usher goes in to report (擯者入告, the next clause), is made to him, who carries it in
    (convention 13; 注: 客有大禮未有以待之), not to the ruler inside."""
    if event.kind not in rl.words["requests"] or set(event.agent) & set(rl.words["ushers"]):
        return ()
    tokens = tokenize(r.ctx.next_clause_text, r.lex) if r.ctx.next_clause_text else []
    if len(tokens) < 3 or tokens[0].of("role") not in rl.words["ushers"]:
        return ()
    acts = [t.of("action") for t in tokens[1:]]
    if acts[:2] != [rl.word("in"), *rl.words["reports"]]:
        return ()
    return (tokens[0].of("role") or "",)


def _mats_ahead(ctx, within: int, rl: Rule) -> list[str]:
    """士冠禮 主人之贊者筵于東序…將冠者出房…賓揖將冠者。將冠者即筵坐: the clauses after this
    sentence, a few (``within``), up to the next mat laid (席, 筵), in which the mat just laid is
    taken (rule mat-taken)."""
    from yili_kg.loaders.annotation.annotate import _NEXT_CLAUSE  # (annotate imports this)

    texts: list[str] = []
    clause = _NEXT_CLAUSE.get(next(reversed(ctx.texts), ""))
    while clause is not None and len(texts) < within:
        if sentence_of(clause.id) != ctx.sentence:
            if any(clause.text.startswith(w) or w in clause.text[1:3] for w in rl.words["lays"]):
                break  # another mat laid: the one taken is that one
            texts.append(clause.text)
        clause = _NEXT_CLAUSE.get(clause.id)
    return texts


# --- r-theme9 rules


@rule("east-steps")
def east_steps(r, tokens, i, rl):
    """士昏禮 席于阼; 聘禮 席于阼; 士冠禮 記 適子冠于阼; 既夕禮 記 大斂于阼: 阼 alone right
    after 于 and ending the clause is the east steps, the place 阼階 (dest or at, as the act
    takes a place), not a word left unread; 阼 before a thing (阼俎, 阼席) stays the host's."""
    if r.prep is None or not i or tokens[i - 1].text not in rl.words["yu"]:
        return None
    if i + 1 != len(tokens) or tokens[i].kinds or tokens[i].text not in rl.words["east"]:
        return None
    r.place_here(r.known_place(rl.word("steps")))
    return 1


@rule("screened-with")
def screened_with(r, tokens, i, rl):
    """士虞禮 几在南，厞用席; 特牲饋食禮 …設于西北隅，几在南，厞用筵; 有司徹 …右几，厞用席
    (注 士虞禮: 厞，隱也): 厞用 and a mat, the whole clause, is the mat set up to screen the
    offerings laid out again in the corner, 設 with the mat its theme (whose doer the discourse
    pass reads, as for any 設): not a mat laid for someone (席)."""
    texts = [t.text for t in tokens]
    if i or len(texts) != 3 or texts[0] not in rl.words["screen"]:
        return None
    if texts[1] not in rl.words["use"] or texts[2] not in rl.words["mats"]:
        return None
    r.verb(rl.word("act"), tokens, 0)
    if not r.events or r.events[-1].kind != rl.word("act"):
        return None
    r.events[-1].set("theme", tokens[2].of("object") or texts[2])
    return 3


@rule("vessel-contents")
def vessel_contents(r, tokens, i, rl):
    """公食大夫禮 豆實，實于罋，陳于楹外; 簋實，實于筐; 士虞禮 記 豆實，葵菹: a vessel and 實, the
    whole clause, is what fills that vessel, the food it holds, named as the topic of what
    follows (the 罋 is filled with it, 實于罋): no act of filling the vessel itself."""
    if i or len(tokens) != 2 or tokens[1].text != rl.word("fill"):
        return None
    if not tokens[0].of("object") or tokens[0].of("action"):
        return None
    r.stop = True
    return 2


@rule("light-made")
def light_made(r, tokens, i, rl):
    """士喪禮 宵，為燎于中庭 (注: 宵，夜也。燎，火燋); 既夕禮 宵，為燎于門内之右 (注: 為哭者為明);
    既夕禮 記 既襲，宵為燎于中庭: 為 before a fire or torch (燎, 燭) and 于 a place is making the
    light there, the act 設 (the nearest class: the fire set in its place), the fire its theme,
    the place where it goes, by no one named where the clause names no one (not one carried
    over from before: 既夕禮 記 𨽻人涅厠。既襲，宵為燎于中庭): not 為 taking a role, which
    drops it."""
    nxt, after = _next(tokens, i), _next(tokens, i + 1)
    if tokens[i].text != rl.word("make") or nxt is None or after is None:
        return None
    light = nxt.of("object")
    if light not in rl.words["lights"] or after.text not in rl.words["yu"]:
        return None
    r.verb(rl.word("act"), tokens, i)
    if not r.subjects and r.events and r.events[-1].kind == rl.word("act"):
        r.events[-1].fields["noagent"] = ("unstated",)  # made by no one named: not one carried
    return 1


@rule("dishes-named-after")
def dishes_named_after(r, subjects, rl) -> bool:
    """少牢饋食禮 主婦…薦自東房，韭菹醓醢; 士喪禮 饌于東堂下，脯醢醴酒; 士昏禮 饌于房中，醯醬二豆: a
    clause of only things, right after food presented (薦) or set out (陳, 饌) in the same
    sentence by an act that named no thing and opened its clause with a place (薦自X, 饌于X), is
    what was presented or set out (``+ theme=``), not a description with no act (rule dish-alone
    reads one dish after 薦 so); not after a heading (東方之饌) nor a bare 薦 (記 薦，脯用籩)."""
    if subjects or r.at or r.face or r.before or r.upper or not r.topic or r.events:
        return False
    last = r.ctx.last_act()
    if last is None or sentence_of(last[0]) != r.ctx.sentence:
        return False
    if last[1].kind not in rl.words["after"] or "theme" in last[1].fields:
        return False
    if not last[1].fields.keys() & set(rl.words["placed"]):
        return False  # 鄉射禮 記 薦，脯用籩: the 薦 itself the topic of a description
    opening = tokenize(r.ctx.texts.get(last[0], ""), r.lex)[:1]
    if not opening or not opening[0].of("action"):
        return False  # 既夕禮 東方之饌，四豆，…: a heading, the list after it described
    event = Event("", modifier=True)
    event.set("theme", tuple(r.topic))
    r.events.append(event)
    return True


# --- r-agent10 rules


@rule("cup-stopped")
def cup_stopped(r, subjects, rl) -> bool:
    """特牲饋食禮 賓三獻，如初。燔從如初。爵止; 有司徹 賓長…獻于尸。尸拜受…答拜。爵止; 賓長獻于尸，
    如初，無湇，爵不止: the cup stopping (爵止) or not (爵不止), naming no one, where the 尸 serves,
    is the one holding the cup offered him, undrunk, implied, not a cup stopping by itself: the
    尸 (注 特牲: 尸止爵者，三獻禮成，欲神惠之均於室中), or whoever received a cup just before
    (長拜受于其位，舉爵者東面答拜。爵止: the 長兄弟, 注: 兄弟言止; convention 34)."""
    if subjects or rl.word("personator") not in r.ctx.parties:
        return False
    stopped = [
        e
        for e in r.events
        if e.kind == rl.word("stop")
        and e.get("noagent") == "unstated"
        and set(e.fields.get("theme", ())) & set(rl.words["cups"])
    ]
    if not stopped:
        return False
    recent = r.ctx.history[-int(rl.word("within")) :]
    received = [e.agent for _, e in recent if e.kind in rl.words["receive"] and e.agent]
    holder = received[-1] if received else (rl.word("personator"),)  # 長拜受…爵止: the 長兄弟
    for event in stopped:
        event.unset("noagent")
        event.set("agent", holder, "?")
    return True


@rule("provided")
def provided(r, tokens, i, rl):
    """公食大夫禮 小臣具槃匜 (注: 為公盥也); 記 司宮具几與蒲筵常; 聘禮 主人為之具 (注: 具，謂始死至
    殯所當用); 記 管人為客，三日具沐，五日具浴: 具 (no term) right after its subject, 為之 or a
    day, before what is provided or nothing, is providing it, setting it out, 陳; not 具 reported
    ready (告具于君, 宗人告有司具), 'all' before an act (兄弟具在), a thing (凡宰夫之具), 官具, nor
    具 alone (即位。具: who provides, the 注 alone says, 宰夫具其饌物)."""
    token, nxt = tokens[i], _next(tokens, i)
    if token.text != rl.word("provide") or token.kinds:
        return None
    if any(t.text == rl.word("report") for t in tokens[:i]):
        return None  # 告具于君, 宗人告有司具: ready, reported
    if not i:
        return None  # 即位。具 (注: 宰夫具其饌物): who provides, the 注 alone says
    before = tokens[i - 1]
    if not (before.of("role") or before.text in rl.words["after"]):
        return None  # 官具, 以食具告, 實具設
    if before.text == rl.word("it") and not (i > 1 and tokens[i - 2].of("action")):
        return None  # 凡宰夫之具: the 宰夫's provisions, a thing
    if nxt is not None and (set(nxt.kinds) - {"object"} or is_function_word(nxt.text)):
        return None  # 兄弟具在: all of them; 具以須
    if nxt is not None and not nxt.kinds and i + 2 < len(tokens):
        return None  # 膳宰具官饌: 具 before the act 饌 read by its own token
    r.verb(rl.word("act"), tokens, i)
    return 2 if nxt is not None and not nxt.kinds else 1  # 具沐: the water, no act 沐


def _honours_with_wine(tokens: list[Token], k: int) -> bool:
    """士冠禮 乃醴賓; 士昏禮 贊醴婦, 老醴婦于房中: 醴 (the thing), first in the clause or after
    its subject, 乃 or 贊, before the one honoured (a person) is the act of honouring him with
    it (rule honoured-with-wine); not a request for it (請醴賓), nor a procedure named
    (如舅姑醴婦之禮)."""
    rl = rule_named("honoured-with-wine")
    nxt = _next(tokens, k)
    if tokens[k].text != rl.word("wine") or nxt is None or not nxt.of("role"):
        return False
    if k and not (tokens[k - 1].of("role") or tokens[k - 1].text in rl.words["after"]):
        return False  # 請醴賓: the wine asked for; 記 父醴女 (父, no term: left unread)
    return not any(t.text == rl.word("like") for t in tokens[:k])


@rule("honoured-with-wine")
def honoured_with_wine(r, tokens, i, rl):
    """士冠禮 乃醴賓 (注: 醴當為禮); 士昏禮 贊醴婦, 老醴婦于房中: 醴 before the one honoured is
    honouring him with the cup of 醴, the act 獻 to him (convention 12), not a thing named; the
    person after it is the one it goes to."""
    if not _honours_with_wine(tokens, i):
        return None
    r.verb(rl.word("act"), tokens, i)
    return 1


@rule("host-honours")
def host_honours(reader, event, text, rl) -> bool:
    """士冠禮 …遂以摯見于鄉大夫鄉先生。乃醴賓，以壹獻之禮 (注: 壹獻者，主人獻賓而已): honouring one
    with 醴 (rule honoured-with-wine), naming no one who does it, is the host's, implied, where
    the host is in the rite and is not the one honoured; not the one capped, carried over."""
    host = rl.word("host")
    if event.kind != rl.word("act") or "honoured-with-wine" not in reader.ctx.trace:
        return False
    if host not in reader.ctx.parties or host in event.fields.get("to", (host,)):
        return False
    event.set("agent", host, "?")
    return True


@rule("words-described")
def words_described(r, tokens, i, rl):
    """聘禮 記 辭無常，孫而說; 辭多則史，少則不達; 辭苟足以達; 士昏禮 記 辭無不腆，無辱: 辭 opening
    a clause before 無, 苟 or 多 is the words said, what they should be (注 聘禮: 辭，必順且說),
    a rule of speech: no act of declining, no one declining to anyone; nor is the one a
    verbless clause before left for the next act (辭多則史: 史, what too many words make, no
    subject of 辭曰 after it)."""
    if i or tokens[0].text != rl.word("words") or len(tokens) < 2:
        return None
    if tokens[1].text not in rl.words["described"]:
        return None
    r.ctx.pending = None
    return len(tokens)


def _acts_next(r: ClauseReader, event: Event) -> tuple[str, ...]:
    """士冠禮 擯者告。主人迎; 聘禮 擯者告。賓進: the usher's bare report (the whole clause) is to
    the one who acts next under his own name, the next clause opening with him and his act."""
    if r.ctx.clause_text != "".join((*event.agent, event.kind)) or not r.ctx.next_clause_text:
        return ()
    tokens = tokenize(r.ctx.next_clause_text, r.lex)
    told = tokens[0].of("role") if len(tokens) > 1 and tokens[1].of("action") else None
    return (told,) if told and told not in event.agent else ()


@rule("offering-counted")
def offering_counted(r, tokens, i, rl):
    """士冠禮 乃醴賓，以壹獻之禮 (注: 壹獻者，主人獻賓而已): 以 + a number + 獻之禮, the whole
    clause, right after an offering (獻) in its sentence, is how many times that offering goes,
    + count=N on it (convention 12), not a second offering by the one carried over."""
    numerals = word_values("numeral")
    if i or len(tokens) != 5 or tokens[0].text != rl.word("with") or r.events:
        return None
    if tokens[1].text not in numerals or tokens[2].of("action") != rl.word("act"):
        return None
    if "".join(t.text for t in tokens[3:]) != rl.word("of-rite"):
        return None
    last = r.ctx.last_act()
    if last is None or last[1].kind != rl.word("act") or sentence_of(last[0]) != r.ctx.sentence:
        return None
    r.before["count"] = str(numerals[tokens[1].text])  # + count=N, as a verbless clause
    return len(tokens)
