// The browser evaluator agrees with the Python one on the committed goldens of spec/evaluator.json
// (spec/engines/evaluator.py), on the site's lookup tables (spec/evaluator-tables.bin.gz).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  BOARDS_PER_MATCHUP, RANKS, SUITS, comboMatchup, conflict, matchup, parseHand, parseTables, strength,
} from "../../templates/assets/js/engines/evaluator.js";
import { golden, table } from "./golden.mjs";

const fixture = golden("evaluator");
const tables = parseTables(table("evaluator-tables.bin.gz"));
const cardIds = (text) => text.match(/../g).map(([rank, suit]) => 4 * RANKS.indexOf(rank) + SUITS.indexOf(suit));

test("every golden hand has Python's strength", () => {
  const wrong = fixture.hands.filter(([cards, expected]) => strength(tables, cardIds(cards)) !== expected);
  assert.ok(fixture.hands.length > 2000);
  assert.deepEqual([5, 6, 7].map((size) => fixture.hands.filter(([cards]) => cards.length === 2 * size).length > 500), [true, true, true]);
  assert.deepEqual(wrong.slice(0, 5), []);
});

test("the golden hands reach both ends of the scale", () => {
  const strengths = fixture.hands.map(([, s]) => s);
  assert.deepEqual([Math.min(...strengths), Math.max(...strengths)], [1, 7462]);
});

for (const { a, b, cards, win, tie, loss } of fixture.matchups) {
  test(`${a} against ${b}: exact counts of combo_matchup_counts`, (t) => {
    const started = performance.now();
    assert.deepEqual(comboMatchup(tables, cards[0], cards[1]), { win, tie, loss });
    t.diagnostic(`${a} vs ${b} in ${(performance.now() - started).toFixed(0)} ms`);
  });
}

test("a combo against a class sums the card-compatible pairs and reports progress", () => {
  const hero = parseHand("AsKs");
  const queens = parseHand("QQ");
  const fractions = [];
  const result = matchup(tables, hero.combos, queens.combos, (f) => fractions.push(f));
  assert.equal(result.pairs, 6);
  assert.equal(result.win + result.tie + result.loss, 6 * BOARDS_PER_MATCHUP);
  const fromFixture = fixture.matchups.find((m) => m.a === "AsKs" && m.b === "QdQc");
  const versusClubsDiamonds = comboMatchup(tables, hero.combos[0], parseHand("QcQd").combos[0]);
  assert.deepEqual(versusClubsDiamonds, { win: fromFixture.win, tie: fromFixture.tie, loss: fromFixture.loss });
  assert.ok(fractions.every((f, i) => f > 0 && f <= 1 && (i === 0 || f > fractions[i - 1])));
  assert.equal(fractions.at(-1), 1);
  const aces = matchup(tables, parseHand("AsAh").combos, parseHand("AA").combos);
  assert.equal(aces.pairs, 1); // only AcAd is left
});

test("parseHand reads combos and classes the way kernels/cards.py does", () => {
  assert.deepEqual(parseHand(" asKs "), { kind: "combo", name: "AsKs", className: "AKs", combos: [[51, 47]] });
  assert.equal(parseHand("7d8c").className, "87o");
  assert.equal(parseHand("QdQc").className, "QQ");
  assert.equal(parseHand("aks").name, "AKs");
  assert.equal(parseHand("KAo").name, "AKo");
  assert.deepEqual([parseHand("AKs"), parseHand("AKo"), parseHand("TT")].map((h) => h.combos.length), [4, 12, 6]);
});

test("invalid hands give a message, never a hand", () => {
  for (const text of ["", "AsAs", "AsKx", "AAs", "KKo", "AK", "1s2s", "AsKsQs", "XYZ"]) {
    const parsed = parseHand(text);
    assert.ok(parsed.error && !parsed.combos, `${JSON.stringify(text)} → ${JSON.stringify(parsed)}`);
  }
  assert.match(parseHand("AsAs").error, /As appears twice/);
  assert.match(conflict(parseHand("AsKs"), parseHand("AsQd")), /share As/);
  assert.equal(conflict(parseHand("AsKs"), parseHand("QdQc")), null);
  assert.equal(conflict(parseHand("AsKs"), parseHand("AKs")), null); // AcKc, AdKd, AhKh are left
  assert.match(conflict(parseHand("AsKh"), parseHand("AsKh")), /share As, Kh/);
});

test("a file that is not the tables is refused", () => {
  assert.throws(() => parseTables(new ArrayBuffer(64)), /not an evaluator tables file/);
});
