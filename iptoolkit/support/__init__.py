"""Small helpers every layer may use: they import nothing of ours but each other.

Environment variables, optional extras, JSON and text reading, redaction, escaping and
names. A module goes here when the models could need it.
"""
