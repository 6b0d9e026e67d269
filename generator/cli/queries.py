"""Quick queries on the computed data: ``allin equity`` and ``allin matchup``."""

from __future__ import annotations

import time
from pathlib import Path

import click
import numpy as np

from generator.core.config import check_target_se, parse_duration
from generator.core.errors import InputError
from generator.core.evaluator_tables import evaluator_tables
from generator.core.validation import stream_id
from generator.core.progress import progress_bar
from generator.core.storage import CorruptFileError, json_text, read_json
from kernels.cards import ALL_COMBOS, CLASS_NAMES, COMBO_CLASS, CardError, format_cards, parse_cards, parse_class
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from kernels.constants import MAX_SEATS, Z_975
from kernels.ranges import RangeError, parse_range, ranking_from_equity



def _class_index(text: str) -> int:
    try:
        return parse_class(text)
    except CardError as exc:
        raise InputError(str(exc)) from None


def _exact_split_row(index: int, players: int) -> dict:
    """A class against two or three random hands, from the exact three- or four-handed counts (computed once, cached)."""
    from generator.compute import registry
    from generator.compute.run import default_run

    counts = registry.results("threehanded" if players == 3 else "fourhanded", default_run())
    splits = {str(k): int(counts[f"tie_{k}"][index]) for k in range(2, players + 1)}
    win, loss, total = (int(counts[key][index]) for key in ("win", "loss", "total"))
    return {
        "hand": CLASS_NAMES[index],
        "players": players,
        "win": win / total,
        "tie": sum(splits.values()) / total,
        "loss": loss / total,
        "equity": (win + sum(count / int(k) for k, count in splits.items())) / total,
        "tie_k": {k: count / total for k, count in splits.items()},
        "counts": {"win": win, **{f"tie_{k}": count for k, count in splits.items()}, "loss": loss, "total": total},
        "exact": True,
    }


def _exact_row(index: int, players: int) -> dict:
    from generator.compute import registry
    from generator.compute.run import default_run

    results, _ = registry.results("headsup", default_run())
    total = int(results.vs_random_total[index])
    win, tie = int(results.vs_random_win[index]), int(results.vs_random_tie[index])
    return {
        "hand": CLASS_NAMES[index],
        "players": players,
        "win": win / total,
        "tie": tie / total,
        "loss": (total - win - tie) / total,
        "equity": (win + tie / 2) / total,
        "counts": {"win": win, "tie": tie, "loss": total - win - tie, "total": total},
        "exact": True,
    }


MONTE_CARLO_FIELDS = ("win", "tie", "loss", "equity", "se_win", "se_tie", "se_equity")


def _load_multiway(site_dir: Path, players: int) -> dict:
    """The ``by_players`` block of ``multiway.json`` for ``players``, checked to have the documented shape."""
    path = site_dir / "data" / "multiway.json"
    if not path.exists():
        raise InputError(f"no multiway results in {path}: run `allin compute multiway` (or `make build`) first")
    try:
        block = read_json(path)["by_players"][str(players)]
        fields = [block[key] for key in (*MONTE_CARLO_FIELDS, "tie_k", "samples")]
        well_formed = all(isinstance(values, list) and len(values) == len(CLASS_NAMES) for values in fields) and all(
            isinstance(row, list) and len(row) == 9 for row in block["tie_k"]
        )
    except CorruptFileError as exc:
        raise InputError(f"{exc}; rerun `allin compute multiway`") from None
    except (KeyError, TypeError, IndexError):
        well_formed = False
    if not well_formed:
        raise InputError(f"{path}: not the documented multiway format (docs/data-format.md); rerun `allin compute multiway`")
    return block


def _monte_carlo_row(block: dict, index: int, players: int) -> dict:
    """One class's estimates; a standard error not yet known (too few deals) is None, and so is its interval."""
    row = {
        "hand": CLASS_NAMES[index],
        "players": players,
        **{key: block[key][index] for key in MONTE_CARLO_FIELDS},
        "tie_k": {str(k): block["tie_k"][index][k - 2] for k in range(2, players + 1)},
        "samples": block["samples"][index],
        "exact": False,
    }
    equity, se = row["equity"], row["se_equity"]
    row["ci95_equity"] = None if equity is None or se is None else [equity - Z_975 * se, equity + Z_975 * se]
    return row


def _percent(value) -> str:
    """A fraction as ``"12.3456%"`` in 8 columns, ``"n/a"`` when unknown."""
    return f"{'n/a':>8}" if value is None else f"{value:8.4%}"


