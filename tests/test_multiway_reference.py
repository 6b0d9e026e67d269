"""Full-deck multiway equities with the real control variates, against an independent eval7 Monte Carlo.

The other multiway tests use stand-in controls, or pass the true answer in as the control mean, so
they cannot see a wrong control mean; but every published multiway number is corrected by these
means (``estimate = plain mean − β · (sample mean of the controls − their exact means)``), so a wrong
one biases every number. Here ``run_multiway`` runs as the build runs it (with the real
``multiway_controls``, i.e. the exact heads-up probabilities and ``percentile_control``), and its
3..10-player equities are compared with eval7 dealing the same game from scratch, cell by cell
(5σ) and in aggregate (mean z and mean z² over all cells). The percentile control itself is
rebuilt independently: the exact distribution of all C(52, 7) seven-card hands counted with eval7,
then its class means of q checked on sampled boards.

About 30 s on 2 cores with warm caches (+ ≈ 10 s for the percentile control if it is not cached,
+ about a minute for the heads-up tables, shared with the other tests, on a cold cache).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import eval7
import numpy as np
import pytest

from generator.core.cache import cache_dir
from generator.core.config import load_config
from multiway_helpers import multiway_run
from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages import multiway as stage
from generator.compute.stages.headsup import headsup_results
from kernels.cards import format_card, parse_class
from kernels.evaluator import cpu as evaluator
from kernels.multiway.layout import BLOCK_DEALS, GROUPS

pytestmark = pytest.mark.slow

#: Card strings in the project's id order (id = 4 · rank + suit), checked against kernels.cards below.
CARDS = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
#: One combo per class compared; by suit symmetry every combo of a class has the class's equity.
HEROES = {"AA": "AsAh", "AKs": "AsKs", "AKo": "AsKd", "T9s": "Th9h", "72o": "7c2d", "22": "2c2d"}
PLAYERS = range(3, 11)
#: Our run: 24 passes of GROUPS blocks (12.6 M deals, about 12 s): cheap next to the reference, so
#: our errors are a small part of each comparison's (w = se_ours / s ≈ 0.15), which keeps the
#: aggregate bands below narrow.
OUR_DEALS = 24 * GROUPS * BLOCK_DEALS
#: Reference deals per (class, players) cell, each cell with its own deals (independent cells).
REFERENCE_DEALS = 40_000
SEED = 8_675_309


# --- our numbers: run_multiway exactly as the build runs it ---------------------------------------


@pytest.fixture(scope="module")
def private_cache(tmp_path_factory):
    """A cache directory that shares the derived caches (evaluator, heads-up tables, percentile
    control) with the normal one by symlinks, but no multiway checkpoint: the run below starts from
    zero deals whatever checkpoints the developer's cache holds, and leaves none behind there."""
    stage.multiway_controls(headsup_results(progress=False)[0])  # build (or find) the derived caches in the normal place
    shared = cache_dir().resolve()
    private = tmp_path_factory.mktemp("cache")
    for path in shared.rglob("*"):
        relative = path.relative_to(shared)
        if path.is_file() and relative.parts[0] != "multiway":  # multiway/ holds the checkpoints
            (private / relative).parent.mkdir(parents=True, exist_ok=True)
            (private / relative).symlink_to(path)
    return private


@pytest.fixture(scope="module")
def ours(private_cache, tmp_path_factory):
    """The ``multiway.json`` document of a fresh run with the real controls."""
    work = tmp_path_factory.mktemp("multiway")
    (work / "site.yaml").write_text(f"multiway:\n  seed: {SEED}\n  checkpoint_every: 1000s\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ALLIN_CACHE_DIR", str(private_cache))
        controls = stage.multiway_controls(headsup_results(progress=False)[0])  # as the build makes them
        document = stage.run_multiway(multiway_run(load_config(work / "site.yaml"), budget_seconds=600, target_se=1e-12, max_deals=OUR_DEALS),
                                      work / "site", controls)
    assert document["meta"]["deals"] == OUR_DEALS
    return document


# --- the reference: eval7 on deals drawn with NumPy ------------------------------------------------


