"""flop-worker.js in headless Chromium: its message protocol (the worker's header comment): a distribution and a
report split in two parts equal the Python kernels' (kernels/flop/equity.py) exactly, progress comes, "cancel"
stops a report before its counts, errors say their kind."""

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import parse_cards
from kernels.flop.equity import combo_equities, equity_distribution, every_flop_report
from kernels.ranges import parse_range

pytestmark = pytest.mark.e2e

#: Posts each message to its own fresh worker (``cancelAfterProgress``: post {type: "cancel"} at the first progress
#: message), collects every message until each worker has answered, and returns them per worker.
RUN = """async ([messages, cancelAfterProgress]) => {
  const tablesUrl = new URL("assets/evaluator-tables.bin", document.baseURI).href;
  const runs = messages.map((message, k) => new Promise((resolve) => {
    const worker = new Worker(new URL("assets/js/workers/flop-worker.js", document.baseURI), { type: "module" });
    const seen = [];
    let cancelled = false;
    worker.onmessage = (e) => {
      const data = e.data;
      seen.push(data.counts ? { ...data, counts: { win: Array.from(data.counts.win), tie: Array.from(data.counts.tie),
        total: Array.from(data.counts.total), visited: data.counts.visited } } : data.distribution ? { type: data.type,
        overall: data.distribution.overall, combos: Array.from(data.distribution.combos), equity: Array.from(data.distribution.equity) } : data);
      if (cancelAfterProgress && data.type === "progress" && !cancelled) {
        cancelled = true;
        worker.postMessage({ type: "cancel", id: k });
        setTimeout(() => { worker.terminate(); resolve(seen); }, 1500);  // a cancelled job posts nothing more
      }
      if (["distribution", "counts", "error"].includes(data.type)) { worker.terminate(); resolve(seen); }
    };
    worker.onerror = (e) => resolve([...seen, { type: "worker error", message: e.message }]);
    worker.postMessage({ ...message, id: k, tablesUrl });
  }));
  return await Promise.all(runs);
}"""


def weights(text: str) -> list[float]:
    return parse_range(text).weights.tolist()


def test_a_distribution_is_pythons(open_page):
    page = open_page("")
    a, b, board, dead = "QQ+,AKs,0.5(T9s)", "JJ-99,AQs,0.25(KQo)", "Ts9h2c", "3d"
    [seen] = page.evaluate(RUN, [[{"type": "distribution", "weightsA": weights(a), "weightsB": weights(b),
                                   "board": parse_cards(board), "dead": parse_cards(dead)}], False])
    answer = seen[-1]
    assert answer["type"] == "distribution", seen
    assert all(m["type"] == "progress" and m["id"] == 0 for m in seen[:-1])
    d = equity_distribution(combo_equities(*(parse_range(t).weights for t in (a, b)), parse_cards(board), parse_cards(dead),
                                           evaluator_tables()))
    assert answer["overall"] == d.overall
    assert answer["combos"] == d.combos.tolist() and answer["equity"] == d.equity.tolist()


def test_a_report_in_two_parts_adds_up_to_pythons(open_page):
    page = open_page("")
    a, b = "AA,KK,0.5(AKs)", "QQ,JJ,AQs"
    message = {"type": "report", "weightsA": weights(a), "weightsB": weights(b), "parts": 2}
    runs = page.evaluate(RUN, [[{**message, "part": 0}, {**message, "part": 1}], False])
    answers = [seen[-1] for seen in runs]
    assert [m["type"] for m in answers] == ["counts", "counts"], runs
    assert [(m["part"], m["parts"]) for m in answers] == [(0, 2), (1, 2)]
    assert sum(m["counts"]["visited"] for m in answers) == 134_459
    progress = [m for seen in runs for m in seen if m["type"] == "progress"]
    assert progress and all(0 <= m["done"] <= m["total"] for m in progress)
    report = every_flop_report(*(parse_range(t).weights for t in (a, b)), evaluator_tables())
    for key in ("win", "tie", "total"):
        merged = np.add(answers[0]["counts"][key], answers[1]["counts"][key])
        assert merged.tolist() == getattr(report, key).tolist()  # dyadic weights: exact


def test_cancel_stops_a_report_and_errors_say_their_kind(open_page):
    page = open_page("")
    [seen] = page.evaluate(RUN, [[{"type": "report", "weightsA": weights("random"), "weightsB": weights("random")}], True])
    types = [m["type"] for m in seen]
    assert "cancelled" in types and "counts" not in types, types
    runs = page.evaluate(RUN, [[
        {"type": "report", "weightsA": weights("AsKs"), "weightsB": weights("QQ")},
        {"type": "distribution", "weightsA": weights("AsAh"), "weightsB": weights("AsKs"), "board": parse_cards("2c7d9h")},
        {"type": "distribution", "weightsA": weights("AA"), "weightsB": weights("KK"), "board": parse_cards("2c7d")},
    ], False])
    errors = [seen[-1] for seen in runs]
    assert [(m["type"], m["kind"], m["player"]) for m in errors] == [
        ("error", "NotSuitSymmetricError", 0), ("error", "NoDealError", 1), ("error", "Error", None)]
    assert errors[0]["message"].startswith("range A is not suit-symmetric (AhKh at 0 but AsKs at 1)")
    assert errors[2]["message"] == "a board after the flop has 3, 4 or 5 cards, got 2"
