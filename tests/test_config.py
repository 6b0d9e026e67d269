"""content/site.yaml: every value checked once, at load, typed and finite; errors name the file and the key."""

from pathlib import Path

import pytest

from generator.core.config import MAX_DURATION_SECONDS, load_config, parse_duration
from generator.core.errors import InputError
from generator.core.validation import SHOWN_MAX_CHARS

REPO = Path(__file__).resolve().parent.parent


def write_config(tmp_path, text: str) -> Path:
    path = tmp_path / "site.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        load_config(path)
    message = caught.value.message
    assert "\n" not in message and message.startswith(str(path)), message
    return message


@pytest.mark.parametrize(
    "yaml_text, key",
    [
        ("multiway: {budget: .inf}", "multiway.budget"),
        ("multiway: {budget: .nan}", "multiway.budget"),
        ("multiway: {budget: 99999999999999999999999s}", "multiway.budget"),
        ("multiway: {budget: " + "9" * 400 + "}", "multiway.budget"),
        ("multiway: {budget: 8761h}", "multiway.budget"),
        ("multiway: {budget: true}", "multiway.budget"),
        ("multiway: {checkpoint_every: .nan}", "multiway.checkpoint_every"),
        ("multiway: {checkpoint_every: -.inf}", "multiway.checkpoint_every"),
        ("multiway: {checkpoint_every: 0}", "multiway.checkpoint_every"),
        ("multiway: {target_se: .nan}", "multiway.target_se"),
        ("multiway: {target_se: .inf}", "multiway.target_se"),
        ("multiway: {target_se: true}", "multiway.target_se"),
        ("multiway: {seed: true}", "multiway.seed"),
        ("multiway: {seed: 1.5}", "multiway.seed"),
        ("gpu: {threeway_boards: 0}", "gpu.threeway_boards"),
        ("gpu: {threeway_boards: 1.5}", "gpu.threeway_boards"),
        ("gpu: {threeway_boards: true}", "gpu.threeway_boards"),
        ("gpu: {multiway_target_se: .nan}", "gpu.multiway_target_se"),
        ("gpu: {multiway_target_se: 0.7}", "gpu.multiway_target_se"),
        ("gpu: {boards: 4096}", "gpu: unknown key(s) 'boards'"),
        ("threeway: {boards: 0}", "threeway.boards"),
        ("threeway: {boards: 16777217}", "threeway.boards"),
        ("threeway: {seed: -1}", "threeway.seed"),
        ("threeway: {seed: true}", "threeway.seed"),
        ("threeway: {shard: 1}", "threeway: unknown key(s) 'shard'"),
    ],
)
def test_numbers_must_be_finite_typed_and_in_range(tmp_path, yaml_text, key):
    assert key in load_error(write_config(tmp_path, yaml_text + "\n"))


def test_valid_numbers_still_load(tmp_path):
    config = load_config(write_config(tmp_path, "multiway: {budget: 8760h, checkpoint_every: 0.2s, target_se: 0.0001, seed: 7}\n"))
    assert config.multiway.budget_seconds == MAX_DURATION_SECONDS
    assert (config.multiway.checkpoint_seconds, config.multiway.target_se, config.multiway.seed) == (0.2, 1e-4, 7)


def test_a_run_resolves_the_configuration_and_the_command_line_once(tmp_path):
    """Config values, then the GPU's targets on a GPU, then the command line's overrides; a bad override is refused."""
    from generator.compute.run import resolve_run

    config = load_config(write_config(tmp_path, "threeway: {boards: 8192, seed: 3}\nmultiway: {budget: 90s, seed: 7}\n"
                                                "gpu: {threeway_boards: 32768, multiway_target_se: 0.00002}\n"))
    cpu = resolve_run(config, "cpu")
    assert (cpu.backend, cpu.threeway.boards, cpu.threeway.seed, cpu.multiway.budget_seconds, cpu.multiway.seed) == ("cpu", 8192, 3, 90, 7)
    assert cpu.multiway.target_se == 1e-4 and not cpu.full_pushfold
    gpu = resolve_run(config, "gpu", cluster="tcp://127.0.0.1:8786")  # a cluster's workers hold the GPUs: none needed here
    assert (gpu.backend, gpu.threeway.boards, gpu.multiway.target_se, gpu.full_pushfold) == ("gpu", 32768, 2e-5, True)
    given = resolve_run(config, "cpu", threeway_boards=16, threeway_seed=9, budget_seconds=5.0, target_se=0.01, max_deals=4096,
                        full_pushfold=True)
    assert (given.threeway.boards, given.threeway.seed, given.multiway.budget_seconds, given.multiway.target_se) == (16, 9, 5.0, 0.01)
    assert given.multiway.max_deals == 4096 and given.full_pushfold
    for bad in ({"max_deals": 0}, {"multiway_seed": -1}, {"threeway_shard": 2**63}):
        with pytest.raises(InputError):
            resolve_run(config, "cpu", **bad)


