"""``allin compute <stage>`` (one stage) and ``allin build`` (every stage, then the site).

Each command resolves one :class:`~generator.compute.run.Run` from the configuration and its options, reaches the
stages through :mod:`generator.compute.registry`, writes their data files and then brings already rendered pages up
to date (:func:`generator.compute.pipeline.refresh_pages`): pages never disagree with the files they offer. The
registry imports a stage (and Numba with it) on first use, so ``allin --help`` and the commands that compute nothing
start without them.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.compute import registry
from generator.compute.run import Run, resolve_run
from generator.core.backend import backend_option
from generator.core.config import DEFAULT_CONFIG_PATH, ThreewaySettings, check_target_se, load_config, parse_duration
from generator.core.interrupts import StoppedAndSaved
from generator.core.storage import writable_folder
from generator.core.validation import number_text

site_dir_option = click.option(
    "--site-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("site"), show_default=True, help="Output folder.",
    callback=lambda ctx, param, value: writable_folder(value, "--site-dir"),
)
config_option = click.option(
    "--config", "config_path", default=str(DEFAULT_CONFIG_PATH), show_default=True, help="Site configuration file."
)


def _cluster_spec(ctx, param, value):
    """A ``--cluster`` value checked before any work: its form, and that Dask is installed."""
    if value is not None:
        from generator.compute.cluster import parse_cluster, require_distributed

        parse_cluster(value)
        require_distributed()
    return value


cluster_option = click.option(
    "--cluster", callback=_cluster_spec,
    help="Run the stage's units as Dask tasks: local:N (N worker processes here) or tcp://host:8786 (a running `dask "
         "scheduler` and its workers, docs/cluster.md). Needs the cluster extra. Same results as in this process.",
)


def _run(config_path: str, backend: str, cluster: str | None = None, **overrides) -> Run:
    """The run's settings: the configuration (a bad one fails here, before any work) with the command's options."""
    return resolve_run(load_config(config_path), backend, cluster, **overrides)


def _refreshed(run: Run, site_dir: Path) -> str:
    """Re-render existing pages after new data; a note for the command's closing line."""
    from generator.compute.pipeline import refresh_pages

    return "; pages re-rendered" if refresh_pages(run, site_dir) else ""


@click.group("compute")
def compute_group():
    """Compute one stage and write its data files under SITE_DIR/data."""


@compute_group.command("headsup")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_headsup_command(config_path, site_dir, backend, cluster):
    """Exact heads-up tables: 169 classes vs a random hand and every class vs every class."""
    run = _run(config_path, backend, cluster)
    _, meta = registry.publish("headsup", run, site_dir)
    click.echo(f"wrote {site_dir}/data/headsup.json and matchups.json (+ .csv); computed in {meta['wall_time_s']:.1f} s"
               + _refreshed(run, site_dir))


@compute_group.command("flops")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_flops_command(config_path, site_dir, backend, cluster):
    """The flop atlas: each class on each of the 1,755 suit-distinct flops (from the heads-up walk) and hit rates."""
    run = _run(config_path, backend, cluster)
    registry.publish("flops", run, site_dir)
    click.echo(f"wrote {site_dir}/data/flops.json (+ .csv, .bin) and flop_hits.json (+ .csv)" + _refreshed(run, site_dir))


@compute_group.command("threehanded")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_threehanded_command(config_path, site_dir, backend, cluster):
    """Exact three-handed equity: every class against two random hands, every deal counted."""
    run = _run(config_path, backend, cluster)
    result = registry.publish("threehanded", run, site_dir)
    click.echo(f"wrote {site_dir}/data/threehanded.json (+ .csv); computed in {result['meta']['wall_time_s']:.1f} s"
               + _refreshed(run, site_dir))


@compute_group.command("fourhanded")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_fourhanded_command(config_path, site_dir, backend, cluster):
    """Exact four-handed counts: every class against three random hands over every deal (about 2 minutes on 2 cores;
    saved as it goes: an interrupted run resumes; part of every build, on the CPU's cores unless --backend gpu,
    cached after the first)."""
    run = _run(config_path, backend, cluster)
    result = registry.publish("fourhanded", run, site_dir)
    click.echo(f"wrote {site_dir}/data/fourhanded.json (+ .csv); computed in {result['meta']['wall_time_s']:.1f} s"
               + _refreshed(run, site_dir))


@compute_group.command("threeway")
@click.option("--boards", type=click.IntRange(min=1), help="Bring this shard up to this many boards (a rerun with more adds "
              f"to the checkpoint; default: threeway.boards in the config, {ThreewaySettings.boards:,} unless set there, or "
              "gpu.threeway_boards on a GPU).")
@click.option("--seed", type=int, help=f"A different seed is a separate run (default: threeway.seed in the config, "
              f"{ThreewaySettings.seed} unless set there).")
