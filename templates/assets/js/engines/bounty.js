// Knockout (KO) and progressive knockout (PKO) bounties on top of ICM in the browser: the same model
// as kernels/icm/bounty.py, checked against it on the goldens of spec/bounty.json.
//
// Pure ES module: no DOM, safe in a Web Worker. Player i has a bounty B_i >= 0 on his head, in the
// unit of the payouts; when W knocks out L, W is paid share × B_L in cash and (1 − share) × B_L is
// added to W's own bounty (share = 1: a regular KO). A position (stacks x, bounties B) is worth to i
//   V_i = ICM_i(x) + cash_i + (x_i / X) Σ_j B_j:
// the bounties still on heads are valued in proportion to chips (docs/icm.md, "Bounties").
// Players are 0-based; invalid input throws Error with Python's messages.
import { BUST_RATIO, chipShares, icm, numericEntries, pairEquities, riskPrices, validateField } from "./icm.js";
import { formatG } from "./python-format.js";

const sum = (values) => values.reduce((total, value) => total + value, 0);

/** Every problem with the bounties of a field of valid `stacks` and, unless null, the bounty `share`
 * paid in cash: one {field: "bounties" | "share", index, message} each (empty when valid), as
 * bounty_errors in kernels/icm/bounty.py. */
export function bountyErrors(stacks, bounties, share = null) {
  const errors = [];
  const values = numericEntries("bounties", bounties, errors);
  if (values !== null) {
    if (values.length !== stacks.length) {
      errors.push({ field: "bounties", index: null,
        message: `bounties: ${values.length} bounties for ${stacks.length} players; give one per player (0 for none)` });
    } else {
      const shares = chipShares(Array.from(stacks, Number));
      const i = shares.findIndex((x, k) => x === 0 && values[k] > 0);
      if (i >= 0) {
        errors.push({ field: "bounties", index: i, message: `bounties: player ${i + 1} has no chips but a bounty of ` +
          `${formatG(values[i])}; a busted player's bounty has been paid (give 0)` });
      }
      if (values.reduce((a, b) => a + b, 0) === Infinity) { // 1e308 + 1e308: every figure would be Infinity
        errors.push({ field: "bounties", index: null, message: "bounties: their total is too large to be a number (give them in a smaller unit)" });
      }
    }
  }
  if (share !== null) {
    const value = typeof share === "number" ? share : Number(share);
    if (typeof share !== "number" && Number.isNaN(value)) {
      errors.push({ field: "share", index: null, message: `bounty share: not a number (${share})` });
    } else if (!(value >= 0 && value <= 1)) {
      errors.push({ field: "share", index: null, message: `bounty share: ${formatG(value)} is outside [0, 1] (the part ` +
        "of a bounty paid in cash: 1 for a regular knockout, 0.5 for a typical PKO)" });
    }
  }
  return errors;
}

const refuse = (errors) => {
  if (errors.length) throw new Error(errors.map((error) => error.message).join("; "));
};

/** {bounties, share} as numbers for valid `stacks`; throws Error listing every problem. */
export function validateBounties(stacks, bounties, share = 1) {
  refuse(bountyErrors(stacks, bounties, share));
  return { bounties: Array.from(bounties, Number), share: Number(share) };
}

/** validateBounties after the field itself (its problems first, as kernels/icm/bounty.py checks them). */
function checkedPosition(stacks, payouts, bounties, share) {
  refuse(validateField(stacks, payouts));
  return validateBounties(stacks, bounties, share);
}

/** Chip-proportional share of the bounty money on heads, (x_i / X) Σ_j B_j, for checked arrays. */
export function bountyEquity(stacks, bounties) {
  const total = sum(bounties);
  return chipShares(Array.from(stacks, Number)).map((share) => share * total);
}

/** Bounties worth `fraction` of each player's stack at its chip value, as stack_bounties in kernels/icm/bounty.py:
 * the stack itself (chip EV), or with a prize `pool` (not null) the stack's share of it, pool × x_i / X (ICM). */
export function stackBounties(stacks, fraction, pool = null) {
  const value = pool === null ? Array.from(stacks, Number) : chipShares(Array.from(stacks, Number)).map((share) => pool * share);
  return value.map((x) => fraction * x);
}

/** The value of a position, as position_value in kernels/icm/bounty.py: {prize (ICM equity of the
 * payouts), bounty (bounty `cash` already won, default none, + chip-proportional share of the bounties
 * on heads), total, method}. */
