"""Sentences of the articles that state facts of the data are rendered from the data: each is rendered from the
repository's article with made-up tables where the fact differs, and the sentence changes with it. The articles'
claims about which table sizes are exact match the data files' own meta."""

from __future__ import annotations

import copy
import html
import re

import pytest

from generator.compute.stages import fourhanded as fourhanded_stage
from generator.compute.stages import headsup as headsup_stage
from generator.compute.stages import threehanded as threehanded_stage
from generator.compute.stages.multiway import document as multiway_document
from generator.data.sitedata import SiteData
from generator.site.articles import load_article
from generator.site.pushfold_pages import certificate_text
from generator.site.shortcodes import Shortcodes
from kernels.cards import CLASS_NAMES
from site_fixtures import (REPO, fourhanded, headsup, matchups, multiway, pushfold, pushfold_charts, pushfold_thresholds,
                           threehanded)

ARTICLES = REPO / "content" / "articles"


@pytest.fixture(scope="module")
def files() -> dict:
    """The synthetic data of every kind, as SiteData takes it."""
    match = matchups()
    heads_up = headsup(match)
    charts = pushfold_charts(((4, [10.0], 0.0, False, None), (4, [10.0], 0.0, False, [50.0, 30.0, 20.0])))
    files = {"matchups": match, "headsup": heads_up, "threehanded": threehanded(heads_up), "fourhanded": fourhanded(heads_up),
             "multiway": multiway(), "pushfold": pushfold(), "pushfold_thresholds": pushfold_thresholds(), "pushfold_charts": charts}
    for name, method in (("headsup", headsup_stage.METHOD), ("threehanded", threehanded_stage.METHOD),
                         ("fourhanded", fourhanded_stage.METHOD), ("multiway", multiway_document.METHOD)):
        files[name]["meta"]["method"] = method  # the stages' own words, which the meta of a real build carries
    return files


