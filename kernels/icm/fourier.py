"""ICM prize integrands at one quadrature node through the characteristic function of the clocks rung.

At time t the clocks of the m players with chips have rung with probabilities p_j = 1 - e^{-x_j t}
(q_j = e^{-x_j t}); player i's prize integrand is x_i q_i H_i with H_i = sum_r a_r PB_r^{(-i)}(t), the
payout a_r at the count r of *other* clocks rung (kernels/icm/harville.py). Here every H_i comes from values of
the generating function on the unit circle, never from its coefficients:

* the others' count lies in a window [lo, lo + N) but for a mass below 2 e^{-LOG_TAIL} (Bennett's
  inequality), so its N-point DFT holds the whole law: with omega_s = e^{2 pi i s / N} and
  A(s) = sum_{lo <= r < lo + N} a_r omega_s^{-r},
      H_i = (1/N) sum_s A(s) phi(omega_s) / (q_i + p_i omega_s),   phi(z) = prod_j (q_j + p_j z);
* |phi^{(-i)}(e^{i theta})| <= exp(-(sigma^2 - p_i q_i)(1 - cos theta)), sigma^2 = sum_j p_j q_j, so only
  the S samples with (sigma^2 - max_j p_j q_j)(1 - cos theta_s) <= LOG_TAIL + log N count; S ~ 32 at
  any field size once sigma >> 1 (the window grows like 20 sigma, the band of samples like 1 / sigma);
* leaving player i out is a division of a *value* of the product by his own factor, which costs ~1
  ulp (the value is a product of factors, each rounded relatively), unlike dividing coefficients;
* H_i = H(p_i) with H(p) = A(0)/N + Re sum_{s >= 1} C_s / (1 + p (omega_s - 1)), C_s = 2 A(s) phi(omega_s) / N
  (conjugate samples paired): a sum of S poles at p = 1/2 + (i/2) cot(theta_s / 2), far from [0, 1]
  when the samples stop well short of theta = pi. Then H is a Chebyshev series in u = 2p - 1 of a
  degree D chosen per node from the analytic bound ||H - p_D|| <= 4 M rho^{-D} / (rho - 1) (Trefethen,
  ATAP Thm 8.2), and each player costs D Clenshaw steps instead of S complex divisions.

Cost per node O(m (S + D) + N S), S ~ 32 and D ~ 12-40: O(m) per node where the window is wide, against
O(m (W + D')) for the Poisson-binomial coefficients and leave-one-out series of kernels/icm/harville.py.
Pure numerics: no printing and no file I/O.
"""

import math

import numba
import numpy as np

# Shared with icm-fourier.js (spec/constants.json): LOG_TAIL (window tails and dropped samples each below e^{-46} ~
# 1e-20 of the largest prize), BLOCK (players per partial product of the characteristic function: rounding ~ (BLOCK +
# m / BLOCK) ulp), CHEBYSHEV_TOL (interpolation error of H relative to the largest prize), CHEBYSHEV_MAX (above this
# degree the direct sum over samples is used), CHEBYSHEV_PER_SAMPLE (Clenshaw steps that cost about one division).
from kernels.constants import ICM_FOURIER_BLOCK as BLOCK
from kernels.constants import ICM_FOURIER_CHEBYSHEV_MAX as CHEBYSHEV_MAX
from kernels.constants import ICM_FOURIER_CHEBYSHEV_PER_SAMPLE as CHEBYSHEV_PER_SAMPLE
from kernels.constants import ICM_FOURIER_CHEBYSHEV_TOL as CHEBYSHEV_TOL
from kernels.constants import ICM_FOURIER_LOG_TAIL as LOG_TAIL

CHUNK = 256  # players per Clenshaw sweep (the chunk's recurrences stay in L1)


@numba.njit(cache=True)
def _bennett_spread(variance):
    """Smallest s with variance h(s / variance) >= LOG_TAIL, h(u) = (1 + u) log(1 + u) - u: by Bennett's
    inequality a sum of independent Bernoullis leaves mean ± s with probability <= 2 e^{-LOG_TAIL}."""
    if variance <= 0.0:
        return 0.0
    low = 0.0
    high = math.sqrt(2.0 * LOG_TAIL * variance) + LOG_TAIL  # Bernstein's spread, always enough
    for _ in range(60):
        mid = 0.5 * (low + high)
        u = mid / variance
        if variance * ((1.0 + u) * math.log1p(u) - u) >= LOG_TAIL:
            high = mid
        else:
            low = mid
        if high - low < 1e-3:
            break
    return high


