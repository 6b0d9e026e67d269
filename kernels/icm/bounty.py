"""Knockout (KO) and progressive knockout (PKO) bounties on top of ICM: the value of a position, the
result of a hand (side pots, several knockouts at once), and bubble factors with bounties.

The model (docs/icm.md, "Bounties"): player i has a bounty B_i >= 0 on his head, in the unit of the
payouts. When W knocks out L, W is paid ``share`` x B_L in cash at once and (1 - share) x B_L is added
to W's own bounty (a regular KO is share = 1, a PKO typically 0.5). A position (stacks x, bounties B)
is worth, to player i,

    V_i = ICM_i(x) + cash_i + (x_i / X) sum_j B_j,

the ICM equity of the payouts, the bounty cash won in the hand, and a chip-proportional share of all
the bounty money still on heads (which the model takes to be paid out in full, the tournament winner
collecting his own): the bounties are valued as one more first prize, since ICM's P(1st) is x_i / X.
A player knocked out in a hand has his bounty taken by the winner(s) of the highest pot layer he was
in (a chopped layer splits it), so only a stack that covers him can win it.

Arrays are plain (n,) floats, players 0-based, money in the payouts' unit, stacks in chips.
Pure numerics: no printing and no file I/O. Invalid input raises ``ValueError``.
"""

from dataclasses import dataclass

import numpy as np

from kernels.icm.harville import (
    BUST_RATIO, BubbleFactors, _numeric_array, chip_shares, pair_equities, prize_equity, risk_prices, validate_field,
)


@dataclass(frozen=True)
class BountyValue:
    """Each player's value in money, (n,) arrays: ``prize`` (ICM equity of the payouts) and ``bounty``
    (bounty cash won in the hand + chip-proportional share of the bounties left); ``method`` of ICM."""

    prize: np.ndarray
    bounty: np.ndarray
    method: str

    @property
    def total(self) -> np.ndarray:
        return self.prize + self.bounty


def bounty_errors(stacks, bounties, share=None) -> list[str]:
    """Every problem with the bounties (n,) of a field of valid ``stacks`` (n,) and, unless None, the
    bounty ``share`` paid in cash; one message each (empty when valid)."""
    errors: list[str] = []
    stacks = np.asarray(stacks, dtype=np.float64)
    values = _numeric_array("bounties", bounties, errors)
    if values is not None:
        if values.size != stacks.size:
            errors.append(f"bounties: {values.size} bounties for {stacks.size} players; give one per player (0 for none)")
        else:
            stranded = np.flatnonzero((chip_shares(stacks) == 0) & (values > 0))
            if stranded.size:
                i = stranded[0]
                errors.append(f"bounties: player {i + 1} has no chips but a bounty of {values[i]:g}; a busted "
                              "player's bounty has been paid (give 0)")
            total = 0.0
            for value in values:  # left to right, as bounty.js adds
                total += float(value)  # a Python float: an overflow is inf, without NumPy's RuntimeWarning
            if total == np.inf:  # 1e308 + 1e308: every figure would be inf
                errors.append("bounties: their total is too large to be a number (give them in a smaller unit)")
    if share is not None:
        try:
            share = float(share)
        except (TypeError, ValueError):
            errors.append(f"bounty share: not a number ({share})")
            return errors
        if not 0.0 <= share <= 1.0:  # NaN fails too
            errors.append(f"bounty share: {share:g} is outside [0, 1] (the part of a bounty paid in cash: "
                          "1 for a regular knockout, 0.5 for a typical PKO)")
    return errors


def validate_bounties(stacks, bounties, share=1.0) -> tuple[np.ndarray, float]:
    """Checked (bounties (n,), share) for valid ``stacks`` (n,); ValueError listing every problem."""
    errors = bounty_errors(stacks, bounties, share)
    if errors:
        raise ValueError("; ".join(errors))
    return np.asarray(bounties, dtype=np.float64), float(share)


def bounty_equity(stacks: np.ndarray, bounties: np.ndarray) -> np.ndarray:
    """(n,) chip-proportional share of the bounty money on heads, (x_i / X) sum_j B_j, for checked
    arrays (a player without chips has no bounty: ``bounty_errors``)."""
    return chip_shares(np.asarray(stacks, dtype=np.float64)) * np.sum(bounties)


def stack_bounties(stacks, fraction: float, pool: float | None = None) -> np.ndarray:
    """(n,) bounties worth ``fraction`` of each player's stack at its chip value: the stack itself (chip EV,
    the bounties in the unit of the stacks), or with a prize ``pool`` the stack's share of it, pool x x_i / X
    (ICM, the bounties in the unit of the payouts). In a PKO where half of each buy-in funds the bounties a
    starting bounty is worth a starting stack at chip value, so ``fraction`` is the bounty in starting
    bounties over the stack in starting stacks (the precomputed PKO charts' parameter, docs/pushfold.md)."""
    stacks = np.asarray(stacks, dtype=np.float64)
    value = stacks if pool is None else float(pool) * chip_shares(stacks)
    return float(fraction) * value