def test_a_quoted_number_is_refused_with_a_hint(tmp_path):
    assert "exponents with a dot" in load_error(write_config(tmp_path, "multiway: {target_se: 1e-4}\n"))


def test_command_line_durations_are_bounded():
    for text in ("99999999999999999999999s", "9" * 400 + "s", "0s"):
        with pytest.raises(InputError, match="--budget must be positive and at most a year"):
            parse_duration(text, "--budget")
    assert parse_duration("1.5h", "--budget") == 5400


@pytest.mark.parametrize(
    "preset, fragment",
    [
        ("{name: x, payouts: [50, .inf]}", "payouts entry 2 must be a finite number"),
        ("{name: x, payouts: [.nan]}", "payouts entry 1 must be a finite number"),
        ("{name: x, payouts: [true, 1]}", "payouts entry 1 must be a number"),
        ("{name: x, payouts: [50, -1]}", "non-negative"),
        ("{name: x, payouts: [50, 50], players: 1}", "2 payouts for 1 players"),
        ("{name: x, mtt: {players: 10000000000, paid: 5}}", "mtt.players must be a positive whole number up to 100,000"),
        ("{name: x, mtt: {players: 10, paid: 20}}", "mtt.paid (20) exceeds"),
    ],
)
def test_icm_presets_are_validated_at_load(tmp_path, preset, fragment):
    message = load_error(write_config(tmp_path, f"icm:\n  presets:\n    - {preset}\n"))
    assert "icm.presets[0] 'x'" in message and fragment in message, message


def test_loaded_presets_are_in_the_form_the_page_embeds():
    presets = load_config(REPO / "content" / "site.yaml").icm_presets
    assert presets[0] == {"name": "50/30/20", "payouts": [50.0, 30.0, 20.0], "players": None}
    mtt = presets[-1]
    assert mtt["players"] == 1000 and len(mtt["payouts"]) == 150 and abs(sum(mtt["payouts"]) - 100) < 1e-9


def test_unreadable_config_is_one_line_naming_the_file(tmp_path):
    binary = tmp_path / "site.yaml"
    binary.write_bytes(bytes(range(256)) * 4)
    assert "not UTF-8 text" in load_error(binary)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    assert "is a directory" in load_error(folder)


def test_quoted_values_in_errors_are_short_and_escaped(tmp_path):
    message = load_error(write_config(tmp_path, f"k\u00a0{'k' * 500}: 1\n"))
    assert "unknown key" in message and len(message) < len(str(tmp_path)) + 2 * SHOWN_MAX_CHARS + 80
    assert message.isprintable(), message


@pytest.mark.parametrize("origin", ["example.org", "ftp://example.org", "https://example.org/atlas", "https://exa mple.org", "https://"])
def test_site_origin_must_be_a_scheme_and_host(tmp_path, origin):
    with pytest.raises(InputError, match="site.origin must be a scheme and host"):
        load_config(write_config(tmp_path, f"site: {{origin: '{origin}'}}\n"))


@pytest.mark.parametrize(("key", "value"), [("origin", "https://ex.org\\n"), ("origin", "https://ex.org\\t"), ("base_url", "/atlas/\\n")])
def test_a_trailing_newline_is_refused_not_written_into_every_address(tmp_path, key, value):
    """YAML's double-quoted "\\n" is a real newline; a pattern's "$" would match before it (sitemaps, feeds, og:url)."""
    with pytest.raises(InputError, match=f"site.{key} must be"):
        load_config(write_config(tmp_path, f'site: {{{key}: "{value}"}}\n'))


def test_site_origin_loses_a_trailing_slash(tmp_path):
    config = load_config(write_config(tmp_path, "site: {origin: 'https://example.org/', base_url: /atlas}\n"))
    assert (config.site.origin, config.site.base_url) == ("https://example.org", "/atlas/")


def test_the_shipped_config_shows_the_gpu_defaults():
    """content/site.yaml says its values are the defaults: the GPU targets too."""
    from generator.core.config import GpuSettings

    config = load_config(REPO / "content" / "site.yaml")
    assert config.gpu == GpuSettings()
    assert config.gpu.threeway_boards > 4096 and config.gpu.multiway_target_se < config.multiway.target_se


def test_hostile_input_files_are_one_line_not_memory_or_recursion_errors(tmp_path):
    """An alias bomb (billions of nodes), 100,000 nested "[" (RecursionError) and /dev/urandom (MemoryError after a
    minute) are each refused at once with one line naming the file."""
    bomb = write_config(tmp_path, 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
                                  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nsite: {title: *c}\n")
    assert "aliases (*name) are not allowed" in load_error(bomb)
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 100_000)
    assert "nested deeper than 64 levels" in load_error(deep)
    assert load_error(Path("/dev/urandom")) == "/dev/urandom: larger than 16 MiB (is it the right file?)"
