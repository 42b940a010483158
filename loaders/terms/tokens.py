"""Tokens (詞): a clause cut by longest match against the lexicon's forms (the ontology's labels).

The first step of the annotator (:mod:`yili_kg.loaders.annotation.annotate`), and the features
of the learnt break model (:mod:`yili_kg.loaders.text.punctuate`): a vocabulary tool, not a
rule of reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from yili_kg.loaders.terms.lexicon import Lexicon
from yili_kg.loaders.terms.words import one_word, word_class
from yili_kg.loaders.variants import read_as_base


@dataclass
class Token:
    text: str
    kinds: dict[str, str]  # category → canonical label

    def of(self, category: str) -> str | None:
        return self.kinds.get(category)


def _mutual(form: str, lexicon: Lexicon) -> bool:
    """Whether ``form`` names an act done to each other (yl:reciprocal, yl:mutualAmongMany)."""
    action = lexicon.forms["action"].get(form)
    return action is not None and (
        lexicon.has(action, "reciprocal") or lexicon.has(action, "mutualAmongMany")
    )


_INDEX: dict[int, tuple[object, dict[str, dict[str, str]], int]] = {}


def _forms_index(lexicon: Lexicon) -> tuple[dict[str, dict[str, str]], int]:
    """Form → {category: label} of a lexicon, and the longest form; built once a lexicon."""
    cached = _INDEX.get(id(lexicon.forms))
    if cached is not None and cached[0] is lexicon.forms:
        return cached[1], cached[2]
    forms: dict[str, dict[str, str]] = {}
    for category in ("role", "object", "place", "action", "direction"):
        for form, label in lexicon.forms[category].items():
            # the label read as the text is (棁手 → 梲手: OpenCC's form of a character outside
            # Big5), so that a label written in the table's base form still matches
            forms.setdefault(read_as_base(form), {})[category] = label
    for title in word_class("title"):
        # a piece's title is one word, whatever terms its characters spell (魚 of 魚麗)
        forms[read_as_base(title)] = {"title": title}
    for word in word_class("no-term"):
        # 貝勒, 會飯: one word naming no term, whatever terms its characters spell
        forms[read_as_base(word)] = {}
    longest = max(len(f) for f in forms)
    _INDEX[id(lexicon.forms)] = (lexicon.forms, forms, longest)
    return forms, longest


def tokenize(text: str, lexicon: Lexicon) -> list[Token]:
    """Longest-match tokens; quotations 「…」 become one token of category ``say``, a piece's
    title (《…》, or one of the table's titles unmarked: 工歌鹿鳴) one of category ``title``, a
    word of the table's class ``no-term`` (貝勒, 會飯) one token of no category.

    The witness's forms are read as the lexicon writes them (賔 as 賓, 於 as 于, 宫 as 宮:
    :func:`variants.read_as_base`); a token's text is the form read, a quotation keeps its
    characters.
    """
    quoted = text
    text = read_as_base(text)
    forms, longest = _forms_index(lexicon)
    genitive = one_word("genitive")  # X之Y: a role before it is not the clause's subject
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "「":
            end = text.find("」", i)
            end = len(text) if end < 0 else end
            tokens.append(Token(quoted[i + 1 : end], {"say": quoted[i + 1 : end]}))
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
                if (
                    not tokens
                    and not forms[piece].keys() & {"role", "title"}
                    and not _mutual(piece, lexicon)
                ):
                    # 賓席末答拜: the subject 賓, not the place 賓席 (but 相揖 and 相左 are
                    # acts done to each other, not acts of the usher 相)
                    role = next(
                        (
                            text[i : i + k]
                            for k in range(size - 1, 0, -1)
                            if "role" in forms.get(text[i : i + k], {})
                            and not text.startswith(genitive, i + k)
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


def leading_roles(tokens: list[Token]) -> tuple[str, ...]:
    """The persons the tokens open with (賓至: 賓; 司正既舉觶: 司正), as role labels."""
    roles: list[str] = []
    for token in tokens:
        if not (role := token.of("role")):
            break
        roles.append(role)
    return tuple(roles)
