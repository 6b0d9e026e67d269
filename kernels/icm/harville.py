"""Independent Chip Model (Malmuth–Harville): chip stacks + payouts -> prize equity and place probabilities.

Model: with chip shares x_j = s_j / S, player i finishes first with probability x_i, and the later places
are drawn the same way among the players left. Equivalently, give every player an independent
exponential clock T_j ~ Exp(rate x_j); players finish in the order their clocks ring.

Methods (``places[i, r]`` = P(player i finishes (r+1)-th), shape (n, k) for the k paid places):

* ``dp_place_probabilities``: the exact subset recursion over 2^n bitmasks (reference, n <= 22).
* ``integral_place_probabilities`` / ``integral_equity``: the exact integral
  P(i finishes r+1-th) = ∫_0^∞ x_i e^{-x_i t} PB_r^{(-i)}(t) dt, where PB^{(-i)}(t) is the
  Poisson-binomial law of how many *other* clocks rang before t (p_j = 1 - e^{-x_j t}); evaluated by
  a double-exponentially convergent trapezoid rule, accurate to ~1e-13 of the prize pool, any n.
* ``fourier_equity``: the same integral, each node's leave-one-out sums from the characteristic function
  of the clocks rung (kernels/icm/fourier.py), O(n) per node whatever k: the fast path for many paid places.
* ``monte_carlo_equity``: sampled clocks, an independent statistical check.

Conventions (see docs/icm.md):

* Zero stacks (and shares below ``MIN_SHARE`` of the chips) are busted players: they take the last
  places, split equally among them (the limit of equal tiny stacks).
* More payouts than players is refused; at most ``MAX_PLAYERS`` players.
* Money comes out in the units of the payouts; stacks may be in any unit (only ratios matter).

Pure numerics: no printing and no file I/O. Invalid input raises ``ValueError``.
"""

from dataclasses import dataclass
import math

import numba
import numpy as np

# The numbers icm.js shares, each with its unit and meaning in spec/constants.json (kernels/constants.py is generated
# from it): the limits and the choice of method, the quadrature (step h, stretch, tails, the Poisson-binomial window,
# the series' cut, GROUP players per pass: the 9-tap filter is unrolled) and the bubble factors' grid and floors.
from kernels.constants import ICM_AUTO_DP_MAX_PLAYERS as AUTO_DP_MAX_PLAYERS
from kernels.constants import ICM_AUTO_FOURIER_LARGE_FIELD as AUTO_FOURIER_LARGE_FIELD
from kernels.constants import ICM_AUTO_FOURIER_MIN_PAID as AUTO_FOURIER_MIN_PAID
from kernels.constants import ICM_BUBBLE_STEP as BUBBLE_STEP
from kernels.constants import ICM_BUST_RATIO as BUST_RATIO
from kernels.constants import ICM_DP_MAX_PLAYERS as DP_MAX_PLAYERS
from kernels.constants import ICM_GAIN_FLOOR as GAIN_FLOOR
from kernels.constants import ICM_GROUP as GROUP
from kernels.constants import ICM_GROUP_SPREAD as GROUP_SPREAD
from kernels.constants import ICM_MAX_PLAYERS as MAX_PLAYERS
from kernels.constants import ICM_MIN_SHARE as MIN_SHARE
from kernels.constants import ICM_PAIR_TAIL as PAIR_TAIL
from kernels.constants import ICM_PLACES_STEP as PLACES_STEP
from kernels.constants import ICM_SERIES_TOL as SERIES_TOL
from kernels.constants import ICM_STEP as STEP
from kernels.constants import ICM_STRETCH as STRETCH
from kernels.constants import ICM_T_MIN as T_MIN
from kernels.constants import ICM_TAIL_MASS as TAIL_MASS
from kernels.constants import ICM_WINDOW_SIGMAS as WINDOW_SIGMAS
from kernels.icm.fourier import fourier_integral

METHODS = ("auto", "dp", "integral", "fourier")


@dataclass(frozen=True)
class IcmResult:
    """Prize equity (n,) in payout units; place probabilities (n, k) or None; the method used."""

    equity: np.ndarray
    places: np.ndarray | None
    method: str


# ----------------------------------------------------------------------------------------- validation


def _non_number_message(name: str, values) -> str:
    """The message naming the first entry of ``values`` that is not a number."""
    for index, value in enumerate(values):
        try:
            float(value)
        except (TypeError, ValueError):
            return f"{name}: entry {index + 1} is not a number ({value})"
    return f"{name}: expected a flat list of numbers"


