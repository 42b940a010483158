"""The service: command line, SPARQL endpoint, canned queries, entity pages, pictures."""
