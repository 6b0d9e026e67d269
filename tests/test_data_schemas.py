"""Every data file the stages write validates against the JSON Schema published beside it; the
schemas reject broken files; the published schema files are the schemas in the code."""

import copy
import json

import jsonschema
import numpy as np
import pytest

from generator.core.config import load_config
from generator.site.render import render_site
from generator.data.schemas import SCHEMAS
from generator.compute.stages import multiway
from generator.compute.stages.flops import run_flops
from generator.compute.stages.headsup import run_headsup
from generator.compute.stages.pushfold import run_pushfold
from generator.compute.stages.threehanded import run_threehanded
from generator.core.storage import read_json
from kernels.multiway.layout import BLOCK_DEALS, GROUPS
from multiway_helpers import linear_percentile, multiway_run
from site_fixtures import site_config

pytestmark = pytest.mark.slow  # heavy module fixtures (a solved chart set, heads-up tables, a built site)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory, monkeypatch_module):
    site = tmp_path_factory.mktemp("schema-site")
    headsup = run_headsup(site, progress=False)
    run_flops(site, progress=False)  # from the heads-up walk's cache
    run_threehanded(site, progress=False)
    run_pushfold(site, headsup)
    from generator.data.datafiles import publish
    from generator.compute.stages.pushfold_thresholds import compute_thresholds

    publish(site / "data", "pushfold_thresholds", compute_thresholds(headsup[0], top=1.5))  # a short grid: 1..1.5 bb
    config_path = site / "site.yaml"
    config_path.write_text("multiway:\n  seed: 4242\n")
    # a separate cache keeps this small run's checkpoint away from the user's
    monkeypatch_module.setenv("ALLIN_CACHE_DIR", str(tmp_path_factory.mktemp("schema-cache")))
    # the four-handed stage on three board classes (the whole walk takes 2 minutes): the file's shape is the same
    from generator.compute import board_walk
    from generator.compute.stages import fourhanded

    boards, weights = board_walk.board_classes()
    monkeypatch_module.setattr(fourhanded, "board_classes", lambda: (boards[::50000], weights[::50000]))
    fourhanded.run_fourhanded(site, progress=False)
    # a small 3-way table (32 boards) and two small chart groups for pushfold_charts.json
    from generator.core.evaluator_tables import evaluator_tables
    from generator.compute.stages import pushfold_charts, threeway

    checkpoint = threeway.run_threeway(evaluator_tables(), boards=32, path=site / "threeway.npz")
    table = threeway.threeway_table(checkpoint, threeway.possible_triples()[2])
    summary = {**threeway.table_summary(table, 32), "seed": threeway.SEED, "code_version": threeway.CODE_VERSION}
    groups = (pushfold_charts.Group(3, (10.0,)), pushfold_charts.Group(3, (10.0,), payouts=(65.0, 35.0)))
    pushfold_charts.run_pushfold_charts(site, headsup, (table, summary), groups, progress=False, workers=1,
                                        chart_stacks=(10.0,))
    controls = multiway.MultiwayControls(np.full(169, 0.5), np.full(169, 0.02), linear_percentile(), np.zeros(169))
    multiway.run_multiway(multiway_run(load_config(config_path), budget_seconds=60, target_se=1e-12, max_deals=2 * BLOCK_DEALS * GROUPS),
                          site, controls)
    return site / "data"


def _data_file(data_dir, name):
    """Where the file of schema ``name`` is: ``<name>.json``, or the push/fold index and its first table."""
    if name == "pushfold_index":
        return data_dir / "pushfold" / "index.json"
    if name == "pushfold_table":
        group = read_json(data_dir / "pushfold" / "index.json")["groups"][0]
        return data_dir / "pushfold" / group["id"] / f"{group['stacks'][0]:g}.json"
    return data_dir / f"{name}.json"


