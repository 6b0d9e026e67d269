"""Article math in headless Chromium: set in the shipped STIX Two Math, square roots drawn with
their bar, wide formulas scrolling inside their own focusable box rather than widening the page."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

#: Has square roots, overbars and binomials (in a formula wider than a phone).
ARTICLE = "articles/monte-carlo-and-control-variates/index.html"

#: Given a PNG (base64) and a rectangle in it, the number of dark pixels in each row of the rectangle.
DARK_PER_ROW = """async ([png, left, top, width, height]) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width; canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(left, top, width, height).data;
  const rows = [];
  for (let y = 0; y < height; y++) {
    let dark = 0;
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 3 * 128) dark++;
    }
    rows.push(dark);
  }
  return rows;
}"""


def _math_font_loaded(page) -> bool:
    page.evaluate("document.fonts.ready.then(() => true)")
    return page.evaluate("[...document.fonts].some(f => f.family.includes('STIX Two Math') && f.status === 'loaded')")


def _square_root_drawing(page) -> tuple[float, float]:
    """The first square root, measured in its pixels: (the largest share of dark pixels in a row
    above the radicand: 1 for a bar; the share of the radicand's rows in which the radical sign
    left of it has ink: near 1 when the sign is stretched to the radicand's height)."""
    root = page.locator("msqrt").first
    root.scroll_into_view_if_needed()
    outer, inner = root.bounding_box(), root.locator(":scope > *").first.bounding_box()
    png = base64.b64encode(root.screenshot()).decode()
    left, top = int(inner["x"] - outer["x"]), int(inner["y"] - outer["y"])
    width, height = int(inner["width"]) - 1, int(min(inner["height"], outer["height"] - top)) - 1
    assert top >= 2 and left >= 2, "no room above or left of the radicand for the radical sign"
    above = page.evaluate(DARK_PER_ROW, [png, left, 0, width, top])
    beside = page.evaluate(DARK_PER_ROW, [png, 0, top, left, height])
    return max(above) / width, sum(1 for dark in beside if dark) / height


@pytest.mark.parametrize("width", [390, 1280])
def test_square_roots_have_a_bar_and_the_page_never_scrolls_sideways(open_page, screenshot, width):
    page = open_page(ARTICLE, width=width)
    assert _math_font_loaded(page)
    assert page.locator("msqrt").count() >= 1 and page.locator("mfrac[linethickness='0']").count() >= 3  # binomials
    assert page.locator("mover").count() >= 1  # overbars
    bar, sign = _square_root_drawing(page)
    assert bar >= 0.9 and sign >= 0.8, (bar, sign)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"article-math-{width}")


def test_a_formula_wider_than_the_screen_scrolls_in_its_own_box_by_keyboard(open_page, screenshot):
    page = open_page(ARTICLE, width=320)
    assert _math_font_loaded(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    boxes = page.locator(".formula")
    assert boxes.count() >= 5
    wide = [i for i in range(boxes.count()) if boxes.nth(i).evaluate("e => e.scrollWidth > e.clientWidth")]
    assert wide, "no formula is wider than a 320 px screen: the scroll test needs one"
    box = boxes.nth(wide[0])
    assert box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    assert (box.get_attribute("tabindex"), box.get_attribute("role"), box.get_attribute("aria-label")) == ("0", "group", "Formula")
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("e => e.scrollLeft > 0", arg=box.element_handle())  # keyboard scrolling is animated
    screenshot(page, "article-math-320-scrolled")


ARTICLES = sorted(path.stem for path in (Path(__file__).resolve().parents[2] / "content" / "articles").glob("*.md"))


@pytest.mark.parametrize("slug", ARTICLES)
def test_every_article_fits_a_phone(open_page, screenshot, slug):
    page = open_page(f"articles/{slug}/index.html", width=390)
    page.evaluate("document.fonts.ready.then(() => true)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("article h1").count() == 1 and page.locator("article p").count() >= 3
    screenshot(page, f"article-{slug}-390")


def test_the_cut_math_font_draws_every_formula_as_the_whole_font_does(open_page):
    """The site ships STIX Two Math cut to the formulas' characters (70 KB instead of 1.5 MB): every formula of an
    article with sums, fractions, roots, overbars, scripts and Greek is drawn pixel for pixel as with the whole font
    (served in its place here); without the italic letters it was not (scripts set differently)."""
    from generator.site.math_font import ASSET, SOURCE

    def formulas(page) -> list[bytes]:
        assert _math_font_loaded(page)
        return [page.locator("math").nth(i).screenshot() for i in range(page.locator("math").count())]

    cut = formulas(open_page(ARTICLE))
    page = open_page("index.html")
    page.route(f"**/{ASSET}", lambda route: route.fulfill(body=SOURCE.read_bytes(), content_type="font/ttf"))
    page.goto(page.url.replace("index.html", ARTICLE))
    whole = formulas(page)
    assert len(cut) >= 30 and cut == whole
