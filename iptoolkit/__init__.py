"""iptoolkit: explore an integration platform from Jupyter."""
__version__ = "0.1.0"
