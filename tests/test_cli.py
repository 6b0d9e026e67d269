"""The query commands as a user runs them: output, --json, and one-line errors with exit code 2."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from generator.cli import main as cli
from generator.core.evaluator_tables import evaluator_tables, evaluator_tables_path
from kernels.headsup.tables import BOARDS_PER_MATCHUP


def run(*args):
    """Invoke the CLI; ``.stdout`` is what a pipe would get (progress bars go to stderr)."""
    return CliRunner().invoke(cli, list(args))


def assert_one_line_error(result, fragment):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("Error:") and fragment in lines[-1], result.output
    assert "Traceback" not in result.output


def test_eval_names_the_best_hand_and_its_strength():
    result = run("eval", "AsKsQsJsTs2c3d", "7h7d7c7s2d3d4d", "2c3d4h5s7d")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "straight flush" in lines[0] and lines[0].split()[-1] == "7462"
    assert "four of a kind" in lines[1]
    assert "high card" in lines[2] and lines[2].split()[-1] == "1"


def test_eval_json():
    rows = json.loads(run("eval", "--json", "AhKhQhJh9h2c3d").stdout)
    assert rows == [{"hand": "AhKhQhJh9h2c3d", "category": "flush", "strength": rows[0]["strength"]}]
    assert 5864 <= rows[0]["strength"] < 7141  # the flush band of the 7,462 strengths


@pytest.mark.parametrize(
    "hand,fragment", [("1xAsKsQsJs2c3d", "not a card"), ("AsAsKdKc2c3c4c", "duplicate"), ("AsKd", "5 to 7 cards")]
)
def test_eval_bad_cards(hand, fragment):
    assert_one_line_error(run("eval", hand), fragment)


def test_equity_heads_up_is_exact():
    row = json.loads(run("equity", "AA", "--players", "2", "--json").stdout)
    assert row["exact"] is True and row["players"] == 2 and row["hand"] == "AA"
    assert row["equity"] == pytest.approx(0.8520, abs=5e-5)
    counts = row["counts"]
    assert counts["win"] + counts["tie"] + counts["loss"] == counts["total"] == 1225 * BOARDS_PER_MATCHUP
    assert row["equity"] == (counts["win"] + counts["tie"] / 2) / counts["total"]


def test_equity_all_lists_169_classes():
    rows = json.loads(run("equity", "--all", "--json").stdout)
    assert len(rows) == 169 and rows[0]["hand"] == "AA" and rows[-1]["hand"] == "22"


def test_equity_multiway_without_results_says_what_to_run(tmp_path):
    assert_one_line_error(run("equity", "AKs", "--players", "6", "--site-dir", str(tmp_path)), "allin compute multiway")


@pytest.mark.parametrize("args,fragment", [(["AKx"], "not a hand class"), ([], "give one HAND"), (["AK"], "AKs")])
def test_equity_bad_input(args, fragment):
    assert_one_line_error(run("equity", *args), fragment)


PLAYER_KEYS = {"range", "equity", "win", "tie", "ties", "se_equity"}


def range_equity_json(*args):
    result = run("equity", *args, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    n = len(document["players"])
    assert set(document) == {"players", "board", "dead", "exact", "method", "boards" if document["exact"] else "samples"}
    for player in document["players"]:
        assert set(player) == PLAYER_KEYS and set(player["ties"]) == {str(k) for k in range(2, n + 1)}
        assert player["tie"] == pytest.approx(sum(player["ties"].values()), abs=1e-15)
        assert player["equity"] == pytest.approx(player["win"] + sum(v / int(k) for k, v in player["ties"].items()), abs=1e-12)
        assert (player["se_equity"] is None) == document["exact"]
    assert sum(p["equity"] for p in document["players"]) == pytest.approx(1.0, abs=1e-12)
    return document


@pytest.mark.slow
def test_range_equity_combo_against_a_range_is_exact():
    document = range_equity_json("AsKs", "QQ+,AKo")
    assert document["exact"] and document["method"] == "enumeration" and document["board"] == document["dead"] == ""
    assert [p["range"] for p in document["players"]] == ["AsKs", "QQ+,AKo"]
    assert round(document["players"][0]["equity"], 6) == 0.405547


def test_range_against_range_on_a_flop_is_exact():
    document = range_equity_json("QQ+,AK", "JJ-99,AQs", "--board", "Kh8d3c")
    assert document["exact"] and document["boards"] == 1176 and document["board"] == "Kh8d3c"
    assert round(document["players"][0]["equity"], 6) == 0.924715


@pytest.mark.slow
def test_three_players_exact_and_four_players_sample():
    three = range_equity_json("AhAd", "random", "random", "--board", "KsQsJs")
    assert three["exact"] and three["method"] == "enumeration" and three["boards"] == 1176
    assert three["players"][1] == three["players"][2] | {"range": "random"}  # symmetric seats, exactly
    sampled = range_equity_json("AhAd", "random", "random", "random", "--board", "KsQsJs", "--target-se", "2e-3")
    assert not sampled["exact"] and sampled["method"] == "monte carlo" and sampled["samples"] > 0
    assert all(p["se_equity"] <= 2e-3 for p in sampled["players"])
    four = range_equity_json("8s8h", "22+,A2s+", "QQ+,AK", "random", "--dead", "2c", "--target-se", "2e-3")
    assert four["dead"] == "2c" and len(four["players"]) == 4 and all(p["se_equity"] <= 2e-3 for p in four["players"])


def test_preflop_class_ranges_come_from_the_table_and_one_range_meets_random_opponents():
    table = range_equity_json("QQ+,AK", "JJ-99,AQs")
    assert table["exact"] and table["method"] == "table"
    alone = range_equity_json("AsKs", "--board", "Kh8d3c", "--players", "3", "--target-se", "3e-3")
    assert [p["range"] for p in alone["players"]] == ["AsKs", "random", "random"]


def test_range_equity_text_is_a_table():
    result = run("equity", "QQ+,AK", "JJ-99,AQs", "--board", "Kh8d3c")
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and "exact, 1,176 boards enumerated" in lines[0]
    assert lines[1].split() == ["#", "range", "equity", "±", "95%", "win", "tie"]
    assert lines[2].split()[:4] == ["1", "QQ+,AK", "92.4715%", "exact"] and lines[3].split()[1] == "JJ-99,AQs"


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["AsKs", "QQ+,AKx"], 'range 2, token "AKx" (column 5)'),
        (["AsKs", "AA", "--board", "AhAdAc"], "range 2 (AA): no hand left: every hand in it holds a card already taken: Ac (board), Ad (board), Ah (board), As (player 1)"),
        (["AsKs", "AsKs"], "range 2 (AsKs): no hand left: every hand in it holds a card already taken: Ks (player 1), As (player 1)"),
        (["AsKs", "QQ", "--board", "Kh8d"], "0, 3, 4 or 5 cards"),
        (["AsKs", "QQ", "--board", "Kh8d3x"], "--board"),
        (["AsKs", "QQ", "--board", "Kh8d3c", "--dead", "3c"], "3c is also on the board"),
        (["AsKs", "QQ", "--players", "3"], "--players 3 but 2 ranges"),
        ([*["random"] * 11], "2 to 10 players"),
        (["AsKs", "QQ:2"], "weight 2 is not between 0 and 1"),
        (["AA:0", "KK"], "range 1 (AA:0) holds no hand: every weight in it is 0"),  # was "…already taken: " and nothing
        (["KK", "0%"], "range 2 (0%) holds no hand: every weight in it is 0"),
        (["AsKs", "QQ", "--target-se", "0"], "--target-se"),
        (["AsKs", "QQ", "--budget", "soon"], "--budget"),
    ],
)
def test_range_equity_bad_input(args, fragment):
    assert_one_line_error(run("equity", *args), fragment)


def test_render_with_an_unreadable_config_or_article_is_one_line(tmp_path):
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(bytes(range(256)) * 4)
    out = str(tmp_path / "site")
    assert_one_line_error(run("render", "--config", str(binary), "--site-dir", out), f"{binary}: not UTF-8 text")
    assert_one_line_error(run("render", "--config", str(tmp_path), "--site-dir", out), "is a directory")
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "bad.md").write_bytes(binary.read_bytes())
    (tmp_path / "site.yaml").write_text("site: {title: T}\n")
    assert_one_line_error(run("render", "--config", str(tmp_path / "site.yaml"), "--site-dir", out), "bad.md: not UTF-8 text")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--budget", "99999999999999999999999s"], "--budget must be positive and at most a year"),
        (["--budget", "9" * 400 + "s"], "--budget must be positive and at most a year"),
        (["--target-se", "nan"], "--target-se must be a finite number"),
        (["--target-se", ""], "--target-se is not a number (empty)"),
    ],
)
def test_compute_multiway_refuses_bad_numbers_before_running(tmp_path, monkeypatch, args, fragment):
    def must_not_run(*_args, **_options):
        raise AssertionError("run_multiway was called with an invalid option")

    monkeypatch.setattr("generator.compute.stages.multiway.run_multiway", must_not_run)
    assert_one_line_error(run("compute", "multiway", *args, "--site-dir", str(tmp_path)), fragment)


def test_matchup_classes_and_combos_agree():
    classes = json.loads(run("matchup", "AKs", "QQ", "--json").stdout)
    combo_vs_class = json.loads(run("matchup", "AsKs", "QQ", "--json").stdout)
    assert classes["exact"] and classes["combos"] == 24 and combo_vs_class["combos"] == 6
    # every AKs combo meets QQ the same way up to suits
    assert combo_vs_class["equity"] == pytest.approx(classes["equity"], abs=1e-15)
    combos = json.loads(run("matchup", "AsKs", "QdQc", "--json").stdout)
    assert combos["counts"] == {"win": [787966, 917606], "tie": 6732, "total": BOARDS_PER_MATCHUP}


@pytest.mark.parametrize(
    "args,fragment",
    [(["AKx", "QQ"], "not a hand class"), (["AsAd", "AsKs"], "share cards"), (["AA", "KK", "QQ"], "exactly two")],
)
def test_matchup_bad_input(args, fragment):
    assert_one_line_error(run("matchup", *args), fragment)


def _stderr_until(process, pattern):
    """Read the process's stderr until ``pattern`` matches; returns what was read."""
    seen = ""
    while not re.search(pattern, seen):
        character = process.stderr.read(1)
        assert character, f"the process ended before {pattern!r} appeared: {seen[-2000:]}"
        seen += character
    return seen


