"""kernels.threeway.compact: the integer encoding of threeway.bin.gz version 3 (pairwise counts, corrections,
residuals), on small random tables: counts add up, stay within the stated bound, and bad input is refused."""

import numpy as np
import pytest

from kernels.threeway import compact
from kernels.threeway.core import triple_classes
from kernels.threeway.pairwise import THREE_WAY_TIE

STEP = 10


@pytest.fixture(scope="module")
def rows():
    """2,000 random sorted triples with random pairwise counts and a target near them (counts out of 255)."""
    rng = np.random.default_rng(37)
    classes = triple_classes()[rng.choice(818_805, 2_000, replace=False)]
    pairwise = compact.quantise_orderings(rng.dirichlet(np.full(13, 0.4), size=len(classes))).astype(np.int64)
    target = compact.SCALE * np.array([rng.dirichlet(1.0 + 40 * row / compact.SCALE) for row in pairwise])
    return classes, pairwise, target


def test_largest_remainder_rounding():
    rng = np.random.default_rng(5)
    probabilities = rng.dirichlet(np.full(13, 0.3), size=2000)
    probabilities[:3] = 0.0  # card-impossible rows stay zero
    counts = compact.quantise_orderings(probabilities)
    assert counts.dtype == np.uint8
    assert (counts[:3] == 0).all() and (counts[3:].sum(axis=1) == compact.SCALE).all()
    scaled = probabilities * compact.SCALE
    assert ((counts == np.floor(scaled)) | (counts == np.ceil(scaled))).all()


def test_model_counts_add_up_and_clip(rows):
    classes, pairwise, _ = rows
    zero = np.zeros((3, 13, compact.N_PAIRS), dtype=np.int8)
    assert (compact.model_counts(pairwise, zero, classes) == pairwise).all(), "no corrections: the pairwise counts"
    corrections = np.random.default_rng(1).integers(-40, 40, size=(3, 13, compact.N_PAIRS)).astype(np.int8)
    model = compact.model_counts(pairwise, corrections, classes)
    assert (model >= 0).all() and (model.sum(axis=1) == compact.SCALE).all()
    drained = np.full((3, 13, compact.N_PAIRS), -128, dtype=np.int8)  # every count clipped to 0: a three-way tie
    tie = compact.model_counts(pairwise, drained, classes)
    assert (tie[:, THREE_WAY_TIE] == compact.SCALE).all() and (tie.sum(axis=1) == compact.SCALE).all()


def test_fit_recovers_corrections_of_the_seat_pairs(rows):
    classes, pairwise, _ = rows
    rng = np.random.default_rng(2)
    truth = rng.integers(-5, 6, size=(3, 13, compact.N_PAIRS)).astype(np.int8)
    keys = [compact.pair_index(classes[:, s], classes[:, t]) for s, t in compact.CORRECTION_SEATS]
    target = pairwise + sum(truth[s].T[keys[s]].astype(np.int64) for s in range(3))
    fitted = compact.fit_corrections(target, pairwise, classes)
    assert fitted.shape == truth.shape and fitted.dtype == np.int8
    prediction = pairwise + sum(fitted[s].T[keys[s]].astype(np.int64) for s in range(3))
    assert np.abs(prediction - target).mean() < 0.5, "an additive target is fitted (up to rounding)"


def test_residuals_bring_every_count_within_the_bound(rows):
    classes, pairwise, target = rows
    model = compact.model_counts(pairwise, compact.fit_corrections(target, pairwise, classes), classes)
    residual = compact.encode_residual(target, model, STEP)
    assert residual.dtype == np.int8
    counts = compact.decode(model, residual, STEP)
    assert (counts >= 0).all() and (counts.sum(axis=1) == compact.SCALE).all()
    error = counts - target
    anchor_error = error[np.arange(len(counts)), compact.anchor(model)][:, None]
    free = (counts >= STEP) & (counts <= compact.SCALE - STEP)  # a step either way is a whole step
    assert np.abs(error - anchor_error)[free].max() <= (1 + compact.GAIN / 2) * STEP + 1e-9
    assert np.abs(error).max() <= 2 * STEP
    exact = compact.decode(model, compact.encode_residual(target, model, 1), 1)
    assert np.abs(exact - target).max() <= 2, "step 1: counts within two units"


def test_decode_refuses_what_no_writer_gives(rows):
    classes, pairwise, target = rows
    residual = compact.encode_residual(target, pairwise, STEP)
    anchor = compact.anchor(pairwise)
    bad = residual.astype(np.int64)
    bad[0, anchor[0]] = 1
    with pytest.raises(ValueError, match="a residual where there is none"):
        compact.decode(pairwise, bad, STEP)
    bad = residual.astype(np.int64)
    bad[0] = np.where(np.arange(13) == anchor[0], 0, 30)
    with pytest.raises(ValueError, match="outside"):
        compact.decode(pairwise, bad, STEP)


def test_row_order_groups_by_shared_ranks():
    classes = triple_classes()
    order = compact.row_order(classes)
    assert np.array_equal(np.sort(order), np.arange(len(classes)))
    groups = sum(compact.share_rank(classes[order, s], classes[order, t]).astype(int) for s, t in compact.CORRECTION_SEATS)
    assert (np.diff(groups) >= 0).all() and np.bincount(groups).tolist()[0] > 0
    first = order[groups == 0]
    assert (np.diff(first) > 0).all(), "row order within a group"
    aks, ako, qq = 1, 13, 28  # AKs and AKo share both ranks; QQ shares none with them
    assert compact.share_rank(np.array([aks, aks]), np.array([ako, qq])).tolist() == [True, False]
