"""The multiway stage on Dask distributed: a `dask scheduler` and two `dask worker` processes on loopback
(tests/dask_helpers.py, as docs/cluster.md starts them), and `--cluster local:N`: the same counts as in-process,
workers and clients killed lose nothing done."""

import os
import signal
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from generator.compute.cluster import connect, parse_cluster
from generator.compute.stages import multiway as stage
from generator.compute.stages.multiway.checkpoint import MultiwayState
from generator.compute.stages.multiway.cluster import TASK_BLOCKS, ClusterSimulator
from generator.compute.stages.multiway.runner import StopPolicy, sample
from generator.compute.multiway_simulator import Simulator
from kernels.multiway.layout import BLOCK_DEALS
from multiway_helpers import linear_percentile
from test_multiway_stage import _run, _start_run, _wait_for, config  # noqa: F401  (config: the fixture)

SEED = 7


distributed = pytest.importorskip("distributed")
from dask_helpers import DaskProcesses  # noqa: E402  (needs distributed)


@pytest.fixture(scope="module")
def dask_processes(tmp_path_factory):
    with DaskProcesses(tmp_path_factory.mktemp("dask"), workers=2) as processes:
        yield processes


@pytest.fixture
def client(dask_processes):
    """A client of the module's scheduler (its two workers back to two after a test killed one), for one test of at
    most :data:`dask_helpers.TEST_LIMIT_S`."""
    dask_processes.wait_for_workers(2)
    with dask_processes.time_limit(), connect(dask_processes.address) as client:
        yield client


def _sample(state, simulator, blocks, on_progress=lambda progress: None):
    return sample(state, simulator, 0, StopPolicy(600, 0.0, blocks * BLOCK_DEALS), lambda s: None,
                  checkpoint_seconds=1e9, on_checkpoint=lambda: None, on_progress=on_progress)


def _in_process(blocks, start=None):
    state = start or MultiwayState(seed=SEED)
    _sample(state, Simulator("cpu", SEED, 0, linear_percentile()), blocks)
    return state


@pytest.mark.slow
def test_cluster_counts_are_byte_identical_to_an_in_process_run(client):
    """Tasks of 3 blocks arriving in any order, resumed from 2 blocks done, in two runs (to 11 blocks, then on to
    23): at every progress report the state holds exactly the tally of the blocks it says it holds (what a
    checkpoint would save), and ends as in-process. How many reports a run makes depends on the order its tasks
    arrive in (when its first task arrives last, the blocks join in one report), so each run is checked for one."""
    start = _in_process(2)
    state = MultiwayState(seed=SEED, tally=start.tally.copy(), blocks=dict(start.blocks))
    snapshots = []
    for blocks in (11, 23):  # a simulator each: the first one's release must not take the second's data with it
        reports = len(snapshots)
        simulator = ClusterSimulator(client, "cpu", SEED, 0, linear_percentile(), task_blocks=3)
        assert _sample(state, simulator, blocks, on_progress=lambda p: snapshots.append((state.blocks[0], state.tally.copy()))) == "deals"
        assert state.blocks == {0: blocks} and len(snapshots) > reports
    assert state.tally.dtype == np.int64 and snapshots[-1][0] == 23
    reference = MultiwayState(seed=SEED)
    for blocks, tally in snapshots:
        _in_process(blocks, start=reference)
        assert reference.blocks == {0: blocks} and np.array_equal(tally, reference.tally), blocks
    assert np.array_equal(state.tally, reference.tally)


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_nothing_reported_done(client):
    pids = client.run(os.getpid)
    killed = []

    def kill_a_worker(progress):
        if not killed:  # tasks are in flight on both workers: the first result is in
            killed.append(next(iter(pids.values())))
            os.kill(killed[0], signal.SIGKILL)

    state = MultiwayState(seed=SEED)
    _sample(state, ClusterSimulator(client, "cpu", SEED, 0, linear_percentile(), task_blocks=48), 384, kill_a_worker)
    assert killed and killed[0] not in client.run(os.getpid).values()  # a worker really died (and was replaced)
    reference = _in_process(384)
    assert state.blocks == reference.blocks and np.array_equal(state.tally, reference.tally)


