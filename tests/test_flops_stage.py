"""The ``flops`` stage's published files: flops.json against its schema, and flops.bin / flops.csv against flops.json."""

import csv
import io
import json

import jsonschema
import numpy as np
import pytest

from generator.compute.stages.flops import flop_hits_json, run_flops
from generator.core.evaluator_tables import evaluator_tables
from generator.data.datafiles import FLOPS_BIN_SCALE, read_flops_bin
from generator.data.schemas import SCHEMAS
from kernels.cards import parse_cards


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    run_flops(site, progress=False)
    data = site / "data"
    return json.loads((data / "flops.json").read_text()), (data / "flops.bin").read_bytes(), (data / "flops.csv").read_text()


def test_flops_json_meets_its_schema_and_its_weights_cover_every_flop(published):
    document, _, _ = published
    jsonschema.validate(document, SCHEMAS["flops"])
    assert sum(document["weights"]) == document["meta"]["flops"] == 22100
    assert document["meta"]["stage"] == "flops"


def test_flops_bin_holds_the_json_figures_to_half_a_step(published):
    document, binary, _ = published
    table = read_flops_bin(binary)
    equity = np.array([[np.nan if e is None else e for e in row] for row in document["equity"]])
    assert np.array_equal(np.isnan(table["equity"]), np.isnan(equity))
    assert np.nanmax(np.abs(table["equity"] - equity)) <= 0.5 / FLOPS_BIN_SCALE + 1e-12
    assert table["cards"].tolist() == [parse_cards(flop) for flop in document["flops"]]
    assert table["weights"].tolist() == document["weights"]
    with pytest.raises(ValueError, match="truncated"):
        read_flops_bin(binary[:-1])


def test_flops_csv_has_a_row_per_flop_with_the_json_equities(published):
    document, _, text = published
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:6] == ["flop", "weight", "suits", "pairing", "high", "straights"] and len(rows) == 1 + 1755
    first = rows[1]
    assert first[0] == document["flops"][0]
    assert [None if cell == "" else float(cell) for cell in first[6:]] == document["equity"][0]


def test_flop_hits_json_meets_its_schema_with_one_made_category_per_flop(tmp_path):
    run_flops(tmp_path, progress=False)
    document = json.loads((tmp_path / "data" / "flop_hits.json").read_text())
    jsonschema.validate(document, SCHEMAS["flop_hits"])
    assert all(sum(row) == document["flops_per_combo"] for row in document["made_counts"])
    rows = list(csv.reader(io.StringIO((tmp_path / "data" / "flop_hits.csv").read_text())))
    assert rows[0] == ["class", *document["made"], *document["draws"]] and len(rows) == 170
    assert [int(cell) for cell in rows[1][1:]] == document["made_counts"][0] + document["draw_counts"][0]


def test_allin_compute_flops_writes_both_files(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main

    result = CliRunner().invoke(main, ["compute", "flops", "--site-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "data" / "flops.bin").exists() and (tmp_path / "data" / "flop_hits.json").exists()
    assert "flops.json" in result.output


def test_flop_hits_are_counted_on_the_backend_and_its_meta_says_which(tmp_path, monkeypatch):
    """On the "gpu" backend the stage counts with kernels.flop.gpu (here a stand-in that counts on the CPU: this
    machine has no GPU; tests/test_flop_gpu.py checks the kernel itself in the simulator) and says so in the meta;
    the cached file is reused on either backend, its meta still saying where it was counted."""
    from kernels.flop import categories, gpu

    evaluator_tables()  # loaded from the build's cache before the cache folder moves
    calls = []

    def on_gpu(tables):
        calls.append(tables)
        return categories.class_hit_counts(tables)

    monkeypatch.setattr(gpu, "class_hit_counts", on_gpu)
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path))
    document = flop_hits_json("gpu")
    assert len(calls) == 1 and document["meta"]["backend"] == "gpu"
    assert document["made_counts"] == categories.class_hit_counts(evaluator_tables())[0].tolist()
    assert flop_hits_json("cpu")["meta"] == document["meta"] and len(calls) == 1
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cpu"))
    assert flop_hits_json("cpu")["meta"]["backend"] == "cpu" and len(calls) == 1
