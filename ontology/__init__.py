"""The yili-kg ontology (OWL 2 RL, Turtle), shipped as package data."""
