// The query editor: run the SPARQL in the box against /sparql and show the table.
(function () {
  const box = document.getElementById("query");
  const results = document.getElementById("results");
  const status = document.getElementById("status");
  const sources = JSON.parse(document.getElementById("sources").textContent || "{}");
  function link(fmt) { return "/sparql?format=" + fmt + "&query=" + encodeURIComponent(box.value); }
  function refreshLinks() {
    document.getElementById("csv").href = link("csv");
    document.getElementById("json").href = link("json");
  }
  function cell(term) {
    if (!term) return "";
    const text = document.createElement("span");
    if (term.type === "uri" && term.value.startsWith("https://w3id.org/yili/id/")) {
      const a = document.createElement("a");
      a.href = "/id/" + term.value.slice(25);
      a.textContent = term.value.slice(25);
      return a;
    }
    text.textContent = term.value;
    return text;
  }
  async function run() {
    status.textContent = "running…";
    results.innerHTML = "";
    const body = new URLSearchParams({ query: box.value });
    const response = await fetch("/sparql", {
      method: "POST", body: body,
      headers: { "Accept": "application/sparql-results+json" },
    });
    if (!response.ok) { status.textContent = response.status + ": " + await response.text(); return; }
    const data = await response.json();
    if (data.boolean !== undefined) { status.textContent = data.boolean ? "yes" : "no"; return; }
    const vars = data.head.vars;
    const table = document.createElement("table");
    table.className = "results";
    const head = table.createTHead().insertRow();
    vars.forEach(v => { const th = document.createElement("th"); th.textContent = v; head.appendChild(th); });
    const tbody = table.createTBody();
    data.results.bindings.forEach(b => {
      const row = tbody.insertRow();
      vars.forEach(v => row.insertCell().appendChild(cell(b[v])));
    });
    results.appendChild(table);
    status.textContent = data.results.bindings.length + " rows";
  }
  document.getElementById("run").addEventListener("click", run);
  document.getElementById("examples").addEventListener("change", e => {
    if (sources[e.target.value]) { box.value = sources[e.target.value]; refreshLinks(); }
  });
  box.addEventListener("input", refreshLinks);
  refreshLinks();
})();