@numba.njit(cache=True)
def _clock_probabilities(shares, t, fired, quiet):
    """fired = 1 - e^{-x t}, quiet = e^{-x t} for shares (m,) sorted ascending, each with one exp or expm1:
    expm1 below x t = log 2 (then quiet = 1 - fired is exact to an ulp), exp above (fired = 1 - quiet)."""
    m = shares.size
    split = np.searchsorted(shares, math.log(2.0) / t) if t > 0.0 else m
    for j in range(split):
        fired[j] = -math.expm1(-shares[j] * t)
        quiet[j] = 1.0 - fired[j]
    for j in range(split, m):
        quiet[j] = math.exp(-shares[j] * t)
        fired[j] = 1.0 - quiet[j]


@numba.njit(cache=True)
def _window(fired, quiet):
    """(lo, size, variance of the others' count, fewest samples needed) for the DFT: [lo, lo + size)
    holds the count of every player's others but for 2 e^{-LOG_TAIL}, clipped to [0, m)."""
    m = fired.size
    mean = 0.0
    variance = 0.0
    largest = 0.0
    for j in range(m):
        spread = fired[j] * quiet[j]
        mean += fired[j]
        variance += spread
        largest = max(largest, spread)
    reach = _bennett_spread(variance)
    lo = max(0, int(math.floor(mean - 1.0 - reach)))
    hi = min(m - 1, int(math.ceil(mean + reach)))
    return lo, hi - lo + 1, variance - largest


@numba.njit(cache=True)
def _sample_count(size, others_variance):
    """S: samples s = 1..S of the N-point DFT whose bound e^{-(sigma^2 - pq)(1 - cos theta_s)} is at
    least e^{-LOG_TAIL} / N; the rest add below N e^{-LOG_TAIL - log N} of the largest prize."""
    half = size // 2
    if others_variance <= 0.0:
        return half
    cosine = 1.0 - (LOG_TAIL + math.log(size)) / others_variance
    if cosine <= -1.0:
        return half
    return min(half, int(size * math.acos(cosine) / (2.0 * math.pi)) + 1)


@numba.njit(cache=True)
def _payout_transform(payouts, lo, count, cosines, sines):
    """(re (count + 1,), im (count + 1,)): A(s) = sum_{lo <= r < lo + N} a_r e^{-2 pi i s r / N},
    s = 0..count, payouts past their end counted as 0; cosines, sines (N,): cos and sin of 2 pi j / N."""
    size = cosines.size
    re = np.zeros(count + 1)
    im = np.zeros(count + 1)
    stop = min(lo + size, payouts.size)
    for s in range(count + 1):
        index = (s * lo) % size
        total_re = 0.0
        total_im = 0.0
        for r in range(lo, stop):
            total_re += payouts[r] * cosines[index]
            total_im -= payouts[r] * sines[index]
            index += s
            if index >= size:
                index -= size
        re[s] = total_re
        im[s] = total_im
    return re, im


@numba.njit(cache=True, fastmath={"reassoc", "contract"})
def _characteristic(fired, quiet, shifted_cos, sines, count):
    """(re, im) of phi(omega_s) = prod_j (q_j + p_j omega_s), s = 1..count (index 0: phi(1) = 1), the
    factor written (q_j - p_j) + p_j (1 + cos theta_s) + i p_j sin theta_s (no cancellation near theta = pi);
    partial products of BLOCK players, then the blocks multiplied."""
    re = np.ones(count + 1)
    im = np.zeros(count + 1)
    block_re = np.empty(count + 1)
    block_im = np.empty(count + 1)
    m = fired.size
    for start in range(0, m, BLOCK):
        block_re[:] = 1.0
        block_im[:] = 0.0
        for j in range(start, min(start + BLOCK, m)):
            p = fired[j]
            gap = quiet[j] - p
            for s in range(1, count + 1):
                factor_re = gap + p * shifted_cos[s]
                factor_im = p * sines[s]
                x = block_re[s] * factor_re - block_im[s] * factor_im
                block_im[s] = block_re[s] * factor_im + block_im[s] * factor_re
                block_re[s] = x
        for s in range(1, count + 1):
            x = re[s] * block_re[s] - im[s] * block_im[s]
            im[s] = re[s] * block_im[s] + im[s] * block_re[s]
            re[s] = x
    return re, im


