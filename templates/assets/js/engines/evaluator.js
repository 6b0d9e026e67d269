// 7-card hand evaluator and exact heads-up matchups, on the SAME lookup tables as the Python
// evaluator (kernels/evaluator), read from the binary asset written by generator/site/evaluator_asset.py.
//
// A hand is summed card by card: rank-key sum (a plain number, < 2^27), suit counters (start value
// from the file; bit 3 of a counter is set when that suit holds 5+ cards) and the per-suit rank masks
// in two 32-bit words (clubs/diamonds, hearts/spades). Strength 1..7462, higher wins, equal ties.
// Card ids are 4·rank + suit, ranks 23456789TJQKA, suits cdhs (as kernels/cards.py).

import { RANKS, SUITS, cardName } from "./cards.js";

export { RANKS, SUITS };
export const BOARDS_PER_MATCHUP = 1712304; // C(48, 5)

const MAGIC = "ALLINEVT";
const FORMAT_VERSION = 1;
const HEADER_BYTES = 8 + 7 * 4;

/** Parse the bytes of assets/evaluator-tables.bin into typed arrays. */
export function parseTables(buffer) {
  const bytes = new Uint8Array(buffer);
  if (String.fromCharCode(...bytes.subarray(0, 8)) !== MAGIC) throw new Error("not an evaluator tables file");
  const header = new DataView(buffer, 8, HEADER_BYTES - 8);
  const [version, rowShift, suitStart, flushBits, nOffsets, nRankValues, nFlushValues] =
    Array.from({ length: 7 }, (_, i) => header.getUint32(4 * i, true));
  if (version !== FORMAT_VERSION) throw new Error(`evaluator tables format ${version}, expected ${FORMAT_VERSION}`);
  let offset = HEADER_BYTES;
  const take = (Type, length) => {
    const array = new Type(buffer, offset, length);
    offset += length * Type.BYTES_PER_ELEMENT;
    return array;
  };
  const tables = {
    rowShift, suitStart, flushBits,
    rowMask: (1 << rowShift) - 1,
    cardRankKey: take(Uint32Array, 52),
    cardSuits: take(Uint32Array, 52),
    cardMaskLow: take(Uint32Array, 52),
    cardMaskHigh: take(Uint32Array, 52),
    rankOffsets: take(Int32Array, nOffsets),
    rankValues: take(Uint16Array, nRankValues),
    flushValues: take(Uint16Array, nFlushValues),
  };
  if (offset !== buffer.byteLength) throw new Error("evaluator tables file has the wrong length");
  return tables;
}

/** Strength of a hand from its sums: rank-key sum, suit counters (incl. start value), rank-mask words. */
export function strengthOfSums(t, rankKey, suits, maskLow, maskHigh) {
  if (suits & t.flushBits) {
    let suit = 0;
    while (!((suits >>> (4 * suit)) & 8)) suit++;
    const word = suit < 2 ? maskLow : maskHigh;
    return t.flushValues[(word >>> (16 * (suit & 1))) & 0x1fff];
  }
  return rankStrength(t, rankKey);
}

/** Strength of a hand without a flush from its rank-key sum alone. */
export function rankStrength(t, rankKey) {
  return t.rankValues[t.rankOffsets[rankKey >>> t.rowShift] + (rankKey & t.rowMask)];
}

/** Strength (1..7462) of 5, 6 or 7 distinct card ids. */
export function strength(t, cards) {
  let rankKey = 0, suits = t.suitStart, maskLow = 0, maskHigh = 0;
  for (const c of cards) {
    rankKey += t.cardRankKey[c];
    suits += t.cardSuits[c];
    maskLow |= t.cardMaskLow[c];
    maskHigh |= t.cardMaskHigh[c];
  }
  return strengthOfSums(t, rankKey, suits, maskLow, maskHigh);
}

/**
 * Exact result of combo [a, b] against combo [c, d] (four distinct cards) over all 1,712,304 boards:
 * {win, tie, loss} from the first combo's side. `onBoards(n)` is called after every n boards done.
 */
export function comboMatchup(t, [a, b], [c, d], onBoards = () => {}) {
  const key = t.cardRankKey, suit = t.cardSuits, low = t.cardMaskLow, high = t.cardMaskHigh;
  const live = [];
  for (let card = 0; card < 52; card++) if (card !== a && card !== b && card !== c && card !== d) live.push(card);
  const k1 = key[a] + key[b], s1 = t.suitStart + suit[a] + suit[b], l1 = low[a] | low[b], h1 = high[a] | high[b];
  const k2 = key[c] + key[d], s2 = t.suitStart + suit[c] + suit[d], l2 = low[c] | low[d], h2 = high[c] | high[d];
  let win = 0, tie = 0, loss = 0;
  const n = live.length;
  for (let i0 = 0; i0 < n - 4; i0++) {
    const x0 = live[i0];
    const before = win + tie + loss;
    for (let i1 = i0 + 1; i1 < n - 3; i1++) {
      const x1 = live[i1];
      const bk1 = key[x0] + key[x1], bs1 = suit[x0] + suit[x1], bl1 = low[x0] | low[x1], bh1 = high[x0] | high[x1];
      for (let i2 = i1 + 1; i2 < n - 2; i2++) {
        const x2 = live[i2];
        const bk2 = bk1 + key[x2], bs2 = bs1 + suit[x2], bl2 = bl1 | low[x2], bh2 = bh1 | high[x2];
        for (let i3 = i2 + 1; i3 < n - 1; i3++) {
          const x3 = live[i3];
          const bk3 = bk2 + key[x3], bs3 = bs2 + suit[x3], bl3 = bl2 | low[x3], bh3 = bh2 | high[x3];
          for (let i4 = i3 + 1; i4 < n; i4++) {
            const x4 = live[i4];
            const bk = bk3 + key[x4], bs = bs3 + suit[x4], bl = bl3 | low[x4], bh = bh3 | high[x4];
            const first = strengthOfSums(t, k1 + bk, s1 + bs, l1 | bl, h1 | bh);
            const second = strengthOfSums(t, k2 + bk, s2 + bs, l2 | bl, h2 | bh);
            if (first > second) win++;
            else if (first === second) tie++;
            else loss++;
          }
        }
      }
    }
    onBoards(win + tie + loss - before);
  }
  return { win, tie, loss };
}

