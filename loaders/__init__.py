"""Loaders: read the witnesses, build the text layer, annotate clauses, write RDF.

The pipeline runs one way: corpus → text layer → annotations → RDF → reasoning → dataset.
"""
