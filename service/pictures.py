"""Pictures: the interaction network of the roles, and the plan of the hall and yard.

Both are SVG drawn from the graph: the network from the ``interactions`` canned query (edge
width by the number of acts between two roles), the plan from the places' plan coordinates
(yl:planX east, yl:planY north) and the ``role-places`` of each role in a phase.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from flask import Blueprint, Response, current_app, render_template, request

from yili_kg.service.queries import service_query

bp = Blueprint("pictures", __name__)
SVG = "image/svg+xml; charset=utf-8"

PALETTE = [
    "#b03a2e",
    "#1f618d",
    "#117a65",
    "#9a7d0a",
    "#6c3483",
    "#a04000",
    "#2e4053",
    "#196f3d",
    "#943126",
    "#5b2c6f",
    "#1a5276",
    "#7e5109",
]


def network_svg(kind: str = "行事", minimum: int = 2) -> str:
    """The roles as a circle of nodes; an arrow from agent to recipient, wider for more acts."""
    from yili_kg.service.pages import run_canned

    _, answer = run_canned("interactions", {"kind": kind})
    weights: dict[tuple[str, str], int] = {}
    for row in answer.rows:
        key = (row["agent"].value, row["recipient"].value)
        weights[key] = weights.get(key, 0) + int(row["times"].value)
    edges = {k: v for k, v in weights.items() if v >= minimum and k[0] != k[1]}
    roles = sorted(
        {r for pair in edges for r in pair},
        key=lambda r: -sum(v for k, v in edges.items() if r in k),
    )
    size, radius = 760, 300
    centre = size / 2
    position = {}
    for i, role in enumerate(roles):
        angle = 2 * math.pi * i / max(len(roles), 1) - math.pi / 2
        position[role] = (centre + radius * math.cos(angle), centre + radius * math.sin(angle))
    heaviest = max(edges.values(), default=1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'width="{size}" height="{size}" role="img" aria-label="interaction network">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#7b241c"/></marker></defs>',
        f"<title>授受之網 — who acts on whom ({escape(kind)}, at least {minimum} acts)</title>",
    ]
    for (agent, recipient), count in sorted(edges.items(), key=lambda e: e[1]):
        (x1, y1), (x2, y2) = position[agent], position[recipient]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        x2, y2 = x2 - dx / length * 26, y2 - dy / length * 26  # stop at the node's edge
        width = 1 + 7 * count / heaviest
        parts.append(
            f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="#7b241c" stroke-opacity="0.55" stroke-width="{width:.1f}" '
            f'marker-end="url(#arrow)"><title>{escape(agent)} → {escape(recipient)}: '
            f"{count}</title></line>"
        )
    for role, (x, y) in position.items():
        parts.append(
            f'<g class="node"><circle cx="{x:.1f}" cy="{y:.1f}" r="24" fill="#fbeee6" '
            f'stroke="#5b1f12"/><text x="{x:.1f}" y="{y + 6:.1f}" font-size="15" '
            f'text-anchor="middle">{escape(role)}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def plan_svg(phase: int | None) -> str:
    """The plan: every place at its coordinates; the roles acting there in the phase."""
    from rdflib import URIRef

    store = current_app.extensions["yili"].store
    places = store.query(service_query("plan-places")).rows
    xs = [float(r["x"].value) for r in places]
    ys = [float(r["y"].value) for r in places]
    scale = 9
    left, right = min(xs) - 4, max(xs) + 4
    bottom, top = min(ys) - 4, max(ys) + 4
    width, height = (right - left) * scale, (top - bottom) * scale

    def point(x: float, y: float) -> tuple[float, float]:
        return (x - left) * scale, (top - y) * scale  # north up

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="plan">',
        "<title>堂與庭 — the hall and the yard</title>",
    ]
    hx, hy = point(-8, 14)
    parts.append(
        f'<rect class="hall" x="{hx:.1f}" y="{hy:.1f}" width="{16 * scale}" '
        f'height="{8 * scale}" fill="#f4ecdf" stroke="#8a6d3b"/>'
    )
    for row in places:
        x, y = point(float(row["x"].value), float(row["y"].value))
        parts.append(
            f'<g class="place"><circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#8a6d3b"/>'
            f'<text x="{x + 4:.1f}" y="{y - 3:.1f}" font-size="9" fill="#6e5a3a">'
            f"{escape(row['label'].value)}</text></g>"
        )
    if phase is not None:
        iri = URIRef(f"https://w3id.org/yili/id/xiangshe/phase/{phase:02d}")
        rows = store.query(service_query("plan-phase"), {"phase": iri}).rows
        colours: dict[str, str] = {}
        offsets: dict[tuple[float, float], int] = {}
        for row in rows:
            role = row["role"].value
            colour = colours.setdefault(role, PALETTE[len(colours) % len(PALETTE)])
            x, y = point(float(row["x"].value), float(row["y"].value))
            n = offsets.get((x, y), 0)
            offsets[(x, y)] = n + 1
            parts.append(
                f'<g class="role"><circle cx="{x + 14 * n:.1f}" cy="{y + 12:.1f}" r="9" '
                f'fill="{colour}"><title>{escape(role)} at {escape(row["place"].value)}: '
                f'{row["acts"].value} acts</title></circle><text x="{x + 14 * n:.1f}" '
                f'y="{y + 16:.1f}" font-size="10" fill="#fff" text-anchor="middle">'
                f"{escape(role[:1])}</text></g>"
            )
        legend_y = 14
        for role, colour in colours.items():
            parts.append(
                f'<g class="legend"><circle cx="12" cy="{legend_y}" r="6" '
                f'fill="{colour}"/><text x="22" y="{legend_y + 4}" font-size="11">'
                f"{escape(role)}</text></g>"
            )
            legend_y += 16
    parts.append("</svg>")
    return "\n".join(parts)


@bp.route("/pictures/network.svg")
def network():
    kind = request.args.get("kind", "行事")
    minimum = int(request.args.get("min", "2")) if request.args.get("min", "2").isdigit() else 2
    return Response(network_svg(kind, minimum), content_type=SVG)


@bp.route("/pictures/plan.svg")
def plan():
    value = request.args.get("phase", "6")
    phase = int(value) if value.isdigit() and 1 <= int(value) <= 99 else None
    return Response(plan_svg(phase), content_type=SVG)


@bp.route("/pictures")
def pictures():
    store = current_app.extensions["yili"].store
    phases = [
        (int(r["index"].value), r["label"].value)
        for r in store.query(service_query("phase-list")).rows
    ]
    value = request.args.get("phase", "6")
    phase = int(value) if value.isdigit() else 6
    return render_template(
        "pictures.html", phases=phases, phase=phase, network=network_svg(), plan=plan_svg(phase)
    )
