"""JSON Schemas (draft 2020-12) of the data files described in ``docs/data-format.md``.

They are meant to reject a broken file, not only a file of the wrong shape: every key the stages
write is required, class arrays have exactly 169 entries (and ``classes`` / ``combos`` are the
fixed lists), probabilities lie in [0, 1], counts are non-negative integers, and ``by_players``
holds exactly the tables for 2..10 players. What a schema cannot say (e.g. that ``push`` has one
row per stack, or that win + tie + loss = total) is left to the tests of each stage.
"""

from __future__ import annotations

from generator.core.provenance import DATA_LICENSE, DATA_LICENSE_NAME, DATA_LICENSE_URL
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.flop.categories import DRAWS, MADE_CATEGORIES
from kernels.constants import MAX_SEATS

DIALECT = "https://json-schema.org/draft/2020-12/schema"
N = 169
PLAYER_COUNTS = list(range(2, MAX_SEATS + 1))


def _array(items: dict, length: int | None = None) -> dict:
    schema = {"type": "array", "items": items}
    if length is not None:
        schema.update(minItems=length, maxItems=length)
    return schema


COUNT = {"type": "integer", "minimum": 0}
FRACTION = {"type": "number", "minimum": 0, "maximum": 1}
NONNEGATIVE = {"type": "number", "minimum": 0}
NONNEGATIVE_OR_NULL = {"type": ["number", "null"], "minimum": 0}
TEXT = {"type": "string", "minLength": 1}
CLASSES = {**_array({"type": "string", "pattern": "^[2-9TJQKA]{2}[so]?$"}, N), "const": list(CLASS_NAMES)}
COMBOS = {**_array({"type": "integer", "enum": [4, 6, 12]}, N), "const": CLASS_COMBO_COUNT.tolist()}
BY_CLASS_COUNTS = _array(COUNT, N)
BY_CLASS_FRACTIONS = _array(FRACTION, N)
MATRIX_COUNTS = _array(_array(COUNT, N), N)

META = {
    "type": "object",
    "description": "Provenance: how, when and by which code the file was produced.",
    "required": ["stage", "method", "version", "code_version", "backend", "wall_time_s", "generated"],
    "properties": {
        "stage": TEXT,
        "method": TEXT,
        "version": {**TEXT, "description": "package version"},
        "code_version": {**TEXT, "description": "hash of the kernels that produced the file"},
        "backend": {"type": "string", "enum": ["cpu", "gpu"]},
        "device": {**TEXT, "description": "where it ran: the GPU's name, compute capability and memory, or the CPU's model and cores"},
        "machine": {"type": "string"},
        "wall_time_s": NONNEGATIVE,
        "license": {"const": DATA_LICENSE, "description": f"SPDX id of the data's licence: {DATA_LICENSE_NAME}, {DATA_LICENSE_URL}"},
        "generated": {
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}",
            "description": "UTC ISO 8601 time",
        },
    },
}


def _schema(name: str, title: str, description: str, properties: dict, meta_extra: dict, stage: str | None = None) -> dict:
    """A data file's schema: ``meta`` (common keys + ``meta_extra``, all required; ``meta.stage`` is
    ``stage``, by default ``name``) and every one of ``properties`` required."""
    meta = {
        **META,
        "required": [*META["required"], *meta_extra],
        "properties": {**META["properties"], "stage": {"const": stage or name}, **meta_extra},
    }
    return {
        "$schema": DIALECT,
        "$id": f"{name}.schema.json",
        "title": title,
        "description": description,
        "type": "object",
        "required": ["meta", *properties],
        "properties": {"meta": meta, **properties},
    }


_HEADSUP_META = {
    "boards": {"const": 1712304},
    "opponent_combos": {"const": 1225},
    "board_classes": {"const": 134459, "description": "suit-symmetry classes of the 2,598,960 boards walked"},
    "live_combos_per_board": {"const": 1081, "description": "two-card combos ranked on each board"},
}

