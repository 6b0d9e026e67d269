"""``allin merge A B -o C``: add two multiway checkpoints of different shards."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("merge")
@click.argument("first", type=click.Path(path_type=Path))
@click.argument("second", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Checkpoint file to write.")
def merge_command(first, second, output):
    """Add two multiway checkpoints (same seed, different shards) into OUTPUT."""
    from generator.compute import registry

    click.echo(f"merged: {registry.merge('multiway', first, second, output)} → {output}")
