"""The downloadable files under ``site/data/``: JSON Schemas, CSV versions, the compact binary
tables the browser loads, and their listing."""

from __future__ import annotations

import csv
import hashlib
import io
import time
from pathlib import Path

import numpy as np

from generator.core.provenance import DATA_LICENSE
from generator.data.schemas import SCHEMAS
from generator.data.sitedata import DATA_FILES, SiteData
from generator.core.storage import atomic_write_bytes, json_bytes, write_json
from kernels.cards import CLASS_NAMES, parse_cards
from kernels.headsup.tables import BOARDS_PER_MATCHUP

DESCRIPTIONS = {
    "headsup": "Each of the 169 classes against one uniformly random hand, heads-up: exact integer counts over every board.",
    "matchups": "Every class against every class, heads-up (169×169): exact counts, card removal included.",
    "threehanded": "Each of the 169 classes against two uniformly random hands: exact integer counts of every deal (win, 2-way and 3-way split, loss).",
    "fourhanded": "Each of the 169 classes against three uniformly random hands: exact integer counts of every deal (win, 2-, 3- and 4-way split, loss).",
    "multiway": "Each class against 1..9 random opponents (2..10 players): Monte Carlo estimates with standard errors.",
    "pushfold": "Heads-up push/fold Nash equilibria, 1 to 25 bb: SB shove and BB call frequency of each class per stack, and the largest stack at which each class is pushed or called.",
    "pushfold_thresholds": "Heads-up push/fold thresholds to 0.01 bb, with no ante and with a 1/8 bb ante: for each class the largest stack at which the SB shoves and the BB calls in equilibrium.",
    "flops": "Each of the 169 classes against one random hand on each of the 1,755 suit-distinct flops (exact), with the flops' "
    "textures and weights.",
    "flop_hits": "How often each of the 169 classes flops each made hand (set, top pair, flush…) and draw (flush draw, "
    "open-ended, gutshot…), over the 19,600 flops one combo meets (exact).",
    "pushfold_charts": "Push/fold Nash equilibria for 2 to 6 players (2 to 10 with the opt-in groups; chip EV with and without a big-blind ante, SNG ICM spots, PKO bounties): shove frequency per position and call frequency per spot of each class, with the NashConv of each chart.",
}


def _csv_bytes(header: list[str], rows) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def headsup_csv(headsup: dict) -> bytes:
    keys = ["combos", "win", "tie", "loss", "total", "equity"]
    rows = ([name] + [headsup[k][i] for k in keys] for i, name in enumerate(CLASS_NAMES))
    return _csv_bytes(["class", *keys], rows)


def threehanded_csv(threehanded: dict) -> bytes:
    keys = ["combos", "win", "tie_2", "tie_3", "loss", "total", "equity"]
    rows = ([name] + [threehanded[k][i] for k in keys] for i, name in enumerate(CLASS_NAMES))
    return _csv_bytes(["class", *keys], rows)


def fourhanded_csv(fourhanded: dict) -> bytes:
    keys = ["combos", "win", "tie_2", "tie_3", "tie_4", "loss", "total", "equity"]
    rows = ([name] + [fourhanded[k][i] for k in keys] for i, name in enumerate(CLASS_NAMES))
    return _csv_bytes(["class", *keys], rows)


def matchups_csv(matchups: dict) -> bytes:
    keys = ["pairs", "win", "tie", "loss", "equity"]
    rows = (
        [hero, villain] + [matchups[k][i][j] for k in keys]
        for i, hero in enumerate(CLASS_NAMES)
        for j, villain in enumerate(CLASS_NAMES)
    )
    return _csv_bytes(["hero", "villain", *keys], rows)


def multiway_csv(multiway: dict) -> bytes:
    keys = ["win", "tie", "loss", "equity", "se_equity", "samples", "cv_gain", "gain"]
    rows = []
    for players in sorted(multiway["by_players"], key=int):
        block = multiway["by_players"][players]
        for i, name in enumerate(CLASS_NAMES):
            rows.append([players, name] + [block[k][i] if k in block else "" for k in keys])
    return _csv_bytes(["players", "class", *keys], rows)