#: Moments in the heads-up walk (empty cache): the walk's bar has appeared and its first slice is
#: compiling (Numba calls back into Python through ctypes here: the case that used to lose the
#: signal), or at least one slice of boards has been counted by compiled code.
COMPILING = r"heads-up boards"
WALKING = r"\| *[1-9][0-9]*/134459"


@pytest.mark.parametrize(
    "moment,signum",
    [
        pytest.param(COMPILING, signal.SIGINT, id="SIGINT-while-compiling"),
        pytest.param(WALKING, signal.SIGINT, id="SIGINT-while-walking"),
        pytest.param(COMPILING, signal.SIGTERM, id="SIGTERM-while-compiling"),
    ],
)
@pytest.mark.slow
def test_a_stop_signal_during_the_heads_up_walk_is_one_line_and_exit_130(tmp_path, moment, signum):
    """Ctrl-C or SIGTERM while the exact heads-up stage compiles or runs its kernels (a fresh heads-up cache)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    evaluator_tables()  # built once into the suite's cache, then copied: only the walk is computed afresh
    shutil.copy(evaluator_tables_path(), cache)
    env = dict(os.environ, ALLIN_CACHE_DIR=str(cache))
    command = [sys.executable, "-m", "generator.cli", "compute", "headsup", "--site-dir", str(tmp_path / "site")]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = _stderr_until(process, moment)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=300)
    stderr = seen + stderr
    assert process.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr[-2000:]
    assert stderr.strip().splitlines()[-1].startswith("Interrupted:")
    assert not list(cache.glob("headsup-*")), "an interrupted walk must not leave a cached result"


def test_ctrl_c_during_a_range_equity_run_is_one_line_and_exit_130():
    """The Monte Carlo loop stops at its next progress point (after the bar has shown a batch)."""
    command = [sys.executable, "-m", "generator.cli", "equity", *["random"] * 6, "--target-se", "1e-6", "--budget", "5m"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen = _stderr_until(process, r"equity: +[1-9][0-9]*")
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    stderr = seen + stderr
    assert process.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr and stderr.strip().splitlines()[-1].startswith("Interrupted:")


@pytest.mark.parametrize("args", [
    ("equity", "AKs", "QQ", "--seed", "-1"), ("equity", "AKs", "--players", "6", "--seed", str(2**64)),
    ("compute", "threeway", "--seed", "-1"), ("compute", "threeway", "--seed", str(2**70)),
    ("compute", "threeway", "--shard", str(2**70)), ("compute", "multiway", "--seed", str(2**63)),
])
def test_seeds_and_shards_out_of_range_are_one_error_line_for_every_command(args):
    """One check (generator.core.validation.stream_id) instead of an OverflowError traceback from the RNG's uint64."""
    result = run(*args)
    assert_one_line_error(result, f"{args[-2]} must be a whole number in [0, 2^63), got {args[-1]}")


