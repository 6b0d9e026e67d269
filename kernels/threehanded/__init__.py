"""Exact three-handed preflop all-in counts: every class against two random hands, every deal counted.

Opponents are counted, not enumerated (see :mod:`.core`): per board and hero combo, the numbers of
opponent pairs the hero beats, ties one of, or ties both of follow from the sizes of the sets of
combos it beats (B) and ties (T) and their per-card degrees, by inclusion–exclusion over shared
cards. Modules: :mod:`.core` (per-board walk) compiled by :mod:`.cpu`, :mod:`.gpu` (the same counts
laid out for a GPU: a block per board, a thread per hero), :mod:`.tables` (totals and equities).
"""
