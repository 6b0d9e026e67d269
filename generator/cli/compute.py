"""``allin compute <stage>`` (one stage) and ``allin build`` (every stage, then the site).

Each compute command writes its data files and then brings already rendered pages up to date
(:func:`generator.build.pipeline.refresh_pages`): pages never disagree with the files they offer.
The stages (and Numba with them) are imported inside the commands, so that ``allin --help`` and the
commands that compute nothing start without them.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.backend import backend_option, resolve_backend
from generator.core.config import DEFAULT_CONFIG_PATH, check_target_se, load_config, parse_duration
from generator.core.errors import InputError
from generator.core.storage import writable_folder
from generator.core.validation import number_text, stream_id

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
        from generator.build.cluster import parse_cluster, require_distributed

        parse_cluster(value)
        require_distributed()
    return value


cluster_option = click.option(
    "--cluster", callback=_cluster_spec,
    help="Run the stage's units as Dask tasks: local:N (N worker processes here) or tcp://host:8786 (a running `dask "
         "scheduler` and its workers, docs/cluster.md). Needs the cluster extra. Same results as in this process.",
)


def _refreshed(config_path: str, site_dir: Path) -> str:
    """Re-render existing pages after new data; a note for the command's closing line."""
    from generator.build.pipeline import refresh_pages

    return "; pages re-rendered" if refresh_pages(load_config(config_path), site_dir) else ""


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
    from generator.build.stages.headsup import run_headsup

    load_config(config_path)  # a bad config fails before the work, not after
    _, meta = run_headsup(site_dir, resolve_backend(backend), cluster=cluster)
    click.echo(f"wrote {site_dir}/data/headsup.json and matchups.json (+ .csv); computed in {meta['wall_time_s']:.1f} s"
               + _refreshed(config_path, site_dir))


@compute_group.command("flops")
@config_option
@site_dir_option
@backend_option
def compute_flops_command(config_path, site_dir, backend):
    """The flop atlas: each class on each of the 1,755 suit-distinct flops (from the heads-up walk) and hit rates."""
    from generator.build.stages.flops import run_flops

    load_config(config_path)
    run_flops(site_dir, resolve_backend(backend))
    click.echo(f"wrote {site_dir}/data/flops.json (+ .csv, .bin) and flop_hits.json (+ .csv)" + _refreshed(config_path, site_dir))


@compute_group.command("threehanded")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_threehanded_command(config_path, site_dir, backend, cluster):
    """Exact three-handed equity: every class against two random hands, every deal counted."""
    from generator.build.stages.threehanded import run_threehanded

    load_config(config_path)
    result = run_threehanded(site_dir, resolve_backend(backend), cluster=cluster)
    click.echo(f"wrote {site_dir}/data/threehanded.json (+ .csv); computed in {result['meta']['wall_time_s']:.1f} s"
               + _refreshed(config_path, site_dir))


def _threeway_default(name: str):
    """A default of the 3-way stage (``BOARDS``, ``SEED``), read when needed: importing the stage imports Numba."""

    def default():
        from generator.build.stages import threeway

        return getattr(threeway, name)

    return default


class _CalledDefault(click.Option):
    """An option whose callable default is shown by its value in ``--help`` (click shows "(dynamic)")."""

    def get_default(self, ctx, call=True):
        return super().get_default(ctx, call=True)


@compute_group.command("fourhanded")
@config_option
@site_dir_option
@backend_option
@cluster_option
def compute_fourhanded_command(config_path, site_dir, backend, cluster):
    """Exact four-handed counts: every class against three random hands over every deal (about 2 minutes on 2 cores;
    saved as it goes: an interrupted run resumes; part of every build, on the CPU's cores, cached after the first)."""
    from generator.build.stages.fourhanded import run_fourhanded

    load_config(config_path)
    result = run_fourhanded(site_dir, resolve_backend(backend), cluster=cluster)
    click.echo(f"wrote {site_dir}/data/fourhanded.json (+ .csv); computed in {result['meta']['wall_time_s']:.1f} s"
               + _refreshed(config_path, site_dir))


@compute_group.command("threeway")
@click.option("--boards", cls=_CalledDefault, type=click.IntRange(min=1), default=_threeway_default("BOARDS"), show_default=True,
              help="Bring this shard up to this many boards (a rerun with more adds to the checkpoint).")
@click.option("--seed", cls=_CalledDefault, type=int, default=_threeway_default("SEED"), show_default=True,
              help="A different seed is a separate run.")
@click.option("--shard", type=int, default=0, show_default=True, help="Stream id: one per machine of a split run.")
@config_option
@backend_option
def compute_threeway_command(boards, seed, shard, config_path, backend):
    """3-way class-triple showdown orderings by Monte Carlo (cached checkpoint; resumable)."""
    from generator.build.stages.threeway import threeway_stage

    load_config(config_path)
    stream_id(seed, "--seed")
    stream_id(shard, "--shard")
    _, summary = threeway_stage(resolve_backend(backend), boards, seed, shard)
    click.echo(f"3-way table: {summary['boards']:,} boards, {summary['possible_triples']:,} possible triples, "
               f"median {summary['samples_median']:,} samples per triple, median se {summary['se_median']:.4f} "
               f"(99th percentile {summary['se_p99']:.4f}); {summary['wall_time_s']:.1f} s")