def _numeric_array(name: str, values, errors: list[str]) -> np.ndarray | None:
    """``values`` as a 1-D float array, or None after appending the reason to ``errors``."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        errors.append(_non_number_message(name, values))
        return None
    if array.ndim != 1:
        errors.append(f"{name}: expected a flat list of numbers")
        return None
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        errors.append(f"{name}: entry {bad[0] + 1} is not a finite number ({array[bad[0]]})")
        return None
    negative = np.flatnonzero(array < 0)
    if negative.size:
        errors.append(f"{name}: entry {negative[0] + 1} is negative ({array[negative[0]]:g})")
        return None
    return array


def field_errors(stacks, payouts) -> list[str]:
    """Every problem with a field, one message each (empty when the field is valid)."""
    errors: list[str] = []
    stack_array = _numeric_array("stacks", stacks, errors)
    payout_array = _numeric_array("payouts", payouts, errors)
    if stack_array is not None:
        if stack_array.size == 0:
            errors.append("stacks: no players; give at least one stack")
        elif stack_array.size > MAX_PLAYERS:
            errors.append(f"stacks: {stack_array.size} players is more than the limit of {MAX_PLAYERS:,}")
        elif not np.any(stack_array > 0):
            errors.append("stacks: every stack is zero; at least one player needs chips")
    if payout_array is not None:
        if payout_array.size == 0:
            errors.append("payouts: no prizes; give at least one payout")
        elif not np.any(payout_array > 0):
            errors.append("payouts: every prize is zero; give at least one positive prize")
        elif stack_array is not None and 0 < stack_array.size < payout_array.size:
            errors.append(
                f"payouts: {payout_array.size} prizes for {stack_array.size} players; "
                "give at most one prize per player"
            )
    return errors


def validate_field(stacks, payouts) -> tuple[np.ndarray, np.ndarray]:
    """Checked float arrays (stacks (n,), payouts (k,), k <= n); ValueError listing every problem."""
    errors = field_errors(stacks, payouts)
    if errors:
        raise ValueError("; ".join(errors))
    return np.asarray(stacks, dtype=np.float64), np.asarray(payouts, dtype=np.float64)


def chip_shares(stacks: np.ndarray) -> np.ndarray:
    """Shares of the chips (n,), summing to 1; scaled by the largest stack first so huge stacks cannot
    overflow the sum; shares below ``MIN_SHARE`` become 0 (busted)."""
    scaled = stacks / stacks.max()
    shares = scaled / scaled.sum()
    shares[shares < MIN_SHARE] = 0.0
    return shares / shares.sum()


# ---------------------------------------------------------------------------------- exact subset DP


@numba.njit(cache=True)
def _dp_places(shares, paid):
    """Subset recursion: reach[mask] = P(the players in mask took the first |mask| places)."""
    n = shares.size
    full = (1 << n) - 1
    chips_in = np.zeros(1 << n)  # chips_in[m] = sum of shares in m, built by adding one bit (no cancellation)
    popcount = np.zeros(1 << n, dtype=np.int8)
    for mask in range(1, 1 << n):
        low = mask & -mask
        bit = 0
        while (1 << bit) != low:
            bit += 1
        chips_in[mask] = chips_in[mask ^ low] + shares[bit]
        popcount[mask] = popcount[mask ^ low] + 1
    reach = np.zeros(1 << n)
    reach[0] = 1.0
    places = np.zeros((n, paid))
    for mask in range(1 << n):
        place = popcount[mask]
        if place >= paid or reach[mask] == 0.0:
            continue
        remaining = chips_in[full ^ mask]  # summed over the complement, not 1 - chips_in[mask]
        for j in range(n):
            if mask & (1 << j):
                continue
            step = reach[mask] * shares[j] / remaining
            places[j, place] += step
            if place + 1 < paid:
                reach[mask | (1 << j)] += step
    return places


def dp_place_probabilities(shares: np.ndarray, paid: int) -> np.ndarray:
    """Exact place probabilities (n, paid) by the subset DP, O(n 2^n); shares (n,) positive, n <= 22."""
    if shares.size > DP_MAX_PLAYERS:
        raise ValueError(f"the subset DP handles at most {DP_MAX_PLAYERS} players (got {shares.size})")
    return _dp_places(np.ascontiguousarray(shares, dtype=np.float64), paid)


# ----------------------------------------------------------------------------- quadrature in t


@numba.njit(cache=True)
def _share_groups(shares):
    """(values (G,), counts (G,)): the shares sorted and merged into groups whose largest is at most
    (1 + GROUP_SPREAD) times their smallest, each group standing as its count times its mean share. The
    stretched variable is built on these G <= n terms (G = 387 at 20,000 log-normal stacks, 1 for equal
    stacks): any smooth increasing v(t) is a valid change of variables, and merging shares this close
    moves mu(t) by a relative ~GROUP_SPREAD^2 / 8, so the nodes land where the field's clocks ring."""
    ordered = np.sort(shares)
    values = np.empty(ordered.size)
    counts = np.empty(ordered.size)
    groups = 0
    start = 0
    while start < ordered.size:
        stop = start
        total = 0.0
        while stop < ordered.size and ordered[stop] <= ordered[start] * (1.0 + GROUP_SPREAD):
            total += ordered[stop]
            stop += 1
        values[groups] = total / (stop - start)
        counts[groups] = stop - start
        groups += 1
        start = stop
    return values[:groups], counts[:groups]


@numba.njit(cache=True)
def _expected_rung(values, counts, t):
    """(mu, dmu/dt): mu(t) = sum_g c_g (1 - e^{-x_g t}) over the share groups, the expected number of
    clocks rung by t."""
    mu = 0.0
    slope = 0.0
    for g in range(values.size):
        x = values[g]
        mu -= counts[g] * math.expm1(-x * t)
        slope += counts[g] * x * math.exp(-x * t)
    return mu, slope


