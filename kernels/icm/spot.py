"""Call or fold against one all-in under ICM: the fields after each outcome, the equity the caller
needs (in prize money and in chips), and EV(call) - EV(fold) for a hand's win/tie/loss chances.

The spot (docs/icm.md, "Call or fold"): every player with chips posts an ante (all of his stack if
it is smaller), the big blind also a big-blind ante if there is one (dead money, like the antes), the
small and the big blind post their blinds (live money: part of their bet),
everyone else folds, the shover puts in everything, and the caller either folds (losing what he
posted) or calls for the smaller of the two stacks behind the antes. The pot of a call is the antes,
the blinds of players not in the hand, and the two bets; a tie splits it. Stacks are in chips,
players are 0-based here. With ``bounties`` (KO/PKO, ``kernels/icm/bounty.py``) every outcome's value is
the ICM equity plus the bounty term, reported apart: a call or shove that wins knocks out a covered
opponent and takes his bounty.

Pure numerics: no printing and no file I/O. Invalid input raises ``ValueError``.
"""

from dataclasses import dataclass

import numpy as np

from kernels.icm.bounty import all_in_bounty, validate_bounties
from kernels.cards import CLASS_COMBO_COUNT, COMBO_CLASS, N_CLASSES
from kernels.icm.harville import prize_equity, validate_field

OUTCOMES = ("fold", "win", "tie", "lose")
TOO_MANY_CHIPS = "stacks: the chips add up to more than 1.8e308; give the stacks in a larger unit"  # the caller folds; calls and wins, ties, loses


def _total(equity: dict, bounty: dict) -> dict:
    """outcome -> ICM equity + bounty value."""
    return {outcome: equity[outcome] + bounty[outcome] for outcome in equity}


def _called(values: dict, win, tie, lose):
    """The value of a called all-in: win/tie/lose probabilities (scalars or arrays) x outcome values."""
    return win * values["win"] + tie * values["tie"] + lose * values["lose"]


@dataclass(frozen=True)
class CallSpot:
    """The caller's ICM equity (payout units) and chips after each outcome of ``OUTCOMES``, the
    equity he needs to call (ICM and chips; a tie counted as half a win), and the prize pool.
    ``bounty``: outcome -> his bounty value (``kernels/icm/bounty.py``; 0 without bounties)."""

    fields: dict  # outcome -> stacks (n,) after it
    equity: dict  # outcome -> caller's ICM equity
    chips: dict  # outcome -> caller's chips
    required_icm: float
    required_chips: float
    pool: float
    method: str
    bounty: dict  # outcome -> caller's bounty value

    @property
    def total(self) -> dict:
        """outcome -> the caller's ICM equity + bounty value."""
        return _total(self.equity, self.bounty)

    @property
    def required_total(self) -> float:
        """The equity needed to call with the bounty term counted (= required_icm without bounties)."""
        total = self.total
        return (total["fold"] - total["lose"]) / (total["win"] - total["lose"])

    def ev_difference(self, win, tie, lose):
        """EV(call) - EV(fold) in payout units for win/tie/lose probabilities (scalars or arrays)."""
        return _called(self.total, win, tie, lose) - self.total["fold"]

    def ev_parts(self, win, tie, lose):
        """(ICM part, bounty part) of ``ev_difference``."""
        return (_called(self.equity, win, tie, lose) - self.equity["fold"],
                _called(self.bounty, win, tie, lose) - self.bounty["fold"])


