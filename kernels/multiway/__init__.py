"""Multiway preflop all-in Monte Carlo: each class against 1..9 uniformly random opponents.

One deal of 10 hands and a board serves every seat and every table size: seat ``s`` at ``n``
players meets the next ``n - 1`` seats. Modules, one responsibility each:

* :mod:`.layout`: shapes and slot indices of the integer tally, the fixed block size, the groups;
* :mod:`.rng`: counter-based random words keyed by (seed, shard, block, deal, word);
* :mod:`.dealing`: partial Fisher–Yates dealing from those words;
* :mod:`.tally`: the per-deal logic (deal, evaluate, tally every seat), written once;
* :mod:`.cpu` / :mod:`.gpu`: that logic compiled with ``numba.njit`` (parallel) / ``numba.cuda.jit``;
* :mod:`.statistics`: the raw tally → per-group sufficient statistics per (class, players);
* :mod:`.control_variates`: the cross-fitted control-variate estimator with batch-means errors;
* :mod:`.estimates`: sufficient statistics → win / tie / equity estimates and standard errors.
"""
