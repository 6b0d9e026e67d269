// Call or fold (and shove or fold) against one all-in under ICM: the same engine as
// kernels/icm/spot.py, checked against it on the goldens of spec/icm-spot.json (spec/engines/icm_spot.py).
//
// Pure ES module: no DOM, safe in a Web Worker. Players are 0-based here. The spot (docs/icm.md):
// every player with chips posts the ante, the big blind also the big-blind ante (dead money), the
// blinds are live, everyone else folds, the shover is all in, the caller folds or calls for the
// smaller of the two stacks behind the antes; a tie splits the pot. With bounties (KO/PKO, bounty.js)
// every outcome's value is the ICM equity plus the bounty term, kept apart (`bounty`, `total`).
import { allInBounty, validateBounties } from "./bounty.js";
import { icm, validateField } from "./icm.js";

const N_CLASSES = 169;
const TOO_MANY_CHIPS = "stacks: the chips add up to more than 1.8e308; give the stacks in a larger unit";

/** outcome -> stacks after it ({fold, win, tie, lose}), as spot_fields in kernels/icm/spot.py. */
export function spotFields(stacks, { smallBlind = 0, bigBlind = 0, ante = 0, bigBlindAnte = 0, shover, caller,
  smallBlindPlayer = null, bigBlindPlayer = null }) {
  const n = stacks.length;
  for (const [name, player] of [["shover", shover], ["caller", caller], ["small blind", smallBlindPlayer], ["big blind", bigBlindPlayer]]) {
    if (player !== null && !(player >= 0 && player < n)) throw new Error(`${name}: player ${player + 1} is not in the field of ${n} players`);
  }
  if (!Number.isFinite(stacks.reduce((a, b) => a + b, 0))) throw new Error(TOO_MANY_CHIPS);
  if (shover === caller) throw new Error("the shover and the caller must be different players");
  if (smallBlindPlayer !== null && smallBlindPlayer === bigBlindPlayer) throw new Error("the small and the big blind must be different players");
  if (Math.min(smallBlind, bigBlind, ante, bigBlindAnte) < 0) throw new Error("blinds and antes must be >= 0");
  if (bigBlindAnte > 0 && bigBlindPlayer === null) throw new Error("a big-blind ante needs a player in the big blind");
  const antes = stacks.map((stack) => Math.min(ante, stack));
  if (bigBlindAnte > 0) antes[bigBlindPlayer] += Math.min(bigBlindAnte, stacks[bigBlindPlayer] - antes[bigBlindPlayer]);
  const behind = stacks.map((stack, i) => stack - antes[i]);
  const blinds = new Array(n).fill(0);
  for (const [player, blind] of [[smallBlindPlayer, smallBlind], [bigBlindPlayer, bigBlind]]) {
    if (player !== null) blinds[player] = Math.min(blind, behind[player]);
  }
  if (behind[shover] <= 0) throw new Error(`shover: player ${shover + 1} has no chips left to shove after the ante`);
  if (behind[caller] <= 0) throw new Error(`caller: player ${caller + 1} has no chips left to call with after the ante`);
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  const settled = behind.map((chips, i) => chips - blinds[i]);
  const dead = sum(antes) + sum(blinds) - blinds[shover] - blinds[caller];
  const fold = settled.slice();
  fold[shover] = behind[shover] + sum(antes) + sum(blinds) - blinds[shover];
  const bet = Math.min(behind[shover], behind[caller]);
  const pot = dead + 2 * bet;
  const called = settled.slice();
  called[shover] = behind[shover] - bet;
  called[caller] = behind[caller] - bet;
  const win = called.slice(), tie = called.slice(), lose = called.slice();
  win[caller] += pot;
  tie[caller] += pot / 2;
  tie[shover] += pot / 2;
  lose[shover] += pot;
  return { fold, win, tie, lose };
}

function checkedField(stacks, payouts) {
  const errors = validateField(stacks, payouts);
  if (errors.length) throw new Error(errors.map((error) => error.message).join("; "));
  return [Array.from(stacks, Number), Array.from(payouts, Number)];
}

