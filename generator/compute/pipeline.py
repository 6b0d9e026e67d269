"""The stage graph of ``allin build``, and keeping the pages in step with the data.

    evaluator tables ─┬─► headsup (exact, cached) ─┬─► pushfold (heads-up Nash and thresholds, cached)
                      │                            ├─► threeway (3-way class-triple orderings, Monte Carlo; resumable; data/threeway.bin.gz)
                      │                            │     └─► pushfold-charts (n-player Nash, with headsup; cached)
                      │                            ├─► multiway (Monte Carlo with the heads-up controls; resumes
                      │                            │     and adds samples within the budget)
                      │                            └─► flops (each class on each flop: counted by headsup's walk)
                      ├─► threehanded, fourhanded (exact counts at 3 and 4 players, cached)
    every data file ─► render (the pages)

Every stage is reached through :mod:`generator.compute.registry` with the one :class:`~generator.compute.run.Run`
the command resolved. Whatever writes data files re-renders the pages (:func:`refresh_pages`), so the site never
shows other numbers than the files it offers for download.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.compute import registry
from generator.compute.published import check_published
from generator.compute.run import Run
from generator.core.backend import describe_backend
from generator.core.interrupts import StoppedAndSaved
from generator.site.render import render_site


def _warn(line: str) -> None:
    click.echo(line, err=True)


def refresh_pages(run: Run, site_dir: Path) -> bool:
    """Re-render the site if it has been rendered before (its data changed); True if it was."""
    if not (Path(site_dir) / "index.html").exists():
        return False
    check_published(site_dir)
    render_site(run.config, site_dir)
    return True


def stopped(run: Run, site_dir: Path, stop: StoppedAndSaved, render: bool = False) -> SystemExit:
    """After a Ctrl-C that a stage answered by saving its work: the pages brought up to date with what was saved
    (rendered afresh with ``render``, else only if they exist), one line on stderr, and exit status 130 to raise."""
    if render:
        check_published(site_dir)
        render_site(run.config, site_dir, warn=_warn)
    else:
        refresh_pages(run, site_dir)
    click.echo(f"Interrupted: {stop.saved}; rerun to continue.", err=True)
    return SystemExit(130)


def build_site(run: Run, site_dir: Path) -> None:
    """Compute (or load) every dataset into ``site_dir/data`` and render the site into ``site_dir``; on a GPU with the
    run's GPU targets (the whole push/fold set, :func:`generator.compute.run.resolve_run`)."""
    click.echo(f"backend: {describe_backend(run.backend)}" + (f"; stages with units on the Dask cluster {run.cluster}" if run.cluster else ""))
    click.echo("[1/6] heads-up tables and each class on each flop (exact; cached after the first build)")
    registry.publish("headsup", run, site_dir)
    registry.publish("flops", run, site_dir)
    click.echo("[2/6] three- and four-handed counts (exact; about 2 minutes on 2 cores the first time, cached after)")
    registry.publish("threehanded", run, site_dir)
    registry.publish("fourhanded", run, site_dir)  # on the CPU's cores even on a GPU machine (the stage's docstring says why)
    click.echo(f"[3/6] 3-way class-triple table ({run.threeway.boards:,} boards, Monte Carlo; resumes the checkpoint up to "
               "its board count)")
    registry.publish("threeway", run, site_dir)
    if run.full_pushfold:  # a GPU machine's many cores: the whole set (the solver itself runs on the CPU)
        click.echo("[4/6] push/fold equilibria: heads-up, then the whole set of 2-10 players, ICM grids and PKO tables (cached per "
                   "table), certificates on real deals")
    else:
        click.echo("[4/6] push/fold equilibria: heads-up, then 2-6 players, 9 players at 5/10/15/20 bb, the SNG ICM grids and the PKO "
                   "tables (cached per table; the 7-10 player grids and whole-stack bounties: allin compute pushfold-charts --full), "
                   "certificates on real deals")
    registry.publish("pushfold", run, site_dir)
    registry.publish("pushfold-charts", run, site_dir)
    click.echo(f"[5/6] multiway Monte Carlo (adds samples to the checkpoint, to a standard error of {run.multiway.target_se:g} "
               "per cell)")
    try:
        registry.publish("multiway", run, site_dir)
    except StoppedAndSaved as stop:
        click.echo("[6/6] rendering the site with the samples saved so far")
        raise stopped(run, site_dir, stop, render=True) from None
    click.echo("[6/6] rendering the site")
    check_published(site_dir)
    render_site(run.config, site_dir, warn=_warn)