def _print_table(rows: list[dict]) -> None:
    exact = rows[0]["exact"]
    header = f"{'hand':<5} {'win':>8} {'tie':>8} {'loss':>8} {'equity':>8}" + ("" if exact else f" {'± 95%':>8} {'samples':>12}")
    click.echo(header)
    for row in rows:
        line = f"{row['hand']:<5} " + " ".join(_percent(row[key]) for key in ("win", "tie", "loss", "equity"))
        if not exact:
            half = None if row["se_equity"] is None else Z_975 * row["se_equity"]
            line += f" {_percent(half)} {row['samples']:>12,}"
        click.echo(line)


def class_ranking() -> np.ndarray:
    """Class indices best first by exact heads-up equity against a random hand (the ``x%`` ranking)."""
    from generator.compute import registry
    from generator.compute.run import default_run

    results, _ = registry.results("headsup", default_run())
    return ranking_from_equity(results.vs_random_equity())


def cards_option(text: str, name: str) -> list[int]:
    """The card ids of option ``name`` (none for an empty text); an error line names the option."""
    try:
        return parse_cards(text) if text else []
    except CardError as exc:
        raise InputError(f"{name}: {exc}") from None


def range_option(text: str, name: str) -> np.ndarray:
    """The weights ``(1326,)`` of the range given as option ``name`` (x% ranks the classes by :func:`class_ranking`);
    an error line names the option, also for a range of weight 0."""
    try:
        weights = parse_range(text, class_ranking() if "%" in text else None).weights
    except RangeError as exc:
        raise InputError(f"{name}: {exc}") from None
    if not weights.any():
        raise InputError(f"{name} ({text}) holds no hand: every weight in it is 0")
    return weights


def _parse_ranges(texts: list[str]) -> list[np.ndarray]:
    """Each player's weights ``(1326,)``; an error names the range (1-based), the token and its column."""
    ranking = class_ranking() if any("%" in text for text in texts) else None
    weights = []
    for number, text in enumerate(texts, start=1):
        try:
            weights.append(parse_range(text, ranking).weights)
        except RangeError as exc:
            raise InputError(f"range {number}, {exc}") from None
        if not weights[-1].any():  # "AA:0", "0%": a range of weight 0, not one that card removal emptied
            raise InputError(f"range {number} ({text}) holds no hand: every weight in it is 0")
    return weights


def _known(value) -> float | None:
    """A fraction for JSON; None where the method does not give it (NaN: a random seat's win from the multiway table)."""
    return None if np.isnan(value) else float(value)


def _range_equity_json(texts, board, dead, result) -> dict:
    """The ``--json`` document of a range equity query (shape in docs/equity.md)."""
    n = len(texts)
    players = [
        {
            "range": text,
            "equity": float(result.equity[p]),
            "win": _known(result.win[p]),
            "tie": _known(result.tie[p]),
            "ties": {str(k): _known(result.ties[p, k - 2]) for k in range(2, n + 1)},
            "se_equity": None if result.se_equity is None else float(result.se_equity[p]),
        }
        for p, text in enumerate(texts)
    ]
    document = {"players": players, "board": format_cards(board), "dead": format_cards(dead), "exact": result.exact, "method": result.method}
    document.update({"boards": result.boards} if result.exact else {"samples": result.samples})
    return document


def _print_range_table(document: dict, seconds: float) -> None:
    exact = document["exact"]
    if exact:
        table = "heads-up" if len(document["players"]) == 2 else "three-handed"
        how = f"exact, from the {table} table" if document["method"] == "table" else f"exact, {document['boards']:,} boards enumerated"
    elif document["method"] == "table":
        how = f"from the multiway table, {document['samples']:,} deals, ± = 95% confidence interval"
    else:
        how = f"Monte Carlo, {document['samples']:,} deals, ± = 95% confidence interval"
    click.echo(f"board {document['board'] or '-'}   dead {document['dead'] or '-'}   {how}   ({seconds:.2f} s)")
    width = max(5, *(len(p["range"]) for p in document["players"]))
    click.echo(f"{'#':>2}  {'range':<{width}} {'equity':>8} {'± 95%':>8} {'win':>8} {'tie':>8}")
    for number, player in enumerate(document["players"], start=1):
        half = "exact" if exact else _percent(Z_975 * player["se_equity"])
        line = f"{number:>2}  {player['range']:<{width}} " + _percent(player["equity"]) + f" {half:>8} "
        click.echo(line + " ".join(_percent(player[key]) for key in ("win", "tie")))


