"""Jinja2 templates of zperf, installed as the package ``zperf.templates``."""
