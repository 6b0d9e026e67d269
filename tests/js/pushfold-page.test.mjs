// The push/fold solver page's pure logic: Python's seat names, file names, cell texts, shares, URL
// format and table_errors fields (the committed goldens of spec/pushfold-page.json, spec/engines/pushfold_page.py),
// and the look-up of a table in the precomputed set (data/pushfold/index.json) and of the nearest one to
// warm-start from.
import { test } from "node:test";
import assert from "node:assert/strict";

import { fieldOfMessage, findPrecomputed, nearestPrecomputed, queryFromState, readTable, stateFromQuery } from "../../templates/assets/js/pages/pushfold-setup.js";
import { formatG } from "../../templates/assets/js/engines/python-format.js";
import { CLASS_NAMES, positionNames, tableErrors } from "../../templates/assets/js/engines/pushfold-solver.js";
import { certificateText, evErrorText, frequencies, frequencyBucket, frequencyText, orderedSpots, shareOfHands, solutionProblem } from "../../templates/assets/js/widgets/pushfold-view.js";

import { gainShort, gainText } from "../../templates/assets/js/widgets/cell-figures.js";
import { golden } from "./golden.mjs";

const fixture = golden("pushfold-page");

test("seat names are kernels.pushfold.position_names", () => {
  for (const [n, names] of Object.entries(fixture.positions)) assert.deepEqual(positionNames(Number(n)), names);
});

test("formatG is Python's f'{x:g}' (the precomputed files' names)", () => {
  for (const [x, text] of fixture.format_g) assert.equal(formatG(x), text, String(x));
});

test("chart cells: the text and colour bucket of generator/site/pushfold_pages.py and charts.bucket", () => {
  for (const [f, text, bucket] of fixture.cells) {
    assert.equal(frequencyText(f), text, `text of ${f}`);
    assert.equal(frequencyBucket(f), bucket, `bucket of ${f}`);
  }
});

test("share of hands and call spots agree with Python; spots are ordered calls first, then overcalls", () => {
  for (const s of fixture.solutions) {
    const byClass = Object.fromEntries(CLASS_NAMES.map((name, i) => [name, s.frequencies[i]]).filter(([, f]) => f > 0));
    assert.ok(Math.abs(shareOfHands(frequencies(byClass)) - s.share) < 1e-12);
    const call = Object.fromEntries([...s.call_spots].reverse().map((spot) => [spot, {}]));
    const { calls, overcalls } = orderedSpots({ positions: s.positions, call });
    assert.deepEqual([...calls, ...overcalls].map((x) => x.spot).sort(), [...s.call_spots].sort());
    assert.ok(calls.every((x) => x.chain.length === 1) && overcalls.every((x) => x.chain.length > 1));
    const seat = (name) => s.positions.indexOf(name);
    for (let k = 1; k < calls.length; k++) {
      const [a, b] = [calls[k - 1], calls[k]];
      assert.ok(seat(a.chain[0]) < seat(b.chain[0]) || (a.chain[0] === b.chain[0] && seat(a.caller) < seat(b.caller)), `${a.spot} before ${b.spot}`);
    }
    for (let k = 1; k < overcalls.length; k++) assert.ok(overcalls[k - 1].chain.length <= overcalls[k].chain.length);
  }
});

test("the URL of Python's pushfold_solver_path reads back to the same query", () => {
  for (const query of fixture.queries) {
    const { state, notes } = stateFromQuery(`?${query}`);
    assert.deepEqual(notes, []);
    assert.equal(queryFromState(state), query);
  }
});

test("a link's seats are kept between 2 and 10, with a note", () => {
  const many = stateFromQuery(`?stacks=${Array(12).fill(8).join(",")}`);
  assert.equal(many.state.stacks.length, 10);
  assert.match(many.notes[0], /12 stacks.*first 10 are kept/);
  const one = stateFromQuery("?stacks=7");
  assert.deepEqual(one.state.stacks, ["7", "7"]);
  assert.equal(one.notes.length, 1);
  assert.deepEqual(stateFromQuery("").state.stacks, ["10", "10", "10"]);
});

test("each message of table_errors is tied to the field it is about, and the page shows the engine's", () => {
  for (const { table, messages, fields } of fixture.bad_tables) {
    assert.deepEqual(messages.map(fieldOfMessage), fields);
    const state = { stacks: table.stacks.map(String), blinds: table.blinds.map(String), ante: String(table.ante), bbAnte: table.bbAnte,
      payouts: table.payouts ? table.payouts.join(", ") : "", bounties: table.bounties ? table.bounties.join(" ") : "",
      share: table.bounties ? String(table.bountyShare) : "" };
    const read = readTable(state, tableErrors);
    assert.deepEqual(read.errors, messages.map((message, k) => ({ field: fields[k], message })));
  }
});

