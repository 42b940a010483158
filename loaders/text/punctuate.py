"""Clause and sentence breaks for an unpunctuated 經 (句讀), learnt from 鄉射禮's punctuated text.

The Kanripo witnesses of 鄉飲酒禮, 燕禮 and 大射儀 carry no punctuation; the annotator reads
clauses. 鄉射禮's base text (seed 000) is punctuated and shares most of its phrasing with the
other three rites (the same 獻, 酢, 酬, the same bows and stairs), so its punctuation is the
model: for every gap between two characters, a naive-Bayes log-odds of a break from the
characters around the gap (one and two on each side), learnt from every gap of 鄉射禮's 經 and
記 (variant-folded, punctuation stripped). A break is never put inside a term of the
ontology's lexicon (主人, 阼階上, 答拜 …): those are tokens of the annotator. A role written
twice (主人戒賓賓拜辱) is the object of one clause and the subject of the next.

Measured by two-fold cross-validation on 鄉射禮 (train on one half of its sentences, test on the
other): clause-break F1 0.67 and 0.75 (precision 0.60/0.69, recall 0.77/0.82).

Two decisions per gap: a break (，or 。) or none; then, for a break, a sentence end (。) or a
clause break (，). The edition's own segment ends are always sentence ends.

>>> model = default_model()
>>> [c for s in model.punctuate("主人戒賓賓拜辱主人答拜") for c in s]
['主人戒賓', '賓拜辱', '主人答拜']
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cache

from yili_kg.loaders.terms.lexicon import default_lexicon
from yili_kg.loaders.terms.tokens import tokenize
from yili_kg.loaders.terms.words import word_class
from yili_kg.loaders.variants import PUNCTUATION, fold
from yili_kg.loaders.witnesses.texts import read_base

NONE, CLAUSE, SENTENCE = 0, 1, 2
#: log-odds margin a break must clear (chosen by two-fold cross-validation on 鄉射禮)
BIAS = 2.0
#: characters that stay words of their own when runs of unknown characters are joined
#: (annotation-words.tsv, class break-word)
FUNCTION_WORDS = frozenset(word_class("break-word"))


def _category(token) -> str:
    for category in ("role", "action", "place", "object", "direction"):
        if category in token.kinds:
            return category
    return token.text


def _features(tokens: list, j: int) -> tuple[str, ...]:
    """Features of the gap after token ``j`` (its text and category, and its neighbours')."""
    left = tokens[j]
    right = tokens[j + 1] if j + 1 < len(tokens) else None
    after = tokens[j + 2] if j + 2 < len(tokens) else None
    before = tokens[j - 1] if j >= 1 else None
    lt, rt = left.text, right.text if right else "$"
    lc, rc = _category(left), _category(right) if right else "$"
    ac = _category(after) if after else "$"
    bc = _category(before) if before else "^"
    return (
        f"L1{lt[-1]}",
        f"R1{rt[0]}",
        f"LT{lt}",
        f"RT{rt}",
        f"LC{lc}|{rc}",
        f"RC{rc}|{ac}",
        f"BC{bc}|{lc}",
        f"LX{lt}|{rc}",
        f"RX{lc}|{rt}",
    )


@dataclass
class Model:
    """Counts of features at breaks and non-breaks, and at sentence ends and clause breaks."""

    counts: dict[int, Counter]
    totals: Counter
    bias: float = 0.0

    def _log_odds(self, features, yes: int, no: tuple[int, ...]) -> float:
        n_yes = self.totals[yes]
        n_no = sum(self.totals[k] for k in no)
        score = math.log(n_yes / n_no)
        for f in features:
            c_yes = self.counts[yes][f]
            c_no = sum(self.counts[k][f] for k in no)
            score += math.log((c_yes + 0.5) / (n_yes + 1)) - math.log((c_no + 0.5) / (n_no + 1))
        return score

    def gaps(self, text: str) -> list[int]:
        """The kind of break (NONE, CLAUSE, SENTENCE) after each character of ``text``."""
        tokens = _tokens(text)
        out = [NONE] * len(text)
        position = 0
        for j, token in enumerate(tokens):
            position += len(token.text)
            if j == len(tokens) - 1:
                out[position - 1] = SENTENCE
                continue
            features = _features(tokens, j)
            doubled = "role" in token.kinds and tokens[j + 1].text == token.text  # 戒賓賓拜辱
            if not doubled and self._log_odds(features, NONE, (CLAUSE, SENTENCE)) + self.bias > 0:
                continue
            sentence = self._log_odds(features, SENTENCE, (CLAUSE,))
            out[position - 1] = SENTENCE if sentence > 0 else CLAUSE
        return out

    def punctuate(self, text: str) -> list[list[str]]:
        """``text`` cut into sentences of clauses.

        A piece of one character that is not an act (房|户|間) stays with the clause before.
        """
        sentences: list[list[str]] = [[]]
        start = 0
        gaps = self.gaps(text)
        acts = _acts()
        for i, kind in enumerate(gaps):
            if kind == NONE:
                continue
            previous = sentences[-1] or (sentences[-2] if len(sentences) > 1 else None)
            if i + 1 - start == 1 and text[start] not in acts and previous:
                previous[-1] += text[start]
                start = i + 1
                if kind == SENTENCE and i + 1 < len(text) and sentences[-1]:
                    sentences.append([])
                continue
            sentences[-1].append(text[start : i + 1])
            start = i + 1
            if kind == SENTENCE and i + 1 < len(text):
                sentences.append([])
        return [s for s in sentences if s]


@cache
def _acts() -> frozenset[str]:

    return frozenset(default_lexicon().forms["action"])


def _tokens(text: str) -> list:

    tokens = tokenize(text, default_lexicon())
    merged: list = []
    for token in tokens:  # a run of characters outside the lexicon reads as one word (九十)
        plain = not token.kinds and token.text not in FUNCTION_WORDS
        if plain and merged and not merged[-1].kinds and merged[-1].text[-1] not in FUNCTION_WORDS:
            merged[-1] = type(token)(merged[-1].text + token.text, {})
        else:
            merged.append(token)
    return merged


def train(sentences: list[list[str]], bias: float = BIAS) -> Model:
    """A model from sentences of clauses (each clause a string without punctuation)."""
    counts: dict[int, Counter[str]] = {NONE: Counter(), CLAUSE: Counter(), SENTENCE: Counter()}
    totals: Counter = Counter()
    for sentence in sentences:
        for n, clause in enumerate(sentence):
            tokens = _tokens(clause)
            label = SENTENCE if n == len(sentence) - 1 else CLAUSE
            following = _tokens(sentence[n + 1]) if n + 1 < len(sentence) else []
            window = tokens + following[:2]
            for j in range(len(tokens)):
                kind = label if j == len(tokens) - 1 else NONE
                totals[kind] += 1
                counts[kind].update(_features(window, j))
    return Model(counts, totals, bias)


def clean(text: str) -> str:
    """Folded, without punctuation."""
    return "".join(c for c in fold(text) if c not in PUNCTUATION)


def xiangshe_sentences() -> list[list[str]]:
    """鄉射禮's 經 and 記 as sentences of clauses (folded, punctuation stripped)."""

    _, passages = read_base()
    by_sentence: dict[str, list[str]] = {}
    for p in passages:
        if p.level == "clause":
            text = clean(p.text)
            if text and p.parent is not None:
                by_sentence.setdefault(p.parent, []).append(text)
    return list(by_sentence.values())


@cache
def default_model() -> Model:
    return train(xiangshe_sentences())
