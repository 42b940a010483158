"""The annotator (標注): clauses → events by the rules of corpus/annotation-rules.tsv and the
ontology's lexicon, the discourse pass, the reviewed layers, and the evaluation against gold."""