test("readTable names every number that does not read, then passes the table to the engine's checks", () => {
  const state = { stacks: ["10", "x", " "], blinds: ["0.5", "1e999"], ante: "", bbAnte: false, payouts: "50, 3o", bounties: "", share: "" };
  const { table, errors } = readTable(state, () => assert.fail("not called when numbers do not read"));
  assert.equal(table, null);
  assert.deepEqual(errors, [
    { field: "stack-1", message: "Stack of SB: not a number: x" }, { field: "stack-2", message: "Stack of BB: give a number" },
    { field: "blinds", message: "Big blind: must be a finite number, got 1e999" }, { field: "payouts", message: "Payouts: entry 2 is not a number (3o)" },
  ]);
  // one grammar with the ICM pages and the CLI (number-list.js): thousands separators read, payouts too
  const thousands = { stacks: ["10,000", "8,000", "12,000"], blinds: ["250", "500"], ante: "", bbAnte: false, payouts: "5,000 3,000 2,000",
    bounties: "", share: "" };
  assert.deepEqual(readTable(thousands, () => []).table,
    { stacks: [10000, 8000, 12000], blinds: [250, 500], ante: 0, bbAnte: false, payouts: [5000, 3000, 2000] });
  assert.equal(queryFromState(thousands), "stacks=10000,8000,12000&blinds=250,500&ante=0&bbante=0&payouts=5000,3000,2000");
  const good = { stacks: ["10", "8", "12"], blinds: ["0.5", "1"], ante: "", bbAnte: true, payouts: "50% 30% 20%", bounties: "", share: "" };
  let seen = null;
  const read = readTable(good, (t) => { seen = t; return ["stack 8 bb of seat 2 does not cover its blind and ante (9 bb)"]; });
  assert.deepEqual(seen, { stacks: [10, 8, 12], blinds: [0.5, 1], ante: 0, bbAnte: true, payouts: [50, 30, 20] });
  assert.equal(read.table, null);
  assert.deepEqual(read.errors, [{ field: "stack-1", message: "stack 8 bb of seat 2 does not cover its blind and ante (9 bb)" }]);
  assert.deepEqual(readTable(good, () => []).table, seen);
});

test("bounties: read with the ICM pages' reader and messages, kept in the URL, passed to the engine as bounties and bountyShare", () => {
  const state = { stacks: ["10", "8", "12"], blinds: ["0.5", "1"], ante: "", bbAnte: false, payouts: "50, 30, 20", bounties: "10 10 20", share: "50%" };
  assert.deepEqual(readTable(state, () => []).table,
    { stacks: [10, 8, 12], blinds: [0.5, 1], ante: 0, bbAnte: false, payouts: [50, 30, 20], bounties: [10, 10, 20], bountyShare: 0.5 });
  const query = queryFromState(state);
  assert.equal(query, "stacks=10,8,12&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20&bounties=10,10,20&share=50%25");
  const back = stateFromQuery(`?${query}`).state;
  assert.deepEqual([back.bounties, back.share], ["10, 10, 20", "50%"]);
  assert.equal(queryFromState(back), query);
  const refused = (changes) => readTable({ ...state, ...changes }, () => assert.fail("not called")).errors;
  assert.deepEqual(refused({ payouts: "50% 30% 20%" }), [{ field: "bounties",
    message: "bounties: give the payouts as amounts in the unit of the bounties, not as percentages of the pool" }]);
  assert.deepEqual(refused({ bounties: "", share: "0.5" }), [{ field: "share", message: "bounty share needs bounties (one bounty per player)" }]);
  assert.deepEqual(refused({ share: "150%" }), [{ field: "share", message:
    "bounty share: 150% is outside 0 to 1 (0% to 100%): the part of a bounty paid in cash at a knockout, 1 for a regular KO, 0.5 for a typical PKO" }]);
  assert.deepEqual(refused({ bounties: "1 x 2" }), [{ field: "bounties", message: "bounties: entry 2 is not a number (x)" }]);
  assert.equal(queryFromState({ ...state, bounties: "", share: "50%" }), "stacks=10,8,12&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20");
});