@numba.njit(cache=True)
def _stretched(values, counts, t):
    """(v(t), v'(t)) for v(t) = -log log(1 + 1/t) + 2c sqrt(9 + mu(t)), mu over the share groups."""
    mu, slope = _expected_rung(values, counts, t)
    log_term = math.log1p(1.0 / t)
    root = math.sqrt(9.0 + mu)
    value = -math.log(log_term) + 2.0 * STRETCH * root
    derivative = 1.0 / (t * log_term) / (t + 1.0) + STRETCH * slope / root
    return value, derivative


@numba.njit(cache=True)
def _log_unfinished_bound(shares, paid, t):
    """log of an upper bound on P(fewer than `paid` clocks rang by t): min of the Chernoff lower tail
    of a sum of Bernoullis, exp(-(mu - a)^2 / (2 mu)) with a = paid - 1, and the union bound over (n - paid + 1)-sets still running,
    (sum_j e^{-x_j t})^m / m!."""
    n = shares.size
    mu = 0.0
    running = 0.0
    for x in shares:
        mu -= math.expm1(-x * t)
        running += math.exp(-x * t)
    bound = 0.0
    slack = mu - (paid - 1)
    if slack > 0.0:
        bound = -slack * slack / (2.0 * mu)
    alive = n - paid + 1
    if running > 0.0:
        bound = min(bound, alive * math.log(running) - math.lgamma(alive + 1.0))
    else:
        bound = -math.inf
    return bound


@numba.njit(cache=True)
def _upper_time(shares, paid):
    """A time t_max past which the paid places are all decided except for TAIL_MASS."""
    target = math.log(TAIL_MASS)
    high = 1.0
    while _log_unfinished_bound(shares, paid, high) > target:
        high *= 2.0
    low = high / 2.0
    for _ in range(60):
        mid = math.sqrt(low * high)
        if _log_unfinished_bound(shares, paid, mid) > target:
            low = mid
        else:
            high = mid
        if high / low < 1.01:
            break
    return high


@numba.njit(cache=True)
def _solve_stretched(values, counts, target, start, start_value, start_slope):
    """(t, v'(t)) with v(t) = target > start_value = v(start), start_slope = v'(start): Newton in
    u = log t from the linear prediction, kept inside a bracket by bisection (or stepping upwards)."""
    low = math.log(start)
    high = math.inf
    u = low + (target - start_value) / (start_slope * start)
    for _ in range(200):
        t = math.exp(u)
        value, derivative = _stretched(values, counts, t)
        if abs(value - target) <= 1e-13 * max(1.0, abs(target)):
            return t, derivative
        if value < target:
            low = u
        else:
            high = u
        candidate = u - (value - target) / (derivative * t)
        if not (low < candidate < high):
            candidate = 0.5 * (low + high) if high < math.inf else low + 2.0 * (u - low) + 1.0
        u = candidate
    return math.exp(u), _stretched(values, counts, math.exp(u))[1]


@numba.njit(cache=True)
def _quadrature(shares, paid, step):
    """Trapezoid nodes t (N,) and weights step / v'(t) (N,) on the uniform grid v(T_MIN) + j step."""
    return _quadrature_to(shares, _upper_time(shares, paid), step)


@numba.njit(cache=True)
def _quadrature_to(shares, t_max, step):
    """The grid of ``_quadrature`` from T_MIN up to a given end time t_max."""
    values, counts = _share_groups(shares)
    v_min, slope = _stretched(values, counts, T_MIN)
    v_max = _stretched(values, counts, t_max)[0]
    count = int(math.ceil((v_max - v_min) / step)) + 1
    times = np.empty(count)
    weights = np.empty(count)
    t = T_MIN
    times[0] = t
    weights[0] = step / slope
    for j in range(1, count):
        t, slope = _solve_stretched(values, counts, v_min + j * step, t, v_min + (j - 1) * step, slope)
        times[j] = t
        weights[j] = step / slope
    return times, weights


def quadrature_nodes(shares: np.ndarray, paid: int, step: float = STEP) -> tuple[np.ndarray, np.ndarray]:
    """Nodes t (N,) and weights (N,) such that sum_j w_j f(t_j) ≈ ∫_0^∞ f(t) dt for the ICM integrands
    of a field with positive shares (n,) summing to 1 and `paid` paid places; `step` is h."""
    return _quadrature(np.ascontiguousarray(shares, dtype=np.float64), paid, step)


# ----------------------------------------------------------------- Poisson-binomial at one node


@numba.njit(cache=True)
def _group_polynomial(fired, quiet, start, taps):
    """taps[0..GROUP] = coefficients of prod_{start <= j < start + GROUP} (quiet_j + fired_j z); players
    past the end of the field count as factors 1 (fired 0, quiet 1)."""
    taps[:] = 0.0
    taps[0] = 1.0
    for j in range(start, min(start + GROUP, fired.size)):
        for degree in range(j - start + 1, 0, -1):
            taps[degree] = quiet[j] * taps[degree] + fired[j] * taps[degree - 1]
        taps[0] *= quiet[j]


