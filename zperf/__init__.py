"""zperf: CPU cost per transaction, ITR and zIIP offload from z/OS performance data.

The package is a library first; the ``zperf`` command is a thin client of it.
Data flows one way: ``formats`` (parsers) -> ``tables`` (declared schemas) ->
``calc`` -> ``report`` (renderers) -> ``cli``.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
