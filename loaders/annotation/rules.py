"""The annotator's rules as data: ``corpus/annotation-rules.tsv`` and ``annotation-words.tsv``.

Each rule of the annotator is one row of the rule table, in the order the annotator tries
them, with the words it looks for, what it does, the rule of ``docs/annotation.md`` it
implements and an example clause with its expected reading (a test runs every example). The
code of a rule is one small function registered under the row's id (:func:`rule`), like
pySHACL's registry of constraint components; the table and the registry must name the same
rules, or :func:`rules` says which is missing.

Stages, in the order a clause meets them:

* ``token``: the left-to-right pass over a clause's tokens; the first rule that applies to a
  token decides how many tokens it consumes.
* ``verb``: what a verb does to the events of its clause (most make a new event).
* ``clause``: after the pass, over the clause's events (the one commanded acts, 為 takes a role,
  the other party of an exchange …).
* ``verbless``: a clause the pass found no verb in (司馬正東面: a stance), before its words
  wait for the next clause's verb or add to the last event.
* ``carry``: the discourse pass for an event without a subject (:mod:`discourse`): the first
  rule that decides gives it its agent or none.
* ``after``: once a clause is read (:func:`discourse.remember`): what it tells of an earlier
  clause (命去侯。獲者許諾: the 獲者 was the one commanded).

The function words (prepositions, negations, numerals, the adverbs skipped before a verb, the
words of relative place) are ``annotation-words.tsv``, by class, read by
:mod:`yili_kg.loaders.terms.words` (the tokens read them too); this module passes them on.

>>> [r.id for r in rules("token")][:3]
['quote-goes-on', 'unmarked-speech', 'relayed-words']
>>> word_class("negation")
('不', '無', '未', '弗', '毋')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import read_rows
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.terms.words import (  # noqa: F401 (the annotator's words, read here too)
    WORD_FIELDS,
    one_word,
    table_path,
    word_class,
    word_values,
)

STAGES = ("token", "verb", "clause", "verbless", "carry", "after")
RULE_FIELDS = ("id", "stage", "pattern", "words", "action", "doc", "example", "expected")
_REGISTRY: dict[str, Callable] = {}


@dataclass(frozen=True)
class Rule:
    """One row of the rule table, with its function."""

    id: str
    stage: str
    pattern: str  # what it matches, for a reader
    words: dict[str, tuple[str, ...]]  # key=a,b;key2=c: the literal words it looks for
    action: str  # what it does
    doc: str  # the rule of docs/annotation.md it implements
    example: tuple[str, ...]  # examples (punctuated text); each one's reading is of its last clause
    expected: tuple[str, ...]  # each example's last clause's events, in the record format
    line: int = 0

    def word(self, key: str) -> str:
        """The single word stated under ``key``."""
        return self.words[key][0]

    @property
    def apply(self) -> Callable:
        return _REGISTRY[self.id]


def rule(rule_id: str) -> Callable[[Callable], Callable]:
    """Register the function of the rule ``rule_id``."""

    def register(function: Callable) -> Callable:
        if rule_id in _REGISTRY:
            raise ValueError(f"rule {rule_id!r} registered twice")
        _REGISTRY[rule_id] = function
        return function

    return register


def _words(path: Path, number: int, raw: str) -> dict[str, tuple[str, ...]]:
    words = {}
    for part in filter(None, raw.split(";")):
        key, sep, values = part.partition("=")
        if not sep:
            raise SourceError(path, f"words {part!r} is not key=a,b", number)
        words[key.strip()] = tuple(v for v in values.split(",") if v)
    return words


@cache
def rule_table() -> tuple[Rule, ...]:
    """Every rule of the table, in order (see the module docstring)."""
    path = table_path("rules")
    table = []
    for number, row in read_rows(path, RULE_FIELDS):
        if row["stage"] not in STAGES:
            raise SourceError(path, f"stage {row['stage']!r} is not one of {STAGES}", number)
        table.append(
            Rule(
                row["id"],
                row["stage"],
                row["pattern"],
                _words(path, number, row["words"]),
                row["action"],
                row["doc"],
                tuple(row["example"].split(" | ")),
                tuple(row["expected"].split(" | ")),
                number,
            )
        )
    uneven = [r.id for r in table if len(r.example) != len(r.expected)]
    if uneven:
        raise SourceError(path, f"rules with not one expected reading per example: {uneven}")
    ids = [r.id for r in table]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise SourceError(path, f"rules stated twice: {twice}")
    return tuple(table)


@cache
def rules(stage: str) -> tuple[Rule, ...]:
    """The rules of one stage, in the table's order, each with its registered function."""
    # here, not at the top: the two modules import this one to register their rules in it
    import yili_kg.loaders.annotation.clauserules  # noqa: F401 (registers the rules)
    import yili_kg.loaders.annotation.discourse  # noqa: F401 (registers the rules)

    table = rule_table()
    missing = [r.id for r in table if r.id not in _REGISTRY]
    unlisted = sorted(set(_REGISTRY) - {r.id for r in table})
    if missing or unlisted:
        raise SourceError(
            table_path("rules"),
            f"rules without code: {missing}; code without a row: {unlisted}",
        )
    return tuple(r for r in table if r.stage == stage)


@cache
def rule_named(rule_id: str) -> Rule:
    """One rule of the table by its id (a rule that reads another rule's words)."""
    return next(r for r in rule_table() if r.id == rule_id)
