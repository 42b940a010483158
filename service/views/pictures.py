"""Pictures: the interaction network of the roles, and the plan of the hall and yard.

Both are SVG drawn from the graph: the network from the ``interactions`` canned query (edge
width by the number of acts between two roles), the plan from the places' plan coordinates
(yl:planX east, yl:planY north) and the ``role-places`` of each role in a phase.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from html import escape  # &, <, > and quotes: safe in SVG text and attributes

from flask import Blueprint, Response, current_app, render_template, request

from yili_kg.service.queries import Param, Resolver, service_query
from yili_kg.service.views.pages import run_canned
from yili_kg.service.views.reading import readings, remembered

bp = Blueprint("pictures", __name__)
SVG = "image/svg+xml; charset=utf-8"
ID = "https://w3id.org/yili/id/"

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


def network_svg(
    kind: str = "行事", minimum: int = 2, rite: str | None = None, phase: int | None = None
) -> str:
    """The roles as a circle of nodes; an arrow from agent to recipient, wider for more acts.
    With ``rite`` (a slug) only that rite's acts, with ``phase`` only that phase's."""

    if rite is None:
        _, answer = run_canned("interactions", {"kind": kind})
    else:
        answer = _rite_edges(kind, rite, phase)
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
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" '
        'markerHeight="11" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#7b241c"/></marker></defs>',
        f"<title>授受之網 — who acts on whom ({escape(kind)}, at least {minimum} acts)</title>",
    ]
    for (agent, recipient), count in sorted(edges.items(), key=lambda e: e[1]):
        (x1, y1), (x2, y2) = position[agent], position[recipient]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        x2, y2 = x2 - dx / length * 26, y2 - dy / length * 26  # stop at the node's edge
        width = 1 + 7 * count / heaviest
        if (recipient, agent) in edges:  # both ways: each arrow keeps to its own side
            shift = 2 + width / 2
            nx, ny = -dy / length * shift, dx / length * shift
            x1, y1, x2, y2 = x1 + nx, y1 + ny, x2 + nx, y2 + ny
        parts.append(
            f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="#7b241c" stroke-opacity="0.55" stroke-width="{width:.1f}" '
            f'marker-end="url(#arrow)"><title>{escape(agent)} → {escape(recipient)}: '
            f"{count}</title></line>"
        )
    for role, (x, y) in position.items():
        font = 15 if len(role) <= 2 else 13 if len(role) == 3 else 10  # stay inside the circle
        parts.append(
            f'<g class="node"><circle cx="{x:.1f}" cy="{y:.1f}" r="24" fill="#fbeee6" '
            f'stroke="#5b1f12"/><text x="{x:.1f}" y="{y + font * 0.38:.1f}" '
            f'font-size="{font}" text-anchor="middle">{escape(role)}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _rite_edges(kind: str, rite: str, phase: int | None):
    from rdflib import URIRef  # with the first page that needs it: not on the start path

    store = current_app.extensions["yili"].store
    kind_iri = Resolver(store).term(Param("kind", "kind", kind, ""), kind)
    bindings = {"rite": URIRef(f"{ID}rite/{rite}"), "kind": kind_iri}
    if phase is not None:
        bindings["phase"] = URIRef(f"{ID}{rite}/phase/{phase:02d}")
    return store.query(service_query("network-edges"), bindings)


def _squeeze(ys: list[float], gap: float = 6.0, kept: float = 3.0):
    """Depth south of the northernmost place, with the long empty stretches (yard to gate, gate
    to target) shortened to ``kept`` units; and the depths where the plan is cut."""
    knots = sorted(set(ys), reverse=True)
    steps = list(itertools.pairwise(knots))  # (north, south) of each stretch
    depths = [0.0]
    for a, b in steps:
        depths.append(depths[-1] + (a - b if a - b <= gap else kept))
    cuts = [(depths[i] + depths[i + 1]) / 2 for i, (a, b) in enumerate(steps) if a - b > gap]

    def depth(y: float) -> float:
        if y >= knots[0]:
            return knots[0] - y
        for i, (a, b) in enumerate(steps):
            if b <= y <= a:
                return depths[i] + (a - y) / (a - b) * (depths[i + 1] - depths[i])
        return depths[-1] + knots[-1] - y

    return depth, cuts


def _place_labels(points: list[tuple[float, float, str]], font: float) -> list[tuple]:
    """Each label beside its point where it covers no other label or point (greedy)."""
    placed: list[tuple[float, float, float, float]] = []
    dots = [(x - 3, y - 3, x + 3, y + 3) for x, y, _ in points]
    out = []

    def overlap(a, b) -> float:
        w = min(a[2], b[2]) - max(a[0], b[0])
        h = min(a[3], b[3]) - max(a[1], b[1])
        return w * h if w > 0 and h > 0 else 0.0

    for x, y, label in points:
        width = font * len(label)
        best: tuple[float, tuple[float, float, float, float], float, float, str] | None = None
        for dx, dy, anchor in [
            (4, 4, "start"), (-4, 4, "end"), (0, -5, "middle"), (4, -4, "start"),
            (-4, -4, "end"), (4, 12, "start"), (-4, 12, "end"), (0, 14, "middle"),
        ]:  # fmt: skip
            left = x + dx - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
            box = (left, y + dy - font * 0.85, left + width, y + dy + font * 0.15)
            cost = sum(overlap(box, other) for other in placed + dots)
            if best is None or cost < best[0]:
                best = (cost, box, x + dx, y + dy, anchor)
            if cost == 0:
                break
        assert best is not None  # every label has its candidate places
        placed.append(best[1])
        out.append((best[2], best[3], best[4], label))
    return out


def plan_geometry() -> tuple[list[str], Callable[[float, float], tuple[float, float]], float, dict]:
    """The plan without roles: its SVG parts (opening tag to the place labels), the function
    from plan coordinates to the picture's, the plan's width, and each place IRI's point
    (made once per dataset version)."""

    return remembered("plan-geometry", None, _plan_geometry)


def _plan_geometry() -> tuple[list[str], object, float, dict]:
    store = current_app.extensions["yili"].store
    places = store.query(service_query("plan-places")).rows
    spots: dict[tuple[float, float], list[str]] = {}  # places that share a spot share a label
    for row in places:
        spots.setdefault((float(row["x"].value), float(row["y"].value)), []).append(
            row["label"].value
        )
    xs = [x for x, _ in spots]
    depth, cuts = _squeeze([y for _, y in spots])
    scale, margin, font, legend = 24, 3, 11, 140
    left, right = min(xs) - margin, max(xs) + margin
    top, bottom = -margin, max(depth(y) for _, y in spots) + margin
    plan_width, height = (right - left) * scale, (bottom - top) * scale
    width = plan_width + legend

    def point(x: float, y: float) -> tuple[float, float]:
        return (x - left) * scale, (depth(y) - top) * scale  # north up

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="plan">',
        "<title>堂與庭 — the hall and the yard</title>",
    ]
    (hx, hy), (hx2, hy2) = point(-8, 14), point(8, 6)
    parts.append(
        f'<rect class="hall" x="{hx:.1f}" y="{hy:.1f}" width="{hx2 - hx:.1f}" '
        f'height="{hy2 - hy:.1f}" fill="#f4ecdf" stroke="#8a6d3b"/>'
    )
    for cut in cuts:  # where a long empty stretch is left out
        y = (cut - top) * scale
        parts.append(
            f'<g class="cut"><line x1="0" y1="{y:.1f}" x2="{plan_width:.0f}" y2="{y:.1f}" '
            f'stroke="#bbb" stroke-dasharray="6 4"/><text x="{plan_width - 4:.0f}" '
            f'y="{y - 3:.1f}" font-size="9" fill="#999" text-anchor="end">'
            f"not to scale</text></g>"
        )
    points = []
    for (x, y), labels in sorted(spots.items(), key=lambda s: (-s[0][1], s[0][0])):
        px, py = point(x, y)
        points.append((px, py, "·".join(sorted(labels))))
        parts.append(f'<circle class="spot" cx="{px:.1f}" cy="{py:.1f}" r="2.5" fill="#8a6d3b"/>')
    for x, y, anchor, label in _place_labels(points, font):
        parts.append(
            f'<text class="place" x="{x:.1f}" y="{y:.1f}" font-size="{font}" fill="#6e5a3a" '
            f'text-anchor="{anchor}">{escape(label)}</text>'
        )
    where = {
        row["place"].value: point(float(row["x"].value), float(row["y"].value)) for row in places
    }
    return parts, point, plan_width, where


def plan_svg(phase: int | None, rite: str = "xiangshe") -> str:
    """The plan: every place at its coordinates; the roles acting there in the phase."""
    from rdflib import URIRef

    store = current_app.extensions["yili"].store
    parts, point, plan_width, _ = plan_geometry()
    parts = list(parts)  # the remembered geometry is shared: add to a copy
    if phase is not None:
        iri = URIRef(f"https://w3id.org/yili/id/{rite}/phase/{phase:02d}")
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
                f'fill="{colour}" fill-opacity="0.9" stroke="#fff"><title>{escape(role)} at '
                f"{escape(row['place'].value)}: {row['acts'].value} acts</title></circle>"
                f'<text x="{x + 14 * n:.1f}" y="{y + 16:.1f}" font-size="10" fill="#fff" '
                f'text-anchor="middle">{escape(role[:1])}</text></g>'
            )
        legend_y = 20
        for role, colour in colours.items():
            parts.append(
                f'<g class="legend"><circle cx="{plan_width + 16:.0f}" cy="{legend_y}" r="7" '
                f'fill="{colour}"/><text x="{plan_width + 28:.0f}" y="{legend_y + 4}" '
                f'font-size="12">{escape(role)}</text></g>'
            )
            legend_y += 18
    parts.append("</svg>")
    return "\n".join(parts)


def _chosen() -> tuple[str | None, int | None]:
    """The rite (a slug the dataset has) and phase index asked for, or None."""

    rite = request.args.get("rite")
    if rite is not None and rite not in {r["slug"] for r in readings().rites()}:
        rite = None
    value = request.args.get("phase", "")
    phase = int(value) if _index(value) and 1 <= int(value) <= 999 else None
    return rite, phase


@bp.route("/pictures/network.svg")
def network():
    kind = request.args.get("kind", "行事")
    minimum = int(request.args.get("min", "2")) if _index(request.args.get("min", "2")) else 2
    rite, phase = _chosen()
    return Response(network_svg(kind, minimum, rite, phase if rite else None), content_type=SVG)


@bp.route("/pictures/plan.svg")
def plan():
    rite, phase = _chosen()
    if request.args.get("phase") is None:
        phase = 6
    return Response(plan_svg(phase, rite or "xiangshe"), content_type=SVG)


@bp.route("/pictures")
def pictures():
    """The network (of one rite, or one phase) and the plan of one rite's phase: phases are
    keyed by rite (?rite=xiangyinjiu&phase=7), so no two rites' phases collide."""

    rite, phase = _chosen()
    rite = rite or "xiangshe"
    toc = readings().toc(rite)
    indexes = [t["index"] for t in toc]
    if phase not in indexes:
        phase = 6 if 6 in indexes else indexes[0]
    scope = "phase" if request.args.get("scope") == "phase" else "rite"
    network = remembered(
        "network",
        (rite, phase if scope == "phase" else None),
        lambda: network_svg(rite=rite, phase=phase if scope == "phase" else None),
    )
    return render_template(
        "pictures.html",
        rites=readings().rites(),
        rite=rite,
        phases=[(t["index"], t["label"]) for t in toc],
        phase=phase,
        scope=scope,
        network=network,
        plan=remembered("plan", (rite, phase), lambda: plan_svg(phase, rite)),
    )


def _index(value: str) -> bool:
    """A phase index (or ?min=) as a user writes one: ASCII digits (``"²".isdigit()`` is true, and
    ``int("²")`` fails)."""
    return value.isascii() and value.isdigit() and len(value) <= 3
