"""Source witnesses and reviewed annotations: data only (see MANIFEST.tsv and SOURCES.md).

This file exists so that the folder installs as the package data ``yili_kg.corpus``
and ``importlib.resources`` finds it in wheel and editable installs alike.
"""
