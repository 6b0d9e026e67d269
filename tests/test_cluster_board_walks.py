"""The exact board walks (heads-up, three-handed, four-handed) on Dask distributed, run as docs/cluster.md tells an
author to: a `dask scheduler` and two `dask worker --nthreads 1` processes started here as separate OS processes,
on loopback TCP at a free port, each test bounded in time and every process killed at the end, also on failure.
The walks cover the first few board classes (seconds, not the full walk): the tallies and the published files
equal the in-process run's exactly; a worker killed with SIGKILL mid-walk changes nothing; a worker running other
kernel code is refused in one line; the scheduler killed mid-walk is one error line, exit 2, with the four-handed
checkpoint kept and resumed to the same counts; Ctrl-C between units is exit 130 and cancels the units in flight."""

from __future__ import annotations

import functools
import os
import shutil
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from generator.compute.cluster import CodeVersionMismatch, checked_call
from generator.compute import board_walk
from generator.compute.stages import fourhanded, headsup, threehanded
from generator.cli import main as cli
from generator.core import interrupts
from generator.core.storage import load_arrays
from kernels.cards import CLASS_COMBO_COUNT
from kernels.headsup import cpu as headsup_cpu
from kernels.headsup.tables import BOARDS_PER_MATCHUP, OPPONENT_COMBOS, HeadsupTables, compatible_pairs
from kernels.threehanded import cpu as threehanded_cpu

distributed = pytest.importorskip("distributed")
from dask_helpers import ROOT, DaskProcesses, published_files  # noqa: E402  (needs distributed)

#: Board classes the heads-up and three-handed walks cover here (40 units of 10 boards).
FIRST = 400
#: The four-handed walk here: its first board classes, in checkpointed slices.
FOURHANDED_BOARDS, FOURHANDED_SLICE = 24, 4
STAGES = {"headsup": headsup, "threehanded": threehanded, "fourhanded": fourhanded}
KERNEL_MODULES = {"headsup": headsup_cpu, "threehanded": threehanded_cpu}
STAGE_BARS = {"headsup": "heads-up boards", "threehanded": "three-handed boards", "fourhanded": "four-handed boards"}


@pytest.fixture(scope="module")
def module_processes(tmp_path_factory):
    with DaskProcesses(tmp_path_factory.mktemp("dask"), workers=2) as processes:
        yield processes


@pytest.fixture
def dask_processes(module_processes):
    """The module's scheduler and two workers, for one test of at most :data:`TEST_LIMIT_S`."""
    with module_processes.time_limit():
        yield module_processes


@pytest.fixture(scope="module")
def in_process_walk():
    """``walk(stage)``: the stage's walk of the first :data:`FIRST` board classes in this process, computed at the first
    request (which also compiles the kernel the workers then load from the shared Numba cache)."""
    return functools.cache(lambda stage: board_walk.walk_board_orbits(
        KERNEL_MODULES[stage].tally_boards, stage, False, None, STAGES[stage].KERNELS, first=FIRST))


#: ``compatible_pairs()`` once (a second of matrix products per call).
_compatible_pairs = functools.cache(compatible_pairs)


def _tables_of_part_of_a_walk(win, tie, win_vs_random, tie_vs_random) -> HeadsupTables:
    """``assemble_tables`` for the first boards only: its checks hold for a whole walk (every combo pair meets every
    board), so here the tallies as they are, with the losses and totals they imply."""
    pairs = _compatible_pairs()
    per_combo_win, per_combo_tie = win_vs_random // CLASS_COMBO_COUNT, tie_vs_random // CLASS_COMBO_COUNT
    total = np.full(len(CLASS_COMBO_COUNT), OPPONENT_COMBOS * BOARDS_PER_MATCHUP, dtype=np.int64)
    return HeadsupTables(per_combo_win, per_combo_tie, total - per_combo_win - per_combo_tie, total,
                         win, tie, pairs * BOARDS_PER_MATCHUP - win - tie, pairs)


@contextmanager
def _few_boards():
    """The stages walk only their first board classes (the four-handed one in small slices); the units carry their
    boards, so the workers count exactly these."""
    boards, weights = board_walk.board_classes()
    with pytest.MonkeyPatch.context() as patch:
        for stage in (headsup, threehanded):
            patch.setattr(stage, "walk_board_orbits", functools.partial(board_walk.walk_board_orbits, first=FIRST))
        patch.setattr(headsup, "assemble_tables", _tables_of_part_of_a_walk)
        patch.setattr(fourhanded, "board_classes", lambda: (boards[:FOURHANDED_BOARDS], weights[:FOURHANDED_BOARDS]))
        patch.setattr(fourhanded, "SLICE_BOARDS", {"cpu": FOURHANDED_SLICE})
        yield patch


