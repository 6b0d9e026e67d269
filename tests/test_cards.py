import numpy as np
import pytest

from kernels.cards import (
    ALL_COMBOS,
    CLASS_COMBO_COUNT,
    CLASS_NAMES,
    COMBO_CLASS,
    CardError,
    class_combos,
    class_of_cards,
    format_cards,
    parse_card,
    parse_cards,
    parse_class,
)


def test_card_ids_follow_rank_then_suit():
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert parse_card("td") == parse_card("Td") == 4 * 8 + 1
    assert format_cards(parse_cards("AsKd7c")) == "AsKd7c"


@pytest.mark.parametrize("bad", ["1x", "A", "AsK", "Ax", "10s"])
def test_bad_cards_are_rejected(bad):
    with pytest.raises(CardError):
        parse_cards(bad)


def test_duplicate_cards_are_rejected():
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("AsAs")


def test_chart_layout_pairs_diagonal_suited_above_offsuit_below():
    assert CLASS_NAMES[0] == "AA" and CLASS_NAMES[168] == "22"
    assert CLASS_NAMES[1] == "AKs" and CLASS_NAMES[13] == "AKo"
    for row in range(13):
        for col in range(13):
            name = CLASS_NAMES[13 * row + col]
            if row == col:
                assert len(name) == 2 and name[0] == name[1]
            else:
                assert name.endswith("s" if row < col else "o")
    assert len(set(CLASS_NAMES)) == 169


def test_combo_counts_per_class():
    assert len(ALL_COMBOS) == 1326
    assert CLASS_COMBO_COUNT.sum() == 1326
    for index, name in enumerate(CLASS_NAMES):
        expected = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
        assert CLASS_COMBO_COUNT[index] == expected == len(class_combos(index))
        for a, b in class_combos(index):
            assert class_of_cards(a, b) == class_of_cards(b, a) == index
    # every combo's class agrees with the suit/rank rule
    for (a, b), cls in zip(ALL_COMBOS, COMBO_CLASS):
        suited, pair = a % 4 == b % 4, a // 4 == b // 4
        name = CLASS_NAMES[cls]
        assert (len(name) == 2) == pair and name.endswith("s") == (suited and not pair)


@pytest.mark.parametrize("text,name", [("AKs", "AKs"), ("kas", "AKs"), ("ako", "AKo"), ("tt", "TT"), ("72o", "72o")])
def test_parse_class(text, name):
    assert CLASS_NAMES[parse_class(text)] == name


@pytest.mark.parametrize("bad", ["AKx", "AK", "AAs", "XYo", "A", "AKQs"])
def test_parse_class_rejects_bad_input(bad):
    with pytest.raises(CardError):
        parse_class(bad)


def test_combos_are_sorted_card_pairs():
    assert np.all(ALL_COMBOS[:, 0] < ALL_COMBOS[:, 1])
