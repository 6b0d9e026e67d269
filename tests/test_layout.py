"""The layout is the architecture (docs/architecture.md): generator/ in layers that import only downwards
(core < data < site < compute < cli), kernels/ pure numerics that import nothing from generator/."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("core", "data", "site", "compute", "cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in ``path``, relative ones resolved, ``from a import b`` as ``a.b``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[0] == "generator" and parts[1] in LAYERS else None


def test_every_generator_module_is_in_a_layer():
    loose = [module_name(p) for p in (ROOT / "generator").rglob("*.py") if layer(module_name(p)) is None]
    assert loose == ["generator"], "modules outside core/, data/, site/, compute/ and cli/"


@pytest.mark.parametrize("package", ["generator", "kernels"])
def test_no_import_runs_upwards(package):
    upward = []
    for path in sorted((ROOT / package).rglob("*.py")):
        own = layer(module_name(path))
        for line, module in imports(path):
            if package == "kernels" and module.split(".")[0] == "generator":
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {module} (kernels/ imports nothing from generator/)")
            elif own is not None and (other := layer(module)) is not None and other > own:
                upward.append(f"{path.relative_to(ROOT)}:{line} ({LAYERS[own]}) imports {module} ({LAYERS[other]})")
    assert upward == []


def test_stages_are_reached_only_through_the_registry():
    """No module outside ``generator/compute/stages/`` imports a stage, by an import statement or by name
    (``importlib``, a Dask task's key): ``registry.results`` / ``publish`` / ``cached`` / ``merge`` are the door. The
    tests, which test the stages' parts, may."""
    reaching = []
    for folder in ("generator", "spec", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("generator/compute/stages/") or relative == "generator/compute/registry.py":
                continue
            named = [(node.lineno, node.value) for node in ast.walk(ast.parse(path.read_text()))
                     if isinstance(node, ast.Constant) and isinstance(node.value, str)]
            for line, module in [*imports(path), *named]:
                if module.startswith("generator.compute.stages"):
                    reaching.append(f"{relative}:{line} names {module}")
    assert reaching == []


def test_every_stage_module_offers_the_registry_its_functions():
    from generator.compute.registry import STAGES

    for record in STAGES.values():
        module = record.module
        assert callable(module.results) and callable(module.write), record.name
        assert set(record.inputs) <= set(STAGES) and record.name not in record.inputs
