// The exact class-against-class table from data/matchups.bin, the compact binary twin of
// matchups.json written by the build (generator/data/datafiles.py `matchups_bin`, docs/data-format.md):
// "ALLINMUT", uint32 version, n, boards per combo pair; uint32 win[n·n], uint32 tie[n·n], uint8 pairs[n·n].

export const MAGIC = "ALLINMUT";
export const FORMAT_VERSION = 1;
const HEADER_BYTES = 8 + 3 * 4;

/** matchups.bin → {win, tie, loss, pairs, equity, boards}: n×n nested arrays, as in matchups.json
 *  (equity = (win + tie/2) / (pairs · boards), exact to the double). */
export function parseMatchupTable(buffer) {
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 8));
  const [version, n, boards] = new Uint32Array(buffer.slice(8, HEADER_BYTES));
  if (magic !== MAGIC || version !== FORMAT_VERSION) throw new Error(`matchups.bin: not a version ${FORMAT_VERSION} table`);
  if (buffer.byteLength !== HEADER_BYTES + 9 * n * n) throw new Error("matchups.bin: truncated");
  const win = new Uint32Array(buffer.slice(HEADER_BYTES, HEADER_BYTES + 4 * n * n));
  const tie = new Uint32Array(buffer.slice(HEADER_BYTES + 4 * n * n, HEADER_BYTES + 8 * n * n));
  const pairs = new Uint8Array(buffer, HEADER_BYTES + 8 * n * n, n * n);
  const rows = (at) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => at(i * n + j)));
  return {
    boards,
    win: rows((k) => win[k]),
    tie: rows((k) => tie[k]),
    loss: rows((k) => pairs[k] * boards - win[k] - tie[k]),
    pairs: rows((k) => pairs[k]),
    equity: rows((k) => (pairs[k] ? (win[k] + tie[k] / 2) / (pairs[k] * boards) : 0)),
  };
}

/** Index of a class name in the chart order of the data files (cards.js). */
export { classIndex } from "./cards.js";