@numba.njit(cache=True)
def _poisson_binomial(fired, quiet, length):
    """Coefficients 0..length-1 of prod_j (quiet_j + fired_j z), the law of how many clocks rang.

    Players are multiplied in GROUP = 8 at a time (one 9-tap filter pass per group, written out so the
    compiler keeps it in registers: about 2x faster than one pass per player). After each group only
    the window mean ± (L sd + L^2/3), L = WINDOW_SIGMAS, is kept: Bernstein's inequality bounds the mass
    dropped each time by 2 e^{-L^2/2}. Returns (coefficients, low, high), zero outside [low, high]."""
    pad = GROUP  # coefficient r lives at index r + pad, with GROUP zeros kept on either side of the window
    current = np.zeros(length + 2 * pad)
    following = np.zeros(length + 2 * pad)
    taps = np.zeros(GROUP + 1)
    current[pad] = 1.0
    low = 0
    high = 0
    mean = 0.0
    variance = 0.0
    for start in range(0, fired.size, GROUP):
        _group_polynomial(fired, quiet, start, taps)
        stop = min(start + GROUP, fired.size)
        for j in range(start, stop):
            mean += fired[j]
            variance += fired[j] * quiet[j]
        spread = WINDOW_SIGMAS * math.sqrt(variance) + WINDOW_SIGMAS * WINDOW_SIGMAS / 3.0
        new_high = min(high + stop - start, length - 1, int(mean + spread) + 1)
        new_low = max(low, int(mean - spread))
        if new_low > new_high:
            return np.zeros(length), 0, 0
        t0, t1, t2, t3, t4, t5, t6, t7, t8 = taps[0], taps[1], taps[2], taps[3], taps[4], taps[5], taps[6], taps[7], taps[8]
        for r in range(new_low + pad, new_high + pad + 1):
            following[r] = (
                t0 * current[r] + t1 * current[r - 1] + t2 * current[r - 2] + t3 * current[r - 3]
                + t4 * current[r - 4] + t5 * current[r - 5] + t6 * current[r - 6] + t7 * current[r - 7]
                + t8 * current[r - 8]
            )
        following[new_low : new_low + pad] = 0.0
        following[new_high + pad + 1 : new_high + 2 * pad + 1] = 0.0
        current, following = following, current
        low = new_low
        high = new_high
    coefficients = np.zeros(length)
    coefficients[low : high + 1] = current[low + pad : high + pad + 1]
    return coefficients, low, high


@numba.njit(cache=True)
def _series_length(ratio, limit):
    """Terms d = 0..D-1 of sum_d (-ratio)^d c_d needed for ratio^D < SERIES_TOL, at most `limit`."""
    if ratio <= 0.0:
        return 1
    if ratio >= 1.0:
        return limit
    return min(limit, int(math.log(SERIES_TOL) / math.log(ratio)) + 1)


@numba.njit(cache=True)
def _clock_probabilities(shares, t):
    """(fired (n,), quiet (n,), any_backward): p_j = 1 - e^{-x_j t}, q_j = e^{-x_j t}, and whether some
    player has p_j > q_j (then the Poisson-binomial law is needed up to n, not just the paid places)."""
    fired = -np.expm1(-shares * t)
    quiet = np.exp(-shares * t)
    return fired, quiet, bool(np.any(fired > quiet))


@numba.njit(cache=True)
def _node_equity(shares, payouts, t, out):
    """out[i] = x_i e^{-x_i t} sum_r a_r PB_r^{(-i)}(t) for every player i (one quadrature node).

    Leave-one-out without dividing in the unstable direction: with rho_i = p_i / q_i,
      rho_i <= 1: sum_r a_r q_i PB_r^{(-i)} = sum_d (-rho_i)^d C_d,   C_d = sum_j a_{j+d} PB_j,
      rho_i > 1:  ... = (1/rho_i) sum_m (-1/rho_i)^m G_m,              G_m = sum_{r<k} a_r PB_{r+1+m},
    both truncated once the ratio^d term is below SERIES_TOL."""
    n = shares.size
    paid = payouts.size
    fired, quiet, any_backward = _clock_probabilities(shares, t)
    pb, low, high = _poisson_binomial(fired, quiet, n + 1 if any_backward else paid)

    forward_terms = 1
    backward_terms = 1
    for j in range(n):
        if fired[j] <= quiet[j]:
            forward_terms = max(forward_terms, _series_length(fired[j] / quiet[j], paid - low))
        else:
            backward_terms = max(backward_terms, _series_length(quiet[j] / fired[j], high))
    forward = np.zeros(forward_terms)
    for d in range(forward_terms):
        total = 0.0
        for r in range(low, paid - d):
            total += payouts[r + d] * pb[r]
        forward[d] = total
    backward = np.zeros(backward_terms)
    if any_backward:
        for m in range(backward_terms):
            total = 0.0
            for r in range(max(0, low - 1 - m), min(paid, high - m)):
                total += payouts[r] * pb[r + 1 + m]
            backward[m] = total

    for i in range(n):
        if fired[i] <= quiet[i]:
            ratio = fired[i] / quiet[i]
            terms = _series_length(ratio, forward_terms)
            acc = 0.0
            for d in range(terms - 1, -1, -1):
                acc = forward[d] - ratio * acc
            out[i] = shares[i] * acc
        else:
            ratio = quiet[i] / fired[i]
            terms = _series_length(ratio, backward_terms)
            acc = 0.0
            for m in range(terms - 1, -1, -1):
                acc = backward[m] - ratio * acc
            out[i] = shares[i] * ratio * acc


