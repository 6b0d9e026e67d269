"""Certificates of the precomputed push/fold tables on real deals (:mod:`kernels.pushfold.certificate`).

A sample of the published tables, the :data:`CERTIFIED_STACK` bb table of every equal-stack group (so every
player count, every ante variant and every ICM grid the build publishes), is played on :data:`DEALS` real
deals: each seat's gain from a class-level deviation fitted on the deals, with its standard error. The result
goes into the table's record as ``certified_exploitability`` (docs/data-format.md). Cached per table (the key
chains the table's own cache key, the deals and the code of the certificate), so a rebuild costs nothing.
"""

from __future__ import annotations

import zlib

import numpy as np

import kernels.pushfold as pf
from generator.core.cache import array_json, cache_key, cached_arrays, json_array
from generator.core.evaluator_tables import evaluator_tables
from generator.core.progress import progress_bar
from generator.compute.pushfold_records import record_strategy
from generator.core.provenance import code_version

CODE_VERSION = code_version("kernels.pushfold.certificate")
#: The stack (bb) of the table certified in each equal-stack group.
CERTIFIED_STACK = 10.0
#: Real deals per certified table.
DEALS = 1 << 17
#: z of the published confidence interval (95%).
Z_95 = 1.959964


def sample(groups) -> list[tuple]:
    """``(group, file name)`` of every table certified: the :data:`CERTIFIED_STACK` table of each equal-stack group."""
    return [(g, f"{CERTIFIED_STACK:g}") for g in groups if g.stack_sets is None and CERTIFIED_STACK in g.stacks]


def certificate_record(game: pf.Game, certificate, pool: float | None) -> dict:
    """The ``certified_exploitability`` object of a record: bb (chip EV) or % of the pool (ICM)."""
    scale = 1.0 if pool is None else 100.0 / pool
    names = pf.position_names(game.n)

    def figure(x: float) -> float:
        return float(f"{scale * x:.3g}")

    return {
        "unit": "bb" if pool is None else "pool_pct",
        "value": figure(certificate.exploitability), "ci95": figure(Z_95 * certificate.exploitability_se),
        "seats": {name: {"gain": figure(g), "ci95": figure(Z_95 * se)} for name, g, se in zip(names, certificate.gains, certificate.se)},
        "deals": certificate.deals, "deviations": certificate.deviations, "upper95": figure(certificate.upper),
    }


def attach_certificates(groups, results: dict, table_keys: dict, progress: bool = True) -> int:
    """Add ``certified_exploitability`` to the sampled records of ``results`` (``{group id: [records]}`` in
    :meth:`Group.tables` order), computing what the cache lacks; ``table_keys``: ``{group id: {file name: cache
    key}}`` of the records. Returns how many tables were certified."""
    chosen = sample(groups)
    with progress_bar("push/fold certificates", len(chosen), "table", enabled=progress) as advance:
        for done, (group, name) in enumerate(chosen, start=1):
            tables = dict(group.tables())
            index = list(tables).index(name)
            record = results[group.id][index]
            key = cache_key(CODE_VERSION, table_keys[group.id][name], DEALS)
            arrays = cached_arrays("pushfold_certificate", key, lambda: {"record": json_array(_certify(tables[name], group, record))})
            record["certified_exploitability"] = array_json(arrays["record"])
            advance(done)
    return len(chosen)


def _certify(table: pf.Table, group, record: dict) -> dict:
    game = pf.make_game(table)
    seed = zlib.crc32(f"{group.id}/{table.stacks[0]:g}".encode())
    certificate = pf.certify(game, record_strategy(game, record), evaluator_tables(), DEALS, seed=seed)
    pool = None if table.payouts is None else float(np.sum(table.payouts))
    return certificate_record(game, certificate, pool)