def position_value(stacks, payouts, bounties, method: str = "auto", cash=None) -> BountyValue:
    """The value of a position: ICM equity of ``payouts`` (k,) for ``stacks`` (n,) plus the bounty term
    for ``bounties`` (n,) on heads and the bounty ``cash`` (n,) already won (default none)."""
    stacks, payouts = validate_field(stacks, payouts)
    bounties, _ = validate_bounties(stacks, bounties)
    prize = prize_equity(stacks, payouts, method=method, places=False)
    won = np.zeros(stacks.size) if cash is None else np.asarray(cash, dtype=np.float64)
    if won.shape != stacks.shape:
        raise ValueError(f"cash: {won.size} entries for {stacks.size} players")
    return BountyValue(prize.equity, won + bounty_equity(stacks, bounties), prize.method)


def knock_out(bounties: np.ndarray, cash: np.ndarray, share: float, loser: int, winners) -> tuple[np.ndarray, np.ndarray]:
    """(bounties, cash) (n,) after ``loser`` is knocked out by ``winners`` (one, or several who chopped
    his last pot): each gets share x B_loser / len(winners) in cash and the rest onto his own bounty."""
    bounties, cash = bounties.copy(), cash.copy()
    winners = np.asarray(winners, dtype=np.int64)
    part = bounties[loser] / winners.size
    cash[winners] += share * part
    bounties[winners] += (1.0 - share) * part
    bounties[loser] = 0.0
    return bounties, cash


@dataclass(frozen=True)
class Showdown:
    """The field after a hand, (n,) arrays: chips, bounties on heads, bounty cash won in the hand."""

    stacks: np.ndarray
    bounties: np.ndarray
    cash: np.ndarray


def _showdown_errors(stacks, committed, strength, dead) -> list[str]:
    errors: list[str] = []
    n = stacks.size
    if committed.size != n or strength.size != n:
        return [f"showdown: {committed.size} bets and {strength.size} strengths for {n} players; give one of each per player"]
    if np.any(strength != np.round(strength)):
        errors.append("showdown: hand strengths must be whole numbers (0: not in the showdown)")
    over = np.flatnonzero(committed > stacks)
    if over.size:
        errors.append(f"showdown: player {over[0] + 1} puts in {committed[over[0]]:g}, more than his stack of {stacks[over[0]]:g}")
    in_hand = strength > 0
    if not in_hand.any():
        errors.append("showdown: nobody is in the showdown; give someone a strength above 0")
        return errors
    broke = np.flatnonzero(in_hand & (stacks <= 0))
    if broke.size:
        errors.append(f"showdown: player {broke[0] + 1} has no chips to play the hand with")
    if in_hand.sum() == 1:  # everyone else folded: he takes the pot, whatever was bet
        return errors
    idle = np.flatnonzero(in_hand & (committed <= 0))
    if idle.size:
        errors.append(f"showdown: player {idle[0] + 1} is in the showdown but puts nothing in")
    folded_all_in = np.flatnonzero(~in_hand & (committed > 0) & (committed >= stacks))
    if folded_all_in.size:
        errors.append(f"showdown: player {folded_all_in[0] + 1} puts in his whole stack, so he is all in: give him a strength")
    beyond = np.flatnonzero(~in_hand & (committed > committed[in_hand].max()))
    if beyond.size:
        errors.append(f"showdown: player {beyond[0] + 1} folds after putting in more than anyone in the showdown")
    if not (np.isfinite(dead) and dead >= 0):
        errors.append(f"showdown: the dead money must be a number >= 0, got {dead:g}")
    return errors


