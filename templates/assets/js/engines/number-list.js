// The one grammar of typed numbers in the browser, the twin of generator/core/numbers.py (goldens in
// spec/number-list.json: lists, numbers, payouts): a list of numbers
// (stacks, payouts, blinds), one number (an ante, a blind, a seat's stack) and payouts that may be
// percentages of the pool. Used by every page that reads typed numbers (ICM, call/fold, push/fold solver).
// Pure ES module: no DOM, safe in a Web Worker.

import { PERCENT_ROUNDING, SHOWN_ENTRY } from "./constants.js";
import { formatG } from "./python-format.js";

// The list grammar, the same as parse_number_list in generator/core/numbers.py (goldens in
// spec/number-list.json): entries are separated by white space, new lines, ';', or a comma next
// to white space or at either end ("500, 300, 200"). A comma between two characters ("10,000") is a
// thousands separator when the list has other separators, and must then group digits by three; in a
// list with no other separator ("500,300,200", the URL form) it separates entries, unless the list is
// digit groups of three of which one after the first starts with 0 ("10,000", "1,050"): no one types a
// stack as "000" or "050", so that reads as one number as much as a list, and is refused.
const SEPARATORS = /[ \t\n\r\f\v\u00a0;]+/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE = /^[+-]?(inf|infinity|nan)$/i;
const GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;

/** An entry for a message: printable ASCII kept, anything else as "?", at most 24 characters (shown_entry). */
export function shownEntry(text) {
  const printable = Array.from(text, (c) => (c >= " " && c <= "~" ? c : "?")).join("");
  return printable.length <= SHOWN_ENTRY ? printable : `${printable.slice(0, SHOWN_ENTRY - 3)}...`;
}

function entryNumber(text, name, index) {
  if (NON_FINITE.test(text)) throw new Error(`${name}: entry ${index} must be a finite number, got ${shownEntry(text)}`);
  if (!NUMBER.test(text)) throw new Error(`${name}: entry ${index} is not a number (${text ? shownEntry(text) : "empty"})`);
  const number = Number(text);
  if (!Number.isFinite(number)) throw new Error(`${name}: entry ${index} must be a finite number, got ${shownEntry(text)}`);
  return number;
}

/** "10,000 5,000 2,500" | "500, 300, 200" | "500,300,200" → numbers; throws Error with one message
 * saying why not (bad entry, bad digit grouping, ambiguous commas). `name` starts the message. */
export function parseNumberList(text, name) {
  const chunks = text.split(SEPARATORS).map((chunk) => chunk.replace(/^,+|,+$/g, "")).filter(Boolean);
  if (chunks.length === 1 && chunks[0].includes(",")) {
    const parts = chunks[0].split(",");
    if (GROUPED.test(chunks[0]) && parts.slice(1).some((part) => part.startsWith("0"))) {
      throw new Error(
        `${name}: "${shownEntry(chunks[0])}" is ambiguous: one number (${shownEntry(parts.join(""))}) or ` +
        `${parts.length} entries (${parts.join(", ")})? Separate entries with a space or a comma and a space ` +
        `(${parts.join(", ")}), or write the number without commas`,
      );
    }
    return parts.map((part, i) => entryNumber(part, name, i + 1));
  }
  return chunks.map((chunk, i) => {
    if (chunk.includes(",")) {
      if (!GROUPED.test(chunk)) {
        throw new Error(
          `${name}: entry ${i + 1} (${shownEntry(chunk)}): a comma inside a number must group digits by ` +
          "three (10,000); separate entries with spaces, new lines or a comma and a space",
        );
      }
      return entryNumber(chunk.replaceAll(",", ""), name, i + 1);
    }
    return entryNumber(chunk, name, i + 1);
  });
}

const PERCENT_SIGN = /%(?=$|[\s;,])/g;
// Percentages typed with rounding add up to 100% give or take a little: a total within PERCENT_ROUNDING
// percentage points of 100 is the whole pool (scaled to exactly 100%), as in generator/core/numbers.py (spec/constants.json).
export { PERCENT_ROUNDING };

/** What adding typed decimals in floating point can be off by (33.3 + 33.3 + 33.3 = 99.89999999999999): the comparisons
 *  with 100 ± PERCENT_ROUNDING allow it (generator/core/numbers.py SUM_SLACK). */
const SUM_SLACK = 1e-9;

/** {values, percent}: parseNumberList's grammar where every entry may instead end in "%" — prizes as
 * percentages of the pool ("50% 30% 20%"; all or none, adding up to at most 100%, within PERCENT_ROUNDING of
 * 100% scaled to exactly 100%), as parse_payouts in
 * generator/cli/icm.py. Throws Error with one message. */
export function parsePayouts(text, name) {
  const signs = (text.match(/%/g) || []).length;
  if (!signs) return { values: parseNumberList(text, name), percent: false };
  const stripped = text.replace(PERCENT_SIGN, "");
  if (stripped.includes("%")) throw new Error(`${name}: a % sign must end an entry (50% 30% 20%)`);
  const values = parseNumberList(stripped, name);
  if (signs !== values.length) throw new Error(`${name}: give every prize as a percentage of the pool (50% 30% 20%) or none`);
  const total = values.reduce((a, b) => a + b, 0);
  if (total > 100 + PERCENT_ROUNDING + SUM_SLACK) {
    throw new Error(
      `${name}: the percentages add up to ${shownTotal(total)}%, more than the whole pool ` +
      `(100%, give or take ${formatG(PERCENT_ROUNDING)} for rounding)`,
    );
  }
  if (Math.abs(total - 100) <= PERCENT_ROUNDING + SUM_SLACK) return { values: values.map((value) => (value * 100) / total), percent: true };
  return { values, percent: true };
}

/** `total` with the fewest decimals that still show it above 100 + PERCENT_ROUNDING (never "100"). */
function shownTotal(total) {
  for (let decimals = 0; decimals <= 16; decimals++) {
    const shown = total.toFixed(decimals);
    if (Number(shown) > 100 + PERCENT_ROUNDING + SUM_SLACK) return shown;
  }
  return String(total);
}

/** One number, typed as a list entry is ("10,000", "2.5e3", " 7 "), where a comma can only group digits
 * by three; throws Error saying why not, as parse_number in generator/core/numbers.py. */
export function parseNumber(text, name) {
  const chunks = text.split(SEPARATORS).filter(Boolean);
  if (!chunks.length) throw new Error(`${name}: give a number`);
  if (chunks.length > 1) throw new Error(`${name}: give one number, got ${chunks.length} entries (${shownEntry(text.trim())})`);
  let chunk = chunks[0];
  if (chunk.includes(",")) {
    if (!GROUPED.test(chunk)) throw new Error(`${name}: give one number (${shownEntry(chunk)}): a comma inside a number must group digits by three (10,000)`);
    chunk = chunk.replaceAll(",", "");
  }
  if (!NUMBER.test(chunk) || NON_FINITE.test(chunk)) {
    throw new Error(`${name}: ${NON_FINITE.test(chunk) ? "must be a finite number, got" : "not a number:"} ${shownEntry(chunk)}`);
  }
  const number = Number(chunk);
  if (!Number.isFinite(number)) throw new Error(`${name}: must be a finite number, got ${shownEntry(chunk)}`);
  return number;
}