HEADSUP = _schema(
    "headsup",
    "Heads-up equity of each class against a random hand (exact)",
    "Counts per hero combo over every opponent combo and every board: total = 1225 × 1,712,304; "
    "equity = (win + tie/2) / total. Arrays are in class-index order (13·row + col of the chart).",
    {
        "classes": CLASSES,
        "combos": COMBOS,
        "win": BY_CLASS_COUNTS,
        "tie": BY_CLASS_COUNTS,
        "loss": BY_CLASS_COUNTS,
        "total": BY_CLASS_COUNTS,
        "equity": BY_CLASS_FRACTIONS,
    },
    _HEADSUP_META,
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
    _HEADSUP_META,
    stage="headsup",  # written by the headsup stage, with the same meta as headsup.json
)

_SE = _array(NONNEGATIVE_OR_NULL, N)  # null: not estimable yet (too few deals)
_TABLE_PROPERTIES = {
    "win": BY_CLASS_FRACTIONS,
    "tie": BY_CLASS_FRACTIONS,
    "tie_k": _array(_array(FRACTION, 9), N),
    "loss": BY_CLASS_FRACTIONS,
    "equity": BY_CLASS_FRACTIONS,
    "se_win": _SE,
    "se_tie": _SE,
    "se_equity": _SE,
    "se_equity_plain": _SE,
    "cv_gain": _array(NONNEGATIVE_OR_NULL, N),  # null at n = 2: the controls are the outcome
    "gain": _array(NONNEGATIVE_OR_NULL, N),
    "samples": BY_CLASS_COUNTS,
    "win_plain": BY_CLASS_FRACTIONS,
    "tie_plain": BY_CLASS_FRACTIONS,
    "equity_plain": BY_CLASS_FRACTIONS,
    "se_win_plain": _SE,
    "se_tie_plain": _SE,
    # distribution-free 95% interval [low, high] (empirical Bernstein on first seats); null below 2 samples
    "ci_rigorous_equity": _array({"type": ["array", "null"], "items": FRACTION, "minItems": 2, "maxItems": 2}, N),
}
_TABLE = {"type": "object", "required": list(_TABLE_PROPERTIES), "properties": _TABLE_PROPERTIES}

MULTIWAY = _schema(
    "multiway",
    "Each class against 1..9 random opponents (Monte Carlo, control variates)",
    "Estimates are control-variate adjusted; 95% CI = estimate ± 1.959964 · se (normal approximation); "
    "ci_rigorous_equity = a distribution-free 95% interval (empirical Bernstein, first seats only). tie_k column k-2 is the "
    "probability of a k-way tie (k = 2..10). cv_gain = plain variance / control-variate variance; gain = "
    "variance of one n-player game / control-variate variance (independent games one sample is worth).",
    {
        "classes": CLASSES,
        "players": {**_array({"type": "integer"}, len(PLAYER_COUNTS)), "const": PLAYER_COUNTS},
        "by_players": {
            "type": "object",
            "required": [str(n) for n in PLAYER_COUNTS],
            "properties": {str(n): _TABLE for n in PLAYER_COUNTS},
            "additionalProperties": False,
        },
    },
    {
        "deals": COUNT,
        "samples": COUNT,
        "seed": COUNT,
        "rng": TEXT,
        "control_variates": TEXT,
        "shards": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": COUNT},
        "block_deals": {"type": "integer", "minimum": 1},
        "groups": {"type": "integer", "minimum": 2},
        "worst_se": NONNEGATIVE_OR_NULL,
    },
)

def _per_stack(items: dict) -> dict:
    """One entry per solved stack (at least one)."""
    return {**_array(items), "minItems": 1}


_BY_STACK_FRACTIONS = _per_stack(BY_CLASS_FRACTIONS)
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
        "combos": COMBOS,
        "stacks": _per_stack({"type": "number", "minimum": 1}),
        "push": _BY_STACK_FRACTIONS,
        "call": _BY_STACK_FRACTIONS,
        "push_share": _per_stack(FRACTION),
        "call_share": _per_stack(FRACTION),
        "sb_value": _per_stack({"type": "number"}),
        "nash_conv": _per_stack(NONNEGATIVE),
        "iterations": _per_stack({"type": "integer", "minimum": 1}),
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
        "headsup_code_version": TEXT,
    },
)

