// The push/fold solver page's pure logic (no DOM; node-tested): seat names, the table as URL state
// (?stacks=10,10,10&blinds=0.5,1&ante=0&bbante=1&payouts=50,30,20[&bounties=2,2,4&share=50%]), reading the
// typed numbers (bounties with bounty-fields.js, the ICM pages' reader), and finding the table, or the nearest
// one, in the precomputed set (data/pushfold/index.json, written by the build: see docs/data-format.md), its PKO
// tables compared bounty by bounty.

import { stackBounties } from "../engines/bounty.js";
import { readBounties } from "../widgets/bounty-fields.js";
import { parseNumber, parseNumberList, parsePayouts } from "../engines/number-list.js";
import { MAX_SEATS, positionNames } from "../engines/pushfold-solver.js";
import { formatG } from "../engines/python-format.js";

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = MAX_SEATS;
export const DEFAULT_STATE = Object.freeze({ stacks: ["10", "10", "10"], blinds: ["0.5", "1"], ante: "0", bbAnte: false, payouts: "",
  bounties: "", share: "" });

const SAME = 1e-9; // relative tolerance when a typed table is compared with a precomputed one

// Every typed number is read by number-list.js, the grammar of the ICM pages and the CLI ("10,000" is a
// stack of ten thousand); the URL holds the numbers read, so that its commas only separate entries.
const urlNumber = (text) => { try { return String(parseNumber(text, "")); } catch { return text.trim(); } };

/** The form's texts from a query string; missing keys take the defaults. Seats beyond 10 are dropped
 *  and a lone seat gets a second one, each with a note saying so (`notes`: sentences to show). */
export function stateFromQuery(search) {
  const params = new URLSearchParams(search);
  const state = { ...DEFAULT_STATE, stacks: [...DEFAULT_STATE.stacks], blinds: [...DEFAULT_STATE.blinds] };
  const notes = [];
  if (params.has("stacks")) {
    const stacks = params.get("stacks").split(",").map((s) => s.trim());
    if (stacks.length > MAX_PLAYERS) notes.push(`The link gave ${stacks.length} stacks; the solver takes ${MAX_PLAYERS} players at most, so the first ${MAX_PLAYERS} are kept.`);
    if (stacks.length < MIN_PLAYERS) notes.push(`The link gave ${stacks.length} stack; push/fold needs ${MIN_PLAYERS} players at least, so a second seat was added.`);
    while (stacks.length < MIN_PLAYERS) stacks.push(stacks[0] || DEFAULT_STATE.stacks[0]);
    state.stacks = stacks.slice(0, MAX_PLAYERS);
  }
  if (params.has("blinds")) {
    const blinds = params.get("blinds").split(",").map((s) => s.trim());
    state.blinds = [blinds[0] ?? "", blinds.slice(1).join(",")];
  }
  if (params.has("ante")) state.ante = params.get("ante").trim();
  if (params.has("bbante")) state.bbAnte = params.get("bbante") === "1";
  if (params.has("payouts")) state.payouts = params.get("payouts").split(",").map((s) => s.trim()).filter(Boolean).join(", ");
  if (params.has("bounties")) state.bounties = params.get("bounties").split(",").map((s) => s.trim()).filter(Boolean).join(", ");
  if (params.has("share")) state.share = params.get("share").trim();
  return { state, notes };
}

/** The query string of a form state (the inverse of stateFromQuery for what it kept). */
export function queryFromState(state) {
  const params = new URLSearchParams({ stacks: state.stacks.map(urlNumber).join(","), blinds: state.blinds.map(urlNumber).join(","),
    ante: state.ante.trim() ? urlNumber(state.ante) : "0", bbante: state.bbAnte ? "1" : "0" });
  let payouts = null;
  try { if (state.payouts.trim()) payouts = parsePayouts(state.payouts, "payouts"); } catch { payouts = null; }
  if (payouts) params.set("payouts", payouts.values.map((p) => `${p}${payouts.percent ? "%" : ""}`).join(","));
  if (state.bounties.trim()) { // the numbers read, or the text as typed when it does not read
    try { params.set("bounties", parseNumberList(state.bounties, "bounties").join(",")); } catch { params.set("bounties", state.bounties.trim()); }
    if (state.share.trim()) params.set("share", state.share.trim());
  }
  return params.toString().replaceAll("%2C", ",");
}