export function positionValue(stacks, payouts, bounties, { method = "auto", cash = null } = {}) {
  const checked = checkedPosition(stacks, payouts, bounties, 1);
  const { equity: prize, method: chosen } = icm(stacks, payouts, { method, places: false });
  const won = cash ?? new Array(stacks.length).fill(0);
  if (won.length !== stacks.length) throw new Error(`cash: ${won.length} entries for ${stacks.length} players`);
  const bounty = bountyEquity(stacks, checked.bounties).map((equity, i) => won[i] + equity);
  return { prize, bounty, total: prize.map((value, i) => value + bounty[i]), method: chosen };
}

/** {bounties, cash} after `loser` is knocked out by `winners` (one, or several who chopped his last
 * pot): each gets share × B_loser / winners.length in cash and the rest onto his own bounty. */
export function knockOut(bounties, cash, share, loser, winners) {
  const after = { bounties: bounties.slice(), cash: cash.slice() };
  const part = bounties[loser] / winners.length;
  for (const winner of winners) {
    after.cash[winner] += share * part;
    after.bounties[winner] += (1 - share) * part;
  }
  after.bounties[loser] = 0;
  return after;
}

/** outcome -> bounty value (n) in each field after a two-way all-in, as all_in_bounty in
 * kernels/icm/bounty.py: `fields` outcome -> stacks after it, `beats` outcome -> [winner, loser] where the
 * all-in was won; the loser is knocked out when left with no chips. Throws (with `field: "bounties"`)
 * when any other player with a bounty is left with no chips (all in for an ante or a blind). */
export function allInBounty(fields, bounties, share, beats) {
  const values = {};
  for (const [outcome, field] of Object.entries(fields)) {
    let held = { bounties, cash: new Array(bounties.length).fill(0) };
    const busted = chipShares(field).map((x) => x === 0);
    if (beats[outcome] && busted[beats[outcome][1]]) {
      const [winner, loser] = beats[outcome];
      held = knockOut(held.bounties, held.cash, share, loser, [winner]);
    }
    const i = busted.findIndex((out, k) => out && held.bounties[k] > 0);
    if (i >= 0) {
      throw Object.assign(new Error(`bounties: player ${i + 1} (bounty ${formatG(held.bounties[i])}) is left with no ` +
        "chips by the antes or blinds, and who knocks him out is not modelled; give him a stack above what he posts"),
      { field: "bounties" });
    }
    const equity = bountyEquity(field, held.bounties);
    values[outcome] = held.cash.map((cash, k) => cash + equity[k]);
  }
  return values;
}

/** The bounty term around an all-in between every ordered pair, as pair_bounty_values in
 * kernels/icm/bounty.py: {base (n), won[w][l], lost[l][w]} for checked arrays; the loser busts when he has
 * no more chips than the winner, and his bounty is knocked out. */
export function pairBountyValues(stacks, bounties, share) {
  const shares = chipShares(Array.from(stacks, Number));
  const total = sum(bounties);
  const moved = (a, b) => Math.min(shares[a], shares[b]);
  const busts = (l, w) => shares[l] - moved(l, w) <= shares[w] * BUST_RATIO;
  const won = shares.map((x, w) => shares.map((_, l) => {
    const cashed = busts(l, w) ? share * bounties[l] : 0;
    return cashed + (x + moved(w, l)) * (total - cashed);
  }));
  const lost = shares.map((x, l) => shares.map((_, w) => (busts(l, w) ? 0 : (x - moved(l, w)) * total)));
  return { base: shares.map((x) => x * total), won, lost };
}

/** bubbleFactors of icm.js with the bounty term in every value (ICM + bounty), as bubble_factors in
 * kernels/icm/bounty.py: knocking a player out pays his bounty at once, so a factor can fall below 1.
 * Returns {bubbleFactor, requiredEquity, riskPremium, equity (the total value), method}. */
export function bubbleFactors(stacks, payouts, bounties, share = 1, { method = "auto" } = {}) {
  const checked = checkedPosition(stacks, payouts, bounties, share);
  const prize = pairEquities(stacks, payouts, { method });
  const extra = pairBountyValues(stacks, checked.bounties, checked.share);
  const add = (matrix, term) => matrix.map((row, i) => row.map((value, j) => (value === null ? null : value + term[i][j])));
  return riskPrices(prize.base.map((value, i) => value + extra.base[i]), add(prize.won, extra.won), add(prize.lost, extra.lost),
    sum(Array.from(payouts, Number)) + sum(checked.bounties), prize.method);
}