def _multiway_tables(site_dir: Path, players: int) -> dict | None:
    """``{players: table block}``: for 3 and 4 players the exact three- and four-handed counts (computed once, cached),
    else the built multiway table's ``by_players`` block, or None when it is missing or malformed (the spot is then
    sampled)."""
    from generator.compute import registry
    from generator.compute.run import default_run
    from kernels.range_equity import exact_block

    if players in (3, 4):
        counts = registry.results("threehanded" if players == 3 else "fourhanded", default_run())
        return {players: exact_block(counts, players, counts["meta"]["boards"])}
    try:
        return {players: _load_multiway(site_dir, players)}
    except InputError:
        return None


def _range_equity_query(texts, board_text, dead_text, target_se, budget, seed, as_json, site_dir) -> None:
    from generator.compute import registry
    from generator.compute.run import default_run
    from kernels.range_equity import MAX_PLAYERS, NoDealError, blocker_text, exact_without_tables, range_equity

    board, dead = cards_option(board_text, "--board"), cards_option(dead_text, "--dead")
    if len(board) not in (0, 3, 4, 5):
        raise InputError(f"--board: a board has 0, 3, 4 or 5 cards, got {len(board)}")
    shared = sorted(set(board) & set(dead))
    if shared:
        raise InputError(f"--dead: {format_cards(shared)} is also on the board")
    if not 2 <= len(texts) <= MAX_PLAYERS:
        raise InputError(f"2 to {MAX_PLAYERS} players, got {len(texts)}")
    if len(board) + len(dead) + 2 * len(texts) + 5 - len(board) > 52:
        raise InputError("not enough cards left to deal every player two cards and complete the board")
    weights = _parse_ranges(texts)
    # the exact heads-up tables (≈ 35 s to compute once, then cached) where they are cached or needed: ranges narrow
    # enough to enumerate (AsKs vs KK) are exact at once without them
    preflop_headsup = len(texts) == 2 and not board and not dead
    run = default_run()
    use_table = preflop_headsup and (registry.cached("headsup", run) or not exact_without_tables(weights))
    headsup = registry.results("headsup", run)[0] if use_table else None
    multiway = _multiway_tables(site_dir, len(texts)) if len(texts) >= 3 and not board and not dead else None
    started = time.monotonic()
    try:
        with progress_bar("equity", None, "", delay=1.0) as advance:
            result = range_equity(
                weights, board, dead, evaluator_tables(), headsup, multiway, progress=advance,
                target_se=target_se, budget_s=budget, seed=seed,
            )
    except NoDealError as exc:
        if exc.player is None:
            raise InputError(f"{exc}") from None
        text = texts[exc.player]
        raise InputError(f"range {exc.player + 1} ({text}): no hand left: every hand in it holds a card already taken: {blocker_text(exc.blockers)}") from None
    document = _range_equity_json(texts, board, dead, result)
    if as_json:
        click.echo(json_text(document))
    else:
        _print_range_table(document, time.monotonic() - started)


