"""Certificates of the precomputed push/fold tables on real deals (:mod:`kernels.pushfold.certificate`).

A sample of the published tables, the :data:`CERTIFIED_STACK` bb table of every equal-stack group (so every
player count, every ante variant and every ICM grid the build publishes), is played on :data:`DEALS` real
deals: each seat's gain from a class-level deviation fitted on the deals, with its standard error. The result
goes into the table's record as ``certified_exploitability`` (docs/data-format.md). Cached per table (the key
chains the table's own cache key, the deals and the code of the certificate), so a rebuild costs nothing.
"""

from __future__ import annotations

import os
import zlib

import numpy as np

import kernels.pushfold as pf
from generator.compute.units import unit_runner
from generator.core.cache import array_json, cache_key, cached_arrays, is_cached, json_array
from generator.core.evaluator_tables import evaluator_tables
from generator.core.progress import progress_bar
from generator.compute.pushfold_records import record_strategy
from generator.core.provenance import code_version

KERNELS = ("kernels.pushfold.certificate",)
CODE_VERSION = code_version(*KERNELS)
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


def attach_certificates(groups, results: dict, table_keys: dict, progress: bool = True, cluster: str | None = None) -> int:
    """Add ``certified_exploitability`` to the sampled records of ``results`` (``{group id: [records]}`` in
    :meth:`Group.tables` order), computing what the cache lacks, a table a unit: in one process per core, or as Dask
    tasks with ``cluster``; ``table_keys``: ``{group id: {file name: cache key}}`` of the records. Returns how many
    tables were certified."""
    chosen = sample(groups)
    records = {(group.id, name): results[group.id][list(dict(group.tables())).index(name)] for group, name in chosen}
    keys = {(group.id, name): cache_key(CODE_VERSION, table_keys[group.id][name], DEALS) for group, name in chosen}
    todo = [(group, name) for group, name in chosen if not is_cached("pushfold_certificate", keys[group.id, name])]
    with progress_bar("push/fold certificates", len(chosen), "table", enabled=progress) as advance:
        done = len(chosen) - len(todo)
        advance(done)
        with unit_runner(cluster, KERNELS, processes=min(os.cpu_count() or 1, len(todo))) as run:
            units = [(dict(group.tables())[name], group, records[group.id, name], DEALS) for group, name in todo]
            for index, certificate in run(certify_table, units):
                group, name = todo[index]
                cached_arrays("pushfold_certificate", keys[group.id, name], lambda: {"record": json_array(certificate)})
                done += 1
                advance(done)
    for group, name in chosen:  # from the cache (a file found damaged there is certified again, here)
        record = records[group.id, name]
        arrays = cached_arrays("pushfold_certificate", keys[group.id, name],
                               lambda: {"record": json_array(certify_table(dict(group.tables())[name], group, record, DEALS))})
        record["certified_exploitability"] = array_json(arrays["record"])
    return len(chosen)


def certify_table(table: pf.Table, group, record: dict, deals: int) -> dict:
    """One unit, wherever it runs: the ``certified_exploitability`` object of ``table`` (of ``group``, solved as
    ``record``) on ``deals`` real deals, seeded by the table's name, with this process's evaluator tables."""
    game = pf.make_game(table)
    seed = zlib.crc32(f"{group.id}/{table.stacks[0]:g}".encode())
    certificate = pf.certify(game, record_strategy(game, record), evaluator_tables(), deals, seed=seed)
    pool = None if table.payouts is None else float(np.sum(table.payouts))
    return certificate_record(game, certificate, pool)
