"""Glosses (訓詁) that 鄭玄's 注 gives of the terms of the ontology, with the note as source.

The 注 glosses in a few fixed shapes, read here from its unpunctuated text cut at 也:

* ``X Y也`` / ``X猶Y也`` / ``X謂Y也`` — 主人州長也, 戒猶警也, 此縣謂磬也;
* ``Y謂之X`` / ``Y曰X`` — 容謂之乏 (乏 is glossed 容), 引手曰厭.

X must be the label (or another form) of a role, object, place or kind of action. A candidate
is kept only if the gloss is short for its kind of term, is not itself a role (從主人也 says
whom one follows, not what 從 means), does not open with a preposition (進於賓也 says where,
not what), and does not open with a person or an act where a thing is glossed (賓升降由下也
is a statement about the guest, not a gloss).

>>> [(g.label, g.gloss) for g in glosses_of("主人州長也鄉大夫若在焉則稱鄉大夫也戒猶警也")]
[('主人', '州長'), ('戒', '警')]
>>> [(g.label, g.gloss) for g in glosses_of("容謂之乏所以爲獲者御矢也")]
[('乏', '容')]

The words of these shapes and of the tests (也, 猶, 謂之 …; the prepositions and openers of a
statement; the names of works) are ``corpus/annotation-words.tsv``, classes ``gloss-…``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace

from yili_kg.loaders.annotation.rules import rule_named, word_class
from yili_kg.loaders.terms.lexicon import Lexicon, default_lexicon
from yili_kg.loaders.variants import fold

CATEGORIES = ("role", "object", "place", "action")
MAX_GLOSS = 8


def _either(words: tuple[str, ...]) -> str:
    """A regex for any of ``words``, the longest first."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _words() -> SimpleNamespace:
    """The words of the glosses (annotation-words.tsv, classes gloss-…), as the code reads them."""
    return SimpleNamespace(
        end=re.compile(_either(word_class("gloss-end"))),
        skip=word_class("gloss-skip"),
        named=re.compile(f"^(.{{1,4}}?)(?:{_either(word_class('gloss-named'))})(.+)$"),
        marker=re.compile(f"^(?:{_either(word_class('gloss-marker'))})"),
        not_opening=word_class("gloss-not-opening"),
        cites=word_class("gloss-cites"),
        possessive=word_class("gloss-possessive"),
    )


@dataclass(frozen=True)
class Gloss:
    category: str
    label: str  # canonical label of the term
    form: str  # the form the note uses
    gloss: str


def _forms(lexicon: Lexicon) -> list[tuple[str, str, str]]:
    out = []
    for category in CATEGORIES:
        for form, label in lexicon.forms[category].items():
            out.append((form, category, label))
    return sorted(out, key=lambda item: -len(item[0]))


def glosses_of(text: str, lexicon: Lexicon | None = None, glossed: str = "") -> list[Gloss]:
    """The glosses of one 注 (see the module docstring); ``glossed`` is the 經 it explains,
    which says who an unnamed one is (一人 of 一人舉觶: the 舉觶者, rule one-of-group)."""
    lexicon = lexicon or default_lexicon()
    forms = _forms(lexicon)
    words = _words()
    out: list[Gloss] = []
    for piece in (p for p in words.end.split(text) if p):
        piece = next((piece[len(w) :] for w in words.skip if piece.startswith(w)), piece)
        named = words.named.match(piece)
        if named:
            hit = _term(named.group(2), forms, whole=True)
            if hit and _plausible(named.group(1), lexicon):
                out.append(Gloss(hit[1], hit[2], hit[0], named.group(1)))
                continue
        hit = _term(piece, forms)
        if not hit:
            continue
        gloss = piece[len(hit[0]) :]
        gloss = words.marker.sub("", gloss, count=1)
        if (
            gloss not in (hit[0], hit[2])
            and _plausible(gloss, lexicon)
            and _fits(hit[1], gloss, forms)
        ):
            out.append(Gloss(hit[1], hit[2], hit[0], gloss))
    return [_named_by_context(g, glossed) for g in out]


def _named_by_context(gloss: Gloss, glossed: str) -> Gloss:
    """一人，主人之吏 on 一人洗，舉觶于賓 glosses the 舉觶者, not anyone unnamed (人)."""
    one = rule_named("one-of-group")
    if gloss.form == one.word("single") and one.word("raise") in fold(glossed):  # 舉觯 as 舉觶
        return Gloss(gloss.category, one.word("raiser"), gloss.form, gloss.gloss)
    return gloss


#: the longest gloss of each kind of term (鄭注 glosses acts in a word or two; people and
#: things in a short phrase: 主人之吏, 鄉大夫致仕者)
MAX_BY_CATEGORY = {"action": 3, "role": 7, "object": 5, "place": 5}


def _fits(category: str, gloss: str, forms) -> bool:
    """A gloss, not a statement: short for its kind, not opening with an act or a person."""
    if len(gloss) > MAX_BY_CATEGORY[category]:
        return False
    opener = _term(gloss, forms, whole=True)
    if opener is None:
        return True
    if opener[1] == "role":
        # 一人，主人之吏: a role glossed by another's man (annotation-words.tsv gloss-possessive)
        return category == "role" and any(w in gloss for w in _words().possessive)
    if opener[1] == "action":
        return category == "action"  # 出迎，出門也 (an act glossed by an act)
    return True


def _term(text: str, forms, whole: bool = False):
    """The longest term form that opens ``text`` (followed by a gloss unless ``whole``)."""
    for form, category, label in forms:
        if text.startswith(form) and (whole or len(text) > len(form)):
            return form, category, label
    return None


def _plausible(gloss: str, lexicon: Lexicon) -> bool:
    """Short, not opening with a preposition, a statement's word or 今文/古文, naming no work
    and not itself a role (annotation-words.tsv gloss-not-opening, gloss-cites)."""
    words = _words()
    return (
        0 < len(gloss) <= MAX_GLOSS
        and not gloss.startswith(words.not_opening)
        and not any(work in gloss for work in words.cites)
        and gloss not in lexicon.forms["role"]
    )
