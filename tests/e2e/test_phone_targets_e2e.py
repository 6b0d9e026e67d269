"""On a phone (390 px), on every page type: every tap target at least 24 × 24 px or spaced as WCAG 2.2's target-size
rule allows (axe-core's `target-size`: inline links in a sentence are exempt), and no visible text under 12 px."""

from __future__ import annotations

import pytest

from test_a11y_e2e import PAGES

pytestmark = pytest.mark.e2e

#: Visible text set below 12 px: one ``selector  size  "text"`` line per kind of element (tag and classes, size), with
#: the first such text.
SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest("[aria-hidden=true] ~ .visually-hidden, .visually-hidden, script, style, noscript")) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (box.width < 2 || box.height < 2 || style.visibility === "hidden" || style.display === "none" || !element.getClientRects().length) continue;
    const size = parseFloat(style.fontSize);
    if (size < 12) {
      const name = element.tagName.toLowerCase() + (element.className && typeof element.className === "string" ? "." + element.className.trim().split(/\\s+/).join(".") : "");
      const parent = element.parentElement ? element.parentElement.tagName.toLowerCase() + (element.parentElement.className && typeof element.parentElement.className === "string" ? "." + element.parentElement.className.trim().split(/\\s+/)[0] : "") : "";
      const kind = `${parent} > ${name}  ${size.toFixed(1)}px`;
      if (!small.some(line => line.startsWith(kind))) small.push(`${kind}  "${node.textContent.trim().slice(0, 20)}"`);
    }
  }
  return small;
}"""


#: Tap targets smaller than 24 × 24 px that are not links inside a sentence: ``selector  W×H  "text"`` per kind.
SMALL_TARGETS = """() => {
  const small = [];
  const targets = document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])");
  for (const element of targets) {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    if (!element.getClientRects().length || box.width < 1 || style.visibility === "hidden") continue;
    if (element.closest(".visually-hidden, .skip")) continue;  // off-screen until focused (the skip link)
    const inSentence = style.display === "inline" && element.parentElement
      && element.parentElement.textContent.trim().length > element.textContent.trim().length;
    if (inSentence) continue;
    let width = box.width, height = box.height;
    const label = element.id && document.querySelector(`label[for="${element.id}"]`);
    if (label && (element.type === "radio" || element.type === "checkbox")) {  // the label is part of the target
      const area = label.getBoundingClientRect();
      width = Math.max(box.right, area.right) - Math.min(box.left, area.left);
      height = Math.max(box.bottom, area.bottom) - Math.min(box.top, area.top);
    }
    if (width < 23.5 || height < 23.5) {
      const kind = element.tagName.toLowerCase() + (typeof element.className === "string" && element.className ? "." + element.className.trim().split(/\\s+/)[0] : "")
        + (element.type ? `[${element.type}]` : "") + " in " + (element.parentElement ? element.parentElement.tagName.toLowerCase() : "");
      if (!small.some(line => line.startsWith(kind + " "))) small.push(`${kind} ${width.toFixed(0)}×${height.toFixed(0)}  "${(element.textContent || element.value || "").trim().slice(0, 20)}"`);
    }
  }
  return small;
}"""


def test_every_page_type_has_tap_targets_of_24_px_and_text_of_12_px_on_a_phone(open_page, axe_violations, base_url):
    page = open_page("index.html", width=390)
    problems = []
    for path, ready in PAGES:
        page.goto(base_url + path)
        page.wait_for_function(ready, timeout=30000)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # pickers, notes
        problems += [f"{path}: {line}" for line in axe_violations(page, rules=["target-size"])]
        problems += [f"{path}: tap target under 24 px: {line}" for line in page.evaluate(SMALL_TARGETS)]
        problems += [f"{path}: text under 12 px: {line}" for line in page.evaluate(SMALL_TEXT)]
    if problems:
        pytest.fail(f"{len(problems)} problems at 390 px:\n" + "\n".join(problems), pytrace=False)