def pushfold_csv(pushfold: dict) -> bytes:
    """One row per class: the chart numbers, then the push and call frequency at every stack."""
    stacks = pushfold["stacks"]
    keys = ["push_max", "push_max_contiguous", "call_max", "call_max_contiguous"]
    header = ["class", "combos", *keys, *(f"push_{s:g}" for s in stacks), *(f"call_{s:g}" for s in stacks)]
    rows = (
        [name, pushfold["combos"][i]]
        + ["" if pushfold[k][i] is None else pushfold[k][i] for k in keys]
        + [row[i] for row in pushfold["push"]]
        + [row[i] for row in pushfold["call"]]
        for i, name in enumerate(CLASS_NAMES)
    )
    return _csv_bytes(header, rows)


MATCHUPS_BIN_MAGIC = b"ALLINMUT"
MATCHUPS_BIN_VERSION = 1


def matchups_bin(matchups: dict) -> bytes:
    """``matchups.bin``: the counts of ``matchups.json`` in 257 KB instead of 1.1 MiB (docs/data-format.md).

    Little-endian: "ALLINMUT", uint32 format version, class count n (169), boards per combo pair;
    then uint32 win[n·n], uint32 tie[n·n], uint8 pairs[n·n], row-major (hero i, villain j).
    loss = pairs · boards − win − tie and equity = (win + tie/2) / (pairs · boards) follow exactly.
    """
    n = len(matchups["classes"])
    header = np.array([MATCHUPS_BIN_VERSION, n, BOARDS_PER_MATCHUP], dtype="<u4")
    parts = (np.asarray(matchups["win"], dtype="<u4"), np.asarray(matchups["tie"], dtype="<u4"), np.asarray(matchups["pairs"], dtype="u1"))
    return MATCHUPS_BIN_MAGIC + header.tobytes() + b"".join(part.tobytes() for part in parts)


def read_matchups_bin(data: bytes) -> dict:
    """The counts of a :func:`matchups_bin` file as ``{"win", "tie", "pairs"}`` (n, n) int64 arrays and ``boards``
    (as ``engines/matchup-table.js`` parses it); raises ValueError on another file or a truncated one."""
    if data[: len(MATCHUPS_BIN_MAGIC)] != MATCHUPS_BIN_MAGIC or len(data) < 20:
        raise ValueError("matchups.bin: not a matchup table")
    version, n, boards = np.frombuffer(data, dtype="<u4", count=3, offset=8).tolist()
    if version != MATCHUPS_BIN_VERSION:
        raise ValueError(f"matchups.bin: not a version {MATCHUPS_BIN_VERSION} table")
    if len(data) != 20 + 9 * n * n:
        raise ValueError("matchups.bin: truncated")
    cells = n * n
    win = np.frombuffer(data, dtype="<u4", count=cells, offset=20).astype(np.int64).reshape(n, n)
    tie = np.frombuffer(data, dtype="<u4", count=cells, offset=20 + 4 * cells).astype(np.int64).reshape(n, n)
    pairs = np.frombuffer(data, dtype="u1", count=cells, offset=20 + 8 * cells).astype(np.int64).reshape(n, n)
    return {"win": win, "tie": tie, "pairs": pairs, "boards": boards}


FLOPS_BIN_MAGIC = b"ALLINFLP"
FLOPS_BIN_VERSION = 1
#: ``flops.bin`` stores an equity e as round(e × FLOPS_BIN_SCALE); FLOPS_BIN_NONE where the class has no live combo.
FLOPS_BIN_SCALE = 65534
FLOPS_BIN_NONE = 65535
_SUITS = ("rainbow", "two-tone", "monotone")
_PAIRING = ("unpaired", "paired", "trips")


def flops_bin(flops: dict) -> bytes:
    """``flops.bin``: ``flops.json`` in 0.6 MB for the flop pages (docs/data-format.md).

    Little-endian: "ALLINFLP", uint32 format version, flop count F (1,755), class count n (169); then per flop 7
    uint8 (three card ids, weight, suits 0 rainbow / 1 two-tone / 2 monotone, pairing 0 unpaired / 1 paired /
    2 trips, straights); then uint16 equity[F·n], flop-major: round(equity × 65534), 65535 for none.
    """
    count, n = len(flops["flops"]), len(flops["classes"])
    header = np.array([FLOPS_BIN_VERSION, count, n], dtype="<u4")
    rows = np.array([[*parse_cards(flop), weight, _SUITS.index(suits), _PAIRING.index(pairing), straights]
                     for flop, weight, suits, pairing, straights in zip(flops["flops"], flops["weights"], flops["suits"],
                                                                        flops["pairing"], flops["straights"])], dtype="u1")
    equity = np.array([[FLOPS_BIN_NONE if e is None else round(e * FLOPS_BIN_SCALE) for e in row] for row in flops["equity"]],
                      dtype="<u2")
    return FLOPS_BIN_MAGIC + header.tobytes() + rows.tobytes() + equity.tobytes()


