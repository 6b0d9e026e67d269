// The committed golden files of spec/ (python -m spec.regenerate writes them from the Python engines; see
// spec/README.md): the node tests read these and nothing a Python build writes, so they run on a fresh clone.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const SPEC = new URL("../../spec/", import.meta.url);

/** spec/<name>.json, parsed. */
export function golden(name) {
  return JSON.parse(readFileSync(new URL(`${name}.json`, SPEC), "utf8"));
}

/** A committed binary table spec/<name> (gzip) as an ArrayBuffer of its own. */
export function table(name) {
  const bytes = gunzipSync(readFileSync(new URL(name, SPEC)));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** The non-zero weights as [[weight, [[first, last], ...]], ...] (spec/engines/ranges.py: weight_runs). */
export function weightRuns(weights) {
  const groups = new Map();
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] === 0) continue;
    let end = i;
    while (end + 1 < weights.length && weights[end + 1] === weights[i]) end++;
    if (!groups.has(weights[i])) groups.set(weights[i], []);
    groups.get(weights[i]).push([i, end]);
    i = end;
  }
  return [...groups].map(([weight, runs]) => [weight, runs]);
}

/** Weights (length n) from weightRuns' form. */
export function fromRuns(runs, n) {
  const weights = new Float64Array(n);
  for (const [weight, spans] of runs) for (const [first, last] of spans) weights.fill(weight, first, last + 1);
  return weights;
}

/** A list of numbers given as a series (spec/engines/icm.py: series), or the list itself. Integer arithmetic
 *  below 2^53 and a division by a power of two: the same doubles as Python's. */
export function series(spec) {
  if (Array.isArray(spec)) return spec;
  const { n, a = 1, b = 0, m = 1, kind, offset = 0, k, divisor = 1, first = [], zero_below: zeroBelow = 0 } = spec;
  const values = [];
  for (let i = 0; i < n; i++) {
    const u = (a * i + b) % m;
    let value;
    if (kind === "mod") value = offset + u;
    else if (kind === "pareto") value = Math.floor(k / (1 + u));
    else if (kind === "squares") value = (offset + n - 1 - i) ** 2;
    else throw new Error(`unknown series kind ${kind}`);
    if (u < zeroBelow) value = 0;
    values.push(value / divisor);
  }
  return [...first, ...values.slice(first.length)];
}

/** values at `rows` (null: all of them). */
export const atRows = (values, rows) => (rows === null ? values : rows.map((i) => values[i]));

/** Σ (1 + i mod 7) · values[i] (spec/engines/icm.py: _weighted_sum). */
export const weightedSum = (values) => values.reduce((sum, v, i) => sum + (1 + (i % 7)) * v, 0);