/** Every pair [first, second] of combos from two lists that share no card. */
export function comboPairs(combosA, combosB) {
  return combosA.flatMap((first) => combosB.filter((second) => !second.some((card) => first.includes(card))).map((second) => [first, second]));
}

/**
 * Exact result of every card-compatible pair of combos from two lists, summed:
 * {win, tie, loss, pairs}. `onProgress(fraction)` reports the share of boards done.
 */
export function matchup(t, combosA, combosB, onProgress = () => {}) {
  const pairs = comboPairs(combosA, combosB);
  const total = pairs.length * BOARDS_PER_MATCHUP;
  const counts = { win: 0, tie: 0, loss: 0, pairs: pairs.length };
  let done = 0;
  for (const [first, second] of pairs) {
    const { win, tie, loss } = comboMatchup(t, first, second, (boards) => onProgress((done += boards) / total));
    counts.win += win;
    counts.tie += tie;
    counts.loss += loss;
  }
  return counts;
}


/** "As" → 51, or null when the text is not a card (rank case-insensitive, suit one of cdhs). */
export function parseCard(text) {
  const rank = RANKS.indexOf(text[0]?.toUpperCase());
  const suit = SUITS.indexOf(text[1]?.toLowerCase());
  return text.length === 2 && rank >= 0 && suit >= 0 ? 4 * rank + suit : null;
}

/** The combos of a class name ("AKs", "AKo", "TT"; also "KAs", "aks"), or null when it is not one. */
function classCombos(text) {
  const high = RANKS.indexOf(text[0]?.toUpperCase());
  const low = RANKS.indexOf(text[1]?.toUpperCase());
  const kind = text.slice(2).toLowerCase();
  if (high < 0 || low < 0) return null;
  const isPair = high === low;
  if (isPair ? kind !== "" : kind !== "s" && kind !== "o") return null;
  const [r1, r2] = [Math.max(high, low), Math.min(high, low)];
  const name = RANKS[r1] + RANKS[r2] + (isPair ? "" : kind);
  const combos = [];
  for (let s1 = 0; s1 < 4; s1++) {
    for (let s2 = isPair ? s1 + 1 : 0; s2 < 4; s2++) {
      if (!isPair && (s1 === s2) !== (kind === "s")) continue;
      combos.push([4 * r1 + s1, 4 * r2 + s2]);
    }
  }
  return { name, combos };
}

/**
 * A hand as typed: two cards ("AsKs") or a class ("AKs", "AKo", "TT").
 * Returns {kind: "combo"|"class", name, className, combos} or {error} with a message to show.
 */
export function parseHand(input) {
  const text = input.trim();
  if (!text) return { error: "Enter two cards (AsKs) or a class (AKs, AKo, TT)." };
  if (text.length === 4) {
    const cards = [parseCard(text.slice(0, 2)), parseCard(text.slice(2))];
    if (cards.every((card) => card !== null)) {
      if (cards[0] === cards[1]) return { error: `${text}: the card ${cardName(cards[0])} appears twice.` };
      const [high, low] = cards[0] >> 2 >= cards[1] >> 2 ? cards : [cards[1], cards[0]];
      const className = high >> 2 === low >> 2 ? RANKS[high >> 2].repeat(2)
        : RANKS[high >> 2] + RANKS[low >> 2] + ((high & 3) === (low & 3) ? "s" : "o");
      return { kind: "combo", name: cards.map(cardName).join(""), className, combos: [cards] };
    }
  }
  const found = classCombos(text);
  if (found) return { kind: "class", name: found.name, className: found.name, combos: found.combos };
  return { error: `${text} is neither two cards (AsKs: ranks ${RANKS}, suits ${SUITS}) nor a class (AKs, AKo, TT).` };
}

/** Why two parsed hands cannot meet (no pair of their combos is free of shared cards), or null. */
export function conflict(handA, handB) {
  if (comboPairs(handA.combos, handB.combos).length) return null;
  const cardsB = handB.combos.flat();
  const shared = [...new Set(handA.combos.flat().filter((card) => cardsB.includes(card)))];
  return `${handA.name} and ${handB.name} share ${shared.map(cardName).join(", ")}: a card exists only once.`;
}