@pytest.fixture(scope="module")
def documents(data_dir):
    return {name: read_json(_data_file(data_dir, name)) for name in SCHEMAS}


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_data_file_matches_its_schema(data_dir, name):
    schema = SCHEMAS[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(read_json(_data_file(data_dir, name)), schema, cls=jsonschema.Draft202012Validator)


def _without(key):
    return lambda d: d.pop(key)


def _set(path, value):
    """Mutation setting ``d[path[0]][path[1]]… = value``."""
    def mutate(d):
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value
    return mutate


def _truncate(path):
    def mutate(d):
        for key in path:
            d = d[key]
        d.pop()
    return mutate


def _swap_first_classes(d):
    d["classes"][0], d["classes"][1] = d["classes"][1], d["classes"][0]


BROKEN = {
    "headsup": {
        "equity > 1": _set(["equity", 0], 1.5),
        "negative count": _set(["win", 3], -1),
        "168 classes": _truncate(["win"]),
        "missing total": _without("total"),
        "missing meta": _without("meta"),
        "meta without code_version": lambda d: d["meta"].pop("code_version"),
        "wrong board count": _set(["meta", "boards"], 1712303),
        "classes out of order": _swap_first_classes,
        "wrong combo count": _set(["combos", 0], 4),
    },
    "threehanded": {
        "equity > 1": _set(["equity", 0], 1.01),
        "negative count": _set(["tie_3", 3], -1),
        "168 classes": _truncate(["tie_2"]),
        "missing tie_3": _without("tie_3"),
        "wrong opponent pairs": _set(["meta", "opponent_pairs"], 446984),
        "wrong stage": _set(["meta", "stage"], "multiway"),
    },
    "matchups": {
        "row of 168": _truncate(["equity", 5]),
        "168 rows": _truncate(["pairs"]),
        "equity < 0": _set(["equity", 2, 7], -0.01),
        "fractional count": _set(["tie", 0, 0], 0.5),
        "missing loss": _without("loss"),
    },
    "multiway": {
        "no tables": _set(["by_players"], {}),
        "a table missing": lambda d: d["by_players"].pop("7"),
        "11 players": _set(["by_players", "11"], {}),
        "table without equity": lambda d: d["by_players"]["4"].pop("equity"),
        "table without se_equity": lambda d: d["by_players"]["4"].pop("se_equity"),
        "equity > 1": _set(["by_players", "6", "equity", 0], 1.0001),
        "168 classes": _truncate(["by_players", "3", "win"]),
        "tie_k row of 8": _truncate(["by_players", "5", "tie_k", 0]),
        "negative se": _set(["by_players", "9", "se_equity", 0], -1e-9),
        "players 2..9": _truncate(["players"]),
        "missing meta": _without("meta"),
        "meta without deals": lambda d: d["meta"].pop("deals"),
        "meta of another stage": _set(["meta", "stage"], "pushfold"),
        "unknown backend": _set(["meta", "backend"], "tpu"),
    },
    "pushfold": {
        "push > 1": _set(["push", 0, 0], 1.000001),
        "no stacks": _set(["stacks"], []),
        "stack below 1 bb": _set(["stacks", 0], 0.5),
        "negative nash_conv": _set(["nash_conv", 0], -1e-9),
        "row of 168": _truncate(["call", 3]),
        "push_max below 1 bb": _set(["push_max", 0], 0.5),
        "missing meta": _without("meta"),
        "meta without tolerance": lambda d: d["meta"].pop("tolerance"),
        "missing push_max": _without("push_max"),
    },
    "pushfold_thresholds": {
        "threshold above 25 bb": lambda d: d["by_ante"][0]["push_max"].__setitem__(0, 25.5),
        "row of 168": lambda d: d["by_ante"][1]["call_max"].pop(),
        "no antes entry": _without("by_ante"),
        "meta without step": lambda d: d["meta"].pop("step"),
    },
    "pushfold_charts": {
        "no groups entry": _without("groups"),
        "shove > 1": lambda d: d["groups"][0]["charts"][0]["shove"]["BTN"].__setitem__(0, 1.5),
        "call row of 168": lambda d: d["groups"][0]["charts"][0]["call"]["BB vs SB"].pop(),
        "negative NashConv": lambda d: d["groups"][0]["charts"][0].__setitem__("nash_conv_bb", -1e-9),
        "11 players": lambda d: d["groups"][0].__setitem__("players", 11),
        "chart without pots": lambda d: d["groups"][0]["charts"][0].pop("pots"),
        "meta without the 3-way table": lambda d: d["meta"].pop("threeway"),
    },
    "pushfold_index": {
        "no groups entry": _without("groups"),
        "11 players": lambda d: d["groups"][0].__setitem__("players", 11),
        "group without stack_sets": lambda d: d["groups"][0].pop("stack_sets"),
        "negative NashConv": lambda d: d["groups"][0].__setitem__("max_nash_conv_bb", -1e-9),
        "meta without decimals": lambda d: d["meta"].pop("decimals"),
    },
    "pushfold_table": {
        "shove > 1": lambda d: d["shove"]["BTN"].__setitem__("AA", 1.5),
        "a zero kept": lambda d: d["call"]["BB vs SB"].__setitem__("72o", 0.0),
        "unknown class": lambda d: d["shove"]["BTN"].__setitem__("AAs", 0.5),
        "missing ev_se": _without("ev_se"),
        "negative ev_se": lambda d: d["ev_se"].__setitem__("BB", -1e-9),
        "table without payouts": lambda d: d["table"].pop("payouts"),
        "pots without 4+": lambda d: d["pots"].pop("4+"),
    },
    "flops": {
        "a flop missing": lambda d: d["flops"].pop(),
        "equity > 1": lambda d: d["equity"][0].__setitem__(3, 1.5),
        "weight 6": lambda d: d["weights"].__setitem__(0, 6),
        "unknown texture": lambda d: d["suits"].__setitem__(0, "wet"),
        "meta without suit_distinct_flops": lambda d: d["meta"].pop("suit_distinct_flops"),
    },
    "flop_hits": {
        "a category renamed": lambda d: d["made"].__setitem__(0, "royal flush"),
        "a count over 19,600": lambda d: d["made_counts"][0].__setitem__(0, 19601),
        "a draw missing": lambda d: [row.pop() for row in d["draw_counts"]],
    },
}


@pytest.mark.parametrize(
    "name, breakage", [pytest.param(name, breakage, id=f"{name}: {breakage}") for name in sorted(BROKEN) for breakage in BROKEN[name]]
)
def test_schemas_reject_a_broken_file(documents, name, breakage):
    """The file as written validates (test above); the same file with one thing broken does not."""
    broken = copy.deepcopy(documents[name])
    BROKEN[name][breakage](broken)
    assert not jsonschema.Draft202012Validator(SCHEMAS[name]).is_valid(broken)


def test_published_schema_files_are_the_schemas_in_the_code(tmp_path):
    """``render`` writes ``data/schema/<name>.schema.json``: exactly one file per schema, each equal
    to the schema the tests validate against (so the published files are what is tested)."""
    render_site(site_config(), tmp_path)
    published = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in (tmp_path / "data/schema").iterdir()}
    assert sorted(published) == sorted(f"{name}.schema.json" for name in SCHEMAS)
    for name, schema in SCHEMAS.items():
        assert published[f"{name}.schema.json"] == json.loads(json.dumps(schema)), name


