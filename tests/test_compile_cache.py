"""Numba's compiled kernels are kept in a folder per hash of the kernels' sources (kernels/compile_cache.py): an edit
to any kernel file, even one the cached function only calls, moves the cache; a second process loads what the first
compiled."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kernels
from kernels import compile_cache

REPO = Path(__file__).resolve().parents[1]


def test_an_edit_to_any_kernel_source_moves_the_cache_folder(tmp_path):
    copy = tmp_path / "kernels"
    shutil.copytree(Path(kernels.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = "import sys; sys.path.insert(0, sys.argv[1]); import kernels.compile_cache as c; print(c.source_hash())"

    def folder_hash():
        return subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                              check=True).stdout.strip()

    before = folder_hash()
    assert before == compile_cache.source_hash()  # the copy is the same sources
    core = copy / "fourhanded" / "core.py"  # called by the cached cpu.py walk, not cached itself
    core.write_text(core.read_text() + "\n")
    after = folder_hash()
    assert after != before
    (compile_cache.cache_folder().parent / after).rmdir()  # made, empty, by the edited copy's import


@pytest.mark.slow  # compiles a walk in a new process (10 s cold)
def test_the_cache_folder_is_numbas_in_this_process_and_the_next(tmp_path):
    import numba

    assert numba.config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"] == str(compile_cache.cache_folder())
    script = ("import numpy as np, numba; from kernels.fourhanded import cpu; "
              "cpu.count_subset(np.array([0], dtype=np.int64), cpu.COMBOS); print(numba.config.CACHE_DIR)")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))  # replaced: another folder would not be keyed by sources
    printed = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                             check=True).stdout.strip()
    assert printed == str(compile_cache.cache_folder())
    assert any(compile_cache.cache_folder().rglob("cpu.count_subset-*.nbi"))  # numba's index of the compiled walk


def test_a_process_that_changes_kernel_globals_can_keep_its_compilations_to_itself():
    """ALLIN_NUMBA_CACHE=off: a fresh private folder, not the shared one (tests/test_multiway_kernels.py's simulator
    script compiles the multiway kernels for 4 groups)."""
    script = "import os, kernels; print(os.environ['NUMBA_CACHE_DIR'])"
    env = dict(os.environ, ALLIN_NUMBA_CACHE="off")
    folders = {subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                              check=True).stdout.strip() for _ in range(2)}
    assert len(folders) == 2 and str(compile_cache.cache_folder()) not in folders