@numba.njit(cache=True)
def _pole_sum(c_re, c_im, shifted_cos, sines, p, gap):
    """Re sum_{s >= 1} C_s / (q + p omega_s) with q - p = gap, one player or one Chebyshev point."""
    total = 0.0
    for s in range(1, c_re.size):
        factor_re = gap + p * shifted_cos[s]
        factor_im = p * sines[s]
        total += (c_re[s] * factor_re + c_im[s] * factor_im) / (factor_re * factor_re + factor_im * factor_im)
    return total


@numba.njit(cache=True)
def _chebyshev_degree(c_re, c_im, angle, scale):
    """Degree D of a Chebyshev interpolant of the pole sum on u = 2p - 1 in [-1, 1] within
    CHEBYSHEV_TOL * scale, 0 when the sum vanishes (no samples, or every C_s = 0), or
    CHEBYSHEV_MAX + 1 when no degree is cheap. Pole s sits at u = i b_s,
    b_s = cot(theta_s / 2), residue of size |C_s| / sin(theta_s / 2); on the Bernstein ellipse of
    parameter r (semi-minor axis (r - 1/r)/2 < b_s) the sum is at most M = sum_s |residue_s| / (b_s - that),
    and ||H - p_D|| <= 4 M r^{-D} / (r - 1). Tries a few r below the nearest pole's."""
    count = c_re.size - 1
    if count == 0:
        return 0
    nearest = 1.0 / math.tan(0.5 * angle * count)  # b of the last (widest) sample
    if nearest <= 0.05:
        return CHEBYSHEV_MAX + 1
    best = CHEBYSHEV_MAX + 1
    r_max = nearest + math.sqrt(nearest * nearest + 1.0)
    for fraction in (0.3, 0.5, 0.7, 0.85):
        r = 1.0 + fraction * (r_max - 1.0)
        minor = 0.5 * (r - 1.0 / r)
        bound = 0.0
        for s in range(1, count + 1):
            half = 0.5 * angle * s
            bound += math.hypot(c_re[s], c_im[s]) / math.sin(half) / (1.0 / math.tan(half) - minor)
        if bound == 0.0:
            return 0
        degree = int(math.ceil(math.log(4.0 * bound / ((r - 1.0) * CHEBYSHEV_TOL * scale)) / math.log(r)))
        best = min(best, max(degree, 1))
    return best


@numba.njit(cache=True)
def _chebyshev_coefficients(c_re, c_im, shifted_cos, sines, degree):
    """c_0..c_D of the interpolant in Chebyshev points u_k = cos(pi k / D) (second kind) of the pole sum
    as a function of u = 2p - 1, c_0 and c_D halved so that the sum is sum_d c_d T_d(u)."""
    values = np.empty(degree + 1)
    for k in range(degree + 1):
        u = math.cos(math.pi * k / degree)
        p = 0.5 * (1.0 + u)
        values[k] = _pole_sum(c_re, c_im, shifted_cos, sines, p, -u)  # q - p = -u
    coefficients = np.empty(degree + 1)
    for d in range(degree + 1):
        total = 0.5 * (values[0] + values[degree] * (-1.0) ** d)
        for k in range(1, degree):
            total += values[k] * math.cos(math.pi * d * k / degree)
        coefficients[d] = total * 2.0 / degree
    coefficients[0] *= 0.5
    coefficients[degree] *= 0.5
    return coefficients


