"""Range grammar: expansions, errors with columns, x%, round trip through normalise, agreement with eval7."""

import numpy as np
import pytest

from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES, COMBO_CLASS, format_card, parse_cards
from kernels.ranges import N_COMBOS, RangeError, combo_index, normalise, parse_range, ranking_from_equity, top_percent


def classes_of(text, ranking=None):
    """{class name: weight} of a range whose classes are whole (asserted)."""
    weights = parse_range(text, ranking).weights
    out = {}
    for cls, name in enumerate(CLASS_NAMES):
        values = weights[COMBO_CLASS == cls]
        assert np.all(values == values[0]), name
        if values[0] > 0:
            out[name] = values[0]
    return out


@pytest.mark.parametrize(
    "text,expected",
    [
        ("AKs", {"AKs"}),
        ("AK", {"AKs", "AKo"}),
        ("ka", {"AKs", "AKo"}),
        ("QQ+", {"QQ", "KK", "AA"}),
        ("A2s+", {f"A{r}s" for r in "23456789TJQK"}),
        ("KTo+", {"KTo", "KJo", "KQo"}),
        ("K9+", {f"K{r}{k}" for r in "9TJQ" for k in "so"}),
        ("JJ-99", {"JJ", "TT", "99"}),
        ("99-JJ", {"JJ", "TT", "99"}),
        ("T9s-65s", {"T9s", "98s", "87s", "76s", "65s"}),
        ("A5s-A2s", {"A5s", "A4s", "A3s", "A2s"}),
        ("A2o-A4o", {"A2o", "A3o", "A4o"}),
        ("QQ+, AKs , JJ-99", {"AA", "KK", "QQ", "JJ", "TT", "99", "AKs"}),
    ],
)
def test_classes_expand(text, expected):
    assert set(classes_of(text)) == expected


def test_combos_random_and_weights():
    assert parse_range("AsKd").combos().tolist() == [combo_index(*parse_cards("AsKd"))]
    assert parse_range("kdas").combos().tolist() == parse_range("AsKd").combos().tolist()
    assert parse_range("random").weights.sum() == N_COMBOS
    assert classes_of("0.5(KQo, AJs), AA") == {"KQo": 0.5, "AJs": 0.5, "AA": 1.0}
    assert classes_of("KQo:0.25,QQ+:.5") == {"KQo": 0.25, "QQ": 0.5, "KK": 0.5, "AA": 0.5}
    assert classes_of("AA, AA:0.5") == {"AA": 0.5}  # the last mention wins
    assert classes_of("random, AA:0") == {n: 1.0 for n in CLASS_NAMES if n != "AA"}


@pytest.mark.parametrize(
    "text,token,column,fragment",
    [
        ("QQ+,AKx", "AKx", 5, "not s (suited) or o"),
        (" QQ+ , 0.5(AKs, AKx)", "AKx", 17, "not s (suited)"),
        ("AAs", "AAs", 1, "pair takes no"),
        ("T9s-64s", "T9s-64s", 1, "same gap"),
        ("AKs-QJo", "AKs-QJo", 1, "both ends"),
        ("KQo:1.5", "KQo:1.5", 1, "not between 0 and 1"),
        ("AA,,KK", "", 4, "empty item"),
        ("AA,", "", 4, "empty item"),
        ("AsAs", "AsAs", 1, "same"),
        ("AK(s)", "AK(s)", 1, "parentheses"),
        ("AA, 0.5(KK,QQ", "0.5(KK,QQ", 5, "parentheses"),
        ("AA),KK", "AA)", 1, "parentheses"),
        ("150%", "150%", 1, "between 0 and 100"),
        ("Xx", "Xx", 1, "not a rank"),
        ("AKQ", "AKQ", 1, "not s (suited)"),
        ("", "", 1, "empty range"),
    ],
)
def test_errors_name_token_and_column(text, token, column, fragment):
    ranking = np.arange(169)
    with pytest.raises(RangeError) as info:
        parse_range(text, ranking)
    error = info.value
    assert (error.token, error.column) == (token, column) and fragment in str(error)
    assert str(error).startswith(f'token "{token}" (column {column}): ')


@pytest.fixture(scope="module")
def ranking():
    from generator.compute.stages.headsup import headsup_results

    results, _ = headsup_results(progress=False)
    return ranking_from_equity(results.vs_random_equity())


def test_top_percent_is_the_closest_prefix_of_the_ranking(ranking):
    assert CLASS_NAMES[ranking[0]] == "AA" and CLASS_NAMES[ranking[-1]] == "32o"
    assert parse_range("100%", ranking).weights.sum() == N_COMBOS
    assert parse_range("0%", ranking).weights.sum() == 0
    assert set(classes_of("0.1%", ranking)) == {"AA"}  # never empty above 0
    counts = np.cumsum(CLASS_COMBO_COUNT[ranking])
    for percent in (1, 2.5, 5, 15, 33.3, 50, 99):
        combos = top_percent(percent, ranking)
        k = int(np.searchsorted(counts, combos.size)) + 1  # classes taken
        assert counts[k - 1] == combos.size and set(COMBO_CLASS[combos]) == set(ranking[:k].tolist())
        target = percent * N_COMBOS / 100
        assert all(abs(combos.size - target) <= abs(c - target) for c in np.concatenate(([0], counts)))
    assert classes_of("2%", ranking) == {n: 1.0 for n in ("AA", "KK", "QQ", "JJ")}  # 24 combos ≈ 26.5
    assert 0.6787330316742082 * N_COMBOS / 100 == 9.0  # halfway between AA (6) and AA, KK (12): the larger
    assert set(classes_of("0.6787330316742082%", ranking)) == {"AA", "KK"}