const INDEX = { groups: [
  { id: "3p-chipev", players: 3, ante: 0, bb_ante: false, payouts: null, blinds: [0.5, 1], stacks: [5, 7.5, 10, 12.5], stack_sets: null },
  { id: "3p-bba1-chipev", players: 3, ante: 1, bb_ante: true, payouts: null, blinds: [0.5, 1], stacks: [10], stack_sets: null },
  { id: "3p-icm-65-35", players: 3, ante: 0, bb_ante: false, payouts: [65, 35], blinds: [0.5, 1], stacks: [10, 20], stack_sets: null },
  { id: "3p-icm-65-35-mixed", players: 3, ante: 0, bb_ante: false, payouts: [65, 35], blinds: [0.5, 1], stacks: null, stack_sets: [[15, 10, 5], [5, 10, 15]] },
] };
const table = (stacks, extra = {}) => ({ stacks, blinds: [0.5, 1], ante: 0, bbAnte: false, payouts: null, ...extra });

test("findPrecomputed: equal stacks on the grid, unequal examples, the same game in other units", () => {
  assert.equal(findPrecomputed(INDEX, table([12.5, 12.5, 12.5])).path, "pushfold/3p-chipev/12.5.json");
  assert.equal(findPrecomputed(INDEX, table([25, 25, 25], { blinds: [1, 2] })).path, "pushfold/3p-chipev/12.5.json");
  assert.equal(findPrecomputed(INDEX, table([10, 10, 10], { ante: 1, bbAnte: true })).path, "pushfold/3p-bba1-chipev/10.json");
  assert.equal(findPrecomputed(INDEX, table([10, 10, 10], { ante: 1, bbAnte: false })), null); // an ante for every seat is another game
  assert.equal(findPrecomputed(INDEX, table([5, 10, 15], { payouts: [6.5, 3.5, 0] })).path, "pushfold/3p-icm-65-35-mixed/1.json");
  assert.equal(findPrecomputed(INDEX, table([20, 20, 20], { payouts: [50, 30, 20] })), null);
  assert.equal(findPrecomputed(INDEX, table([11, 11, 11])), null);
  assert.equal(findPrecomputed(INDEX, table([10, 10, 10, 10])), null);
  assert.equal(findPrecomputed(null, table([10, 10, 10])), null);
  // the set has no bounty tables: a table with bounties is solved in the browser, from no start; zero bounties are none
  assert.equal(findPrecomputed(INDEX, table([10, 10, 10], { bounties: [1, 1, 1], bountyShare: 0.5 })), null);
  assert.equal(nearestPrecomputed(INDEX, table([11, 11, 11], { bounties: [0, 0, 1] })), null);
  assert.equal(findPrecomputed(INDEX, table([10, 10, 10], { bounties: [0, 0, 0] })).path, "pushfold/3p-chipev/10.json");
});

test("PKO tables: Python's tables of a set with bounties are found by their bounties, in any units; no other table is", () => {
  assert.ok(fixture.lookups.length >= 28);
  for (const { table, path } of fixture.lookups) {
    assert.equal(findPrecomputed(fixture.lookup_index, table)?.path ?? null, path, JSON.stringify(table));
  }
});

test("nearestPrecomputed: a PKO table starts from the nearest PKO table of its share, never from a table without bounties", () => {
  const index = fixture.lookup_index;
  const pko = (stack, bounty, share = 0.5) => table(Array(4).fill(stack), { ante: 1, bbAnte: true, bounties: Array(4).fill(bounty), bountyShare: share });
  assert.equal(nearestPrecomputed(index, pko(11, 5.5)).path, "pushfold/4p-bba1-chipev-pko50-b50/10.json");
  assert.equal(nearestPrecomputed(index, pko(11, 11)).path, "pushfold/4p-bba1-chipev-pko50-b100/10.json");
  assert.equal(nearestPrecomputed(index, pko(11, 9)).path, "pushfold/4p-bba1-chipev-pko50-b100/10.json"); // Σ|Δ| 4 + 4 × 1 beats 4 + 4 × 3
  assert.equal(nearestPrecomputed(index, pko(11, 5.5, 1)).path, "pushfold/4p-bba1-chipev-ko-b50/12.json");
  assert.equal(nearestPrecomputed(index, table([11, 11, 11, 11], { ante: 1, bbAnte: true })).path, "pushfold/4p-bba1-chipev/10.json");
  const icm = table([11, 11, 11], { payouts: [50, 30, 20], bounties: [20, 20, 20], bountyShare: 0.5 });
  assert.equal(nearestPrecomputed(index, icm).group.id, "3p-icm-50-30-20-pko50-b50");
  assert.equal(nearestPrecomputed(index, { ...icm, bountyShare: 1 }), null);
});