@numba.njit(cache=True, fastmath={"reassoc", "contract"})
def _clenshaw(coefficients, fired, quiet, out):
    """out[j] = sum_d c_d T_d(p_j - q_j) for every player: Clenshaw's recurrence, CHUNK players per sweep
    with 2u in an array of its own (so the sweep over players vectorises)."""
    degree = coefficients.size - 1
    twice = np.empty(CHUNK)
    b1 = np.empty(CHUNK)
    b2 = np.empty(CHUNK)
    m = fired.size
    for start in range(0, m, CHUNK):
        width = min(CHUNK, m - start)
        for j in range(width):
            twice[j] = 2.0 * (fired[start + j] - quiet[start + j])
            b1[j] = 0.0
            b2[j] = 0.0
        for d in range(degree, 0, -1):
            c = coefficients[d]
            for j in range(width):
                b0 = c + twice[j] * b1[j] - b2[j]
                b2[j] = b1[j]
                b1[j] = b0
        c = coefficients[0]
        for j in range(width):
            out[start + j] = c + 0.5 * twice[j] * b1[j] - b2[j]


@numba.njit(cache=True, fastmath={"reassoc", "contract"})
def _direct(c_re, c_im, shifted_cos, sines, fired, quiet, out):
    """out[j] = the pole sum at player j's (p_j, q_j), CHUNK players per sweep (vectorised over players)."""
    m = fired.size
    for start in range(0, m, CHUNK):
        stop = min(start + CHUNK, m)
        out[start:stop] = 0.0
        for s in range(1, c_re.size):
            a = c_re[s]
            b = c_im[s]
            e = shifted_cos[s]
            d = sines[s]
            for j in range(start, stop):
                p = fired[j]
                factor_re = quiet[j] - p + p * e
                factor_im = p * d
                out[j] += (a * factor_re + b * factor_im) / (factor_re * factor_re + factor_im * factor_im)


@numba.njit(cache=True)
def node_integrands(shares, payouts, largest, fired, quiet, out):
    """out[j] = x_j q_j H_j(t) for every player at one node (fired, quiet: p_j, q_j at t; shares (m,);
    payouts (k,), k <= m, the largest of them in absolute value `largest`)."""
    m = shares.size
    lo, size, others_variance = _window(fired, quiet)
    if lo >= payouts.size:  # every paid place taken by the others but for e^{-LOG_TAIL}
        out[:] = 0.0
        return
    count = _sample_count(size, others_variance)
    angle = 2.0 * math.pi / size
    cosines = np.empty(size)
    all_sines = np.empty(size)
    for index in range(size):
        cosines[index] = math.cos(angle * index)
        all_sines[index] = math.sin(angle * index)
    a_re, a_im = _payout_transform(payouts, lo, count, cosines, all_sines)
    shifted_cos = 1.0 + cosines[: count + 1]
    sines = all_sines[: count + 1]
    phi_re, phi_im = _characteristic(fired, quiet, shifted_cos, sines, count)
    c_re = np.empty(count + 1)
    c_im = np.empty(count + 1)
    for s in range(1, count + 1):
        pair = 1.0 if 2 * s == size else 2.0  # s and size - s are conjugate
        c_re[s] = pair * (a_re[s] * phi_re[s] - a_im[s] * phi_im[s]) / size
        c_im[s] = pair * (a_re[s] * phi_im[s] + a_im[s] * phi_re[s]) / size
    degree = _chebyshev_degree(c_re, c_im, angle, largest)
    if degree == 0:  # no sample left, or every C_s is 0 (no paid place in the window): H is A(0) / N
        out[:] = 0.0
    elif degree <= CHEBYSHEV_MAX and degree < CHEBYSHEV_PER_SAMPLE * count:
        _clenshaw(_chebyshev_coefficients(c_re, c_im, shifted_cos, sines, degree), fired, quiet, out)
    else:
        _direct(c_re, c_im, shifted_cos, sines, fired, quiet, out)
    base = a_re[0] / size
    for j in range(m):
        out[j] = shares[j] * quiet[j] * (base + out[j])


@numba.njit(cache=True)
def fourier_integral(shares, payouts, times, weights):
    """Prize equity (m,) = sum over nodes of weight x node_integrands; shares (m,) sorted ascending."""
    m = shares.size
    equity = np.zeros(m)
    node = np.empty(m)
    fired = np.empty(m)
    quiet = np.empty(m)
    largest = np.abs(payouts).max()
    for j in range(times.size):
        _clock_probabilities(shares, times[j], fired, quiet)
        node_integrands(shares, payouts, largest, fired, quiet, node)
        equity += weights[j] * node
    return equity
