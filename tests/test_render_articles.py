"""Articles: front matter errors name file and line; math, code and shortcodes render as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.articles import load_article, render_body
from generator.errors import InputError
from generator.render import SiteRenderer
from generator.shortcodes import Shortcodes
from generator.sitedata import SiteData
from site_fixtures import site_config, write_synthetic_data

GOOD_FRONT = "---\ntitle: T\ndate: 2026-01-01\nsummary: S\n---\n"


def echo(name, args, options):
    return f"[{name} {' '.join(args)} {options}]"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "post.md"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("title: T\n", 1, "front matter missing"),
        ("---\ntitle: T\n", 1, "not closed"),
        ("---\ntitle: T\ndate: 2026-01-01\nsummary: [unclosed\n---\nbody\n", 5, "not valid YAML"),
        ("---\ntitle: T\nsummary: S\n---\n", 1, "missing 'date'"),
        ("---\ntitle: T\nsummary: S\ndate: yesterday\n---\n", 4, "'date' must be a date"),
        ("---\ntitle: T\ndate: 2026-01-01\nsummary: S\ntags: ICM\n---\n", 5, "'tags' must be a list"),
        ("---\ntitle: T\ndate: 2026-01-01\nsummary: S\nauthor: me\n---\n", 5, "unknown key 'author'"),
    ],
)
def test_front_matter_errors_name_file_and_line(tmp_path, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        load_article(path, echo)
    assert caught.value.message.startswith(f"{path}:{line}: ")
    assert message in caught.value.message


def test_article_fields(tmp_path):
    article = load_article(write(tmp_path, GOOD_FRONT.replace("---\n", "---\ntags: [a, b]\n", 1) + "Hello *world*\n"), echo)
    assert (article.slug, article.title, article.summary, article.tags) == ("post", "T", "S", ("a", "b"))
    assert "<em>world</em>" in article.html


def test_math_becomes_mathml_and_escaped_dollars_stay():
    html = render_body("Inline $x^2$ costs \\$5.\n\n$$\\int_0^1 t\\,dt$$\n", "a.md", 1, echo)
    assert html.count("<math") == 2 and 'display="block"' in html
    assert "&#36;5" in html and "$" not in html


def test_code_is_left_alone():
    html = render_body("Use `$x$` and `{{< equity AA 2 >}}`.\n\n```\n$$ not math $$\n```\n", "a.md", 1, echo)
    assert "<math" not in html and "[equity" not in html
    assert "<code>$x$</code>" in html and "$$ not math $$" in html


def test_block_shortcode_replaces_its_paragraph():
    html = render_body("Text\n\n{{< chart players=6 >}}\n\nMore {{< equity AA 2 >}} here.\n", "a.md", 1, lambda *a: "<div>X</div>" if a[0] == "chart" else "85%")
    assert "<p><div>" not in html and "<div>X</div>" in html and "More 85% here." in html


def test_shortcode_error_names_file_and_line(tmp_path):
    path = write(tmp_path, GOOD_FRONT + "one\n\ntwo `{{< nope >}}`\n\nthree {{< nope >}}\n")
    with pytest.raises(InputError, match=rf"^{path}:10: shortcode .*unknown shortcode 'nope'"):
        load_article(path, Shortcodes(SiteData({}), lambda *a, **k: "", root="../../"))


def test_bad_math_names_file_and_line(tmp_path):
    path = write(tmp_path, GOOD_FRONT + "ok\n\n$x^$\n")
    with pytest.raises(InputError, match=rf"^{path}:8: math .*MissingSuperScript"):
        load_article(path, echo)


@pytest.fixture(scope="module")
def shortcodes(tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("sc")
    write_synthetic_data(site_dir / "data")
    renderer = SiteRenderer(site_config(), site_dir)
    return Shortcodes(renderer.data, renderer.render_partial, root="../../")


def test_shortcodes_render_live_numbers(shortcodes):
    data = shortcodes.data
    assert shortcodes("equity", ["AA", "2"], {}) == f"{100 * data.headsup['equity'][0]:.1f}%"
    assert shortcodes("equity", ["aks", "6"], {"digits": "2"}) == f"{100 * data.tables[6].equity[1]:.2f}%"
    assert shortcodes("matchup", ["AA", "KK"], {}) == f"{100 * data.matchups['equity'][0][14]:.1f}%"
    assert shortcodes("fact", ["boards"], {}) == "1,712,304"
    assert shortcodes("fact", ["cv_gain"], {"players": "6"}) == "4.0×"
    assert shortcodes("fact", ["gain"], {"players": "6"}) == "5.0×"
    assert shortcodes("hand", ["T9s"], {}) == '<a href="../../hands/T9s/index.html">T9s</a>'
    chart = shortcodes("chart", [], {"players": "6"})
    assert chart.count('data-i="') == 169 and 'href="../../hands/AA/index.html"' in chart
    assert shortcodes("table", [], {"players": "10", "top": "3"}).count("<tr>") == 4


@pytest.mark.parametrize(
    ("name", "args", "options", "message"),
    [
        ("equity", ["AX", "2"], {}, "not a hand class"),
        ("equity", ["AA", "11"], {}, "players must be between 2 and 10"),
        ("equity", ["AA"], {}, "usage"),
        ("chart", [], {}, "needs players=N"),
        ("fact", ["speed"], {}, "unknown fact 'speed'"),
    ],
)
def test_shortcode_argument_errors(shortcodes, name, args, options, message):
    with pytest.raises(InputError, match=message):
        shortcodes(name, args, options)


def test_bubble_shortcodes_are_the_engines_numbers(shortcodes):
    from kernels.icm import bubble_factors

    field = {"stacks": "4000,3000,2000,1000", "payouts": "50,30,20"}
    result = bubble_factors([4000, 3000, 2000, 1000], [50, 30, 20])
    assert shortcodes("bubble_value", [], {**field, "row": "2", "col": "3"}) == f"{result.bubble_factor[1, 2]:.2f}"
    assert shortcodes("bubble_value", [], {**field, "row": "2", "col": "3", "show": "required"}) == f"{100 * result.required_equity[1, 2]:.1f}%"
    assert shortcodes("bubble_value", [], {**field, "row": "2", "col": "3", "show": "premium"}) == f"{100 * result.risk_premium[1, 2]:+.1f} points"
    assert shortcodes("bubble_value", [], {**field, "row": "1", "col": "1"}) == "–"
    table = shortcodes("bubble", [], field)
    assert table.count("<tr>") == 5 and f"<td title=\"needs {100 * result.required_equity[3, 0]:.1f}% to call" in table
    assert shortcodes("section", ["icm-spot"], {}) == '<a href="../../icm/spot/index.html">Call/fold</a>'
    for name, options, message in [
        ("bubble", {"stacks": "1,2"}, "needs stacks="),
        ("bubble_value", {**field, "row": "5", "col": "1"}, "row must be between 1 and 4"),
        ("bubble_value", {**field, "row": "1", "col": "2", "show": "odds"}, "show must be"),
        ("bubble", {"stacks": "1,2", "payouts": "0,0"}, "every prize is zero"),
    ]:
        with pytest.raises(InputError, match=message):
            shortcodes(name, [], options)
    with pytest.raises(InputError, match="unknown section"):
        shortcodes("section", ["nowhere"], {})