@pytest.mark.slow
def test_a_lost_percentile_table_is_sent_again_and_the_counts_are_the_same(client):
    """The scheduler's memory manager may keep one replica of the scattered table; when the worker holding it dies,
    the tasks that read it are cancelled ("reason: unknown": the flaky failure of the killed-worker test). Released
    here on purpose mid-run, the table is sent again, the cancelled blocks redone, and the tally is the in-process one."""
    # 32 tasks, many more than the window in flight: tasks submitted after the loss read the lost table
    simulator = ClusterSimulator(client, "cpu", SEED, 0, linear_percentile(), task_blocks=2)
    first_table = simulator.percentile.key
    lost = []

    def lose_the_table(progress):
        if not lost:
            lost.append(simulator.percentile.key)
            client.cancel([simulator.percentile], force=True)

    state = MultiwayState(seed=SEED)
    _sample(state, simulator, 64, lose_the_table)
    assert lost == [first_table] and simulator.percentile.key != first_table  # it was lost, and sent again
    reference = _in_process(64)
    assert state.blocks == reference.blocks and np.array_equal(state.tally, reference.tally)


@pytest.mark.slow
@pytest.mark.parametrize("cluster", ["local:2", "the scheduler"])
def test_a_killed_client_is_resumed_by_a_rerun_to_the_same_counts(cluster, config, tmp_path, monkeypatch, request):  # noqa: F811
    """kill -9 of `allin compute multiway --cluster …` after its first checkpoint: with ``local:2`` its workers die
    with it; on the module's scheduler they keep running (and drop its tasks). The rerun resumes the checkpoint."""
    if cluster != "local:2":
        cluster = request.getfixturevalue("client").scheduler.address
    blocks = 3 * TASK_BLOCKS
    cache = tmp_path / "cache"
    # one task in flight at a time: the first save holds exactly the first task, two are still to come
    # (with a wider window a slow first task can let every other task arrive before the first save)
    process, marker = _start_run(config, tmp_path / "site", cache, "--deals", blocks * BLOCK_DEALS, "--cluster", cluster,
                                 new_session=True, PAUSE_AFTER_SAVE=1, CLUSTER_WINDOW=1)
    try:
        saved_blocks = int(_wait_for(marker, process))
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # kill -9 of the client (and its local workers)
        process.wait()
    checkpoint = cache / "multiway" / stage.checkpoint_path(99).name
    assert stage.MultiwayState.load(checkpoint).blocks[0] == saved_blocks == TASK_BLOCKS

    monkeypatch.setenv("ALLIN_CACHE_DIR", str(cache))
    _run(config, tmp_path / "site", max_deals=blocks * BLOCK_DEALS, cluster=cluster)
    resumed = stage.MultiwayState.load(checkpoint)
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "straight"))
    _run(config, tmp_path / "site-straight", max_deals=blocks * BLOCK_DEALS)
    straight = stage.MultiwayState.load(tmp_path / "straight" / "multiway" / checkpoint.name)
    assert resumed.blocks == straight.blocks == {0: blocks}
    assert np.array_equal(resumed.tally, straight.tally)


@pytest.mark.parametrize("spec", ["local:0", "local:x", "host:8786", "tcp://host", ""])
def test_a_bad_cluster_address_is_one_line_and_exit_2(spec, tmp_path):
    from generator.cli.compute import compute_multiway_command

    result = CliRunner().invoke(compute_multiway_command, ["--cluster", spec, "--site-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--cluster must be" in result.output and len(result.output.strip().splitlines()) == 1


def test_without_dask_the_option_says_how_to_install_it(tmp_path, monkeypatch):
    from generator.cli.compute import compute_multiway_command

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed → ImportError
    result = CliRunner().invoke(compute_multiway_command, ["--cluster", "local:2", "--site-dir", str(tmp_path)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "pip install -e '.[cluster]'" in result.output


def test_cluster_addresses_are_parsed():
    assert parse_cluster("local:4") == ("local", 4)
    assert parse_cluster("tcp://10.0.0.5:8786") == ("address", "tcp://10.0.0.5:8786")
