"""The vocabulary every stage names things by (名物): the ontology modules as one graph, and
the annotator's lexicon read from their labels (no second list in Python)."""