function amount(text, label, field, errors) {
  try {
    return parseNumber(text, label);
  } catch (error) {
    errors.push({ field, message: error.message });
    return NaN;
  }
}

/** The field a message of tableErrors is about (for aria-invalid): "stack-3", "blinds", "ante", "payouts", "bounties",
 *  "share" or "players". */
export function fieldOfMessage(message) {
  const seat = /^stack .* of seat (\d+) /.exec(message);
  if (seat) return `stack-${Number(seat[1]) - 1}`;
  if (message.startsWith("blinds")) return "blinds";
  if (message.startsWith("ante")) return "ante";
  if (message.startsWith("bounties")) return "bounties";
  if (message.startsWith("bounty share")) return "share";
  if (message.includes("payouts")) return "payouts";
  return "players";
}

/** The typed state as the engine's table ({stacks, blinds, ante, bbAnte, payouts, bounties, bountyShare}) and every
 *  problem, one {field, message} each: numbers that do not read, then `tableErrors(table)`'s sentences. */
export function readTable(state, tableErrors) {
  const errors = [];
  const n = state.stacks.length;
  const names = n >= MIN_PLAYERS && n <= MAX_PLAYERS ? positionNames(n) : state.stacks.map((_, seat) => `seat ${seat + 1}`);
  const stacks = state.stacks.map((text, seat) => amount(text, `Stack of ${names[seat]}`, `stack-${seat}`, errors));
  const blinds = [amount(state.blinds[0], "Small blind", "blinds", errors), amount(state.blinds[1], "Big blind", "blinds", errors)];
  const ante = state.ante.trim() === "" ? 0 : amount(state.ante, "Ante", "ante", errors);
  let payouts = null; // none typed: chip EV; percentages of the pool are a pool of 100 (ICM is the same at any scale)
  let percent = false;
  try {
    if (state.payouts.trim()) ({ values: payouts, percent } = parsePayouts(state.payouts, "Payouts"));
  } catch (error) {
    errors.push({ field: "payouts", message: error.message });
  }
  const { bounties, share, errors: bountyErrors } = readBounties(state.bounties, state.share, percent);
  errors.push(...bountyErrors);
  if (errors.length) return { table: null, errors };
  const table = { stacks, blinds, ante, bbAnte: state.bbAnte, payouts, ...(bounties === null ? {} : { bounties, bountyShare: share }) };
  for (const message of tableErrors(table)) errors.push({ field: fieldOfMessage(message), message });
  return { table: errors.length ? null : table, errors };
}

const close = (a, b) => Math.abs(a - b) <= SAME * Math.max(1, Math.abs(a), Math.abs(b));
const allClose = (a, b) => a.length === b.length && a.every((x, i) => close(x, b[i]));

/** Payouts as shares of the pool without trailing zero prizes (ICM is the same game at any scale), or null. */
function payoutShares(payouts) {
  if (!payouts) return null;
  const total = payouts.reduce((a, b) => a + b, 0);
  const shares = payouts.map((p) => p / total);
  while (shares.length && shares[shares.length - 1] === 0) shares.pop();
  return shares;
}

const bountyFree = (bounties) => !bounties || bounties.every((b) => b === 0);
const total = (values) => values.reduce((a, b) => a + b, 0);

/** Bounties in the units the set compares them in: big blinds for chip EV (they are in the unit of the stacks),
 *  shares of the prize pool under ICM (ICM with bounties is the same game at any scale of the money). */
const bountyUnits = (bounties, blinds, payouts) => bounties.map((b) => b / (payouts ? total(payouts) : blinds[1]));