function withDefaultBlinds(spot) {
  return { ...spot, smallBlindPlayer: spot.smallBlindPlayer ?? spot.shover, bigBlindPlayer: spot.bigBlindPlayer ?? spot.caller };
}

/** The player's ICM equity and chips after each outcome of `fields`. */
function outcomeEquity(fields, payouts, player, method) {
  const equity = {}, chips = {};
  let used = null;
  for (const [outcome, field] of Object.entries(fields)) {
    const result = icm(field, payouts, { method, places: false });
    equity[outcome] = result.equity[player];
    chips[outcome] = field[player];
    used ??= result.method;
  }
  return { equity, chips, method: used };
}

/** outcome -> the hero's bounty value in each field (allInBounty of bounty.js; `beats`: outcome ->
 * [winner, loser]), all 0 when `bounties` is null; as hero_bounty in kernels/icm/spot.py. */
function heroBounty(stacks, fields, bounties, share, beats, hero) {
  if (bounties === null) return Object.fromEntries(Object.keys(fields).map((outcome) => [outcome, 0]));
  const checked = validateBounties(stacks, bounties, share);
  const values = allInBounty(fields, checked.bounties, checked.share, beats);
  return Object.fromEntries(Object.entries(values).map(([outcome, value]) => [outcome, value[hero]]));
}

/** outcome -> ICM equity + bounty value. */
const totalValues = (equity, bounty) => Object.fromEntries(Object.keys(equity).map((outcome) => [outcome, equity[outcome] + bounty[outcome]]));

/** The caller's side (call_spot): {fields, equity, chips, bounty, total, requiredIcm, requiredChips,
 * requiredTotal (with the bounty term), pool, method}. spot: {smallBlind, bigBlind, ante, bigBlindAnte,
 * shover, caller, smallBlindPlayer (default the shover), bigBlindPlayer (default the caller)};
 * bounties (one per player, or null) and bountyShare as in bounty.js. */
export function callSpot(stacks, payouts, spot, { method = "auto", bounties = null, bountyShare = 1 } = {}) {
  const [stackNumbers, prizes] = checkedField(stacks, payouts);
  const fields = spotFields(stackNumbers, withDefaultBlinds(spot));
  const { equity, chips, method: used } = outcomeEquity(fields, prizes, spot.caller, method);
  const bounty = heroBounty(stackNumbers, fields, bounties, bountyShare,
    { win: [spot.caller, spot.shover], lose: [spot.shover, spot.caller] }, spot.caller);
  const total = totalValues(equity, bounty);
  return {
    fields, equity, chips, bounty, total, method: used,
    requiredIcm: (equity.fold - equity.lose) / (equity.win - equity.lose),
    requiredChips: (chips.fold - chips.lose) / (chips.win - chips.lose),
    requiredTotal: (total.fold - total.lose) / (total.win - total.lose),
    pool: prizes.reduce((a, b) => a + b, 0),
  };
}

/** The shover's side (shove_spot): {fields, equity, chips, bounty, total, pool, method} over fold,
 * steal, win, tie, lose; bounties as in callSpot. */
export function shoveSpot(stacks, payouts, spot, { method = "auto", bounties = null, bountyShare = 1 } = {}) {
  const [stackNumbers, prizes] = checkedField(stacks, payouts);
  const blinds = withDefaultBlinds(spot);
  const called = spotFields(stackNumbers, blinds);
  const walk = spotFields(stackNumbers, { ...blinds, shover: spot.caller, caller: spot.shover });
  const fields = { fold: walk.fold, steal: called.fold, win: called.lose, tie: called.tie, lose: called.win };
  const { equity, chips, method: used } = outcomeEquity(fields, prizes, spot.shover, method);
  const bounty = heroBounty(stackNumbers, fields, bounties, bountyShare,
    { win: [spot.shover, spot.caller], lose: [spot.caller, spot.shover] }, spot.shover);
  return { fields, equity, chips, bounty, total: totalValues(equity, bounty), method: used, pool: prizes.reduce((a, b) => a + b, 0) };
}

/** [P(win), P(tie), P(lose)] of every hero class (169) against class `weights` (169), from the exact
 * 169×169 class counts (matchups.json win/tie/loss): card removal is in the counts. */
