"""``allin compute <stage>`` (one stage) and ``allin build`` (every stage, then the site)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.backend import backend_option, resolve_backend
from generator.config import DEFAULT_CONFIG_PATH, load_config, parse_duration
from generator.pipeline import build_site
from generator.stages.headsup import run_headsup
from generator.stages.pushfold import run_pushfold

site_dir_option = click.option(
    "--site-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("site"), show_default=True, help="Output folder."
)
config_option = click.option(
    "--config", "config_path", default=str(DEFAULT_CONFIG_PATH), show_default=True, help="Site configuration file."
)


@click.group("compute")
def compute_group():
    """Compute one stage and write its data files under SITE_DIR/data."""


@compute_group.command("headsup")
@site_dir_option
@backend_option
def compute_headsup_command(site_dir, backend):
    """Exact heads-up tables: 169 classes vs a random hand and every class vs every class."""
    _, meta = run_headsup(site_dir, resolve_backend(backend))
    click.echo(f"wrote {site_dir}/data/headsup.json and matchups.json (+ .csv); computed in {meta['wall_time_s']:.1f} s")


@compute_group.command("pushfold")
@site_dir_option
@backend_option
def compute_pushfold_command(site_dir, backend):
    """Heads-up push/fold Nash equilibria (1..25 bb) from the exact matchup table."""
    run_pushfold(site_dir, resolve_backend(backend))
    click.echo(f"wrote {site_dir}/data/pushfold.json (+ .csv)")


@click.command("build")
@config_option
@site_dir_option
@backend_option
@click.option("--budget", default=None, help="Multiway time budget for this run (e.g. 90s, 4m); default from the config.")
def build_command(config_path, site_dir, backend, budget):
    """Compute every stage (cached / resumed) and render the site."""
    config = load_config(config_path)
    budget_seconds = parse_duration(budget, "--budget") if budget is not None else None
    build_site(config, site_dir, resolve_backend(backend), budget_seconds)
    click.echo(f"site ready in {site_dir}/ (preview: allin serve)")
