"""Every kernel module that a cached result's computation imports is part of that cache's key.

Keys hash the import closure of the modules a stage names (``KERNELS``). These tests read the code
that *produces* each cached result and check that everything it imports from ``kernels`` (also
inside functions, e.g. the lazily imported CPU/GPU kernels) is inside that closure: forgetting a
module (as the heads-up key once forgot ``kernels.headsup.cpu``) would keep serving a stale cache.
"""

import pytest

from generator.core import evaluator_tables
from generator.core.provenance import code_version, imported_modules, kernel_closure
from generator.compute.stages import headsup, pushfold, threehanded, threeway
from generator.compute import multiway_controls
from generator.compute.stages.multiway import checkpoint

#: The roots whose closure the n-player push/fold caches hash (generator.compute.stages.pushfold_charts / pushfold_certificate).
PUSHFOLD_TABLE_KERNELS = ("kernels.pushfold", "kernels.pushfold.headsup")
CERTIFICATE_KERNELS = ("kernels.pushfold.certificate",)
#: Generator helpers that every producer below calls into to compute (not just to format).
SHARED_PRODUCERS = ("generator.core.evaluator_tables",)

CACHES = {
    # cache: (modules whose code produces it, the kernel modules its key hashes)
    "evaluator tables": (("generator.core.evaluator_tables",), evaluator_tables.KERNELS),
    "heads-up tables": (("generator.compute.stages.headsup", "generator.compute.board_walk"), headsup.KERNELS),
    "push/fold equilibria": (("generator.compute.stages.pushfold",), pushfold.KERNELS + headsup.KERNELS),  # key includes the heads-up code version
    "three-handed counts": (("generator.compute.stages.threehanded", "generator.compute.board_walk"), threehanded.KERNELS),
    "percentile control": (("generator.compute.multiway_controls",), multiway_controls.PERCENTILE_KERNELS),
    "multiway checkpoint": (("generator.compute.multiway_simulator",), checkpoint.KERNELS),
    # the key includes the heads-up and 3-way code versions too
    "n-player push/fold tables": (("generator.compute.stages.pushfold_charts", "generator.compute.pushfold_records"),
                                  PUSHFOLD_TABLE_KERNELS + headsup.KERNELS + threeway.KERNELS),
    "push/fold certificates": (("generator.compute.stages.pushfold_certificate",), CERTIFICATE_KERNELS),
}


def kernels_used(producers) -> set:
    """Kernel modules imported anywhere in the producers' source, and what those import in turn."""
    direct = set().union(*(imported_modules(name, ("kernels",)) for name in producers + SHARED_PRODUCERS))
    return set(kernel_closure(*direct))


@pytest.mark.parametrize("cache", sorted(CACHES))
def test_the_cache_key_covers_every_kernel_module_its_computation_imports(cache):
    producers, keyed = CACHES[cache]
    missing = kernels_used(producers) - set(kernel_closure(*keyed))
    assert not missing, f"{cache}: computed with {sorted(missing)}, which its cache key leaves out"


def test_the_heads_up_key_covers_the_cpu_and_gpu_walks():
    assert {"kernels.headsup.cpu", "kernels.headsup.gpu", "kernels.evaluator.cpu"} <= set(kernel_closure(*headsup.KERNELS))


def test_the_push_fold_keys_are_the_closures_named_here():
    from generator.compute.stages import pushfold_certificate, pushfold_charts

    assert pushfold_charts.CODE_VERSION == code_version(*PUSHFOLD_TABLE_KERNELS)
    assert pushfold_certificate.CODE_VERSION == code_version(*CERTIFICATE_KERNELS)


def test_the_closure_follows_relative_imports_of_a_package():
    """``kernels.pushfold`` imports its parts as ``from .cfr import …``: an edit to any of them (or to
    ``kernels.icm.harville``, which ``.game`` imports) must change the key, or a rebuild serves the old tables."""
    closure = set(kernel_closure("kernels.pushfold"))
    assert {"kernels.pushfold.cfr", "kernels.pushfold.game", "kernels.pushfold.loops", "kernels.icm.harville"} <= closure
    assert {"kernels.pushfold.best_response", "kernels.pushfold.model"} <= set(kernel_closure(*CERTIFICATE_KERNELS))


def test_the_closure_follows_imports_inside_functions_and_parent_packages():
    closure = kernel_closure("kernels.multiway.cpu")
    assert "kernels.multiway.tally" in closure and "kernels.evaluator.core" in closure  # module-level imports, followed
    assert "kernels.multiway" in closure and "kernels" in closure  # packages whose __init__ runs first
    assert {"kernels.headsup.cpu", "kernels.headsup.gpu"} <= imported_modules("generator.compute.stages.headsup", ("kernels",))


def test_a_key_changes_with_the_source_of_any_module_in_the_closure(tmp_path, monkeypatch):
    from generator.core import provenance

    before = code_version("kernels.headsup.cpu")
    original = provenance.module_file
    edited = tmp_path / "evaluator_core.py"
    edited.write_text(original("kernels.evaluator.core").read_text() + "\n# edited\n")
    monkeypatch.setattr(provenance, "module_file", lambda name: edited if name == "kernels.evaluator.core" else original(name))
    provenance.import_closure.cache_clear()
    assert code_version("kernels.headsup.cpu") != before  # a module two imports away
    provenance.import_closure.cache_clear()
