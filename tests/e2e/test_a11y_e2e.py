"""axe-core in headless Chromium: zero violations on every page type, at desktop and phone widths,
in the light and the dark colour scheme, including the calculators' result states."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

#: (path, JavaScript condition the page must reach before axe runs: results of the calculators drawn).
PAGES = (
    ("index.html", "true"),
    ("charts/2/index.html", "true"),  # exact heads-up chart
    ("charts/6/index.html", "true"),  # Monte Carlo chart
    ("hands/AKs/index.html", "true"),
    ("matchups/index.html?a=AKs&b=QQ", "document.querySelector('.big[data-equity]')"),
    ("pushfold/index.html", "true"),
    ("articles/index.html", "true"),
    ("articles/reading-the-charts/index.html", "true"),
    ("data/index.html", "true"),
    ("icm/index.html?stacks=500,300,200&payouts=600,400", "document.querySelectorAll('#icm-table td.ev').length === 3"),
    ("equity/index.html?p=QQ%2B%2CAK&p=15%25", "document.querySelector('#equity-method').dataset.method !== undefined"),
    ("404.html", "true"),
)


def axe_violations(page) -> list[str]:
    """Every axe-core violation on the page as ``rule-id  selector: summary`` lines."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{violation['id']}  {' '.join(map(str, node['target']))}: {node.get('failureSummary', violation['help']).splitlines()[-1].strip()}"
        for violation in result["violations"]
        for node in violation["nodes"]
    ]


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "light"), (390, "dark")])
def test_every_page_type_has_no_axe_violations(open_page, base_url, width, scheme):
    assert AXE.exists(), f"{AXE} is missing: run `make node-deps` (npm ci)"
    page = open_page("index.html", width=width, scheme=scheme)
    problems = []
    for path, ready in PAGES:
        page.goto(base_url + path)
        page.wait_for_function(ready, timeout=30000)
        problems += [f"{path} @{width}px {scheme}: {line}" for line in axe_violations(page)]
    if problems:
        pytest.fail(f"{len(problems)} axe-core violations:\n" + "\n".join(problems), pytrace=False)
