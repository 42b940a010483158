"""Collation (校勘): every real variant between the witnesses of 鄉射禮, with positions.

Pairs compared (all variant-folded, punctuation ignored, so 賔/賓 or 於/于 are not variants):

* the base text (seed 000) against the 四庫 經 (Kanripo KR1d0028);
* the 四庫 經 against the 四部叢刊 經 (KR1d0026): the variants between the two editions;
* the 四庫 注 against the 四部叢刊 注, segment by segment;
* the pinyin witness (seed 003) against the base text: its systematic loss of 主 is
  reported as one finding, never propagated;
* the web 注疏 transcriptions (seeds 002, 004) against the Kanripo 注疏 (see webzhushu).

A position is given in each witness: its own offset, and the Kanripo segment and page.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field

from yili_kg.loaders.align import align
from yili_kg.loaders.text.breaks import rite_projection
from yili_kg.loaders.text.ritetable import read_rites
from yili_kg.loaders.witnesses.kanripo import Row, jing_segments, rite_rows
from yili_kg.loaders.witnesses.pinyin import read_pinyin
from yili_kg.loaders.witnesses.texts import JING_HEADING, SUMMARY_HEADING, read_base
from yili_kg.loaders.witnesses.webzhushu import collate_web as web


@dataclass(frozen=True)
class Variant:
    pair: str  # e.g. "base/siku"
    tag: str  # replace | omission (only in a) | addition (only in b)
    a_text: str
    b_text: str
    a_where: str  # position in witness a
    b_where: str  # position in witness b


@dataclass(frozen=True)
class Finding:
    """A systematic difference reported once with its count (e.g. the missing 主)."""

    pair: str
    description: str
    count: int


@dataclass
class CollationReport:
    variants: list[Variant] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter(v.pair for v in self.variants)

    def render(self) -> str:
        lines = ["# Collation report: 鄉射禮", ""]
        for finding in self.findings:
            lines.append(f"! {finding.pair}: {finding.description} ({finding.count}×)")
        if self.findings:
            lines.append("")
        for pair, count in sorted(self.counts().items()):
            lines.append(f"## {pair}: {count} variants")
            for v in (v for v in self.variants if v.pair == pair):
                a = v.a_text or "—"
                b = v.b_text or "—"
                lines.append(f"  {v.tag:8} {a} | {b}    [{v.a_where} | {v.b_where}]")
            lines.append("")
        lines.extend(self.notes)
        summary = ", ".join(f"{p} {n}" for p, n in sorted(self.counts().items()))
        lines.append(
            f"summary: {sum(self.counts().values())} variants ({summary}); "
            f"{len(self.findings)} systematic findings"
        )
        return "\n".join(lines)


def _segment_locator(segments: list[Row]):
    starts, position = [], 0
    for seg in segments:
        starts.append(position)
        position += len(seg.text)

    def where(offset: int) -> str:
        index = max(bisect.bisect_right(starts, offset) - 1, 0)
        seg = segments[index]
        return f"seg {seg.segment}+{offset - starts[index]} {seg.page}"

    return "".join(s.text for s in segments), where


def _tag(difference) -> str:
    return {"delete": "omission", "insert": "addition"}.get(difference.tag, "replace")


def collate_base_siku(report: CollationReport) -> None:
    raw, _ = read_base()
    begin, finish = raw.index(JING_HEADING) + len(JING_HEADING), raw.index(SUMMARY_HEADING)
    siku, where = _segment_locator(jing_segments(rite_rows("xiangshe")))
    # compare the witness's own characters: corrections of the normalised reading are
    # editorial, the collation shows what each witness wrote
    region = raw[begin:finish]
    for d in align(region, siku).differences:
        report.variants.append(
            Variant(
                "base/siku",
                _tag(d),
                d.a_text,
                d.b_text,
                f"base@{begin + d.a_start}",
                where(d.b_start),
            )
        )


def collate_siku_sbck(report: CollationReport, rite: str = "xiangshe") -> None:
    """The 經 and the 注 of the two Kanripo editions."""
    siku_rows, sbck_rows = rite_rows(rite), rite_rows(rite, "sbck")
    siku, where_a = _segment_locator(jing_segments(siku_rows))
    sbck, where_b = _segment_locator(jing_segments(sbck_rows))
    for d in align(siku, sbck).differences:
        report.variants.append(
            Variant(
                "siku/sbck 經", _tag(d), d.a_text, d.b_text, where_a(d.a_start), where_b(d.b_start)
            )
        )
    siku_zhu = [r for r in siku_rows if r.kind == "注"]
    sbck_zhu = [r for r in sbck_rows if r.kind == "注"]
    a_text, where_za = _segment_locator(siku_zhu)
    b_text, where_zb = _segment_locator(sbck_zhu)
    for d in align(a_text, b_text).differences:
        report.variants.append(
            Variant(
                "siku/sbck 注",
                _tag(d),
                d.a_text,
                d.b_text,
                where_za(d.a_start),
                where_zb(d.b_start),
            )
        )
    report.notes.append(
        "note: the 四部叢刊 transcription lacks half-leaves 005-7b and 005-37b "
        "(corpus/kanripo-raw/SOURCES.md); long omissions there are gaps of the transcription."
    )


def collate_pinyin(report: CollationReport) -> None:
    """The pinyin witness against the base text; the loss of 主 is one finding."""
    witness = read_pinyin()
    raw, _ = read_base()
    begin = raw.index(JING_HEADING) + len(JING_HEADING)
    base = raw[begin : raw.index(SUMMARY_HEADING)]  # the witnesses as written
    text = witness.text[witness.text.index("鄉射之禮") :]
    shift = witness.text.index("鄉射之禮")
    alignment = align(base, text)
    last_b = max((b for b in alignment.a_to_b if b is not None), default=0)
    lost_zhu = 0
    for d in alignment.differences:
        if d.b_start >= last_b:  # the witness stops early: past its end nothing is a variant
            break
        if d.tag == "delete" and set(d.a_text) == {"主"}:
            lost_zhu += len(d.a_text)
            continue
        report.variants.append(
            Variant(
                "base/pinyin",
                _tag(d),
                d.a_text,
                d.b_text,
                f"base@{begin + d.a_start}",
                f"pinyin@{witness.offsets[shift + min(d.b_start, len(text) - 1)]}",
            )
        )
    if lost_zhu:
        report.findings.append(
            Finding(
                "base/pinyin",
                "the pinyin witness drops 主 (of 主人) throughout; its text is "
                "not loaded, only its readings",
                lost_zhu,
            )
        )


def collate_web(report: CollationReport) -> None:
    """The web transcriptions of the 注疏 against the Kanripo rows; their faults are counted."""

    faults: Counter[str] = Counter()
    for witness in ("xiangshe-zhushu-web-11", "xiangshe-zhushu-web-13"):
        result = web(witness)
        for match in result.matches:
            for d in match.differences:
                if d.fault:
                    faults[d.kind] += 1
                    continue
                report.variants.append(
                    Variant(
                        f"kanripo/{witness}",
                        d.kind,
                        d.kanripo,
                        d.web,
                        f"row {match.row}+{d.row_start}",
                        f"line {match.block.line}+{d.web_start}",
                    )
                )
        unmatched = [m.block.line for m in result.matches if m.row is None]
        if unmatched:
            report.notes.append(
                f"note: {witness}: blocks at lines {unmatched} match no Kanripo row"
            )
    for kind, count in sorted(faults.items()):
        label = {
            "s2t": "simplified-to-traditional slips (雲 for 云 …)",
            "lost": "lost characters (?)",
            "split": "characters split into components (扌奎)",
        }[kind]
        report.findings.append(Finding("kanripo/web 注疏", f"transcription faults: {label}", count))


def collate_all() -> CollationReport:
    report = CollationReport()
    collate_base_siku(report)
    collate_siku_sbck(report)
    collate_pinyin(report)
    collate_web(report)
    return report


def collate_punctuated(rites: list[str] | None = None) -> CollationReport:
    """Every stretch where a rite's Kanripo 經 and the punctuated edition do not align.

    The punctuated text (corpus/punctuated/) gives only where its marks fall; where its
    characters differ the Kanripo characters are kept, and this lists each such stretch: a
    variant (庿 | 庙), an omission (characters only the Kanripo 經 has), an addition (only
    the punctuated text has).
    """

    report = CollationReport()
    for slug in rites or list(read_rites()):
        projection = rite_projection(slug)
        _, where = _segment_locator(jing_segments(rite_rows(slug)))
        pair = f"{slug} kanripo/punctuated 經"
        for stretch in projection.stretches:
            tag = (
                "omission"
                if not stretch.punctuated
                else "addition"
                if not stretch.kanripo
                else "replace"
            )
            report.variants.append(
                Variant(pair, tag, stretch.kanripo, stretch.punctuated, where(stretch.start), "")
            )
        size = len(projection.text) - projection.outside
        note = (
            f"note: {slug}: {projection.aligned_share:.2%} of {size} Kanripo 經 characters "
            f"aligned ({projection.same} identical after folding), "
            f"{projection.placed}/{projection.marks} marks placed"
        )
        if projection.outside:
            note += f"; {projection.outside} characters of 傳 not in the punctuated text"
        report.notes.append(note)
    return report
