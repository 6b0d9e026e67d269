"""``allin build``: every stage in dependency order, then the site.

headsup (exact, cached) → pushfold (Nash push/fold from the matchups, cached) → multiway (Monte
Carlo; resumes and adds samples within the budget, uses the exact heads-up table as control-variate
means) → render.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.config import Config
from generator.render import render_site
from generator.stages.headsup import run_headsup
from generator.stages.multiway import MultiwayInterrupted, run_multiway
from generator.stages.pushfold import run_pushfold


def build_site(config: Config, site_dir: Path, backend: str, budget_seconds: float | None = None) -> None:
    """Compute (or load) every dataset into ``site_dir/data`` and render the site into ``site_dir``."""
    click.echo("[1/4] heads-up tables (exact; cached after the first build)")
    run_headsup(site_dir, backend)
    click.echo("[2/4] push/fold equilibria (cached)")
    run_pushfold(site_dir, backend)
    click.echo("[3/4] multiway Monte Carlo (adds samples to the checkpoint)")
    try:
        run_multiway(
            config,
            site_dir,
            budget_seconds=budget_seconds or config.multiway.budget_seconds,
            target_se=config.multiway.target_se,
            backend=backend,
        )
    except MultiwayInterrupted as stopped:
        click.echo("[4/4] rendering the site with the samples saved so far")
        render_site(config, site_dir)
        click.echo(f"Interrupted: {stopped.document['meta']['deals']:,} deals saved; rerun to continue.", err=True)
        raise SystemExit(130) from None
    click.echo("[4/4] rendering the site")
    render_site(config, site_dir)
