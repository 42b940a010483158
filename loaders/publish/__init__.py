"""What the build publishes beside the store (發布): the dataset file with its VoID/DCAT, the
ontology's documentation page, the search index."""
