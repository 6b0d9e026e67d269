"""``allin compute multiway`` (the Monte Carlo stage) and ``allin merge A B -o C`` (checkpoint sums)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.backend import backend_option
from generator.config import DEFAULT_CONFIG_PATH, check_target_se, load_config, parse_duration
from generator.errors import InputError
from generator.stages.multiway import MultiwayInterrupted, merge_checkpoints, run_multiway
from generator.validation import number_text


@click.command("multiway")
@click.option("--budget", help="Time budget, e.g. 90s, 10m, 1.5h (default: multiway.budget in the config).")
@click.option("--target-se", help="Stop once every cell's standard error is at most this (default: config).")
@click.option("--seed", type=int, help="Override the config's multiway.seed (a different seed is a separate run).")
@click.option("--shard", type=int, default=0, show_default=True, help="Stream id: give each machine of a split run its own.")
@click.option("--deals", "max_deals", type=int, help="Stop once this shard holds this many deals (whole blocks of 4096).")
@backend_option
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=DEFAULT_CONFIG_PATH, show_default=True)
@click.option("--site-dir", type=click.Path(path_type=Path), default=Path("site"), show_default=True)
def compute_multiway_command(budget, target_se, seed, shard, max_deals, backend, config_path, site_dir):
    """Simulate multiway all-in equities, resuming and adding to the checkpoint.

    Runs until the time budget or the precision target is reached, saving every few seconds;
    Ctrl-C stops cleanly and keeps everything up to the last pass.
    """
    config = load_config(config_path)
    if seed is not None and not 0 <= seed < 2**63:
        raise InputError(f"--seed must be in [0, 2^63), got {seed}")
    if max_deals is not None and max_deals <= 0:
        raise InputError(f"--deals must be positive, got {max_deals}")
    budget_seconds = config.multiway.budget_seconds if budget is None else parse_duration(budget, "--budget")
    if target_se is None:
        target_se = config.multiway.target_se
    else:
        target_se = check_target_se(number_text(target_se, "--target-se"), "--target-se")
    try:
        result = run_multiway(
            config,
            site_dir,
            budget_seconds=budget_seconds,
            target_se=target_se,
            backend=backend,
            seed=seed,
            shard=shard,
            max_deals=max_deals,
        )
    except MultiwayInterrupted as stopped:
        click.echo(f"Interrupted: {stopped.document['meta']['deals']:,} deals saved in {stopped.path}; rerun to continue.", err=True)
        raise SystemExit(130) from None
    meta = result["meta"]
    worst = meta["worst_se"]
    click.echo(
        f"multiway: {meta['deals']:,} deals, worst se {worst:.2e}" if worst is not None else "multiway: no deals yet"
    )


@click.command("merge")
@click.argument("first", type=click.Path(path_type=Path))
@click.argument("second", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Checkpoint file to write.")
def merge_command(first, second, output):
    """Add two multiway checkpoints (same seed, different shards) into OUTPUT."""
    merged = merge_checkpoints(first, second, output)
    click.echo(f"merged: {merged.deals:,} deals from shards {sorted(merged.blocks)} → {output}")
