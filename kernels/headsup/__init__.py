"""Exact heads-up tables: every class against a random hand and against every class, by board walk.

* :mod:`.boards`: the 134,459 suit-symmetry classes of boards and their sizes,
* :mod:`.core`: the per-board walk (compiled for :mod:`.cpu` and :mod:`.gpu`),
* :mod:`.tables`: assembling tallies into win/tie/loss counts and equities.
"""
