"""The local runners of a stage's units (generator/compute/units.py): in this process, and in a pool of spawned
processes (the push/fold tables, the certificates, the thresholds' antes)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from dask_helpers import DaskProcesses
from generator.compute.cluster import gpu_task_resources, gpu_workers, undo_nanny_malloc_trim
from generator.compute.units import InProcess, InProcesses, unit_runner
from generator.core import interrupts
from signal_state import kernel_stop_state

#: Kernels whose code version the workers are checked for (any module will do: the units here are os.getpid).
KERNELS = ("kernels.cards",)


def scaled_sum(table: np.ndarray, factor: int) -> tuple[int, str | None]:
    """A unit: ``factor`` × the sum of a shared table, and the process's Numba thread count."""
    return int(table.sum()) * factor, os.environ.get("NUMBA_NUM_THREADS")


def sleep_then_return(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_in_process_runs_the_units_in_order_and_shares_the_value_itself():
    with unit_runner(None, ()) as run:
        assert isinstance(run, InProcess)
        table = np.arange(10)
        assert run.share(table) is table
        assert list(run(scaled_sum, [(table, 1), (table, 3)])) == [(0, (45, os.environ.get("NUMBA_NUM_THREADS"))),
                                                                (1, (135, os.environ.get("NUMBA_NUM_THREADS")))]


def test_spawned_processes_receive_the_shared_value_and_run_one_thread_each():
    table = np.arange(1000, dtype=np.int64)
    with unit_runner(None, (), processes=2) as run:
        assert isinstance(run, InProcesses) and run.parallelism == 2
        shared = run.share(table)
        results = dict(run(scaled_sum, [(shared, factor) for factor in range(6)]))
        in_order = list(run(scaled_sum, [(shared, factor) for factor in range(6)], ordered=True))
        with pytest.raises(RuntimeError, match="after the first unit"):
            run.share(table)
    assert results == {factor: (499500 * factor, "1") for factor in range(6)}
    assert [index for index, _ in in_order] == list(range(6))
    assert multiprocessing.active_children() == []  # shut down with the block


def sleep_from_then_return(started: str, seconds: float) -> float:
    """A unit that says it started (a file named by its process in the folder ``started``), then sleeps."""
    (Path(started) / str(os.getpid())).touch()
    return sleep_then_return(seconds)


def test_a_stop_ends_the_processes_at_once_not_after_their_units(tmp_path):
    """Ctrl-C (or an error) in the stage ends the units in flight: a push/fold group may run for minutes. The stop
    handler is installed as every ``allin`` command installs it (:mod:`generator.core.interrupts`), which also gives
    SIGINT back to Python where something beneath it had set it ignored (found so in a pytest worker after 20 minutes
    of other tests: ``SigIgn`` with Python's handler still the default). The SIGINT is sent once both processes are
    inside a unit, to this process only (as a SIGTERM would be)."""

    def stop_once_both_units_run():
        while len(list(tmp_path.iterdir())) < 2:
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    previous = interrupts.install()
    try:
        state = kernel_stop_state()
        assert state["SigCgt"] & 2 and not state["SigBlk"] & 2 and not state["SigIgn"] & 2, f"SIGINT not caught: {state}"
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            with unit_runner(None, (), processes=2) as run:
                threading.Thread(target=stop_once_both_units_run, daemon=True).start()
                for _ in run(sleep_from_then_return, [(str(tmp_path), 120.0)] * 3):
                    pass
                raise AssertionError(f"the units were not stopped; SIGINT here after them: {kernel_stop_state()}")
    finally:
        interrupts.restore(previous)
        interrupts.reset()
    assert multiprocessing.active_children() == []
    assert time.perf_counter() - started < 60  # the units sleep 120 s each: the processes were terminated, not awaited


def test_gpu_units_go_only_to_the_workers_that_declare_a_gpu(tmp_path):
    """`dask worker --resources GPU=1`: a stage's GPU units (``--backend gpu``) run there only, its other units on any
    worker; where no worker declares a GPU, every worker is taken to have one (no task waits for ever)."""
    processes = DaskProcesses(tmp_path, workers=1)
    try:
        with processes.time_limit():
            assert gpu_task_resources(processes.client) is None
            with unit_runner(processes.address, KERNELS, gpu=True) as run:
                assert run.parallelism == 1
                assert {pid for _, pid in run(os.getpid, [()] * 4)} == set(processes.workers().values())
            processes.add_worker(resources=("--resources", "GPU=1"))
            processes.wait_for_workers(2)
            pids = processes.workers()
            (gpu_worker,) = gpu_workers(processes.client)
            with unit_runner(processes.address, KERNELS, gpu=True) as run:
                assert run.parallelism == 1
                assert {pid for _, pid in run(os.getpid, [()] * 8)} == {pids[gpu_worker]}
            with unit_runner(processes.address, KERNELS) as run:
                assert run.parallelism == 2
                assert {pid for _, pid in run(os.getpid, [()] * 8)} <= set(pids.values())
    finally:
        processes.close()


MAPPED_SCRIPT = r"""
import ctypes, ctypes.util, os, re, tempfile
import numpy as np
from generator.compute.cluster import undo_nanny_malloc_trim

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.fopen.restype, libc.fopen.argtypes = ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes, libc.fclose.argtypes = [ctypes.c_int, ctypes.c_void_p], [ctypes.c_void_p]

def mapped_blocks():
    # glibc's count of the blocks now held in mappings of their own (malloc_info)
    path = tempfile.mktemp()
    report = libc.fopen(path.encode(), b"w")
    libc.malloc_info(0, report)
    libc.fclose(report)
    with open(path) as file:
        text = file.read()
    os.unlink(path)
    return int(re.search(r'<total type="mmap" count="(\d+)"', text).group(1))

def mapped_of_two_live_arrays():
    # of two live 8 MiB arrays, allocated around a freed 8 MiB temporary, how many are mappings of their own
    before = mapped_blocks()
    first = np.ones(2**20); np.ones(2**20).sum(); second = np.ones(2**20)
    return mapped_blocks() - before

pinned = mapped_of_two_live_arrays()
undo_nanny_malloc_trim()
print(pinned, mapped_of_two_live_arrays())
"""


def test_a_worker_undoes_its_nanny_s_malloc_trim_setting():
    """Under ``MALLOC_TRIM_THRESHOLD_=65536`` (what a Dask nanny gives its worker) glibc keeps every block over 128 KiB
    in a mapping of its own, mapped and unmapped with each large temporary; after :func:`undo_nanny_malloc_trim` they
    come from the heap (glibc's own count of mapped blocks, not time)."""
    env = dict(os.environ, MALLOC_TRIM_THRESHOLD_="65536")
    result = subprocess.run([sys.executable, "-c", MAPPED_SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["2", "0"]


def test_dask_workers_are_started_with_the_setting_undone_by_their_first_task(tmp_path):
    """The setting is there on a `dask worker` (so the undoing is needed), and a unit's call undoes it once."""
    with DaskProcesses(tmp_path, workers=1) as processes, processes.time_limit():
        assert set(processes.client.run(os.getenv, "MALLOC_TRIM_THRESHOLD_").values()) == {"65536"}
        with unit_runner(processes.address, KERNELS) as run:
            list(run(os.getpid, [()]))
        (info,) = processes.client.run(lambda: undo_nanny_malloc_trim.cache_info().misses).values()
        assert info == 1


def test_a_shared_value_lost_on_the_cluster_is_sent_again_and_its_units_redone(tmp_path):
    """The scheduler's memory manager may keep one copy of a shared value; when the worker holding it dies, the units
    reading it are cancelled. Lost on purpose here (forgotten by the scheduler) after the first result: the value is
    sent again, the cancelled units redone, every result right."""

    def slow_scaled_sum(table: np.ndarray, factor: int) -> int:  # a local function: the workers get its code
        time.sleep(0.2)
        return int(table.sum()) * factor

    with DaskProcesses(tmp_path, workers=2) as processes, processes.time_limit():
        with unit_runner(processes.address, KERNELS) as run:
            shared = run.share(np.arange(1000, dtype=np.int64))
            results = {}
            for index, result in run(slow_scaled_sum, [(shared, factor) for factor in range(12)]):
                if not results:
                    run.client.cancel([shared], force=True)
                results[index] = result
            resent = run._resent
    assert results == {factor: 499500 * factor for factor in range(12)}
    assert resent == 1  # once, though several units had read it
