"""The multiway stage: checkpoints survive kill -9, resume to identical counts, merge associatively, detect corruption."""

import json
import re
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from generator.cli import main as cli
from generator.site.formatting import FILTERS
from generator.core.config import load_config
from generator.compute.stages import multiway as stage
from generator.data.datafiles import LIVE_STATUS_PATH, write_live_status
from kernels.multiway.layout import BLOCK_DEALS, GROUPS
from multiway_helpers import linear_percentile, multiway_run

HERE = os.path.dirname(__file__)
#: Stand-in control inputs: the counts do not depend on them (only the estimates do).
CONTROLS_SOURCE = "MultiwayControls(np.full(169, 0.5), np.full(169, 0.02), linear_percentile(), np.zeros(169))"
PASS_DEALS = GROUPS * BLOCK_DEALS


def _controls():
    return stage.MultiwayControls(np.full(169, 0.5), np.full(169, 0.02), linear_percentile(), np.zeros(169))


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_text("multiway:\n  checkpoint_every: 0.2s\n  seed: 99\n")
    return load_config(path)


def _run(config, site_dir, controls=None, shard=0, **settings):
    settings = {"budget_seconds": 600, "target_se": 1e-12, **settings}
    return stage.run_multiway(multiway_run(config, multiway_shard=shard, **settings), site_dir,
                              controls if controls is not None else _controls())


#: A run in a child process, through the CLI command, with stand-in controls. Hooks make it stop at
#: a known point, deterministically: ``PAUSE_AFTER_SAVE`` = after that many checkpoint saves it writes
#: the marker file and waits (until killed, or a stop request arrives); ``HANG_IN_SAVE`` = that save
#: writes half of its temporary file, writes the marker and hangs (a kill lands in the middle of a write);
#: ``CLUSTER_WINDOW`` = tasks a ``--cluster`` run keeps in flight (1: results, and so saves, come one task at a time).
RUN_SCRIPT = textwrap.dedent(
    f"""
    import os, sys, tempfile, time
    import numpy as np
    from pathlib import Path
    from generator.core import interrupts
    from generator.cli import main
    from generator.compute.stages import headsup, multiway
    from generator.compute.stages.multiway import MultiwayControls, checkpoint
    from multiway_helpers import linear_percentile

    multiway.multiway_controls = lambda *args: {CONTROLS_SOURCE}
    headsup.headsup_results = lambda *args: (None, None)
    marker, saves = Path(os.environ["MARKER"]), []
    pause_after, hang_in = int(os.environ.get("PAUSE_AFTER_SAVE", 0)), int(os.environ.get("HANG_IN_SAVE", 0))
    real_save_arrays = checkpoint.save_arrays
    if "CLUSTER_WINDOW" in os.environ:
        from generator.compute.stages.multiway import cluster
        cluster.ClusterSimulator._window = lambda self: int(os.environ["CLUSTER_WINDOW"])

    def save_arrays(path, arrays):
        saves.append(path)
        if len(saves) == hang_in:
            fd, name = tempfile.mkstemp(prefix=f".{{path.name}}.", suffix=".tmp", dir=path.parent)
            os.write(fd, b"half of a checkpoint")
            marker.write_text("hanging")
            time.sleep(600)
        real_save_arrays(path, arrays)
        if len(saves) == pause_after:
            marker.write_text(str(sum(checkpoint.MultiwayState.load(path).blocks.values())))
            deadline = time.monotonic() + 600
            while not interrupts.requested() and time.monotonic() < deadline:
                time.sleep(0.02)

    checkpoint.save_arrays = save_arrays
    main(["compute", "multiway", *sys.argv[1:]])
    """
)


def _start_run(config, site_dir, cache, *args, new_session=False, **hooks):
    """Start ``allin compute multiway`` in a child process; returns (process, marker path).

    ``new_session``: the child leads its own process group (to end it with everything it started)."""
    marker = Path(cache).parent / f"marker-{uuid.uuid4().hex}"
    env = dict(os.environ, ALLIN_CACHE_DIR=str(cache), PYTHONPATH=HERE, MARKER=str(marker),
               **{key: str(value) for key, value in hooks.items()})
    command = [sys.executable, "-c", RUN_SCRIPT, "--config", config.path, "--site-dir", str(site_dir), "--budget", "10m",
               "--backend", "cpu", *map(str, args)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=new_session)
    return process, marker


