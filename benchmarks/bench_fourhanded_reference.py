"""The Monte Carlo's 4-player column held to the exact four-handed counts (issue #36).

Reads a build's ``site/data/multiway.json`` (Monte Carlo with control variates) and ``site/data/fourhanded.json``
(exact) and prints, over the 169 classes, the rms of z = (Monte Carlo − exact) / reported standard error (≈ 1 when
the standard errors are right), the share within 1.96 standard errors (≈ 95%) and the largest |z|.
Usage: ``bench_fourhanded_reference.py [SITE_DIR]`` (default ``site``; run ``make build`` first).
"""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kernels.multiway.control_variates import Z_975  # noqa: E402


def main(site: Path) -> None:
    missing = [name for name in ("multiway.json", "fourhanded.json") if not (site / "data" / name).exists()]
    if missing:
        print(f"skipped: no {' or '.join(missing)} in {site / 'data'} (run make build first)")
        return
    multiway = json.loads((site / "data" / "multiway.json").read_text())
    exact_document = json.loads((site / "data" / "fourhanded.json").read_text())
    block = multiway["by_players"]["4"]
    estimate, se = np.array(block["equity"]), np.array(block["se_equity"])
    exact = np.array(exact_document["equity"])
    z = (estimate - exact) / se
    worst = int(np.argmax(np.abs(z)))
    print(f"{multiway['meta']['deals']:,} Monte Carlo deals (seed {multiway['meta'].get('seed', '?')}), "
          f"exact counts code {exact_document['meta']['code_version']}")
    print(f"rms z {np.sqrt(np.mean(z ** 2)):.3f} over {len(z)} classes; within 1.96 se: {np.mean(np.abs(z) <= Z_975):.1%}; "
          f"largest |z| {abs(z[worst]):.2f} ({exact_document['classes'][worst]}: exact {exact[worst]:.6%}, "
          f"Monte Carlo {estimate[worst]:.6%} ± {se[worst]:.6%})")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("site"))
