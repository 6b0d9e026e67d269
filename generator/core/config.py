"""Loading and validating ``content/site.yaml``.

Every section is optional; missing keys take the defaults below. Invalid values raise
:class:`generator.core.errors.InputError` naming the file and the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from generator.core.errors import InputError
from generator.core.validation import finite_number, load_yaml, read_text, shown, stream_id

DEFAULT_CONFIG_PATH = Path("content/site.yaml")

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")
_UNIT_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, None: 1.0}
MAX_DURATION_SECONDS = 365 * 24 * 3600.0  # budgets and checkpoint intervals: at most a year


def parse_duration(text: str | int | float, what: str = "duration") -> float:
    """``"90s"``, ``"4m"``, ``"1.5h"`` or a number of seconds → seconds (float, > 0 and at most a year)."""
    if isinstance(text, str):
        match = _DURATION.match(text)
        if not match:
            raise InputError(f"{what}: {shown(text)} is not a duration like 90s, 4m or 1.5h")
        seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    else:
        seconds = finite_number(text, what)
    if not 0 < seconds <= MAX_DURATION_SECONDS:
        raise InputError(f"{what} must be positive and at most a year (8760h), got {shown(text)}")
    return seconds


def check_target_se(value, what: str) -> float:
    """A standard-error target: a finite number in (0, 0.5)."""
    target = finite_number(value, what)
    if not 0 < target < 0.5:
        raise InputError(f"{what} must be a number in (0, 0.5), got {shown(value)}")
    return target


@dataclass(frozen=True)
class SiteSettings:
    title: str = "All-in Atlas"
    description: str = "Precomputed poker math."
    base_url: str = "/"
    author: str = "All-in Atlas"
    origin: str = ""  # e.g. https://example.org: prefixes absolute URLs (sitemap, feed, canonical links)
    articles: str = "articles"  # the articles' folder: relative to the config file's folder, or absolute


@dataclass(frozen=True)
class MultiwaySettings:
    seed: int = 20261122
    budget_seconds: float = 240.0
    target_se: float = 1e-4
    checkpoint_seconds: float = 10.0


@dataclass(frozen=True)
class ThreewaySettings:
    """The 3-way class-triple table of the CPU build: boards sampled, and the seed of its random streams."""

    boards: int = 4096
    seed: int = 1


@dataclass(frozen=True)
class GpuSettings:
    """The targets of a build that runs on a GPU, in place of the CPU build's (same wall-clock budget)."""

    multiway_target_se: float = 1e-5
    threeway_boards: int = 65536


@dataclass(frozen=True)
class Config:
    site: SiteSettings = field(default_factory=SiteSettings)
    multiway: MultiwaySettings = field(default_factory=MultiwaySettings)
    threeway: ThreewaySettings = field(default_factory=ThreewaySettings)
    gpu: GpuSettings = field(default_factory=GpuSettings)
    icm_presets: tuple = ()  # validated presets {name, payouts, players}, see generator.core.icm_presets
    path: str = str(DEFAULT_CONFIG_PATH)

    @property
    def articles_dir(self) -> Path:
        """Where the articles are read from: ``site.articles`` beside the config file (or that absolute folder)."""
        return Path(self.path).parent / self.site.articles


def _section(raw: dict, name: str, source: str) -> dict:
    value = raw.get(name) or {}
    if not isinstance(value, dict):
        raise InputError(f"{source}: section '{name}' must be a mapping")
    return value


def _check_keys(section: dict, allowed: set, where: str) -> None:
    unknown = sorted(set(section) - allowed, key=str)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(shown(k) for k in unknown)} (allowed: {', '.join(sorted(allowed))})")


