"""Compiled inner loops of the n-player push/fold CFR+ update (``kernels.pushfold_table.solve``).

Numba, single-threaded (the build solves several tables at once in separate processes). No I/O.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def accumulate_terms(factors, coef, slot, scalars, start, index, row, out):
    """``out[row[t]] += coef[t] · scalars[slot[t]] · Π_{i in index[start[t]:start[t+1]]} factors[i]`` for every term t.

    ``factors``: (R, K) per-class vectors; ``coef``: (T,) constants; ``slot``: (T,) index into
    ``scalars`` (or −1: factor 1); ``out``: (rows, K), added to in place.
    """
    k = factors.shape[1]
    product = np.empty(k)
    for t in range(coef.size):
        c = coef[t] if slot[t] < 0 else coef[t] * scalars[slot[t]]
        if c == 0.0:
            continue
        product[:] = c
        for i in range(start[t], start[t + 1]):
            f = index[i]
            for x in range(k):
                product[x] *= factors[f, x]
        for x in range(k):
            out[row[t], x] += product[x]


@njit(cache=True)
def contract_orderings(mass, classes, second, second_support, third, third_support):
    """``(len(classes), O)``: Σ_{d, e} mass[c, d, e, o] · second[d] · third[e] for each class c of ``classes``,
    summed over the supports only (the classes played with positive probability), in float64.

    ``mass``: (K, K, K, O) per ordered class triple (orderings last: O contiguous values per triple);
    ``second``, ``third``: (K,) probabilities.
    """
    orderings = mass.shape[3]
    out = np.zeros((classes.size, orderings))
    partial = np.empty(orderings)
    for i in range(classes.size):
        c = classes[i]
        for j in range(second_support.size):
            d = second_support[j]
            partial[:] = 0.0
            for m in range(third_support.size):
                e = third_support[m]
                weight = third[e]
                for o in range(orderings):
                    partial[o] += mass[c, d, e, o] * weight
            weight = second[d]
            for o in range(orderings):
                out[i, o] += weight * partial[o]
    return out
