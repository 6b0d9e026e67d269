// The push/fold game of a table (kernels/pushfold/game.py): seats and posts, the table's errors, terminals
// with their side pots and payoffs, information sets, the 3-way pots' frames.
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import { bountyEquity, bountyErrors, knockOut, positionValue } from "../bounty.js";
import { icm } from "../icm.js";
import { MAX_SEATS, PUSHFOLD_MAX_STACK_BB } from "../constants.js";
import { formatG } from "../python-format.js";
import { DUEL_ORDERINGS, NO, ORDERINGS, PERMS, STORED, code } from "./model.js";

export { MAX_SEATS };
// ------------------------------------------------------------------------------------------- tables

export function positionNames(n) {
  const early = { 0: [], 1: ["CO"], 2: ["UTG", "CO"], 3: ["UTG", "HJ", "CO"], 4: ["UTG", "LJ", "HJ", "CO"],
    5: ["UTG", "UTG+1", "LJ", "HJ", "CO"], 6: ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"],
    7: ["UTG", "UTG+1", "UTG+2", "MP", "LJ", "HJ", "CO"] };
  return n === 2 ? ["SB", "BB"] : [...early[n - 3], "BTN", "SB", "BB"];
}


function posted(table) {
  const n = table.stacks.length;
  const antes = new Array(n).fill(table.bbAnte ? 0 : table.ante);
  if (table.bbAnte) antes[n - 1] = table.ante;
  const blinds = new Array(n).fill(0);
  [blinds[n - 2], blinds[n - 1]] = table.blinds;
  return { antes, blinds };
}

/** Problems with a table as short sentences (empty when it can be solved): kernels.pushfold.table_errors. */
export function tableErrors(table) {
  const n = table.stacks.length;
  if (!(n >= 2 && n <= MAX_SEATS)) return [`${n} stacks given: push/fold needs 2 to ${MAX_SEATS} players`];
  const errors = [];
  const [small, big] = table.blinds;
  if (!(small >= 0 && small <= big && big > 0)) {
    errors.push(`blinds ${pyFloat(small)}/${pyFloat(big)}: need 0 <= small blind <= big blind and big blind > 0`);
  }
  if (table.ante < 0) errors.push(`ante ${pyFloat(table.ante)} is negative`);
  const { antes, blinds } = posted(table);
  table.stacks.forEach((stack, seat) => {
    const total = antes[seat] + blinds[seat];
    if (!(stack > total)) errors.push(`stack ${formatG(stack)} bb of seat ${seat + 1} does not cover its blind and ante (${formatG(total)} bb)`);
    else if (big > 0 && stack / big > PUSHFOLD_MAX_STACK_BB) { // in big blinds, whatever unit the table is typed in
      errors.push(`stack ${formatG(stack)} of seat ${seat + 1} is ${formatG(stack / big)} big blinds deep, more than ` +
        `${formatG(PUSHFOLD_MAX_STACK_BB)}: push/fold is a model of short stacks`);
    }
  });
  if (table.payouts != null) {
    if (table.payouts.length > n) errors.push(`${table.payouts.length} payouts for ${n} players`);
    const total = table.payouts.reduce((s, p) => s + p, 0); // 1e308 + 1e308 overflows to Infinity
    if (table.payouts.some((p) => p < 0) || !(total > 0 && total < Infinity)) {
      errors.push("payouts must be non-negative with a positive, finite total");
    }
  }
  if (table.bounties != null && Math.max(...table.stacks) > 0) { // a table without chips is refused above
    for (const { message } of bountyErrors(table.stacks, table.bounties, table.bountyShare ?? 1)) errors.push(message);
  }
  return errors;
}

