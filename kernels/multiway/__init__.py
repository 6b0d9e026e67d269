"""Multiway preflop all-in Monte Carlo: each class against 1..9 uniformly random opponents.

One deal of 10 hands and a board serves every seat and every table size: seat ``s`` at ``n``
players meets ``n - 1`` of the other hands, averaged over every choice of them. Modules, one
responsibility each:

* :mod:`.layout`: shape and entries of the integer tally, the fixed block size, the groups;
* :mod:`.rng`: counter-based random words keyed by (seed, shard, block, deal, word);
* :mod:`.dealing`: partial Fisher–Yates dealing from those words;
* :mod:`.tally`: the per-deal logic (deal, evaluate, tally every seat), written once;
* :mod:`.cpu` / :mod:`.gpu`: that logic compiled with ``numba.njit`` (parallel) / ``numba.cuda.jit``;
* :mod:`.statistics`: a seat's outcome probabilities from its ``(b, t)`` cell; the tally's statistics;
* :mod:`.control_variates`: the cross-fitted control-variate estimator with batch-means errors;
* :mod:`.estimates`: sufficient statistics → win / tie / equity estimates and standard errors.
"""