@numba.njit(cache=True)
def _node_places(shares, paid, t, out):
    """out[i, r] = x_i e^{-x_i t} PB_r^{(-i)}(t), r < paid (one quadrature node), by the stable
    division: forward y_r = x_i PB_r - rho_i y_{r-1} when rho_i <= 1, else backward
    y_r = (x_i PB_{r+1} - y_{r+1}) / rho_i from the top of the window."""
    n = shares.size
    fired, quiet, any_backward = _clock_probabilities(shares, t)
    pb, low, high = _poisson_binomial(fired, quiet, n + 1 if any_backward else paid)
    for i in range(n):
        for r in range(paid):
            out[i, r] = 0.0
        if fired[i] <= quiet[i]:
            ratio = fired[i] / quiet[i]
            previous = 0.0
            for r in range(low, paid):
                previous = shares[i] * pb[r] - ratio * previous
                out[i, r] = previous
        else:
            inverse = quiet[i] / fired[i]
            following = 0.0
            for r in range(high - 1, -1, -1):
                following = inverse * (shares[i] * pb[r + 1] - following)
                if r < paid:
                    out[i, r] = following


@numba.njit(cache=True)
def _integral_equity(shares, payouts, times, weights):
    equity = np.zeros(shares.size)
    node = np.empty(shares.size)
    for j in range(times.size):
        _node_equity(shares, payouts, times[j], node)
        equity += weights[j] * node
    return equity


@numba.njit(cache=True)
def _integral_places(shares, paid, times, weights):
    places = np.zeros((shares.size, paid))
    node = np.empty((shares.size, paid))
    for j in range(times.size):
        _node_places(shares, paid, times[j], node)
        places += weights[j] * node
    return places


def _paid_prefix(payouts: np.ndarray) -> np.ndarray:
    """Payouts without trailing zero prizes (at least one entry): zero places need no integrand."""
    nonzero = np.flatnonzero(payouts)
    return payouts[: nonzero[-1] + 1] if nonzero.size else payouts[:1]


def integral_equity(shares: np.ndarray, payouts: np.ndarray, step: float = STEP) -> np.ndarray:
    """Prize equity (n,) by the integral method; shares (n,) positive summing to 1, payouts (k,), k <= n;
    `step` is the trapezoid step h (halve it for a reference run). Cost O(N n (W/8 + D)) for N ≈ 40-200
    nodes, a Poisson-binomial window W ≈ 20 sd and short leave-one-out series D."""
    shares = np.ascontiguousarray(shares, dtype=np.float64)
    payouts = np.ascontiguousarray(_paid_prefix(payouts), dtype=np.float64)
    times, weights = _quadrature(shares, payouts.size, step)
    return _integral_equity(shares, payouts, times, weights)


def fourier_equity(shares: np.ndarray, payouts: np.ndarray, step: float = STEP) -> np.ndarray:
    """Prize equity (n,) by the integral method with each node's leave-one-out sums taken from the
    characteristic function (kernels/icm/fourier.py): O(N n (S + D)) for N nodes, S ~ 32 samples and a
    Chebyshev degree D ~ 15-40, whatever the number k of paid places. Same arguments as ``integral_equity``."""
    order = np.argsort(shares, kind="stable")
    payouts = np.ascontiguousarray(_paid_prefix(payouts), dtype=np.float64)
    ordered = np.ascontiguousarray(shares[order], dtype=np.float64)
    times, weights = _quadrature(ordered, payouts.size, step)
    equity = np.empty(shares.size)
    equity[order] = fourier_integral(ordered, payouts, times, weights)
    return equity


def integral_place_probabilities(shares: np.ndarray, paid: int) -> np.ndarray:
    """Place probabilities (n, paid) by the integral method; O(N n paid) on top of the equity's cost."""
    shares = np.ascontiguousarray(shares, dtype=np.float64)
    times, weights = _quadrature(shares, paid, PLACES_STEP)
    return _integral_places(shares, paid, times, weights)


# ------------------------------------------------------------------------------------ Monte Carlo


def _sample_clocks(rng, rates_inverse: np.ndarray, busted: np.ndarray, size: int) -> np.ndarray:
    """(size, n) ringing times; busted players ring after everyone else, in uniformly random order."""
    clocks = rng.standard_exponential((size, rates_inverse.size)) * rates_inverse
    if busted.size:
        clocks[:, busted] = 0.0
        clocks[:, busted] = clocks.max(axis=1, keepdims=True) + 1.0 + rng.random((size, busted.size))
    return clocks


def _prizes_won(clocks: np.ndarray, payouts: np.ndarray) -> np.ndarray:
    """(size, n) prize of each player in each sample: payouts[r] to the (r+1)-th clock to ring."""
    paid = payouts.size
    first = np.argpartition(clocks, paid - 1, axis=1)[:, :paid] if paid < clocks.shape[1] else np.argsort(clocks, axis=1)
    order = np.take_along_axis(first, np.argsort(np.take_along_axis(clocks, first, axis=1), axis=1), axis=1)
    prizes = np.zeros(clocks.shape)
    np.put_along_axis(prizes, order, np.broadcast_to(payouts, order.shape), axis=1)
    return prizes


