// The 22,100 flops grouped by suit relabelling into 1,755 suit-distinct flops, and their textures (docs/flop.md):
// the browser's twin of kernels/flop/flops.py, in the same order with the same representatives.
//
// A flop's orbit is named by the multiset of its four 13-bit suit rank-masks: the masks sorted in descending
// order and packed, (m0 << 39) | (m1 << 26) | (m2 << 13) | m3, a code below 2^52 (an exact double here).
// Suit-distinct flops are in ascending order of their codes; each is represented by its first flop in the
// lexicographic order of sorted card ids, and weighs the number of flops in its orbit (4, 12 or 24).

export const N_FLOPS = 22100;
export const N_SUIT_DISTINCT_FLOPS = 1755;

/** The orbit code of cards (card ids, any number): their suit masks sorted in descending order, packed. */
export function orbitCode(cards) {
  const masks = [0, 0, 0, 0];
  for (const c of cards) masks[c & 3] |= 1 << (c >> 2);
  masks.sort((a, b) => b - a);
  return ((masks[0] * 8192 + masks[1]) * 8192 + masks[2]) * 8192 + masks[3];
}

let orbits = null;
/**
 * {flops: [[a, b, c], ...] (1755 representatives, sorted card ids), weights: Int32Array(1755), codes:
 * Float64Array(1755), orbitOf: Int16Array(52³) (the suit-distinct flop of the flop a < b < c at (52a + b)·52 + c)}:
 * Python's flop_orbits, computed once.
 */
export function suitDistinctFlops() {
  if (orbits) return orbits;
  const first = new Map(); // code -> [representative, count]
  for (let a = 0; a < 52; a++) {
    for (let b = a + 1; b < 52; b++) {
      for (let c = b + 1; c < 52; c++) {
        const code = orbitCode([a, b, c]);
        const seen = first.get(code);
        if (seen) seen[1]++;
        else first.set(code, [[a, b, c], 1]);
      }
    }
  }
  const codes = Float64Array.from(first.keys()).sort();
  const index = new Map(Array.from(codes, (code, k) => [code, k]));
  const orbitOf = new Int16Array(52 * 52 * 52).fill(-1);
  for (let a = 0; a < 52; a++) {
    for (let b = a + 1; b < 52; b++) {
      for (let c = b + 1; c < 52; c++) orbitOf[(52 * a + b) * 52 + c] = index.get(orbitCode([a, b, c]));
    }
  }
  orbits = {
    flops: Array.from(codes, (code) => first.get(code)[0]),
    weights: Int32Array.from(codes, (code) => first.get(code)[1]),
    codes, orbitOf,
  };
  return orbits;
}

/** The suit-distinct flop (0..1754) of three distinct card ids in any order (Python's orbit_of). */
export function orbitOf(cards) {
  const [a, b, c] = [...cards].sort((x, y) => x - y);
  return suitDistinctFlops().orbitOf[(52 * a + b) * 52 + c];
}

/** How many of the 78 unpaired two-rank holdings make a straight with these board ranks (0..12, A = 12; the
 *  wheel counts the ace low): the flop's "straights" texture (Python's straight_holdings). Rank masks: bit r + 1 for
 *  rank r and bit 0 for the ace played low; a straight is five bits in a row (milliseconds for all 1,755 flops, as
 *  flopReport needs on a page's main thread). */
export function straightHoldings(ranks) {
  const board = ranks.reduce((mask, r) => mask | (1 << r), 0);
  let count = 0;
  for (let first = 0; first < 13; first++) {
    for (let second = first + 1; second < 13; second++) {
      const held = board | (1 << first) | (1 << second), m = (held << 1) | ((held >> 12) & 1);
      if (m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)) count++;
    }
  }
  return count;
}

/** The texture of a flop (docs/flop.md; Python's texture): {suits: "rainbow" | "two-tone" | "monotone", pairing:
 *  "unpaired" | "paired" | "trips", high (rank index 0..12 of the highest card), straights}. */
export function texture(cards) {
  const ranks = cards.map((c) => c >> 2);
  const suits = new Set(cards.map((c) => c & 3)).size, distinct = new Set(ranks).size;
  return {
    suits: { 3: "rainbow", 2: "two-tone", 1: "monotone" }[suits],
    pairing: { 3: "unpaired", 2: "paired", 1: "trips" }[distinct],
    high: Math.max(...ranks),
    straights: straightHoldings(ranks),
  };
}