def read_flops_bin(data: bytes) -> dict:
    """A :func:`flops_bin` file as ``{"cards" (F, 3), "weights", "suits", "pairing", "straights" (F,), "equity" (F, n)
    float with NaN for none}`` (as ``engines/flop-table.js`` parses it); raises ValueError on another or truncated file."""
    if data[: len(FLOPS_BIN_MAGIC)] != FLOPS_BIN_MAGIC or len(data) < 20:
        raise ValueError("flops.bin: not a flop table")
    version, count, n = np.frombuffer(data, dtype="<u4", count=3, offset=8).tolist()
    if version != FLOPS_BIN_VERSION:
        raise ValueError(f"flops.bin: not a version {FLOPS_BIN_VERSION} table")
    if len(data) != 20 + 7 * count + 2 * count * n:
        raise ValueError("flops.bin: truncated")
    rows = np.frombuffer(data, dtype="u1", count=7 * count, offset=20).reshape(count, 7).astype(np.int64)
    stored = np.frombuffer(data, dtype="<u2", count=count * n, offset=20 + 7 * count).reshape(count, n)
    equity = np.where(stored == FLOPS_BIN_NONE, np.nan, stored / FLOPS_BIN_SCALE)
    return {"cards": rows[:, :3], "weights": rows[:, 3], "suits": rows[:, 4], "pairing": rows[:, 5], "straights": rows[:, 6],
            "equity": equity}


def flops_csv(flops: dict) -> bytes:
    """One row per suit-distinct flop: the flop, its weight and texture, then the 169 classes' equities (empty: none)."""
    keys = ["weights", "suits", "pairing", "high", "straights"]
    rows = ([flop] + [flops[k][f] for k in keys] + ["" if e is None else e for e in flops["equity"][f]]
            for f, flop in enumerate(flops["flops"]))
    return _csv_bytes(["flop", "weight", "suits", "pairing", "high", "straights", *CLASS_NAMES], rows)


def flop_hits_csv(hits: dict) -> bytes:
    """One row per class: the flops of each made category, then of each draw (of 19,600)."""
    rows = ([name, *hits["made_counts"][i], *hits["draw_counts"][i]] for i, name in enumerate(CLASS_NAMES))
    return _csv_bytes(["class", *hits["made"], *hits["draws"]], rows)


#: Compact binary versions the browser loads instead of a large JSON (``<name>.bin``).
BINARY_WRITERS = {"matchups": matchups_bin, "flops": flops_bin}
#: The pages that load each binary version (the download page says so).
BINARY_READERS = {"matchups": "the matchup explorer", "flops": "the flop table page"}

#: Under ``site_dir``: ``{"running": bool, "generated": meta.generated of the latest multiway.json or null}``.
LIVE_STATUS_PATH = "data/multiway-live.json"


def write_live_status(site_dir: Path, running: bool, generated: str | None, renew_s: float | None = None) -> None:
    """Atomically write the live-run status: chart pages served from localhost poll this small file
    (and re-download ``multiway.json`` only when ``generated`` changes) while ``running`` is true and ``expires``
    (Unix seconds: now + ``renew_s`` doubled, the run rewriting it every ``renew_s``) has not passed: a run killed
    with no chance to say it stopped (kill -9) leaves a status that expires, so pages stop polling."""
    status = {"running": running, "generated": generated}
    if running and renew_s is not None:
        status["expires"] = round(time.time() + 2 * renew_s + 5)
    write_json(Path(site_dir) / LIVE_STATUS_PATH, status)


def pushfold_charts_csv(charts: dict) -> bytes:
    """One row per (table, decision): players, stack, ante, payouts, the bounties (each seat's, and the share paid in
    cash; empty without), the spot, then the 169 frequencies."""
    header = ["players", "stack", "ante", "bb_ante", "payouts", "bounties", "bounty_share", "action", "spot", "nash_conv_bb",
              "nash_conv_pool_pct", *CLASS_NAMES]
    rows = []
    for group in charts["groups"]:
        payouts = "" if group["payouts"] is None else " ".join(f"{p:g}" for p in group["payouts"])
        share = "" if group["bounty_share"] is None else group["bounty_share"]
        for chart in group["charts"]:
            bounties = "" if chart["bounties"] is None else " ".join(repr(b) for b in chart["bounties"])
            common = [group["players"], chart["stack"], group["ante"], group["bb_ante"], payouts, bounties, share]
            conv = ["" if chart[k] is None else chart[k] for k in ("nash_conv_bb", "nash_conv_pool_pct")]
            for action in ("shove", "call"):
                rows += [[*common, action, spot, *conv, *values] for spot, values in chart[action].items()]
    return _csv_bytes(header, rows)


