// n-player push/fold (2..10 seats) in the browser: the game, discounted CFR and the NashConv of
// kernels/pushfold/, iterate for iterate (same start, alternating seat updates, regrets discounted
// after each iteration and floored at zero, averages weighted by iteration², a NashConv check every 5 iterations). The game and its stated
// approximations are in that module's docstring and docs/pushfold.md.
//
// Pure ES module: no DOM, no globals; runs in node ≥ 20 and in a Web Worker (pushfold-worker.js).
//   tableErrors(table) -> string[]                     (the messages of kernels.pushfold.table_errors)
//   loadEquities(matchupsBuffer, threewayBuffer|null)  (data/matchups.bin, data/threeway.bin.gz uncompressed)
//   provisionalEquities(matchupsBuffer, threewayPrefix) (3-way pots from heads-up results: a first answer while
//                                                        threeway.bin.gz downloads; the prefix holds its compatible counts)
//   solvePushfold(table, equities, {tolerance, maxIterations, start, onProgress, shouldStop}) -> solution
//   solveSteps(table, equities, {…, share}) (a generator; with `share`, part of its 3-way sums go to a helper worker
//                                            that runs them with TaskRunner on helperTable(equities.triple))
// table = {stacks (bb, first to act first; last two SB, BB), blinds: [sb, bb], ante, bbAnte, payouts|null,
//          bounties|null (KO/PKO: in the payouts' unit, or bb for chip EV), bountyShare (default 1)}.
// Amounts are bb; ICM payoffs are prize units; NashConv is reported in bb (chip EV) or % of the pool (ICM).
//
// Speed: no dense K³ tensor. A 3-way pot's value for a seat, per class c, is a sum over the classes its
// two opponents play (their supports) against the compact sorted-triple table; a strategy is split
// into a constant (0, 1, or the start's 1/2) plus deviations, and the constant's part is read from
// marginals of the table computed once, so wide ranges cost as little as narrow ones. Vectors that depend only on a strategy (P(action | hero class)) are kept until it changes.
// An evaluation's 3-way sums are listed as tasks (Evaluator.pending), which a second worker may share (solveSteps'
// `share`, pushfold/helper.js) with the same results; docs/pushfold.md "Speed" and "Two cores".
//
// The parts, one responsibility each as in kernels/pushfold/: pushfold/model.js (the classes and the
// showdown tables), pushfold/game.js (seats, posts, terminals, information sets), pushfold/strategy.js,
// pushfold/best-response.js (counterfactual values, NashConv, class regrets) and pushfold/cfr.js (discounted CFR
// and its stopping rule). This module is their public API.

export { REACH_FLOOR } from "./pushfold/best-response.js";
export {
  AVERAGE_POWER, CHECK_EVERY, CLASS_TOLERANCE_BB, FALLBACK_DISCOUNT, CLASS_TOLERANCE_POOL_PCT, DISCOUNT_POSITIVE, HEADS_UP_CLASS_SCALE, HEADS_UP_SCALE,
  MAX_ITERATIONS, MEASURE, START_REGRET, START_WITHIN, SolveCancelled, TOLERANCE_BB, TOLERANCE_POOL_PCT, evaluateStrategies, infosetNames,
  nashConvUnits, payoffPerUnit, payoffTolerances, solutionObject, solvePushfold, solveSteps, spotName,
} from "./pushfold/cfr.js";
export { MAX_SEATS, positionNames, tableErrors } from "./pushfold/game.js";
export { TaskRunner, helperTable } from "./pushfold/helper.js";
export { CLASS_NAMES, THREEWAY_BYTES, THREEWAY_WEIGHTS_END, loadEquities, provisionalEquities } from "./pushfold/model.js";
