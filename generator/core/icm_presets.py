"""ICM calculator presets from ``content/site.yaml`` (``icm.presets``), as the page embeds them.

A preset is ``{name, payouts: [percentages], players?}`` or ``{name, mtt: {players, paid}}``; for the
latter a decreasing payout curve is generated (:func:`mtt_payouts`). :func:`generator.core.config.load_config`
validates the presets with :func:`preset_payloads` when it reads the file, so the page embeds
``Config.icm_presets`` as they are.
"""

from __future__ import annotations

from generator.core.errors import InputError
from generator.core.validation import number_list, positive_int, shown
from kernels.icm.harville import MAX_PLAYERS


def mtt_payouts(paid: int) -> list[float]:
    """Percentages of the pool for ``paid`` places, proportional to 1/place (harmonic curve).

    Rounded to 0.001%; the rounding remainder goes to first place so the list sums to exactly 100.
    """
    weights = [1 / place for place in range(1, paid + 1)]
    total = sum(weights)
    shares = [round(100 * w / total, 3) for w in weights]
    shares[0] = round(100 - sum(shares[1:]), 3)
    return shares


def _players(value, where: str) -> int:
    return positive_int(value, where, maximum=MAX_PLAYERS)


def preset_payload(preset, where: str) -> dict:
    """Validate one preset and return ``{name, payouts, players}`` (players may be ``None``)."""
    if not isinstance(preset, dict) or not isinstance(preset.get("name"), str):
        raise InputError(f"{where}: each preset needs a name")
    where = f"{where} {shown(preset['name'])}"
    if "mtt" in preset:
        mtt = preset["mtt"]
        if not isinstance(mtt, dict):
            raise InputError(f"{where}: mtt must be a mapping {{players, paid}}")
        players = _players(mtt.get("players"), f"{where}: mtt.players")
        paid = _players(mtt.get("paid"), f"{where}: mtt.paid")
        if paid > players:
            raise InputError(f"{where}: mtt.paid ({paid}) exceeds mtt.players ({players})")
        return {"name": preset["name"], "payouts": mtt_payouts(paid), "players": players}
    payouts = preset.get("payouts")
    if not isinstance(payouts, list) or not 0 < len(payouts) <= MAX_PLAYERS:
        raise InputError(f"{where}: payouts must be a list of 1 to {MAX_PLAYERS:,} non-negative percentages")
    payouts = number_list(payouts, f"{where}: payouts")
    if min(payouts) < 0:
        raise InputError(f"{where}: payouts must be non-negative, got {shown(min(payouts))}")
    players = preset.get("players")
    if players is not None:
        players = _players(players, f"{where}: players")
        if players < len(payouts):
            raise InputError(f"{where}: {len(payouts)} payouts for {players} players (at most one prize per player)")
    return {"name": preset["name"], "payouts": payouts, "players": players}


def preset_payloads(presets, where: str = "icm.presets") -> tuple[dict, ...]:
    """Every preset validated (``where`` names the list in messages, e.g. ``content/site.yaml: icm.presets``)."""
    return tuple(preset_payload(p, f"{where}[{i}]") for i, p in enumerate(presets))
