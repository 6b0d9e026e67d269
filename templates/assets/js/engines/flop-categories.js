// Hit categories of a two-card hand on a board of 3, 4 or 5 cards (definitions in docs/flop.md): the twin of
// kernels/flop/categories.py, checked against it on the goldens of spec/flop-categories.json.
//
// madeCategory: the index into MADE_CATEGORIES (strongest first, one per hand); drawMask: bit i set for each
// draw DRAWS[i] (flop and turn only); classHitCounts: every class's categories and draws over its 19,600 flops;
// rangeHitTable: a weighted range on one board, with dead cards. Straight flush, quads, full house, flush and
// straight, and the river's "the board plays", come from the evaluator's strengths (engines/evaluator.js, on the
// parsed lookup tables `t`); the rest from counting ranks and suits. Pure ES module: no DOM.

import { parseCard, strength } from "./evaluator.js";
import { COMBOS, COMBO_CLASS } from "./ranges.js";

/** The made categories, strongest first; madeCategory returns an index into it. */
export const MADE_CATEGORIES = Object.freeze([
  "straight flush", "quads", "full house", "flush", "straight", "set", "trips", "two pair", "overpair",
  "top pair", "second pair", "weak pair", "underpair", "no made hand",
]);
const [STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, SET, TRIPS, TWO_PAIR, OVERPAIR, TOP_PAIR, SECOND_PAIR,
  WEAK_PAIR, UNDERPAIR, NO_MADE_HAND] = MADE_CATEGORIES.keys();
/** The draws; bit i of drawMask is DRAWS[i]. A nut flush draw is also a flush draw. */
export const DRAWS = Object.freeze([
  "flush draw", "nut flush draw", "backdoor flush draw", "open-ended", "gutshot", "combo draw", "two overcards",
]);
const [FLUSH_DRAW, NUT_FLUSH_DRAW, BACKDOOR_FLUSH_DRAW, OPEN_ENDED, GUTSHOT, COMBO_DRAW, TWO_OVERCARDS] = DRAWS.keys();
/** Flops that can come against one hand: C(50, 3). */
export const FLOPS_PER_HAND = 19600;

// The evaluator's categories (kernels/evaluator/tables.py CATEGORY_NAMES order) and the weakest hand of each, whose
// strength is the category's lowest (Python's category_floor; the goldens hold both to it).
const [EVAL_STRAIGHT, EVAL_FLUSH, EVAL_FULL_HOUSE, EVAL_QUADS, EVAL_STRAIGHT_FLUSH] = [4, 5, 6, 7, 8];
const WEAKEST = ["7d5c4d3s2c", "2c2d5h4s3c", "3c3d2h2s4c", "2c2d2h4s3c", "5c4d3h2sAc", "7c5c4c3c2c", "2c2d2h3s3c",
  "2c2d2h2s3c", "5c4c3c2cAc"];
const floors = new WeakMap();

/** Lowest strength of each of the evaluator's 9 categories (high card … straight flush) on the tables `t`. */
export function categoryFloor(t) {
  if (!floors.has(t)) floors.set(t, WEAKEST.map((hand) => strength(t, hand.match(/../g).map(parseCard))));
  return floors.get(t);
}

/** Highest rank (0..12) of the best straight within a 13-bit rank mask, -1 if none; the wheel is 5-high (3). */
export function straightHigh(ranks) {
  const extended = (ranks << 1) | ((ranks >> 12) & 1); // bit 0: the ace played low; bit r + 1: rank r
  const runs = extended & (extended >> 1) & (extended >> 2) & (extended >> 3) & (extended >> 4);
  for (let low = 9; low >= 0; low--) if ((runs >> low) & 1) return low + 3;
  return -1;
}

const boardRankCount = (rank, board) => board.reduce((n, c) => n + ((c >> 2) === rank), 0);
const boardRanks = (board) => board.reduce((ranks, c) => ranks | (1 << (c >> 2)), 0);