THREEHANDED = _schema(
    "threehanded",
    "Three-handed equity of each class against two random hands (exact)",
    "Counts of deals per hero class over every pair of opponent combos and every board: total = combos × "
    "2,118,760 boards × 446,985 opponent pairs; tie_2 = the hero splits with one opponent (the other is "
    "beaten), tie_3 = a three-way split; equity = (win + tie_2/2 + tie_3/3) / total.",
    {
        "classes": CLASSES,
        "combos": COMBOS,
        "win": BY_CLASS_COUNTS,
        "tie_2": BY_CLASS_COUNTS,
        "tie_3": BY_CLASS_COUNTS,
        "loss": BY_CLASS_COUNTS,
        "total": BY_CLASS_COUNTS,
        "equity": BY_CLASS_FRACTIONS,
    },
    {"boards": {"const": 2118760}, "opponent_pairs": {"const": 446985}},
)

FOURHANDED = _schema(
    "fourhanded",
    "Four-handed equity of each class against three random hands (exact)",
    "Counts of deals per hero class over every unordered triple of card-disjoint opponent combos and every board: "
    "total = combos × 2,118,760 boards × 122,175,900 opponent triples (C(45,2)·C(43,2)·C(41,2)/3!); tie_k = the hero "
    "splits the pot k ways (k − 1 opponents tie it, the others are beaten); equity = (win + tie_2/2 + tie_3/3 + "
    "tie_4/4) / total.",
    {
        "classes": CLASSES,
        "combos": COMBOS,
        "win": BY_CLASS_COUNTS,
        "tie_2": BY_CLASS_COUNTS,
        "tie_3": BY_CLASS_COUNTS,
        "tie_4": BY_CLASS_COUNTS,
        "loss": BY_CLASS_COUNTS,
        "total": BY_CLASS_COUNTS,
        "equity": BY_CLASS_FRACTIONS,
    },
    {"boards": {"const": 2118760}, "opponent_triples": {"const": 122175900}},
)

_SPOT_FREQUENCIES = {"type": "object", "minProperties": 1, "additionalProperties": BY_CLASS_FRACTIONS}
_STACK_OR_NULL_BY_SPOT = {"type": "object", "minProperties": 1, "additionalProperties": _array({"type": ["number", "null"]}, N)}
#: The worst per-class regret of a solution: the most a class loses at a decision by following the strategy instead
#: of the better action (given the decision is reached; see kernels.pushfold.class_regret), where it is.
_CLASS_REGRET = {
    "type": "object", "required": ["bb", "pool_pct", "spot", "class"],
    "properties": {"bb": NONNEGATIVE_OR_NULL, "pool_pct": NONNEGATIVE_OR_NULL, "spot": TEXT, "class": {"enum": list(CLASS_NAMES)}},
}
#: A certificate on real deals (generator.compute.stages.pushfold_certificate): the summed gain of each seat's deviation
#: fitted on the deals, with a 95% interval, per seat too; in bb (chip EV) or % of the prize pool (ICM).
_CERTIFIED = {
    "type": "object", "required": ["unit", "value", "ci95", "seats", "deals", "deviations", "upper95"],
    "properties": {
        "unit": {"enum": ["bb", "pool_pct"]}, "value": {"type": "number"}, "ci95": NONNEGATIVE,
        "seats": {"type": "object", "additionalProperties": {"type": "object", "required": ["gain", "ci95"]}},
        "deals": COUNT, "deviations": COUNT, "upper95": NONNEGATIVE,
    },
}
_RULE_META = {
    "tolerance_bb": NONNEGATIVE, "tolerance_pool_pct": NONNEGATIVE, "class_tolerance_bb": NONNEGATIVE,
    "class_tolerance_pool_pct": NONNEGATIVE, "reach_floor": FRACTION, "max_iterations": COUNT,
}
#: Which CFR schedule produced a push/fold solution (kernels.pushfold.solve).
_SCHEDULE = {"enum": ["dcfr", "cfr+"]}
#: A game's bounties (KO / PKO, generator.compute.pushfold_records.Group): each seat's bounty as a fraction of its stack at
#: chip value, and the part of a bounty paid in cash at a knockout; both null without bounties.
_BOUNTY = {"type": ["number", "null"], "exclusiveMinimum": 0}
_BOUNTY_SHARE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
_BOUNTY_TEXT = (
    "bounty (null: none): every seat has a bounty worth that fraction of its stack at chip value (chip EV: of the stack, "
    "in bb; ICM: of the stack's share of the prize pool, in the payouts' unit), bounty_share of it paid in cash at a "
    "knockout and the rest added to the winner's own bounty (KO / PKO, the model of docs/pushfold.md, Bounties); "
)

