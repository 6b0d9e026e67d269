"""Shortcodes for knockout bounties: every number is ``kernels.icm.bounty`` / ``kernels.icm.spot``'s at render time.

=======================================================  ==========================================
``{{< bounty stacks=… payouts=… bounties=… share=S >}}``   table of each player's prize equity,
                                                         bounty equity and total (position_value)
``{{< bounty_value … show=KEY >}}``                      one number of that field: ``show=prize``,
                                                         ``bounty``, ``total`` (with ``player=N``),
                                                         ``factor``, ``icm_factor`` (plain ICM),
                                                         ``required`` (with ``row=I col=J``),
                                                         ``on_heads`` (ΣB)
``{{< bounty_showdown stacks=… bounties=… share=S``      table of a hand's result: chips, bounty
``bets=… strengths=… >}}``                               cash won, bounties after (showdown)
``{{< bounty_spot stacks=… payouts=… blinds=SB,BB``      one number of a call/fold spot with
``ante=A shover=N caller=N bounties=… share=S``          bounties (icm_spot.call_spot): ``required``,
``show=KEY [hand=H range=R] >}}``                        ``required_icm``, ``required_chips``,
                                                         ``icm_OUTCOME``, ``bounty_OUTCOME``,
                                                         ``chips_OUTCOME`` (fold/win/tie/lose);
                                                         with hand= and range=: ``equity``, ``ev``,
                                                         ``ev_icm``, ``ev_bounty`` (matchup data)
``{{< bounty_spot side=shover … hand=H range=R``         the shover's side of that spot (shove_spot,
``show=ev|ev_chips|call >}}``                            bounties optional): EV of shoving − folding in
                                                         payout units or chips, and how often the
                                                         caller's range= calls
=======================================================  ==========================================

``share`` defaults to 1 (a regular KO). Players are 1-based. Malformed input is an :class:`InputError`.
"""

from __future__ import annotations

import numpy as np

from generator.core.errors import InputError
from generator.site.formatting import NOT_COMPUTED, pct
from generator.core.numbers import parse_number_list
from kernels.cards import CardError, parse_class
from kernels.ranges import RangeError, parse_range

OUTCOMES = ("fold", "win", "tie", "lose")


def _list(options: dict, key: str) -> list[float]:
    if key not in options:
        raise InputError(f"needs {key}=A,B,…")
    return parse_number_list(options[key], key)


def _share(options: dict) -> float:
    raw = options.get("share", "1")
    try:
        return float(raw)
    except ValueError:
        raise InputError(f"share must be a number in [0, 1], got {raw!r}") from None


def _index(options: dict, key: str, n: int) -> int:
    raw = options.get(key)
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise InputError(f"needs {key}=N (1 to {n})") from None
    if not 1 <= value <= n:
        raise InputError(f"{key} must be between 1 and {n}, got {value}")
    return value - 1


def money(value: float) -> str:
    return f"{value:,.2f}"


def _field(options: dict):
    from kernels.icm.bounty import bubble_factors, position_value

    stacks, payouts, bounties = _list(options, "stacks"), _list(options, "payouts"), _list(options, "bounties")
    if len(stacks) > 12:
        raise InputError("stacks: at most 12 players in an article's table")
    share = _share(options)
    try:
        value = position_value(stacks, payouts, bounties)
        factors = bubble_factors(stacks, payouts, bounties, share)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return np.asarray(stacks, dtype=np.float64), np.asarray(bounties, dtype=np.float64), value, factors


def bounty_table(args: list[str], options: dict) -> str:
    if args:
        raise InputError("usage: {{< bounty stacks=A,B payouts=X,Y bounties=P,Q [share=S] >}}")
    stacks, bounties, value, _ = _field(options)
    rows = "".join(
        f'<tr><th scope="row">{i + 1} ({stacks[i]:,.10g})</th><td>{money(bounties[i])}</td><td>{money(value.prize[i])}</td>'
        f"<td>{money(value.bounty[i])}</td><td>{money(value.total[i])}</td></tr>"
        for i in range(stacks.size)
    )
    return ('<div class="table-scroll" tabindex="0" role="region" aria-label="Value with bounties"><table class="data">'
            "<caption>Each player's value: ICM prize equity + bounty equity</caption><thead><tr>"
            '<th scope="col">Player (stack)</th><th scope="col">Bounty</th><th scope="col">Prize</th>'
            f'<th scope="col">Bounty eq.</th><th scope="col">Total</th></tr></thead><tbody>{rows}</tbody></table></div>')


def bounty_value(args: list[str], options: dict) -> str:
    if args:
        raise InputError("usage: {{< bounty_value stacks=… payouts=… bounties=… [share=S] show=KEY … >}}")
    stacks, bounties, value, factors = _field(options)
    show, n = options.get("show", "total"), stacks.size
    if show == "on_heads":
        return money(bounties.sum())
    if show in ("prize", "bounty", "total"):
        return money(getattr(value, show)[_index(options, "player", n)])
    if show in ("factor", "icm_factor", "required"):
        row, col = _index(options, "row", n), _index(options, "col", n)
        if show == "icm_factor":
            from kernels.icm.harville import bubble_factors

            result = bubble_factors(stacks, _list(options, "payouts")).bubble_factor[row, col]
        else:
            result = (factors.bubble_factor if show == "factor" else factors.required_equity)[row, col]
        if result != result:  # NaN: undefined for this pair
            return "–"
        return pct(result, 1) if show == "required" else f"{result:.2f}"
    raise InputError(f"show must be prize, bounty, total, factor, icm_factor, required or on_heads, got {show!r}")


