"""What every picture of an estate shares, without matplotlib: which items a diagram shows
(`view`), where they go (`layout`) and how each kind looks (`style`).

`iptoolkit.plot` draws it with matplotlib; the DOT, GraphML and Mermaid exporters write it
as text, so a text export never loads matplotlib.
"""
