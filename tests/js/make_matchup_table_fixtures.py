"""Write tests/js/fixtures/matchups.bin (``generator.datafiles.matchups_bin`` of the real exact heads-up
table, as the build publishes it) and matchup-table.json (the same counts as JSON, with the class
names) for tests/js/matchup-table.test.mjs.

Run from the repository root: ``.venv/bin/python tests/js/make_matchup_table_fixtures.py``.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.datafiles import matchups_bin
from generator.stages.headsup import headsup_results
from kernels.cards import CLASS_NAMES

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    headsup, _ = headsup_results(progress=False)
    table = {"classes": list(CLASS_NAMES), "win": headsup.win.tolist(), "tie": headsup.tie.tolist(), "loss": headsup.loss.tolist(), "pairs": headsup.pairs.tolist()}
    (FIXTURES / "matchups.bin").write_bytes(matchups_bin(table))
    (FIXTURES / "matchup-table.json").write_text(json.dumps(table))
    print(f"wrote {FIXTURES / 'matchups.bin'} and matchup-table.json: the 169×169 class table")


if __name__ == "__main__":
    main()
