"""ICM engine: integral vs exact DP, closed forms, Monte Carlo agreement, conventions, CLI."""

import itertools
import json
import re

from click.testing import CliRunner
import numpy as np
import pytest

from generator.cli.icm import icm_command
from generator.core.numbers import parse_number_list
from generator.core.errors import InputError
from icm_reference import permutation_equity as enumerated_equity
from kernels.icm import harville as icm

# ------------------------------------------------------------------------------ random fields


def stack_shape(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "equal":
        return np.full(n, 1500.0)
    if kind == "giant":
        return np.concatenate([[1e9], np.ones(n - 1)])
    if kind == "many tiny":
        return np.concatenate([[1.0], rng.random(n - 1) * 1e-4])
    return rng.lognormal(0.0, 1.5, n)


def payout_shape(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "winner takes all":
        return np.array([100.0])
    if kind == "50/30/20":
        return np.array([50.0, 30.0, 20.0])[: min(3, n)]
    if kind == "flat top-k":
        return np.full(int(rng.integers(1, n + 1)), 10.0)
    return np.sort(rng.random(n))[::-1] * 100  # all paid, decreasing


STACK_SHAPES = ["equal", "giant", "many tiny", "lognormal"]
PAYOUT_SHAPES = ["winner takes all", "50/30/20", "flat top-k", "all paid"]


@pytest.mark.slow
@pytest.mark.parametrize("stacks_kind", STACK_SHAPES)
@pytest.mark.parametrize("payouts_kind", PAYOUT_SHAPES)
def test_integral_matches_dp(stacks_kind, payouts_kind):
    """17 sizes x 4 repeats per shape pair: 1,088 fields over the 16 pairs; the equity by the series and
    by the characteristic function (measured worst 2.4e-12 for both: the shared quadrature)."""
    rng = np.random.default_rng([STACK_SHAPES.index(stacks_kind), PAYOUT_SHAPES.index(payouts_kind)])
    worst_equity = worst_place = 0.0
    for n in range(2, 19):
        for _ in range(4):
            stacks = stack_shape(stacks_kind, n, rng)
            payouts = payout_shape(payouts_kind, n, rng)
            exact = icm.prize_equity(stacks, payouts, method="dp")
            with_places = icm.prize_equity(stacks, payouts, method="integral")
            equity_only = icm.prize_equity(stacks, payouts, method="integral", places=False)
            fourier = icm.prize_equity(stacks, payouts, method="fourier", places=False)
            pool = payouts.sum()
            worst_equity = max(worst_equity, np.abs(equity_only.equity - exact.equity).max() / pool)
            worst_equity = max(worst_equity, np.abs(fourier.equity - exact.equity).max() / pool)
            worst_equity = max(worst_equity, np.abs(with_places.equity - exact.equity).max() / pool)
            worst_place = max(worst_place, np.abs(with_places.places - exact.places).max())
    assert worst_equity <= 1e-10
    assert worst_place <= 1e-12


def test_dp_three_handed_example():
    result = icm.prize_equity([500, 300, 200], [600, 400, 0], method="dp")
    np.testing.assert_allclose(result.equity, [435.7142857142857, 330.0, 234.28571428571428], rtol=1e-14)
    np.testing.assert_allclose(result.places[0], [0.5, 0.3392857142857143, 0.1607142857142857], rtol=1e-14)
    np.testing.assert_allclose(result.places.sum(axis=0), 1.0, rtol=1e-14)


def test_equal_stacks_closed_form_ten_thousand():
    n, paid = 10_000, 1_500
    payouts = np.linspace(3.0, 1.0, paid)
    result = icm.prize_equity(np.full(n, 2500.0), payouts, places=False)
    assert result.method == "fourier"
    assert np.abs(result.equity - payouts.sum() / n).max() <= 1e-12 * payouts.sum()
    series = icm.prize_equity(np.full(n, 2500.0), payouts, places=False, method="integral").equity
    assert np.abs(series - payouts.sum() / n).max() <= 1e-12 * payouts.sum()


# ------------------------------------------------------------------ characteristic-function method


def large_field(kind: str, n: int) -> np.ndarray:
    """Stacks of the big-field checks: the shapes where a method could lose small stacks."""
    rng = np.random.default_rng([n, len(kind)])
    if kind == "one chip among millions":
        return np.concatenate([[1.0], rng.integers(1_000_000, 5_000_000, n - 1)]).astype(float)
    if kind == "equal and one huge":
        return np.concatenate([[1e9], np.full(n - 1, 1500.0)])
    if kind == "below two chips":  # the scale at which stacks in chip units are a fraction of a chip
        return rng.uniform(0.01, 2.0, n)
    if kind == "tiny tail":
        return np.concatenate([rng.lognormal(7.0, 1.0, n - n // 10), rng.uniform(1e-9, 1e-6, n // 10)])
    return rng.lognormal(0.0, 1.5, n)


LARGE_KINDS = ["one chip among millions", "equal and one huge", "below two chips", "tiny tail", "lognormal"]


@pytest.mark.parametrize("kind", LARGE_KINDS)
def test_fourier_matches_the_series_on_large_fields(kind):
    """50 to 2,000 players, every place paid and 15% paid: the characteristic function against the
    leave-one-out series on the same nodes, within 1e-12 of the pool (measured ≤ 2e-15)."""
    worst = 0.0
    for n in (50, 400, 2000):
        stacks = large_field(kind, n)
        for paid in (n, max(30, n * 15 // 100)):
            payouts = np.linspace(2.0, 1.0, paid) ** 2
            fourier = icm.prize_equity(stacks, payouts, method="fourier", places=False).equity
            series = icm.prize_equity(stacks, payouts, method="integral", places=False).equity
            worst = max(worst, np.abs(fourier - series).max() / payouts.sum())
    print(f"{kind}: max |fourier - series| = {worst:.1e} of the pool")
    assert worst <= 1e-12


def widest_nodes(shares: np.ndarray, paid: int, count: int) -> np.ndarray:
    """Times of the `count` nodes where the count of clocks rung spreads widest (variance sum p q)."""
    times, _ = icm.quadrature_nodes(shares, paid)
    spread = [(-np.expm1(-shares * t) * np.exp(-shares * t)).sum() for t in times]
    return times[np.argsort(spread)[-count:]]


def test_fourier_node_integrands_at_twenty_thousand_players_match_the_series():
    """n = 20,000, every place paid: at the five nodes where the count of clocks rung spreads widest
    (the Chebyshev path) and at two near the ends (the direct sum), every player's integrand x q H by
    the characteristic function equals the one from the Poisson-binomial coefficients
    (icm._node_equity) within 1e-12 of x q times the largest prize (measured 1.2e-13, the series' own
    cancellation for p ≈ 1/2: see the 80-bit check below)."""
    n = 20_000
    shares = np.sort(icm.chip_shares(large_field("lognormal", n)))
    payouts = np.linspace(2.0, 1.0, n) ** 2
    times, _ = icm.quadrature_nodes(shares, n)
    fired, quiet, node, series = (np.empty(n) for _ in range(4))
    for t in [*widest_nodes(shares, n, 5), times[3], times[-3]]:
        fourier_integrands_at(shares, payouts, t, fired, quiet, node)
        icm._node_equity(shares, payouts, t, series)
        scale = shares * quiet * payouts.max()
        assert np.all(np.abs(node - series) <= 1e-12 * scale), t


def test_fourier_round_off_against_an_80_bit_reference():
    """Round-off of the characteristic-function sums: at the widest node of a 4,000-player field (all
    paid), the integrands of the smallest, median, largest and p ≈ 1/2 players against H computed from
    the others' Poisson-binomial coefficients multiplied out in 80-bit long double from the same
    p, q: within 1e-14 of x q times the largest prize (measured ~2e-15 at 4,000 and at 20,000 players;
    the bound is (BLOCK + m / BLOCK) ulp per factor product, times the sum of the pole terms)."""
    n = 4000
    shares = np.sort(icm.chip_shares(large_field("lognormal", n)))
    payouts = np.linspace(2.0, 1.0, n) ** 2
    fired, quiet, node = (np.empty(n) for _ in range(3))
    fourier_integrands_at(shares, payouts, widest_nodes(shares, n, 1)[0], fired, quiet, node)
    extended = np.longdouble
    for i in (0, n // 2, int(np.argmin(np.abs(fired - 0.5))), n - 1):
        others = np.zeros(n, dtype=extended)
        others[0] = 1
        for top, j in enumerate(j for j in range(n) if j != i):
            others[1 : top + 2] = others[1 : top + 2] * extended(quiet[j]) + others[: top + 1] * extended(fired[j])
            others[0] *= extended(quiet[j])
        reference = float(extended(shares[i]) * extended(quiet[i]) * (payouts.astype(extended) * others).sum())
        assert abs(node[i] - reference) <= 1e-14 * shares[i] * quiet[i] * payouts.max(), i


def fourier_integrands_at(shares, payouts, t, fired, quiet, out):
    from kernels.icm import fourier as icm_fourier

    icm_fourier._clock_probabilities(shares, t, fired, quiet)
    icm_fourier.node_integrands(shares, payouts, np.abs(payouts).max(), fired, quiet, out)


def test_fourier_chebyshev_and_direct_sums_agree_within_their_bound():
    """The two ways of summing the poles at a node: Clenshaw on the Chebyshev interpolant of the degree
    the analytic bound picks, and the direct sum of S complex divisions per player, agree within
    CHEBYSHEV_TOL x the largest prize at every node of a 5,000-player field where the interpolant is used."""
    from kernels.icm import fourier

    n = 5000
    shares = np.sort(icm.chip_shares(large_field("lognormal", n)))
    payouts = np.linspace(2.0, 1.0, n) ** 2
    times, _ = icm.quadrature_nodes(shares, n)
    fired, quiet, interpolated, direct = (np.empty(n) for _ in range(4))
    used = 0
    for t in times:
        fourier._clock_probabilities(shares, t, fired, quiet)
        lo, size, others_variance = fourier._window(fired, quiet)
        count = fourier._sample_count(size, others_variance)
        angle = 2 * np.pi / size
        cosines, all_sines = np.cos(angle * np.arange(size)), np.sin(angle * np.arange(size))
        a_re, a_im = fourier._payout_transform(payouts, lo, count, cosines, all_sines)
        shifted_cos, sines = 1 + cosines[: count + 1], all_sines[: count + 1]
        phi_re, phi_im = fourier._characteristic(fired, quiet, shifted_cos, sines, count)
        c_re, c_im = 2 * (a_re * phi_re - a_im * phi_im) / size, 2 * (a_re * phi_im + a_im * phi_re) / size
        degree = fourier._chebyshev_degree(c_re, c_im, angle, payouts.max())
        if not 0 < degree <= fourier.CHEBYSHEV_MAX or 2 * count == size:
            continue
        fourier._clenshaw(fourier._chebyshev_coefficients(c_re, c_im, shifted_cos, sines, degree), fired, quiet, interpolated)
        fourier._direct(c_re, c_im, shifted_cos, sines, fired, quiet, direct)
        assert np.abs(interpolated - direct).max() <= 4 * fourier.CHEBYSHEV_TOL * payouts.max()
        used += 1
    assert used >= times.size // 2


def test_fourier_keeps_stacks_below_two_chips_right():
    """ICM depends on the ratios of the stacks only: fields typed in fractions of a chip (where a
    method that reads stacks as chip counts goes wrong) give the DP's equities, and 20,000 players
    scaled by 1e-3 the same equities as in whole chips."""
    payouts = np.arange(12, 0, -1.0)
    for stacks in (0.001 * np.arange(1, 13.0), np.array([0.5, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23.0]) / 100):
        exact = icm.prize_equity(stacks, payouts, method="dp").equity
        fourier = icm.prize_equity(stacks, payouts, method="fourier", places=False).equity
        assert np.abs(fourier - exact).max() <= 1e-12 * payouts.sum()
    stacks = np.round(large_field("lognormal", 20_000) * 1000) + 1
    payouts = np.linspace(2.0, 1.0, stacks.size) ** 2
    whole = icm.prize_equity(stacks, payouts, places=False)
    scaled = icm.prize_equity(stacks * 1e-3, payouts, places=False)
    assert whole.method == scaled.method == "fourier"
    assert np.abs(whole.equity - scaled.equity).max() <= 1e-13 * payouts.sum()
    assert abs(whole.equity.sum() - payouts.sum()) <= 1e-12 * payouts.sum()


def test_equal_stacks_closed_form_twenty_thousand_all_paid():
    n = 20_000
    payouts = np.linspace(3.0, 1.0, n)
    result = icm.prize_equity(np.full(n, 77.0), payouts, places=False)
    assert result.method == "fourier"
    assert np.abs(result.equity - payouts.sum() / n).max() <= 1e-12 * payouts.sum()


def test_auto_picks_the_method_by_field_and_paid_places():
    stacks = np.arange(1.0, 41.0)
    assert icm.prize_equity(stacks[:10], [3, 2, 1]).method == "dp"
    assert icm.prize_equity(stacks, [3, 2, 1], places=False).method == "integral"
    assert icm.prize_equity(stacks, np.arange(30, 0, -1.0), places=False).method == "fourier"
    assert icm.prize_equity(stacks, np.arange(30, 0, -1.0)).method == "integral"  # places wanted
    big = np.arange(1.0, 1001.0)
    assert icm.prize_equity(big, np.arange(10, 0, -1.0), places=False).method == "fourier"
    assert icm.prize_equity(big, np.arange(9, 0, -1.0), places=False).method == "integral"
    with_places = icm.prize_equity(stacks, np.arange(40, 0, -1.0), method="fourier")
    assert with_places.method == "fourier" and with_places.places.shape == (40, 40)
    assert np.abs(with_places.places @ np.arange(40, 0, -1.0) - with_places.equity).max() <= 1e-12 * 820


def test_monte_carlo_agrees_at_one_thousand_players():
    rng = np.random.default_rng(7)
    stacks = rng.lognormal(0.0, 1.0, 1000)
    payouts = np.linspace(20.0, 1.0, 150)
    exact = icm.prize_equity(stacks, payouts, places=False).equity
    estimate, standard_error = icm.monte_carlo_equity(stacks, payouts, samples=20_000, seed=11)
    assert np.abs(estimate - exact).max() <= 5 * standard_error.max()
    assert np.all(np.abs(estimate - exact) <= 5 * standard_error + 1e-12)


def harville_finishers(stacks: np.ndarray, place: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    """Who finishes ``place`` (1-based) in each of ``samples`` Malmuth–Harville orders, drawn as the
    model is stated: 1st with probability proportional to the stacks, 2nd likewise among the
    players left, and so on (no exponential clocks, nothing from kernels.icm.harville)."""
    weights = np.tile(np.asarray(stacks, dtype=float), (samples, 1))
    rows = np.arange(samples)
    for _ in range(place):
        cumulative = np.cumsum(weights, axis=1)
        u = rng.random(samples) * cumulative[:, -1]
        chosen = (cumulative <= u[:, None]).sum(axis=1)  # first player whose cumulative weight exceeds u
        weights[rows, chosen] = 0.0
    return chosen


def test_place_probabilities_of_a_30_player_field_agree_with_sampled_finishing_orders():
    """n = 30 > the DP's reach (the integral method; the DP check above stops at 18 players): place
    probabilities of the 10 paid places and the prize equity against sequential draws.

    Each place is estimated from its own 150,000 independent orders, so for place r the counts over
    players are Multinomial(150,000, p[:, r]): every cell within 5 binomial sd, and Pearson's
    X²_r = Σ_i (count − S p)² / (S p) is χ² with n − 1 = 29 degrees of freedom, independent across
    places, so Σ_r X²_r is χ² with 290: mean 290, sd √580 ≈ 24; held to 5 sd. The expected counts
    are ≥ 5 in every cell (the smallest is ≈ 880) as the χ² approximation asks.
    Prize equity (a separate code path, ``places=False``) = Σ_r payout_r · p̂[:, r] from the same
    independent samples, each player within 5 sd.
    """
    rng = np.random.default_rng(30)
    n, samples = 30, 150_000
    stacks = np.round(rng.lognormal(7.0, 0.8, n))
    payouts = np.array([30.0, 20.0, 13.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.5, 2.5])
    paid = payouts.size
    exact = icm.prize_equity(stacks, payouts).places  # (n, paid)
    assert (samples * exact).min() >= 5
    sampled = np.stack(
        [np.bincount(harville_finishers(stacks, r + 1, samples, rng), minlength=n) / samples for r in range(paid)], axis=1
    )
    sd = np.sqrt(exact * (1 - exact) / samples)
    z = (sampled - exact) / sd
    assert np.abs(z).max() <= 5, np.unravel_index(np.abs(z).argmax(), z.shape)
    chi2 = float((samples * (sampled - exact) ** 2 / exact).sum())
    dof = paid * (n - 1)
    print(f"max |z| {np.abs(z).max():.2f}, chi² {chi2:.1f} on {dof} dof")
    assert abs(chi2 - dof) <= 5 * np.sqrt(2 * dof), chi2

    equity = icm.prize_equity(stacks, payouts, places=False).equity
    equity_sd = np.sqrt((payouts**2 * exact * (1 - exact) / samples).sum(axis=1))
    assert np.all(np.abs(sampled @ payouts - equity) <= 5 * equity_sd)
    assert np.abs(equity - exact @ payouts).max() <= 1e-10 * payouts.sum()


def test_monte_carlo_is_seeded():
    first = icm.monte_carlo_equity([3, 2, 1], [5, 2], samples=1000, seed=4)
    second = icm.monte_carlo_equity([3, 2, 1], [5, 2], samples=1000, seed=4)
    np.testing.assert_array_equal(first[0], second[0])


# ------------------------------------------------------------------------------- conventions


def test_busted_players_share_the_last_places():
    result = icm.prize_equity([500, 0, 300, 0, 200], [50, 30, 20, 10, 6])
    np.testing.assert_allclose(result.equity[[1, 3]], 8.0)
    np.testing.assert_allclose(result.places[1], [0, 0, 0, 0.5, 0.5])
    live = icm.prize_equity([500, 300, 200], [50, 30, 20])
    np.testing.assert_allclose(result.equity[[0, 2, 4]], live.equity, rtol=1e-14)


def test_only_ratios_matter_and_huge_stacks_do_not_overflow():
    base = icm.prize_equity([5, 3, 2], [7, 3]).equity
    np.testing.assert_allclose(icm.prize_equity([5e300, 3e300, 2e300], [7, 3]).equity, base, rtol=1e-13)
    np.testing.assert_allclose(icm.prize_equity([5e-300, 3e-300, 2e-300], [7, 3]).equity, base, rtol=1e-13)


def test_single_player_takes_first_prize():
    result = icm.prize_equity([100], [10])
    assert result.equity.tolist() == [10.0]


def test_integral_handles_extreme_ratio_and_all_places():
    stacks = [1e12, 1, 1, 1e-6, 5]
    payouts = [5, 4, 3, 2, 1]
    exact = icm.prize_equity(stacks, payouts, method="dp")
    integral = icm.prize_equity(stacks, payouts, method="integral")
    np.testing.assert_allclose(integral.places, exact.places, atol=1e-12)


@pytest.mark.parametrize(
    "stacks, payouts, message",
    [
        ([], [1], "no players"),
        ([5, -1], [1], "entry 2 is negative"),
        ([5, "abc"], [1], "entry 2 is not a number"),
        ([5, float("nan")], [1], "not a finite number"),
        ([0, 0], [1], "every stack is zero"),
        ([5, 3], [3, 2, 1], "3 prizes for 2 players"),
        ([5, 3], [], "no prizes"),
        (np.ones(icm.MAX_PLAYERS + 1), [1], "limit of 100,000"),
    ],
)
def test_invalid_fields_raise_value_error(stacks, payouts, message):
    with pytest.raises(ValueError, match=message):
        icm.prize_equity(stacks, payouts)


def test_dp_refuses_large_fields():
    with pytest.raises(ValueError, match="at most 22"):
        icm.prize_equity(np.ones(23), [1], method="dp")


# ---------------------------------------------------------------------------------------- CLI


def run_cli(*args):
    return CliRunner().invoke(icm_command, list(args))


def test_cli_table():
    result = run_cli("--stacks", "500 300 200", "--payouts", "600, 400")
    assert result.exit_code == 0, result.output
    assert "435.7143" in result.output and "330.0000" in result.output and "234.2857" in result.output
    assert "1st" in result.output and "2nd" in result.output


def test_cli_json():
    result = run_cli("--stacks", "500, 300, 200", "--payouts", "600,400,0", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"players", "paid", "payouts_unit", "equity", "places", "method"}
    np.testing.assert_allclose(data["equity"], [435.7142857142857, 330.0, 234.28571428571428], rtol=1e-14)
    assert len(data["places"]) == 3 and len(data["places"][0]) == 3


def test_cli_csv_file(tmp_path):
    field = tmp_path / "field.csv"
    field.write_text("# stacks\n500\n300\n\n200\n")
    result = run_cli("--file", str(field), "--payouts", "600 400", "--json")
    assert result.exit_code == 0, result.output
    np.testing.assert_allclose(json.loads(result.output)["equity"][1], 330.0)


def test_cli_yaml_file(tmp_path):
    field = tmp_path / "field.yaml"
    field.write_text("stacks: [500, 300, 200]\npayouts: [600, 400]\n")
    result = run_cli("--file", str(field), "--json")
    assert result.exit_code == 0, result.output
    np.testing.assert_allclose(json.loads(result.output)["equity"][0], 435.7142857142857)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--stacks", "500,-3,200", "--payouts", "600"], "negative"),
        (["--stacks", "500,abc", "--payouts", "600"], "not a number"),
        (["--stacks", "500 300", "--payouts", "3,2,1"], "3 prizes for 2 players"),
        (["--stacks", "0,0", "--payouts", "1"], "every stack is zero"),
        (["--payouts", "1"], "no stacks"),
        (["--stacks", "5,3"], "no payouts"),
        (["--stacks", "5,,3", "--payouts", "1"], "entry 2 is not a number (empty)"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args, message):
    result = run_cli(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0]
    assert "Traceback" not in result.output


def test_cli_bad_file_is_one_line_exit_2(tmp_path):
    csv = tmp_path / "field.csv"
    csv.write_text("500\nlots\n")
    yaml_file = tmp_path / "field.yaml"
    yaml_file.write_text("players: 3\n")
    for path, message in [(csv, "line 2"), (yaml_file, "list 'stacks'")]:
        result = run_cli("--file", str(path), "--payouts", "1")
        assert result.exit_code == 2
        assert len(result.output.strip().splitlines()) == 1 and message in result.output


def test_cli_too_many_players(tmp_path):
    field = tmp_path / "field.csv"
    field.write_text("1\n" * (icm.MAX_PLAYERS + 1))
    result = run_cli("--file", str(field), "--payouts", "1")
    assert result.exit_code == 2 and "limit of 100,000" in result.output


def assert_one_line_exit_2(result, fragment):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and fragment in lines[0], result.output
    assert "Traceback" not in result.output and lines[0].isprintable()


@pytest.mark.parametrize("name", ["field.csv", "field.yaml"])
def test_cli_binary_file_is_one_line_naming_it(tmp_path, name):
    binary = tmp_path / name
    binary.write_bytes(bytes(range(256)) * 4)
    assert_one_line_exit_2(run_cli("--file", str(binary), "--payouts", "1"), f"{binary}: not UTF-8 text")


def test_cli_huge_stacks_show_their_chip_share():
    result = run_cli("--stacks", "1e308,1e308,1e308", "--payouts", "1")
    assert result.exit_code == 0, result.output
    rows = result.output.strip().splitlines()[-3:]
    assert all(row.split()[2:] == ["33.33%", "0.3333", "33.33%"] for row in rows), result.output


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--stacks", "500,inf", "--payouts", "1"], "--stacks: entry 2 must be a finite number"),
        (["--stacks", "500 300", "--payouts", "nan"], "--payouts: entry 1 must be a finite number"),
        (["--stacks", "500 300", "--payouts", "1e308,1e308"], "prize pool adds up to more than 1.8e308"),
    ],
)
def test_cli_non_finite_numbers_are_refused(args, fragment):
    assert_one_line_exit_2(run_cli(*args), fragment)


@pytest.mark.parametrize(
    "yaml_text, fragment",
    [
        ("stacks: [true, false, true]\npayouts: [1]\n", "field.yaml: stacks entry 1 must be a number, got True"),
        ("stacks: [500, '300']\npayouts: [1]\n", "stacks entry 2 must be a number, got '300'"),
        ("stacks: [500, null]\npayouts: [1]\n", "stacks entry 2 must be a number, got None"),
        ("stacks: [[500], [300]]\npayouts: [1]\n", "stacks entry 1 must be a number, got [500]"),
        ("stacks: [500, .inf]\npayouts: [1]\n", "stacks entry 2 must be a finite number"),
        ("stacks: [500, 300]\npayouts: [1, false]\n", "payouts entry 2 must be a number, got False"),
    ],
)
def test_cli_yaml_entries_must_be_numbers(tmp_path, yaml_text, fragment):
    field = tmp_path / "field.yaml"
    field.write_text(yaml_text)
    assert_one_line_exit_2(run_cli("--file", str(field)), fragment)


def test_cli_csv_non_finite_line_is_refused(tmp_path):
    field = tmp_path / "field.csv"
    field.write_text("500\nnan\n")
    assert_one_line_exit_2(run_cli("--file", str(field), "--payouts", "1"), "field.csv line 2 must be a finite number")


@pytest.mark.parametrize("stacks", ["5e-324,5e-324,0", "1e-320,1,5e-324", "1e-310,1e300,0", "0,0,1e-310"])
def test_cli_denormal_and_zero_stacks_give_no_nan(stacks):
    for extra in ([], ["--json"]):
        result = run_cli("--stacks", stacks, "--payouts", "2,1", *extra)
        assert result.exit_code == 0 and "nan" not in result.output.lower(), result.output
    equity = json.loads(result.output)["equity"]
    assert abs(sum(equity) - 3) < 1e-9


@pytest.mark.parametrize(
    "text, expected",
    [
        ("10,000 5,000 2,500", [10000, 5000, 2500]),
        ("10,000\n5,000\n2,500", [10000, 5000, 2500]),
        ("500, 300, 200", [500, 300, 200]),
        ("1500,1000,500", [1500, 1000, 500]),
        ("500,300,200", [500, 300, 200]),  # the documented CLI form: a bare comma list is a list
        ("1,234,567.5; 2", [1234567.5, 2]),
    ],
)
def test_typed_lists_are_read_as_people_mean_them(text, expected):
    assert parse_number_list(text, "--stacks") == expected


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("10,000", '"10,000" is ambiguous: one number (10000) or 2 entries (10, 000)?'),
        ("1,000,500", '"1,000,500" is ambiguous: one number (1000500) or 3 entries'),  # "000" is no stack
        ("10,00 5,000", "entry 1 (10,00): a comma inside a number must group digits by three"),
        ("1_000 2", "entry 1 is not a number (1_000)"),
    ],
)
def test_ambiguous_or_misgrouped_lists_are_refused_saying_why(text, fragment):
    with pytest.raises(InputError, match=re.escape(fragment)):
        parse_number_list(text, "--stacks")


def test_cli_reads_thousands_separators_and_echoes_the_count():
    result = run_cli("--stacks", "10,000 5,000 2,500", "--payouts", "60 40")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ICM: 3 players, 2 paid places")
    data = json.loads(run_cli("--stacks", "10,000 5,000 2,500", "--payouts", "60 40", "--json").output)
    assert (data["players"], data["paid"]) == (3, 2)
    np.testing.assert_allclose(sum(data["equity"]), 100)


def test_all_zero_payouts_are_refused_not_printed_as_nan():
    assert_one_line_exit_2(run_cli("--stacks", "5 3", "--payouts", "0 0"), "payouts: every prize is zero")


# ------------------------------------------------------------------ bubble factors, risk premium


def permutation_equity(stacks, payouts) -> np.ndarray:
    """ICM equity by enumerating every finishing order (tests/icm_reference.py), in floats."""
    return np.array(enumerated_equity([float(s) for s in stacks], [float(p) for p in payouts]))


def brute_force_bubble_factors(stacks, payouts) -> np.ndarray:
    """BF[i, j] straight from the definition, each outcome field evaluated by permutation_equity."""
    stacks = np.asarray(stacks, dtype=float)
    base = permutation_equity(stacks, payouts)
    factors = np.full((stacks.size, stacks.size), np.nan)
    for i, j in itertools.permutations(range(stacks.size), 2):
        if stacks[i] == 0 or stacks[j] == 0:
            continue
        amount = min(stacks[i], stacks[j])
        won, lost = stacks.copy(), stacks.copy()
        won[[i, j]] += [amount, -amount]
        lost[[i, j]] += [-amount, amount]
        factors[i, j] = (base[i] - permutation_equity(lost, payouts)[i]) / (permutation_equity(won, payouts)[i] - base[i])
    return factors


@pytest.mark.parametrize("method", ["dp", "integral"])
def test_bubble_factors_match_brute_force_icm(method):
    rng = np.random.default_rng(13)
    for n in range(2, 7):
        for _ in range(3):
            stacks = rng.lognormal(0.0, 1.0, n).round(2)
            stacks[rng.integers(n)] = stacks[rng.integers(n)]  # equal stacks: the loser busts exactly
            payouts = np.sort(rng.random(int(rng.integers(1, n + 1))))[::-1] * 100
            result = icm.bubble_factors(stacks, payouts, method=method)
            expected = brute_force_bubble_factors(stacks, payouts)
            np.testing.assert_allclose(result.bubble_factor, expected, rtol=1e-8, equal_nan=True)
            np.testing.assert_allclose(result.required_equity, expected / (1 + expected), rtol=1e-8, equal_nan=True)
            np.testing.assert_allclose(result.equity, permutation_equity(stacks, payouts), rtol=1e-10)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 11, 14])
def test_integral_outcome_equities_match_the_subset_dp(n):
    """The one-grid scheme (two Poisson-binomial factors divided out and one multiplied back in per
    outcome) against one exact DP per outcome field: every E, E_win and E_lose within 1e-12 of the pool,
    on log-normal, one giant (1e9:1), tiny (1e-7) and equal stacks, winner-take-all to every place paid."""
    rng = np.random.default_rng(n)
    shapes = {
        "log-normal": rng.lognormal(0.0, 1.0, n),
        "giant": np.r_[1e9, np.ones(n - 1)],
        "tiny": np.r_[rng.lognormal(0.0, 1.0, n - 1), 1e-7],
        "equal": np.full(n, 7.0),  # every loser busts exactly
    }
    payout_shapes = [[1.0], [0.5, 0.3, 0.2][:n], [1.0] * min(n, 4), list(range(n, 0, -1))]
    off_diagonal = ~np.eye(n, dtype=bool)
    for stacks in shapes.values():
        for payouts in payout_shapes:
            payouts = np.asarray(payouts, dtype=float)
            exact = icm._dp_pair_equities(stacks, payouts, np.arange(n))
            fast = icm._integral_pair_equities(icm.chip_shares(stacks), payouts, 0)
            for expected, got in zip(exact, fast):
                expected, got = np.atleast_2d(expected), np.atleast_2d(got)
                mask = off_diagonal if expected.shape == (n, n) else np.ones_like(expected, dtype=bool)
                assert np.abs(got - expected)[mask].max() <= 1e-12 * payouts.sum()


def test_integral_bubble_factors_with_busted_players_match_the_dp():
    stacks = [3000, 0, 1200, 1200, 800, 0, 450, 2500, 90, 1700, 640, 0]
    payouts = [50, 30, 20, 10, 6, 5, 4, 3, 2, 1, 1]  # more prizes than players with chips: busted players cash
    fast = icm.bubble_factors(stacks, payouts, method="integral")
    exact = icm.bubble_factors(stacks, payouts, method="dp")
    np.testing.assert_allclose(fast.equity, exact.equity, rtol=0, atol=1e-12 * sum(payouts))
    np.testing.assert_allclose(fast.required_equity, exact.required_equity, rtol=0, atol=1e-10, equal_nan=True)
    assert np.isnan(fast.bubble_factor[[1, 5, 11]]).all() and np.isfinite(fast.bubble_factor[0, 2])


def test_bubble_factors_are_one_when_the_winner_takes_all():
    """Chip EV: equity is linear in chips, so risking x chips costs what winning x gains."""
    stacks = [4000, 2500, 1500, 1500, 600, 0]
    for method in ("dp", "integral"):
        result = icm.bubble_factors(stacks, [100], method=method)
        off_diagonal = ~np.eye(6, dtype=bool)
        off_diagonal[5, :] = off_diagonal[:, 5] = False  # the busted player risks nothing
        np.testing.assert_allclose(result.bubble_factor[off_diagonal], 1.0, atol=1e-9)
        np.testing.assert_allclose(result.risk_premium[off_diagonal], 0.0, atol=1e-9)
        assert np.isnan(result.bubble_factor[~off_diagonal]).all()


def test_bubble_factor_hand_computed_three_handed():
    """Stacks 50/30/20, payouts 0.7/0.3; player 2 (30) risks 20 against player 3 (20).
    Now: P(1st) = .3, P(2nd) = .5·.3/.5 + .2·.3/.8 = .375, E = .21 + .1125 = .3225.
    Win (50/50/0): E = .5·.7 + .5·.3 = .5.  Lose (50/10/40): P(1st) = .1, P(2nd) = .5·.1/.5 + .4·.1/.6 = 1/6,
    E = .07 + .05 = .12.  BF = (.3225 - .12) / (.5 - .3225) = .2025 / .1775 = 81/71;
    required equity = .2025 / .38 = 81/152, risk premium 81/152 - 1/2 = 5/152."""
    result = icm.bubble_factors([50, 30, 20], [0.7, 0.3])
    assert result.bubble_factor[1, 2] == pytest.approx(81 / 71, rel=1e-12)
    assert result.required_equity[1, 2] == pytest.approx(81 / 152, rel=1e-12)
    assert result.risk_premium[1, 2] == pytest.approx(5 / 152, rel=1e-10)
    assert result.equity[1] == pytest.approx(0.3225, rel=1e-12)


def test_cli_bubble_factors_text_and_json():
    result = run_cli("--stacks", "50 30 20", "--payouts", "0.7 0.3", "--bubble-factors")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("ICM: 3 players, 2 paid places")
    assert lines[lines.index("i \\ j     1     2     3") + 2].split() == ["2", "1.72", "-", f"{81 / 71:.2f}"]
    assert f"+{100 * 5 / 152:.1f}%" in result.output
    data = json.loads(run_cli("--stacks", "50 30 20 0", "--payouts", "1", "--bubble-factors", "--json").output)
    assert (data["players"], data["paid"]) == (4, 1)
    assert data["bubble_factors"][0][0] is None and data["bubble_factors"][3] == [None] * 4
    assert data["bubble_factors"][0][1] == pytest.approx(1.0) and data["risk_premium"][2][0] == pytest.approx(0.0, abs=1e-12)
    text = run_cli("--stacks", "50 30 20 0", "--payouts", "1", "--bubble-factors").output
    assert "-0.0%" not in text and "nan" not in text.lower()


def test_cli_bubble_factors_refuse_huge_fields():
    assert_one_line_exit_2(
        run_cli("--stacks", " ".join(["5"] * 201), "--payouts", "1", "--bubble-factors"), "201 players is more than 200"
    )


def test_bubble_factors_of_huge_and_denormal_stacks_are_finite():
    for method in ("dp", "integral"):
        result = icm.bubble_factors([1e308, 1e308, 5e-324], [2, 1], method=method)
        assert np.isfinite(result.equity).all()
        assert result.bubble_factor[0, 1] == pytest.approx(icm.bubble_factors([1, 1, 0], [2, 1]).bubble_factor[0, 1])


def test_cli_payouts_as_percentages_of_the_pool():
    result = run_cli("--stacks", "500 300 200", "--payouts", "50% 30% 20%")
    assert result.exit_code == 0, result.output
    equity = icm.prize_equity([500, 300, 200], [50, 30, 20], places=False).equity
    assert "prize pool 100%" in result.output and f"{equity[0]:,.4f}%" in result.output
    data = json.loads(run_cli("--stacks", "500 300 200", "--payouts", "50%,30%,20%", "--json").output)
    assert data["payouts_unit"] == "percent" and data["equity"] == pytest.approx(equity.tolist(), rel=1e-12)
    assert json.loads(run_cli("--stacks", "500 300 200", "--payouts", "600 400", "--json").output)["payouts_unit"] == "amount"
    assert_one_line_exit_2(run_cli("--stacks", "5 3 2", "--payouts", "65% 35"), "give every prize as a percentage")
    assert_one_line_exit_2(run_cli("--stacks", "5 3 2", "--payouts", "60% 50%"), "add up to 110%, more than the whole pool")


def test_cli_rounded_percentages_are_the_whole_pool():
    data = json.loads(run_cli("--stacks", "500 300 200", "--payouts", "33.34% 33.33% 33.34%", "--json").output)
    shares = [33.34 * 100 / 100.01, 33.33 * 100 / 100.01, 33.34 * 100 / 100.01]
    assert data["equity"] == pytest.approx(icm.prize_equity([500, 300, 200], shares, places=False).equity.tolist(), rel=1e-12)
    field = " ".join(["0.13333466667%"] * 750)  # adds up to 100.001%
    data = json.loads(run_cli("--stacks", " ".join(["1000"] * 750), "--payouts", field, "--json").output)
    assert sum(data["equity"]) == pytest.approx(100, rel=1e-12)
    assert_one_line_exit_2(run_cli("--stacks", "5 3 2", "--payouts", "50% 30% 20.10001%"),
                           "add up to 100.10001%, more than the whole pool (100%, give or take 0.1 for rounding)")


@pytest.mark.parametrize("payouts", ["33.3% 33.3% 33.3%", "49.9% 30% 20%", "50.1% 30% 20%", "33.4% 33.4% 33.3%"])
def test_cli_percentages_exactly_a_tenth_off_are_the_whole_pool_whatever_the_float_sum(payouts):
    """33.3 + 33.3 + 33.3 is 99.89999999999999 in floating point: still rounding of the whole pool, as 49.9 + 30 + 20."""
    data = json.loads(run_cli("--stacks", "500 300 200", "--payouts", payouts, "--json").output)
    assert sum(data["equity"]) == pytest.approx(100, rel=1e-12), data["equity"]


def test_cli_method_fourier():
    result = run_cli("--stacks", "500 300 200 100", "--payouts", "50 30 15 5", "--method", "fourier", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["method"] == "fourier"
    exact = icm.prize_equity([500, 300, 200, 100], [50, 30, 15, 5], method="dp").equity
    np.testing.assert_allclose(data["equity"], exact, atol=1e-12 * 100)


def test_fourier_with_runs_of_zero_prizes_matches_the_series():
    """Paid places separated by a long run of zero prizes (nodes whose window holds no paid place but
    the last): the pole sum vanishes there and is skipped, not interpolated."""
    stacks = large_field("lognormal", 300)
    payouts = np.concatenate([[50.0, 20.0], np.zeros(120), [1.0]])
    fourier = icm.prize_equity(stacks, payouts, method="fourier", places=False).equity
    series = icm.prize_equity(stacks, payouts, method="integral", places=False).equity
    assert np.all(np.isfinite(fourier))
    assert np.abs(fourier - series).max() <= 1e-12 * payouts.sum()


@pytest.mark.parametrize("stacks", ["\uff11\uff12 \uff13", "\u0665\u0660 30 20"])
def test_cli_numbers_are_ascii_digits_as_in_the_browser(stacks):
    """Python's float() and \\d take full-width and Arabic-Indic digits, JavaScript's do not: one grammar, ASCII."""
    assert_one_line_exit_2(run_cli("--stacks", stacks, "--payouts", "1"), "--stacks: entry 1 is not a number")
