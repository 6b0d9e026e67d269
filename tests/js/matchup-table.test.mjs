// matchup-table.js reads back matchups.bin exactly as Python wrote it (fixtures by make_matchup_table_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { classIndex, parseMatchupTable } from "../../templates/assets/js/matchup-table.js";

const expected = JSON.parse(readFileSync(new URL("./fixtures/matchup-table.json", import.meta.url), "utf8"));
const file = readFileSync(new URL("./fixtures/matchups.bin", import.meta.url));
const buffer = () => file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);

test("every count of Python's class table, and equity = (win + tie/2) / (pairs · boards)", () => {
  const table = parseMatchupTable(buffer());
  assert.equal(table.boards, 1712304);
  for (const key of ["win", "tie", "loss", "pairs"]) assert.deepEqual(table[key], expected[key], key);
  table.equity.forEach((row, i) => row.forEach((e, j) =>
    assert.equal(e, (expected.win[i][j] + expected.tie[i][j] / 2) / (expected.pairs[i][j] * 1712304))));
});

test("classIndex puts every class name at its index in the data files", () => {
  expected.classes.forEach((name, index) => assert.equal(classIndex(name), index, name));
});

test("a damaged file is refused, not misread", () => {
  const bytes = new Uint8Array(buffer());
  const wrongMagic = bytes.slice();
  wrongMagic[0] = 0;
  assert.throws(() => parseMatchupTable(wrongMagic.buffer), /not a version 1 table/);
  assert.throws(() => parseMatchupTable(bytes.slice(0, bytes.length - 1).buffer), /truncated/);
});