def monte_carlo_equity(stacks, payouts, samples: int = 100_000, seed: int = 0, batch: int = 4096):
    """Prize equity estimated from `samples` draws of exponential clocks (seeded numpy Generator).

    Returns (equity (n,), standard_error (n,)) in payout units. Busted players (zero share) finish
    last in a uniformly random order among themselves."""
    stacks, payouts = validate_field(stacks, payouts)
    shares = chip_shares(stacks)
    busted = np.flatnonzero(shares == 0)
    rates_inverse = np.ones_like(shares)
    np.divide(1.0, shares, out=rates_inverse, where=shares > 0)
    rng = np.random.default_rng(seed)
    total = np.zeros(shares.size)
    total_squares = np.zeros(shares.size)
    for start in range(0, samples, batch):
        prizes = _prizes_won(_sample_clocks(rng, rates_inverse, busted, min(batch, samples - start)), payouts)
        total += prizes.sum(axis=0)
        total_squares += (prizes * prizes).sum(axis=0)
    mean = total / samples
    variance = np.maximum(total_squares / samples - mean * mean, 0.0) * samples / max(samples - 1, 1)
    return mean, np.sqrt(variance / samples)


# ------------------------------------------------------------------------------------- front door


def _busted_places(busted: int, live: int, paid: int) -> np.ndarray:
    """(busted, paid) place probabilities of busted players: places live+1..n shared equally."""
    places = np.zeros((busted, paid))
    if busted:
        places[:, live:paid] = 1.0 / busted
    return places


def _live_places(shares: np.ndarray, paid: int, method: str) -> np.ndarray:
    if method == "dp":
        return dp_place_probabilities(shares, paid)
    return integral_place_probabilities(shares, paid)


def _equity_method(method: str, live: int, paid: int, places: bool) -> str:
    """The method ``auto`` resolves to for `live` players with chips and `paid` places they can take: the
    DP up to AUTO_DP_MAX_PLAYERS; beyond, the place recurrences when places are wanted (they give the
    equity too), else the characteristic function from AUTO_FOURIER_MIN_PAID paid places (or
    AUTO_FOURIER_LARGE_FIELD) and the leave-one-out series below (the measured crossover:
    ``bench_icm.py --crossover``, BENCHMARKS.md)."""
    if method != "auto":
        return method
    if live <= AUTO_DP_MAX_PLAYERS:
        return "dp"
    large, large_paid = AUTO_FOURIER_LARGE_FIELD
    faster = paid >= AUTO_FOURIER_MIN_PAID or (live >= large and paid >= large_paid)
    return "fourier" if not places and faster else "integral"


def prize_equity(stacks, payouts, method: str = "auto", places: bool = True) -> IcmResult:
    """ICM prize equity of every player, and (when `places`) the paid-place probabilities.

    stacks: (n,) chip counts >= 0 (any unit), payouts: (k,) prizes >= 0 for places 1..k, k <= n.
    method: "dp" (exact subset DP, n <= 22), "integral" (leave-one-out series), "fourier" (characteristic
    function; places, when wanted, from the integral's recurrences), or "auto" (``_equity_method``).
    Returns IcmResult(equity (n,) in payout units, places (n, k) or None, method)."""
    if method not in METHODS:
        raise ValueError(f"unknown ICM method {method!r} (expected auto, dp, integral or fourier)")
    stacks, payouts = validate_field(stacks, payouts)
    shares = chip_shares(stacks)
    live = np.flatnonzero(shares > 0)
    busted = np.flatnonzero(shares == 0)
    paid = payouts.size
    live_paid = min(paid, live.size)
    chosen = _equity_method(method, live.size, live_paid, places)
    if chosen == "dp" and live.size > DP_MAX_PLAYERS:
        raise ValueError(f"method 'dp' handles at most {DP_MAX_PLAYERS} players with chips (got {live.size})")
    live_shares = shares[live]
    table = None
    if places or chosen == "dp":
        table = np.zeros((stacks.size, paid))
        table[live, :live_paid] = _live_places(live_shares, live_paid, chosen)
        table[busted] = _busted_places(busted.size, live.size, paid)
        if chosen != "fourier":
            return IcmResult(table @ payouts, table if places else None, chosen)
    equity = np.zeros(stacks.size)
    live_equity = fourier_equity if chosen == "fourier" else integral_equity
    equity[live] = live_equity(live_shares, payouts[:live_paid])
    if busted.size:
        equity[busted] = payouts[live.size :].sum() / busted.size
    return IcmResult(equity, table, chosen)


# ------------------------------------------------------------------ bubble factors, risk premium
# BUBBLE_STEP: the outcome fields share the grid of the field before the all-in; PAIR_TAIL, GAIN_FLOOR, BUST_RATIO:
# spec/constants.json.


@numba.njit(cache=True)
def _divide_factor(c, low, high, fired, quiet, size, out):
    """out[:size] = c / (quiet + fired z) for c (size,) zero outside [low, high]: the forward recurrence
    when fired <= quiet (coefficients below ``size`` only), else the backward one from the top (each
    stable in its direction, as in ``_node_places``). Returns the quotient's window (low, high)."""
    out[:size] = 0.0
    if fired <= quiet:
        previous = 0.0
        for r in range(low, min(high, size - 1) + 1):
            previous = (c[r] - fired * previous) / quiet
            out[r] = previous
        return low, high
    if high < 1:
        return 0, 0
    following = 0.0
    bottom = max(low - 1, 0)
    for r in range(high - 1, bottom - 1, -1):
        following = (c[r + 1] - quiet * following) / fired
        out[r] = following
    return bottom, high - 1


