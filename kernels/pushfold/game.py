"""The push/fold game of a table: seats, posts, terminals (side pots, payoffs per showdown outcome), information sets."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np

from kernels.icm.bounty import bounty_equity, bounty_errors, knock_out, position_value
from kernels import constants as C
from kernels.constants import MAX_SEATS
from kernels.icm.harville import prize_equity
from kernels.threeway.core import ORDERINGS as THREE_WAY_ORDERINGS

#: Ranks (0 = best) of (first, second) in a 2-way showdown: first wins, tie, second wins.
DUEL_ORDERINGS = np.array([[0, 1], [0, 0], [1, 0]])




class Table(NamedTuple):
    """``stacks`` (n,) bb before posting, first to act first; ``blinds`` (small, big); ``ante`` bb per seat
    (or the BB's ante with ``bb_ante``); ``payouts`` (k ≤ n,) prizes for ICM, or None for chip EV;
    ``bounties`` (n,) on each seat's head (KO / PKO, :mod:`kernels.icm.bounty`: in the payouts' unit for ICM,
    in bb for chip EV), or None; ``bounty_share`` the part of a bounty paid in cash at a knockout."""

    stacks: tuple
    blinds: tuple = (0.5, 1.0)
    ante: float = 0.0
    bb_ante: bool = False
    payouts: tuple | None = None
    bounties: tuple | None = None
    bounty_share: float = 1.0


#: Names of the seats before the button, by how many there are (6-max and full-ring usage).
_EARLY_NAMES = {
    0: [], 1: ["CO"], 2: ["UTG", "CO"], 3: ["UTG", "HJ", "CO"], 4: ["UTG", "LJ", "HJ", "CO"],
    5: ["UTG", "UTG+1", "LJ", "HJ", "CO"], 6: ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"],
    7: ["UTG", "UTG+1", "UTG+2", "MP", "LJ", "HJ", "CO"],
}


def position_names(n: int) -> list[str]:
    """Seat names, first to act first: ``["SB", "BB"]`` heads-up, ``[…, "CO", "BTN", "SB", "BB"]`` otherwise."""
    return ["SB", "BB"] if n == 2 else _EARLY_NAMES[n - 3] + ["BTN", "SB", "BB"]


def posted_amounts(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """``(antes, blinds)``, each (n,) bb: dead antes and live blinds posted by each seat."""
    n = len(table.stacks)
    antes = np.zeros(n)
    if table.bb_ante:
        antes[n - 1] = table.ante
    else:
        antes[:] = table.ante
    blinds = np.zeros(n)
    blinds[n - 2], blinds[n - 1] = table.blinds
    return antes, blinds


def table_errors(table: Table) -> list[str]:
    """Problems with a table, as short sentences (empty when it can be solved)."""
    errors = []
    n = len(table.stacks)
    if not 2 <= n <= MAX_SEATS:
        return [f"{n} stacks given: push/fold needs 2 to {MAX_SEATS} players"]
    small, big = table.blinds
    if not (0 <= small <= big and big > 0):
        errors.append(f"blinds {small}/{big}: need 0 <= small blind <= big blind and big blind > 0")
    if table.ante < 0:
        errors.append(f"ante {table.ante} is negative")
    antes, blinds = posted_amounts(table)
    for seat, (stack, posted) in enumerate(zip(table.stacks, antes + blinds)):
        if not stack > posted:
            errors.append(f"stack {stack:g} bb of seat {seat + 1} does not cover its blind and ante ({posted:g} bb)")
        elif big > 0 and stack / big > C.PUSHFOLD_MAX_STACK_BB:  # in big blinds, whatever unit the table is typed in
            errors.append(f"stack {stack:g} of seat {seat + 1} is {stack / big:g} big blinds deep, more than "
                          f"{C.PUSHFOLD_MAX_STACK_BB:g}: push/fold is a model of short stacks")
    if table.payouts is not None:
        payouts = np.asarray(table.payouts, dtype=np.float64)
        if payouts.size > n:
            errors.append(f"{payouts.size} payouts for {n} players")
        with np.errstate(over="ignore"):  # 1e308 + 1e308 overflows to inf: refused below, without a RuntimeWarning
            total = payouts.sum()
        if np.any(payouts < 0) or not 0 < total < np.inf:
            errors.append("payouts must be non-negative with a positive, finite total")
    stacks = np.asarray(table.stacks, dtype=np.float64)
    if table.bounties is not None and stacks.max() > 0:  # a table without chips is refused above
        errors += bounty_errors(stacks, table.bounties, table.bounty_share)
    return errors


class Terminal(NamedTuple):
    """One end of the hand: seat ``shover`` (−1 when everyone folds to the BB) and the ``callers``.

    ``all_in``: (m,) seats in the pot (shover first); ``outcome_ranks``: (O, m) ranks per outcome
    (m ≤ 3), ``payoff``: (n, O) each seat's payoff per outcome; ``layers``: (amount, eligible seats) per
    pot layer. For m ≥ 4 the outcomes are not enumerated (priced per class, see the module doc): ``payoff``
    is (n, 3), the seat's payoff when it scoops, when it wins nothing, and every seat's with layers split evenly.
    ``bounty``: (n, O) the bounty part of ``payoff`` on a chip-EV table with bounties (bb), else None.
    """

    shover: int
    callers: tuple
    all_in: tuple
    outcome_ranks: np.ndarray
    payoff: np.ndarray
    layers: tuple
    base: np.ndarray  # (n,) chips after the hand before winnings (stack − ante − bet or blind)
    bounty: np.ndarray | None = None


class Game(NamedTuple):
    """A table ready to solve: its terminals, information sets and payoff model."""

    table: Table
    n: int
    terminals: list
    open_sets: list  # seats with an open decision: 0 .. n-2
    call_sets: list  # (seat, shover, callers-before tuple)
    icm: bool
    payouts: np.ndarray | None


def _knockouts(table: Table, final: np.ndarray, layers, winners) -> tuple[np.ndarray, np.ndarray]:
    """(bounties (n,), bounty cash won (n,)) after the hand: a seat left without chips is knocked out by
    ``winners[k]`` of the last pot layer ``k`` it was in (only stacks that cover it are in that layer; a
    chopped layer splits the bounty), as :func:`kernels.icm.bounty.showdown` rules."""
    bounties, cash = np.asarray(table.bounties, dtype=np.float64), np.zeros(final.size)
    for seat in np.flatnonzero(final <= 0):
        last = max(k for k, (_, eligible) in enumerate(layers) if seat in eligible)
        bounties, cash = knock_out(bounties, cash, table.bounty_share, seat, winners[last])
    return bounties, cash


def _payoff(table: Table, final: np.ndarray, payouts, layers=(), winners=()) -> tuple[np.ndarray, np.ndarray | None]:
    """(payoff (n,), its bounty part (n,) or None) when the hand ends with chips ``final`` (n,), pot layer
    k split by the seats ``winners[k]``. Chip EV: the change of chips, plus with bounties the bounty cash
    won and the change of the chip-proportional share of the bounties on heads (bb). ICM: the prize
    equity of ``final``, with bounties :func:`kernels.icm.bounty.position_value`'s total."""
    stacks = np.asarray(table.stacks, dtype=np.float64)
    if table.bounties is None:
        if payouts is None:
            return final - stacks, None
        return prize_equity(np.maximum(final, 0.0), payouts, places=False).equity, None
    bounties, cash = _knockouts(table, final, layers, winners)
    if payouts is None:
        bounty = cash + bounty_equity(final, bounties) - bounty_equity(stacks, np.asarray(table.bounties, dtype=np.float64))
        return final - stacks + bounty, bounty
    return position_value(np.maximum(final, 0.0), payouts, bounties, cash=cash).total, None


