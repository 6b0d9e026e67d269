"""The stage graph of ``allin build``, and keeping the pages in step with the data.

    evaluator tables ─┬─► headsup (exact, cached) ─┬─► pushfold (Nash push/fold from the matchups, cached)
                      │                            ├─► threeway (3-way class-triple orderings, Monte Carlo; resumable; data/threeway.bin.gz)
                      │                            │     └─► pushfold_charts (n-player Nash, with headsup; cached)
                      │                            ├─► multiway controls ─► multiway (Monte Carlo; resumes
                      │                            │     and adds samples within the budget)
                      │                            └─► flops (each class on each flop: counted by headsup's walk)
                      └─► threehanded (exact counts at 3 players, cached)
    every data file ─► render (the pages)

Each stage is given what it needs by the code below, never fetches it itself. Whatever writes data
files re-renders the pages (:func:`refresh_pages`), so the site never shows other numbers than the
files it offers for download.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.backend import describe_backend
from generator.core.config import Config
from generator.build.published import check_published
from generator.build.stages.threeway_bin import publish_threeway
from generator.site.render import render_site
from generator.build.stages.flops import run_flops
from generator.build.stages.headsup import run_headsup
from generator.build.stages.multiway import MultiwayInterrupted, multiway_controls, run_multiway
from generator.build.stages.pushfold import run_pushfold
from generator.build.stages.pushfold_charts import DEFAULT_GROUPS, FULL_GROUPS, run_pushfold_charts
from generator.build.stages.pushfold_thresholds import run_pushfold_thresholds
from generator.build.stages.fourhanded import run_fourhanded
from generator.build.stages.threehanded import run_threehanded
from generator.build.stages.threeway import BOARDS as THREEWAY_BOARDS
from generator.build.stages.threeway import threeway_stage


def _warn(line: str) -> None:
    click.echo(line, err=True)


def refresh_pages(config: Config, site_dir: Path) -> bool:
    """Re-render the site if it has been rendered before (its data changed); True if it was."""
    if not (Path(site_dir) / "index.html").exists():
        return False
    check_published(site_dir)
    render_site(config, site_dir)
    return True


def build_site(config: Config, site_dir: Path, backend: str, budget_seconds: float | None = None) -> None:
    """Compute (or load) every dataset into ``site_dir/data`` and render the site into ``site_dir``; on a GPU
    (``backend`` "gpu") with the targets of ``config.gpu`` instead of the CPU's."""
    on_gpu = backend == "gpu"
    target_se = config.gpu.multiway_target_se if on_gpu else config.multiway.target_se
    boards = config.gpu.threeway_boards if on_gpu else THREEWAY_BOARDS
    click.echo(f"backend: {describe_backend(backend)}")
    click.echo("[1/6] heads-up tables and each class on each flop (exact; cached after the first build)")
    headsup = run_headsup(site_dir, backend)
    run_flops(site_dir, backend)
    click.echo("[2/6] three- and four-handed counts (exact; about 2 minutes on 2 cores the first time, cached after)")
    run_threehanded(site_dir, backend)
    run_fourhanded(site_dir)  # on the CPU's cores even on a GPU machine (the stage's docstring says why)
    click.echo(f"[3/6] 3-way class-triple table ({boards:,} boards, Monte Carlo; resumes the checkpoint up to its board count)")
    threeway = threeway_stage(backend, boards)
    publish_threeway(Path(site_dir) / "data", threeway[0], threeway[1]["boards"], threeway[1]["seed"])
    if on_gpu:  # a GPU machine's many cores: the whole set (the solver itself runs on the CPU)
        click.echo("[4/6] push/fold equilibria: heads-up, then the whole set of 2-10 players, ICM grids and PKO tables (cached per "
                   "table), certificates on real deals")
    else:
        click.echo("[4/6] push/fold equilibria: heads-up, then 2-6 players, 9 players at 5/10/15/20 bb, the SNG ICM grids and the PKO "
                   "tables (cached per table; the 7-10 player grids and whole-stack bounties: allin compute pushfold-charts --full), "
                   "certificates on real deals")
    run_pushfold(site_dir, headsup)
    run_pushfold_thresholds(site_dir, headsup)
    run_pushfold_charts(site_dir, headsup, threeway, FULL_GROUPS if on_gpu else DEFAULT_GROUPS)
    click.echo(f"[5/6] multiway Monte Carlo (adds samples to the checkpoint, to a standard error of {target_se:g} per cell)")
    try:
        run_multiway(
            config,
            site_dir,
            multiway_controls(headsup[0]),
            budget_seconds=budget_seconds or config.multiway.budget_seconds,
            target_se=target_se,
            backend=backend,
        )
    except MultiwayInterrupted as stopped:
        click.echo("[6/6] rendering the site with the samples saved so far")
        check_published(site_dir)
        render_site(config, site_dir, warn=_warn)
        click.echo(f"Interrupted: {stopped.document['meta']['deals']:,} deals saved; rerun to continue.", err=True)
        raise SystemExit(130) from None
    click.echo("[6/6] rendering the site")
    check_published(site_dir)
    render_site(config, site_dir, warn=_warn)