def reference_equity(hero: str, players: int, deals: int, rng: np.random.Generator) -> tuple[float, float]:
    """Mean and standard error of the hero's equity (win 1, k-way tie 1/k, loss 0) at a full table
    of ``players`` random hands, from ``deals`` deals of the other 50 cards shuffled by NumPy."""
    hero_cards = [eval7.Card(hero[:2]), eval7.Card(hero[2:])]
    rest = [eval7.Card(c) for c in CARDS if c not in (hero[:2], hero[2:])]
    used = 2 * (players - 1) + 5
    shuffled = rng.permuted(np.tile(np.arange(50), (deals, 1)), axis=1)[:, :used].tolist()
    evaluate = eval7.evaluate
    outcome = np.empty(deals)
    for d, row in enumerate(shuffled):
        cards = [rest[i] for i in row]
        board = cards[-5:]
        best, n_best = -1, 0
        for k in range(players - 1):
            value = evaluate(cards[2 * k : 2 * k + 2] + board)
            if value > best:
                best, n_best = value, 1
            elif value == best:
                n_best += 1
        mine = evaluate(hero_cards + board)
        outcome[d] = 1.0 if mine > best else 1.0 / (n_best + 1) if mine == best else 0.0
    return float(outcome.mean()), float(outcome.std(ddof=1) / math.sqrt(deals))


@pytest.fixture(scope="module")
def reference():
    """{(class, players): (mean, se)}: every cell from its own deals, so the cells are independent."""
    rng = np.random.default_rng(SEED)
    return {(name, n): reference_equity(hero, n, REFERENCE_DEALS, rng) for name, hero in HEROES.items() for n in PLAYERS}


@pytest.fixture(scope="module")
def z_scores(ours, reference):
    """Per cell: z = (ours − reference) / s with s² = se_ours² + se_ref², and w = se_ours / s."""
    rows = []
    for (name, n), (ref_mean, ref_se) in reference.items():
        cell = ours["by_players"][str(n)]
        i = parse_class(name)
        mean, se = cell["equity"][i], cell["se_equity"][i]
        s = math.hypot(se, ref_se)
        rows.append((name, n, mean, ref_mean, (mean - ref_mean) / s, se / s))
    return rows


def test_card_ids_are_the_projects():
    assert [format_card(i) for i in range(52)] == CARDS


def test_every_cell_agrees_with_eval7_within_5_sigma(z_scores):
    """Full-deck equity of 6 classes at 3..10 players (48 cells), each within 5σ of the reference."""
    worst = max(z_scores, key=lambda row: abs(row[4]))
    print(f"largest |z| {abs(worst[4]):.2f} ({worst[0]}, {worst[1]} players: {worst[2]:.5f} vs {worst[3]:.5f})")
    assert all(abs(z) <= 5 for *_, z, _ in z_scores), [row for row in z_scores if abs(row[4]) > 5]


def test_cells_agree_in_aggregate(z_scores):
    """A bias shared by all cells (what a wrong control mean causes) far below 5σ of one cell shows
    up in the mean of z; errors reported too small show up in the mean of z².

    Bands, derived: the reference cells are independent of each other and of our run; our cells may
    be correlated with each other (same deals), by at most |corr| ≤ 1, so |cov(z_i, z_j)| ≤ w_i·w_j
    and var(Σz) ≤ N + (Σw)². For z², var(z²) = 2 for a normal z (2.08 for a Student t with our 127
    degrees of freedom: use 2.1) and cov(z_i², z_j²) = 2 cov(z_i, z_j)² ≤ 2 w_i² w_j², so
    var(Σz²) ≤ 2.1 N + 2 (Σw²)². Both means are then held to 5 of these standard deviations.
    """
    z = np.array([row[4] for row in z_scores])
    w = np.array([row[5] for row in z_scores])
    n = z.size
    sd_mean_z = math.sqrt(n + w.sum() ** 2) / n
    sd_mean_z2 = math.sqrt(2.1 * n + 2 * (w**2).sum() ** 2) / n
    print(f"N = {n}, mean z = {z.mean():+.3f} (band ±{5 * sd_mean_z:.3f}), "
          f"mean z² = {np.mean(z**2):.3f} (band 1 ± {5 * sd_mean_z2:.3f}), mean w = {w.mean():.2f}")
    assert abs(z.mean()) <= 5 * sd_mean_z
    assert abs(np.mean(z**2) - 1) <= 5 * sd_mean_z2


# --- the percentile control, rebuilt independently --------------------------------------------------