export function outcomesVsRange({ win, tie, loss }, weights) {
  return Array.from({ length: N_CLASSES }, (_, h) => {
    let w = 0, t = 0, l = 0;
    for (let v = 0; v < N_CLASSES; v++) {
      if (!weights[v]) continue;
      w += win[h][v] * weights[v];
      t += tie[h][v] * weights[v];
      l += loss[h][v] * weights[v];
    }
    const total = w + t + l;
    return total > 0 ? [w / total, t / total, l / total] : [NaN, NaN, NaN];
  });
}

/** P(the caller's hand is in his range | hero class), card removal from matchups.json `pairs`. */
export function callProbability({ pairs }, weights) {
  return Array.from({ length: N_CLASSES }, (_, h) => {
    let inRange = 0, all = 0;
    for (let v = 0; v < N_CLASSES; v++) {
      inRange += pairs[h][v] * weights[v];
      all += pairs[h][v];
    }
    return inRange / all;
  });
}

const CLASS_COMBOS = (index) => {
  const row = Math.floor(index / 13), col = index % 13;
  return row === col ? 6 : col > row ? 4 : 12;
};

/** The hero's range as hero_average in kernels/icm/spot.py: the combo-weighted average of the
 * per-class `hands` of spotAnswer ({win, tie, lose, call, ev, evIcm}), each class weighted by its range
 * weight (`weights`, 169) × its 6 / 4 / 12 combos. Returns {win, tie, lose, call (null on the call
 * side), ev, evIcm, combos (the weighted combo count), classes (indices of the classes in the range)}. */
export function heroAverage(hands, weights) {
  const classes = [];
  let total = 0;
  weights.forEach((w, i) => { if (w > 0) { classes.push(i); total += w * CLASS_COMBOS(i); } });
  if (!classes.length) throw new Error("the range is empty");
  const mean = (key) => classes.reduce((sum, i) => sum + weights[i] * CLASS_COMBOS(i) * hands[i][key], 0) / total;
  return { win: mean("win"), tie: mean("tie"), lose: mean("lose"), call: hands[0].call === null ? null : mean("call"),
    ev: mean("ev"), evIcm: mean("evIcm"), combos: total, classes };
}

/** EV(call) - EV(fold) in payout units for one hand's [win, tie, lose]; `values`: outcome -> value
 * (a spot's `total`, or its `equity` for the ICM part alone). */
export function callEv(values, [win, tie, lose]) {
  return win * values.win + tie * values.tie + lose * values.lose - values.fold;
}

/** EV(shove) - EV(fold) in payout units: P(call) and the hand's [win, tie, lose] when called. */
export function shoveEv(values, call, [win, tie, lose]) {
  const called = win * values.win + tie * values.tie + lose * values.lose;
  return (1 - call) * values.steal + call * called - values.fold;
}

/**
 * The whole answer for one side ("call" | "shove") and a range's class weights (169): the spot, and
 * for every hero class {win, tie, lose, call (shove side), ev, evIcm (the ICM part of ev; the rest is
 * the bounty term)}: what the page and its chart show. `options`: method, bounties, bountyShare.
 */
export function spotAnswer(side, stacks, payouts, spot, tables, weights, options = {}) {
  if (!weights.some((w) => w > 0)) throw new Error("the range is empty");
  const answer = side === "shove" ? shoveSpot(stacks, payouts, spot, options) : callSpot(stacks, payouts, spot, options);
  const outcomes = outcomesVsRange(tables, weights);
  const calls = side === "shove" ? callProbability(tables, weights) : null;
  const hands = outcomes.map((outcome, h) => ({
    win: outcome[0], tie: outcome[1], lose: outcome[2],
    call: calls ? calls[h] : null,
    ev: calls ? shoveEv(answer.total, calls[h], outcome) : callEv(answer.total, outcome),
    evIcm: calls ? shoveEv(answer.equity, calls[h], outcome) : callEv(answer.equity, outcome),
  }));
  if (!hands.every((hand) => Number.isFinite(hand.ev))) throw new Error("the EV is not a finite number for some hand; check the stacks, blinds and range");
  return { ...answer, side, hands };
}
