"""JSON Schemas (draft 2020-12) of the data files described in ``docs/data-format.md``."""

from __future__ import annotations

DIALECT = "https://json-schema.org/draft/2020-12/schema"
N = 169


def _array(items: dict, length: int | None = None) -> dict:
    schema = {"type": "array", "items": items}
    if length is not None:
        schema.update(minItems=length, maxItems=length)
    return schema


COUNT = {"type": "integer", "minimum": 0}
FRACTION = {"type": "number", "minimum": 0, "maximum": 1}
NONNEGATIVE = {"type": "number", "minimum": 0}
CLASSES = _array({"type": "string", "pattern": "^[2-9TJQKA]{2}[so]?$"}, N)
BY_CLASS_COUNTS = _array(COUNT, N)
BY_CLASS_FRACTIONS = _array(FRACTION, N)
MATRIX_COUNTS = _array(_array(COUNT, N), N)

META = {
    "type": "object",
    "description": "Provenance: how, when and by which code the file was produced.",
    "required": ["stage", "method", "generated"],
    "properties": {
        "stage": {"type": "string"},
        "method": {"type": "string"},
        "version": {"type": "string", "description": "package version"},
        "code_version": {"type": "string", "description": "hash of the kernels that produced the file"},
        "backend": {"type": "string", "enum": ["cpu", "gpu"]},
        "wall_time_s": NONNEGATIVE,
        "generated": {"type": "string", "description": "UTC ISO 8601 time"},
    },
}


def _schema(name: str, title: str, description: str, properties: dict, meta_extra: dict) -> dict:
    meta = {**META, "properties": {**META["properties"], **meta_extra}}
    return {
        "$schema": DIALECT,
        "$id": f"{name}.schema.json",
        "title": title,
        "description": description,
        "type": "object",
        "required": ["meta", *properties],
        "properties": {"meta": meta, **properties},
    }


HEADSUP = _schema(
    "headsup",
    "Heads-up equity of each class against a random hand (exact)",
    "Counts per hero combo over every opponent combo and every board: total = 1225 × 1,712,304; "
    "equity = (win + tie/2) / total. Arrays are in class-index order (13·row + col of the chart).",
    {
        "classes": CLASSES,
        "combos": _array({"type": "integer", "enum": [4, 6, 12]}, N),
        "win": BY_CLASS_COUNTS,
        "tie": BY_CLASS_COUNTS,
        "loss": BY_CLASS_COUNTS,
        "total": BY_CLASS_COUNTS,
        "equity": BY_CLASS_FRACTIONS,
    },
    {"boards": {"const": 1712304}, "opponent_combos": {"const": 1225}},
)

MATCHUPS = _schema(
    "matchups",
    "Every class against every class, heads-up (exact)",
    "win[i][j] counts boards on which a combo of class i beats a combo of class j, over all pairs[i][j] "
    "card-compatible combo pairs and the 1,712,304 boards of each; win + tie + loss = pairs × 1,712,304.",
    {
        "classes": CLASSES,
        "win": MATRIX_COUNTS,
        "tie": MATRIX_COUNTS,
        "loss": MATRIX_COUNTS,
        "pairs": MATRIX_COUNTS,
        "equity": _array(_array(FRACTION, N), N),
    },
    {},
)

_TABLE = {
    "type": "object",
    "required": ["win", "tie", "tie_k", "loss", "equity", "se_win", "se_tie", "se_equity", "samples"],
    "properties": {
        "win": BY_CLASS_FRACTIONS,
        "tie": BY_CLASS_FRACTIONS,
        "tie_k": _array(_array(FRACTION, 9), N),
        "loss": BY_CLASS_FRACTIONS,
        "equity": BY_CLASS_FRACTIONS,
        "se_win": _array(NONNEGATIVE, N),
        "se_tie": _array(NONNEGATIVE, N),
        "se_equity": _array(NONNEGATIVE, N),
        "se_equity_plain": _array(NONNEGATIVE, N),
        "cv_gain": _array({"type": ["number", "null"], "minimum": 0}, N),  # null at n = 2: the controls are the outcome
        "gain": _array({"type": ["number", "null"], "minimum": 0}, N),
        "samples": BY_CLASS_COUNTS,
    },
}

MULTIWAY = _schema(
    "multiway",
    "Each class against 1..9 random opponents (Monte Carlo, control variates)",
    "Estimates are control-variate adjusted; 95% CI = estimate ± 1.96 · se. tie_k column k-2 is the "
    "probability of a k-way tie (k = 2..10). cv_gain = plain variance / control-variate variance; gain = "
    "variance of one n-player game / control-variate variance (independent games one sample is worth).",
    {
        "classes": CLASSES,
        "players": _array({"type": "integer", "minimum": 2, "maximum": 10}),
        "by_players": {
            "type": "object",
            "propertyNames": {"pattern": "^([2-9]|10)$"},
            "additionalProperties": _TABLE,
        },
    },
    {
        "deals": COUNT,
        "seed": COUNT,
        "rng": {"type": "string"},
        "control_variates": {"type": "string"},
    },
)

_BY_STACK_FRACTIONS = _array(BY_CLASS_FRACTIONS)
_STACK_OR_NULL = _array({"type": ["number", "null"], "minimum": 1}, N)

PUSHFOLD = _schema(
    "pushfold",
    "Heads-up push/fold Nash equilibria (chip EV, SB shoves or folds, BB calls or folds)",
    "stacks lists the effective stacks in bb (before posting 0.5/1 bb blinds and the ante); push[k][i] and "
    "call[k][i] are the SB's shove and the BB's call frequency of class i at stacks[k]. push_max[i] / call_max[i] "
    "= largest listed stack at which class i is played with frequency >= meta.played_threshold (null: never; "
    "the top of the grid means 'at least'); *_contiguous = largest X with the class played at every listed "
    "stack <= X. nash_conv[k] = SB + BB best-response gains of the listed (rounded) strategies, bb per hand.",
    {
        "classes": CLASSES,
        "combos": _array({"type": "integer", "enum": [4, 6, 12]}, N),
        "stacks": _array({"type": "number", "minimum": 1}),
        "push": _BY_STACK_FRACTIONS,
        "call": _BY_STACK_FRACTIONS,
        "push_share": _array(FRACTION),
        "call_share": _array(FRACTION),
        "sb_value": _array({"type": "number"}),
        "nash_conv": _array(NONNEGATIVE),
        "iterations": _array(COUNT),
        "push_max": _STACK_OR_NULL,
        "push_max_contiguous": _STACK_OR_NULL,
        "call_max": _STACK_OR_NULL,
        "call_max_contiguous": _STACK_OR_NULL,
    },
    {
        "ante": NONNEGATIVE,
        "tolerance": NONNEGATIVE,
        "played_threshold": FRACTION,
        "max_nash_conv": NONNEGATIVE,
        "headsup_code_version": {"type": "string"},
    },
)

SCHEMAS = {"headsup": HEADSUP, "matchups": MATCHUPS, "multiway": MULTIWAY, "pushfold": PUSHFOLD}
