"""axe-core in headless Chromium: zero violations on every page type, at desktop and phone widths,
in the light and the dark colour scheme, including the calculators' result states."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

#: (path, JavaScript condition the page must reach before axe runs: results of the calculators drawn).
PAGES = (
    ("index.html", "true"),
    ("charts/2/index.html", "true"),  # exact heads-up chart
    ("charts/6/index.html", "true"),  # Monte Carlo chart
    ("hands/AKs/index.html", "true"),
    ("matchups/index.html?a=AKs&b=QQ", "document.querySelector('.big[data-equity]')"),
    ("pushfold/index.html", "true"),
    ("pushfold/tables/index.html", "true"),
    ("pushfold/tables/4p-bba1-chipev/12/index.html", "true"),  # grids, overcall table
    ("pushfold/tables/3p-icm-50-30-20/10/index.html", "true"),  # ICM
    ("pushfold/tables/4p-bba1-chipev-pko50-b50/12/index.html", "true"),  # PKO bounties: the model line
    ("pushfold/thresholds/index.html", "true"),
    ("pushfold/solver/index.html?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1", "document.querySelector('#solver-solution[data-state=drawn]')"),  # precomputed
    ("pushfold/solver/index.html?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1&bounties=6,6,6,6&share=50%25",
     "document.querySelector('#solver-solution[data-state=drawn]')"),  # precomputed PKO
    ("pushfold/solver/index.html?stacks=10,0.3,10&blinds=2,1&ante=0&bbante=0", "document.querySelector('#table-error li')"),  # errors
    ("articles/index.html", "true"),
    ("articles/reading-the-charts/index.html", "true"),
    ("data/index.html", "true"),
    ("flop/all/index.html?flop=AhKd7c&high=A&pairing=paired", "document.querySelector('#flop-table[data-state=drawn]')"),  # table, chart
    ("flop/index.html", "document.querySelector('#hits-method').textContent.startsWith('Exact')"),  # hit table, grid
    ("flop/index.html?range=QQ%2B%2CAKs&villain=JJ-99&board=Kh8h3c&view=graph", "document.querySelector('#graph-method').dataset.done"),  # curve
    ("flop/index.html?range=QQ%2B&villain=KK&board=Kh8h&view=graph", "document.querySelector('#flop-error li')"),  # errors
    ("icm/index.html?stacks=500,300,200&payouts=600,400", "document.querySelectorAll('#icm-table td.ev').length === 3"),
    ("equity/index.html?p=QQ%2B%2CAK&p=15%25", "document.querySelector('#equity-method').dataset.method !== undefined"),
    ("icm/spot/index.html", "document.querySelector('#spot-verdict')"),
    ("icm/spot/index.html?side=shove&hand=TT%2B%2CAQs%2B&range=20%25", "document.querySelector('#spot-verdict')"),
    ("icm/index.html?stacks=" + ",".join(str(1000 + 37 * k) for k in range(30)) + "&payouts=30,20,14,10",
     "document.querySelector('#icm-bubble td[data-bf]')"),  # chosen players' bubble factors
    ("icm/index.html?stacks=5000,3000,2000&payouts=50,30,20&bounties=10,10,20&share=50%25",
     "document.querySelector('#icm-bubble td[data-bf]')"),  # PKO bounties: prize, bounty equity, total
    ("icm/spot/index.html?stacks=1500,1000,500&payouts=65,35&shover=3&caller=1&bounties=25,25,40&share=0.5",
     "document.querySelector('#spot-verdict')"),  # the verdict's ICM and bounty parts
    ("icm/index.html?stacks=500,300,200&payouts=60,40&bounties=10,-1,5&share=2", "document.querySelector('#share-error li')"),  # errors
    ("articles/monte-carlo-and-control-variates/index.html", "true"),  # math
    ("articles/how-much-is-a-chip-worth-on-the-bubble/index.html", "true"),
    ("articles/push-fold-at-a-full-table/index.html", "true"),  # pot-layer table, math, n-player figures
    ("articles/knockout-bounties/index.html", "true"),  # bounty tables, math, computed spot table
    ("articles/reading-a-flop/index.html", "true"),  # a table wider than a phone, in its scrolling box
    ("404.html", "true"),
)


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "light"), (390, "dark")])
def test_every_page_type_has_no_axe_violations(open_page, axe_violations, base_url, width, scheme):
    page = open_page("index.html", width=width, scheme=scheme)
    problems = []
    for path, ready in PAGES:
        page.goto(base_url + path)
        page.wait_for_function(ready, timeout=30000)
        problems += [f"{path} @{width}px {scheme}: {line}" for line in axe_violations(page)]
    if problems:
        pytest.fail(f"{len(problems)} axe-core violations:\n" + "\n".join(problems), pytrace=False)
