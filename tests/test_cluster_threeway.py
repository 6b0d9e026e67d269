"""The 3-way class-triple table on Dask distributed: a `dask scheduler` and two `dask worker` processes on loopback
(tests/dask_helpers.py, as docs/cluster.md starts them) count runs of boards; the checkpoint equals this process's
count of the same boards, and a run on the cluster continues a checkpoint begun in this process."""

import numpy as np
import pytest

from dask_helpers import DaskProcesses
from generator.compute.stages import threeway
from generator.core.evaluator_tables import evaluator_tables

distributed = pytest.importorskip("distributed")
SEED, BOARDS, PREFIX = 5, 64, 16


@pytest.mark.slow  # Dask processes: seconds to start
def test_the_3_way_table_on_a_scheduler_and_two_workers_continues_and_equals_the_in_process_run(tmp_path, monkeypatch):
    monkeypatch.setattr(threeway, "BATCH_BOARDS", 8)  # units of 12 boards: 4 of them for two workers
    tables = evaluator_tables()
    here = threeway.run_threeway(tables, BOARDS, SEED, path=tmp_path / "here.npz")  # also compiles what the workers load
    threeway.run_threeway(tables, PREFIX, SEED, path=tmp_path / "there.npz")
    processes = DaskProcesses(tmp_path, workers=2)
    try:
        with processes.time_limit(), distributed.get_task_stream(processes.client) as tasks:
            there = threeway.run_threeway(tables, BOARDS, SEED, path=tmp_path / "there.npz", cluster=processes.address)
    finally:
        processes.close()
    assert there.total_boards == here.total_boards == BOARDS and there.counts.sum() > 0
    assert np.array_equal(there.counts, here.counts)
    assert np.array_equal(threeway.load_checkpoint(tmp_path / "there.npz").counts, here.counts)  # saved as returned
    assert len(tasks.data) == 4 and len({task["worker"] for task in tasks.data}) == 2  # both workers counted boards
