"""The threeway stage: resumable, mergeable checkpoints; the table derived from the counts."""

import signal

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages import threeway
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


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("at_batch", [1, 2])
def test_a_stop_as_a_batch_ends_then_a_resume_equals_one_run(cache, monkeypatch, signum, at_batch):
    """A stop signal landing just as a batch's counts are in (the moment that double-counted a batch before: the
    counts saved, the boards done not advanced) is honoured after the batch is booked; the resumed checkpoint then
    equals an uninterrupted run's, counts and boards."""
    import kernels.threeway.cpu as engine
    from generator.core import interrupts

    tables = evaluator_tables()
    whole = threeway.run_threeway(tables, boards=64, path=cache / "whole.npz")
    simulate, calls = engine.simulate, []

    def simulate_then_stop(*args):
        simulate(*args)
        calls.append(1)
        if len(calls) == at_batch:
            signal.raise_signal(signum)  # delivered at the next bytecode: as the kernel returns

    monkeypatch.setattr(engine, "simulate", simulate_then_stop)
    previous = interrupts.install()
    try:
        with pytest.raises(KeyboardInterrupt):
            threeway.run_threeway(tables, boards=64, path=cache / "stopped.npz")
    finally:
        interrupts.restore(previous)
        interrupts.reset()
    stopped = threeway.load_checkpoint(cache / "stopped.npz")
    assert stopped.total_boards == 16 * at_batch  # the batch that was running when the stop came is kept, once
    monkeypatch.setattr(engine, "simulate", simulate)
    resumed = threeway.run_threeway(tables, boards=64, path=cache / "stopped.npz")
    assert resumed.total_boards == whole.total_boards == 64 and np.array_equal(resumed.counts, whole.counts)


def test_a_damaged_checkpoint_is_named_in_one_warning_and_counted_again(cache, capsys):
    """As every cache (README): a checkpoint that fails to load is rebuilt, not a traceback at every later run."""
    tables = evaluator_tables()
    path = cache / "damaged.npz"
    whole = threeway.run_threeway(tables, boards=32, path=cache / "whole.npz")
    path.write_bytes(b"PK\x03\x04 not a zip any more")
    rebuilt = threeway.run_threeway(tables, boards=32, path=path)
    assert rebuilt.total_boards == 32 and np.array_equal(rebuilt.counts, whole.counts)
    warning = capsys.readouterr().err.strip().splitlines()
    assert len(warning) == 1 and warning[0].startswith("warning: ") and warning[0].endswith("; rebuilding it")
    assert np.array_equal(threeway.load_checkpoint(path).counts, whole.counts)  # and saved whole again
