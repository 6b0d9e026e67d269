"""One module per twin engine: ``NAME`` (its golden file ``spec/<NAME>.json``), ``TOLERANCE`` (floats of a
rerun of the Python engine against the committed file, × max(1, |expected|); integers and strings exact) and
``build()``, the golden file's content: every case's inputs with the Python engine's answers.

``build()`` may read the build's cached tables (exact heads-up counts, evaluator tables): the goldens are
written by the build's numbers; the node tests read only the committed files."""

from importlib import import_module

#: Engine modules in the order they are regenerated.
MODULES = ("ranges", "number_list", "icm", "icm_spot", "evaluator", "matchup_table", "range_equity", "bounty", "pushfold_page", "pushfold_solver", "flop_categories", "flop_equity", "flop_table")


def engine(module: str):
    return import_module(f"spec.engines.{module}")


def engines() -> list:
    return [engine(m) for m in MODULES]
