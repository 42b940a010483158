"""The pictures that follow the rite: the step-through of a phase and the plan and network per
rite and phase (Flask test client on the real build; the browser test steps it in Chromium)."""

from __future__ import annotations

import json
import os
import re
import xml.dom.minidom

import pytest


@pytest.fixture(scope="module")
def client(request):
    from yili_kg.service.app import create_app

    folder = os.environ.get("YILI_TEST_BUILD") or str(request.getfixturevalue("build_dir"))
    app = create_app({"BUILD_DIR": folder, "WORKERS": 1, "TESTING": True})
    yield app.test_client()
    app.extensions["yili"].pool.close()


def _steps(client, rite, phase):
    html = client.get(f"/pictures/steps/{rite}/{phase}").get_data(as_text=True)
    found = re.search(r'<script id="steps" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_the_host_offers_holding_the_cup_facing_north_west(client):
    steps = _steps(client, "xiangshe", 6)
    offer = next(s for s in steps if s["kind"] == "獻" and s["agents"] == ["主人"])
    assert offer["recipients"] == ["賓"] and offer["facingLabel"] == "西北"
    assert offer["facing"] == [-0.7, -0.7]  # north-west: up and to the left on the plan
    assert "爵" in offer["holding"]["主人"]  # taken from the upper basket, not yet handed on
    assert offer["clause"] in offer["event"]  # each step links to its clause
    # the steps follow the rite's order, and the host takes the cup before he offers it
    take = next(i for i, s in enumerate(steps) if s["kind"] == "取" and s["agents"] == ["主人"])
    assert take < steps.index(offer)
    # a role placed by a place of the plan
    assert any(s["place"] and s["place"]["label"] == "阼階上" for s in steps)


def test_every_rite_steps_through(client):
    steps = _steps(client, "xiangyinjiu", 7)  # 鄉飲酒禮's 主人盥洗獻賓
    assert any(s["kind"] == "獻" and s["agents"] == ["主人"] for s in steps)
    assert client.get("/pictures/steps/xiangshe/999").status_code == 404
    assert client.get("/pictures/steps/nowhere/1").status_code == 404


def test_phases_are_keyed_by_rite(client):
    html = client.get("/pictures?rite=xiangyinjiu&phase=7").get_data(as_text=True)
    chooser = html[html.index('id="phase"') : html.index("</select>", html.index('id="phase"'))]
    labels = re.findall(r'<option value="(\d+)"( selected)?>\d+ ([^<]+)</option>', chooser)
    assert ("7", " selected", "主人盥洗獻賓") in labels  # 鄉飲酒禮's own seventh phase
    assert all(label != "獻賓" for _, _, label in labels)  # none of 鄉射禮's
    plan = client.get("/pictures/plan.svg?rite=xiangyinjiu&phase=7").get_data(as_text=True)
    assert "主人" in plan and xml.dom.minidom.parseString(plan)


def test_the_network_narrows_to_a_rite_and_a_phase(client):
    def edges(query):
        svg = client.get("/pictures/network.svg" + query).get_data(as_text=True)
        xml.dom.minidom.parseString(svg)
        return {
            (a, b): int(n) for a, b, n in re.findall(r"<title>(\S+) → (\S+): (\d+)</title>", svg)
        }

    default, rite = edges(""), edges("?rite=xiangshe")
    assert rite == default  # the interactions canned query's: 鄉射禮, negated acts left out
    phase = edges("?rite=xiangshe&phase=6")
    assert ("主人", "賓") in phase and phase[("主人", "賓")] < rite[("主人", "賓")]
    assert all(n <= rite[pair] for pair, n in phase.items())
    other = edges("?rite=xiangyinjiu")
    assert other and other != rite
    bows = edges("?rite=xiangshe&kind=拜揖")
    assert bows and sum(bows.values()) < sum(rite.values())