def _site_settings(section: dict, source: str) -> SiteSettings:
    _check_keys(section, {"title", "description", "base_url", "author", "origin", "articles"}, f"{source}: site")
    articles = section.get("articles", SiteSettings.articles)
    if not isinstance(articles, str) or not articles.strip() or "\0" in articles:
        raise InputError(f"{source}: site.articles must be a folder such as articles or /srv/atlas/articles, got {shown(articles)}")
    values = {key: str(section[key]) for key in ("title", "description", "author") if key in section}
    base_url = str(section.get("base_url", "/"))
    if not base_url.startswith("/") or "//" in base_url or any(c.isspace() for c in base_url):
        raise InputError(f"{source}: site.base_url must be an absolute path such as / or /atlas/, got {shown(base_url)}")
    origin = str(section.get("origin", "")).rstrip("/")
    if origin and not re.fullmatch(r"https?://[^/\s]+", origin):  # fullmatch: "$" would let a trailing newline in
        raise InputError(f"{source}: site.origin must be a scheme and host such as https://example.org, got {shown(origin)}")
    return SiteSettings(base_url=base_url.rstrip("/") + "/", origin=origin, articles=articles, **values)


def _multiway_settings(section: dict, source: str) -> MultiwaySettings:
    where = f"{source}: multiway"
    _check_keys(section, {"seed", "budget", "target_se", "checkpoint_every"}, where)
    defaults = MultiwaySettings()
    seed = section.get("seed", defaults.seed)
    stream_id(seed, f"{where}.seed")
    return MultiwaySettings(
        seed=seed,
        budget_seconds=parse_duration(section.get("budget", defaults.budget_seconds), f"{where}.budget"),
        target_se=check_target_se(section.get("target_se", defaults.target_se), f"{where}.target_se"),
        checkpoint_seconds=parse_duration(
            section.get("checkpoint_every", defaults.checkpoint_seconds), f"{where}.checkpoint_every"
        ),
    )


def _board_count(value, what: str) -> int:
    """A count of 3-way boards: an integer from 1 to 2^24."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 2**24:
        raise InputError(f"{what} must be an integer from 1 to 16,777,216, got {shown(value)}")
    return value


def _threeway_settings(section: dict, source: str) -> ThreewaySettings:
    where = f"{source}: threeway"
    _check_keys(section, {"boards", "seed"}, where)
    defaults = ThreewaySettings()
    seed = section.get("seed", defaults.seed)
    stream_id(seed, f"{where}.seed")
    return ThreewaySettings(boards=_board_count(section.get("boards", defaults.boards), f"{where}.boards"), seed=seed)


def _gpu_settings(section: dict, source: str) -> GpuSettings:
    where = f"{source}: gpu"
    _check_keys(section, {"multiway_target_se", "threeway_boards"}, where)
    defaults = GpuSettings()
    boards = _board_count(section.get("threeway_boards", defaults.threeway_boards), f"{where}.threeway_boards")
    target_se = check_target_se(section.get("multiway_target_se", defaults.multiway_target_se), f"{where}.multiway_target_se")
    return GpuSettings(multiway_target_se=target_se, threeway_boards=boards)


def load_config(path: str | Path = DEFAULT_CONFIG_PATH) -> Config:
    """Read and validate the site configuration; a missing file means all defaults."""
    path = Path(path)
    source = str(path)
    if not path.exists():
        if path == DEFAULT_CONFIG_PATH:
            return Config(path=source)
        raise InputError(f"config file not found: {source}")
    try:
        raw = load_yaml(read_text(path)) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise InputError(f"{source}{where}: invalid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(raw, dict):
        raise InputError(f"{source}: top level must be a mapping")
    _check_keys(raw, {"site", "multiway", "threeway", "gpu", "icm"}, source)
    icm = _section(raw, "icm", source)
    _check_keys(icm, {"presets"}, f"{source}: icm")
    presets = icm.get("presets", []) or []
    from generator.core.icm_presets import preset_payloads  # here: it needs kernels.icm.harville (Numba), which options parsing does not

    if not isinstance(presets, list):
        raise InputError(f"{source}: icm.presets must be a list")
    return Config(
        site=_site_settings(_section(raw, "site", source), source),
        multiway=_multiway_settings(_section(raw, "multiway", source), source),
        threeway=_threeway_settings(_section(raw, "threeway", source), source),
        gpu=_gpu_settings(_section(raw, "gpu", source), source),
        icm_presets=preset_payloads(presets, f"{source}: icm.presets"),
        path=source,
    )