def _wait_for(marker, process, timeout=300):
    """Wait until the child writes its marker (it is then paused at a known point); returns the marker's text."""
    deadline = time.monotonic() + timeout
    while not marker.exists() or not marker.read_text():
        assert process.poll() is None, process.communicate()[1][-2000:]
        assert time.monotonic() < deadline, "the run never reached its pause point"
        time.sleep(0.02)
    return marker.read_text()


@pytest.mark.slow
def test_killed_run_resumes_to_the_same_counts_as_an_uninterrupted_run(config, tmp_path, monkeypatch):
    deals = 10 * PASS_DEALS
    killed_cache = tmp_path / "killed"
    process, marker = _start_run(config, tmp_path / "site-killed", killed_cache, "--deals", deals, PAUSE_AFTER_SAVE=1)
    saved_blocks = int(_wait_for(marker, process))
    process.send_signal(signal.SIGKILL)
    process.wait()
    checkpoint = killed_cache / "multiway" / stage.checkpoint_path(99).name
    saved = stage.MultiwayState.load(checkpoint)
    assert saved.blocks == {0: saved_blocks} and 0 < saved.deals < deals, saved.blocks

    monkeypatch.setenv("ALLIN_CACHE_DIR", str(killed_cache))
    resumed = _run(config, tmp_path / "site-killed", max_deals=deals)
    resumed_state = stage.MultiwayState.load(checkpoint)
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "straight"))
    straight = _run(config, tmp_path / "site-straight", max_deals=deals)
    straight_state = stage.MultiwayState.load(tmp_path / "straight" / "multiway" / checkpoint.name)

    assert resumed_state.blocks == straight_state.blocks == {0: deals // BLOCK_DEALS}
    assert np.array_equal(resumed_state.tally, straight_state.tally)
    assert resumed["by_players"] == straight["by_players"]


@pytest.mark.slow
def test_a_kill_in_the_middle_of_a_save_loses_nothing_and_its_temporary_file_is_removed(config, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    process, marker = _start_run(config, tmp_path / "site", cache, "--deals", 10 * PASS_DEALS, HANG_IN_SAVE=2)
    _wait_for(marker, process)  # the first save is complete, the second is half written
    process.send_signal(signal.SIGKILL)
    process.wait()
    checkpoint = cache / "multiway" / stage.checkpoint_path(99).name
    first = stage.MultiwayState.load(checkpoint)  # the last complete save, intact
    leftovers = list(checkpoint.parent.glob("*.tmp"))
    assert first.deals > 0 and len(leftovers) == 1

    monkeypatch.setenv("ALLIN_CACHE_DIR", str(cache))
    _run(config, tmp_path / "site", max_deals=12 * PASS_DEALS)
    assert stage.MultiwayState.load(checkpoint).deals == 12 * PASS_DEALS
    assert not list(checkpoint.parent.glob("*.tmp"))


@pytest.mark.slow
def test_ctrl_c_saves_and_exits_130_with_one_line(config, tmp_path):
    process, marker = _start_run(config, tmp_path / "site", tmp_path / "cache", PAUSE_AFTER_SAVE=1)
    saved_blocks = int(_wait_for(marker, process))
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err[-2000:]
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("Interrupted:") and "deals saved" in err
    checkpoint = tmp_path / "cache" / "multiway" / stage.checkpoint_path(99).name
    assert stage.MultiwayState.load(checkpoint).blocks[0] >= saved_blocks  # the pass in progress is saved too
    assert (tmp_path / "site" / "data" / "multiway.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize("shard", [0, 1])
def test_a_second_run_on_the_same_checkpoint_is_refused_and_the_first_loses_nothing(config, tmp_path, shard):
    """Two real processes on one cache: the second is refused, naming the first's pid; no block is lost."""
    cache = tmp_path / "cache"
    first, marker = _start_run(config, tmp_path / "site", cache, PAUSE_AFTER_SAVE=1)
    _wait_for(marker, first)  # holding the checkpoint, paused after its first save
    second, _ = _start_run(config, tmp_path / "site", cache, "--shard", shard, "--deals", PASS_DEALS)
    _, err = second.communicate(timeout=300)
    assert second.returncode == 2, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: another run is using") and f"(pid {first.pid})" in lines[0], err
    first.send_signal(signal.SIGINT)
    _, first_err = first.communicate(timeout=120)
    assert first.returncode == 130, first_err[-2000:]
    state = stage.MultiwayState.load(cache / "multiway" / stage.checkpoint_path(99).name)
    document = json.loads((tmp_path / "site" / "data" / "multiway.json").read_text())
    assert list(state.blocks) == [0] and state.deals == document["meta"]["deals"] > 0


def _shard_checkpoint(config, tmp_path, monkeypatch, shard):
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / f"shard{shard}"))
    _run(config, tmp_path / "site", shard=shard, max_deals=BLOCK_DEALS * (shard + 1))
    return tmp_path / f"shard{shard}" / "multiway" / stage.checkpoint_path(99).name


@pytest.mark.slow
def test_merge_adds_shards_associatively_and_rejects_overlap_and_corruption(config, tmp_path, monkeypatch):
    a, b, c = (_shard_checkpoint(config, tmp_path, monkeypatch, shard) for shard in range(3))
    runner = CliRunner()

    def merge(first, second, out):
        result = runner.invoke(cli, ["merge", str(first), str(second), "-o", str(out)])
        assert result.exit_code == 0, result.output
        return stage.MultiwayState.load(out)

    left = merge(merge(a, b, tmp_path / "ab.npz") and tmp_path / "ab.npz", c, tmp_path / "ab_c.npz")
    right = merge(a, merge(b, c, tmp_path / "bc.npz") and tmp_path / "bc.npz", tmp_path / "a_bc.npz")
    assert left.blocks == right.blocks == {0: 1, 1: 2, 2: 3}
    assert np.array_equal(left.tally, right.tally)
    parts = [stage.MultiwayState.load(p) for p in (a, b, c)]
    assert np.array_equal(left.tally, sum(p.tally for p in parts))

    overlap = runner.invoke(cli, ["merge", str(a), str(tmp_path / "ab.npz"), "-o", str(tmp_path / "x.npz")])
    assert overlap.exit_code == 2 and "shard 0" in overlap.output and len(overlap.output.strip().splitlines()) == 1

    damaged = tmp_path / "damaged.npz"
    data = bytearray(a.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    corrupt = runner.invoke(cli, ["merge", str(damaged), str(b), "-o", str(tmp_path / "y.npz")])
    assert corrupt.exit_code == 2 and "damaged.npz" in corrupt.output
    assert len(corrupt.output.strip().splitlines()) == 1 and "Traceback" not in corrupt.output


@pytest.mark.slow
def test_output_has_the_documented_fields(config, tmp_path, monkeypatch):
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cache"))
    statuses = []
    monkeypatch.setattr(stage, "write_live_status", lambda site, running, generated, renew_s=None:
                        statuses.append((running, generated)) or write_live_status(site, running, generated, renew_s))
    document = _run(config, tmp_path / "site", max_deals=PASS_DEALS)
    # The live-run status the chart pages poll: running from the start, then not, naming the final checkpoint.
    generated = document["meta"]["generated"]
    assert statuses[0] == (True, None) and statuses[-2:] == [(True, generated), (False, generated)]
    assert json.loads((tmp_path / "site" / LIVE_STATUS_PATH).read_text()) == {"running": False, "generated": generated}
    assert document["players"] == list(range(2, 11)) and len(document["classes"]) == 169
    meta = document["meta"]
    assert meta["deals"] == PASS_DEALS and meta["samples"] == 10 * PASS_DEALS and meta["seed"] == 99
    for key in ("stage", "method", "rng", "control_variates", "backend", "version", "code_version", "wall_time_s"):
        assert key in meta
    for players, table in document["by_players"].items():
        for key in ("win", "tie", "loss", "equity", "se_win", "se_tie", "se_equity", "se_equity_plain", "cv_gain", "gain", "samples"):
            assert len(table[key]) == 169, key
        assert len(table["tie_k"]) == 169 and all(len(row) == 9 for row in table["tie_k"])
        assert all(row[k - 2] == 0 for row in table["tie_k"] for k in range(int(players) + 1, 11))
        total = np.array(table["win"]) + np.array(table["tie"]) + np.array(table["loss"])
        assert np.allclose(total, 1, atol=1e-6)
    on_disk = (tmp_path / "site" / "data" / "multiway.json").read_text()
    assert '"by_players"' in on_disk and (tmp_path / "site" / "data" / "multiway.csv").exists()


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    runner = CliRunner()
    from generator.cli.compute import compute_multiway_command

    for args, fragment in ((["--budget", "soon"], "--budget"), (["--target-se", "2"], "--target-se"), (["--deals", "0"], "--deals")):
        result = runner.invoke(compute_multiway_command, [*args, "--site-dir", str(tmp_path)])
        assert result.exit_code == 2 and fragment in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    missing = runner.invoke(cli, ["merge", str(tmp_path / "nope.npz"), str(tmp_path / "nope2.npz"), "-o", str(tmp_path / "o.npz")])
    assert missing.exit_code == 2 and "no such checkpoint" in missing.output


@pytest.mark.slow
def test_heads_up_column_agrees_with_the_exact_table(config, tmp_path, monkeypatch):
    """Full deck: the plain heads-up estimates within 5 reported standard errors of the exact vs-random table,
    and the control-variate estimates equal to it (at 2 players the controls are the outcome)."""
    from generator.compute.stages.headsup import headsup_results

    exact, _ = headsup_results(progress=False)
    total = exact.vs_random_total.astype(float)
    p_win, p_tie = exact.vs_random_win / total, exact.vs_random_tie / total
    controls = stage.MultiwayControls(p_win, p_tie, linear_percentile(), np.zeros(169))
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cache"))
    document = _run(config, tmp_path / "site", max_deals=2 * PASS_DEALS, controls=controls)
    heads_up = document["by_players"]["2"]
    for name, truth in (("win", p_win), ("tie", p_tie), ("equity", p_win + p_tie / 2)):
        plain, se = np.array(heads_up[f"{name}_plain"]), np.array(heads_up[f"se_{name}_plain"] if name != "equity" else heads_up["se_equity_plain"])
        assert np.all(np.abs(plain - truth) <= 5 * se), name
        assert np.allclose(heads_up[name], truth, atol=2e-9), name


def test_a_fresh_start_names_checkpoints_it_cannot_continue(tmp_path):
    path = tmp_path / "multiway" / "checkpoint-s1-current.npz"
    path.parent.mkdir()
    assert stage.stale_checkpoints_note(path) is None
    (path.parent / "checkpoint-s1-oldcode.npz").write_bytes(b"x" * 3_000_000)
    (path.parent / "percentile-oldcode.npz").write_bytes(b"x")
    note = stage.stale_checkpoints_note(path)
    assert note.startswith("note: 1 checkpoint file(s)") and "(3 MB)" in note and str(path.parent) in note


@pytest.mark.slow
def test_compute_multiway_brings_rendered_pages_up_to_date(config, tmp_path, monkeypatch):
    """The pages show the numbers of the data file the run leaves (they were rendered from older data)."""
    from site_fixtures import REPO, build_site

    site = build_site(tmp_path / "site")
    (tmp_path / "articles").symlink_to(REPO / "content" / "articles")
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("generator.compute.stages.multiway.multiway_controls", lambda *args: _controls())
    monkeypatch.setattr("generator.compute.stages.headsup.headsup_results", lambda *args: (None, None))
    result = CliRunner().invoke(cli, ["compute", "multiway", "--config", config.path, "--site-dir", str(site),
                                      "--deals", str(2 * PASS_DEALS), "--backend", "cpu"])
    assert result.exit_code == 0 and "pages re-rendered" in result.stdout, result.output
    document = json.loads((site / "data" / "multiway.json").read_text())
    html = (site / "charts" / "5" / "index.html").read_text()
    payload = json.loads(re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', html).group(1))
    assert payload["table"]["equity"] == document["by_players"]["5"]["equity"]
    assert payload["generated"] == document["meta"]["generated"]
    assert f"<dd>{FILTERS['big'](document['meta']['deals'])}</dd>" in (site / "index.html").read_text()


def test_one_block_has_no_error_estimate_yet_and_every_command_says_so(config, tmp_path, monkeypatch):
    """After one block of deals every se is unknown: the CLI says n/a, pages skip those tables, nothing crashes."""
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("generator.compute.stages.multiway.multiway_controls", lambda *args: _controls())
    monkeypatch.setattr("generator.compute.stages.headsup.headsup_results", lambda *args: (None, None))
    site = ["--site-dir", str(tmp_path / "site")]
    run = CliRunner().invoke(cli, ["compute", "multiway", "--config", config.path, *site, "--deals", "4096", "--backend", "cpu"])
    assert run.exit_code == 0 and run.stdout.strip() == "multiway: 4,096 deals, worst se n/a (too few deals to estimate it)", run.output
    text = CliRunner().invoke(cli, ["equity", "AKs", "--players", "6", *site])
    assert text.exit_code == 0 and "n/a" in text.stdout and "nan" not in text.stdout.lower(), text.output
    row = json.loads(CliRunner().invoke(cli, ["equity", "AKs", "--players", "6", "--json", *site]).stdout)
    assert row["se_equity"] is None and row["ci95_equity"] is None and 0 <= row["equity"] <= 1
    render = CliRunner().invoke(cli, ["render", "--config", config.path, *site])
    assert render.exit_code == 0, render.output
    chart = (tmp_path / "site" / "charts" / "6" / "index.html").read_text()
    assert "allin compute multiway" in chart and "NaN" not in chart and "None" not in chart


@pytest.mark.parametrize("content", ["[1,2,3]", '{"by_players": {"6": {"equity": [1]}}}', '{"by_players": []}', "\x00\x01binary"])
def test_a_malformed_multiway_file_is_one_line(tmp_path, content):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "multiway.json").write_text(content)
    result = CliRunner().invoke(cli, ["equity", "AKs", "--players", "6", "--site-dir", str(tmp_path)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:") and "multiway.json" in lines[0], result.output
    assert lines[0].isprintable()


def test_merge_into_a_directory_or_an_unwritable_path_is_one_line(config, tmp_path, monkeypatch):
    a, b = (_shard_checkpoint(config, tmp_path, monkeypatch, shard) for shard in range(2))
    for output, fragment in ((tmp_path, "is a directory"), (Path("/proc/allin-merge.npz"), "cannot save")):
        result = CliRunner().invoke(cli, ["merge", str(a), str(b), "-o", str(output)])
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and fragment in lines[0] and "Traceback" not in result.output, result.output


def test_a_live_status_expires_so_a_killed_run_does_not_leave_pages_polling(tmp_path):
    """kill -9 gives the run no chance to write running: false; the status it renews at every checkpoint carries an
    expiry (twice the interval, and 5 s) after which chart pages (pages/chart.js) stop polling."""
    import time

    from generator.data.datafiles import write_live_status

    write_live_status(tmp_path, True, None, renew_s=60)
    status = json.loads((tmp_path / LIVE_STATUS_PATH).read_text())
    assert status["running"] and time.time() + 120 < status["expires"] <= time.time() + 126
    write_live_status(tmp_path, False, "2026-11-27T00:00:00+00:00")
    assert json.loads((tmp_path / LIVE_STATUS_PATH).read_text()) == {"running": False, "generated": "2026-11-27T00:00:00+00:00"}


def test_the_progress_line_says_a_far_target_in_days_or_years_not_millions_of_minutes():
    from generator.compute.stages.multiway import eta_text

    assert [eta_text(s) for s in (None, 42, 150, 5400, 4 * 86400, 300 * 86400, 2e9)] == [
        "?", "42s", "2m", "1.5h", "4d", "300d", "over a year"]
