"""The threeway stage: resumable, mergeable checkpoints; the table derived from the counts."""

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from generator.build.stages import threeway
from kernels.cards import parse_class
from kernels.threeway.core import triple_index


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(threeway, "BATCH_BOARDS", 16)
    return tmp_path


@pytest.mark.slow
def test_a_resumed_run_equals_one_run_and_shards_merge(cache):
    tables = evaluator_tables()
    first = threeway.run_threeway(tables, boards=16, path=cache / "resumed.npz")
    resumed = threeway.run_threeway(tables, boards=48, path=cache / "resumed.npz")
    whole = threeway.run_threeway(tables, boards=48, path=cache / "whole.npz")
    assert first.total_boards == 16 and resumed.total_boards == whole.total_boards == 48
    assert np.array_equal(resumed.counts, whole.counts) and resumed.counts.sum() > first.counts.sum() > 0
    again = threeway.run_threeway(tables, boards=48, path=cache / "whole.npz")  # nothing left to do
    assert np.array_equal(again.counts, whole.counts)
    other = threeway.run_threeway(tables, boards=16, shard=3, path=cache / "other.npz")
    merged = threeway.merge_checkpoints(whole, other)
    assert merged.total_boards == 64 and np.array_equal(merged.counts, whole.counts + other.counts)
    assert not np.array_equal(other.counts, first.counts)  # another shard is another stream
    with pytest.raises(ValueError, match="counted twice"):
        threeway.merge_checkpoints(whole, resumed)


def test_table_equities_and_standard_errors(cache):
    checkpoint = threeway.run_threeway(evaluator_tables(), boards=32, path=cache / "t.npz")
    rows, _, compatible = threeway.possible_triples()
    table = threeway.threeway_table(checkpoint, compatible)
    sampled = table.samples > 0
    assert np.allclose(table.equity[sampled].sum(axis=1), 1.0)
    assert not np.any(table.samples[compatible == 0])  # card-impossible triples are never sampled
    impossible = triple_index(*sorted([parse_class("AA")] * 3))
    assert compatible[impossible] == 0 and table.equity[impossible].sum() == 0
    # se of one row from the per-sample pot shares, computed directly
    row = rows[np.argmax(table.samples[rows])]
    shares = np.repeat(threeway.ordering_shares(), checkpoint.counts[row].astype(np.int64), axis=0)  # (samples, 3)
    assert np.allclose(table.equity[row], shares.mean(axis=0))
    assert np.allclose(table.se[row], shares.std(axis=0) / np.sqrt(len(shares)))
    quantised = threeway.quantised_equities(table.equity)
    assert np.abs(quantised / threeway.QUANT - table.equity).max() <= threeway.QUANT_BOUND + 1e-12