def article_text(slug: str, files: dict) -> str:
    """The article ``slug`` rendered from ``files``, as plain text on one line (math as [math])."""
    shortcodes = Shortcodes(SiteData(files), lambda *a, **k: "", root="../../")
    body = load_article(ARTICLES / f"{slug}.md", shortcodes).html
    body = re.sub(r"<math.*?</math>", "[math]", body, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", body)))


def sentence(text: str, start: str) -> str:
    """The sentence of ``text`` that begins with ``start``."""
    at = text.index(start)
    return text[at:text.index(". ", at) + 1]


def test_the_weakest_hand_is_the_data_s(files):
    equity = files["headsup"]["equity"]
    weakest = min(range(len(equity)), key=lambda i: equity[i])
    threshold = files["pushfold_thresholds"]["by_ante"][0]["push_max"][weakest]
    text = sentence(article_text("push-fold-explained", files), "Even ")
    assert text.startswith(f"Even {CLASS_NAMES[weakest]}, the weakest hand against a random hand ({100 * equity[weakest]:.1f}%)")
    assert threshold is None and "is never pushed" in text  # the fixture never pushes its weakest class
    made_up = copy.deepcopy(files)
    aces = CLASS_NAMES.index("AA")
    made_up["headsup"]["equity"][aces] = 0.01  # the made-up table's weakest hand: AA, never folded
    text = sentence(article_text("push-fold-explained", made_up), "Even ")
    assert text.startswith("Even AA, the weakest hand against a random hand (1.0%), is pushed up to at least 25 bb")
    made_up["pushfold_thresholds"]["by_ante"][0]["push_max"][aces] = 1.41
    assert "(1.0%), is pushed up to 1.41 bb (to the nearest 0.01 bb" in article_text("push-fold-explained", made_up)


def test_which_range_is_wider_follows_the_shares(files):
    data = files["pushfold"]
    at10 = data["stacks"].index(10)
    assert data["push_share"][at10] > data["call_share"][at10]
    text = article_text("push-fold-explained", files)
    assert "pushing is wider than calling there" in text
    assert "the push is the wider range at 1–25 bb, the call at no stack" in text  # the fixture pushes wider everywhere
    made_up = copy.deepcopy(files)
    shares = made_up["pushfold"]
    for k, stack in enumerate(shares["stacks"]):
        if stack <= 10:  # the caller wider up to 10 bb, as real short stacks have it
            shares["push_share"][k], shares["call_share"][k] = data["call_share"][k], data["push_share"][k]
    text = article_text("push-fold-explained", made_up)
    assert "pushing is narrower than calling there" in text
    assert "the push is the wider range at 10.5–25 bb, the call at 1–10 bb" in text


def test_who_shoves_more_under_icm_follows_the_charts(files):
    text = sentence(article_text("push-fold-explained", files), "The pusher need not be")
    assert "small blind pushes" in text and "as wide as the" in text  # the fixture's charts do not depend on payouts
    made_up = copy.deepcopy(files)
    icm = next(g for g in made_up["pushfold_charts"]["groups"] if g["payouts"])["charts"][0]
    icm["shove"]["SB"] = [1.0] * len(CLASS_NAMES)
    text = sentence(article_text("push-fold-explained", made_up), "The pusher need not be")
    assert "small blind pushes 100.0% of its hands, wider than the" in text
    icm["shove"]["SB"] = [0.0] * len(CLASS_NAMES)
    text = sentence(article_text("push-fold-explained", made_up), "The pusher need not be")
    assert "small blind pushes 0.0% of its hands, tighter than the" in text


def test_which_tables_are_exact_follows_the_data(files):
    text = article_text("reading-the-charts", files)
    assert "The heads-up, three-handed and four-handed numbers are exact" in text
    assert "Those for 5 to 10 players are Monte Carlo" in text
    without = {key: value for key, value in files.items() if key not in ("threehanded", "fourhanded")}
    text = article_text("reading-the-charts", without)
    assert "The heads-up numbers are exact" in text and "Those for 3 to 10 players are Monte Carlo" in text
    glossary = article_text("glossary", without)
    assert "(in this build: heads-up, see" in glossary and "sample of deals (3 to 10 players)" in glossary


#: Phrases naming table sizes in the articles' prose, and the player counts they name.
SIZES = {
    r"heads-up": {2}, r"three-handed|two random (?:hands|opponents)|(?<!more than )(?<!beyond )three players": {3},
    r"four-handed": {4},
    r"(?:more than|beyond) three players|four players and more": set(range(4, 11)),
    r"two and three players": {2, 3},
}


def exactness_claims(text: str) -> list[tuple[str, set[int], bool]]:
    """``(sentence, player counts, exact?)`` for each sentence that says of table sizes that they are exact, or
    Monte Carlo (sampled, out of reach of an exact count). Sentences about pots, showdowns or solvers (the push/fold
    model's own tables) and sentences that say both are left out."""
    claims = []
    for part in re.split(r"(?<=[.;])\s+", text):
        if re.search(r"all-in|showdown|pot\b|solve|triple|matchup|chart\b.*push", part, re.I):
            continue
        counts = set()
        for pattern, sizes in SIZES.items():
            if re.search(pattern, part, re.I):
                counts |= sizes
        for low, high in re.findall(r"(\d+) to (\d+) players", part):
            counts |= set(range(int(low), int(high) + 1))
        denied = re.search(r"exact[^.]*(?:out of reach|impossible)|not exact", part, re.I)
        exact = bool(re.search(r"\bexact", part, re.I)) and not denied
        sampled = bool(re.search(r"Monte Carlo|(?<!none )(?<!not )sampled|estimates?\b", part, re.I)) or bool(denied)
        if counts and exact != sampled:
            claims.append((part, counts, exact))
    return claims


def exact_sizes(files: dict) -> tuple[set[int], set[int]]:
    """Player counts whose published table is exact / Monte Carlo, from the data files' meta ``method``."""
    exact = {n for n, name in ((2, "headsup"), (3, "threehanded"), (4, "fourhanded"))
             if files.get(name) and "exact" in files[name]["meta"]["method"]}
    sampled = set()
    if files.get("multiway") and "Monte Carlo" in files["multiway"]["meta"]["method"]:
        sampled = {int(n) for n in files["multiway"]["by_players"]} - exact
    return exact, sampled


def test_every_article_s_exactness_claims_match_the_meta(files):
    exact, sampled = exact_sizes(files)
    assert (exact, sampled) == ({2, 3, 4}, set(range(5, 11)))
    seen = 0
    for path in sorted(ARTICLES.glob("*.md")):
        for part, counts, claims_exact in exactness_claims(article_text(path.stem, files)):
            seen += 1
            assert counts <= (exact if claims_exact else sampled), (path.stem, part)
    assert seen >= 5  # the checker finds the claims it is meant to check


def test_the_claims_checker_catches_a_false_claim(files):
    """The old sentence of reading-the-charts, and its reverse, against the meta."""
    exact, sampled = exact_sizes(files)
    for text in ("Heads-up numbers are exact. The three-handed numbers are Monte Carlo estimates.",
                 "The 5 to 10 players numbers are exact, like the heads-up ones."):
        claims = exactness_claims(text)
        assert claims and not all(c <= (exact if e else sampled) for _, c, e in claims), text


@pytest.mark.parametrize(("upper", "players", "title", "says"), [
    (0.311, 2, "Checked on real deals", "heads-up the model is the real game"),
    (4.9, 6, "Checked on real deals", "but not a smaller one such as the stopping rule's 0.01 bb"),
    (0.008, 6, "Certified on real deals", "it rules out an error of the model's equity tables larger than that"),
])
def test_the_real_deal_check_leads_with_its_upper_bound(upper, players, title, says):
    certified = {"unit": "bb", "value": 0.0, "ci95": 0.0, "deals": 131072, "deviations": 0, "upper95": upper}
    words = certificate_text(certified, {"bb": 0.01, "pool_pct": 0.05}, players)
    assert words["title"] == title and says in words["bound"]
    assert words["figure"] == f"at most {upper:.3g} bb per hand"
    assert words["bound"].startswith("the 95% upper bound, from 131,072 real deals")
    assert "0.0000 ± 0.0000" not in words["found"] and "No hand's chart action did worse" in words["found"]
    found = certificate_text({**certified, "deviations": 3, "value": 0.0123, "ci95": 0.0046}, {"bb": 0.01, "pool_pct": 0.05}, players)
    assert found["found"] == "The 3 hand–decision pairs that did gain 0.0123 ± 0.0046 bb (95% interval) by deviating."
