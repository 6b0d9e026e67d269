"""A stage's units of work, run in this process or as tasks on Dask distributed (:mod:`generator.compute.cluster`).

A unit is a function and its arguments (a slice of board classes and the kernel that counts it); its result is
whatever the function returns (integer tallies). An argument many units share (the push/fold tables' equity inputs)
goes through ``share`` first: on a cluster it is sent to each worker once, to a local pool's processes when they
start. :func:`unit_runner` gives the stage a ``run(function, units)`` that yields ``(index, result)`` as units
finish: in this process, one after the other in order; in a pool of spawned processes (``concurrent.futures``) or on
a cluster, every unit is submitted at once and results come back as processes or workers finish them (the scheduler
gives a dead worker's units to another). The stage merges them: integer sums do not depend on the order, and ``ordered=True`` hands them back
in unit order (for a checkpoint that holds a prefix of the units). Progress bars, checkpoints and Ctrl-C stay
with the stage: a stop between two results cancels the units still in flight.
"""

from __future__ import annotations

import multiprocessing
import os
import uuid
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from generator.compute.cluster import check_code_version, checked_call, connect, gpu_task_resources, worker_threads
from generator.core import interrupts


#: Thread counts of the BLAS libraries NumPy may use, and Numba's.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
LIBRARY_THREADS = BLAS_THREADS + ("NUMBA_NUM_THREADS",)
#: Seconds between two looks at a stop request while a pool's units run (a unit may run for minutes).
STOP_POLL_S = 0.25


