"""The stage registry: one door to every dataset, results loaded once per run, inputs handed over by name, and
``allin build`` publishing every registered stage once, after the stages it takes results from."""

from __future__ import annotations

import pytest

from generator.compute import pipeline, registry
from generator.compute.run import default_run
from generator.core.errors import InputError


def test_an_unknown_stage_is_one_line_naming_the_stages():
    with pytest.raises(InputError) as caught:
        registry.results("flop", default_run(progress=False))
    assert "no stage 'flop'" in caught.value.message and "flops" in caught.value.message and "\n" not in caught.value.message


def test_results_are_loaded_once_per_run_and_inputs_arrive_by_name(monkeypatch):
    calls = []

    def headsup_results(run, inputs):
        calls.append(("headsup", inputs))
        return "tables"

    def pushfold_results(run, inputs):
        calls.append(("pushfold", inputs))
        return "equilibria"

    monkeypatch.setattr(registry.stage("headsup").module, "results", headsup_results)
    monkeypatch.setattr(registry.stage("pushfold").module, "results", pushfold_results)
    run = default_run(progress=False)
    assert registry.results("pushfold", run) == "equilibria" and registry.results("pushfold", run) == "equilibria"
    assert registry.results("headsup", run) == "tables"
    assert calls == [("headsup", {}), ("pushfold", {"headsup": "tables"})]
    registry.results("pushfold", default_run(progress=False))  # another run loads again
    assert len(calls) == 4


def test_the_build_publishes_every_stage_once_after_its_inputs(monkeypatch, tmp_path):
    published = []

    for record in registry.STAGES.values():
        def write(run, site_dir, inputs, name=record.name):
            assert set(inputs) == set(registry.stage(name).inputs) and all(i in published for i in inputs), name
            published.append(name)
            return name

        monkeypatch.setattr(record.module, "results", lambda run, inputs, name=record.name: name)
        monkeypatch.setattr(record.module, "write", write)
    monkeypatch.setattr(pipeline, "check_published", lambda site_dir: None)
    monkeypatch.setattr(pipeline, "render_site", lambda config, site_dir, warn=None: published.append("render"))
    pipeline.build_site(default_run(progress=False), tmp_path)
    assert sorted(published[:-1]) == sorted(registry.STAGES) and published[-1] == "render"


def test_the_flop_table_on_a_cluster_is_the_heads_up_walk_on_that_cluster(monkeypatch):
    """``allin compute flops --cluster``: the table comes from the heads-up walk, which runs on the cluster's workers
    (tests/test_cluster_board_walks.py runs that walk on a real scheduler and two worker processes)."""
    from generator.compute.run import resolve_run
    from generator.core.config import Config

    asked = []

    def walk(backend, progress, cluster=None):
        asked.append(cluster)
        raise RuntimeError("stop here")

    monkeypatch.setattr(registry.stage("headsup").module, "_walk_results", walk)
    with pytest.raises(RuntimeError, match="stop here"):
        registry.results("flops", resolve_run(Config(), "cpu", "tcp://127.0.0.1:8786", progress=False))
    assert asked == ["tcp://127.0.0.1:8786"]


def test_every_published_json_document_has_its_schema_and_every_schema_a_stage():
    from generator.data.datafiles import LIVE_STATUS_PATH
    from generator.data.schemas import SCHEMAS

    documents = [name for record in registry.STAGES.values() for name in record.publishes if name.endswith(".json")]
    schema_of = {"pushfold/index.json": "pushfold_index", "pushfold/GROUP/STACK.json": "pushfold_table"}
    named = [schema_of.get(name, name.removesuffix(".json")) for name in documents if f"data/{name}" != LIVE_STATUS_PATH]
    assert sorted(named) == sorted(SCHEMAS)
    files = [name for record in registry.STAGES.values() for name in record.publishes]
    assert len(files) == len(set(files))  # no file has two stages