def _compute(stage: str, work: Path, *options: str):
    """``allin compute STAGE`` with its own cache and site folders under ``work``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ALLIN_CACHE_DIR", str(work / "cache"))
        result = CliRunner().invoke(cli, ["compute", stage, "--site-dir", str(work / "site"), *options])
    interrupts.reset()  # a stop the command honoured (exit 130) is forgotten
    return result


@pytest.fixture(scope="module")
def in_process_run(tmp_path_factory):
    """``run(stage)``: the folder of ``allin compute STAGE`` run in this process on the few boards, at the first
    request (pytest-xdist may give the tests of one stage to another process)."""

    @functools.cache
    def run(stage: str) -> Path:
        work = tmp_path_factory.mktemp(f"in-process-{stage}")
        with _few_boards():
            result = _compute(stage, work)
        assert result.exit_code == 0, result.output
        return work

    return run


@contextmanager
def _on_progress(stage_module, action=lambda done: None, after: int = 1):
    """Call ``action(done)`` once, when the stage's progress bar reports its ``after``-th unit done; yields the
    boards done at each report."""
    real, reports = stage_module.progress_bar, []

    @contextmanager
    def progress_bar(*args, **kwargs):
        with real(*args, **kwargs) as advance:
            def watched(done, total=None):
                if done:
                    reports.append(done)
                    if len(reports) == after:
                        action(done)
                advance(done, total)

            yield watched

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stage_module, "progress_bar", progress_bar)
        yield reports


@pytest.fixture
def reference_walk(stage, in_process_walk):
    """The in-process walk of ``stage``, made before :func:`dask_processes` starts the test's time limit (it compiles the
    kernel), as :func:`reference_run`."""
    return in_process_walk(stage)


@pytest.fixture
def reference_run(stage, in_process_run):
    """The in-process run of ``stage``, made before :func:`dask_processes` starts the test's time limit: it compiles the
    stage's kernel (the workers then load it), which took up to 2 minutes for the four-handed walk on a loaded
    machine and, inside the limit, got the Dask processes killed mid-test."""
    return in_process_run(stage)


def _error_lines(output: str, stage: str) -> list[str]:
    """The output's lines other than the stage's progress bar (drawn on stderr, which the runner captures too)."""
    return [line for line in output.splitlines() if line.strip() and f"{STAGE_BARS[stage]}:" not in line]


def _cached(run: Path, stage: str) -> dict:
    files = sorted((run / "cache").glob(f"{stage}-*.npz"))
    assert len(files) == 1, files
    return {name: array for name, array in load_arrays(files[0]).items() if name != "meta"}


@pytest.mark.slow  # Dask processes: seconds to start
@pytest.mark.parametrize("stage", ["headsup", "threehanded"])
def test_a_walk_on_a_scheduler_and_two_worker_processes_equals_the_in_process_walk(stage, reference_walk, dask_processes):
    reference, kernel = reference_walk, KERNEL_MODULES[stage]
    with distributed.get_task_stream(dask_processes.client) as tasks:
        tallies = board_walk.walk_board_orbits(kernel.tally_boards, stage, False, dask_processes.address,
                                               STAGES[stage].KERNELS, first=FIRST)
    assert len(tallies) == len(reference) and all(a.dtype == np.int64 for a in tallies)
    assert all(np.array_equal(a, b) for a, b in zip(tallies, reference))
    assert len(tasks.data) == board_walk.SLICES and len({task["worker"] for task in tasks.data}) == 2  # both counted


@pytest.mark.slow  # Dask processes: seconds to start
@pytest.mark.parametrize("stage", list(STAGES))
def test_allin_compute_on_the_cluster_publishes_the_files_of_the_in_process_run(stage, reference_run, dask_processes,
                                                                                tmp_path):
    reference = reference_run
    with _few_boards():
        result = _compute(stage, tmp_path, "--cluster", dask_processes.address)
    assert result.exit_code == 0, result.output
    published = published_files(tmp_path / "site" / "data")
    assert f"{stage}.json" in published and published == published_files(reference / "site" / "data")
    cached, reference_cached = _cached(tmp_path, stage), _cached(reference, stage)
    assert cached.keys() == reference_cached.keys()
    assert all(np.array_equal(cached[name], reference_cached[name]) for name in cached)
    assert not list((tmp_path / "cache").glob("*.partial.npz"))  # the four-handed checkpoint is gone once whole


@pytest.mark.slow  # Dask processes: seconds to start
@pytest.mark.parametrize("stage", ["headsup"])
def test_a_worker_killed_mid_walk_changes_no_count(stage, reference_walk, dask_processes):
    reference = reference_walk
    killed = []

    def kill_a_busy_worker(done):
        busy = [address for address, keys in dask_processes.client.processing().items() if keys]
        pid = dask_processes.workers()[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.append((pid, done))

    with _on_progress(board_walk, kill_a_busy_worker, after=1):
        tallies = board_walk.walk_board_orbits(headsup_cpu.tally_boards, "headsup", True, dask_processes.address,
                                               headsup.KERNELS, first=FIRST)
    (pid, done), = killed
    assert done < FIRST and pid not in dask_processes.workers().values()  # killed mid-walk, and it is gone
    assert all(np.array_equal(a, b) for a, b in zip(tallies, reference))
    dask_processes.wait_for_workers(2)  # its nanny starts a new one, for the tests after this one


@pytest.mark.slow  # Dask processes: seconds to start
def test_a_worker_running_other_kernel_code_is_refused_in_one_line(dask_processes, tmp_path):
    checkout = tmp_path / "other-checkout"
    for package in ("generator", "kernels"):
        shutil.copytree(ROOT / package, checkout / package, ignore=shutil.ignore_patterns("__pycache__"))
    with (checkout / "kernels" / "headsup" / "cpu.py").open("a") as source:
        source.write("\n# an edit the client's checkout does not have\n")
    before = set(dask_processes.workers())
    other = dask_processes.add_worker(cwd=checkout, PYTHONPATH=str(checkout))
    try:
        dask_processes.wait_for_workers(3)
        (address,) = set(dask_processes.workers()) - before
        with _few_boards():
            result = _compute("headsup", tmp_path / "run", "--cluster", dask_processes.address)
    finally:
        dask_processes.kill(other)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert f"Dask worker {address} runs other kernel code" in result.output
    assert not (tmp_path / "run" / "site" / "data" / "headsup.json").exists()
    assert not list((tmp_path / "run" / "cache").glob("headsup-*"))
    dask_processes.wait_for_workers(2)


@pytest.mark.parametrize("stage", list(STAGES))
def test_a_bad_cluster_address_is_one_line_and_exit_2(stage, tmp_path):
    result = _compute(stage, tmp_path, "--cluster", "host:8786")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert "--cluster must be local:N" in result.output and not (tmp_path / "cache").exists()


def test_a_task_on_a_worker_of_other_code_is_refused():
    """A worker that joins after the check is refused by the task itself."""
    with pytest.raises(CodeVersionMismatch, match="runs other kernel code"):
        checked_call(headsup.KERNELS, "0" * 16, pytest.fail, "the unit ran")
    assert checked_call(headsup.KERNELS, headsup.CODE_VERSION, int, "7") == 7


@pytest.mark.slow  # Dask processes: seconds to start
def test_ctrl_c_between_units_is_exit_130_and_cancels_the_units_in_flight(dask_processes, tmp_path):
    def request_a_stop(done):
        interrupts._Requests.signal = signal.SIGINT  # what the handler records for a Ctrl-C it could not raise

    with _few_boards(), _on_progress(board_walk, request_a_stop, after=1) as reports:
        result = _compute("headsup", tmp_path, "--cluster", dask_processes.address)
    assert result.exit_code == 130 and len(reports) == 1 and "Traceback" not in result.output, result.output
    assert _error_lines(result.output, "headsup") == [
        "Interrupted: finished stages and saved checkpoints are kept; rerun to continue."]
    assert not list((tmp_path / "cache").glob("headsup-*"))
    deadline = time.monotonic() + 30  # the client cancelled the rest: the scheduler forgets them
    while dask_processes.client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
        assert time.monotonic() < deadline, "units of the stopped walk still on the scheduler"
        time.sleep(0.2)


@pytest.mark.slow  # Dask processes: seconds to start
def test_the_scheduler_killed_mid_walk_is_one_error_line_and_the_checkpoint_resumes(tmp_path, in_process_run):
    """Its own scheduler (the one killed) and worker. The four-handed walk saves each slice in order: what was saved
    before the kill stays, nothing is published, and a rerun (here in this process) continues to the same counts."""
    reference = published_files(in_process_run("fourhanded") / "site" / "data")
    (tmp_path / "dask").mkdir()
    processes = DaskProcesses(tmp_path / "dask", workers=1)
    try:
        with processes.time_limit(), _few_boards(), _on_progress(fourhanded, lambda done: processes.kill(processes.scheduler), after=2):
            result = _compute("fourhanded", tmp_path, "--cluster", processes.address)
    finally:
        processes.close()
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (line,) = _error_lines(result.output, "fourhanded")
    assert line.startswith(f"Error: --cluster {processes.address}: lost the Dask scheduler mid-stage"), line
    assert not (tmp_path / "site" / "data" / "fourhanded.json").exists()
    assert not [path for path in (tmp_path / "cache").glob("fourhanded-*.npz") if ".partial" not in path.name]
    (partial,) = (tmp_path / "cache").glob("fourhanded-*.partial.npz")
    saved = int(load_arrays(partial)["boards"])
    assert 2 * FOURHANDED_SLICE <= saved < FOURHANDED_BOARDS and saved % FOURHANDED_SLICE == 0

    with _few_boards(), _on_progress(fourhanded) as reports:
        result = _compute("fourhanded", tmp_path)
    assert result.exit_code == 0, result.output
    assert reports[:2] == [saved, saved + FOURHANDED_SLICE]  # resumed after the saved slices, not from the start
    assert published_files(tmp_path / "site" / "data") == reference
