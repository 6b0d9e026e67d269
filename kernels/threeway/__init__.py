"""3-way class-triple equities by Monte Carlo: for every unordered triple of hand classes, how often
each weak ordering of the three hands occurs at showdown (card removal among the three included).

* :mod:`.core`: triple indexing, orderings, combo tables and the per-board / per-triple logic, written once;
* :mod:`.cpu` / :mod:`.gpu`: that logic compiled with ``numba.njit`` (parallel) / ``numba.cuda.jit``.
"""