/** How many distinct ranks of the 13-bit mask lie above `rank`. */
function ranksAbove(rank, ranks) {
  let count = 0;
  for (let r = rank + 1; r < 13; r++) count += (ranks >> r) & 1;
  return count;
}

/** Index into MADE_CATEGORIES of the hand `first, second` on `board` (3, 4 or 5 card ids, none a hole card). */
export function madeCategory(t, first, second, board) {
  const hand = strength(t, [first, second, ...board]);
  if (board.length === 5 && hand <= strength(t, board)) return NO_MADE_HAND; // the board plays
  const highRank = Math.max(first >> 2, second >> 2), lowRank = Math.min(first >> 2, second >> 2);
  const onHigh = boardRankCount(highRank, board), onLow = boardRankCount(lowRank, board);
  const floor = categoryFloor(t);
  let category = EVAL_STRAIGHT_FLUSH;
  while (hand < floor[category]) category--;
  if (category === EVAL_STRAIGHT_FLUSH) return STRAIGHT_FLUSH;
  if (category === EVAL_QUADS) {
    // four of a kind with a hole card of its rank; else the quads lie on the board and the ranks decide below
    if ((highRank === lowRank && onHigh === 2) || onHigh === 3 || onLow === 3) return QUADS;
  } else if (category === EVAL_FULL_HOUSE) return FULL_HOUSE;
  else if (category === EVAL_FLUSH) return FLUSH;
  else if (category === EVAL_STRAIGHT) return STRAIGHT;
  const ranks = boardRanks(board);
  if (highRank === lowRank) {
    if (onHigh === 1) return SET;
    const above = ranksAbove(highRank, ranks), distinct = ranksAbove(-1, ranks);
    if (above === 0) return OVERPAIR;
    if (above === distinct) return UNDERPAIR;
    return above === 1 ? SECOND_PAIR : WEAK_PAIR;
  }
  if (onHigh >= 2 || onLow >= 2) return TRIPS;
  if (onHigh && onLow) return TWO_PAIR;
  if (onHigh || onLow) {
    const above = ranksAbove(onHigh ? highRank : lowRank, ranks);
    return above === 0 ? TOP_PAIR : above === 1 ? SECOND_PAIR : WEAK_PAIR;
  }
  return NO_MADE_HAND;
}

/** Draws of the hand `first, second` on `board`: bit i set for DRAWS[i]; 0 on a river. */
export function drawMask(first, second, board) {
  if (board.length >= 5) return 0;
  const onBoard = boardRanks(board);
  const ranks = onBoard | (1 << (first >> 2)) | (1 << (second >> 2));
  const madeStraight = straightHigh(ranks) >= 0;
  let madeFlush = false, drawing = 0;
  for (let suit = 0; suit < 4; suit++) {
    const suited = board.reduce((n, c) => n + ((c & 3) === suit), 0);
    const held = ((first & 3) === suit) + ((second & 3) === suit);
    madeFlush ||= suited + held >= 5;
    if (held && suited + held === 4) { // four of a suit among at most 6 cards: no flush in another suit
      drawing |= 1 << FLUSH_DRAW;
      let top = 12; // the highest card of the suit not on the board
      while (board.includes(4 * top + suit)) top--;
      if (first === 4 * top + suit || second === 4 * top + suit) drawing |= 1 << NUT_FLUSH_DRAW;
    }
    if (board.length === 3 && held === 2 && suited === 1) drawing |= 1 << BACKDOOR_FLUSH_DRAW;
  }
  if (!madeStraight) {
    let outs = 0; // ranks that give the hand a higher straight than the board and that card alone
    for (let rank = 0; rank < 13; rank++) {
      if (!((ranks >> rank) & 1) && straightHigh(ranks | (1 << rank)) > straightHigh(onBoard | (1 << rank))) outs++;
    }
    if (outs >= 2) drawing |= 1 << OPEN_ENDED;
    else if (outs === 1) drawing |= 1 << GUTSHOT;
  }
  if ((drawing >> FLUSH_DRAW) & 1 && drawing & ((1 << OPEN_ENDED) | (1 << GUTSHOT))) drawing |= 1 << COMBO_DRAW;
  const lowestHole = Math.min(first >> 2, second >> 2);
  if (first >> 2 !== second >> 2 && lowestHole > 31 - Math.clz32(onBoard) && !madeFlush && !madeStraight) {
    drawing |= 1 << TWO_OVERCARDS; // both above the board, no pair, straight or flush: no made hand
  }
  return drawing;
}