PUSHFOLD_CHARTS = _schema(
    "pushfold_charts",
    "Push/fold Nash equilibria for n players (chip EV and ICM)",
    "groups: tables of `players` equal stacks (bb, before posting 0.5/1 bb blinds and the ante; with bb_ante only "
    "the BB posts `ante`), chip EV when payouts is null, else ICM with those prizes. Per chart (one stack): "
    "shove[position][i] = that position's shove frequency of class i when everyone before it folded; "
    "call['X vs Y+Z'][i] = X's call frequency facing Y's shove after Z called; NashConv = sum over players of "
    "their best-response gains (bb, or % of the prize pool for ICM); pots = probability of a showdown with "
    "2, 3 or 4+ players. shove_max / call_max: largest stack of the group played with frequency >= "
    "meta.played_threshold (null: never). " + _BOUNTY_TEXT + "payoffs then include the bounties, and each chart's "
    "bounties lists every seat's bounty at its stack (null without).",
    {
        "classes": CLASSES,
        "combos": COMBOS,
        "groups": _array({
            "type": "object",
            "required": ["players", "positions", "ante", "bb_ante", "payouts", "bounty", "bounty_share", "stacks", "charts",
                         "shove_max", "call_max"],
            "properties": {
                "players": {"type": "integer", "minimum": 2, "maximum": 10},
                "positions": _array(TEXT),
                "ante": NONNEGATIVE,
                "bb_ante": {"type": "boolean"},
                "payouts": {"type": ["array", "null"], "items": NONNEGATIVE},
                "bounty": _BOUNTY,
                "bounty_share": _BOUNTY_SHARE,
                "stacks": _array({"type": "number", "exclusiveMinimum": 1}),
                "charts": _array({
                    "type": "object",
                    "required": ["stack", "bounties", "shove", "call", "nash_conv_bb", "nash_conv_pool_pct", "iterations", "schedule",
                                 "warm_start_bb", "pots", "ev_se_max"],
                    "properties": {
                        "stack": {"type": "number"},
                        "bounties": {"type": ["array", "null"], "items": NONNEGATIVE},
                        "shove": _SPOT_FREQUENCIES,
                        "call": _SPOT_FREQUENCIES,
                        "nash_conv_bb": NONNEGATIVE_OR_NULL,
                        "nash_conv_pool_pct": NONNEGATIVE_OR_NULL,
                        "iterations": {"type": "integer", "minimum": 1},
                        "schedule": _SCHEDULE,
                        "warm_start_bb": {"type": ["number", "null"], "exclusiveMinimum": 0},
                        "pots": {"type": "object", "required": ["2", "3", "4+"], "additionalProperties": FRACTION},
                        "ev_se_max": NONNEGATIVE,
                        "class_regret": _CLASS_REGRET,
                        "certified": {"oneOf": [{"type": "null"}, _CERTIFIED]},
                    },
                }),
                "shove_max": _STACK_OR_NULL_BY_SPOT,
                "call_max": _STACK_OR_NULL_BY_SPOT,
            },
        }),
    },
    {
        **_RULE_META,
        "played_threshold": FRACTION,
        "max_nash_conv_bb": NONNEGATIVE,
        "max_nash_conv_pool_pct": NONNEGATIVE,
        "threeway": {"type": "object", "required": ["boards", "seed", "se_median", "se_p99"]},
    },
)

