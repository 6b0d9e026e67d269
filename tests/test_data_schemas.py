"""Every data file the stages write validates against the JSON Schema published beside it."""

import jsonschema
import numpy as np
import pytest

from generator.config import load_config
from generator.schemas import SCHEMAS
from generator.stages import multiway
from generator.stages.headsup import run_headsup
from generator.stages.pushfold import run_pushfold
from generator.storage import read_json
from kernels.multiway.layout import BLOCK_DEALS, GROUPS
from multiway_helpers import linear_percentile


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory, monkeypatch_module):
    site = tmp_path_factory.mktemp("schema-site")
    headsup = run_headsup(site, progress=False)
    run_pushfold(site, headsup)
    config_path = site / "site.yaml"
    config_path.write_text("multiway:\n  seed: 4242\n")
    # a separate cache keeps this small run's checkpoint away from the user's
    monkeypatch_module.setenv("ALLIN_CACHE_DIR", str(tmp_path_factory.mktemp("schema-cache")))
    controls = multiway.MultiwayControls(np.full(169, 0.5), np.full(169, 0.02), linear_percentile(), np.zeros(169))
    multiway.run_multiway(
        load_config(config_path), site, controls, budget_seconds=60, target_se=1e-12, backend="cpu", progress=False,
        max_deals=2 * BLOCK_DEALS * GROUPS,
    )  # fmt: skip
    return site / "data"


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_data_file_matches_its_schema(data_dir, name):
    schema = SCHEMAS[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(read_json(data_dir / f"{name}.json"), schema, cls=jsonschema.Draft202012Validator)


def test_schemas_reject_a_broken_file(data_dir):
    document = read_json(data_dir / "headsup.json")
    document["equity"][0] = 1.5
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, SCHEMAS["headsup"], cls=jsonschema.Draft202012Validator)
