// The browser's bounty model (bounty.js, the bounty terms of icm-spot.js, bounty-fields.js) agrees with
// kernels/icm/bounty.py, kernels/icm/spot.py and generator/cli/bounties.py on the committed goldens of
// spec/bounty.json (spec/engines/bounty.py) to 1e-12: values and EVs of the money at stake, bubble factors of
// themselves.
import { test } from "node:test";
import assert from "node:assert/strict";

import { bountyErrors, bubbleFactors, positionValue, stackBounties, validateBounties } from "../../templates/assets/js/engines/bounty.js";
import { modelLine, readBounties, readShare } from "../../templates/assets/js/widgets/bounty-fields.js";
import { callEv, callSpot, shoveEv, shoveSpot } from "../../templates/assets/js/engines/icm-spot.js";

import { golden } from "./golden.mjs";

const fixture = golden("bounty");
const TOLERANCE = 1e-12;
const sum = (values) => values.reduce((a, b) => a + b, 0);
const close = (a, b, scale, label) => assert.ok(Math.abs(a - b) <= TOLERANCE * scale, `${label}: ${a} vs ${b}`);

for (const c of fixture.values) {
  test(`position value agrees with Python: ${c.stacks.length} players, ${c.method}`, () => {
    const money = sum(c.payouts) + sum(c.bounties);
    const value = positionValue(c.stacks, c.payouts, c.bounties, { method: c.method });
    assert.equal(value.method, c.method_used);
    for (const key of ["prize", "bounty", "total"]) value[key].forEach((v, i) => close(v, c[key][i], money, `${key}[${i}]`));
  });
}

for (const c of fixture.bubble) {
  test(`bubble factors with bounties agree with Python: ${c.stacks.length} players, share ${c.share}, ${c.method}`, () => {
    const result = bubbleFactors(c.stacks, c.payouts, c.bounties, c.share, { method: c.method });
    assert.equal(result.method, c.method_used);
    result.equity.forEach((v, i) => close(v, c.equity[i], sum(c.payouts) + sum(c.bounties), `equity[${i}]`));
    for (const [key, scaled] of [["bubbleFactor", "bubble_factor"], ["requiredEquity", "required_equity"], ["riskPremium", "risk_premium"]]) {
      result[key].forEach((row, i) => row.forEach((v, j) => {
        const expected = c[scaled][i][j];
        if (expected === null) assert.equal(v, null, `${key}[${i}][${j}] is undefined in Python`);
        else close(v, expected, key === "bubbleFactor" ? Math.abs(expected) : 1, `${key}[${i}][${j}]`);
      }));
    }
  });
}

test("a bubble factor with bounties falls below 1: 79/93 of docs/icm.md", () => {
  const result = bubbleFactors([5000, 3000, 2000], [50, 30, 20], [10, 10, 20], 0.5);
  close(result.bubbleFactor[0][2], 79 / 93, 1, "BF[1][3]");
});

/** kernels/icm/spot.py's keyword arguments as icm-spot.js's spot object. */
function spotOf(kwargs) {
  const names = { small_blind: "smallBlind", big_blind: "bigBlind", ante: "ante", big_blind_ante: "bigBlindAnte",
    shover: "shover", caller: "caller", small_blind_player: "smallBlindPlayer", big_blind_player: "bigBlindPlayer" };
  return Object.fromEntries(Object.entries(kwargs).map(([key, value]) => [names[key], value]));
}

for (const c of fixture.spots) {
  test(`${c.side} spot with bounties agrees with Python: ${c.stacks.join(" ")}, share ${c.share}`, () => {
    const money = sum(c.payouts) + sum(c.bounties);
    const options = { bounties: c.bounties, bountyShare: c.share };
    const spot = (c.side === "call" ? callSpot : shoveSpot)(c.stacks, c.payouts, spotOf(c.spot), options);
    for (const key of ["equity", "bounty", "total"]) {
      for (const [outcome, value] of Object.entries(c[key])) close(spot[key][outcome], value, money, `${key} ${outcome}`);
    }
    const ev = (values) => (c.side === "call" ? callEv(values, c.probabilities) : shoveEv(values, c.call_probability, c.probabilities));
    close(ev(spot.total), c.ev, money, "EV");
    close(ev(spot.equity), c.ev_icm, money, "EV, ICM part");
    if (c.side === "call") {
      close(spot.requiredIcm, c.required_icm, 1, "equity needed under ICM");
      close(spot.requiredTotal, c.required_total, 1, "equity needed with bounties");
    }
  });
}

test("without bounties a spot's total is its ICM equity, bit for bit", () => {
  const c = fixture.spots[0];
  const spot = callSpot(c.stacks, c.payouts, spotOf(c.spot));
  assert.deepEqual(spot.total, spot.equity);
  assert.equal(spot.requiredTotal, spot.requiredIcm);
});

test("a bounty on a player all in for the ante is refused as Python refuses it, naming the bounties field", () => {
  const c = fixture.stranded_spot;
  assert.throws(() => callSpot(c.stacks, c.payouts, spotOf(c.spot), { bounties: c.bounties, bountyShare: c.share }),
    { message: c.error, field: "bounties" });
});

for (const c of fixture.invalid) {
  test(`bounty problems are Python's messages: ${c.messages.join("; ")}`, () => {
    assert.deepEqual(bountyErrors(c.stacks, c.bounties, c.share).map((error) => error.message), c.messages);
    assert.throws(() => validateBounties(c.stacks, c.bounties, c.share), { message: c.messages.join("; ") });
  });
}

test("bad bounties come after the field's own problems, as in Python", () => {
  assert.throws(() => positionValue([100, -1], [10], [1]), { message: "stacks: entry 2 is negative (-1)" });
});

for (const c of fixture.typed) {
  test(`typed bounty fields read as Python reads them: ${JSON.stringify([c.bounties_text, c.share_text, c.percent])}`, () => {
    const read = readBounties(c.bounties_text, c.share_text, c.percent);
    if (c.error !== undefined) {
      assert.equal(read.errors[0]?.message, c.error);
    } else {
      assert.deepEqual(read, { bounties: c.bounties, share: c.share, errors: [] });
    }
  });
}

test("every problem of the typed fields is reported, not only the first", () => {
  const read = readBounties("10 x", "150%", false);
  assert.deepEqual(read.errors.map((error) => error.field), ["bounties", "share"]);
});

for (const c of fixture.shares) {
  test(`bounty share typed as Python reads it: ${JSON.stringify(c.text)}`, () => {
    if (c.error !== undefined) assert.throws(() => readShare(c.text), { message: c.error });
    else assert.equal(readShare(c.text), c.share);
  });
}

for (const c of fixture.models) {
  test(`the model's sentence is Python's: ${c.bounties.join(" ")}, share ${c.share}`, () => {
    assert.equal(modelLine(c.bounties, c.share), c.line);
  });
}

test("stackBounties: bounties worth a fraction of each stack at chip value, as stack_bounties in kernels/icm/bounty.py", () => {
  assert.ok(fixture.stack_bounties.length >= 6);
  for (const c of fixture.stack_bounties) {
    const got = stackBounties(c.stacks, c.fraction, c.pool);
    assert.equal(got.length, c.bounties.length);
    got.forEach((x, i) => assert.ok(Math.abs(x - c.bounties[i]) <= 1e-12 * Math.max(1, Math.abs(c.bounties[i])), `${c.stacks}: ${x} vs ${c.bounties[i]}`));
  }
});