/** How many of the 19,600 flops give the hand `first, second` each made category and each draw:
 *  {made: (14) counts, draws: (7) counts}. */
export function comboHitCounts(t, first, second) {
  const made = new Array(MADE_CATEGORIES.length).fill(0), draws = new Array(DRAWS.length).fill(0);
  const deck = [];
  for (let card = 0; card < 52; card++) if (card !== first && card !== second) deck.push(card);
  for (let i = 0; i < 48; i++) {
    for (let j = i + 1; j < 49; j++) {
      for (let k = j + 1; k < 50; k++) {
        const board = [deck[i], deck[j], deck[k]];
        made[madeCategory(t, first, second, board)]++;
        const drawing = drawMask(first, second, board);
        for (let d = 0; d < DRAWS.length; d++) draws[d] += (drawing >> d) & 1;
      }
    }
  }
  return { made, draws };
}

/** One combo per class (169 [a, b] card pairs): the first of the class in COMBOS (Python's class_representatives). */
export function classRepresentatives() {
  const first = new Array(169).fill(null);
  COMBOS.forEach((combo, i) => (first[COMBO_CLASS[i]] ??= combo));
  return first;
}

/** Every class's counts over its 19,600 flops: {made: 169 rows of 14, draws: 169 rows of 7}, rows in class order.
 *  One representative per class: a relabelling of the suits maps any combo of a class and its flops onto another's. */
export function classHitCounts(t) {
  const rows = classRepresentatives().map(([first, second]) => comboHitCounts(t, first, second));
  return { made: rows.map((row) => row.made), draws: rows.map((row) => row.draws) };
}

/**
 * The hit table of a weighted range on `board` (3, 4 or 5 card ids) with `dead` card ids; `combos`: [a, b] card pairs,
 * `weights`: one each. Combos of weight 0 or holding a board or dead card are left out. Returns {kept (positions in
 * the input), combos, weights, made, draws (per combo left), madeWeight (14), drawWeight (7), total, madeShare,
 * drawShare}, weights summed in combo order; throws an Error for a board of another size, a repeated card, or no
 * combo left (the messages of kernels/flop/categories.py).
 */
export function rangeHitTable(t, combos, weights, board, dead = []) {
  if (board.length < 3 || board.length > 5) throw new Error(`a board has 3, 4 or 5 cards, got ${board.length}`);
  const taken = [...board, ...dead];
  if (new Set(taken).size !== taken.length) throw new Error("the board and dead cards repeat a card");
  const kept = combos.flatMap(([a, b], i) => (weights[i] > 0 && !taken.includes(a) && !taken.includes(b) ? [i] : []));
  if (!kept.length) throw new Error("no combo of the range is left: each one holds a board or dead card, or has weight 0");
  const madeWeight = new Array(MADE_CATEGORIES.length).fill(0), drawWeight = new Array(DRAWS.length).fill(0);
  const made = [], draws = [];
  let total = 0;
  for (const i of kept) {
    const [first, second] = combos[i], weight = weights[i];
    made.push(madeCategory(t, first, second, board));
    draws.push(drawMask(first, second, board));
    madeWeight[made.at(-1)] += weight;
    for (let d = 0; d < DRAWS.length; d++) if ((draws.at(-1) >> d) & 1) drawWeight[d] += weight;
    total += weight;
  }
  return {
    kept, combos: kept.map((i) => combos[i]), weights: kept.map((i) => weights[i]), made, draws, madeWeight, drawWeight,
    total, madeShare: madeWeight.map((w) => w / total), drawShare: drawWeight.map((w) => w / total),
  };
}
