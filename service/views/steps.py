"""The step-through (演禮): a phase of a rite on the plan, act by act — who stands where,
facing which way, holding what, and where he moves — with step, play and pause.

The steps are the events of the phase in the order of the rite (from the reading view's data),
each placed on the plan from its places' coordinates (yl:planX, yl:planY); the script
(``static/steps.js``) moves the roles from step to step. What a role holds is the graph's
reading carried forward: a thing taken or received is held until it is set down or handed on.
"""

from __future__ import annotations

import json

from flask import Blueprint, abort, render_template

from yili_kg.service.views.pictures import plan_geometry
from yili_kg.service.views.reading import readings, remembered

bp = Blueprint("steps", __name__)

#: facing as a unit vector on the plan (north up, east right)
FACING = {
    "北": (0, -1), "南": (0, 1), "東": (1, 0), "西": (-1, 0),
    "東北": (0.7, -0.7), "西北": (-0.7, -0.7), "東南": (0.7, 0.7), "西南": (-0.7, 0.7),
}  # fmt: skip
#: kinds after which the agent no longer holds the thing (set down, handed over, put back)
RELEASE = {"奠", "授", "反奠", "委", "釋", "加", "設", "實", "置"}
#: kinds after which the recipient holds the thing handed over
GIVE = {"授"}


def _plain(parts) -> str:
    return "".join(text for text, _, _ in parts)


def steps_of(reading, where: dict) -> list[dict]:
    """One step per event: the sentence, its clause, the agents' place and facing, what they
    and the recipients hold afterwards (as the graph reads it)."""
    holding: dict[str, list[str]] = {}
    steps = []
    for clause in reading.clauses:
        for e in clause.events:
            agents = [a.zh for a in e.args.get("agent", [])]
            recipients = [a.zh for a in e.args.get("recipient", [])]
            themes = [a.zh for a in e.args.get("theme", [])]
            place = None
            for key in ("destination", "location", "source"):
                found = next((a for a in e.args.get(key, []) if a.iri in where), None)
                if found is not None:
                    place = {"label": found.zh, "how": key, "xy": where[found.iri]}
                    break
            facing = next((a.zh for a in e.args.get("facing", [])), None)
            kind = e.kind.zh if e.kind else ""
            if not e.negated and themes:
                for agent in agents:
                    if kind in RELEASE:
                        holding[agent] = [t for t in holding.get(agent, []) if t not in themes]
                    else:
                        holding[agent] = sorted(set(holding.get(agent, [])) | set(themes))
                if kind in GIVE:
                    for recipient in recipients:
                        holding[recipient] = sorted(set(holding.get(recipient, [])) | set(themes))
            steps.append(
                {
                    "event": e.anchor,
                    "clause": clause.anchor,
                    "text": clause.text,
                    "zh": _plain(e.zh()),
                    "en": _plain(e.en()),
                    "kind": kind,
                    "negated": e.negated,
                    "agents": agents,
                    "recipients": recipients,
                    "place": place,
                    "facing": FACING.get(facing) if facing else None,
                    "facingLabel": facing,
                    "holding": {r: list(holding.get(r, [])) for r in agents + recipients},
                }
            )
    return steps


@bp.route("/pictures/steps/<slug>/<int:index>")
def steps(slug: str, index: int):

    r = readings()
    rite = r.rite(slug)
    if index not in {t["index"] for t in r.toc(slug)}:
        abort(404, f"{slug} has no phase {index}")

    return remembered("steps", (slug, index), lambda: _page(r, rite, slug, index))


def _page(r, rite: dict, slug: str, index: int) -> str:

    reading = r.phase(slug, index)
    parts, _, plan_width, where = plan_geometry()
    data = steps_of(reading, where)
    svg = "\n".join([*parts, '<g id="actors"></g>', "</svg>"])
    return render_template(
        "steps.html",
        rite=rite,
        reading=reading,
        plan=svg,
        steps_json=json.dumps(data, ensure_ascii=False).replace("</", "<\\/"),
        count=len(data),
        previous=reading.neighbour(-1),
        following=reading.neighbour(1),
    )
