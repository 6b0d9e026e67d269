"""Articles: Markdown files with YAML front matter, math rendered to MathML, shortcodes expanded.

A file ``content/articles/<slug>.md`` starts with::

    ---
    title: How the heads-up numbers are computed
    date: 2026-11-20
    summary: One sentence for the list and the feed.
    tags: [exact, heads-up]
    ---

Body syntax on top of Markdown: ``$…$`` inline and ``$$…$$`` display math (LaTeX, converted at
build time by latex2mathml; a display formula sits in a focusable ``div.formula`` that scrolls
sideways when it is wider than the screen, as every table does in its ``div.table-scroll``; ``\\$`` is a
literal dollar sign), and shortcodes
``{{< name arg key=value >}}`` expanded by a :class:`generator.site.shortcodes.Shortcodes`.
Code spans and fenced code blocks are left alone. Every error names the file and line.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import markdown
import yaml
from latex2mathml.converter import convert as latex_to_mathml

from generator.core.errors import InputError
from generator.core.validation import read_text

FRONT_MATTER_KEYS = {"title": str, "date": dt.date, "summary": str, "tags": list}
REQUIRED_KEYS = ("title", "date", "summary")

_CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$|`+[^`\n]*`+", re.MULTILINE | re.DOTALL)
_SHORTCODE = re.compile(r"\{\{<\s*([A-Za-z_][\w-]*)((?:\s+[^\s>]+)*)\s*>\}\}")
_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
#: A Markdown table sits in a focusable box that scrolls sideways when the table is wider than the screen.
_TABLE_BOX = '<div class="table-scroll" role="group" tabindex="0" aria-label="Table">'
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\s)([^$\n]+?)(?<![\s\\])\$(?!\$)")


@dataclass(frozen=True)
class Article:
    slug: str
    title: str
    date: dt.date
    summary: str
    tags: tuple[str, ...]
    html: str
    source: str


def _fail(source: str, line: int, message: str) -> InputError:
    return InputError(f"{source}:{line}: {message}")


def split_front_matter(text: str, source: str) -> tuple[dict, str, int]:
    """Return (front matter, body, line number of the body's first line), validated."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise _fail(source, 1, "front matter missing: the file must start with a line '---'")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise _fail(source, 1, "front matter not closed: add a line '---' after it")
    block = "".join(lines[1:end])
    try:
        node = yaml.compose(block)
        meta = yaml.safe_load(block) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark else 2
        raise _fail(source, line, f"front matter is not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(meta, dict):
        raise _fail(source, 2, "front matter must be a mapping of keys (title, date, summary, tags)")
    key_lines = {k.value: k.start_mark.line + 2 for k, _ in node.value} if node is not None else {}
    _check_front_matter(meta, key_lines, source)
    return meta, "".join(lines[end + 1 :]), end + 2


def _check_front_matter(meta: dict, key_lines: dict, source: str) -> None:
    for key in REQUIRED_KEYS:
        if key not in meta:
            raise _fail(source, 1, f"front matter: missing '{key}' (required: {', '.join(REQUIRED_KEYS)})")
    for key, value in meta.items():
        line = key_lines.get(key, 1)
        expected = FRONT_MATTER_KEYS.get(key)
        if expected is None:
            raise _fail(source, line, f"front matter: unknown key '{key}' (allowed: {', '.join(FRONT_MATTER_KEYS)})")
        if expected is dt.date and (not isinstance(value, dt.date) or isinstance(value, dt.datetime)):
            raise _fail(source, line, f"front matter: 'date' must be a date like 2026-11-20, got {value!r}")
        if expected is list and not (isinstance(value, list) and all(isinstance(t, str) for t in value)):
            raise _fail(source, line, "front matter: 'tags' must be a list of words, e.g. [ICM, math]")
        if expected is str and (not isinstance(value, str) or not value.strip()):
            raise _fail(source, line, f"front matter: '{key}' must be non-empty text")


class _Stash:
    """Holds finished HTML out of Markdown's reach behind opaque tokens."""

    def __init__(self, tag: str):
        self.tag = tag
        self.items: list[str] = []
        self.token = re.compile(f"\u2063{tag}(\\d+)\u2063")

    def put(self, fragment: str) -> str:
        self.items.append(fragment)
        return f"\u2063{self.tag}{len(self.items) - 1}\u2063"

    def restore(self, text: str) -> str:
        """Put the fragments back; a token alone in a paragraph replaces the paragraph."""
        text = re.sub(f"<p>{self.token.pattern}</p>", lambda m: self.items[int(m.group(1))], text)
        return self.token.sub(lambda m: self.items[int(m.group(1))], text)


def _line_of(body: str, position: int, first_line: int) -> int:
    return first_line + body.count("\n", 0, position)


def render_body(body: str, source: str, first_line: int, shortcode: Callable[[str, list[str], dict], str]) -> str:
    """Markdown body → HTML: shortcodes, math and code protected from Markdown, then put back."""
    code = _Stash("CODE")
    protected = _CODE.sub(lambda m: code.put(m.group(0)), body)
    done = _Stash("HTML")

    def expand(match: re.Match) -> str:
        line = _line_of(body, _original_position(protected, match.start(), code), first_line)
        args, options = [], {}
        for word in match.group(2).split():
            key, eq, value = word.partition("=")
            if eq:
                options[key] = value
            else:
                args.append(word)
        try:
            return done.put(shortcode(match.group(1), args, options))
        except InputError as exc:
            raise _fail(source, line, f"shortcode {match.group(0)}: {exc.message}") from None

    def math(display: bool) -> Callable[[re.Match], str]:
        def convert(match: re.Match) -> str:
            latex = match.group(1).strip()
            try:
                mathml = latex_to_mathml(latex, display="block" if display else "inline")
            except Exception as exc:  # latex2mathml raises many exception types for bad input
                line = _line_of(body, _original_position(protected, match.start(), code), first_line)
                reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                raise _fail(source, line, f"math ${latex}$ cannot be converted ({reason})") from None
            return done.put(f'<div class="formula" role="group" tabindex="0" aria-label="Formula">{mathml}</div>' if display else mathml)

        return convert

    text = _SHORTCODE.sub(expand, protected)
    text = _DISPLAY_MATH.sub(math(True), text)
    text = _INLINE_MATH.sub(math(False), text).replace("\\$", "&#36;")
    text = code.restore(text)
    converted = markdown.markdown(text, extensions=["extra", "sane_lists"], output_format="html")
    converted = converted.replace("<table>", _TABLE_BOX + "<table>").replace("</table>", "</table></div>")
    return done.restore(converted)


def _original_position(protected: str, position: int, code: _Stash) -> int:
    """Map a position in the code-protected text back to the body (for line numbers)."""
    prefix = protected[:position]
    return len(code.restore(prefix))


def load_article(path: Path, shortcode: Callable[[str, list[str], dict], str]) -> Article:
    source = str(path)
    meta, body, first_line = split_front_matter(read_text(path), source)
    return Article(
        slug=path.stem,
        title=meta["title"],
        date=meta["date"],
        summary=meta["summary"],
        tags=tuple(meta.get("tags", ())),
        html=render_body(body, source, first_line, shortcode),
        source=source,
    )


def load_articles(directory: Path, shortcode: Callable[[str, list[str], dict], str]) -> list[Article]:
    """Every ``*.md`` in ``directory``, newest first (then by slug, for a stable order)."""
    articles = [load_article(path, shortcode) for path in sorted(directory.glob("*.md"))]
    return sorted(articles, key=lambda a: (-a.date.toordinal(), a.slug))

