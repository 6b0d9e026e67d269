"""The committed goldens of spec/ are what the Python engines answer today (the node tests check the JS twins
against the same files): a change of behaviour in either language fails a test. To accept a deliberate
change, run ``.venv/bin/python -m spec.regenerate`` and review the diff (spec/README.md)."""

import re

import pytest

from spec import constants, golden, tables
from spec.engines import MODULES, engine


#: Engines whose golden takes 3 s or more to recompute on the 2-core machine (the push/fold solver's: about 30 s).
SLOW = {"pushfold_solver"}


@pytest.mark.parametrize("module", [pytest.param(m, marks=pytest.mark.slow) if m in SLOW else m for m in MODULES])
def test_golden_is_what_the_python_engine_answers(module):
    spec = engine(module)
    committed = golden.read_golden(spec.NAME)
    wrong = golden.differences(golden.plain(spec.build()), committed, spec.TOLERANCE)
    assert not wrong, f"spec/{spec.NAME}.json is stale ({len(wrong)} differences; python -m spec.regenerate {module}): {wrong[:5]}"


@pytest.mark.slow  # 10 s or more on 2 cores
def test_binary_tables_are_the_builds():
    for name, data in tables.build().items():
        assert golden.read_gzip(name) == data, f"spec/{name} is stale: python -m spec.regenerate"


def test_differences_compare_floats_within_the_tolerance_and_the_rest_exactly():
    assert golden.differences({"a": [1, 2.0, "x", None, True]}, {"a": [1, 2.0 + 1e-13, "x", None, True]}, 1e-12) == []
    assert golden.differences(1, 2, 0.5)
    assert golden.differences(2.0, 2.1, 1e-12)
    assert golden.differences(True, 1, 0.0)
    assert golden.differences({"a": 1}, {"b": 1}, 0.0)
    assert golden.differences([1], [1, 2], 0.0)


# ------------------------------------------------------------------------------------------------ constants

GENERATED = set(constants.modules())
PYTHON_SOURCES = [p for d in ("kernels", "generator") for p in (golden.ROOT / d).rglob("*.py") if p not in GENERATED]
JS_SOURCES = [p for p in (golden.ROOT / "templates" / "assets" / "js").rglob("*.js") if p != constants.JS_MODULE]


def test_constants_modules_are_generated_from_the_json():
    for path, text in constants.modules().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(golden.ROOT)} is stale: python -m spec.regenerate"


def test_python_reads_the_constants_the_json_gives():
    import importlib

    values = constants.values()
    assert values["Z_975"] == 1.959963984540054 and values["ICM_AUTO_FOURIER_LARGE_FIELD"] == (1000, 10)
    modules = constants.python_modules()
    assert constants.PYTHON_MODULE in modules and "CHART_BUCKETS" not in modules[constants.PYTHON_MODULE]
    for path, names in modules.items():
        module = importlib.import_module(".".join(path.relative_to(golden.ROOT).with_suffix("").parts))
        assert {name: getattr(module, name) for name in names} == names
    assert sum(len(names) for names in modules.values()) == len(values)


def test_every_shared_constant_is_used_in_both_languages():
    python = "\n".join(p.read_text(encoding="utf-8") for p in PYTHON_SOURCES)
    js = "\n".join(p.read_text(encoding="utf-8") for p in JS_SOURCES)
    for name in constants.values():
        assert re.search(rf"\b{name}\b", python), f"{name} (spec/constants.json) is used by no Python module"
        assert re.search(rf"\b{name}\b", js), f"{name} (spec/constants.json) is used by no JavaScript module"


def test_no_second_copy_of_z_975_or_of_the_seat_limit_or_of_the_chart_buckets():
    literal = repr(constants.values()["Z_975"])
    seats = re.compile(r"\b(MAX_SEATS|MAX_PLAYERS|BUCKETS)\s*=\s*10\b|IntRange\(2, 10\)|range\(2, 11\)")
    layout = golden.ROOT / "kernels" / "multiway" / "layout.py"  # see the next test
    copies = [
        p.relative_to(golden.ROOT).as_posix()
        for p in PYTHON_SOURCES + JS_SOURCES
        if literal in p.read_text(encoding="utf-8") or (p != layout and seats.search(p.read_text(encoding="utf-8")))
    ]
    assert copies == []


def test_the_multiway_layout_has_the_shared_seat_limit():
    """kernels/multiway/layout.py keeps its own MAX_SEATS (importing it would change the multiway checkpoints' cache key,
    and a rebuild would start the Monte Carlo over): held equal here."""
    from kernels.constants import MAX_SEATS
    from kernels.multiway import layout

    assert layout.MAX_SEATS == MAX_SEATS


# ------------------------------------------------------------------------------------- the table of engines

ENGINES_PAGE = golden.SPEC_DIR / "ENGINES.md"
JS_DIR = golden.ROOT / "templates" / "assets" / "js"


def _engine_page() -> tuple[list[list[list[str]]], list[str]]:
    """spec/ENGINES.md: the twins table's rows (each cell's `quoted` paths) and the browser-only modules."""
    text = ENGINES_PAGE.read_text(encoding="utf-8")
    twins_part, _, rest = text.partition("## Browser-only modules")
    rows = [
        [re.findall(r"`([^`]+)`", cell) for cell in line.strip().strip("|").split("|")]
        for line in twins_part.splitlines()
        if line.startswith("| `")
    ]
    browser_part = rest.partition("\n## ")[0]
    return rows, re.findall(r"`([^`]+\.js)`", browser_part)


def test_the_engine_table_lists_every_module_once_and_every_file_exists():
    rows, browser_only = _engine_page()
    twins = [path for row in rows for path in row[0]]
    modules = sorted(p.relative_to(golden.ROOT).as_posix() for p in JS_DIR.rglob("*.js"))
    listed = twins + browser_only
    assert sorted(listed) == modules, "spec/ENGINES.md must list every module of templates/assets/js exactly once"
    for row in rows:
        assert len(row) == 4 and row[0] and row[3], f"a row of spec/ENGINES.md without a module or tests: {row}"
        for path in (p for cell in row for p in cell):
            assert (golden.ROOT / path).exists(), f"spec/ENGINES.md names {path}, which does not exist"


def test_every_module_that_names_a_kernel_is_a_twin():
    rows, browser_only = _engine_page()
    for path in browser_only:
        assert "kernels/" not in (golden.ROOT / path).read_text(encoding="utf-8"), f"{path} names a kernels/ source: a twin?"


def test_every_golden_has_its_engine_module_and_a_node_test_that_reads_it():
    rows, _ = _engine_page()
    names = {engine(module).NAME for module in MODULES}
    committed = {p.stem for p in golden.SPEC_DIR.glob("*.json")} - {"constants"}
    assert committed == names, "every spec/<name>.json is written by a spec/engines module (and only those)"
    for row in rows:
        goldens = [p for p in row[2] if p.startswith("spec/") and p != "spec/constants.json"]
        tests = [(golden.ROOT / t).read_text(encoding="utf-8") for t in row[3] if t.endswith(".mjs")]
        for path in goldens:
            name = path.removeprefix("spec/")
            wanted = f'golden("{name.removesuffix(".json")}")' if name.endswith(".json") else f'"{name}"'
            assert any(wanted in test for test in tests), f"no node test of {row[0]} reads {path}"
