"""The four-handed stage: a walk stopped between slices resumes to the counts of one uninterrupted walk, the
published document adds up, and the site's 4-player column is exact where the counts exist."""

from __future__ import annotations

import signal

import numpy as np
import pytest

from generator.compute.stages import fourhanded
from generator.compute.board_walk import board_classes
from generator.core import interrupts
from kernels.cards import CLASS_COMBO_COUNT

#: A few board classes of every kind (paired, flush, straight, high card): 11 boards, walked in slices of 3.
BOARDS = slice(0, 134459, 13000)


@pytest.fixture
def few_boards(monkeypatch, tmp_path):
    boards, weights = board_classes()
    monkeypatch.setattr(fourhanded, "board_classes", lambda: (boards[BOARDS], weights[BOARDS]))
    monkeypatch.setattr(fourhanded, "SLICE_BOARDS", {"cpu": 3})
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


@pytest.mark.slow
def test_a_walk_stopped_after_a_slice_resumes_to_the_counts_of_one_walk(few_boards, monkeypatch, capsys):
    whole = np.array(fourhanded.compute_fourhanded_counts(progress=False))
    fourhanded._partial_path().unlink()
    slices = []
    real = fourhanded.save_arrays

    def save_then_stop(path, arrays):  # a stop request arrives while the second slice is counted
        real(path, arrays)
        slices.append(int(arrays["boards"]))
        if len(slices) == 1:
            interrupts._Requests.signal = signal.SIGINT

    monkeypatch.setattr(fourhanded, "save_arrays", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        fourhanded.compute_fourhanded_counts(progress=True)
    interrupts.reset()
    assert slices == [3]  # the first slice was saved whole, and the walk stopped at its progress point
    resumed = np.array(fourhanded.compute_fourhanded_counts(progress=False))
    assert slices == [3, 6, 9, 11] and np.array_equal(resumed, whole)
    # a partial walk that does not fit the boards (past their end, or of another shape) is said and walked again
    for saved in ({"boards": np.array(99), "counts": whole * 0}, {"boards": np.array(3), "counts": np.zeros(3)},
                  {"slices": np.array(1), "counts": whole}):
        real(fourhanded._partial_path(), saved)
        assert np.array_equal(fourhanded.compute_fourhanded_counts(progress=False), whole)
        assert "starting" in capsys.readouterr().err


def test_the_published_counts_add_up():
    counts = {"win": np.arange(169) * 7, "tie_2": np.arange(169), "tie_3": np.full(169, 3), "tie_4": np.ones(169)}
    document = fourhanded.fourhanded_json(counts, {"stage": "fourhanded"})
    total = np.array(document["total"])
    assert np.array_equal(total, CLASS_COMBO_COUNT * fourhanded.DEALS_PER_HERO)
    parts = sum(np.array(document[k]) for k in ("win", "tie_2", "tie_3", "tie_4", "loss"))
    assert np.array_equal(parts, total)
    expected = (counts["win"] + counts["tie_2"] / 2 + counts["tie_3"] / 3 + counts["tie_4"] / 4) / total
    assert np.allclose(document["equity"], expected, rtol=0, atol=1e-12)


def test_cli_four_handed_is_the_exact_table(monkeypatch):
    """`allin equity AKs --players 4` answers from the four-handed counts (exact), as the chart does."""
    import json

    from click.testing import CliRunner

    from generator.cli import main as cli
    from kernels.cards import CLASS_NAMES

    counts = {"win": np.arange(169) * 7 + 1000, "tie_2": np.arange(169) + 5, "tie_3": np.full(169, 3), "tie_4": np.ones(169)}
    document = fourhanded.fourhanded_json(counts, {"stage": "fourhanded"})
    monkeypatch.setattr(fourhanded, "fourhanded_results", lambda *args, **kwargs: document)
    row = json.loads(CliRunner().invoke(cli, ["equity", "AKs", "--players", "4", "--json"]).stdout)
    index = CLASS_NAMES.index("AKs")
    assert row["exact"] is True and row["players"] == 4 and row["counts"]["total"] == document["total"][index]
    assert row["equity"] == pytest.approx(document["equity"][index], abs=1e-12)
    assert row["tie"] == pytest.approx(sum(row["tie_k"][k] for k in ("2", "3", "4")), abs=1e-15)