_THRESHOLD = _array({"type": ["number", "null"], "minimum": 1, "maximum": 25}, N)
PUSHFOLD_THRESHOLDS = _schema(
    "pushfold_thresholds",
    "Heads-up push/fold thresholds to 0.01 bb (chip EV)",
    "by_ante: per ante (bb per player) the heads-up equilibrium solved at every stack from first_stack to "
    "last_stack in steps of meta.step bb; push_max[i] / call_max[i] = largest of those stacks at which the SB "
    "shoves / the BB calls class i with frequency >= meta.played_threshold (null: never; last_stack means 'at "
    "least'); *_contiguous = largest X with the class played at every grid stack <= X. max_nash_conv = largest "
    "NashConv (bb per hand) over the grid.",
    {
        "classes": CLASSES,
        "combos": COMBOS,
        "by_ante": _array({
            "type": "object",
            "required": ["ante", "first_stack", "last_stack", "max_nash_conv", "push_max", "push_max_contiguous",
                         "call_max", "call_max_contiguous"],
            "properties": {
                "ante": NONNEGATIVE, "first_stack": {"type": "number", "minimum": 1}, "last_stack": {"type": "number"},
                "max_nash_conv": NONNEGATIVE, "push_max": _THRESHOLD, "push_max_contiguous": _THRESHOLD,
                "call_max": _THRESHOLD, "call_max_contiguous": _THRESHOLD,
            },
        }),
    },
    {"step": NONNEGATIVE, "tolerance": NONNEGATIVE, "played_threshold": FRACTION},
)