def bounty_showdown(args: list[str], options: dict) -> str:
    from kernels.icm.bounty import showdown

    if args:
        raise InputError("usage: {{< bounty_showdown stacks=… bounties=… [share=S] bets=… strengths=… >}}")
    stacks, bounties = _list(options, "stacks"), _list(options, "bounties")
    try:
        result = showdown(stacks, bounties, _share(options), _list(options, "bets"), _list(options, "strengths"))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    rows = "".join(
        f'<tr><th scope="row">{i + 1}</th><td>{stacks[i]:,.10g}</td><td>{result.stacks[i]:,.10g}</td>'
        f"<td>{money(bounties[i])}</td><td>{money(result.cash[i])}</td><td>{money(result.bounties[i])}</td></tr>"
        for i in range(len(stacks))
    )
    return ('<div class="table-scroll" tabindex="0" role="region" aria-label="Result of the hand"><table class="data">'
            "<caption>The hand's result: chips, bounty cash won, bounties on heads</caption><thead><tr>"
            '<th scope="col">Player</th><th scope="col">Chips before</th><th scope="col">Chips after</th>'
            '<th scope="col">Bounty before</th><th scope="col">Cash won</th><th scope="col">Bounty after</th>'
            f"</tr></thead><tbody>{rows}</tbody></table></div>")


def _hand_and_range(options: dict) -> tuple[int, np.ndarray]:
    """The class index of ``hand=`` and the class weights (169,) of ``range=`` (a union of whole classes)."""
    from kernels.range_equity import class_weights

    if "hand" not in options or "range" not in options:
        raise InputError("needs hand=CLASS range=RANGE")
    try:
        hero = parse_class(options["hand"])
        weights = class_weights(parse_range(options["range"]).weights)
    except (CardError, RangeError) as exc:
        raise InputError(str(exc)) from None
    if weights is None:
        raise InputError(f"range {options['range']!r} is not a union of whole classes")
    return hero, weights


class BountySpot:
    """``{{< bounty_spot … >}}``; needs the site data for the hand-against-range numbers."""

    def __init__(self, data):
        self.data = data

    def spot(self, options: dict, side=None):
        from kernels.icm.spot import call_spot

        side = side or call_spot
        stacks, payouts = _list(options, "stacks"), _list(options, "payouts")
        blinds = _list(options, "blinds")
        if len(blinds) != 2:
            raise InputError("blinds: give the small and the big blind (blinds=1,2)")
        ante = _list({"ante": options.get("ante", "0")}, "ante")[0]
        n = len(stacks)
        shover, caller = _index(options, "shover", n), _index(options, "caller", n)
        try:
            bounties = _list(options, "bounties") if "bounties" in options or side is call_spot else None
            return side(stacks, payouts, blinds[0], blinds[1], ante, shover, caller, bounties=bounties,
                        bounty_share=_share(options))
        except ValueError as exc:
            raise InputError(str(exc)) from None

    def outcomes(self, options: dict):
        """(win, tie, lose) of ``hand=`` against ``range=`` (whole classes), None without matchup data."""
        from kernels.icm.spot import outcomes_vs_range

        hero, weights = _hand_and_range(options)
        m = self.data.matchups
        if not m:
            return None
        return tuple(float(x) for x in outcomes_vs_range(m["win"], m["tie"], m["loss"], weights)[hero])

    def shove(self, options: dict) -> str:
        """The shover's side (``side=shover``): ``show=ev`` (EV of shoving − folding, payout units), ``ev_chips``
        (the same in chips) or ``call`` (how often the caller's ``range=`` holds a hand, given the shover's ``hand=``)."""
        from kernels.icm.spot import call_probability, shove_spot

        spot, show = self.spot(options, shove_spot), options.get("show", "ev")
        if show not in ("ev", "ev_chips", "call"):
            raise InputError(f"side=shover shows ev, ev_chips or call, got {show!r}")
        chances = self.outcomes(options)
        if chances is None:
            return NOT_COMPUTED
        hero, weights = _hand_and_range(options)
        call = float(call_probability(self.data.matchups["pairs"], weights)[hero])
        if show == "call":
            return pct(call, 1)
        if show == "ev":
            return f"{spot.ev_difference(call, *chances):+.2f}"
        return f"{spot.chip_difference(call, *chances):+,.0f}"

    def __call__(self, args: list[str], options: dict) -> str:
        if options.get("side") == "shover":
            return self.shove(options)
        if args:
            raise InputError("usage: {{< bounty_spot stacks=… payouts=… blinds=SB,BB ante=A shover=N caller=N bounties=… show=KEY >}}")
        spot, show = self.spot(options), options.get("show", "required")
        if show in ("required", "required_icm", "required_chips"):
            return pct({"required": spot.required_total, "required_icm": spot.required_icm,
                        "required_chips": spot.required_chips}[show], 2)
        kind, _, outcome = show.partition("_")
        if outcome in OUTCOMES and kind in ("icm", "bounty", "chips", "total"):
            table = {"icm": spot.equity, "bounty": spot.bounty, "chips": spot.chips, "total": spot.total}[kind]
            return money(table[outcome])
        if show in ("equity", "win", "tie", "ev", "ev_icm", "ev_bounty"):
            chances = self.outcomes(options)
            if chances is None:
                return NOT_COMPUTED
            win, tie, lose = chances
            if show in ("equity", "win", "tie"):
                return pct({"equity": win + tie / 2, "win": win, "tie": tie}[show], 2)
            icm, bounty = spot.ev_parts(win, tie, lose)
            return f"{ {'ev': icm + bounty, 'ev_icm': icm, 'ev_bounty': bounty}[show]:+.2f}"
        raise InputError(f"unknown bounty_spot value {show!r} (required, required_icm, required_chips, "
                         "icm_/bounty_/chips_/total_ + fold/win/tie/lose, equity, win, tie, ev, ev_icm, ev_bounty)")