def test_the_push_fold_stage_output_renders_its_pages(data_dir, documents):
    """The real ``pushfold_charts`` / ``pushfold_thresholds`` output (small groups, short grid) renders:
    a page per chart with its NashConv, and the thresholds page with a row per class."""
    from generator.site.pushfold_pages import table_path

    site = data_dir.parent
    render_site(site_config(), site)
    for group in documents["pushfold_charts"]["groups"]:
        for chart in group["charts"]:
            page = (site / table_path(group, chart["stack"])).read_text(encoding="utf-8")
            def figure(x):  # four decimals, or two digits when smaller (a heads-up NashConv is about 1e-7 bb)
                return f"{x:.4f}" if x >= 1e-3 or x == 0 else f"{x:.1e}"

            expected = (f"{figure(chart['nash_conv_bb'])} bb per hand" if chart["nash_conv_bb"] is not None
                        else f"{figure(chart['nash_conv_pool_pct'])}% of the prize pool")
            assert f'<dd id="nash-conv">{expected}</dd>' in page
            assert page.count('class="grid pushfold-grid frequency-grid"') == len(chart["shove"])  # call charts: drawn on demand
    thresholds = (site / "pushfold/thresholds/index.html").read_text(encoding="utf-8")
    assert thresholds.count('<tr><th scope="row" data-sort=') == 169 and "not been computed" not in thresholds