@pytest.mark.parametrize("args, folder", [
    (("render", "--site-dir", "{file}/site"), "--site-dir {file}/site"),
    (("compute", "pushfold", "--site-dir", "{file}/site"), "--site-dir {file}/site"),
    (("build", "--site-dir", "/proc/no-such-folder"), "--site-dir /proc/no-such-folder"),
    (("equity", "AA", "--players", "3"), "the cache folder (ALLIN_CACHE_DIR) {file}/cache"),
])
def test_an_unwritable_output_folder_is_one_line_before_any_work(tmp_path, args, folder):
    """A folder that cannot be written (here under a regular file, or in /proc: root writes anywhere else) is named in
    one line at once, where `allin equity AA --players 3` computed for 32 s before failing (issue #38, item 10): the
    output is that line alone, no progress bar of a stage begun."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    command = [a.replace("{file}", str(blocker)) for a in args]
    result = CliRunner().invoke(cli, command, env={"ALLIN_CACHE_DIR": str(blocker / "cache")})
    assert_one_line_error(result, folder.replace("{file}", str(blocker)) + ": cannot write there")
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_a_narrow_heads_up_query_is_exact_without_computing_the_heads_up_tables(tmp_path, monkeypatch):
    """`allin equity AsKs,AsKs:0.5 KK` took 36 s on a fresh cache (the whole heads-up table computed first) where
    enumerating 6 combo pairs takes a second (issue #38, item 17): the table is computed only when it is cached
    already or the ranges are too wide to enumerate."""
    from generator.compute.stages import headsup

    cache = tmp_path / "cache"
    cache.mkdir()
    evaluator_tables()
    shutil.copy(evaluator_tables_path(), cache)
    monkeypatch.setattr(headsup, "compute_headsup_tables", lambda *a, **k: pytest.fail("computed the heads-up tables"))
    result = CliRunner().invoke(cli, ["equity", "AsKs,AsKs:0.5", "KK", "--json"], env={"ALLIN_CACHE_DIR": str(cache)})
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["method"] == "enumeration" and answer["exact"] and not list(cache.glob("headsup-*"))
    assert answer["players"][0]["equity"] == pytest.approx(0.34106385, abs=5e-9)  # AsKs vs KK, as the table gives it
