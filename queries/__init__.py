"""Canned SPARQL queries (one ``.rq`` file each), shipped as package data."""