@compute_group.command("pushfold-charts")
@click.option("--full", is_flag=True, help="The whole set: also the 7- to 10-player groups (chip EV grids, the 9-handed SNG "
              "ICM grid and example) and the PKO groups with bounties of a whole stack, which the default build leaves out "
              "for its time budget (about an hour of CPU on 2 cores; interrupted, it resumes). Later builds publish them "
              "from the cache.")
@config_option
@site_dir_option
@backend_option
def compute_pushfold_charts_command(full, config_path, site_dir, backend):
    """n-player push/fold Nash tables: 2-6 players and 9 at the chart stacks (2-10 on the whole grid with --full) at 1.5-25 bb (no ante, 1 bb BB ante), SNG ICM spots,
    unequal-stack examples and PKO tables at 5-25 bb (needs the heads-up tables and the 3-way table; cached per table: an
    interrupted run resumes)."""
    from generator.build.stages.headsup import headsup_results
    from generator.build.stages.pushfold_charts import DEFAULT_GROUPS, FULL_GROUPS, run_pushfold_charts
    from generator.build.stages.threeway import threeway_stage

    load_config(config_path)
    backend = resolve_backend(backend)
    result = run_pushfold_charts(site_dir, headsup_results(backend), threeway_stage(backend), FULL_GROUPS if full else DEFAULT_GROUPS)
    records = [r for rs in result["results"].values() for r in rs]
    conv_bb = max((r["exploitability"]["bb"] for r in records if r["exploitability"]["bb"] is not None), default=0.0)
    conv_pool = max((r["exploitability"]["pool_pct"] for r in records if r["exploitability"]["pool_pct"] is not None), default=0.0)
    click.echo(f"wrote {site_dir}/data/pushfold/ ({len(records)} tables in {len(result['groups'])} groups) and "
               f"pushfold_charts.json (+ .csv) in {result['wall_time_s']:.1f} s; NashConv at most {conv_bb:.4f} bb, "
               f"{conv_pool:.4f}% of the pool" + _refreshed(config_path, site_dir))


@compute_group.command("pushfold")
@config_option
@site_dir_option
@backend_option
def compute_pushfold_command(config_path, site_dir, backend):
    """Heads-up push/fold Nash equilibria (1..25 bb) and thresholds to 0.01 bb from the exact matchup table."""
    from generator.build.stages.headsup import headsup_results
    from generator.build.stages.pushfold import run_pushfold
    from generator.build.stages.pushfold_thresholds import run_pushfold_thresholds

    load_config(config_path)
    headsup = headsup_results(resolve_backend(backend))
    run_pushfold(site_dir, headsup)
    run_pushfold_thresholds(site_dir, headsup)
    click.echo(f"wrote {site_dir}/data/pushfold.json and pushfold_thresholds.json (+ .csv)" + _refreshed(config_path, site_dir))


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
    from generator.build.pipeline import refresh_pages
    from generator.build.stages.headsup import headsup_results
    from generator.build.stages.multiway import MultiwayInterrupted, multiway_controls, run_multiway

    config = load_config(config_path)
    if seed is not None:
        stream_id(seed, "--seed")
    if max_deals is not None and max_deals <= 0:
        raise InputError(f"--deals must be positive, got {max_deals}")
    budget_seconds = config.multiway.budget_seconds if budget is None else parse_duration(budget, "--budget")
    if target_se is None:
        target_se = config.multiway.target_se
    else:
        target_se = check_target_se(number_text(target_se, "--target-se"), "--target-se")
    if cluster is None:  # on a cluster, each worker resolves --backend for itself
        backend = resolve_backend(backend)
    options = dict(budget_seconds=budget_seconds, target_se=target_se, backend=backend, seed=seed, shard=shard,
                   max_deals=max_deals, cluster=cluster)
    try:
        controls = multiway_controls(headsup_results("cpu" if cluster else backend)[0])  # cached after the first build
        result = run_multiway(config, site_dir, controls, **options)
    except MultiwayInterrupted as stopped:
        refresh_pages(config, site_dir)
        click.echo(f"Interrupted: {stopped.document['meta']['deals']:,} deals saved in {stopped.path}; rerun to continue.", err=True)
        raise SystemExit(130) from None
    meta = result["meta"]
    worst = "n/a (too few deals to estimate it)" if meta["worst_se"] is None else f"{meta['worst_se']:.2e}"
    click.echo(f"multiway: {meta['deals']:,} deals, worst se {worst}" + _refreshed(config_path, site_dir))


@click.command("build")
@config_option
@site_dir_option
@backend_option
@click.option("--budget", default=None, help="Multiway time budget for this run (e.g. 90s, 4m); default from the config.")
def build_command(config_path, site_dir, backend, budget):
    """Compute every stage (cached / resumed) and render the site."""
    from generator.build.pipeline import build_site

    config = load_config(config_path)
    budget_seconds = parse_duration(budget, "--budget") if budget is not None else None
    build_site(config, site_dir, resolve_backend(backend), budget_seconds)
    click.echo(f"site ready in {site_dir}/ (preview: allin serve)")
