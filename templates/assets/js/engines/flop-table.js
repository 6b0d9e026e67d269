// The precomputed all-flop table from data/flops.bin (generator/data/datafiles.py `flops_bin`, read back in Python
// by `read_flops_bin`; docs/data-format.md): each of the 169 classes' equity against one random hand on each of the
// 1,755 suit-distinct flops, with the flops' weights and textures. Little-endian: "ALLINFLP", uint32 version, flop
// count F, class count n; per flop 7 × uint8 (three card ids, weight, suits, pairing, straights); uint16 equity[F·n]
// (flop-major), round(equity × 65534), 65535 where no combo of the class is left.
// Also how the site names a flop (generator/site/flop_pages.py): "A♥K♦7♣", in words, and as the URL's "AhKd7c".
// Pure ES module: no DOM.

import { RANKS, SUITS } from "./cards.js";
import { orbitCode } from "./flops.js";
import { CardsError, parseCards } from "./ranges.js";

export const MAGIC = "ALLINFLP";
export const FORMAT_VERSION = 1;
export const SCALE = 65534;
export const NONE = 65535;
const HEADER_BYTES = 8 + 3 * 4;
const ROW_BYTES = 7;
export const SUIT_TEXTURES = ["rainbow", "two-tone", "monotone"];
export const PAIRINGS = ["unpaired", "paired", "trips"];
const SUIT_SYMBOLS = "♣♦♥♠";
const RANK_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const SUIT_WORDS = ["clubs", "diamonds", "hearts", "spades"];

/**
 * flops.bin → {count, classes, cards: [[a, b, c], ...] (sorted card ids, as stored), weights, suits, pairing,
 * straights, high (Uint8Array(count) each; suits and pairing index SUIT_TEXTURES and PAIRINGS, high the highest rank
 * 0..12), equity: Float64Array(count · classes), flop-major, NaN where no combo is left}: Python's read_flops_bin.
 */
export function parseFlopTable(buffer) {
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, Math.min(8, buffer.byteLength)));
  if (magic !== MAGIC || buffer.byteLength < HEADER_BYTES) throw new Error("flops.bin: not a flop table");
  const [version, count, classes] = new Uint32Array(buffer.slice(8, HEADER_BYTES));
  if (version !== FORMAT_VERSION) throw new Error(`flops.bin: not a version ${FORMAT_VERSION} table`);
  if (buffer.byteLength !== HEADER_BYTES + ROW_BYTES * count + 2 * count * classes) throw new Error("flops.bin: truncated");
  const rows = new Uint8Array(buffer, HEADER_BYTES, ROW_BYTES * count);
  const column = (k) => Uint8Array.from({ length: count }, (_, f) => rows[ROW_BYTES * f + k]);
  const cards = Array.from({ length: count }, (_, f) => Array.from(rows.subarray(ROW_BYTES * f, ROW_BYTES * f + 3)));
  const stored = new Uint16Array(buffer.slice(HEADER_BYTES + ROW_BYTES * count));
  return {
    count, classes, cards,
    weights: column(3), suits: column(4), pairing: column(5), straights: column(6),
    high: Uint8Array.from(cards, (flop) => Math.max(...flop) >> 2),
    equity: Float64Array.from(stored, (e) => (e === NONE ? NaN : e / SCALE)),
  };
}

/** Card ids highest first (rank, then suit): the order the site writes a flop in. */
export const displayOrder = (cards) => [...cards].sort((a, b) => b - a);

/** "AhKd7c": the flop in the flop table page's ?flop=. */
export const flopParam = (cards) => displayOrder(cards).map((c) => RANKS[c >> 2] + SUITS[c & 3]).join("");

/** "A♥K♦7♣". */
export const flopText = (cards) => displayOrder(cards).map((c) => RANKS[c >> 2] + SUIT_SYMBOLS[c & 3]).join("");

/** "ace of hearts, king of diamonds, seven of clubs": the flop in words, for screen readers. */
export const flopLabel = (cards) => displayOrder(cards).map((c) => `${RANK_WORDS[c >> 2]} of ${SUIT_WORDS[c & 3]}`).join(", ");

/** The flop's cards highest first as [rank character, suit symbol, suit index] (for drawing red and black suits). */
export const flopCards = (cards) => displayOrder(cards).map((c) => [RANKS[c >> 2], SUIT_SYMBOLS[c & 3], c & 3]);

/** Three distinct cards typed or in a URL ("AsKd7c", any order) → card ids; throws CardsError. */
export function parseFlop(text) {
  const cards = parseCards(text, "Flop");
  if (cards.length !== 3) throw new CardsError(`Flop: a flop is 3 cards (e.g. AsKd7c), got ${cards.length}`);
  return cards;
}

/** Row lookup of a parsed table: the suit-distinct flop (its row) that three card ids belong to. */
export function flopRows(table) {
  const rows = new Map(table.cards.map((cards, f) => [orbitCode(cards), f]));
  return (cards) => rows.get(orbitCode(cards)) ?? null;
}

/** Flop f's equity of class c (NaN: no combo of c is left). */
export const flopEquity = (table, f, c) => table.equity[f * table.classes + c];

/** {best, worst} class indices of flop f and their equities, and spread = best − worst (ties: the lower class index;
 *  classes without a combo left are left out). */
export function flopExtremes(table, f) {
  let best = -1, worst = -1;
  for (let c = 0; c < table.classes; c++) {
    const e = flopEquity(table, f, c);
    if (Number.isNaN(e)) continue;
    if (best < 0 || e > flopEquity(table, f, best)) best = c;
    if (worst < 0 || e < flopEquity(table, f, worst)) worst = c;
  }
  const [high, low] = [flopEquity(table, f, best), flopEquity(table, f, worst)];
  return { best, bestEquity: high, worst, worstEquity: low, spread: high - low };
}
