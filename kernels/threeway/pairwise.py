"""A 3-way showdown's ordering probabilities from the three heads-up results alone (no 3-way table).

The browser's push/fold solver answers a 3+-player table first with this approximation, while the Monte
Carlo 3-way table (``threeway.bin.gz``, 1 MB) downloads, then again with the table (docs/pushfold.md,
"Browser solver"). The model: the three pairwise showdowns are independent except that their results must
form a consistent weak ordering, so P(ordering o) ∝ Π over the pairs (a, b), (a, c), (b, c) of the heads-up
probability of the pair's result in o (win, tie or loss of the first), normalised over the 13 orderings
(:data:`kernels.threeway.core.ORDERINGS`). It ignores that the three hands share one board and remove each
other's cards, which is what the Monte Carlo table measures; ``threeway.bin.gz`` stores that table as this
model's counts plus corrections and residuals (:mod:`kernels.threeway.compact`).

``templates/assets/js/engines/pushfold/model.js`` (``pairwiseOrderings``) is its twin: the same products in the same
order, so the two agree to the last bit (tests/js/pushfold_solver.test.mjs).
"""

import numpy as np

from kernels.threeway.core import N_ORDERINGS, ORDERINGS

#: The seats of each pair of a sorted triple.
PAIRS = ((0, 1), (0, 2), (1, 2))
#: ``(13, 3)``: per ordering and pair, the column of the pair's heads-up (win, tie, loss) of its first seat.
PAIR_COLUMN = np.array([[0 if r[x] < r[y] else 1 if r[x] == r[y] else 2 for x, y in PAIRS] for r in ORDERINGS])
#: The ordering in which all three hands tie (the answer when every product is zero).
THREE_WAY_TIE = int(np.flatnonzero((ORDERINGS == 0).all(axis=1))[0])


def pairwise_orderings(duel: np.ndarray, triples: np.ndarray) -> np.ndarray:
    """``(T, 13)`` ordering probabilities of the class triples ``triples`` ((T, 3) ints, seats a, b, c) from
    ``duel`` ((K, K, 3): P(first class wins, ties, loses) heads-up), each row summing to 1."""
    a, b, c = (triples[:, s] for s in range(3))
    pairs = (duel[a, b], duel[a, c], duel[b, c])
    products = np.empty((len(triples), N_ORDERINGS))
    for o, (i, j, k) in enumerate(PAIR_COLUMN):
        products[:, o] = pairs[0][:, i] * pairs[1][:, j] * pairs[2][:, k]
    total = products[:, 0].copy()
    for o in range(1, N_ORDERINGS):  # in order, as the JavaScript twin adds them
        total += products[:, o]
    out = np.divide(products, total[:, None], out=np.zeros_like(products), where=total[:, None] > 0)
    out[total == 0, THREE_WAY_TIE] = 1.0
    return out