def _winnings(layers, ranks: dict) -> tuple[dict, list]:
    """Chips won by each seat from the pot layers given its rank (0 = best; ties split), and each layer's winners."""
    won = {seat: 0.0 for seat in ranks}
    winners = []
    for amount, eligible in layers:
        best = min(ranks[s] for s in eligible)
        winners.append(tuple(s for s in eligible if ranks[s] == best))
        for s in winners[-1]:
            won[s] += amount / len(winners[-1])
    return won, winners


def _even_split(layers, seats) -> dict:
    """Expected chips of each seat when every layer goes to a uniformly random eligible seat among ``seats``."""
    won = {seat: 0.0 for seat in seats}
    for amount, eligible in layers:
        eligible = [s for s in eligible if s in won]
        for s in eligible:
            won[s] += amount / len(eligible)
    return won


def _terminal(table: Table, shover: int, callers: tuple, payouts) -> Terminal:
    n = len(table.stacks)
    stacks = np.asarray(table.stacks, dtype=np.float64)
    antes, blinds = posted_amounts(table)
    behind = stacks - antes
    if shover < 0:  # everyone folds to the BB
        base = stacks - antes - blinds
        final = base.copy()
        final[n - 1] += antes.sum() + blinds.sum()
        payoff, bounty = _payoff(table, final, payouts)
        return Terminal(-1, (), (n - 1,), np.zeros((1, 1), np.int64), payoff[:, None], (), base,
                        None if bounty is None else bounty[:, None])
    all_in = (shover, *callers)
    bets = {s: min(behind[s], behind[shover]) for s in all_in}
    base = stacks - antes - blinds
    for s in all_in:
        base[s] = stacks[s] - antes[s] - bets[s]
    dead = antes.sum() + sum(blinds[s] for s in range(n) if s not in bets)
    levels = sorted(set(bets.values()))
    layers, previous = [], 0.0
    for k, level in enumerate(levels):
        amount = sum(min(b, level) - min(b, previous) for b in bets.values()) + (dead if k == 0 else 0.0)
        layers.append((amount, tuple(s for s in all_in if bets[s] >= level)))
        previous = level
    m = len(all_in)
    ranks = np.zeros((1, 1), np.int64) if m == 1 else DUEL_ORDERINGS if m == 2 else THREE_WAY_ORDERINGS if m == 3 else None
    columns = 3 if ranks is None else len(ranks)
    payoff = np.empty((n, columns))
    bounty = None if table.bounties is None or payouts is not None else np.empty((n, columns))
    if ranks is not None:
        for o, rank in enumerate(ranks):
            won, winners = _winnings(layers, dict(zip(all_in, rank)))
            final = base.copy()
            for s, chips in won.items():
                final[s] += chips
            payoff[:, o], part = _payoff(table, final, payouts, layers, winners)
            if bounty is not None:
                bounty[:, o] = part
        return Terminal(shover, callers, all_in, ranks, payoff, tuple(layers), base, bounty)
    # 4+ all-in: (hero scoops, hero wins nothing, even split) per seat
    for seat in range(n):
        for column, hero_wins in enumerate((True, False)):
            final = base.copy()
            rest, winners = [], []
            for amount, eligible in layers:
                others = tuple(s for s in eligible if s != seat)
                if seat in eligible and (hero_wins or not others):  # its own uncalled excess comes back
                    final[seat] += amount
                    winners.append((seat,))
                else:
                    rest.append((amount, others))
                    winners.append(others)
            for s, chips in _even_split(rest, all_in).items():
                final[s] += chips
            values, part = _payoff(table, final, payouts, layers, winners)
            payoff[seat, column] = values[seat]
            if bounty is not None:
                bounty[seat, column] = part[seat]
    final = base.copy()
    for s, chips in _even_split(layers, all_in).items():
        final[s] += chips
    payoff[:, 2], part = _payoff(table, final, payouts, layers, [eligible for _, eligible in layers])
    if bounty is not None:
        bounty[:, 2] = part
    return Terminal(shover, callers, all_in, np.zeros((0, m), np.int64), payoff, tuple(layers), base, bounty)


