"""Golden cases of the range grammar: kernels/ranges.py ↔ templates/assets/js/engines/ranges.js.

Each case is a string and either its weights (as runs, see :func:`weight_runs`) and their normalised string
(``kernels.ranges.normalise``), or its error (token, column, message). Strings: the grammar's examples, every
error kind, x% strings whose target falls halfway between two prefixes (the tie rule decides), random
well-formed and broken strings (spacing, case, weights, x%), and normalised strings of random weights. The x%
ranking is the build's (exact heads-up equity vs a random hand), stored in the file.
"""

from __future__ import annotations

import numpy as np

from kernels.cards import CLASS_COMBO_COUNT, COMBO_CLASS, RANKS, SUITS
from kernels.ranges import N_COMBOS, RangeError, normalise, parse_range, ranking_from_equity

NAME = "ranges"
TOLERANCE = 0.0  # weights are parsed decimal numbers: both languages read them to the same double

EXAMPLES = (
    "AKs", "AKo", "AK", "TT", "AsKs", "kdas", "QQ+", "A2s+", "KTo+", "K9+", "JJ-99", "99-JJ", "T9s-65s", "A5s-A2s",
    "QQ+, AKs , JJ-99", "random", "RANDOM", "0.5(KQo, AJs), AA", "KQo:0.25,QQ+:.5", "AA, AA:0.5", "random, AA:0",
    "15%", "0.1%", "100%", "0%", "2.5%:0.5", "0.3( 15% , AsKd )", "1.(AA)", "22 - 55", "T9s -65s",
    "QQ+,AKx", " QQ+ , 0.5(AKs, AKx)", "AAs", "T9s-64s", "AKs-QJo", "KQo:1.5", "AA,,KK", "AA,", "AsAs", "AK(s)",
    "AA, 0.5(KK,QQ", "AA),KK", "150%", "Xx", "AKQ", "", "   ", "A\U0001F600", "\U0001F600,AKx", "AA\tKK", "AA,\n KK",
    "ASKD", "aSkD", "AsKS", "0.5(0.3(AA))", "0.5(AA:0.3)", "5%%", "-AA", "AA-", "A+", "+", "AsKs+", "AKs:", ":0.5", "1e-3(AA)",
    "AA:0.0000001,KK:1e-7", "AKs:0.000012345",
    "\x1b[31mAK", "AK\u200b", "AK\x7f,QQ", "Z" * 100, "\U0001F600" * 50,  # shown escaped, at most 40 characters
)
RANDOM_STRINGS = 120
RANDOM_WEIGHTS = 40


def _random_token(rng) -> str:
    """A random atom, mostly well-formed; about one in ten is broken."""
    high, low = sorted(rng.choice(13, 2, replace=False), reverse=True)

    def r(i):
        return RANKS[i] if rng.random() < 0.8 else RANKS[i].lower()

    kind = str(rng.choice(["s", "o", "", "S"]))
    shape = int(rng.integers(0, 9))
    if shape == 0:
        return r(high) * 2 + str(rng.choice(["", "+"]))
    if shape == 1:
        return f"{r(high)}{r(low)}{kind}" + str(rng.choice(["", "+"]))
    if shape == 2:
        return f"{r(high)}{r(low)}{kind}-{r(high)}{r(int(rng.integers(0, high)))}{kind}"
    if shape == 3:
        gap = high - low
        top = int(rng.integers(gap, 13))
        return f"{r(high)}{r(low)}{kind}{rng.choice(['-', ' - '])}{r(top)}{r(top - gap)}{kind}"
    if shape == 4:
        a, b = rng.choice(52, 2, replace=False)
        return r(a // 4) + SUITS[a % 4] + r(b // 4) + SUITS[b % 4]
    if shape == 5:
        return f"{rng.choice(['5', '12.5', '33', '0.5', '99.9'])}%"
    if shape == 6:
        return "random"
    if shape == 7:
        return f"{r(high)}{r(high)}-{r(low)}{r(low)}"
    return str(rng.choice(["AKx", "A1s", "ZZ", "AKs-QJs", "KK+s", "AsXs", "2%x", "0.5(", "A5s-K2s"]))


def _random_string(rng) -> str:
    items = []
    for _ in range(int(rng.integers(1, 6))):
        inner = [_random_token(rng) for _ in range(int(rng.integers(1, 4)))]
        choice = rng.random()
        if choice < 0.2:
            items.append(f"{rng.choice(['0.5', '.25', '1', '0.75', '0'])}({', '.join(inner)})")
        elif choice < 0.35:
            items.append(f"{inner[0]}:{rng.choice(['0.5', '.3', '1.0', '0.125'])}")
        else:
            items.append(inner[0])
    return str(rng.choice([",", ", ", " ,", ",  "])).join(items)


def _random_weights(rng) -> np.ndarray:
    weights = np.zeros(N_COMBOS)
    for cls in rng.choice(169, int(rng.integers(1, 15)), replace=False):
        weights[COMBO_CLASS == cls] = rng.choice([1.0, 0.5, 0.3, 1 / 7])
    weights[rng.choice(N_COMBOS, int(rng.integers(0, 10)), replace=False)] = rng.choice([1.0, 0.25, 2 / 3])
    return weights


def _tie_percents(ranking) -> list[str]:
    """x% strings whose target falls exactly halfway between two prefixes (the tie rule decides)."""
    counts = np.concatenate(([0], np.cumsum(CLASS_COMBO_COUNT[ranking])))
    texts = []
    for low, high in zip(counts[:-1], counts[1:]):
        percent = (low + high) / 2 * 100 / N_COMBOS
        if percent * N_COMBOS / 100 == (low + high) / 2 and len(texts) < 12:
            texts.append(f"{float(percent)!r}%")
    return texts


def weight_runs(weights) -> list:
    """The non-zero weights ``(1326,)`` as ``[[weight, [[first, last], ...]], ...]``: runs of consecutive combos
    of one weight, grouped by weight in the order each weight first occurs (tests/js/golden.mjs: weightRuns)."""
    groups: dict[float, list] = {}
    i = 0
    while i < len(weights):
        if weights[i] == 0:
            i += 1
            continue
        end = i
        while end + 1 < len(weights) and weights[end + 1] == weights[i]:
            end += 1
        groups.setdefault(float(weights[i]), []).append([i, end])
        i = end + 1
    return [[w, runs] for w, runs in groups.items()]


def _case(text: str, ranking) -> dict:
    try:
        weights = parse_range(text, ranking).weights
    except RangeError as exc:
        return {"text": text, "error": {"token": exc.token, "column": exc.column, "message": str(exc)}}
    return {"text": text, "weights": weight_runs(weights), "normalised": normalise(weights)}


def build_ranking() -> np.ndarray:
    from generator.compute import registry
    from generator.compute.run import default_run

    results, _ = registry.results("headsup", default_run(progress=False))
    return ranking_from_equity(results.vs_random_equity())


def build() -> dict:
    ranking = build_ranking()
    rng = np.random.default_rng(2026)
    texts = list(EXAMPLES) + _tie_percents(ranking) + [_random_string(rng) for _ in range(RANDOM_STRINGS)]
    texts += [normalise(_random_weights(rng)) for _ in range(RANDOM_WEIGHTS)]
    return {
        "about": "kernels/ranges.py on range strings: weights as [weight, [[first combo, last combo], ...]] runs and "
                 "the normalised string, or the error; x% by `ranking` (class indices best first, the build's).",
        "ranking": ranking.tolist(),
        "cases": [_case(text, ranking) for text in texts],
    }
