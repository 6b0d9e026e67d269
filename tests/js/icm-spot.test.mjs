// The browser call/shove engine agrees with kernels/icm/spot.py on the committed goldens of spec/icm-spot.json
// (spec/engines/icm_spot.py), with the class table of spec/matchups.bin.gz.
import { test } from "node:test";
import assert from "node:assert/strict";

import { callSpot, heroAverage, shoveSpot, spotAnswer } from "../../templates/assets/js/engines/icm-spot.js";
import { parseMatchupTable } from "../../templates/assets/js/engines/matchup-table.js";
import { golden, table } from "./golden.mjs";

const fixture = { ...golden("icm-spot"), tables: parseMatchupTable(table("matchups.bin.gz")) };
const TOLERANCE = 1e-12; // of the prize pool (equities, EVs), of a probability or of a chip count

/** kernels/icm/spot.py's keyword arguments as icm-spot.js's spot object. */
function spotOf(kwargs) {
  const names = { small_blind: "smallBlind", big_blind: "bigBlind", ante: "ante", big_blind_ante: "bigBlindAnte",
    shover: "shover", caller: "caller", small_blind_player: "smallBlindPlayer", big_blind_player: "bigBlindPlayer" };
  return Object.fromEntries(Object.entries(kwargs).map(([key, value]) => [names[key], value]));
}

const close = (a, b, scale, label) => assert.ok(Math.abs(a - b) <= TOLERANCE * scale, `${label}: ${a} vs ${b}`);

for (const c of fixture.spots) {
  test(`${c.side} spot agrees with Python: ${c.name}`, () => {
    const pool = c.payouts.reduce((a, b) => a + b, 0);
    const chips = c.stacks.reduce((a, b) => a + b, 0);
    const answer = spotAnswer(c.side, c.stacks, c.payouts, spotOf(c.spot), fixture.tables, c.weights);
    assert.equal(answer.method, c.method);
    for (const [outcome, field] of Object.entries(c.fields)) {
      answer.fields[outcome].forEach((value, i) => close(value, field[i], chips, `field ${outcome}[${i}]`));
      close(answer.equity[outcome], c.equity[outcome], pool, `equity ${outcome}`);
    }
    if (c.side === "call") {
      close(answer.requiredIcm, c.required_icm, 1, "required equity (ICM)");
      close(answer.requiredChips, c.required_chips, 1, "required equity (chips)");
    }
    answer.hands.forEach((hand, h) => {
      ["win", "tie", "lose"].forEach((key, k) => close(hand[key], c.outcomes[h][k], 1, `${key} of class ${h}`));
      if (c.side === "shove") close(hand.call, c.calls[h], 1, `P(call) of class ${h}`);
      close(hand.ev, c.ev[h], pool, `EV of class ${h}`);
    });
    const hero = heroAverage(answer.hands, c.hero_weights);
    for (const key of ["win", "tie", "lose"]) close(hero[key], c.hero[key], 1, `hero ${c.hero_range}: ${key}`);
    close(hero.ev, c.hero.ev, pool, `hero ${c.hero_range}: EV`);
    close(hero.combos, c.hero.combos, 1, `hero ${c.hero_range}: combos`);
    if (c.side === "shove") close(hero.call, c.hero.call, 1, `hero ${c.hero_range}: P(call)`);
    else assert.equal(hero.call, null);
  });
}

for (const c of fixture.invalid) {
  test(`refused as Python refuses it: ${c.error}`, () => {
    assert.throws(() => callSpot(c.stacks, c.payouts, spotOf(c.spot)), { message: c.error });
  });
}

test("a hero range of no class is refused", () => {
  assert.throws(() => heroAverage(fixture.spots[0].ev.map((ev) => ({ win: 0, tie: 0, lose: 1, call: null, ev })), new Array(169).fill(0)),
    { message: "the range is empty" });
});

test("the shover's side of the example: fold field by hand", () => {
  const spot = shoveSpot([1500, 1000, 500], [65, 35], { smallBlind: 1, bigBlind: 2, ante: 0.25, shover: 0, caller: 2 });
  assert.deepEqual(spot.fields.fold, [1498.75, 999.75, 501.5]);
});
