"""ICM calculator presets from ``content/site.yaml`` (``icm.presets``), as the page embeds them.

A preset is ``{name, payouts: [percentages], players?}`` or ``{name, mtt: {players, paid}}``; for the
latter a decreasing payout curve is generated (:func:`mtt_payouts`).
"""

from __future__ import annotations

from generator.errors import InputError


def mtt_payouts(paid: int) -> list[float]:
    """Percentages of the pool for ``paid`` places, proportional to 1/place (harmonic curve).

    Rounded to 0.001%; the rounding remainder goes to first place so the list sums to exactly 100.
    """
    weights = [1 / place for place in range(1, paid + 1)]
    total = sum(weights)
    shares = [round(100 * w / total, 3) for w in weights]
    shares[0] = round(100 - sum(shares[1:]), 3)
    return shares


def _positive_int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{what} must be a positive whole number, got {value!r}")
    return value


def preset_payload(preset, where: str) -> dict:
    """Validate one preset and return ``{name, payouts, players}`` (players may be ``None``)."""
    if not isinstance(preset, dict) or not isinstance(preset.get("name"), str):
        raise InputError(f"{where}: each preset needs a name")
    where = f"{where} '{preset['name']}'"
    if "mtt" in preset:
        mtt = preset["mtt"]
        if not isinstance(mtt, dict):
            raise InputError(f"{where}: mtt must be a mapping {{players, paid}}")
        players = _positive_int(mtt.get("players"), f"{where}: mtt.players")
        paid = _positive_int(mtt.get("paid"), f"{where}: mtt.paid")
        if paid > players:
            raise InputError(f"{where}: mtt.paid ({paid}) exceeds mtt.players ({players})")
        return {"name": preset["name"], "payouts": mtt_payouts(paid), "players": players}
    payouts = preset.get("payouts")
    if not isinstance(payouts, list) or not payouts or not all(
        isinstance(p, (int, float)) and not isinstance(p, bool) and p >= 0 for p in payouts
    ):
        raise InputError(f"{where}: payouts must be a list of non-negative percentages")
    players = preset.get("players")
    if players is not None:
        players = _positive_int(players, f"{where}: players")
    return {"name": preset["name"], "payouts": [float(p) for p in payouts], "players": players}


def preset_payloads(presets) -> list[dict]:
    return [preset_payload(p, f"icm.presets[{i}]") for i, p in enumerate(presets)]
