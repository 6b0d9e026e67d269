"""Exact four-handed counts: every combo against three random hands over every board (issue #36).

* :mod:`.core`: the per-board logic, written once: opponent triples counted as 3-matchings of a graph, from its
  edge count, degrees, paths and triangles (the formulas shared by both targets);
* :mod:`.cpu`: that logic compiled with ``numba.njit`` over boards in parallel;
* :mod:`.gpu`: the CUDA twin, one warp-sized thread block per board, the walk's card loops split over its threads
  (tested in Numba's simulator against the CPU counts; never run on a real GPU).
"""
