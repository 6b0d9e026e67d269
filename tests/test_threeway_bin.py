"""threeway.bin.gz (generator.compute.threeway_bin): the 3-way table encoded for the browser (prediction from
matchups.bin, corrections, residuals), read back by Python, and the browser solver's
(templates/assets/js/engines/pushfold-solver.js) solution checked by Python's best response."""

import gzip
import hashlib
import json
import shutil
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

import kernels.pushfold as pf
from generator.data import datafiles
from generator.core.evaluator_tables import evaluator_tables
from generator.compute import threeway_bin
from generator.compute.stages import threeway
from generator.compute.stages.headsup import headsup_results
from generator.compute.pushfold_records import THREE_WAY_TIE, holdem_equities
from kernels.cards import CLASS_NAMES

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small_table(tmp_path_factory):
    """A 3-way table of 32 boards (some possible triples unsampled)."""
    path = tmp_path_factory.mktemp("threeway") / "threeway.npz"
    checkpoint = threeway.run_threeway(evaluator_tables(), boards=32, path=path)
    return threeway.threeway_table(checkpoint, threeway.possible_triples()[2])


@pytest.fixture(scope="module")
def matchups() -> bytes:
    """The bytes of the build's matchups.bin (the prediction threeway.bin.gz is written against)."""
    tables, _ = headsup_results(progress=False)
    return datafiles.matchups_bin({"classes": list(CLASS_NAMES), "win": tables.win, "tie": tables.tie, "pairs": tables.pairs})


@pytest.mark.slow
def test_round_trip(small_table, matchups):
    data = threeway_bin.threeway_bin(small_table, matchups, boards=32, seed=1)
    raw = gzip.decompress(data)
    assert data == threeway_bin.threeway_bin(small_table, matchups, boards=32, seed=1), "the same table gives the same bytes"
    assert raw[:8] == b"ALLINTWY" and len(raw) == threeway_bin.THREEWAY_BYTES
    assert np.frombuffer(raw, "<u4", count=8, offset=8).tolist() == [3, 169, 13, 255, 32, 1, threeway_bin.THREEWAY_STEP, zlib.crc32(matchups)]
    start = threeway_bin.THREEWAY_HEADER_BYTES  # the compatible counts first
    assert (np.frombuffer(raw, "<u2", count=threeway.N_TRIPLES, offset=start) == small_table.compatible).all()
    back = threeway_bin.read_threeway_bin(data, matchups)
    assert (threeway_bin.read_threeway_bin(raw, matchups).orderings == back.orderings).all(), "read as the file or as a server that decoded it"
    assert (back.compatible == small_table.compatible).all()
    bound = 1.5 * threeway_bin.THREEWAY_STEP / threeway_bin.THREEWAY_SCALE  # kernels.threeway.compact.encode_residual
    sampled = small_table.samples > 0
    assert np.abs(back.orderings[sampled] - small_table.orderings[sampled]).max() <= bound
    unsampled = (small_table.compatible > 0) & ~sampled
    assert unsampled.any() and (back.orderings[unsampled, THREE_WAY_TIE] >= 1 - bound).all()  # priced as ties, as the solver does
    assert (back.orderings[small_table.compatible == 0] == 0).all()
    np.testing.assert_allclose(back.orderings[small_table.compatible > 0].sum(axis=1), 1.0, atol=1e-12)
    with pytest.raises(ValueError, match="not a 3-way table"):
        threeway_bin.read_threeway_bin(b"ALLINMUT" + raw[8:], matchups)
    with pytest.raises(ValueError, match="not a version 3 table"):  # an older build's file, version 2
        threeway_bin.read_threeway_bin(raw[:8] + (2).to_bytes(4, "little") + raw[12:], matchups)
    with pytest.raises(ValueError, match="truncated"):
        threeway_bin.read_threeway_bin(raw[:-1], matchups)
    with pytest.raises(ValueError, match="damaged"):
        threeway_bin.read_threeway_bin(data[:-100], matchups)
    with pytest.raises(ValueError, match="written with another matchups.bin"):
        threeway_bin.read_threeway_bin(data, matchups[:-1] + bytes([matchups[-1] ^ 1]))
    residuals = bytearray(raw)
    residuals[-threeway.N_TRIPLES * 13:] = bytes([127]) * (threeway.N_TRIPLES * 13)
    with pytest.raises(ValueError, match="damaged"):
        threeway_bin.read_threeway_bin(bytes(residuals), matchups)


@pytest.mark.slow  # 10 s or more on 2 cores
def test_published_and_listed(tmp_path, small_table, matchups):
    with pytest.raises(FileNotFoundError, match="matchups.bin"):  # the prediction's heads-up table comes first
        threeway_bin.publish_threeway(tmp_path, small_table, boards=32, seed=1)
    (tmp_path / "matchups.bin").write_bytes(matchups)
    (tmp_path / "threeway.bin").write_bytes(b"version 1")  # an older build's uncompressed file goes
    threeway_bin.publish_threeway(tmp_path, small_table, boards=32, seed=1)
    data = (tmp_path / "threeway.bin.gz").read_bytes()
    assert not (tmp_path / "threeway.bin").exists()
    assert data == threeway_bin.threeway_bin(small_table, matchups, boards=32, seed=1)
    entry = next(e for e in datafiles.binary_listing(tmp_path) if e["name"] == "threeway.bin.gz")
    assert entry["size"] == len(data) and entry["sha256"] == hashlib.sha256(data).hexdigest()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_browser_solution_checked_by_python_best_response(tmp_path, small_table, matchups):
    """The JS solver's strategies and NashConv on the quantised table: Python's nash_conv of the same
    strategies agrees (float32 tensor in Python: 1e-6 relative), and so do Python's own iterates."""
    tables, _ = headsup_results(progress=False)
    data = threeway_bin.threeway_bin(small_table, matchups, boards=32, seed=1)
    (tmp_path / "threeway.bin").write_bytes(gzip.decompress(data))
    (tmp_path / "matchups.bin").write_bytes(matchups)
    table = pf.Table((7.0, 10.0, 13.0), ante=0.1)
    script = f"""
      import {{ readFileSync }} from "node:fs";
      import {{ loadEquities, solveSteps }} from "{ROOT / 'templates/assets/js/engines/pushfold-solver.js'}";
      const read = (name) => {{ const f = readFileSync("{tmp_path}/" + name); return f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength); }};
      const steps = solveSteps({{stacks: [7, 10, 13], blinds: [0.5, 1], ante: 0.1, bbAnte: false, payouts: null}},
                               loadEquities(read("matchups.bin"), read("threeway.bin")), {{tolerance: 0, maxIterations: 25}});
      let step = steps.next();
      while (!step.done) step = steps.next();
      console.log(JSON.stringify({{strategies: step.value.strategies.map((p) => Array.from(p)), nashConv: step.value.nashConv}}));
    """
    result = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True, timeout=600)
    browser = json.loads(result.stdout)
    equities = holdem_equities(tables, threeway_bin.read_threeway_bin(data, matchups))
    game = pf.make_game(table)
    strategy = {key: np.array(p) for key, p in zip(pf.infoset_keys(game), browser["strategies"])}
    assert browser["nashConv"] == pytest.approx(pf.nash_conv(game, equities, strategy), rel=1e-5)
    python = pf.solve(game, equities, tolerance=0.0, max_iterations=25)
    for key, p in strategy.items():
        np.testing.assert_allclose(p, python.strategy[key], atol=1e-4)
