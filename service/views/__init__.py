"""The web views (頁): one Flask blueprint a module — the SPARQL endpoint, pages and canned
queries, entity pages, the reading view, search, pictures, the step-through, OpenAPI."""