PUSHFOLD_INDEX = _schema(
    "pushfold_index",
    "Precomputed push/fold tables: the index (data/pushfold/index.json)",
    "groups: tables of `players` seats (blinds in bb, ante: every seat's, or the BB's only with bb_ante), chip EV "
    "when payouts is null, else ICM with those prizes; equal stacks over `stacks` (each table in "
    "data/pushfold/<id>/<stack>.json, stack formatted like Python's f'{stack:g}') or, when stacks is null, one "
    "table per per-seat stack vector of `stack_sets` (data/pushfold/<id>/<k>.json). max_nash_conv_*: the largest "
    "NashConv of the group's tables (bb per hand, or % of the prize pool for ICM; null for the other kind); "
    "max_class_regret_*: the largest worst per-class regret of its tables, in the same units; sha256: each table "
    "file's SHA-256 (hex) by its name (the stack, or the stack_sets index), as written. " + _BOUNTY_TEXT +
    "each table's bounties are in its file's table. The stopping rule is "
    "in meta: NashConv <= tolerance_*, every class's regret at every decision <= class_tolerance_* (decisions a "
    "class reaches with probability below reach_floor: regret divided by reach_floor instead of the reach), or "
    "max_iterations.",
    {
        "groups": _array({
            "type": "object",
            "required": ["id", "players", "ante", "bb_ante", "payouts", "bounty", "bounty_share", "blinds", "stacks", "stack_sets",
                         "max_nash_conv_bb", "max_nash_conv_pool_pct", "max_class_regret_bb", "max_class_regret_pool_pct",
                         "sha256"],
            "properties": {
                "id": {"type": "string", "pattern": "^[0-9]+p-[a-z0-9.-]+$"},
                "players": {"type": "integer", "minimum": 2, "maximum": 10},
                "ante": NONNEGATIVE, "bb_ante": {"type": "boolean"},
                "payouts": {"type": ["array", "null"], "items": NONNEGATIVE},
                "bounty": _BOUNTY, "bounty_share": _BOUNTY_SHARE,
                "blinds": _array(NONNEGATIVE, 2),
                "stacks": {"type": ["array", "null"], "items": {"type": "number", "exclusiveMinimum": 0}},
                "stack_sets": {"type": ["array", "null"], "items": _array({"type": "number", "exclusiveMinimum": 0})},
                "max_nash_conv_bb": NONNEGATIVE_OR_NULL, "max_nash_conv_pool_pct": NONNEGATIVE_OR_NULL,
                "max_class_regret_bb": NONNEGATIVE_OR_NULL, "max_class_regret_pool_pct": NONNEGATIVE_OR_NULL,
                "sha256": {"type": "object", "minProperties": 1,
                           "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
            },
        }),
    },
    {
        **_RULE_META, "decimals": {"type": "integer", "minimum": 1},
        "residue_thresholds": _array(FRACTION), "tables": COUNT,
        "threeway": {"type": "object", "required": ["boards", "seed", "se_median", "se_p99"]},
    },
    stage="pushfold",
)

_SPARSE_FREQUENCIES = {
    "type": "object",
    "additionalProperties": {"type": "object", "propertyNames": {"enum": list(CLASS_NAMES)},
                             "additionalProperties": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}},
}
_BY_POSITION = {"type": "object", "minProperties": 2, "additionalProperties": {"type": "number"}}
PUSHFOLD_TABLE = {
    "$schema": DIALECT,
    "$id": "pushfold_table.schema.json",
    "title": "One precomputed push/fold table (data/pushfold/<id>/<table>.json)",
    "description": "A solution object: positions first to act first (the last two are SB and BB); shove[position] = "
    "{class: probability of shoving when everyone before folded}, call['X vs Y+Z'] = {class: probability X calls "
    "Y's shove after Z called}; a class that is missing has probability 0; probabilities rounded to meta.decimals "
    "of the index. exploitability: NashConv of these rounded probabilities (bb per hand for chip EV, % of the "
    "prize pool for ICM; the other is null). class_regret: the most a class loses at a decision (given it is reached) "
    "by following these probabilities instead of the better action, and where (same units). "
    "certified_exploitability (a sample of tables only): each seat's gain from deviating, measured on real deals "
    "with exact showdowns and side pots (no class tables), and their sum, with 95% intervals; upper95: a conservative "
    "upper bound of the real game's exploitability from the same deals. values: each position's expected payoff (bb, or prize units); "
    "ev_se: a bound on the standard error of each value from the Monte Carlo 3-way table; pots: probability of a "
    "showdown with 2, 3 or 4+ players; table: the game (stacks in bb before posting; with bounties each seat's bounty, in bb "
    "for chip EV or in the payouts' unit for ICM, and bounty_share, the part paid in cash at a knockout); iterations: discounted CFR iterations, "
    "started from the published equilibrium of the equal-stack table at warm_start_bb (null: from a uniform start); schedule: "
    "dcfr, or cfr+ when discounted CFR missed the stopping rule and the table was solved again without discounting positive "
    "regrets (iterations then count both runs).",
    "type": "object",
    "required": ["positions", "shove", "call", "exploitability", "class_regret", "iterations", "schedule", "warm_start_bb",
                 "values", "ev_se", "pots", "table"],
    "properties": {
        "positions": _array(TEXT),
        "shove": _SPARSE_FREQUENCIES,
        "call": _SPARSE_FREQUENCIES,
        "exploitability": {"type": "object", "required": ["bb", "pool_pct"],
                           "properties": {"bb": NONNEGATIVE_OR_NULL, "pool_pct": NONNEGATIVE_OR_NULL}},
        "class_regret": _CLASS_REGRET,
        "certified_exploitability": _CERTIFIED,
        "iterations": {"type": "integer", "minimum": 1},
        "schedule": _SCHEDULE,
        "warm_start_bb": {"type": ["number", "null"], "exclusiveMinimum": 0},
        "values": _BY_POSITION,
        "ev_se": {**_BY_POSITION, "additionalProperties": NONNEGATIVE},
        "pots": {"type": "object", "required": ["2", "3", "4+"], "additionalProperties": FRACTION},
        "table": {
            "type": "object",
            "required": ["stacks", "blinds", "ante", "bb_ante", "payouts"],
            "properties": {
                "stacks": _array({"type": "number", "exclusiveMinimum": 0}), "blinds": _array(NONNEGATIVE, 2),
                "ante": NONNEGATIVE, "bb_ante": {"type": "boolean"},
                "payouts": {"type": ["array", "null"], "items": NONNEGATIVE},
                "bounties": _array(NONNEGATIVE), "bounty_share": FRACTION,
            },
            "dependentRequired": {"bounties": ["bounty_share"]},
        },
    },
}

