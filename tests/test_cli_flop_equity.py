"""``allin flop equity`` and ``allin flop report`` as a user runs them: --json with the kernel's numbers, the text
summary, sorting, texture filters, --top, one-line errors (exit 2) and Ctrl-C (exit 130)."""

import json
import signal
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from generator.cli import main as cli
from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import format_cards, parse_cards
from kernels.flop.equity import combo_equities, equity_distribution, every_flop_report
from kernels.flop.flops import texture
from kernels.ranges import parse_range

REPORT = ("AA,KK,0.5(AKs)", "QQ,JJ,AQs")


def run(*args):
    return CliRunner().invoke(cli, ["flop", *args])


def assert_one_line_error(result, fragment):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and fragment in lines[0], result.output


@pytest.fixture(scope="module")
def report():
    return every_flop_report(*(parse_range(text).weights for text in REPORT), evaluator_tables())


@pytest.mark.parametrize("a,b,board,dead", [
    ("QQ+,AK,0.5(T9s)", "JJ-99,AQs,KQ", "Kh8d3c", "2s"), ("AhKh", "QQ+,0.5(AQs)", "Kd8h3h7c", ""),
])
def test_equity_json_is_the_kernels_distribution(a, b, board, dead):
    result = run("equity", "--range", a, "--villain", b, "--board", board, *(["--dead", dead] if dead else []), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    ce = combo_equities(parse_range(a).weights, parse_range(b).weights, parse_cards(board), parse_cards(dead) if dead else [],
                        evaluator_tables())
    d = equity_distribution(ce)
    assert (document["range"], document["villain"], document["board"], document["dead"]) == (a, b, board, dead)
    assert document["equity"] == d.overall and document["boards"] == ce.boards and document["combos"] == len(d.combos)
    assert document["quantiles"] == {f"{q:g}": v for q, v in d.quantiles.items()}
    assert list(document["quantiles"]) == ["0.1", "0.25", "0.5", "0.75", "0.9"]
    assert document["above"] == {f"{t:g}": v for t, v in d.above.items()}
    assert [h["equity"] for h in document["hands"]] == d.equity.tolist()
    assert [h["weight"] for h in document["hands"]] == d.weight.tolist()
    assert [sorted(parse_cards(h["hand"])) for h in document["hands"]] == [sorted(parse_cards(format_cards(c))) for c in
                                                                          [_combo(x) for x in d.combos]]


def _combo(combo_id):
    from kernels.cards import ALL_COMBOS

    return ALL_COMBOS[combo_id]


def test_equity_prints_a_summary():
    result = run("equity", "--range", "QQ+,AK", "--villain", "JJ-99,AQs", "--board", "Kh8d3c")
    assert result.exit_code == 0, result.output
    d = equity_distribution(combo_equities(parse_range("QQ+,AK").weights, parse_range("JJ-99,AQs").weights,
                                           parse_cards("Kh8d3c"), [], evaluator_tables()))
    lines = result.output.splitlines()
    assert lines[1] == f"equity {d.overall:.2%}"
    assert lines[2].split()[1:] == [f"{q:.0%}" if k % 2 == 0 else f"{v:.2%}" for q, v in d.quantiles.items() for k in (0, 1)]
    assert lines[3].split()[1:] == [f"{t:.0%}" if k % 2 == 0 else f"{v:.2%}" for t, v in d.above.items() for k in (0, 1)]


def test_report_json_is_the_kernels_report(report):
    result = run("report", "--range", REPORT[0], "--villain", REPORT[1], "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["equity"] == report.overall
    assert len(document["flops"]) == 1755
    by_equity = sorted(range(1755), key=lambda f: (np.isnan(report.equity[f]), -np.nan_to_num(report.equity[f])))
    assert [row["flop"] for row in document["flops"]] == [format_cards(sorted(report.flops[f], reverse=True)) for f in by_equity]
    assert [row["equity"] for row in document["flops"]] == [None if np.isnan(report.equity[f]) else report.equity[f] for f in by_equity]
    assert [row["share"] for row in document["flops"]] == [report.share[f] for f in by_equity]
    assert [row["weight"] for row in document["flops"]] == [report.flop_weight[f] for f in by_equity]
    monotone = np.array([texture(cards)["suits"] == "monotone" for cards in report.flops])
    assert document["by_texture"]["monotone"] == dict(zip(("equity", "share"), report.group(monotone)))
    assert sum(document["by_texture"][name]["share"] for name in ("rainbow", "two-tone", "monotone")) == pytest.approx(1, abs=1e-15)


def test_report_sorts_filters_and_cuts(report):
    result = run("report", "--range", REPORT[0], "--villain", REPORT[1], "--sort", "weight", "--texture", "two-tone",
                 "--texture", "paired", "--top", "5", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["flops"]
    keep = [f for f in range(1755) if texture(report.flops[f])["suits"] == "two-tone" and texture(report.flops[f])["pairing"] == "paired"]
    expected = sorted(keep, key=lambda f: -report.share[f])[:5]
    assert [row["share"] for row in rows] == [report.share[f] for f in expected]
    assert all(row["texture"]["suits"] == "two-tone" and row["texture"]["pairing"] == "paired" for row in rows)


def test_report_prints_a_table(report):
    result = run("report", "--range", REPORT[0], "--villain", REPORT[1], "--top", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert f"preflop equity {report.overall:.2%}" in lines[0]
    assert lines[1].startswith("by texture  rainbow ")
    assert len(lines) == 3 + 1 + 3  # summary, by texture, blank, header, three flops
    best = int(np.nanargmax(report.equity))
    assert lines[4].split()[:2] == [format_cards(sorted(report.flops[best], reverse=True)), f"{report.equity[best]:.2%}"]


@pytest.mark.parametrize("args,fragment", [
    (["equity", "--range", "AKx", "--villain", "QQ", "--board", "Kh8d3c"], "--range:"),
    (["equity", "--range", "AK", "--villain", "QQ:0", "--board", "Kh8d3c"], "--villain (QQ:0) holds no hand"),
    (["equity", "--range", "AK", "--villain", "QQ", "--board", "Kh8d"], "3, 4 or 5 cards, got 2"),
    (["equity", "--range", "AK", "--villain", "QQ", "--board", "Kh8d3x"], "--board:"),
    (["equity", "--range", "AK", "--villain", "QQ", "--board", "Kh8d3c", "--dead", "3c"], "--dead: 3c is also on the board"),
    (["equity", "--range", "AsAh", "--villain", "AsKs", "--board", "Kh8d3c"], "--villain (AsKs): no hand left: every hand in it "
                                                                               "holds a card already taken: As (--range)"),
    (["equity", "--range", "KhKd", "--villain", "QQ", "--board", "Kh8d3c"], "--range (KhKd): no hand left: every hand in it holds "
                                                                            "a card already taken: Kh (board)"),
    (["equity", "--range", "AA,KK", "--villain", "QQ", "--board", "KhKdKc", "--dead", "AhAdAcAs"], "--range (AA,KK): no hand left"),
    (["report", "--range", "AsKs", "--villain", "QQ"], "--range (AsKs) is not suit-symmetric (AhKh at 0 but AsKs at 1)"),
    (["report", "--range", "QQ", "--villain", "QQ,AhKh"], "--villain (QQ,AhKh) is not suit-symmetric"),
])
def test_bad_input_is_one_error_line(args, fragment):
    assert_one_line_error(run(*args), fragment)


@pytest.mark.parametrize("args,fragment", [
    (["report", "--range", "QQ", "--villain", "JJ", "--texture", "wet"], "Invalid value for '--texture'"),
    (["report", "--range", "QQ", "--villain", "JJ", "--top", "0"], "Invalid value for '--top'"),
    (["report", "--range", "QQ", "--villain", "JJ", "--sort", "name"], "Invalid value for '--sort'"),
])
def test_an_option_out_of_its_choices_is_clicks_usage_error(args, fragment):
    """Click checks the choices and ranges it shows in --help: its usage lines, then one error line, exit 2."""
    result = run(*args)
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and fragment in errors[0] and "Traceback" not in result.output


@pytest.mark.slow
def test_ctrl_c_during_a_report_is_one_line_and_exit_130():
    """Random against random walks the board classes in many calls; Ctrl-C lands between two."""
    command = [sys.executable, "-m", "generator.cli", "flop", "report", "--range", "random", "--villain", "random"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = ""
    try:
        while "board classes" not in seen or "/134459" not in seen.rsplit("flops:", 1)[-1]:
            character = process.stderr.read(1)
            assert character, f"the process ended before its progress bar: {seen[-2000:]}"
            seen += character
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    stderr = seen + stderr
    assert process.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr and stderr.strip().splitlines()[-1].startswith("Interrupted:")