def pushfold_thresholds_csv(thresholds: dict) -> bytes:
    """One row per class: for every ante, the largest stacks at which it is shoved / called (empty = never)."""
    keys = ["push_max", "push_max_contiguous", "call_max", "call_max_contiguous"]
    header = ["class", *(f"{key}_ante_{entry['ante']:g}" for entry in thresholds["by_ante"] for key in keys)]
    rows = (
        [name, *("" if entry[key][i] is None else entry[key][i] for entry in thresholds["by_ante"] for key in keys)]
        for i, name in enumerate(CLASS_NAMES)
    )
    return _csv_bytes(header, rows)


#: The 3-way table the site publishes for the browser's push/fold solver (:mod:`generator.compute.threeway_bin`).
THREEWAY_BIN_NAME = "threeway.bin.gz"

#: Binary tables published without a JSON twin, with their description for the download page.
BINARY_TABLES = {
    THREEWAY_BIN_NAME: "3-way class triples (818,805 sorted triples i ≤ j ≤ k): compatible combo triples and the probabilities "
    "of the 13 showdown orderings (Monte Carlo, in 1/255), stored as a prediction from matchups.bin's heads-up results plus a "
    "residual in steps of 10/255, gzip-compressed; read with matchups.bin by the browser's push/fold solver.",
}

CSV_WRITERS = {
    "headsup": headsup_csv, "matchups": matchups_csv, "threehanded": threehanded_csv, "fourhanded": fourhanded_csv,
    "multiway": multiway_csv,
    "pushfold": pushfold_csv, "pushfold_charts": pushfold_charts_csv,
    "pushfold_thresholds": pushfold_thresholds_csv, "flops": flops_csv, "flop_hits": flop_hits_csv,
}


def write_schemas(data_dir: Path) -> None:
    for name, schema in SCHEMAS.items():
        atomic_write_bytes(data_dir / "schema" / f"{name}.schema.json", json_bytes(schema))


def publish(data_dir: Path, name: str, document: dict) -> None:
    """Write a data file, its CSV version and (for some) a compact binary (``<name>.json``,
    ``<name>.csv``, ``<name>.bin``), each atomically.

    The one place data files are written: every stage publishes through it, so the CSV and the
    binary always match their JSON and rendering never writes data. The JSON's ``meta`` gains
    ``license`` (:data:`DATA_LICENSE`).
    """
    document = {**document, "meta": {**document["meta"], "license": DATA_LICENSE}}
    write_json(Path(data_dir) / f"{name}.json", document)
    atomic_write_bytes(Path(data_dir) / f"{name}.csv", CSV_WRITERS[name](document))
    if name in BINARY_WRITERS:
        atomic_write_bytes(Path(data_dir) / f"{name}.bin", BINARY_WRITERS[name](document))


def listing(data_dir: Path, data: SiteData) -> list[dict]:
    """One entry per data file for the download page: paths, sizes, description and meta block (the
    files ``publish`` writes; SCHEMAS also describes the push/fold set's index and table files)."""
    entries = []
    for name in DATA_FILES:
        content = data.files.get(name)
        entry = {"name": name, "description": DESCRIPTIONS[name], "available": content is not None}
        if content is not None:
            entry.update(
                json_size=(data_dir / f"{name}.json").stat().st_size,
                csv_size=(data_dir / f"{name}.csv").stat().st_size,
                meta=sorted(content["meta"].items()),
            )
            binary = data_dir / f"{name}.bin"
            if name in BINARY_WRITERS and binary.exists():
                entry.update(bin_size=binary.stat().st_size, bin_reader=BINARY_READERS[name])
        entries.append(entry)
    return entries


def binary_listing(data_dir: Path) -> list[dict]:
    """The stand-alone binary tables (no JSON twin) present in ``data_dir``: name, size, SHA-256."""
    entries = []
    for name, description in BINARY_TABLES.items():
        path = Path(data_dir) / name
        if path.exists():
            data = path.read_bytes()
            entries.append({"name": name, "description": description, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    return entries
