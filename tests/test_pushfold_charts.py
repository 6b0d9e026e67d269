"""The pushfold_charts stage on a small set: schema-valid JSON, CSV, NashConv within the targets, cache."""

import csv
import io

import jsonschema
import numpy as np
import pytest

from generator.evaluator_tables import evaluator_tables
from generator.schemas import SCHEMAS
from generator.stages import pushfold_charts, threeway
from generator.stages.headsup import headsup_results
from generator.storage import read_json


@pytest.fixture()
def small_threeway(tmp_path, monkeypatch):
    monkeypatch.setattr(threeway, "BATCH_BOARDS", 32)
    checkpoint = threeway.run_threeway(evaluator_tables(), boards=32, path=tmp_path / "threeway.npz")
    table = threeway.threeway_table(checkpoint, threeway.possible_triples()[2])
    return table, {**threeway.table_summary(table, 32), "seed": threeway.SEED, "code_version": threeway.CODE_VERSION}


def test_small_chart_set(tmp_path, monkeypatch, small_threeway):
    headsup = headsup_results(progress=False)
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cache"))
    groups = (pushfold_charts.Group(3, (8.0, 12.0), 1.0, True), pushfold_charts.Group(3, (10.0,), payouts=(65.0, 35.0)))
    result = pushfold_charts.run_pushfold_charts(tmp_path, headsup, small_threeway, groups, progress=False)
    document = read_json(tmp_path / "data" / "pushfold_charts.json")
    jsonschema.validate(document, SCHEMAS["pushfold_charts"])
    chip, icm = document["groups"]
    assert chip["positions"] == ["BTN", "SB", "BB"] and len(chip["charts"]) == 2
    for chart in chip["charts"]:
        assert chart["nash_conv_bb"] <= pushfold_charts.TOLERANCE_BB and chart["nash_conv_pool_pct"] is None
        assert sorted(chart["call"]) == sorted(["SB vs BTN", "BB vs BTN", "BB vs BTN+SB", "BB vs SB"])
        assert abs(sum(chart["pots"].values())) <= 1.0
    assert icm["charts"][0]["nash_conv_pool_pct"] <= pushfold_charts.TOLERANCE_POOL_PCT
    assert icm["charts"][0]["nash_conv_bb"] is None
    # shove_max: the largest stack of the grid where the class shoves at least half the time
    btn = np.array([c["shove"]["BTN"] for c in chip["charts"]])
    expected = [12.0 if btn[1, i] >= 0.5 else 8.0 if btn[0, i] >= 0.5 else None for i in range(169)]
    assert chip["shove_max"]["BTN"] == expected
    rows = list(csv.reader(io.StringIO((tmp_path / "data" / "pushfold_charts.csv").read_text())))
    assert len(rows) == 1 + 3 * 6 and len(rows[0]) == 9 + 169
    again = pushfold_charts.run_pushfold_charts(tmp_path, headsup, small_threeway, groups, progress=False)
    assert again["groups"] == result["groups"]  # from the cache
