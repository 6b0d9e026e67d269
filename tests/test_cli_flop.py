"""``allin flop hits`` as a user runs it: the table, --json with the kernel's numbers, and one-line errors (exit 2)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from generator.cli import main as cli
from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import ALL_COMBOS, parse_cards
from kernels.flop.categories import DRAWS, MADE_CATEGORIES, range_hit_table
from kernels.ranges import parse_range


def run(*args):
    return CliRunner().invoke(cli, ["flop", "hits", *args])


def assert_one_line_error(result, fragment):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and fragment in lines[0], result.output


def kernel_table(text, board, dead=""):
    weights = parse_range(text).weights
    live = np.flatnonzero(weights)
    return range_hit_table(ALL_COMBOS[live], weights[live], parse_cards(board), parse_cards(dead), evaluator_tables())


@pytest.mark.parametrize("text,board,dead", [
    ("QQ+,AKs", "AsKd7c", ""), ("0.5(KQo, AJs), 22-55, T9s:0.25, AhKh", "AhKd5c2s", "3c"), ("random", "9h8h7c6d5s", "Ac"),
])
def test_json_gives_the_kernels_hit_table(text, board, dead):
    result = run("--range", text, "--board", board, *(["--dead", dead] if dead else []), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    table = kernel_table(text, board, dead)
    assert (document["range"], document["board"], document["dead"]) == (text, board, dead)
    assert document["combos"] == len(table.kept) and document["weight"] == table.total
    assert [row["category"] for row in document["made"]] == list(MADE_CATEGORIES)
    assert [row["combos"] for row in document["made"]] == table.made_weight.tolist()
    assert [row["share"] for row in document["made"]] == table.made_share.tolist()
    assert [row["draw"] for row in document["draws"]] == list(DRAWS)
    assert [row["combos"] for row in document["draws"]] == table.draw_weight.tolist()
    assert [row["share"] for row in document["draws"]] == table.draw_share.tolist()
    assert [MADE_CATEGORIES.index(hand["made"]) for hand in document["hands"]] == table.made.tolist()
    assert [sum(1 << DRAWS.index(d) for d in hand["draws"]) for hand in document["hands"]] == table.draws.tolist()
    assert [sorted(parse_cards(hand["hand"])) for hand in document["hands"]] == table.combos.tolist()


def test_the_table_shows_every_category_and_draw_with_its_combos_and_share():
    result = run("--range", "QQ+,AKs", "--board", "AsKd7c")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("QQ+,AKs on AsKd7c") and "14 combos left" in lines[0]  # 6 + 3 + 3 pairs, 2 AKs
    rows = {line[:20].strip(): line[20:].split() for line in lines[1:] if line[:20].strip() in MADE_CATEGORIES + DRAWS}
    assert len(rows) == len(MADE_CATEGORIES) + len(DRAWS)
    table = kernel_table("QQ+,AKs", "AsKd7c")
    for name, weight, share in zip(MADE_CATEGORIES, table.made_weight, table.made_share):
        assert rows[name] == [f"{weight:.6g}", f"{share:.2%}"]
    assert rows["set"] == ["6", "42.86%"] and rows["two pair"] == ["2", "14.29%"]


def test_a_percentage_range_takes_the_equity_ranking(monkeypatch):
    from generator.cli import queries

    ranking = np.arange(169)[::-1]  # any order will do: here 22 first
    monkeypatch.setattr(queries, "class_ranking", lambda: ranking)
    document = json.loads(run("--range", "0.5%", "--board", "2c3d4h", "--json").stdout)
    assert {hand["hand"][::2] for hand in document["hands"]} == {"22"} and document["combos"] == 3


@pytest.mark.parametrize("args,fragment", [
    (["--range", "QQ+x", "--board", "AsKd7c"], '--range: token "QQ+x"'),
    (["--range", "AA:0", "--board", "AsKd7c"], "holds no hand"),
    (["--range", "QQ+", "--board", "AsKd7x"], "--board: '7x' is not a card"),
    (["--range", "QQ+", "--board", "AsAs7c"], "--board: 'AsAs7c': duplicate card As"),
    (["--range", "QQ+", "--board", "AsKd"], "3, 4 or 5 cards, got 2"),
    (["--range", "QQ+", "--board", "AsKd7c2c3c4c"], "3, 4 or 5 cards, got 6"),
    (["--range", "QQ+", "--board", "AsKd7c", "--dead", "2c2c"], "--dead: '2c2c': duplicate card 2c"),
    (["--range", "QQ+", "--board", "AsKd7c", "--dead", "Kd"], "--dead: Kd is also on the board"),
    (["--range", "AA", "--board", "AsAhAd", "--dead", "Ac"], "--range (AA): no combo of the range is left"),
])
def test_bad_input_is_one_error_line_and_exit_2(args, fragment):
    assert_one_line_error(run(*args), fragment)
