"""Connecting a stage to Dask distributed: ``--cluster local:N`` or ``--cluster tcp://host:port``.

``local:N`` starts a ``LocalCluster`` of N one-thread worker processes on this machine; ``tcp://host:port`` joins
a running ``dask scheduler`` and the ``dask worker`` processes attached to it (docs/cluster.md). Workers import this
project from their own checkout, so before a stage sends them work :func:`check_code_version` compares the code
version of the stage's kernels on every worker with the client's (:func:`generator.core.provenance.code_version`),
and refuses a worker that runs other code. Losing the scheduler mid-stage ends the stage with one error line
(:class:`SchedulerLost`, exit 2); what the stage had saved (a checkpoint) stays, nothing half-written is published.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import os
import re
from contextlib import contextmanager

from generator.core.errors import InputError
from generator.core.provenance import code_version

INSTALL_HINT = "--cluster needs Dask's distributed scheduler: pip install -e '.[cluster]' (or pip install 'dask[distributed]')"


class SchedulerLost(InputError):
    """The connection to the Dask scheduler was lost while a stage ran (one line, exit 2)."""


class CodeVersionMismatch(InputError):
    """A worker runs other kernel code than the client (one line, exit 2); raised on the client, or by a task
    on a worker that joined after the check."""


def parse_cluster(spec: str) -> tuple[str, int | str]:
    """``local:N`` → ("local", N); ``tcp://host:port`` (or ``tls://``) → ("address", spec)."""
    local = re.fullmatch(r"local:(\d+)", spec.strip())
    if local and 1 <= int(local.group(1)) <= 1024:
        return "local", int(local.group(1))
    if re.fullmatch(r"(tcp|tls)://[^\s/:]+:\d+", spec.strip()):
        return "address", spec.strip()
    raise InputError(f"--cluster must be local:N (N workers on this machine) or tcp://host:port of a Dask scheduler, got {spec!r}")


def require_distributed():
    """The ``distributed`` module, or the one-line install hint as an :class:`InputError`."""
    try:
        import distributed
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    return distributed


@contextmanager
def connect(spec: str):
    """A Dask client for ``spec``: a ``LocalCluster`` of N one-thread worker processes (Numba's threads split
    between them), or the scheduler at the address. Closed (and a local cluster shut down) on exit. An error
    raised inside the block after the connection to the scheduler was lost becomes :class:`SchedulerLost`."""
    kind, where = parse_cluster(spec)
    distributed = require_distributed()
    if kind == "local":
        numba_threads = max(1, (os.cpu_count() or 1) // where)
        with distributed.LocalCluster(
            n_workers=where, threads_per_worker=1, processes=True, dashboard_address=None,
            env={"NUMBA_NUM_THREADS": str(numba_threads)},
        ) as cluster, distributed.Client(cluster) as client:
            yield client
        return
    try:
        client = distributed.Client(where, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise InputError(f"--cluster {where}: cannot reach the Dask scheduler ({type(exc).__name__}: {exc})") from None
    try:
        yield client
    except Exception as exc:
        if client.status == "running":
            raise
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise SchedulerLost(f"--cluster {where}: lost the Dask scheduler mid-stage ({first}); "
                            "what the stage had saved is kept: rerun once it is back") from None
    finally:
        close_quietly(client)


def close_quietly(client) -> None:
    """Close ``client``; a client that lost its scheduler logs its cancelled reconnection as tracebacks, which say
    nothing the error line does not."""
    if client.status == "running":
        client.close()
        return
    logging.disable(logging.CRITICAL)
    try:
        client.close()
    finally:
        logging.disable(logging.NOTSET)


@functools.cache
def worker_code_version(kernels: tuple[str, ...]) -> str:
    """Runs on a worker: the code version of ``kernels`` in the checkout this worker process imports (once per
    process: the code it has loaded)."""
    return code_version(*kernels)


def check_code_version(client, kernels: tuple[str, ...]) -> str:
    """The client's code version of ``kernels``; raises :class:`CodeVersionMismatch` naming a worker that computes
    another one from its checkout."""
    ours = code_version(*kernels)
    theirs = client.run(worker_code_version, kernels)
    others = sorted(address for address, version in theirs.items() if version != ours)
    if others:
        more = f" (and {len(others) - 1} more)" if len(others) > 1 else ""
        raise CodeVersionMismatch(
            f"Dask worker {others[0]}{more} runs other kernel code (code version {theirs[others[0]]}, this checkout "
            f"{ours}): start every worker from the client's commit")
    return ours


#: The resource a GPU worker declares (``dask worker --resources GPU=1``).
GPU_RESOURCE = "GPU"


def gpu_workers(client) -> list[str]:
    """Addresses of the workers that declare :data:`GPU_RESOURCE`."""
    return [address for address, worker in client.scheduler_info()["workers"].items()
            if worker.get("resources", {}).get(GPU_RESOURCE)]


def gpu_task_resources(client) -> dict | None:
    """``resources=`` of a task that runs a GPU kernel: one GPU when some worker declares it (such tasks then go only
    to those workers; the others take every other task), None when none does (every worker is taken to have a GPU:
    ``--backend gpu`` on a cluster of undeclared workers)."""
    return {GPU_RESOURCE: 1} if gpu_workers(client) else None


def worker_threads(client, resources: dict | None = None) -> int:
    """Threads of the workers the scheduler knows of now that may take a task needing ``resources`` (None: all)."""
    threads = client.nthreads()
    if resources is not None:
        threads = {address: threads.get(address, 0) for address in gpu_workers(client)}
    return sum(threads.values())


#: glibc's ``mallopt`` parameters, and the thresholds :func:`undo_nanny_malloc_trim` sets (bytes).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD, TRIM_THRESHOLD = 32 * 2**20, 64 * 2**20


@functools.cache
def undo_nanny_malloc_trim() -> None:
    """Runs on a worker, once per process. A Dask nanny starts its worker with ``MALLOC_TRIM_THRESHOLD_=65536``, which
    also pins glibc's mmap threshold at 128 KiB: every large NumPy temporary is then mapped and unmapped again, its
    pages faulted in anew (a push/fold certificate took 2.9 s instead of 0.8 s, measured). Where that variable is
    set, the thresholds go back up: blocks under 32 MiB from the heap, kept unless 64 MiB are free at its top."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    except (OSError, AttributeError):  # not glibc: the variable means nothing there either
        pass


def checked_call(kernels: tuple[str, ...], version: str, function, *args):
    """Runs on a worker: ``function(*args)``, after checking this worker's code version of ``kernels`` (a worker
    that joined after :func:`check_code_version` is checked here) and undoing its nanny's malloc setting
    (:func:`undo_nanny_malloc_trim`)."""
    undo_nanny_malloc_trim()
    if (found := worker_code_version(kernels)) != version:
        raise CodeVersionMismatch(f"a Dask worker runs other kernel code (code version {found}, the client {version}): "
                                  "start every worker from the client's commit")
    return function(*args)