_N_FLOPS = 1755
FLOPS = _schema(
    "flops",
    "Each class against a random hand on each of the 1,755 suit-distinct flops (exact)",
    "equity[f][c]: class c's equity against one random hand when flop f comes (every live combo of the class, "
    "every turn and river, every villain combo; ties split), rounded to 6 decimals; null where the class has no "
    "combo left (a pair on three cards of its rank). Flop f stands for weights[f] of the 22,100 flops (its suit "
    "relabellings); live[f][c] counts the class's combos that share no card with it. Weighted by weights × live, "
    "the mean over flops is the class's preflop equity (headsup.json). Definitions: docs/flop.md.",
    {
        "classes": CLASSES,
        "flops": _array({"type": "string", "pattern": "^([2-9TJQKA][cdhs]){3}$"}, _N_FLOPS),
        "weights": _array({"enum": [4, 12, 24]}, _N_FLOPS),
        "suits": _array({"enum": ["rainbow", "two-tone", "monotone"]}, _N_FLOPS),
        "pairing": _array({"enum": ["unpaired", "paired", "trips"]}, _N_FLOPS),
        "high": _array({"type": "integer", "minimum": 0, "maximum": 12, "description": "rank index of the highest card, 0 = deuce, 12 = ace"}, _N_FLOPS),
        "straights": _array({"type": "integer", "minimum": 0, "maximum": 78, "description": "unpaired two-rank holdings that make a straight with the flop"}, _N_FLOPS),
        "live": _array(_array({"type": "integer", "minimum": 0, "maximum": 12}, N), _N_FLOPS),
        "equity": _array(_array({"type": ["number", "null"], "minimum": 0, "maximum": 1}, N), _N_FLOPS),
    },
    {
        "flops": {"const": 22100},
        "suit_distinct_flops": {"const": _N_FLOPS},
        "runouts_per_combo": {"const": 1081, "description": "turns and rivers around a flop and a combo"},
        "villains_per_board": {"const": 990, "description": "villain combos on a complete board"},
    },
)

FLOP_HITS = _schema(
    "flop_hits",
    "How often each class flops each made category and draw (exact)",
    "made_counts[c][k]: of the 19,600 flops one combo of class c meets (every combo of a class meets the same ones "
    "up to suit relabelling), how many give it made category made[k] (exactly one per flop: each row sums to "
    "19,600); draw_counts[c][k]: how many give it draw draws[k] (any number per flop). Definitions: docs/flop.md.",
    {
        "classes": CLASSES,
        "made": {**_array(TEXT, len(MADE_CATEGORIES)), "const": list(MADE_CATEGORIES)},
        "draws": {**_array(TEXT, len(DRAWS)), "const": list(DRAWS)},
        "flops_per_combo": {"const": 19600},
        "made_counts": _array(_array({"type": "integer", "minimum": 0, "maximum": 19600}, len(MADE_CATEGORIES)), N),
        "draw_counts": _array(_array({"type": "integer", "minimum": 0, "maximum": 19600}, len(DRAWS)), N),
    },
    {"flops_per_combo": {"const": 19600}},
)

SCHEMAS = {
    "headsup": HEADSUP, "matchups": MATCHUPS, "threehanded": THREEHANDED, "fourhanded": FOURHANDED, "multiway": MULTIWAY, "pushfold": PUSHFOLD,
    "pushfold_charts": PUSHFOLD_CHARTS, "pushfold_thresholds": PUSHFOLD_THRESHOLDS,
    "pushfold_index": PUSHFOLD_INDEX, "pushfold_table": PUSHFOLD_TABLE, "flops": FLOPS, "flop_hits": FLOP_HITS,
}