@numba.njit(cache=True)
def _with_factor_sum(payouts, limit, y, fired, quiet):
    """sum_{r < limit} a_r [y (quiet + fired z)]_r."""
    total = payouts[0] * quiet * y[0]
    for r in range(1, limit):
        total += payouts[r] * (quiet * y[r] + fired * y[r - 1])
    return total


@numba.njit(cache=True)
def _pair_equities(shares, payouts, won_share, lost_share, times, weights):
    """Integrands of every all-in outcome on one grid of nodes, O(m^2 size) per node.

    shares (m,) of the players with chips; payouts (k,), k <= m; won_share[w, l] / lost_share[l, w]:
    the winner's / loser's share after w beats l (0: the loser is busted). Only the two shares of an
    all-in change, so at each node the law of the others, PB^{(-w,-l)}, is the full Poisson-binomial
    product with w's and l's factors divided out, and each outcome multiplies one new factor back in.
    Returns (base (m,), won (m, m), lost (m, m)): equity before, of w after beating l, of l after losing
    to w (lost[l, w]; left 0 where l busts)."""
    m = shares.size
    paid = payouts.size
    base = np.zeros(m)
    won = np.zeros((m, m))
    lost = np.zeros((m, m))
    leave_one = np.zeros((m, m + 1))
    windows = np.zeros((m, 2), dtype=np.int64)
    leave_two = np.zeros(m + 1)
    for node in range(times.size):
        t = times[node]
        weight = weights[node]
        fired, quiet, any_backward = _clock_probabilities(shares, t)
        size = m + 1 if any_backward else paid
        pb, low, high = _poisson_binomial(fired, quiet, size)
        for i in range(m):
            windows[i, 0], windows[i, 1] = _divide_factor(pb, low, high, fired[i], quiet[i], size, leave_one[i])
            total = 0.0
            for r in range(paid):
                total += payouts[r] * leave_one[i, r]
            base[i] += weight * shares[i] * quiet[i] * total
        for i in range(m):
            for j in range(i + 1, m):
                first, second = (j, i) if fired[i] <= quiet[i] else (i, j)  # a forward division last needs only `paid` terms
                _divide_factor(leave_one[first], windows[first, 0], windows[first, 1], fired[second], quiet[second],
                               paid if fired[second] <= quiet[second] else size, leave_two)
                for winner, loser in ((i, j), (j, i)):
                    up = won_share[winner, loser]
                    down = lost_share[loser, winner]
                    up_quiet = math.exp(-up * t)
                    up_fired = -math.expm1(-up * t)
                    down_quiet = math.exp(-down * t)
                    down_fired = -math.expm1(-down * t)
                    limit = paid if down > 0.0 else min(paid, m - 1)
                    won[winner, loser] += weight * up * up_quiet * _with_factor_sum(
                        payouts, limit, leave_two, down_fired, down_quiet)
                    if down > 0.0:
                        lost[loser, winner] += weight * down * down_quiet * _with_factor_sum(
                            payouts, paid, leave_two, up_fired, up_quiet)
    return base, won, lost


def _integral_pair_equities(shares: np.ndarray, payouts: np.ndarray, busted: int):
    """(base (m,), won (m, m), lost (m, m)) as in ``_pair_equities`` for live shares (m,) summing to 1,
    with the busted loser's equity filled in: he shares places m.. with the ``busted`` players already
    out. One grid for all outcome fields: the field's own nodes (step BUBBLE_STEP), run on until fewer
    than k + 2 clocks of the field have rung with probability below TAIL_MASS (then fewer than k of the
    others of any two players have: every outcome integrand is done), or, when k + 2 > m, until every
    integrand x e^{-x t} of every outcome field, the smallest share included, has lost its mass."""
    m = shares.size
    live_prizes = _paid_prefix(payouts[: min(payouts.size, m)])
    moved = np.minimum.outer(shares, shares)
    won_share = shares[:, None] + moved
    lost_share = shares[:, None] - moved
    gone = lost_share <= shares[None, :] * BUST_RATIO
    lost_share[gone] = 0.0
    if live_prizes.size + 2 <= m:  # fewer than k of the others of two players rung => fewer than k + 2 of all
        t_end = _upper_time(shares, live_prizes.size + 2)
    else:  # nearly all paid: wait until the slowest clock of any outcome field has rung
        left = lost_share[lost_share > 0]
        t_end = PAIR_TAIL / (min(shares.min(), left.min()) if left.size else shares.min())
    times, weights = _quadrature_to(shares, t_end, BUBBLE_STEP)
    base, won, lost = _pair_equities(shares, np.ascontiguousarray(live_prizes), np.ascontiguousarray(won_share),
                                     np.ascontiguousarray(lost_share), times, weights)
    lost[gone] = payouts[m - 1 :].sum() / (busted + 1)
    return base, won, lost


