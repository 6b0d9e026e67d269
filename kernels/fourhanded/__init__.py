"""Exact four-handed counts: every combo against three random hands over every board (issue #36).

* :mod:`.core`: the per-board logic, written once: opponent triples counted as 3-matchings of a graph, from its
  edge count, degrees, paths and triangles;
* :mod:`.cpu`: that logic compiled with ``numba.njit`` over boards in parallel.

No CUDA twin yet: compiled one thread per board, the walk took 255 registers and spilled 4 KB (sm_80/sm_90), so a
GPU build runs this CPU walk on the machine's cores (the other board walks lay a board out over a thread block).
"""