def random_weights(rng) -> np.ndarray:
    """Random whole classes and loose combos with weights among 1, 0.5, 0.3 and one irrational-looking value."""
    weights = np.zeros(N_COMBOS)
    for cls in rng.choice(169, rng.integers(1, 20), replace=False):
        weights[COMBO_CLASS == cls] = rng.choice([1.0, 0.5, 0.3])
    weights[rng.choice(N_COMBOS, rng.integers(0, 15), replace=False)] = rng.choice([1.0, 0.25, 1 / 3, 0.123456789])
    return weights


def test_normalise_round_trips():
    rng = np.random.default_rng(10)
    for _ in range(300):
        weights = random_weights(rng)
        text = normalise(weights)
        assert np.array_equal(parse_range(text).weights, weights), text
        assert normalise(parse_range(text).weights) == text
    for text in ("QQ+,AK", "random", "T9s-65s,0.5(A5s-A2s),AsKd:0.75"):
        once = parse_range(text).weights
        assert np.array_equal(parse_range(normalise(once)).weights, once)


def eval7_weights(text) -> np.ndarray:
    import eval7

    weights = np.zeros(N_COMBOS)
    for (a, b), weight in eval7.HandRange(text).hands:
        weights[combo_index(*parse_cards(str(a) + str(b)))] = weight
    return weights


def eval7_token(rng) -> str:
    """A token in the syntax eval7 and this grammar share (classes, +, same-first-rank dashes, pair dashes, combos)."""
    ranks = "23456789TJQKA"
    high, low = sorted(rng.choice(13, 2, replace=False), reverse=True)
    kind = rng.choice(["s", "o", ""])
    shape = rng.integers(0, 5)
    if shape == 0:
        return ranks[high] * 2 + rng.choice(["", "+"])
    if shape == 1:
        return f"{ranks[high]}{ranks[low]}{kind}" + rng.choice(["", "+"])
    if shape == 2 and high - low >= 2:
        return f"{ranks[high]}{ranks[low]}{kind}-{ranks[high]}{ranks[low + 1 + rng.integers(0, high - low - 1)]}{kind}"
    if shape == 3:
        return f"{ranks[high]}{ranks[high]}-{ranks[low]}{ranks[low]}"
    a, b = rng.choice(52, 2, replace=False)
    return format_card(a) + format_card(b)


def test_agrees_with_eval7_hand_range():
    rng = np.random.default_rng(7)
    for _ in range(300):
        tokens = []
        while len(tokens) < rng.integers(1, 6):
            token = eval7_token(rng)
            if not np.any((parse_range(token).weights > 0) & (parse_range(",".join(tokens) or "AA:0").weights > 0)):
                tokens.append(token)  # eval7 lists a combo once per mention: keep mentions disjoint
        text = ", ".join(tokens)
        if rng.random() < 0.3:
            text = f"0.5({text})"
        assert np.array_equal(parse_range(text).weights, eval7_weights(text)), text


@pytest.mark.parametrize(
    ("text", "compact"),
    [
        ("AA,KK,QQ,KQo", "QQ+,KQo"),
        ("JJ,TT,99,AQs", "JJ-99,AQs"),
        ("ATs+,A9s-A5s", "A5s+"),
        ("AKs,AQs,AJs:0.5,ATs:0.5", "AQs+,AJs-ATs:0.5"),
        ("22+,A2s+,KTs+,ATo+", "22+,A2s+,KTs+,ATo+"),
        ("QQ+,AsKs", "QQ+,AsKs"),
        ("AA", "AA"),
    ],
)
def test_normalise_writes_runs_of_classes(text, compact):
    """Whole classes come back as runs (QQ+, JJ-99, ATs+, A9s-A5s), one weight each (ranges.js agrees on
    the shared fixtures)."""
    weights = parse_range(text).weights
    assert normalise(weights) == compact
    assert np.array_equal(parse_range(compact).weights, weights)


def test_a_token_in_an_error_is_escaped_and_cut():
    """A terminal escape typed into a range cannot colour the error line, and a 20,000-character token is not a
    20 KB error line: unprintable characters are escaped, at most 40 characters shown (ranges.js the same: golden)."""
    from kernels.ranges import RangeError, parse_range

    with pytest.raises(RangeError) as caught:
        parse_range("\x1b[31mAK")
    assert str(caught.value).startswith('token "\\x1b[31mAK" (column 1)') and "\x1b" not in str(caught.value)
    with pytest.raises(RangeError) as caught:
        parse_range("Z" * 20_000)
    assert str(caught.value).startswith('token "' + "Z" * 40 + '…" (column 1)') and len(str(caught.value)) < 200
