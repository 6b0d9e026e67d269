// flop-table.js reads flops.bin as Python's read_flops_bin does and names flops as generator/site/flop_pages.py does:
// the golden spec/flop-table.json (spec/engines/flop_table.py) holds a small flops.bin written by flops_bin and
// Python's answers.
import { test } from "node:test";
import assert from "node:assert/strict";

import { CardsError } from "../../templates/assets/js/engines/ranges.js";
import {
  flopEquity, flopExtremes, flopLabel, flopParam, flopRows, flopText, parseFlop, parseFlopTable,
} from "../../templates/assets/js/engines/flop-table.js";
import { golden } from "./golden.mjs";

const expected = golden("flop-table");
const bytes = () => {
  const data = Buffer.from(expected.bin, "base64");
  return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
};

test("every field and equity is read_flops_bin's (null: no combo left, NaN here)", () => {
  const table = parseFlopTable(bytes());
  assert.equal(table.count, expected.count);
  assert.equal(table.classes, expected.classes);
  expected.flops.forEach((flop, f) => {
    const got = { cards: table.cards[f], weight: table.weights[f], suits: table.suits[f], pairing: table.pairing[f], straights: table.straights[f], high: table.high[f] };
    assert.deepEqual(got, { cards: flop.cards, weight: flop.weight, suits: flop.suits, pairing: flop.pairing, straights: flop.straights, high: flop.high });
    flop.equity.forEach((e, c) => assert.ok(Object.is(flopEquity(table, f, c), e === null ? NaN : e), `flop ${f}, class ${c}`));
  });
  assert.ok(expected.flops.some((flop) => flop.equity.includes(null)) && expected.flops.some((flop) => flop.equity.includes(1)));
});

test("names, the best and worst class and the spread are Python's", () => {
  const table = parseFlopTable(bytes());
  expected.flops.forEach((flop, f) => {
    const cards = table.cards[f];
    assert.deepEqual([flopParam(cards), flopText(cards), flopLabel(cards)], [flop.param, flop.text, flop.label]);
    const { best, worst, spread } = flopExtremes(table, f);
    assert.deepEqual({ best, worst, spread }, { best: flop.best, worst: flop.worst, spread: flop.spread });
  });
});

test("a typed flop finds its suit-distinct flop in any order and suits; anything but three cards is refused", () => {
  const rowOf = flopRows(parseFlopTable(bytes()));
  for (const [text, row] of expected.lookups) assert.equal(rowOf(parseFlop(text)), row, text);
  for (const text of expected.invalid) assert.throws(() => parseFlop(text), CardsError, text);
});

test("a damaged file is refused, not misread", () => {
  const data = new Uint8Array(bytes());
  assert.throws(() => parseFlopTable(data.slice(0, -1).buffer), /truncated/);
  const wrongMagic = data.slice();
  wrongMagic[0] = 0;
  assert.throws(() => parseFlopTable(wrongMagic.buffer), /not a flop table/);
  const wrongVersion = data.slice();
  wrongVersion[8] = 2;
  assert.throws(() => parseFlopTable(wrongVersion.buffer), /not a version 1 table/);
});