@dataclass(frozen=True)
class BubbleFactors:
    """Chip-risk prices for every ordered pair (i risks against j), (n, n) arrays, NaN where undefined
    (the diagonal, a player without chips, or an all-in whose win gains i less than GAIN_FLOOR of the pool):

    * ``bubble_factor[i, j]`` = (equity i loses if i loses) / (equity i gains if i wins), the all-in
      being for min(stack_i, stack_j) chips and every other stack unchanged;
    * ``required_equity[i, j]`` = the chance of winning that all-in i needs to break even in prize
      equity, (E - E_lose) / (E_win - E_lose) = BF / (1 + BF);
    * ``risk_premium[i, j]`` = required_equity - 1/2 (the chip-EV requirement of an even-money all-in).

    ``equity`` (n,) is the ICM equity before the all-in, ``method`` the ICM method used throughout."""

    bubble_factor: np.ndarray
    required_equity: np.ndarray
    risk_premium: np.ndarray
    equity: np.ndarray
    method: str


def _pair_outcome_equity(stacks: np.ndarray, payouts: np.ndarray, winner: int, loser: int, method: str):
    """(equity of winner, equity of loser) after `winner` takes min(stack_w, stack_l) from `loser`."""
    moved = stacks.copy()
    amount = min(stacks[winner], stacks[loser])
    moved[winner] += amount
    moved[loser] -= amount
    if moved[loser] <= stacks[winner] * BUST_RATIO:  # the loser is all in and busts (x - x may leave rounding)
        moved[loser] = 0.0
    equity = prize_equity(moved, payouts, method=method, places=False).equity
    return equity[winner], equity[loser]


def _dp_pair_equities(stacks: np.ndarray, payouts: np.ndarray, live: np.ndarray):
    """(base (n,), won (n, n), lost (n, n)) by one exact DP per (winner, loser) ordered pair."""
    n = stacks.size
    base = prize_equity(stacks, payouts, method="dp", places=False).equity
    won = np.full((n, n), np.nan)
    lost = np.full((n, n), np.nan)
    for winner in live:
        for loser in live:
            if winner != loser:
                won[winner, loser], lost[loser, winner] = _pair_outcome_equity(stacks, payouts, winner, loser, "dp")
    return base, won, lost


def pair_equities(stacks, payouts, method: str = "auto"):
    """ICM equity before and after an all-in between every ordered pair of players with chips, for
    min(stack_w, stack_l) chips with every other stack unchanged.

    Returns (base (n,), won (n, n), lost (n, n), method): equity now; won[w, l] = w's after beating l;
    lost[l, w] = l's after losing to w (busted when he had no more chips than w); NaN on the diagonal and
    for players without chips. ``method`` as in ``prize_equity``, chosen once for the field (``auto``: DP
    up to 10 players with chips). "dp": one exact DP per (winner, loser) ordered pair, each serving the
    winner's row (E_win) and the loser's (E_lose). "integral": every outcome field on one quadrature
    grid, where an all-in changes two factors of the Poisson-binomial product: O(N m^2 W) for N nodes,
    m players with chips and window W <= m + 1, instead of n (n - 1) full evaluations (docs/icm.md)."""
    stacks, payouts = validate_field(stacks, payouts)
    n = stacks.size
    shares = chip_shares(stacks)
    live = np.flatnonzero(shares > 0)
    chosen = method if method != "auto" else ("dp" if live.size <= AUTO_DP_MAX_PLAYERS else "integral")
    if chosen not in ("dp", "integral"):
        raise ValueError(f"unknown ICM method {method!r} (expected auto, dp or integral)")
    if chosen == "dp":  # stacks scaled by the largest: 1e308 + 1e308 would overflow
        base, won, lost = _dp_pair_equities(stacks / stacks.max(), payouts, live)
        return base, won, lost, chosen
    base = np.full(n, payouts[live.size :].sum() / max(n - live.size, 1))
    won = np.full((n, n), np.nan)
    lost = np.full((n, n), np.nan)
    live_base, live_won, live_lost = _integral_pair_equities(shares[live], payouts, n - live.size)
    base[live] = live_base
    won[np.ix_(live, live)] = live_won
    lost[np.ix_(live, live)] = live_lost
    np.fill_diagonal(won, np.nan)
    np.fill_diagonal(lost, np.nan)
    return base, won, lost, chosen


def risk_prices(base: np.ndarray, won: np.ndarray, lost: np.ndarray, money: float, method: str) -> BubbleFactors:
    """BubbleFactors from the values of ``pair_equities`` (base (n,), won (n, n), lost (n, n), in money);
    a factor is left undefined (NaN) where winning gains less than GAIN_FLOOR of ``money`` (the total
    at stake: the prize pool, plus the bounties where they count)."""
    gain = won - base[:, None]  # gain[i, j] = E_i(i beats j) - E_i
    loss = base[:, None] - lost  # loss[i, j] = E_i - E_i(i loses to j)
    with np.errstate(divide="ignore", invalid="ignore"):
        defined = (gain > GAIN_FLOOR * money) & np.isfinite(loss)
        factor = np.where(defined, loss / np.where(defined, gain, 1.0), np.nan)
        required = np.where(defined, loss / np.where(defined, gain + loss, 1.0), np.nan)
    return BubbleFactors(factor, required, required - 0.5, base, method)


def bubble_factors(stacks, payouts, method: str = "auto") -> BubbleFactors:
    """Bubble factors, required equity and risk premium for every ordered pair of players with chips:
    ``risk_prices`` of ``pair_equities`` (the method as there)."""
    base, won, lost, chosen = pair_equities(stacks, payouts, method)
    return risk_prices(base, won, lost, float(np.sum(payouts)), chosen)
