// The SPARQL editor: Yasgui (vendored in static/yasgui/) on our endpoint, with our prefixes,
// the canned questions as examples, ?query= permalinks and IRIs that open our pages.
(function () {
  "use strict";
  const ID = "https://w3id.org/yili/id/";
  const YL = "https://w3id.org/yili/ontology#";
  const PREFIXES = {
    yl: YL,
    rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    rdfs: "http://www.w3.org/2000/01/rdf-schema#",
    skos: "http://www.w3.org/2004/02/skos/core#",
    owl: "http://www.w3.org/2002/07/owl#",
    xsd: "http://www.w3.org/2001/XMLSchema#",
  };
  const header = Object.entries(PREFIXES).map(([p, iri]) => `PREFIX ${p}: <${iri}>`).join("\n");
  const DEFAULT = header + "\n\n" +
    "SELECT ?kind (COUNT(*) AS ?n) WHERE { ?e yl:kind ?k . ?k skos:prefLabel ?kind }\n" +
    "GROUP BY ?kind ORDER BY DESC(?n) LIMIT 20\n";
  const sources = JSON.parse(document.getElementById("sources").textContent || "{}");
  const params = new URLSearchParams(location.search);

  Yasgui.Yasr.plugins.table.defaults.openIriInNewWindow = false;
  // Yasgui rethrows a failed request's message after it shows it in the answer's place (a 400
  // for a syntax error, with its line and column): shown once, not again as a script error
  window.addEventListener("unhandledrejection", function (event) {
    if (lastFailure && String(event.reason).includes(lastFailure)) event.preventDefault();
  });
  let lastFailure = "";
  const fetchFirst = window.fetch.bind(window);
  window.fetch = function (resource, options) {
    return fetchFirst(resource, options).then(function (response) {
      if (!response.ok && String(resource.url || resource).endsWith("/sparql")) {
        response.clone().text().then(function (text) { lastFailure = text.trim(); });
      }
      return response;
    });
  };
  const yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: { endpoint: location.origin + "/sparql", method: "POST" },
    copyEndpointOnNewTab: true,
    persistenceId: null, // the address bar, not the browser's storage, says what is shown
    populateFromUrl: true,
    endpointCatalogueOptions: { getData: () => [{ endpoint: location.origin + "/sparql" }] },
    yasqe: {
      value: DEFAULT,
      autocompleters: ["prefixes", "variables"], // the others ask a server on the Web (LOV)
      resizeable: true,
      editorHeight: "300px",
    },
    yasr: { prefixes: PREFIXES, defaultPlugin: "table", pluginOrder: ["table", "response"] },
  });
  window.yasgui = yasgui; // for the browser tests and the curious

  function tab() { return yasgui.getTab(); }

  // ?example=NAME opens a canned question; ?query= is read by Yasgui itself
  if (params.get("example") && sources[params.get("example")]) {
    tab().setQuery(sources[params.get("example")]);
  } else if (!params.get("query")) {
    tab().setQuery(DEFAULT);
  }

  function keepInAddress() {
    const url = new URL(location.href);
    url.search = "";
    url.searchParams.set("query", tab().getQuery());
    history.replaceState(null, "", url);
  }

  document.querySelectorAll("a[data-example]").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      tab().setQuery(sources[a.dataset.example]);
      keepInAddress();
      tab().query();
    });
  });

  // IRIs of the answer open our pages: /id/… and /ontology/term/…
  function local(href) {
    if (href.startsWith(ID)) return "/id/" + href.slice(ID.length);
    if (href.startsWith(YL)) return "/ontology/term/" + href.slice(YL.length);
    return null;
  }
  const results = document.getElementById("yasgui");
  new MutationObserver(function () {
    results.querySelectorAll(".yasr a[href]").forEach(function (a) {
      const target = local(a.getAttribute("href"));
      if (target) { a.setAttribute("href", target); a.removeAttribute("target"); }
    });
  }).observe(results, { childList: true, subtree: true });

  yasgui.on("query", keepInAddress);

})();
