"""7-card poker hand evaluator: strengths 1..7462 (higher wins, equal ties) for 5-, 6- and 7-card hands.

* :mod:`.tables` builds the lookup tables (pure Python; the generator caches them on disk),
* :mod:`.core` holds the per-hand logic, compiled for the CPU (:mod:`.cpu`) and CUDA (:mod:`.gpu`).
"""

from kernels.evaluator.tables import CATEGORY_NAMES, EvaluatorTables, build_tables, category_of

__all__ = ["CATEGORY_NAMES", "EvaluatorTables", "build_tables", "category_of"]