test("nearestPrecomputed: the closest table of the same game, or none", () => {
  const near = nearestPrecomputed(INDEX, table([11, 11, 11]));
  assert.deepEqual([near.path, near.distance], ["pushfold/3p-chipev/10.json", 3]);
  assert.equal(nearestPrecomputed(INDEX, table([14, 10, 6], { payouts: [65, 35] })).path, "pushfold/3p-icm-65-35-mixed/0.json");
  assert.equal(nearestPrecomputed(INDEX, table([18, 18, 18], { payouts: [65, 35] })).path, "pushfold/3p-icm-65-35/20.json");
  assert.equal(nearestPrecomputed(INDEX, table([10, 10, 10], { payouts: [50, 30, 20] })), null);
  assert.equal(nearestPrecomputed(INDEX, table([10, 10, 10, 10])), null);
});

test("solutionProblem names what a damaged solution gets wrong, and passes a good one", () => {
  const good = { positions: ["SB", "BB"], shove: { SB: { AA: 1, "72o": 0.25 } }, call: { "BB vs SB": { AA: 1 } }, exploitability: { bb: 0.001, pool_pct: null } };
  assert.equal(solutionProblem(good), null);
  assert.equal(solutionProblem({ positions: ["SB", "BB"] }), "it has no positions, shove or call ranges");
  assert.equal(solutionProblem({ ...good, shove: { SB: { AA: "1" } } }), 'shove "SB": AA has the probability "1"');
  assert.equal(solutionProblem({ ...good, call: { "BB vs SB": { AA: 1.5 } } }), 'call "BB vs SB": AA has the probability 1.5');
  assert.equal(solutionProblem({ ...good, call: { "BB vs SB": { AKx: 1 } } }), 'call "BB vs SB" names an unknown hand class "AKx"');
});

test("evErrorText: bb for chip EV, % of the pool under ICM, two significant digits, never a bare 0", () => {
  const chip = { positions: ["SB", "BB"], exploitability: { bb: 0.001, pool_pct: null }, ev_se: { SB: 0.00213, BB: 0 } };
  assert.equal(evErrorText(chip), "SB ±0.0021 bb, BB ±0 bb");
  const icm = { positions: ["BTN", "SB", "BB"], exploitability: { bb: null, pool_pct: 0.01 }, ev_se: { BTN: 2.66e-6, SB: 0.05, BB: NaN },
    table: { payouts: [65, 35] } };
  assert.equal(evErrorText(icm), "BTN ±2.7e−6% of the pool, SB ±0.05% of the pool");
  assert.equal(evErrorText({ ...icm, table: undefined }), "BTN ±2.7e−6 prize units, SB ±0.05 prize units");
  assert.equal(evErrorText({ positions: ["SB", "BB"], exploitability: { bb: 0 } }), null);
});

test("certificateText says what Python's certificate_text says: the upper bound first, then what the deals found", () => {
  for (const [certified, players, text] of fixture.certificates) {
    assert.deepEqual(certificateText({ certified_exploitability: certified, positions: Array(players).fill("X") }), text);
  }
  assert.equal(certificateText({ positions: ["SB", "BB"] }), null);
  assert.equal(certificateText({ certified_exploitability: { ...fixture.certificates[0][0], upper95: undefined }, positions: ["SB", "BB"] }), null);
  assert.ok(fixture.certificates.some(([, , t]) => t.title === "Certified on real deals"), "the fixture has a bound that earns the word");
  assert.ok(fixture.certificates.some(([, , t]) => t.title === "Checked on real deals"), "and bounds that do not");
});

test("a hand's gain over folding: two decimals in a wide cell, three characters at most on a phone", () => {
  const figures = [3.3, 0.85, -0.02, 0.04, 1.6, 12.4, -0.5, 150, 0];
  assert.deepEqual(figures.map(gainText), ["+3.3", "+0.85", "−0.02", "+0.04", "+1.6", "+12", "−0.50", "+150", "±0.00"]);
  assert.deepEqual(figures.map(gainShort), ["+3", "+.9", "0", "0", "+2", "+12", "−.5", "+99", "0"]);
  assert.ok(figures.map(gainShort).every((text) => text.length <= 3));
});