@pytest.fixture(scope="module")
def independent_q():
    """``{eval7 value: q}`` for every 7-card hand value, q = floor(1024 · F^8), F = fraction of the
    C(52, 7) seven-card hands strictly weaker (kernels/multiway/percentile.py's definition).

    The distribution of hand values is counted exactly, without enumerating 133 M hands: a hand with
    five or more cards of one suit is a flush (with seven cards a full house or quads is then
    impossible) whose value depends only on the ranks S of that suit, and there are
    4 · C(39, 7 − |S|) such hands for each S; any other hand's value depends only on its ranks,
    and of the Π C(4, m_r) suit choices for a rank multiset those with five or more in one suit
    are removed (counted with the polynomial Π (C(3, m_r) + x · C(3, m_r − 1)) for one suit, × 4).
    """
    counts: Counter = Counter()
    for size in (5, 6, 7):
        for ranks in itertools.combinations("23456789TJQKA", size):
            counts[eval7.evaluate([eval7.Card(r + "s") for r in ranks])] += 4 * math.comb(39, 7 - size)
    for ranks in itertools.combinations_with_replacement("23456789TJQKA", 7):
        multiplicity = Counter(ranks)
        if max(multiplicity.values()) > 4:
            continue
        total = math.prod(math.comb(4, m) for m in multiplicity.values())
        in_one_suit = np.array([1])  # polynomial in x = cards of one given suit
        for m in multiplicity.values():
            in_one_suit = np.convolve(in_one_suit, [math.comb(3, m), math.comb(3, m - 1)])
        no_flush = total - 4 * int(in_one_suit[5:].sum())
        if no_flush:
            # suits dealt in turn (each rank's copies get different suits): at most 2 cards per suit
            cards = [eval7.Card(r + "cdhs"[i % 4]) for i, r in enumerate(sorted(ranks))]
            counts[eval7.evaluate(cards)] += no_flush
    assert sum(counts.values()) == math.comb(52, 7)
    assert len(counts) == 4824  # distinct 7-card hand values (of the 7,462 five-card ones)
    values = sorted(counts)
    weaker = np.concatenate([[0], np.cumsum([counts[v] for v in values])[:-1]]) / math.comb(52, 7)
    return dict(zip(values, np.floor(1024 * weaker**8).astype(int).tolist()))


def test_percentile_table_agrees_with_the_independent_count(independent_q):
    """q of 200,000 random 7-card hands: the project's evaluator + percentile table vs eval7 + the
    independent count, hand by hand (exact equality)."""
    percentile, _ = stage.percentile_control()
    rng = np.random.default_rng(1)
    hands = rng.permuted(np.tile(np.arange(52), (200_000, 1)), axis=1)[:, :7]
    ours = percentile[evaluator.evaluate(hands, evaluator_tables())]
    deck = [eval7.Card(c) for c in CARDS]
    theirs = np.array([independent_q[eval7.evaluate([deck[c] for c in row])] for row in hands.tolist()])
    assert np.array_equal(ours, theirs), np.flatnonzero(ours != theirs)[:10]


@pytest.mark.parametrize("name", ["AA", "AKs", "T9s", "72o"])
def test_class_means_of_q_agree_with_sampled_boards(independent_q, name):
    """``percentile_control()``'s exact class mean of q (the third control's mean, which every
    published multiway number leans on) vs the mean over 400,000 random boards, within 5σ (σ ≈ 0.4
    of q's 0..1023 scale, about 0.3% of the means)."""
    _, q_mean = stage.percentile_control()
    hero = HEROES[name]
    hero_cards = [eval7.Card(hero[:2]), eval7.Card(hero[2:])]
    rest = [eval7.Card(c) for c in CARDS if c not in (hero[:2], hero[2:])]
    boards = np.random.default_rng(2).permuted(np.tile(np.arange(50), (400_000, 1)), axis=1)[:, :5].tolist()
    q = np.array([independent_q[eval7.evaluate(hero_cards + [rest[i] for i in board])] for board in boards])
    se = q.std(ddof=1) / math.sqrt(q.size)
    print(f"{name}: q_mean {q_mean[parse_class(name)]:.3f}, sampled {q.mean():.3f} ± {se:.3f}")
    assert abs(q_mean[parse_class(name)] - q.mean()) <= 5 * se
