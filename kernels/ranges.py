"""Range strings (``"QQ+, AKs, 0.5(KQo), A5s-A2s, 15%"``) → a weight for each of the 1,326 combos.

Pure parsing, no I/O. The grammar (docs/equity.md; ``templates/assets/js/engines/ranges.js`` implements
the same one and is checked against this module on shared fixtures)::

    range  := item ("," item)*
    item   := number "(" atom ("," atom)* ")"      weight for every atom inside, e.g. 0.5(KQo, AJs)
            | atom [":" number]                   weight for one atom, e.g. KQo:0.5
    atom   := "random" | number "%" | combo | class | class "+" | class "-" class
    class  := rank rank ["s" | "o"]               AKs, AKo, AK (both), TT
    combo  := rank suit rank suit                 AsKd

Weights lie in [0, 1] (default 1); a combo named twice keeps the weight given last. ``x%`` is the
top x% of the 1,326 combos by a ranking of the 169 classes that the caller passes in (the build
uses exact heads-up equity against a random hand, :func:`ranking_from_equity`): the prefix of the
ranked classes whose combo count is closest to x% × 1,326 (a tie takes the larger prefix; never
empty for x > 0). Ranks and suits are case-insensitive; whitespace (ASCII space, tab, CR, LF) around items is ignored.
Columns in errors are 1-based positions in the range text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, CLASS_NAMES, COMBO_CLASS, RANKS, SUITS, card_id

N_COMBOS = 1326
_NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
#: Whitespace is ASCII space, tab, CR and LF only (as in ranges.js).
_SPACE = " \t\r\n"
_GROUP = re.compile(rf"^({_NUMBER})[ \t\r\n]*\((.*)\)$", re.S)
_SUFFIXED = re.compile(rf"^(.*?)[ \t\r\n]*:[ \t\r\n]*({_NUMBER})$", re.S)
_PERCENT = re.compile(rf"^({_NUMBER})%$")
#: combo index of each (card, card) pair, both orders; -1 on the diagonal.
_COMBO_INDEX = np.full((52, 52), -1, dtype=np.int64)
_COMBO_INDEX[ALL_COMBOS[:, 0], ALL_COMBOS[:, 1]] = np.arange(N_COMBOS)
_COMBO_INDEX[ALL_COMBOS[:, 1], ALL_COMBOS[:, 0]] = np.arange(N_COMBOS)


#: Characters of a token shown in an error; a longer one is cut there, with "…".
SHOWN_TOKEN_CHARS = 40


def shown_token(token: str) -> str:
    """A token as an error shows it: control and other unprintable characters escaped as Python writes them (a
    terminal escape cannot colour the error), at most :data:`SHOWN_TOKEN_CHARS` characters (ranges.js the same)."""
    def escaped(c: str) -> str:
        if c.isprintable():
            return c
        code = ord(c)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"

    cut = token[:SHOWN_TOKEN_CHARS]
    return "".join(map(escaped, cut)) + ("…" if len(token) > SHOWN_TOKEN_CHARS else "")


class RangeError(ValueError):
    """A token that is not in the grammar; ``str()`` names the token (:func:`shown_token`) and its 1-based column."""

    def __init__(self, token: str, column: int, reason: str):
        super().__init__(f'token "{shown_token(token)}" (column {column}): {reason}')
        self.token, self.column, self.reason = token, column, reason


@dataclass(frozen=True)
class Range:
    """A parsed range: ``weights`` ``(1326,)`` float64 in [0, 1], indexed like ``kernels.cards.ALL_COMBOS``."""

    text: str
    weights: np.ndarray

    def combos(self) -> np.ndarray:
        """Indices of the combos with a positive weight, ``(k,)`` int64."""
        return np.flatnonzero(self.weights > 0)


def combo_index(first: int, second: int) -> int:
    """Index into ``ALL_COMBOS`` of two distinct card ids (either order)."""
    return int(_COMBO_INDEX[first, second])


def ranking_from_equity(equity) -> np.ndarray:
    """Class indices ``(169,)`` best first by ``equity`` ``(169,)`` (ties: lower class index first)."""
    return np.lexsort((np.arange(len(equity)), -np.asarray(equity, dtype=np.float64)))


def _split(text: str, start: int, column: int) -> list[tuple[str, int]]:
    """Split ``text`` at commas outside parentheses: ``(piece stripped, its 1-based column)``."""
    pieces, depth, begin = [], 0, 0
    for i in range(len(text) + 1):
        char = text[i] if i < len(text) else ","
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and (depth <= 0 or i == len(text)):
            raw = text[begin:i]
            stripped = raw.lstrip(_SPACE)
            pieces.append((stripped.rstrip(_SPACE), column + start + begin + len(raw) - len(stripped)))
            begin = i + 1
    return pieces


def _weight(text: str, token: str, column: int) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise RangeError(token, column, f"weight {text} is not between 0 and 1")
    return value


def _rank(char: str, token: str, column: int) -> int:
    if char.upper() not in RANKS:
        raise RangeError(token, column, f"'{shown_token(char)}' is not a rank ({RANKS})")
    return RANKS.index(char.upper())


def _parse_class(text: str, token: str, column: int) -> tuple[int, int, str]:
    """``(high rank, low rank, kind)``; kind ``"p"`` pair, ``"s"``, ``"o"``, or ``""`` (suited and offsuit)."""
    if len(text) not in (2, 3):
        raise RangeError(token, column, "not a class (AKs, AKo, AK, TT), a combo (AsKd), x% or random")
    first, second = _rank(text[0], token, column), _rank(text[1], token, column)
    kind = text[2].lower() if len(text) == 3 else ""
    if kind not in ("", "s", "o"):
        raise RangeError(token, column, f"'{shown_token(text[2])}' is not s (suited) or o (offsuit)")
    if first == second:
        if kind:
            raise RangeError(token, column, "a pair takes no s/o suffix")
        return first, second, "p"
    return max(first, second), min(first, second), kind


def _classes(high: int, low: int, kind: str) -> list[int]:
    """Class indices of a (high, low, kind) triple (two for kind ``""``)."""
    name = RANKS[high] + RANKS[low]
    if kind == "p":
        return [CLASS_NAMES.index(name)]
    return [CLASS_NAMES.index(name + k) for k in (kind or "so")]


def _parse_atom(text: str, column: int, ranking) -> np.ndarray:
    """The combos ``(k,)`` int64 of one atom."""
    token = text
    if text.lower() == "random":
        return np.arange(N_COMBOS)
    match = _PERCENT.match(text)
    if match:
        percent = float(match.group(1))
        if not 0.0 <= percent <= 100.0:
            raise RangeError(token, column, "a percentage lies between 0 and 100")
        if ranking is None:
            raise RangeError(token, column, "x% needs the class ranking (none was given)")
        return top_percent(percent, ranking)
    if len(text) == 4 and text[1].lower() in SUITS and text[3].lower() in SUITS:
        first = card_id(_rank(text[0], token, column), SUITS.index(text[1].lower()))
        second = card_id(_rank(text[2], token, column), SUITS.index(text[3].lower()))
        if first == second:
            raise RangeError(token, column, "the two cards are the same")
        return np.array([combo_index(first, second)])
    if text.endswith("+"):
        high, low, kind = _parse_class(text[:-1], token, column)
        steps = [(r, r) for r in range(low, 13)] if kind == "p" else [(high, r) for r in range(low, high)]
        classes = [c for hi, lo in steps for c in _classes(hi, lo, kind)]
    elif "-" in text:
        left, _, right = text.partition("-")
        a, b = _parse_class(left.strip(_SPACE), token, column), _parse_class(right.strip(_SPACE), token, column)
        if a[2] != b[2]:
            raise RangeError(token, column, "both ends of a dash must be pairs, or both suited, offsuit or neither")
        if a[0] == b[0] and a[2] != "p":
            steps = [(a[0], r) for r in range(min(a[1], b[1]), max(a[1], b[1]) + 1)]
        elif a[0] - a[1] == b[0] - b[1]:
            gap = a[0] - a[1]
            steps = [(h, h - gap) for h in range(min(a[0], b[0]), max(a[0], b[0]) + 1)]
        else:
            raise RangeError(token, column, "a dash joins classes with the same first rank (A5s-A2s) or the same gap (T9s-65s, JJ-99)")
        classes = [c for hi, lo in steps for c in _classes(hi, lo, a[2])]
    else:
        classes = _classes(*_parse_class(text, token, column))
    return np.flatnonzero(np.isin(COMBO_CLASS, classes))


def top_percent(percent: float, ranking) -> np.ndarray:
    """Combos of the top ``percent`` % of hands: the prefix of ``ranking`` (class indices, best first)
    whose combo count is closest to ``percent × 1326 / 100`` (ties: the larger prefix; ≥ 1 class if > 0)."""
    ranking = np.asarray(ranking, dtype=np.int64)
    target = percent * N_COMBOS / 100
    counts = np.concatenate(([0], np.cumsum(CLASS_COMBO_COUNT[ranking])))
    distance = np.abs(counts - target)
    prefix = int(np.flatnonzero(distance == distance.min())[-1])
    if percent > 0:
        prefix = max(prefix, 1)
    return np.flatnonzero(np.isin(COMBO_CLASS, ranking[:prefix]))


def parse_range(text: str, ranking=None) -> Range:
    """Parse a range string (grammar in the module docstring); ``ranking``: class indices best first, for x%.

    Raises :class:`RangeError` naming the first bad token and its column.
    """
    weights = np.zeros(N_COMBOS, dtype=np.float64)
    if not text.strip(_SPACE):
        raise RangeError(text, 1, "empty range")
    for item, column in _split(text, 0, 1):
        if not item:
            raise RangeError(item, column, "empty item (two commas in a row, or a comma at an end)")
        group = _GROUP.match(item)
        if group:
            weight = _weight(group.group(1), item, column)
            inner_start = item.index("(") + 1
            atoms = _split(group.group(2), inner_start, column)
        elif "(" in item or ")" in item:
            raise RangeError(item, column, "parentheses go around a list after a weight, e.g. 0.5(KQo, AJs)")
        else:
            suffixed = _SUFFIXED.match(item)
            if suffixed:
                weight = _weight(suffixed.group(2), item, column)
                atoms = [(suffixed.group(1), column)]
            else:
                weight, atoms = 1.0, [(item, column)]
        for atom, atom_column in atoms:
            if not atom:
                raise RangeError(atom, atom_column, "empty item (two commas in a row, or a comma at an end)")
            weights[_parse_atom(atom, atom_column, ranking)] = weight
    return Range(text, weights)


def _format_weight(weight: float) -> str:
    return np.format_float_positional(weight, trim="-")


def _lines() -> list[list[int]]:
    """The class indices along which whole classes are written as runs, each from its top down: the
    pairs (AA … 22), then the suited and then the offsuit classes of each first rank (AKs … A2s, …)."""
    line = lambda rank: 12 - rank  # (chart line of a rank index, 12 = ace)
    pairs = [line(r) * 14 for r in range(12, -1, -1)]
    suited = [[line(h) * 13 + line(k) for k in range(h - 1, -1, -1)] for h in range(12, 0, -1)]
    offsuit = [[line(k) * 13 + line(h) for k in range(h - 1, -1, -1)] for h in range(12, 0, -1)]
    return [pairs, *suited, *offsuit]


def _runs(whole: dict[int, float]) -> list[tuple[str, float]]:
    """Whole classes (class → weight) as the fewest tokens: consecutive classes of one line with the same
    weight are one run, ``QQ+`` / ``ATs+`` from the top of the line, else ``JJ-99`` / ``A9s-A5s``."""
    items = []
    for members in _lines():
        k = 0
        while k < len(members):
            if members[k] not in whole:
                k += 1
                continue
            end = k
            while end + 1 < len(members) and whole.get(members[end + 1]) == whole[members[k]]:
                end += 1
            top, bottom = CLASS_NAMES[members[k]], CLASS_NAMES[members[end]]
            items.append((top if end == k else f"{bottom}+" if k == 0 else f"{top}-{bottom}", whole[members[k]]))
            k = end + 1
    return items


def normalise(weights: np.ndarray) -> str:
    """A canonical, compact range string for ``weights`` ``(1326,)``: whole classes as runs (``QQ+``,
    ``JJ-99``, ``ATs+``, ``A9s-A5s``, each of one weight), then other combos one by one, weights other
    than 1 as ``:w``; ``parse_range(normalise(w)).weights == w`` exactly."""
    weights = np.asarray(weights, dtype=np.float64)
    if np.all(weights == 1.0):
        return "random"
    whole, items = {}, []
    for cls in range(len(CLASS_NAMES)):
        members = np.flatnonzero(COMBO_CLASS == cls)
        values = weights[members]
        if values[0] > 0 and np.all(values == values[0]):
            whole[cls] = float(values[0])
    items = _runs(whole)
    for cls in range(len(CLASS_NAMES)):
        if cls in whole:
            continue
        members = np.flatnonzero(COMBO_CLASS == cls)
        values = weights[members]
        for combo, value in zip(members, values):
            if value > 0:
                a, b = ALL_COMBOS[combo]
                high, low = (b, a) if b // 4 > a // 4 or (b // 4 == a // 4 and b > a) else (a, b)
                items.append((RANKS[high // 4] + SUITS[high % 4] + RANKS[low // 4] + SUITS[low % 4], value))
    return ",".join(name if value == 1.0 else f"{name}:{_format_weight(value)}" for name, value in items)

