// matchup-table.js reads back matchups.bin exactly as Python wrote it: the committed file spec/matchups.bin.gz
// (the build's exact class table) against the goldens of spec/matchup-table.json (spec/engines/matchup_table.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { CLASS_NAMES, RANKS, SUITS, cardName, className } from "../../templates/assets/js/engines/cards.js";
import { classIndex, parseMatchupTable } from "../../templates/assets/js/engines/matchup-table.js";
import { golden, table } from "./golden.mjs";

const expected = golden("matchup-table");
const buffer = () => table("matchups.bin.gz");

test("Python's counts: the sums over every cell, and each golden cell with equity = (win + tie/2) / (pairs · boards)", () => {
  const parsed = parseMatchupTable(buffer());
  assert.equal(parsed.boards, expected.boards);
  assert.equal(parsed.boards, 1712304);
  for (const key of ["win", "tie", "loss", "pairs"]) {
    assert.equal(parsed[key].flat().reduce((a, b) => a + b, 0), expected.sums[key], `sum of ${key}`);
  }
  for (const cell of expected.cells) {
    const got = Object.fromEntries(["win", "tie", "loss", "pairs", "equity"].map((key) => [key, parsed[key][cell.i][cell.j]]));
    assert.deepEqual(got, { win: cell.win, tie: cell.tie, loss: cell.loss, pairs: cell.pairs, equity: cell.equity }, `${cell.hero} vs ${cell.villain}`);
  }
  parsed.equity.forEach((row, i) => row.forEach((e, j) =>
    assert.equal(e, parsed.pairs[i][j] ? (parsed.win[i][j] + parsed.tie[i][j] / 2) / (parsed.pairs[i][j] * 1712304) : 0)));
});

test("classIndex puts every class name at its index in the data files; cards.js's names are kernels/cards.py's", () => {
  expected.classes.forEach((name, index) => assert.equal(classIndex(name), index, name));
  assert.deepEqual([...CLASS_NAMES], expected.classes);
  expected.classes.forEach((name, index) => assert.equal(className(index), name));
  assert.deepEqual([RANKS, SUITS, cardName(0), cardName(51), cardName(4 * 8 + 2)], ["23456789TJQKA", "cdhs", "2c", "As", "Th"]);
  for (const cell of expected.cells) assert.deepEqual([classIndex(cell.hero), classIndex(cell.villain)], [cell.i, cell.j]);
});

test("a damaged file is refused, not misread", () => {
  const bytes = new Uint8Array(buffer());
  const wrongMagic = bytes.slice();
  wrongMagic[0] = 0;
  assert.throws(() => parseMatchupTable(wrongMagic.buffer), /not a version 1 table/);
  assert.throws(() => parseMatchupTable(bytes.slice(0, bytes.length - 1).buffer), /truncated/);
});
