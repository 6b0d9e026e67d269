"""The committed goldens of spec/ are what the Python engines answer today (the node tests check the JS twins
against the same files): a change of behaviour in either language fails a test. To accept a deliberate
change, run ``.venv/bin/python -m spec.regenerate`` and review the diff (spec/README.md)."""

import re

import pytest

from spec import constants, golden, tables
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


# ------------------------------------------------------------------------------------------------ constants

PYTHON_SOURCES = [p for d in ("kernels", "generator") for p in (golden.ROOT / d).rglob("*.py") if p != constants.PYTHON_MODULE]
JS_SOURCES = [p for p in (golden.ROOT / "templates" / "assets" / "js").rglob("*.js") if p != constants.JS_MODULE]


def test_constants_modules_are_generated_from_the_json():
    for path, text in constants.modules().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(golden.ROOT)} is stale: python -m spec.regenerate"


def test_python_reads_the_constants_the_json_gives():
    import kernels.constants

    values = constants.values()
    assert values["Z_975"] == 1.959963984540054 and values["ICM_AUTO_FOURIER_LARGE_FIELD"] == (1000, 10)
    assert {name: getattr(kernels.constants, name) for name in values} == values


def test_every_shared_constant_is_used_in_both_languages():
    python = "\n".join(p.read_text(encoding="utf-8") for p in PYTHON_SOURCES)
    js = "\n".join(p.read_text(encoding="utf-8") for p in JS_SOURCES)
    for name in constants.values():
        assert re.search(rf"\b{name}\b", python), f"{name} (spec/constants.json) is used by no Python module"
        assert re.search(rf"\b{name}\b", js), f"{name} (spec/constants.json) is used by no JavaScript module"


def test_no_second_copy_of_the_shared_statistics_constant():
    literal = repr(constants.values()["Z_975"])
    copies = [p.relative_to(golden.ROOT).as_posix() for p in PYTHON_SOURCES + JS_SOURCES if literal in p.read_text(encoding="utf-8")]
    assert copies == []


def test_the_multiway_layout_has_the_shared_seat_limit():
    """kernels/multiway/layout.py keeps its own MAX_SEATS (importing it would change the multiway checkpoints' cache key,
    and a rebuild would start the Monte Carlo over): held equal here."""
    from kernels.constants import MAX_SEATS
    from kernels.multiway import layout

    assert layout.MAX_SEATS == MAX_SEATS