@contextmanager
def single_threaded_children(names: tuple[str, ...] = LIBRARY_THREADS):
    """The environment a process spawned in the block inherits: one thread for each library of ``names`` (the
    cores are the processes')."""
    saved = {name: os.environ.get(name) for name in names}
    os.environ.update(dict.fromkeys(names, "1"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class InProcess:
    """Units computed here, in order."""

    #: Units the stage can keep busy at once (one; the kernels use every core inside a unit).
    parallelism = 1

    def __call__(self, function: Callable, units: Iterable[tuple], ordered: bool = False) -> Iterator[tuple[int, object]]:
        for index, unit in enumerate(units):
            yield index, function(*unit)

    def share(self, value):
        """``value`` as an argument of many units: here, itself."""
        return value


class Shared:
    """A value of :meth:`InProcesses.share`: its index in the values every process of the pool received at start."""

    def __init__(self, index: int):
        self.index = index


#: In a process of an :class:`InProcesses` pool: the values shared with it at its start.
_SHARED: list = []


def _receive_shared(values: list) -> None:
    """Runs once in each process of an :class:`InProcesses` pool, at its start."""
    _SHARED[:] = values


def _call_with_shared(function: Callable, *args):
    """Runs in a process of an :class:`InProcesses` pool: ``function(*args)``, each :class:`Shared` argument replaced
    by the value this process received at its start."""
    return function(*(_SHARED[arg.index] if isinstance(arg, Shared) else arg for arg in args))


class InProcesses:
    """Units computed by ``processes`` fresh processes of this machine, each with one thread per library (a
    ``concurrent.futures`` spawn pool, started on the first unit; the units' work is single-threaded)."""

    def __init__(self, processes: int):
        self.parallelism = processes
        self._shared: list = []
        self._executor: ProcessPoolExecutor | None = None
        self._children: set = set()

    def share(self, value) -> Shared:
        """``value`` as an argument of many units: sent to each process once, when it starts (so shared before the
        first unit)."""
        if self._executor is not None:
            raise RuntimeError("InProcesses.share after the first unit: the processes have their values already")
        self._shared.append(value)
        return Shared(len(self._shared) - 1)

    def __call__(self, function: Callable, units: Iterable[tuple], ordered: bool = False) -> Iterator[tuple[int, object]]:
        if self._executor is None:
            self._children = set(multiprocessing.active_children())
            self._executor = ProcessPoolExecutor(self.parallelism, multiprocessing.get_context("spawn"),
                                                 initializer=_receive_shared, initargs=(self._shared,))
        with single_threaded_children():  # the processes start as units are submitted
            futures = [self._executor.submit(_call_with_shared, function, *unit) for unit in units]
        index_of = {future: index for index, future in enumerate(futures)}
        try:
            for future in _as_finished(futures, ordered):
                yield index_of[future], future.result()
        finally:
            for future in futures:
                future.cancel()

    def close(self, stopped: bool) -> None:
        """Shut the processes down: after the last unit, once they are idle; on a stop or an error, at once (a unit
        may run for minutes)."""
        if self._executor is None:
            return
        if stopped:
            for child in set(multiprocessing.active_children()) - self._children:
                child.terminate()
        self._executor.shutdown(wait=True, cancel_futures=True)


def _as_finished(futures: list, ordered: bool) -> Iterator:
    """``futures`` as they finish (in their order if ``ordered``), waking every :data:`STOP_POLL_S` to honour a stop
    request: the signal may have landed on another thread, or been recorded and swallowed
    (:mod:`generator.core.interrupts`), and the next unit may be minutes away."""
    pending, next_index = set(futures), 0
    while next_index < len(futures):
        done, pending = wait(pending, STOP_POLL_S, FIRST_COMPLETED) if pending else (set(), pending)
        interrupts.check()
        if ordered:
            while next_index < len(futures) and futures[next_index].done():
                yield futures[next_index]
                next_index += 1
        else:
            yield from done
            next_index += len(done)


class OnCluster:
    """Units computed by Dask workers, each as one task ``checked_call(kernels, version, function, *unit)``; with
    ``resources`` (a GPU: :func:`generator.compute.cluster.gpu_task_resources`) only by the workers that declare them."""

    #: Times a shared value may be lost and sent again, and a unit cancelled and redone, before the stage gives up.
    MAX_RESENDS = 8

    def __init__(self, client, kernels: tuple[str, ...], version: str, resources: dict | None = None):
        self.client, self.kernels, self.version, self.resources = client, kernels, version, resources
        self._shared: dict[str, object] = {}  # key of a shared value's future → the value (to send it again)
        self._resent = 0

    @property
    def parallelism(self) -> int:
        """Worker threads the scheduler knows of now (of the workers that may take the units)."""
        return max(1, worker_threads(self.client, self.resources))

    def share(self, value):
        """``value`` as an argument of many units: sent to every worker once (``client.scatter``), each task then
        reads the worker's copy. The scheduler may later keep a single copy (its memory manager drops replicas); when
        the worker holding it dies, the units reading it are cancelled and :meth:`__call__` sends it again."""
        [future] = self.client.scatter([value], broadcast=True, hash=False)  # one piece, even a tuple of arrays
        self._shared[future.key] = value
        return future

    def _submit(self, function: Callable, unit: tuple, key: str):
        return self.client.submit(checked_call, self.kernels, self.version, function, *unit, pure=False,
                                  resources=self.resources, key=key)

    def _share_again(self, unit: tuple) -> tuple:
        """``unit`` with each of its shared values that was lost sent again (once per loss: the units after it then
        read the new copy)."""
        renewed = []
        for arg in unit:
            key = getattr(arg, "key", None)
            if key in self._shared and arg.status != "finished":
                if self._resent >= self.MAX_RESENDS:
                    raise RuntimeError(f"a value shared with the Dask workers was lost {self._resent} times: giving up")
                self._resent += 1
                arg = self.share(self._shared.pop(key))
            renewed.append(arg)
        return tuple(renewed)

    def __call__(self, function: Callable, units: Iterable[tuple], ordered: bool = False) -> Iterator[tuple[int, object]]:
        from distributed import as_completed

        run, units = uuid.uuid4().hex[:8], list(units)
        name = f"{function.__module__}.{function.__name__}-{run}"
        futures = [self._submit(function, unit, f"{name}-{index}") for index, unit in enumerate(units)]
        index_of = {future.key: index for index, future in enumerate(futures)}
        renewed: dict[str, object] = {}  # key of a lost shared value's future → its new future
        tries = [1] * len(units)
        waiting: dict[int, object] = {}  # ordered: results that arrived before an earlier unit's
        next_index = 0
        finished = as_completed(futures)
        try:
            for future in finished:
                index = index_of[future.key]
                try:
                    result = future.result()
                except CancelledError:  # an input was lost with a dead worker: send it again, redo the unit
                    if self.client.status != "running" or tries[index] > self.MAX_RESENDS:
                        raise  # the scheduler is gone (cluster.connect says so in one line), or the unit keeps failing
                    tries[index] += 1
                    unit = tuple(renewed.get(getattr(arg, "key", None), arg) for arg in units[index])
                    units[index] = self._share_again(unit)
                    renewed.update({arg.key: new for arg, new in zip(unit, units[index]) if new is not arg})
                    futures[index] = self._submit(function, units[index], f"{name}-{index}-again{self._resent}")
                    index_of[futures[index].key] = index
                    finished.add(futures[index])
                    continue
                future.release()  # the worker may drop its copy
                if not ordered:
                    yield index, result
                    continue
                waiting[index] = result
                while next_index in waiting:
                    yield next_index, waiting.pop(next_index)
                    next_index += 1
        finally:
            self.client.cancel([future for future in futures if not future.done()])


@contextmanager
def unit_runner(cluster: str | None, kernels: tuple[str, ...], processes: int = 1, gpu: bool = False):
    """``run(function, units, ordered=False)`` for ``cluster`` (None: here; else ``local:N`` or ``tcp://host:port``),
    after checking that every worker runs the client's code of ``kernels``; ``gpu``: the units run a GPU kernel, so on
    a cluster whose GPU workers declare it (``dask worker --resources GPU=1``) they go to those only. Here, ``processes`` above 1 runs the units
    in that many spawned processes of one thread each (for units whose work is single-threaded NumPy), else in this
    process. The runner's ``parallelism`` is how many units it can keep busy (to cut the work into enough of them)."""
    if cluster is None and processes > 1:
        pool = InProcesses(processes)
        try:
            yield pool
        except BaseException:
            pool.close(stopped=True)
            raise
        pool.close(stopped=False)
        return
    if cluster is None:
        yield InProcess()
        return
    with connect(cluster) as client:
        yield OnCluster(client, kernels, check_code_version(client, kernels), gpu_task_resources(client) if gpu else None)
