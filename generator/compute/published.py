"""Whether the published data files in ``site/data`` are whole, checked before a render publishes pages over them
(``allin render``, and the renders of ``allin build`` and the ``compute`` commands: :func:`check_published`).

A file is damaged when it no longer matches what wrote it: a CSV or binary that differs from what its JSON gives
(:data:`~generator.data.datafiles.CSV_WRITERS`, :data:`~generator.data.datafiles.BINARY_WRITERS`), a push/fold table
whose SHA-256 differs from the one ``data/pushfold/index.json`` recorded when it was written (a table with no
recorded digest, from a build before digests, must at least read as JSON), an unreadable index, or a
``threeway.bin.gz`` that fails its gzip check or its layout, or was written with another ``matchups.bin``. The JSON data files themselves are read (and refused
when unreadable) by :meth:`~generator.data.sitedata.SiteData.load`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator.compute.threeway_bin import MATCHUPS_NAME, read_threeway_counts
from generator.core.errors import InputError
from generator.core.storage import CorruptFileError, read_json
from generator.data.datafiles import BINARY_WRITERS, CSV_WRITERS, THREEWAY_BIN_NAME
from generator.data.sitedata import SiteData
from generator.site.structure import pushfold_data_path


def _derived_files(data_dir: Path, data: SiteData) -> list[str]:
    problems = []
    for name, document in data.files.items():
        if document is None:
            continue
        derived = [(f"{name}.csv", CSV_WRITERS[name])] + ([(f"{name}.bin", BINARY_WRITERS[name])] if name in BINARY_WRITERS else [])
        for file_name, writer in derived:
            path = data_dir / file_name
            if not path.exists():
                problems.append(f"{path} is missing (it is written with {name}.json)")
            elif path.read_bytes() != writer(document):
                problems.append(f"{path} does not match {name}.json (damaged or edited)")
    return problems


def _threeway_table(data_dir: Path) -> list[str]:
    path = data_dir / THREEWAY_BIN_NAME
    if not path.exists():
        return []
    matchups = data_dir / MATCHUPS_NAME
    if not matchups.exists():
        return [f"{matchups} is missing ({THREEWAY_BIN_NAME} is read with it)"]
    try:
        read_threeway_counts(path.read_bytes(), matchups.read_bytes())
    except ValueError as error:
        return [f"{path.parent}/{error}"]  # the error names the file
    return []


def _pushfold_tables(site_dir: Path) -> list[str]:
    index_path = site_dir / pushfold_data_path("")
    if not index_path.exists():
        return []
    try:
        index = read_json(index_path)
    except CorruptFileError as error:
        return [str(error)]
    problems = []
    for group in index.get("groups", []):
        names = [f"{s:g}" for s in group["stacks"]] if group.get("stacks") else [str(k) for k in range(len(group.get("stack_sets") or []))]
        digests = group.get("sha256")
        for name in names:
            path = site_dir / pushfold_data_path(group["id"], name)
            if not path.exists():
                problems.append(f"{path} is missing (listed in {index_path.name})")
            elif digests is not None:
                if hashlib.sha256(path.read_bytes()).hexdigest() != digests.get(name):
                    problems.append(f"{path} does not match the SHA-256 recorded in {index_path.name} (damaged or edited)")
            else:
                try:
                    read_json(path)
                except CorruptFileError as error:
                    problems.append(str(error))
    return problems


def damaged_files(site_dir: Path, data: SiteData) -> list[str]:
    """One line per damaged or missing published file of ``site_dir/data`` (empty: all whole); ``data`` as loaded."""
    data_dir = Path(site_dir) / "data"
    return _derived_files(data_dir, data) + _threeway_table(data_dir) + _pushfold_tables(Path(site_dir))


def check_published(site_dir: Path) -> None:
    """Raise :class:`InputError` (one line: the first damaged file, how many more, what writes them again) unless
    every published data file of ``site_dir`` is whole; call it before rendering."""
    damaged = damaged_files(site_dir, SiteData.load(Path(site_dir) / "data"))
    if damaged:
        more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
        raise InputError(f"{damaged[0]}{more}; nothing was rendered: `make build` (or the `allin compute` command "
                         "that wrote it) writes the data again from its caches")