@click.command("equity")
@click.argument("hands", nargs=-1)
@click.option("--players", type=click.IntRange(2, MAX_SEATS), default=None, help="Players at the table (hero + random opponents); default 2.")
@click.option("--board", default="", help="Board cards, 0, 3, 4 or 5 (e.g. Kh8d3c).")
@click.option("--dead", default="", help="Dead cards (e.g. 2c7d).")
@click.option("--target-se", type=float, default=1e-3, show_default=True, help="Monte Carlo: stop once every player's standard error is at most this.")
@click.option("--budget", default="60s", show_default=True, help="Monte Carlo: time budget (e.g. 90s, 4m).")
@click.option("--seed", type=int, default=0, show_default=True, help="Monte Carlo: random stream.")
@click.option("--all", "all_hands", is_flag=True, help="Every one of the 169 classes.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--site-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("site"), show_default=True, help="Where the multiway results live (5+ players; a class against random hands).")
def equity_command(hands, players, board, dead, target_se, budget, seed, all_hands, as_json, site_dir):
    """All-in equity. With one HAND (a class such as AKs, QQ, T9o) and no board: against random opponents,
    heads-up, three- and four-handed exact (every deal counted), 5 to 10 players from the stored Monte Carlo
    results (standard errors, 95% CIs).

    With two or more HANDS (2..10 players, each a combo, a range or random; grammar in docs/equity.md),
    or with --board/--dead: range equity, exact when the work is small enough, else Monte Carlo to
    --target-se or --budget. One HAND with --board/--dead plays against --players − 1 random hands.
    """
    stream_id(seed, "--seed")
    if len(hands) > 1 or ((board or dead) and not all_hands):
        texts = list(hands) if len(hands) > 1 else [*hands, *["random"] * ((players or 2) - 1)]
        if len(hands) > 1 and players is not None and players != len(hands):
            raise InputError(f"--players {players} but {len(hands)} ranges were given")
        target = check_target_se(target_se, "--target-se")
        _range_equity_query(texts, board, dead, target, parse_duration(budget, "--budget"), seed, as_json, site_dir)
        return
    players = players or 2
    if all_hands == bool(hands):
        raise InputError("give one HAND (e.g. AKs) or --all")
    indices = range(len(CLASS_NAMES)) if all_hands else [_class_index(hands[0])]
    if players == 2:
        rows = [_exact_row(i, players) for i in indices]
    elif players in (3, 4):
        rows = [_exact_split_row(i, players) for i in indices]
    else:
        block = _load_multiway(site_dir, players)
        rows = [_monte_carlo_row(block, i, players) for i in indices]
    if as_json:
        click.echo(json_text(rows if all_hands else rows[0]))
    else:
        _print_table(rows)


def _parse_side(text: str):
    """A matchup side: ``("class", index)`` or ``("combo", (card, card))``."""
    if len(text) == 4:
        try:
            return "combo", tuple(parse_cards(text, count=2))
        except CardError as exc:
            raise InputError(str(exc)) from None
    return "class", _class_index(text)


def _combos_of(side) -> list[tuple[int, int]]:
    kind, value = side
    if kind == "combo":
        return [value]
    return [tuple(c) for c in ALL_COMBOS[COMBO_CLASS == value].tolist()]


def _enumerate_matchup(first, second) -> np.ndarray:
    """Counts (first wins, ties, second wins) over every compatible combo pair and board; and pairs."""
    from kernels.headsup.cpu import combo_matchup_counts

    tables = evaluator_tables()
    counts = np.zeros(3, dtype=np.int64)
    pairs = 0
    for a, b in _combos_of(first):
        for c, d in _combos_of(second):
            if len({a, b, c, d}) == 4:
                counts += combo_matchup_counts(a, b, c, d, *tables[:5])
                pairs += 1
    return counts, pairs


@click.command("matchup")
@click.argument("hands", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def matchup_command(hands, as_json):
    """Exact heads-up result of two hands: classes (AKs QQ) or exact combos (AsKs QdQc), or one of each."""
    from generator.compute import registry
    from generator.compute.run import default_run

    if len(hands) != 2:
        raise InputError(f"a matchup takes exactly two hands, got {len(hands)}")
    first, second = (_parse_side(text) for text in hands)
    if first[0] == second[0] == "class":
        results, _ = registry.results("headsup", default_run())
        i, j = first[1], second[1]
        counts = np.array([results.win[i, j], results.tie[i, j], results.loss[i, j]])
        pairs = int(results.pairs[i, j])
    else:
        counts, pairs = _enumerate_matchup(first, second)
    if pairs == 0:
        raise InputError(f"{hands[0]} and {hands[1]} share cards: no deal holds both")
    total = pairs * BOARDS_PER_MATCHUP
    win_a, tie, win_b = (int(x) for x in counts)
    names = [format_cards(v) if kind == "combo" else CLASS_NAMES[v] for kind, v in (first, second)]
    result = {
        "hands": names,
        "win": [win_a / total, win_b / total],
        "tie": tie / total,
        "equity": [(win_a + tie / 2) / total, (win_b + tie / 2) / total],
        "combos": pairs,
        "boards": BOARDS_PER_MATCHUP,
        "counts": {"win": [win_a, win_b], "tie": tie, "total": total},
        "exact": True,
    }
    if as_json:
        click.echo(json_text(result))
        return
    click.echo(f"{names[0]} vs {names[1]}: {pairs} combo pair(s) × {BOARDS_PER_MATCHUP:,} boards, exact")
    for k in range(2):
        click.echo(f"  {names[k]:<6} win {result['win'][k]:8.4%}   equity {result['equity'][k]:8.4%}")
    click.echo(f"  tie    {result['tie']:8.4%}")
