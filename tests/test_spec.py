"""The committed goldens of spec/ are what the Python engines answer today (the node tests check the JS twins
against the same files): a change of behaviour in either language fails a test. To accept a deliberate
change, run ``.venv/bin/python -m spec.regenerate`` and review the diff (spec/README.md)."""

import pytest

from spec import golden, tables
from spec.engines import MODULES, engine


@pytest.mark.parametrize("module", MODULES)
def test_golden_is_what_the_python_engine_answers(module):
    spec = engine(module)
    committed = golden.read_golden(spec.NAME)
    wrong = golden.differences(golden.plain(spec.build()), committed, spec.TOLERANCE)
    assert not wrong, f"spec/{spec.NAME}.json is stale ({len(wrong)} differences; python -m spec.regenerate {module}): {wrong[:5]}"


@pytest.mark.parametrize("name", [tables.EVALUATOR_TABLES, tables.MATCHUPS])
def test_binary_tables_are_the_builds(name):
    assert golden.read_gzip(name) == tables.build()[name], f"spec/{name} is stale: python -m spec.regenerate"


def test_differences_compare_floats_within_the_tolerance_and_the_rest_exactly():
    assert golden.differences({"a": [1, 2.0, "x", None, True]}, {"a": [1, 2.0 + 1e-13, "x", None, True]}, 1e-12) == []
    assert golden.differences(1, 2, 0.5)
    assert golden.differences(2.0, 2.1, 1e-12)
    assert golden.differences(True, 1, 0.0)
    assert golden.differences({"a": 1}, {"b": 1}, 0.0)
    assert golden.differences([1], [1, 2], 0.0)
