// The step-through: the roles of a phase on the plan, moved act by act (step, play, pause).
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const steps = JSON.parse(document.getElementById("steps").textContent || "[]");
  const svg = document.querySelector("#stage svg");
  const actors = document.getElementById("actors");
  const caption = document.getElementById("caption");
  const counter = document.getElementById("counter");
  const seek = document.getElementById("seek");
  const play = document.getElementById("play");
  const COLOURS = ["#b03a2e", "#1f618d", "#117a65", "#9a7d0a", "#6c3483", "#a04000",
                   "#2e4053", "#196f3d", "#943126", "#5b2c6f", "#1a5276", "#7e5109"];
  const box = svg.viewBox.baseVal;
  const roles = [];
  steps.forEach(s => s.agents.concat(s.recipients).forEach(r => {
    if (roles.indexOf(r) < 0) roles.push(r);
  }));

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
    (parent || actors).appendChild(node);
    return node;
  }

  // the state after each step: where each role is, which way he faces, what he holds
  const states = [];
  let state = {};
  steps.forEach(function (s, i) {
    state = JSON.parse(JSON.stringify(state));
    s.agents.forEach(function (r, k) {
      const me = state[r] || (state[r] = {});
      if (s.place) me.xy = [s.place.xy[0] + 14 * k, s.place.xy[1]];
      if (s.facing) me.facing = s.facing;
    });
    Object.entries(s.holding).forEach(([r, things]) => { (state[r] || (state[r] = {})).holds = things; });
    states.push(state);
  });

  const figures = {};
  roles.forEach(function (role, i) {
    const g = el("g", { class: "actor", "data-role": role });
    const colour = COLOURS[i % COLOURS.length];
    el("line", { class: "facing", x1: 0, y1: 0, x2: 0, y2: 0, stroke: colour, "stroke-width": 3,
                 "stroke-linecap": "round" }, g);
    el("circle", { class: "ring", r: 15, fill: "none", stroke: "#d00", "stroke-width": 3,
                   opacity: 0 }, g);
    el("circle", { r: 10, fill: colour, stroke: "#fff", "stroke-width": 1.5 }, g);
    const t = el("text", { y: 4, "font-size": 11, fill: "#fff", "text-anchor": "middle" }, g);
    t.textContent = role.slice(0, 1);
    const name = el("text", { class: "name", x: 13, y: -6, "font-size": 11, fill: colour }, g);
    name.textContent = role;
    const holds = el("text", { class: "holds", x: 13, y: 16, "font-size": 10, fill: "#333" }, g);
    figures[role] = { g: g, holds: holds, line: g.querySelector("line"), ring: g.querySelector(".ring") };
  });

  let at = 0, timer = null;
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[at], now = states[at];
    let waiting = 0;
    roles.forEach(function (role) {
      const f = figures[role], me = now[role] || {};
      let xy = me.xy;
      if (!xy) { xy = [box.width - 120, 30 + 26 * waiting++]; f.g.classList.add("waiting"); }
      else f.g.classList.remove("waiting");
      f.g.setAttribute("transform", `translate(${xy[0].toFixed(1)},${(xy[1] + 12).toFixed(1)})`);
      const v = me.facing || [0, 0];
      f.line.setAttribute("x2", (v[0] * 22).toFixed(1));
      f.line.setAttribute("y2", (v[1] * 22).toFixed(1));
      f.holds.textContent = (me.holds || []).join("、");
      const acting = s.agents.indexOf(role) >= 0;
      f.ring.setAttribute("opacity", acting ? 1 : 0);
      f.g.classList.toggle("acting", acting);
      f.g.classList.toggle("acted-on", s.recipients.indexOf(role) >= 0);
    });
    caption.innerHTML = "";
    const link = document.createElement("a");
    link.href = location.pathname.replace(/^\/pictures\/steps\/([^/]+)\/(\d+).*/, "/read/$1/$2") + "#" + s.event;
    link.className = "zh";
    link.textContent = s.text;
    link.title = "read the clause";
    const zh = document.createElement("span"); zh.className = "zh reading"; zh.textContent = s.zh;
    const en = document.createElement("span"); en.className = "en"; en.lang = "en"; en.textContent = s.en;
    caption.append(link, " ", zh, " ", en);
    counter.textContent = `${at + 1} / ${steps.length}`;
    seek.value = at + 1;
    document.body.dataset.step = at + 1;
  }
  function pause() { clearInterval(timer); timer = null; play.textContent = "▶ play"; }
  function start() {
    if (at >= steps.length - 1) show(0);
    timer = setInterval(function () { if (at >= steps.length - 1) pause(); else show(at + 1); }, 1200);
    play.textContent = "❚❚ pause";
  }
  document.getElementById("forward").addEventListener("click", () => { pause(); show(at + 1); });
  document.getElementById("back").addEventListener("click", () => { pause(); show(at - 1); });
  play.addEventListener("click", () => (timer ? pause() : start()));
  seek.addEventListener("input", () => { pause(); show(Number(seek.value) - 1); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") { pause(); show(at + 1); }
    if (e.key === "ArrowLeft") { pause(); show(at - 1); }
    if (e.key === " ") { e.preventDefault(); timer ? pause() : start(); }
  });
  if (steps.length) show(Number(new URLSearchParams(location.search).get("step") || 1) - 1);
  else caption.textContent = "The graph reads no acts in this phase.";
})();
