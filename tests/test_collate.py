"""The collation report: real variants between witnesses, and the damaged pinyin witness."""

from __future__ import annotations

import pytest

from yili_kg.loaders.text.collate import collate_all


@pytest.fixture(scope="module")
def report():
    return collate_all()


def test_the_pinyin_witness_loses_zhu_and_the_report_says_so(report):
    finding = next(f for f in report.findings if "主" in f.description)
    assert finding.pair == "base/pinyin" and finding.count > 50
    # the loss is one finding, not hundreds of variants
    assert not any(v.pair == "base/pinyin" and v.a_text == "主" for v in report.variants)


def test_real_variants_between_siku_and_sibu_congkan(report):
    jing = {(v.a_text, v.b_text) for v in report.variants if v.pair == "siku/sbck 經"}
    assert ("奉", "拳") in jing  # 橫而奉之 / 橫而拳之: the 考證 discusses it
    assert ("", "以耦") in jing  # 四庫 omits 以耦 (衆皆與士為耦以耦告于大夫)
    # folded forms are not variants: 賔/賓, 於/于, 矦/侯
    assert not any(
        set(v.a_text + v.b_text) & {"賔", "矦"}
        for v in report.variants
        if v.pair == "siku/sbck 經" and len(v.a_text) == 1
    )


def test_base_text_against_siku(report):
    base = {(v.a_text, v.b_text) for v in report.variants if v.pair == "base/siku"}
    assert ("薰襦", "纁𥜗") in base
    assert ("衆家", "衆賓") not in base and ("家", "賓") in base  # the seed's slip is reported


def test_report_renders_with_positions_and_counts(report):
    text = report.render()
    assert "seg " in text and "KR1d0028_WYG_005-" in text
    assert text.splitlines()[-1].startswith("summary: ")


def test_web_transcriptions_collated_not_loaded(report):
    assert any(v.pair.startswith("kanripo/xiangshe-zhushu-web") for v in report.variants)