/** Each seat's bounty in a table of `group` with per-seat `stacks` (bb), in bountyUnits: the build gives every seat a
 *  bounty worth `group.bounty` of its stack at chip value (stack_bounties in kernels/icm/bounty.py); null without. */
function groupBounties(group, stacks) {
  if (group.bounty == null) return null;
  return bountyUnits(stackBounties(stacks, group.bounty, group.payouts ? total(group.payouts) : null), group.blinds, group.payouts);
}

/** Whether a group of the set plays the same game as `table` (players, blinds, ante, payouts, and for a table with
 *  bounties a group of PKO / KO tables with the same cash share), all in big blinds. Bounties all zero are none. */
function sameGame(group, table) {
  const bounties = !bountyFree(table.bounties);
  if (bounties !== (group.bounty != null) || (bounties && !close(group.bounty_share, table.bountyShare ?? 1))) return false;
  const big = table.blinds[1];
  if (group.players !== table.stacks.length || !allClose(group.blinds, table.blinds.map((b) => b / big))) return false;
  if (!close(group.ante, table.ante / big) || (table.ante > 0 && group.bb_ante !== table.bbAnte)) return false;
  const mine = payoutShares(table.payouts), theirs = payoutShares(group.payouts);
  return mine === null || theirs === null ? mine === theirs : allClose(mine, theirs);
}

/** Every table of a group: its per-seat stacks (bb) and the name of its file (without ".json"). */
function groupTables(group) {
  if (group.stack_sets) return group.stack_sets.map((stacks, k) => ({ stacks, name: String(k) }));
  return (group.stacks ?? []).map((stack) => ({ stacks: Array(group.players).fill(stack), name: formatG(stack) }));
}

const entry = (group, table, distance) => ({ group, stacks: table.stacks, path: `pushfold/${group.id}/${table.name}.json`, distance });

/** `table`'s stacks in bb and, with bounties, its bounties in bountyUnits (null without). */
function inSetUnits(table) {
  const bounties = bountyFree(table.bounties) ? null : bountyUnits(table.bounties, table.blinds, table.payouts);
  return { stacks: table.stacks.map((s) => s / table.blinds[1]), bounties };
}

/** Sum over seats of |Δ stack| (bb) and, with bounties, of |Δ bounty| at chip value (bb: under ICM a share of the
 *  pool is worth that share of all the chips) between a group's table `t` and `mine` (inSetUnits). */
function distanceTo(group, t, mine) {
  const stacks = t.stacks.reduce((sum, s, seat) => sum + Math.abs(s - mine.stacks[seat]), 0);
  const theirs = groupBounties(group, t.stacks);
  if (!theirs) return stacks;
  const value = group.payouts ? total(mine.stacks) : 1;
  return stacks + value * theirs.reduce((sum, b, seat) => sum + Math.abs(b - mine.bounties[seat]), 0);
}

/** The precomputed table that is `table` ({group, stacks, path: relative to data/, distance: 0}), or null: the same
 *  game, stacks and (PKO tables) bounties. */
export function findPrecomputed(index, table) {
  const mine = inSetUnits(table);
  for (const group of index?.groups ?? []) {
    if (!sameGame(group, table)) continue;
    const found = groupTables(group).find((t) => allClose(t.stacks, mine.stacks)
      && (group.bounty == null || allClose(groupBounties(group, t.stacks), mine.bounties)));
    if (found) return entry(group, found, 0);
  }
  return null;
}

/** The precomputed table of the same game closest to `table` (smallest sum over seats of |Δ stack| and, with
 *  bounties, |Δ bounty|, in bb), to warm-start the solver from; null when the set has no table of that game. */
export function nearestPrecomputed(index, table) {
  const mine = inSetUnits(table);
  let best = null;
  for (const group of index?.groups ?? []) {
    if (!sameGame(group, table)) continue;
    for (const t of groupTables(group)) {
      const distance = distanceTo(group, t, mine);
      if (!best || distance < best.distance) best = entry(group, t, distance);
    }
  }
  return best;
}