def make_game(table: Table) -> Game:
    """Every terminal and information set of ``table`` (raises ValueError on a bad table)."""
    errors = table_errors(table)
    if errors:
        raise ValueError("; ".join(errors))
    n = len(table.stacks)
    payouts = None if table.payouts is None else np.asarray(table.payouts, dtype=np.float64)
    terminals = [_terminal(table, -1, (), payouts)]
    call_sets = []
    for shover in range(n - 1):
        later = list(range(shover + 1, n))
        for size in range(len(later) + 1):
            for callers in combinations(later, size):
                terminals.append(_terminal(table, shover, callers, payouts))
        for seat in later:
            between = list(range(shover + 1, seat))
            for size in range(len(between) + 1):
                for before in combinations(between, size):
                    call_sets.append((seat, shover, before))
    return Game(table, n, terminals, list(range(n - 1)), call_sets, payouts is not None, payouts)


def _decisions(game: Game, terminal: Terminal) -> tuple:
    """For each seat, its (information set key, action) on the way to ``terminal`` (None if it does not act)."""
    return _decision_path(game.n, terminal.shover, terminal.callers)


@lru_cache(maxsize=None)
def _decision_path(n: int, shover: int, callers: tuple) -> tuple:
    out = []
    for seat in range(n):
        if shover < 0:
            out.append((("open", seat), 0) if seat < n - 1 else None)
        elif seat < shover:
            out.append((("open", seat), 0))
        elif seat == shover:
            out.append((("open", seat), 1))
        else:
            before = tuple(s for s in callers if s < seat)
            out.append((("call", seat, shover, before), int(seat in callers)))
    return tuple(out)


@lru_cache(maxsize=None)
def _path_to(key: tuple) -> tuple:
    """The other seats' ``(information set key, action)`` on the way to information set ``key``: everyone
    before the opener folds; facing a shove, the shover shoved and the seats between called or folded."""
    if key[0] == "open":
        return tuple((("open", s), 0) for s in range(key[1]))
    _, seat, shover, before = key
    path = [(("open", s), 0) for s in range(shover)] + [(("open", shover), 1)]
    for s in range(shover + 1, seat):
        path.append((("call", s, shover, tuple(b for b in before if b < s)), int(s in before)))
    return tuple(path)


def infoset_keys(game: Game) -> list:
    """Every information set key: ``("open", seat)`` and ``("call", seat, shover, callers_before)``."""
    return [("open", s) for s in game.open_sets] + [("call", *c) for c in game.call_sets]
