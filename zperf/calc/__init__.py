"""The calculator: the reference papers' formulas as pure functions.

Every function takes plain numbers or polars expressions/columns, names its
units in its arguments, and cites the paper and section it comes from.
"""