@click.option("--shard", type=int, default=0, show_default=True, help="Stream id: one per machine of a split run.")
@config_option
@backend_option
@cluster_option
def compute_threeway_command(boards, seed, shard, config_path, backend, cluster):
    """3-way class-triple showdown orderings by Monte Carlo (cached checkpoint; resumable)."""
    run = _run(config_path, backend, cluster, threeway_boards=boards, threeway_seed=seed, threeway_shard=shard)
    _, summary = registry.results("threeway", run)
    click.echo(f"3-way table: {summary['boards']:,} boards, {summary['possible_triples']:,} possible triples, "
               f"median {summary['samples_median']:,} samples per triple, median se {summary['se_median']:.4f} "
               f"(99th percentile {summary['se_p99']:.4f}); {summary['wall_time_s']:.1f} s")


@compute_group.command("pushfold-charts")
@click.option("--full", is_flag=True, help="The whole set: also the 7- to 10-player groups (chip EV grids, the 9-handed SNG "
              "ICM grid and example) and the PKO groups with bounties of a whole stack, which the default build leaves out "
              "for its time budget (about an hour of CPU on 2 cores; interrupted, it resumes). Later builds publish them "
              "from the cache. A GPU machine's build computes the whole set anyway.")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_pushfold_charts_command(full, config_path, site_dir, backend, cluster):
    """n-player push/fold Nash tables: 2-6 players and 9 at the chart stacks (2-10 on the whole grid with --full) at 1.5-25 bb (no ante, 1 bb BB ante), SNG ICM spots,
    unequal-stack examples and PKO tables at 5-25 bb (needs the heads-up tables and the 3-way table; cached per table: an
    interrupted run resumes)."""
    run = _run(config_path, backend, cluster, full_pushfold=full)
    result = registry.publish("pushfold-charts", run, site_dir)
    records = [r for rs in result["results"].values() for r in rs]
    conv_bb = max((r["exploitability"]["bb"] for r in records if r["exploitability"]["bb"] is not None), default=0.0)
    conv_pool = max((r["exploitability"]["pool_pct"] for r in records if r["exploitability"]["pool_pct"] is not None), default=0.0)
    click.echo(f"wrote {site_dir}/data/pushfold/ ({len(records)} tables in {len(result['groups'])} groups) and "
               f"pushfold_charts.json (+ .csv) in {result['wall_time_s']:.1f} s; NashConv at most {conv_bb:.4f} bb, "
               f"{conv_pool:.4f}% of the pool" + _refreshed(run, site_dir))


@compute_group.command("pushfold")
@config_option
@site_dir_option
@backend_option
def compute_pushfold_command(config_path, site_dir, backend):
    """Heads-up push/fold Nash equilibria (1..25 bb) and thresholds to 0.01 bb from the exact matchup table."""
    run = _run(config_path, backend)
    registry.publish("pushfold", run, site_dir)
    click.echo(f"wrote {site_dir}/data/pushfold.json and pushfold_thresholds.json (+ .csv)" + _refreshed(run, site_dir))


@compute_group.command("multiway")
@click.option("--budget", help="Time budget, e.g. 90s, 10m, 1.5h (default: multiway.budget in the config).")
@click.option("--target-se", help="Stop once every cell's standard error is at most this (default: config).")
@click.option("--seed", type=int, help="Override the config's multiway.seed (a different seed is a separate run).")
@click.option("--shard", type=int, default=0, show_default=True, help="Stream id: give each machine of a split run its own.")
@click.option("--deals", "max_deals", type=int, help="Stop once this shard holds this many deals (whole blocks of 4096).")
@cluster_option
@backend_option
@config_option
@site_dir_option
def compute_multiway_command(budget, target_se, seed, shard, max_deals, cluster, backend, config_path, site_dir):
    """Simulate multiway all-in equities, resuming and adding to the checkpoint.

    Runs until the time budget or the precision target is reached, saving every few seconds;
    Ctrl-C stops cleanly and keeps everything up to the last pass. One run per checkpoint at a
    time: a second is refused (give it its own ALLIN_CACHE_DIR and --shard, then `allin merge`).
    """
    from generator.compute.pipeline import stopped

    run = _run(config_path, backend, cluster,
               budget_seconds=None if budget is None else parse_duration(budget, "--budget"),
               target_se=None if target_se is None else check_target_se(number_text(target_se, "--target-se"), "--target-se"),
               multiway_seed=seed, multiway_shard=shard, max_deals=max_deals)
    try:
        meta = registry.publish("multiway", run, site_dir)["meta"]
    except StoppedAndSaved as stop:
        raise stopped(run, site_dir, stop) from None
    worst = "n/a (too few deals to estimate it)" if meta["worst_se"] is None else f"{meta['worst_se']:.2e}"
    click.echo(f"multiway: {meta['deals']:,} deals, worst se {worst}" + _refreshed(run, site_dir))


@click.command("build")
@config_option
@site_dir_option
@backend_option
@click.option("--budget", default=None, help="Multiway time budget for this run (e.g. 90s, 4m); default from the config.")
@cluster_option
def build_command(config_path, site_dir, backend, budget, cluster):
    """Compute every stage (cached / resumed) and render the site. With --cluster, the board walks, the 3-way table, the
    push/fold tables and the multiway samples run on the Dask workers (the certificates here)."""
    from generator.compute.pipeline import build_site

    run = _run(config_path, backend, cluster, budget_seconds=None if budget is None else parse_duration(budget, "--budget"))
    build_site(run, site_dir)
    click.echo(f"site ready in {site_dir}/ (preview: allin serve)")
