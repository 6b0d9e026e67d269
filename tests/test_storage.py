"""Damaged files: every unreadable cache file or checkpoint is one clear line, never a traceback or lost work.

* :func:`load_arrays` turns any damage into :class:`CorruptFileError` with a short printable message
  (swept over every byte of a small file: zip headers, ``.npy`` headers, data, checksum);
* a damaged derived cache (:func:`cached_arrays`) is named in one warning line and rebuilt;
* a damaged latest checkpoint falls back to the one before it, with a warning;
* two processes that miss the same cache file compute it once (:func:`computing_alone`).
"""

import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from generator.core import cache
from generator.core.cache import cached_arrays
from generator.core.errors import InputError
from generator.compute.stages.multiway.checkpoint import Checkpoint, MultiwayState, previous_path
from generator.core.storage import CorruptFileError, load_arrays, save_arrays


@pytest.mark.slow
def test_every_single_byte_flip_is_detected_or_harmless(tmp_path):
    arrays = {"tally": np.arange(60, dtype=np.int64).reshape(3, 20), "seed": np.array(7, dtype=np.uint64), "name": np.array("x")}
    path = tmp_path / "small.npz"
    save_arrays(path, arrays)
    original = path.read_bytes()
    outcomes = {"detected": 0, "harmless": 0}
    for offset in range(len(original)):
        for flip in (0x01, 0x80, 0xFF):
            damaged = bytearray(original)
            damaged[offset] ^= flip
            path.write_bytes(bytes(damaged))
            try:
                loaded = load_arrays(path)
            except CorruptFileError as exc:
                message = str(exc)
                assert message.isprintable() and len(message) < len(str(path)) + 120, message
                outcomes["detected"] += 1
            else:  # a flip in a field nobody reads (a timestamp, a comment): the content must be intact
                assert set(loaded) == set(arrays) and all(np.array_equal(loaded[k], arrays[k]) for k in arrays)
                outcomes["harmless"] += 1
    assert outcomes["detected"] > 0.5 * 3 * len(original), outcomes


def test_a_damaged_derived_cache_is_named_in_one_line_and_rebuilt(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path))
    computed = []

    def compute():
        computed.append(1)
        return {"values": np.arange(1000)}

    assert np.array_equal(cached_arrays("thing", "k1", compute)["values"], np.arange(1000))
    assert np.array_equal(cached_arrays("thing", "k1", compute)["values"], np.arange(1000)) and len(computed) == 1
    path = tmp_path / "thing-k1.npz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert np.array_equal(cached_arrays("thing", "k1", compute)["values"], np.arange(1000)) and len(computed) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("warning:") and "thing-k1.npz" in err[0] and "rebuilding" in err[0]
    assert load_arrays(path)["values"].size == 1000  # the rebuilt file is good


def test_a_cache_file_another_process_is_computing_is_waited_for_not_computed_twice(tmp_path, monkeypatch, capsys):
    """Another process holds the file's lock (it is computing it): this one waits, saying so in one line, and loads the
    file the other saved; it computes nothing. The other saves only once this one is waiting (its wait loop's stop
    check releases it), so the wait is what is tested, not a race."""
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path))
    held, release = tmp_path / "held", tmp_path / "release"
    other = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import pathlib, time
        import numpy as np
        from generator.core.cache import computing_alone
        from generator.core.storage import save_arrays
        path = pathlib.Path({str(tmp_path / "thing-k1.npz")!r})
        with computing_alone(path):
            pathlib.Path({str(held)!r}).touch()
            while not pathlib.Path({str(release)!r}).exists():
                time.sleep(0.05)
            save_arrays(path, {{"values": np.arange(7)}})
    """)])
    try:
        while not held.exists():
            assert other.poll() is None, "the other process ended before taking the lock"
            time.sleep(0.01)
        monkeypatch.setattr(cache.interrupts, "check", release.touch)  # called while waiting: let the other save
        arrays = cached_arrays("thing", "k1", lambda: pytest.fail("computed a file another process was computing"))
    finally:
        other.wait(timeout=60)
    assert np.array_equal(arrays["values"], np.arange(7)) and other.returncode == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"waiting for another run that is computing thing-k1.npz in {tmp_path}"]


def _state(deals_blocks: int) -> MultiwayState:
    state = MultiwayState(seed=5)
    state.blocks = {0: deals_blocks}
    state.tally[0, 0, 0] = deals_blocks
    return state


def _damage(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_damaged_latest_checkpoint_falls_back_to_the_one_before(tmp_path):
    path, warnings = tmp_path / "checkpoint-s5-x.npz", []
    writer = Checkpoint(path, warnings.append)
    writer.load(5)
    writer.save(_state(1))
    writer.save(_state(2))  # keeps the first as the previous checkpoint
    assert MultiwayState.load(previous_path(path)).blocks == {0: 1}
    _damage(path)
    reader = Checkpoint(path, warnings.append)
    assert reader.load(5).blocks == {0: 1}
    assert len(warnings) == 1 and str(path) in warnings[0] and "before it (4,096 deals)" in warnings[0]
    reader.save(_state(3))  # the damaged file is not kept as "previous": the good one stays
    assert MultiwayState.load(previous_path(path)).blocks == {0: 1}
    assert MultiwayState.load(path).blocks == {0: 3}


def test_a_missing_latest_checkpoint_falls_back_and_two_damaged_ones_are_one_line(tmp_path):
    path, warnings = tmp_path / "checkpoint-s5-x.npz", []
    writer = Checkpoint(path, warnings.append)
    writer.load(5)
    writer.save(_state(1))
    writer.save(_state(2))
    path.unlink()  # killed between the two renames of an older scheme, or removed by hand
    assert Checkpoint(path, warnings.append).load(5).blocks == {0: 1} and "missing" in warnings[-1]
    writer = Checkpoint(path, warnings.append)
    writer.load(5)
    writer.save(_state(2))
    writer.save(_state(3))
    _damage(path)
    _damage(previous_path(path))
    with pytest.raises(InputError) as error:
        Checkpoint(path, warnings.append).load(5)
    message = str(error.value.message)
    assert "\n" not in message and "earlier one is unreadable too" in message and "move both aside" in message


def test_a_damaged_only_checkpoint_says_what_to_do(tmp_path):
    path = tmp_path / "checkpoint-s5-x.npz"
    save_arrays(path, _state(1).arrays())
    _damage(path)
    with pytest.raises(InputError, match="no earlier checkpoint: move the file aside"):
        Checkpoint(path, print).load(5)


def test_a_json_answer_is_standard_json_or_one_input_error():
    """A command's --json never prints Infinity or NaN (invalid JSON): such an answer is refused with one line."""
    from generator.core.errors import InputError
    from generator.core.storage import json_text

    assert json_text({"equity": [0.5, 1e308]}) == '{"equity": [0.5, 1e+308]}'
    for bad in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(InputError, match="not a finite number"):
            json_text({"equity": [0.5, bad]})