/** Python's str() of a float (1 → "1.0"). */
function pyFloat(x) {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

// ------------------------------------------------------------------------------------------ the game

/** {bounties, cash} after the hand: a seat left without chips is knocked out by `winners[k]` of the last pot layer k
 *  it was in (kernels/pushfold/game.py _knockouts). */
function knockouts(table, final, layers, winners) {
  let held = { bounties: table.bounties.slice(), cash: new Array(final.length).fill(0) };
  final.forEach((chips, seat) => {
    if (chips > 0) return;
    const last = layers.findLastIndex(({ eligible }) => eligible.includes(seat));
    held = knockOut(held.bounties, held.cash, table.bountyShare ?? 1, seat, winners[last]);
  });
  return held;
}

/** {payoff, bounty (its bounty part on a chip-EV table with bounties, else null)} when the hand ends with chips
 *  `final`, pot layer k split by the seats `winners[k]` (game.py _payoff). */
function payoffOf(table, final, layers = [], winners = []) {
  if (table.bounties == null) {
    if (table.payouts == null) return { payoff: final.map((chips, seat) => chips - table.stacks[seat]), bounty: null };
    return { payoff: icm(final.map((chips) => Math.max(chips, 0)), table.payouts, { places: false }).equity, bounty: null };
  }
  const { bounties, cash } = knockouts(table, final, layers, winners);
  if (table.payouts == null) {
    const after = bountyEquity(final, bounties), before = bountyEquity(table.stacks, table.bounties);
    const bounty = cash.map((won, seat) => won + after[seat] - before[seat]);
    return { payoff: final.map((chips, seat) => chips - table.stacks[seat] + bounty[seat]), bounty };
  }
  return { payoff: positionValue(final.map((chips) => Math.max(chips, 0)), table.payouts, bounties, { cash }).total, bounty: null };
}

/** Chips won by each seat of `allIn` (by its index there) from the pot layers given its rank (0 = best; ties split),
 *  and each layer's winners. */
function winnings(layers, allIn, ranks) {
  const won = new Array(allIn.length).fill(0);
  const winners = layers.map(({ amount, eligible }) => {
    const best = Math.min(...eligible.map((s) => ranks[allIn.indexOf(s)]));
    const split = eligible.filter((s) => ranks[allIn.indexOf(s)] === best);
    for (const s of split) won[allIn.indexOf(s)] += amount / split.length;
    return split;
  });
  return { won, winners };
}

function evenSplit(layers, seats, final) {
  for (const { amount, eligible } of layers) {
    const among = eligible.filter((s) => seats.includes(s));
    for (const s of among) final[s] += amount / among.length;
  }
}

function makeTerminal(table, shover, callers) {
  const n = table.stacks.length;
  const { antes, blinds } = posted(table);
  const stacks = table.stacks;
  const base = stacks.map((s, i) => s - antes[i] - blinds[i]);
  if (shover < 0) {
    const final = base.slice();
    final[n - 1] += antes.reduce((a, b) => a + b, 0) + blinds.reduce((a, b) => a + b, 0);
    const { payoff, bounty } = payoffOf(table, final);
    return { shover, callers, allIn: [n - 1], payoff: payoff.map((p) => [p]), layers: [], base, bounty: bounty?.map((b) => [b]) ?? null };
  }
  const allIn = [shover, ...callers];
  const behind = stacks.map((s, i) => s - antes[i]);
  const bets = allIn.map((s) => Math.min(behind[s], behind[shover]));
  allIn.forEach((s, i) => (base[s] = stacks[s] - antes[s] - bets[i]));
  let dead = antes.reduce((a, b) => a + b, 0);
  for (let s = 0; s < n; s++) if (!allIn.includes(s)) dead += blinds[s];
  const levels = [...new Set(bets)].sort((a, b) => a - b);
  const layers = [];
  let previous = 0;
  levels.forEach((level, k) => {
    let amount = 0;
    for (const b of bets) amount += Math.min(b, level) - Math.min(b, previous);
    if (k === 0) amount += dead;
    layers.push({ amount, eligible: allIn.filter((_, i) => bets[i] >= level) });
    previous = level;
  });
  const m = allIn.length;
  const ranks = m === 1 ? [[0]] : m === 2 ? DUEL_ORDERINGS : m === 3 ? ORDERINGS : null;
  const columns = ranks?.length ?? 3;
  const payoff = Array.from({ length: n }, () => new Array(columns));
  const bounty = table.bounties != null && table.payouts == null ? Array.from({ length: n }, () => new Array(columns)) : null;
  const record = (seats, column, outcome) => {
    for (const seat of seats) {
      payoff[seat][column] = outcome.payoff[seat];
      if (bounty) bounty[seat][column] = outcome.bounty[seat];
    }
  };
  const everyone = Array.from({ length: n }, (_, seat) => seat);
  if (ranks) {
    ranks.forEach((rank, o) => {
      const { won, winners } = winnings(layers, allIn, rank);
      const final = base.slice();
      allIn.forEach((s, i) => (final[s] += won[i]));
      record(everyone, o, payoffOf(table, final, layers, winners));
    });
    return { shover, callers, allIn, payoff, layers, base, bounty };
  }
  for (let seat = 0; seat < n; seat++) { // 4+ all-in: (hero scoops, hero wins nothing, even split) per seat
    [true, false].forEach((heroWins, column) => {
      const final = base.slice();
      const rest = [];
      const winners = layers.map(({ amount, eligible }) => {
        const others = eligible.filter((s) => s !== seat);
        if (eligible.includes(seat) && (heroWins || !others.length)) { // its own uncalled excess comes back
          final[seat] += amount;
          return [seat];
        }
        rest.push({ amount, eligible: others });
        return others;
      });
      evenSplit(rest, allIn, final);
      record([seat], column, payoffOf(table, final, layers, winners));
    });
  }
  const final = base.slice();
  evenSplit(layers, allIn, final);
  record(everyone, 2, payoffOf(table, final, layers, layers.map(({ eligible }) => eligible)));
  return { shover, callers, allIn, payoff, layers, base, bounty };
}

function subsets(items) {
  const out = [];
  for (let size = 0; size <= items.length; size++) {
    const pick = (start, chosen) => {
      if (chosen.length === size) return out.push(chosen);
      for (let i = start; i < items.length; i++) pick(i + 1, [...chosen, items[i]]);
    };
    pick(0, []);
  }
  return out;
}

/** Terminals and information sets of a table, in the order of kernels.pushfold.make_game. */
export function makeGame(table) {
  const errors = tableErrors(table);
  if (errors.length) throw new Error(errors.join("; "));
  const n = table.stacks.length;
  const infosets = [];
  for (let seat = 0; seat < n - 1; seat++) infosets.push({ seat, shover: null, before: [] });
  const terminals = [makeTerminal(table, -1, [])];
  const callSets = [];
  for (let shover = 0; shover < n - 1; shover++) {
    const later = Array.from({ length: n - 1 - shover }, (_, i) => shover + 1 + i);
    for (const callers of subsets(later)) terminals.push(makeTerminal(table, shover, callers));
    for (const seat of later) {
      for (const before of subsets(later.filter((s) => s < seat))) callSets.push({ seat, shover, before });
    }
  }
  infosets.push(...callSets);
  const index = new Map(infosets.map((info, i) => [infoKey(info.seat, info.shover, info.before), i]));
  for (const info of infosets) info.path = pathTo(info, index);
  for (const t of terminals) {
    t.decisions = [];
    for (let seat = 0; seat < n; seat++) {
      let decision = null;
      if (t.shover < 0) decision = seat < n - 1 ? { info: seat, action: 0 } : null;
      else if (seat <= t.shover) decision = { info: seat, action: seat === t.shover ? 1 : 0 };
      else decision = { info: index.get(infoKey(seat, t.shover, t.callers.filter((s) => s < seat))), action: t.callers.includes(seat) ? 1 : 0 };
      t.decisions.push(decision);
    }
    t.m = t.allIn.length;
    t.constant = t.payoff.map((row) => row.every((p) => p === row[0]));
    if (t.m === 3 && t.shover >= 0) prepareTriple(t, n);
  }
  return { table, n, terminals, infosets, icmGame: table.payouts != null };
}

/** The other seats' decisions {info, action} on the way to an information set (kernels.pushfold._path_to). */
function pathTo(info, index) {
  if (info.shover === null) return Array.from({ length: info.seat }, (_, s) => ({ info: s, action: 0 }));
  const path = Array.from({ length: info.shover }, (_, s) => ({ info: s, action: 0 }));
  path.push({ info: info.shover, action: 1 });
  for (let s = info.shover + 1; s < info.seat; s++) {
    path.push({ info: index.get(infoKey(s, info.shover, info.before.filter((b) => b < s))), action: info.before.includes(s) ? 1 : 0 });
  }
  return path;
}

function infoKey(seat, shover, before) {
  return shover === null ? `open ${seat}` : `call ${seat} ${shover} ${before.join(",")}`;
}

/** For each seat of a 3-way pot, its frame (itself, then the other two in pot order) and its payoff per
 *  stored ordering under each of the 6 seatings in sorted class order; and every seat's payoff in the pot's frame. */
function prepareTriple(t, n) {
  t.frames = t.allIn.map((seat) => {
    const order = [seat, ...t.allIn.filter((s) => s !== seat)];
    const position = order.map((s) => t.allIn.indexOf(s));
    const framePay = new Float64Array(NO);
    ORDERINGS.forEach((rank, o) => (framePay[code(position.map((i) => rank[i]))] = t.payoff[seat][o]));
    const stored = PERMS.map((_, p) => {
      const pay = new Float64Array(NO);
      for (let o = 0; o < NO; o++) pay[STORED[p][o]] = framePay[o];
      return pay;
    });
    return { seat, others: order.slice(1), framePay, stored };
  });
  t.seatPay = Array.from({ length: n }, (_, seat) => Float64Array.from(t.payoff[seat]));
}
