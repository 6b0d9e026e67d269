"""kernels/flop/gpu.py, the CUDA twin of the class hit counts, against the CPU's exact counts in Numba's CUDA simulator;
and what the two share from kernels/flop/core.py: flop numbers (``deal_flop``, on the CPU here, against itertools and
the CPU loop's order) and counting a part (some classes, a range of flops), which the simulator test relies on."""

import textwrap
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from numba import njit

from cuda_simulator import run_in_cuda_simulator
from generator.core.evaluator_tables import evaluator_tables
from kernels.evaluator import cpu as hand
from kernels.flop.categories import (
    DRAWS, FLOPS_PER_HAND, MADE_CATEGORIES, class_hit_counts, class_representatives, range_hit_table,
)
from kernels.flop.core import compile_category_functions


@cache
def tables():
    return evaluator_tables()


@cache
def deal_flop():
    return compile_category_functions(njit, hand).deal_flop


def dealt(index: int, first: int, second: int) -> tuple[int, ...]:
    board = np.empty(3, dtype=np.int64)
    deal_flop()(index, first, second, board)
    return tuple(board.tolist())


@pytest.mark.parametrize("hole", [(0, 1), (50, 51), (17, 44)])
def test_flop_numbers_deal_every_flop_once_in_colexicographic_order(hole):
    deck = [card for card in range(52) if card not in hole]
    colex = sorted(combinations(deck, 3), key=lambda flop: flop[::-1])
    assert len(colex) == FLOPS_PER_HAND
    assert [dealt(index, *hole) for index in range(FLOPS_PER_HAND)] == colex
    assert dealt(0, hole[1], hole[0]) == colex[0]  # the hole cards in either order


def test_a_range_of_flops_counts_the_flops_of_those_numbers():
    """The CPU loop numbers flops as deal_flop does: a part counted by class_hit_counts equals the categories (from
    range_hit_table, one combo on one board) of the flops dealt by number; the parts of a split add up to the whole."""
    t = tables()
    classes, start, stop = [168, 0, 77], 4_321, 4_821
    made, draws = class_hit_counts(t, classes, (start, stop))
    assert made.shape == (3, len(MADE_CATEGORIES)) and draws.shape == (3, len(DRAWS))
    for row, hole in enumerate(class_representatives()[classes]):
        expected_made, expected_draws = np.zeros(len(MADE_CATEGORIES), np.int64), np.zeros(len(DRAWS), np.int64)
        for index in range(start, stop):
            table = range_hit_table(hole, [1.0], dealt(index, *hole), [], t)
            expected_made[table.made[0]] += 1
            expected_draws += [(table.draws[0] >> d) & 1 for d in range(len(DRAWS))]
        assert made[row].tolist() == expected_made.tolist() and draws[row].tolist() == expected_draws.tolist()
    whole = class_hit_counts(t, classes)
    low, high = class_hit_counts(t, classes, (0, 9_999)), class_hit_counts(t, classes, (9_999, FLOPS_PER_HAND))
    assert all(np.array_equal(a + b, c) for a, b, c in zip(low, high, whole))
    assert np.array_equal(whole[0], class_hit_counts(t)[0][classes])
    assert all(part.shape == (0, width) for part, width in zip(class_hit_counts(t, []), (14, 7)))


@pytest.mark.parametrize("classes,flops,message", [
    ([169], (0, 10), "classes are 0..168"), ([-1], (0, 10), "classes are 0..168"),
    (None, (5, 4), "within 0..19600"), (None, (0, 19_601), "within 0..19600"),
])
def test_a_part_out_of_bounds_is_refused(classes, flops, message):
    with pytest.raises(ValueError, match=message):
        class_hit_counts(tables(), classes, flops)


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.cards import CLASS_NAMES
    from kernels.flop import categories, gpu

    tables = evaluator_tables()

    def check(names, flops, blocks):
        classes = [CLASS_NAMES.index(name) for name in names]
        on_cpu = categories.class_hit_counts(tables, classes, flops)
        on_gpu = gpu.class_hit_counts(tables, classes, flops, blocks=blocks)
        assert (on_cpu[0].sum(axis=1) == flops[1] - flops[0]).all()
        assert all(np.array_equal(a, b) for a, b in zip(on_cpu, on_gpu)), (on_cpu, on_gpu)
        return on_cpu

    # six classes on flops 5,500..6,500, one block a class (each thread strides over ~4 flops): between them every
    # made category and every draw
    made, draws = check(("AKs", "99", "T9s", "A5o", "QQ", "K2o"), (5_500, 6_500), 1)
    assert (made.sum(axis=0) > 0).all() and (draws.sum(axis=0) > 0).all()
    # one thread a flop, the last block part full; classes out of order
    check(("65s", "22", "AA"), (19_350, 19_600), None)
    print("cuda-sim-ok")
    """
)


@pytest.mark.slow
def test_cuda_class_hit_counts_match_cpu_in_simulator():
    run_in_cuda_simulator(CUDASIM_SCRIPT)
