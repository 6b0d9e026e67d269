"""What a whole push/fold solve downloads (issue #37: at most 2 MB), counted from the site's files by
page_weight.solve_download: on the built site (``make build``'s site/), and the counter itself on a small site made
here (tests/e2e/test_page_weight_e2e.py checks it against what Chromium fetches)."""

from pathlib import Path

import pytest
from page_weight import SOLVE_LIMIT, SOLVER_PAGE, solve_download

ROOT = Path(__file__).resolve().parents[1]
BUILT = ROOT / "site"


@pytest.mark.skipif(not (BUILT / "data" / "threeway.bin.gz").exists(), reason="no built site (make build writes site/)")
def test_a_solve_on_the_built_site_downloads_at_most_2_mb():
    sizes = solve_download(BUILT)
    assert {"data/threeway.bin.gz", "data/matchups.bin", SOLVER_PAGE} <= sizes.keys()
    assert sum(sizes.values()) <= SOLVE_LIMIT, sorted(sizes.items(), key=lambda kv: -kv[1])[:5]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_count_follows_the_page_its_modules_the_worker_and_the_data(tmp_path):
    _write(tmp_path / SOLVER_PAGE, '<link rel="canonical" href="https://atlas.example/pushfold/solver/"><link rel="alternate" '
           'href="../../feed.xml"><link rel="stylesheet" href="../../assets/site.css"><script type="module" '
           'src="../../assets/page.js"></script><form data-worker="../../assets/worker.js" data-index="../../data/pushfold/index.json" '
           'data-data="../../data/"></form>')
    _write(tmp_path / "assets/site.css", "body {}")
    _write(tmp_path / "assets/page.js", 'import {\n  a,\n  b,\n} from "./engine.js";\nimport "./side.js";\n')
    _write(tmp_path / "assets/engine.js", 'export * from "./deep/leaf.js";\nexport const a = 1, b = 2;\n')
    _write(tmp_path / "assets/deep/leaf.js", "export const leaf = 0;\n")
    _write(tmp_path / "assets/side.js", "")
    _write(tmp_path / "assets/worker.js", 'import { a } from "./engine.js";\n')
    _write(tmp_path / "data/pushfold/index.json", "{}")
    _write(tmp_path / "data/pushfold/3p/9.json", "[" + "0," * 99 + "0]")
    _write(tmp_path / "data/pushfold/3p/10.json", "[]")
    (tmp_path / "data/matchups.bin").write_bytes(bytes(1000))
    with pytest.raises(FileNotFoundError, match="threeway.bin.gz"):  # not written: the count stops, it does not guess
        solve_download(tmp_path)
    (tmp_path / "data/threeway.bin.gz").write_bytes(bytes(500))
    sizes = solve_download(tmp_path)
    expected = [SOLVER_PAGE, "assets/site.css", "assets/page.js", "assets/engine.js", "assets/deep/leaf.js", "assets/side.js",
                "assets/worker.js", "data/pushfold/index.json", "data/pushfold/3p/9.json", "data/matchups.bin", "data/threeway.bin.gz"]
    # each file once, with its size; of the precomputed tables the largest only
    assert sizes == {name: (tmp_path / name).stat().st_size for name in expected}
    (tmp_path / "assets/deep/leaf.js").unlink()
    with pytest.raises(FileNotFoundError, match="leaf.js"):
        solve_download(tmp_path)