def spot_fields(stacks, small_blind: float, big_blind: float, ante: float, shover: int, caller: int,
                small_blind_player: int | None, big_blind_player: int | None, big_blind_ante: float = 0.0) -> dict:
    """outcome -> stacks (n,) after it (see the module docstring); chips are conserved in each.
    ``big_blind_ante``: dead money the big blind posts before his blind (all of his stack if smaller),
    on top of any per-player ``ante``."""
    stacks = np.asarray(stacks, dtype=np.float64)
    n = stacks.size
    for name, player in (("shover", shover), ("caller", caller), ("small blind", small_blind_player),
                         ("big blind", big_blind_player)):
        if player is not None and not 0 <= player < n:
            raise ValueError(f"{name}: player {player + 1} is not in the field of {n} players")
    with np.errstate(over="ignore"):
        total = stacks.sum()
    if not np.isfinite(total):
        raise ValueError(TOO_MANY_CHIPS)
    if shover == caller:
        raise ValueError("the shover and the caller must be different players")
    if small_blind_player is not None and small_blind_player == big_blind_player:
        raise ValueError("the small and the big blind must be different players")
    if min(small_blind, big_blind, ante, big_blind_ante) < 0:
        raise ValueError("blinds and antes must be >= 0")
    if big_blind_ante > 0 and big_blind_player is None:
        raise ValueError("a big-blind ante needs a player in the big blind")
    antes = np.minimum(ante, stacks)
    if big_blind_ante > 0:
        antes[big_blind_player] += min(big_blind_ante, stacks[big_blind_player] - antes[big_blind_player])
    behind = stacks - antes
    blinds = np.zeros(n)
    for player, blind in ((small_blind_player, small_blind), (big_blind_player, big_blind)):
        if player is not None:
            blinds[player] = min(blind, behind[player])
    if behind[shover] <= 0:
        raise ValueError(f"shover: player {shover + 1} has no chips left to shove after the ante")
    if behind[caller] <= 0:
        raise ValueError(f"caller: player {caller + 1} has no chips left to call with after the ante")
    settled = behind - blinds  # everyone not in the hand ends with this
    dead = antes.sum() + blinds.sum() - blinds[shover] - blinds[caller]
    fold = settled.copy()
    fold[shover] = behind[shover] + antes.sum() + blinds.sum() - blinds[shover]
    bet = min(behind[shover], behind[caller])
    pot = dead + 2 * bet
    called = settled.copy()
    called[shover] = behind[shover] - bet
    called[caller] = behind[caller] - bet
    fields = {"fold": fold, "win": called.copy(), "tie": called.copy(), "lose": called.copy()}
    fields["win"][caller] += pot
    fields["tie"][caller] += pot / 2
    fields["tie"][shover] += pot / 2
    fields["lose"][shover] += pot
    return fields


def hero_bounty(stacks, fields: dict, bounties, share: float, beats: dict, hero: int) -> dict:
    """outcome -> the hero's bounty value in each field (``kernels.icm.bounty.all_in_bounty``; ``beats``:
    outcome -> (winner, loser)), all 0 when ``bounties`` is None."""
    if bounties is None:
        return {outcome: 0.0 for outcome in fields}
    bounties, share = validate_bounties(stacks, bounties, share)
    return {outcome: float(value[hero]) for outcome, value in all_in_bounty(fields, bounties, share, beats).items()}


def call_spot(stacks, payouts, small_blind: float, big_blind: float, ante: float, shover: int, caller: int,
              small_blind_player: int | None = None, big_blind_player: int | None = None,
              method: str = "auto", big_blind_ante: float = 0.0, bounties=None, bounty_share: float = 1.0) -> CallSpot:
    """The caller's side of the spot; the blinds default to the shover (small) and the caller (big);
    ``big_blind_ante`` as in ``spot_fields``; ``bounties`` (n,) and ``bounty_share`` as in
    ``kernels/icm/bounty.py`` (None: plain ICM)."""
    stacks, payouts = validate_field(stacks, payouts)
    small_blind_player = shover if small_blind_player is None else small_blind_player
    big_blind_player = caller if big_blind_player is None else big_blind_player
    fields = spot_fields(stacks, small_blind, big_blind, ante, shover, caller, small_blind_player, big_blind_player,
                         big_blind_ante)
    results = {outcome: prize_equity(field, payouts, method=method, places=False) for outcome, field in fields.items()}
    equity = {outcome: float(result.equity[caller]) for outcome, result in results.items()}
    chips = {outcome: float(field[caller]) for outcome, field in fields.items()}
    required_icm = (equity["fold"] - equity["lose"]) / (equity["win"] - equity["lose"])
    required_chips = (chips["fold"] - chips["lose"]) / (chips["win"] - chips["lose"])
    bounty = hero_bounty(stacks, fields, bounties, bounty_share, {"win": (caller, shover), "lose": (shover, caller)},
                         caller)
    return CallSpot(fields, equity, chips, required_icm, required_chips, float(payouts.sum()), results["fold"].method,
                    bounty)


def class_weights(combo_weights) -> np.ndarray:
    """(169,) weight of each class from a range's combo weights (1326,); ValueError when a class has
    different weights on different combos (the class table cannot price that exactly)."""
    combo_weights = np.asarray(combo_weights, dtype=np.float64)
    weights = np.zeros(N_CLASSES)
    for cls in range(N_CLASSES):
        values = combo_weights[COMBO_CLASS == cls]
        if not np.all(values == values[0]):
            raise ValueError("the range weights single combos of a class differently; give whole classes (AKs, QQ+)")
        weights[cls] = values[0]
    if not np.any(weights > 0):
        raise ValueError("the range is empty")
    return weights


