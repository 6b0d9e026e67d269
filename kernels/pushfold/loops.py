"""Compiled inner loops of the n-player push/fold solver (``kernels.pushfold``): the solver update's
term sums, 3-way contractions over the classes played, the 3-way table's error bound.

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


@njit(cache=True, fastmath=True)
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


@njit(cache=True, fastmath=True)
def contract_pairs(tensor, second, second_support, third, third_support):
    """``(C,)``: Σ_{d, e} tensor[c, d, e] · second[d] · third[e] for every c, over the supports only.

    ``tensor``: (C, D, E), e.g. a (K, K, K) payoff-weighted 3-way mass (float32 or float64); accumulated in float64.
    """
    k = tensor.shape[2]
    out = np.zeros(tensor.shape[0])
    dense = third_support.size * 4 > k  # a contiguous (SIMD) dot product beats gathering a large support
    for c in range(tensor.shape[0]):
        total = 0.0
        for j in range(second_support.size):
            d = second_support[j]
            partial = 0.0
            if dense:
                for e in range(k):
                    partial += tensor[c, d, e] * third[e]
            else:
                for m in range(third_support.size):
                    e = third_support[m]
                    partial += tensor[c, d, e] * third[e]
            total += second[d] * partial
        out[c] = total
    return out


@njit(cache=True, fastmath=True)
def contract_packed(packed, second, third):
    """``(K,)``: Σ_{d, e} T[c, d, e] · second[d] · third[e] for a tensor symmetric in (d, e) given by its upper
    triangle, row by row: ``packed[c, start(d) + (e − d)] = T[c, d, e]`` for d ≤ e (``start(d)`` = Σ_{i<d} (K − i)).
    Each pair is read once with weight second[d]·third[e] + second[e]·third[d] (d < e) or second[d]·third[d]
    (d = e): the rows d either opponent plays as contiguous runs, or, when few pairs weigh anything, those
    pairs alone (gathered). Accumulated in float64."""
    k = second.size
    weights = np.zeros(packed.shape[1])
    pairs = np.empty(packed.shape[1], dtype=np.int64)
    rows = np.empty(k, dtype=np.int64)
    active = used = run = 0
    start = 0
    for d in range(k):
        if second[d] != 0.0 or third[d] != 0.0:
            rows[active] = d
            active += 1
            run += k - d
            for e in range(d, k):
                w = second[d] * third[e] + second[e] * third[d] if e > d else second[d] * third[d]
                weights[start + e - d] = w
                if w != 0.0:
                    pairs[used] = start + e - d
                    used += 1
        start += k - d
    out = np.zeros(packed.shape[0])
    gather = used * 4 < run  # a gathered element costs about four contiguous ones (measured)
    for c in range(packed.shape[0]):
        row = packed[c]
        total = 0.0
        if gather:
            for m in range(used):
                total += row[pairs[m]] * weights[pairs[m]]
        else:
            for i in range(active):
                first = rows[i] * k - rows[i] * (rows[i] - 1) // 2
                part = row[first:first + k - rows[i]]
                w = weights[first:first + k - rows[i]]
                partial = 0.0
                for j in range(k - rows[i]):
                    partial += part[j] * w[j]
                total += partial
        out[c] = total
    return out


@njit(cache=True)
def variance_weights(mass, samples, payoff, classes, second, third):
    """``(len(classes), P)``: m · max(W · Σ_o mass[o] · payoff[o]² − (Σ_o mass[o] · payoff[o])², 0) / n at each class
    triple (c, second[j], third[j]) for c of ``classes`` and the P class pairs given, in float64 — the variance
    of a 3-way pot's payoff estimate, W² · Var / n, times the m = 6, 3 or 1 orientations sharing its sample.

    ``mass``: (K, K, K, O) W · P(ordering) with orderings last (W = Σ_o mass, the compatible weight);
    ``samples``: (K, K, K) Monte Carlo samples n behind each triple (at least 1 is used); ``payoff``: (O,).
    """
    orderings = mass.shape[3]
    out = np.zeros((classes.size, second.size))
    for i in range(classes.size):
        c = classes[i]
        for j in range(second.size):
            d, e = second[j], third[j]
            weight = 0.0
            first = 0.0
            square = 0.0
            for o in range(orderings):
                x = float(mass[c, d, e, o])
                weight += x
                first += x * payoff[o]
                square += x * payoff[o] * payoff[o]
            spread = weight * square - first * first
            if spread > 0.0:
                equal = (c == d) + (d == e) + (c == e)
                orientations = 6.0 if equal == 0 else 3.0 if equal == 1 else 1.0
                out[i, j] = orientations * spread / max(samples[c, d, e], 1.0)
    return out
