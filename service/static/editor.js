// The query editor: run the SPARQL in the box against /sparql and show the answer.
(function () {
  "use strict";
  const ID = "https://w3id.org/yili/id/";
  const YL = "https://w3id.org/yili/ontology#";
  const box = document.getElementById("query");
  const results = document.getElementById("results");
  const status = document.getElementById("status");
  const button = document.getElementById("run");
  const sources = JSON.parse(document.getElementById("sources").textContent || "{}");

  function link(fmt) { return "/sparql?format=" + fmt + "&query=" + encodeURIComponent(box.value); }
  function refreshLinks() {
    document.getElementById("csv").href = link("csv");
    document.getElementById("json").href = link("json");
  }
  function say(text, isError) {
    status.textContent = text;
    status.className = isError ? "error" : "";
  }
  // One value of a row, as the canned query pages show it (links for IRIs, lang for literals).
  function cell(term) {
    if (!term) return document.createTextNode("");
    if (term.type === "uri") {
      const a = document.createElement("a");
      if (term.value.startsWith(ID)) {
        a.href = "/id/" + term.value.slice(ID.length);
        a.textContent = term.value.slice(ID.length);
      } else if (term.value.startsWith(YL)) {
        a.href = "/ontology#" + term.value.slice(YL.length);
        a.textContent = "yl:" + term.value.slice(YL.length);
      } else {
        a.href = term.value;
        a.textContent = term.value;
      }
      return a;
    }
    const span = document.createElement("span");
    if (term["xml:lang"]) span.lang = term["xml:lang"];
    span.textContent = term.type === "bnode" ? "_:" + term.value : term.value;
    return span;
  }
  function showTable(data, truncated) {
    const vars = data.head.vars;
    const rows = data.results.bindings;
    const wrap = document.createElement("div");
    wrap.className = "scroll";
    const table = document.createElement("table");
    table.className = "results";
    const head = table.createTHead().insertRow();
    vars.forEach(v => {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = v;
      head.appendChild(th);
    });
    const tbody = table.createTBody();
    rows.forEach(b => {
      const row = tbody.insertRow();
      vars.forEach(v => row.insertCell().appendChild(cell(b[v])));
    });
    wrap.appendChild(table);
    results.appendChild(wrap);
    say(rows.length + (rows.length === 1 ? " row" : " rows") +
        (truncated ? " (cut off at the row limit)" : ""), false);
  }
  async function run() {
    if (button.disabled) return;
    button.disabled = true;
    say("running…", false);
    results.innerHTML = "";
    const started = performance.now();
    try {
      const response = await fetch("/sparql", {
        method: "POST",
        body: new URLSearchParams({ query: box.value }),
        headers: { "Accept": "application/sparql-results+json, text/turtle;q=0.9" },
      });
      const type = response.headers.get("Content-Type") || "";
      if (!response.ok) {
        say(response.status + " " + response.statusText + ": " + (await response.text()).trim(), true);
        return;
      }
      if (!type.includes("json")) {  // CONSTRUCT or DESCRIBE: a graph, shown as Turtle
        const pre = document.createElement("pre");
        pre.textContent = await response.text();
        results.appendChild(pre);
        say("a graph (Turtle)", false);
        return;
      }
      const data = await response.json();
      if (data.boolean !== undefined) {
        const p = document.createElement("p");
        p.className = "ask";
        p.textContent = data.boolean ? "yes" : "no";
        results.appendChild(p);
        say("ASK: " + (data.boolean ? "yes" : "no"), false);
        return;
      }
      showTable(data, response.headers.has("X-Yili-Truncated"));
    } catch (error) {
      say("the query could not be run: " + error.message, true);
    } finally {
      button.disabled = false;
      if (!status.classList.contains("error")) {
        status.textContent += " · " + Math.round(performance.now() - started) + " ms";
      }
    }
  }
  button.addEventListener("click", run);
  box.addEventListener("keydown", e => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
  document.getElementById("examples").addEventListener("change", e => {
    if (sources[e.target.value]) { box.value = sources[e.target.value]; refreshLinks(); }
  });
  box.addEventListener("input", refreshLinks);
  refreshLinks();
})();
