"""The RDF writer (成圖): the text layer, events, citations, glosses and the ontology as triples."""