def outcomes_vs_range(win, tie, loss, weights) -> np.ndarray:
    """(169, 3) P(win), P(tie), P(lose) of each hero class against a range of class ``weights`` (169,),
    from the exact class tables ``win``, ``tie``, ``loss`` (169, 169; counts over every card-compatible
    combo pair and board): villain combos that share a card with the hero's are excluded, the others
    weighted by their class weight."""
    weights = np.asarray(weights, dtype=np.float64)
    counts = np.stack([np.asarray(table, dtype=np.float64) @ weights for table in (win, tie, loss)], axis=1)
    total = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, counts / np.where(total > 0, total, 1.0), np.nan)


@dataclass(frozen=True)
class ShoveSpot:
    """The shover's side: his ICM equity and chips after each outcome of ``SHOVE_OUTCOMES`` (he folds;
    he shoves and the caller folds; the caller calls and the shover wins, ties, loses)."""

    fields: dict
    equity: dict
    chips: dict
    pool: float
    method: str
    bounty: dict  # outcome -> shover's bounty value (0 without bounties)

    @property
    def total(self) -> dict:
        """outcome -> the shover's ICM equity + bounty value."""
        return _total(self.equity, self.bounty)

    @staticmethod
    def _ev(values: dict, call, win, tie, lose):
        return (1 - call) * values["steal"] + call * _called(values, win, tie, lose) - values["fold"]

    def ev_difference(self, call, win, tie, lose):
        """EV(shove) - EV(fold) in payout units; ``call`` = P(the caller calls), win/tie/lose given a call."""
        return self._ev(self.total, call, win, tie, lose)

    def ev_parts(self, call, win, tie, lose):
        """(ICM part, bounty part) of ``ev_difference``."""
        return self._ev(self.equity, call, win, tie, lose), self._ev(self.bounty, call, win, tie, lose)

    def chip_difference(self, call, win, tie, lose):
        """Chips after shoving − chips after folding, on average (the chip-EV counterpart of ``ev_difference``)."""
        return self._ev(self.chips, call, win, tie, lose)


SHOVE_OUTCOMES = ("fold", "steal", "win", "tie", "lose")


def shove_spot(stacks, payouts, small_blind: float, big_blind: float, ante: float, shover: int, caller: int,
               small_blind_player: int | None = None, big_blind_player: int | None = None,
               method: str = "auto", big_blind_ante: float = 0.0, bounties=None, bounty_share: float = 1.0) -> ShoveSpot:
    """The shover's side of the spot of ``call_spot`` (bounties as there). When the shover folds, the
    caller takes the antes and the blinds (everyone else has folded: the caller is the last to act)."""
    stacks, payouts = validate_field(stacks, payouts)
    small_blind_player = shover if small_blind_player is None else small_blind_player
    big_blind_player = caller if big_blind_player is None else big_blind_player
    called = spot_fields(stacks, small_blind, big_blind, ante, shover, caller, small_blind_player, big_blind_player,
                         big_blind_ante)
    walk = spot_fields(stacks, small_blind, big_blind, ante, caller, shover, small_blind_player, big_blind_player,
                       big_blind_ante)
    fields = {"fold": walk["fold"], "steal": called["fold"], "win": called["lose"], "tie": called["tie"],
              "lose": called["win"]}
    results = {outcome: prize_equity(field, payouts, method=method, places=False) for outcome, field in fields.items()}
    equity = {outcome: float(result.equity[shover]) for outcome, result in results.items()}
    chips = {outcome: float(field[shover]) for outcome, field in fields.items()}
    bounty = hero_bounty(stacks, fields, bounties, bounty_share, {"win": (shover, caller), "lose": (caller, shover)},
                         shover)
    return ShoveSpot(fields, equity, chips, float(payouts.sum()), results["fold"].method, bounty)


def call_probability(pairs, weights) -> np.ndarray:
    """(169,) P(the caller's hand is in his range | the hero holds a hand of each class): compatible
    combos weighted by the range over all compatible combos (``pairs``: 169x169 compatible combo pairs)."""
    pairs = np.asarray(pairs, dtype=np.float64)
    return pairs @ np.asarray(weights, dtype=np.float64) / pairs.sum(axis=1)


def hero_average(values, hero_weights) -> np.ndarray:
    """The combo-weighted average over the hero's range of per-class ``values`` (169,) or (169, k)
    (win, tie, P(call), EV...): each class weighted by its range weight ``hero_weights`` (169,) times
    its 6 / 4 / 12 combos; a scalar or (k,). ValueError when the range is empty."""
    combos = np.asarray(hero_weights, dtype=np.float64) * CLASS_COMBO_COUNT
    if not np.any(combos > 0):
        raise ValueError("the range is empty")
    values = np.asarray(values, dtype=np.float64)
    used = combos > 0  # a class outside the range adds nothing, even where its value is not finite
    return np.tensordot(combos[used], values[used], axes=1) / combos[used].sum()
