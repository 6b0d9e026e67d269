"""The 3-way class-triple table on Dask distributed: a `dask scheduler` and two `dask worker` processes on loopback
(tests/dask_helpers.py, as docs/cluster.md starts them) count runs of boards; the checkpoint equals this process's
count of the same boards, a run on the cluster continues a checkpoint begun in this process, a worker killed
mid-run changes no count, and a lost scheduler keeps what was merged."""

import os
import signal

import numpy as np
import pytest

from dask_helpers import DaskProcesses
from generator.compute.cluster import SchedulerLost
from generator.compute.stages import threeway
from generator.core.evaluator_tables import evaluator_tables

distributed = pytest.importorskip("distributed")
SEED, BOARDS, PREFIX = 5, 64, 16


@pytest.mark.slow  # Dask processes: seconds to start
def test_the_3_way_table_on_a_scheduler_and_two_workers_continues_and_equals_the_in_process_run(tmp_path, monkeypatch):
    """Continued from a checkpoint of this process, from nothing with a worker killed mid-run (kill -9), and with the
    scheduler killed after the first run (one error; the saved runs resumed here): the counts equal this process's."""
    monkeypatch.setattr(threeway, "BATCH_BOARDS", 8)  # units of 12 boards: 4 of them for two workers
    tables = evaluator_tables()
    here = threeway.run_threeway(tables, BOARDS, SEED, path=tmp_path / "here.npz")  # also compiles what the workers load
    threeway.run_threeway(tables, PREFIX, SEED, path=tmp_path / "there.npz")
    processes = DaskProcesses(tmp_path, workers=2)
    killed = []

    def kill_a_busy_worker(done):
        """kill -9 of a worker still counting a run of boards, once the first run is in."""
        busy = [address for address, keys in processes.client.processing().items() if keys]
        if not killed and busy:
            killed.append((processes.workers()[busy[0]], done))
            os.kill(killed[0][0], signal.SIGKILL)

    try:
        with processes.time_limit():
            with distributed.get_task_stream(processes.client) as tasks:
                there = threeway.run_threeway(tables, BOARDS, SEED, path=tmp_path / "there.npz", cluster=processes.address)
            survived = threeway.run_threeway(tables, BOARDS, SEED, advance=kill_a_busy_worker,
                                             path=tmp_path / "killed.npz", cluster=processes.address)
            (pid, done), = killed
            assert done < BOARDS and pid not in processes.workers().values()  # killed mid-run, and it is gone

            def lose_the_scheduler(done):
                lost.append(done)
                processes.kill(processes.scheduler)

            lost = []
            with pytest.raises(SchedulerLost, match="lost the Dask scheduler mid-stage"):
                threeway.run_threeway(tables, BOARDS, SEED, advance=lose_the_scheduler, path=tmp_path / "lost.npz",
                                      cluster=processes.address)
    finally:
        processes.close()
    saved = threeway.load_checkpoint(tmp_path / "lost.npz")
    assert saved.total_boards == lost[-1] < BOARDS  # every run merged before the loss, saved
    resumed = threeway.run_threeway(tables, BOARDS, SEED, path=tmp_path / "lost.npz")  # on in process
    assert np.array_equal(resumed.counts, here.counts)
    assert there.total_boards == here.total_boards == BOARDS and there.counts.sum() > 0
    assert np.array_equal(there.counts, here.counts)
    assert np.array_equal(threeway.load_checkpoint(tmp_path / "there.npz").counts, here.counts)  # saved as returned
    assert len(tasks.data) == 4 and len({task["worker"] for task in tasks.data}) == 2  # both workers counted boards
    assert survived.total_boards == BOARDS and np.array_equal(survived.counts, here.counts)  # the lost run recounted


#: The client in a child process: ``run_threeway`` of :data:`BOARDS` boards on the cluster, saving after every run of
#: boards; once its first run on the cluster is saved it writes the marker and waits to be killed.
CLIENT_SCRIPT = """
import sys, time
from pathlib import Path
from generator.compute.stages import threeway
from generator.core.evaluator_tables import evaluator_tables

address, path, marker, boards, seed = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
threeway.BATCH_BOARDS, threeway.SAVE_EVERY_S = 8, 0.0
reports = []

def advance(done):
    reports.append(done)
    if len(reports) == 2:  # the first run was saved when the second one came in
        marker.write_text(str(reports[0]))
        time.sleep(600)

threeway.run_threeway(evaluator_tables(), boards, seed, advance=advance, path=path, cluster=address)
"""


@pytest.mark.slow  # Dask processes: seconds to start
def test_a_killed_client_is_resumed_by_a_rerun_to_the_same_counts(tmp_path, monkeypatch):
    """kill -9 of the client mid-run (the scheduler and its workers keep running, and drop its tasks): the checkpoint
    holds what it had saved, whole, and a rerun on the same cluster continues it to the in-process counts."""
    import subprocess
    import sys
    import time

    monkeypatch.setattr(threeway, "BATCH_BOARDS", 8)
    tables = evaluator_tables()
    here = threeway.run_threeway(tables, BOARDS, SEED, path=tmp_path / "here.npz")  # also compiles what the workers load
    path, marker = tmp_path / "killed.npz", tmp_path / "marker"
    threeway.run_threeway(tables, PREFIX, SEED, path=path)
    with DaskProcesses(tmp_path, workers=2) as processes, processes.time_limit():
        client = subprocess.Popen([sys.executable, "-c", CLIENT_SCRIPT, processes.address, str(path), str(marker),
                                   str(BOARDS), str(SEED)], start_new_session=True)
        try:
            while not marker.exists():
                assert client.poll() is None, "the client ended before its first save"
                time.sleep(0.05)
        finally:
            processes.kill(client)  # kill -9
        saved = threeway.load_checkpoint(path)
        assert PREFIX < saved.total_boards == int(marker.read_text()) < BOARDS  # the saved runs, nothing more
        assert len(processes.workers()) == 2
        resumed = threeway.run_threeway(tables, BOARDS, SEED, path=path, cluster=processes.address)
    assert resumed.total_boards == BOARDS and np.array_equal(resumed.counts, here.counts)
    assert np.array_equal(threeway.load_checkpoint(path).counts, here.counts)