def showdown(stacks, bounties, share, committed, strength, dead: float = 0.0) -> Showdown:
    """The result of a hand: ``stacks`` (n,) chips before the betting (antes already taken off: they are
    ``dead`` money, part of the main pot), ``committed`` (n,) chips each player puts in, ``strength``
    (n,) whole numbers, 0 for a player not in the showdown (his chips are dead money), else higher wins
    and equal chops. Pot layers: between consecutive bet sizes of the showdown players, each layer is
    won by the strongest player who put in at least its top (an uncalled part comes back this way); a
    player left alone (everyone else folded) takes the whole pot. A player all in who wins no layer is
    knocked out by the winner(s) of the layer his last chip is in."""
    errors: list[str] = []
    stacks = _numeric_array("stacks", stacks, errors)
    if stacks is not None:
        errors += bounty_errors(stacks, bounties, share) if np.any(stacks > 0) else ["stacks: every stack is zero"]
    committed = _numeric_array("bets", committed, errors)
    strength = _numeric_array("strengths", strength, errors)
    if not errors:
        errors += _showdown_errors(stacks, committed, strength, float(dead))
    if errors:
        raise ValueError("; ".join(errors))
    bounties, share = np.asarray(bounties, dtype=np.float64), float(share)
    in_hand = strength > 0
    after = stacks - committed
    last_layer = {}  # bet size -> winners of the layer that ends there
    previous = 0.0
    if in_hand.sum() == 1:
        after[in_hand] += np.sum(committed) + float(dead)
    for index, level in enumerate(np.unique(committed[in_hand]) if in_hand.sum() > 1 else ()):
        layer = np.sum(np.minimum(committed, level) - np.minimum(committed, previous)) + (float(dead) if index == 0 else 0.0)
        eligible = in_hand & (committed >= level)
        winners = np.flatnonzero(eligible & (strength == strength[eligible].max()))
        after[winners] += layer / winners.size
        last_layer[level] = winners
        previous = level
    cash = np.zeros(stacks.size)
    for loser in np.flatnonzero(in_hand & (after == 0)):
        bounties, cash = knock_out(bounties, cash, share, loser, last_layer[committed[loser]])
    return Showdown(after, bounties, cash)


def showdown_value(result: Showdown, payouts, method: str = "auto") -> BountyValue:
    """``position_value`` of the field after a hand (its bounty cash included)."""
    return position_value(result.stacks, payouts, result.bounties, method=method, cash=result.cash)


def all_in_bounty(fields: dict, bounties: np.ndarray, share: float, beats: dict) -> dict:
    """outcome -> (n,) bounty value (cash + chip-proportional share) in each field after a two-way
    all-in. ``fields``: outcome -> stacks (n,) after it; ``beats``: outcome -> (winner, loser) where the
    all-in was won (absent for a fold or a tie). The loser is knocked out when left with no chips (the
    winner covered him). ValueError when any other player with a bounty is left with no chips (all in
    for an ante or a blind: who knocks him out is not modelled)."""
    values = {}
    for outcome, field in fields.items():
        held, cash = bounties, np.zeros(bounties.size)
        busted = chip_shares(np.asarray(field, dtype=np.float64)) == 0
        if outcome in beats and busted[beats[outcome][1]]:
            winner, loser = beats[outcome]
            held, cash = knock_out(held, cash, share, loser, [winner])
        stranded = np.flatnonzero(busted & (held > 0))
        if stranded.size:
            i = stranded[0]
            raise ValueError(f"bounties: player {i + 1} (bounty {held[i]:g}) is left with no chips by the antes or "
                             "blinds, and who knocks him out is not modelled; give him a stack above what he posts")
        values[outcome] = cash + bounty_equity(field, held)
    return values


def pair_bounty_values(stacks: np.ndarray, bounties: np.ndarray, share: float):
    """The bounty term around an all-in between every ordered pair, as ``kernels.icm.harville.pair_equities``
    gives the ICM term: (base (n,), won (n, n), lost (n, n)) for checked arrays; the loser busts when
    he has no more chips than the winner (the rule of ``pair_equities``) and his bounty is knocked out."""
    shares = chip_shares(np.asarray(stacks, dtype=np.float64))
    total = np.sum(bounties)
    moved = np.minimum.outer(shares, shares)
    won_share = shares[:, None] + moved  # [w, l]: w's share after beating l
    lost_share = shares[:, None] - moved  # [l, w]: l's share after losing to w
    busts = lost_share <= shares[None, :] * BUST_RATIO  # [l, w]
    cashed = np.where(busts.T, share * bounties[None, :], 0.0)  # [w, l]: cash w takes for knocking out l
    won = cashed + won_share * (total - cashed)
    lost = np.where(busts, 0.0, lost_share * total)
    return shares * total, won, lost


def bubble_factors(stacks, payouts, bounties, share: float = 1.0, method: str = "auto") -> BubbleFactors:
    """``kernels.icm.harville.bubble_factors`` with the bounty term in every value (E, E_win, E_lose = ICM +
    bounty): the all-in for min(stack_i, stack_j), everyone else unchanged. Knocking a player out now
    pays his bounty at once, so a factor can fall below 1. ``equity`` is the total value (n,)."""
    stacks, payouts = validate_field(stacks, payouts)
    bounties, share = validate_bounties(stacks, bounties, share)
    base, won, lost, chosen = pair_equities(stacks, payouts, method)
    bounty_base, bounty_won, bounty_lost = pair_bounty_values(stacks, bounties, share)
    return risk_prices(base + bounty_base, won + bounty_won, lost + bounty_lost,
                       float(payouts.sum() + bounties.sum()), chosen)
