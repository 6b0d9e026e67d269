"""Write the golden files from the Python engines: ``python -m spec.regenerate [ENGINE ...] [--check]``.

Run from the repository root with the project's Python (``.venv/bin/python -m spec.regenerate``). Writes
the constants modules generated from ``spec/constants.json`` (:mod:`spec.constants`), ``spec/<engine>.json``
for each engine module of :mod:`spec.engines` (all of them by default) and the binary tables the node tests read
(``spec/*.bin.gz``, from the build's cached tables; only when no engine is named). ``--check`` writes nothing and
exits 1 if a committed file differs from what would be written (tests/test_spec.py checks the same, within
each engine's float tolerance). Expected outputs are never typed by hand: change an engine, run this, and
review the diff.
"""

from __future__ import annotations

import argparse
import sys

from spec import constants, golden, tables
from spec.engines import MODULES, engine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spec.regenerate", description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="*", metavar="ENGINE", help=f"engine modules (default: all): {', '.join(MODULES)}")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a committed file is stale")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.engines) - set(MODULES))
    if unknown:
        parser.error(f"unknown engine {', '.join(unknown)} (one of {', '.join(MODULES)})")
    stale = []
    for path, text in constants.modules().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path.relative_to(golden.ROOT).as_posix())
            if not args.check:
                path.write_text(text, encoding="utf-8")
    if not args.engines:
        for name, data in tables.build().items():
            current = (golden.SPEC_DIR / name).exists() and golden.read_gzip(name) == data
            if not current:
                stale.append(name)
                if not args.check:
                    golden.write_gzip(name, data)
    for module in args.engines or MODULES:
        spec = engine(module)
        text = golden.dumps(golden.plain(spec.build()))
        path = golden.golden_path(spec.NAME)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(f"spec/{path.name}")
            if not args.check:
                path.write_text(text, encoding="utf-8")
    for name in stale:
        print(f"{'stale' if args.check else 'wrote'} {name}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
