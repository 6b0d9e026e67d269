"""A `dask scheduler` and `dask worker` processes on loopback, started as an author starts them (docs/cluster.md):
separate OS processes of this environment's ``dask`` command, for the cluster tests and benchmarks/bench_cluster.py."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import distributed

from generator.compute.cluster import close_quietly
from generator.core.cache import cache_dir

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")  # the console script of the environment the tests run in
#: Seconds a test may use the Dask processes: past it they are killed, and a hung test fails instead of hanging.
TEST_LIMIT_S = 120


def published_files(data_dir: Path) -> dict:
    """Every file a run published under ``data_dir`` (sub-folders included; the live status left out: it says how a
    run is going, not what it found), by relative path: JSON documents without their meta's ``wall_time_s`` and
    ``generated`` (how long and when it ran), other files as bytes; what must be equal between runs on and off a
    cluster."""
    files = {}
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file() and not p.name.endswith("-live.json")):
        name = path.relative_to(data_dir).as_posix()
        if path.suffix == ".json":
            document = json.loads(path.read_text())
            meta = document.get("meta", {}) if isinstance(document, dict) else {}
            for key in ("wall_time_s", "generated"):
                meta.pop(key, None)
            files[name] = document
        else:
            files[name] = path.read_bytes()
    return files


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DaskProcesses:
    """``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, each in its own process group (the worker's
    nanny and the worker process it starts die together); :meth:`close` kills them all. ``client`` is a Dask client
    of the test's own, to look at the workers. Each worker runs ``numba_threads`` Numba threads."""

    def __init__(self, logs: Path, workers: int, numba_threads: int = 1):
        self.logs, self.processes, self.client, self.numba_threads = logs, [], None, numba_threads
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        try:
            self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
            for _ in range(workers):
                self.add_worker()
            self.client = distributed.Client(self.address, timeout=30, set_as_default=False)
            self.client.wait_for_workers(workers, timeout=60)
        except BaseException:
            self.close()
            raise

    def _start(self, role: str, *args: str, cwd: Path = ROOT, **env: str) -> subprocess.Popen:
        with (self.logs / f"{role}-{len(self.processes)}.log").open("w") as log:
            process = subprocess.Popen([str(DASK), role, *args], cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                       env={**os.environ, **env}, start_new_session=True)
        self.processes.append(process)
        return process

    def add_worker(self, cwd: Path = ROOT, resources: tuple[str, ...] = (), **env: str) -> subprocess.Popen:
        """A ``dask worker --nthreads 1`` (a task is one call of a parallel kernel) with this process's cache folder;
        ``resources``: what it declares (``("--resources", "GPU=1")``)."""
        return self._start("worker", self.address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
                           "--local-directory", str(self.logs), "--death-timeout", "60", *resources, cwd=cwd,
                           NUMBA_NUM_THREADS=str(self.numba_threads), ALLIN_CACHE_DIR=str(cache_dir().resolve()), **env)

    def workers(self) -> dict[str, int]:
        """Address → pid of every worker process the scheduler knows of."""
        return self.client.run(os.getpid)

    def wait_for_workers(self, count: int) -> None:
        deadline = time.monotonic() + 60
        while len(self.client.scheduler_info()["workers"]) != count:
            assert time.monotonic() < deadline, f"the scheduler did not get to {count} workers"
            time.sleep(0.2)

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=30)

    def __enter__(self) -> "DaskProcesses":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for process in self.processes:
            self.kill(process)
        if self.client is not None:
            client, self.client = self.client, None
            close_quietly(client)

    @contextmanager
    def time_limit(self, seconds: float = TEST_LIMIT_S):
        """Kill the processes if the block is still running after ``seconds``: the client then fails at once."""
        timer = threading.Timer(seconds, lambda: [self.kill(process) for process in self.processes])
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
