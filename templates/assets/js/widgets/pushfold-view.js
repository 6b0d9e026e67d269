// Draws a push/fold solution object (docs/pushfold.md: positions, shove, call, exploitability, and
// optionally iterations, ev_se, pots, table) as the static chart pages do (generator/site/pushfold_pages.py,
// templates/pushfold-table.html): a 13×13 frequency chart per position's shove range, one chart of the
// call spot picked in a selector (calls of each shover, then overcalls), the exploitability and a
// "download JSON" link. Cells are links to the hand pages, one Tab stop per grid (grid-nav.js).
// Classes a solution omits are played with probability 0.

import { rovingGrid } from "./grid-nav.js";
import { formatG } from "../engines/python-format.js";
import { gainShort, gainText } from "./cell-figures.js";
import { CLASS_NAMES } from "../engines/cards.js";
import { CHART_BUCKETS as BUCKETS, PUSHFOLD_NASH_CONV_BB, PUSHFOLD_NASH_CONV_POOL_PCT } from "../engines/constants.js";
import { COMBO_CLASS, N_COMBOS } from "../engines/ranges.js";

const COMBOS_PER_CLASS = new Array(CLASS_NAMES.length).fill(0);
for (const cls of COMBO_CLASS) COMBOS_PER_CLASS[cls]++;

/** Python's round(): halves to even. */
const roundHalfEven = (x) => {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/** A frequency as whole percent for a cell (generator/pushfold_pages.frequency_text): "100", "37", "<1", ">99", "–". */
export function frequencyText(frequency) {
  if (!(frequency > 0)) return "–";
  const percent = roundHalfEven(100 * frequency);
  return percent < 1 ? "<1" : percent === 100 && frequency < 1 ? ">99" : String(percent);
}

/** Colour bucket 0..9 of a frequency (generator/charts.bucket on [0, 1]); null when never played. */
export function frequencyBucket(frequency) {
  return frequency > 0 ? Math.max(0, Math.min(BUCKETS - 1, Math.floor(frequency * BUCKETS))) : null;
}

/** A spot's 169 frequencies in chart order (missing classes: 0). */
export function frequencies(byClass) {
  return CLASS_NAMES.map((name) => byClass?.[name] ?? 0);
}

/** What makes `solution` impossible to draw (a sentence), or null: positions, shove and call objects,
 *  every probability a number in [0, 1]. */
export function solutionProblem(solution) {
  if (!Array.isArray(solution?.positions) || typeof solution.shove !== "object" || typeof solution.call !== "object") {
    return "it has no positions, shove or call ranges";
  }
  for (const [key, spots] of [["shove", solution.shove], ["call", solution.call]]) {
    for (const [spot, byClass] of Object.entries(spots ?? {})) {
      for (const [name, p] of Object.entries(byClass ?? {})) {
        if (!CLASS_NAMES.includes(name)) return `${key} "${spot}" names an unknown hand class "${name}"`;
        if (!(typeof p === "number" && p >= 0 && p <= 1)) return `${key} "${spot}": ${name} has the probability ${JSON.stringify(p)}`;
      }
    }
  }
  return null;
}

/** Share of the 1,326 combos played, frequency-weighted. */
export function shareOfHands(values) {
  return values.reduce((sum, f, i) => sum + f * COMBOS_PER_CLASS[i], 0) / N_COMBOS;
}

/** The call spots in play order: calls of a lone shove (by shover, then caller), then overcalls
 *  ("BB vs UTG+BTN": by how many are in, shover, callers before, caller). Each {spot, caller, chain}. */
export function orderedSpots(solution) {
  const seat = (name) => solution.positions.indexOf(name);
  const spots = Object.keys(solution.call).map((spot) => {
    const [caller, chain] = spot.split(" vs ");
    return { spot, caller, chain: chain.split("+") };
  });
  const key = (s) => [s.chain.length, ...s.chain.map(seat), seat(s.caller)];
  const compare = (a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let k = 0; k < Math.max(x.length, y.length); k++) if ((x[k] ?? -1) !== (y[k] ?? -1)) return (x[k] ?? -1) - (y[k] ?? -1);
    return 0;
  };
  spots.sort(compare);
  return { calls: spots.filter((s) => s.chain.length === 1), overcalls: spots.filter((s) => s.chain.length > 1) };
}

const finite = (x) => typeof x === "number" && Number.isFinite(x);
const percent = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;
/** Two significant digits, never shown as a bare 0 when it is not: "0.0021", "2.7e-6". */
const small = (x) => (x === 0 ? "0" : Math.abs(x) >= 1e-4 ? String(Number(x.toPrecision(2))) : x.toExponential(1).replace("e-", "e−"));
/** A frequency of hands in percent for the showdown line: "< 0.001%" rather than "0.000%" for a rare pot. */
const rarePercent = (x) => (x === 0 ? "0%" : x < 5e-6 ? "< 0.001%" : percent(x, 3));

/** The exploitability in words: "0.0042 bb per hand" (chip EV), "0.031% of the prize pool" (ICM). */
export function exploitabilityText(exploitability) {
  if (finite(exploitability?.bb)) return `${exploitability.bb.toFixed(4)} bb per hand`;
  if (finite(exploitability?.pool_pct)) return `${exploitability.pool_pct.toFixed(4)}% of the prize pool`;
  return "not measured";
}

/** The worst per-class regret in words: "0.0061 bb (A5s, CO)": how much a class loses, at its decision, by
 *  following the chart instead of the better action; null when the solution does not say. */
export function classRegretText(solution) {
  const worst = solution.class_regret;
  if (!worst) return null;
  const amount = finite(worst.bb) ? `${small(worst.bb)} bb` : finite(worst.pool_pct) ? `${small(worst.pool_pct)}% of the prize pool` : null;
  if (amount === null) return null;
  const verdict = solution.rule_met !== false ? "" : solution.forming ? " — not within the stopping rule yet: the solve goes on"
    : " — above the stopping rule's tolerance: the solver ran out of iterations";
  return `${amount} (${worst.class}, ${worst.spot})${verdict}`;
}

/** The check on real deals in words, its upper bound first (generator/site/pushfold_pages.certificate_text):
 *  {title, figure, bound, found}, or null. "Certified" only when the upper bound is within the solver's NashConv rule. */
export function certificateText(solution) {
  const c = solution.certified_exploitability;
  if (!c || !finite(c.value) || !finite(c.ci95) || !finite(c.upper95)) return null;
  const chip = c.unit === "bb";
  const unit = chip ? " bb" : "% of the prize pool";
  const limit = chip ? PUSHFOLD_NASH_CONV_BB : PUSHFOLD_NASH_CONV_POOL_PCT;
  const earned = c.upper95 <= limit;
  const what = solution.positions.length === 2 ? "heads-up the model is the real game, so this checks the code on dealt cards"
    : "it rules out an error of the model's equity tables larger than that" +
      (earned ? "" : `, but not a smaller one such as the stopping rule's ${formatG(limit)}${unit}: that is within the deals' noise`);
  const bound = `the 95% upper bound, from ${c.deals.toLocaleString("en-US")} real deals (real cards, exact showdowns and side ` +
    `pots, no equity tables), on what the players together could gain by changing their hands' actions; ${what}`;
  const n = c.deviations;
  const found = !n ? "No hand's chart action did worse than the other by 3 standard errors of the deals."
    : `The ${n.toLocaleString("en-US")} hand–decision pair${n > 1 ? "s" : ""} that did gain${n > 1 ? "" : "s"} ` +
      `${c.value.toFixed(4)} ± ${c.ci95.toFixed(4)}${unit} (95% interval) by deviating.`;
  return { title: `${earned ? "Certified" : "Checked"} on real deals`, figure: `at most ${formatG(Number(c.upper95.toPrecision(3)))}${unit} per hand`, bound, found };
}

/** The error bar of the 3-way equity table on each position's EV ("BTN ±0.0021 bb, SB ±2.7e−6 bb";
 *  under ICM in % of the pool when the solution names its payouts), or null without `ev_se`. */
export function evErrorText(solution) {
  if (!solution.ev_se) return null;
  const payouts = solution.table?.payouts;
  const pool = Array.isArray(payouts) ? payouts.reduce((a, b) => a + b, 0) : null;
  const icm = !finite(solution.exploitability?.bb);
  const text = (se) => (!icm ? `${small(se)} bb` : pool ? `${small((100 * se) / pool)}% of the pool` : `${small(se)} prize units`);
  const parts = solution.positions.filter((p) => finite(solution.ev_se[p])).map((p) => `${p} ±${text(solution.ev_se[p])}`);
  return parts.length ? parts.join(", ") : null;
}

const idOf = (text) => text.replace(/[^A-Za-z0-9]+/g, "-");

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** One 13×13 chart: cells with the class, its frequency in percent (and, given `largest`, 169 texts of
 *  the largest stack at which each class is played, as the static chart pages show) and a full label in words; given
 *  `gains` (169 values of the aggressive action over folding, null where the decision is never reached, in `unit`),
 *  each cell also holds that figure (shown by "Cells show") and says it on hover and to screen readers, and a mixed
 *  hand (played neither never nor always) is marked. */
function frequencyGrid(id, values, verb, caption, root, largest, gains = null, unit = "bb") {
  const body = element("tbody");
  for (let row = 0; row < 13; row++) {
    const tr = element("tr");
    for (let col = 0; col < 13; col++) {
      const i = 13 * row + col, f = values[i], name = CLASS_NAMES[i], bucket = frequencyBucket(f);
      const gain = gains?.[i] ?? null;
      const mixed = f > 0 && f < 1;
      const action = verb.endsWith("calls") ? "calling" : "shoving";
      const worth = gain === null ? "" : `; ${action} ${gain >= 0 ? "gains" : "loses"} ${Math.abs(gain).toFixed(gain && Math.abs(gain) < 0.01 ? 4 : 2)}${unit === "bb" ? " bb" : "% of the pool"} over folding`
        + (mixed ? " (mixed: the two actions are worth nearly the same)" : "");
      const words = `${name}: ${verb} ${(100 * f).toFixed(1)}% of the time` + (largest ? `; stacks played: ${largest[i]}` : "") + worth;
      const link = element("a", { href: `${root}hands/${name}/index.html`, "data-i": String(i), "data-f": String(f), ...(gain === null ? {} : { title: words }) },
        element("b", { "aria-hidden": "true" }, name), element("span", { class: "v-eq", "aria-hidden": "true" }, frequencyText(f)),
        ...(largest ? [element("span", { class: "v-max", "aria-hidden": "true" }, largest[i])] : []),
        ...(gains ? [element("span", { class: "v-gain", "aria-hidden": "true" }, gain === null ? "–" : gainText(gain)),
          element("span", { class: "v-gain-short", "aria-hidden": "true" }, gain === null ? "–" : gainShort(gain))] : []),
        element("span", { class: "visually-hidden" }, words));
      const classes = ["cell", ...(bucket === null ? [] : [`e${bucket}`]), ...(mixed ? ["mixed"] : [])];
      tr.append(element("td", { class: classes.join(" ") }, link));
    }
    body.append(tr);
  }
  const table = element("table", { class: "grid pushfold-grid frequency-grid", id }, element("caption", { class: "visually-hidden" }, caption), body);
  const wrap = element("div", { class: "grid-wrap" }, table);
  return { wrap, table };
}

/** A titled section with one 13×13 frequency chart (`values`: 169 frequencies in chart order; `largest`:
 *  optional 169 texts of the largest stack played); returns `{ section, table }`. */
export function chartSection(id, heading, values, verb, root, largest = null, gains = null, unit = "bb") {
  const caption = `${heading}: the frequency in percent of each of the 169 starting hands${largest ? ", and the largest stack at which it is played" : ""}${gains ? ", and what it gains over folding" : ""}; pairs on the diagonal, suited hands above it, offsuit below. Each cell links to the hand's page.`;
  const { wrap, table } = frequencyGrid(id, values, verb, caption, root, largest, gains, unit);
  const title = element("h3", { id: `${id}-title` }, `${heading} `, element("span", { class: "share" }, `${percent(shareOfHands(values))} of hands`));
  const section = element("section", { "aria-labelledby": `${id}-title`, class: "solver-chart" }, title, wrap);
  return { section, table };
}

function spotLabel({ spot, caller, chain }) {
  if (chain.length === 1) return `${spot}: ${caller} calls ${chain[0]}'s shove`;
  return `${spot}: ${caller} calls after ${chain[0]} shoves and ${chain.slice(1).join(" and ")} call${chain.length > 2 ? "" : "s"}`;
}

function fact(term, value, id) {
  return element("div", {}, element("dt", {}, term), element("dd", id ? { id } : {}, value));
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Replace `container`'s content with the solution: facts, shove charts, the call-spot selector and
 *  chart. `source`: a sentence saying where the solution comes from; `filename` of the download.
 *  One chart per task (a 10-seat result is 9 grids), so the main thread is never held long; resolves
 *  when all is drawn (then `container.dataset.state` is "drawn"), or early when a newer call took over. */
export async function renderSolution(container, solution, { root, source, filename }) {
  const drawing = String(Number(container.dataset.drawing ?? 0) + 1);
  container.dataset.drawing = drawing;
  container.dataset.state = "drawing";
  if (container.dataset.download) URL.revokeObjectURL(container.dataset.download);
  const facts = element("dl", { class: "facts pushfold-facts" },
    fact("Exploitability (NashConv)", exploitabilityText(solution.exploitability), "solver-nash-conv"),
    fact("Source", source, "solver-source"));
  const regret = classRegretText(solution);
  if (regret) facts.insertBefore(fact("Worst regret of a hand at its decision", regret, "solver-class-regret"), facts.lastChild);
  const certificate = certificateText(solution);
  if (certificate) {
    const row = fact(certificate.title, certificate.figure, "solver-certified");
    row.querySelector("dd").append(element("span", { class: "fine" }, `${certificate.bound}. ${certificate.found}`));
    facts.insertBefore(row, facts.lastChild);
  }
  const evError = evErrorText(solution);
  if (evError) facts.append(fact("Error bar of the EVs (3-way table)", evError));
  if (solution.pots && ["2", "3", "4+"].every((k) => finite(solution.pots[k]))) {
    facts.append(fact("Showdowns", `2-way ${percent(solution.pots["2"], 2)} · 3-way ${rarePercent(solution.pots["3"])} · 4+-way ${rarePercent(solution.pots["4+"])} of hands`));
  }
  const url = URL.createObjectURL(new Blob([JSON.stringify(solution, null, 1)], { type: "application/json" }));
  container.dataset.download = url;
  const download = element("p", {}, element("a", { href: url, download: filename, id: "solver-download" }, "Download this solution as JSON"),
    " (the format of ", element("code", {}, "allin pushfold --json"), ").");
  const legend = element("div", { class: "legend", "aria-hidden": "true" }, element("span", {}, "0%"),
    element("span", { class: "swatches" }, ...Array.from({ length: BUCKETS }, (_, q) => element("i", { class: `e${q}` }))),
    element("span", {}, "100%"), element("span", { class: "legend-never" }, element("span", { class: "cell swatch" }), " never (–)"));
  const unit = finite(solution.exploitability?.bb) ? "bb" : "pool_pct";
  const gainsOf = (kind, spot) => (solution.ev_gain?.[kind]?.[spot] ? CLASS_NAMES.map((name) => solution.ev_gain[kind][spot][name] ?? null) : null);
  const note = element("p", { class: "note" }, "Each cell: the hand and how often it is played, in percent. Cells link to the hand's page.",
    ...(solution.ev_gain ? [` A hand with a dotted frame is mixed (played neither never nor always): its two actions are worth nearly the same, `
      + `and "Cells show" gives what shoving or calling gains over folding with each hand at the decision (${unit === "bb" ? "bb" : "% of the prize pool"}; also on hover and to screen readers).`] : []));
  const show = solution.ev_gain ? element("fieldset", { class: "switch mode cells-show" }, element("legend", { class: "switch-label" }, "Cells show"),
    element("input", { type: "radio", name: "solver-cells", id: "solver-cells-frequency", value: "frequency", checked: "" }),
    element("label", { for: "solver-cells-frequency" }, "Frequency"),
    element("input", { type: "radio", name: "solver-cells", id: "solver-cells-gain", value: "gain" }),
    element("label", { for: "solver-cells-gain" }, unit === "bb" ? "Gain over folding (bb)" : "Gain over folding (% of pool)")) : null;
  const shovers = solution.positions.filter((p) => solution.shove[p]);
  const { calls, overcalls } = orderedSpots(solution);
  const jump = element("nav", { class: "switch position-pick", "aria-label": "Jump to a position's chart" },
    element("span", { class: "switch-label" }, "Shove"),
    ...shovers.map((p) => element("a", { href: `#shove-${idOf(p)}-title` }, p)),
    ...(calls.length + overcalls.length ? [element("a", { href: "#solver-call-title" }, "Calls")] : []));
  container.replaceChildren(facts, download, jump, legend, note, ...(show ? [show] : []), element("h2", { id: "solver-shove-title" }, "Shove when everyone before folded"));

  for (const position of shovers) {
    const chart = chartSection(`shove-${idOf(position)}`, `${position} shoves`, frequencies(solution.shove[position]), `${position} shoves`, root,
      null, gainsOf("shove", position), unit);
    container.append(chart.section);
    rovingGrid(chart.table);
    await nextTask();
    if (container.dataset.drawing !== drawing) return;
  }

  if (calls.length + overcalls.length) {
    const select = element("select", { id: "call-spot" });
    for (const [label, spots] of [["Call a shove", calls], ["Overcall: after a shove and a call", overcalls]]) {
      if (spots.length) select.append(element("optgroup", { label }, ...spots.map((s) => element("option", { value: s.spot }, spotLabel(s)))));
    }
    const callSlot = element("div", { id: "call-chart" });
    const showSpot = () => {
      const spot = select.value;
      const [caller] = spot.split(" vs ");
      const chart = chartSection(`call-${idOf(spot)}`, `${spot}: ${caller} calls`, frequencies(solution.call[spot]), `${spot}: calls`, root,
        null, gainsOf("call", spot), unit);
      callSlot.replaceChildren(chart.section);
      rovingGrid(chart.table);
    };
    select.addEventListener("change", showSpot);
    container.append(element("h2", { id: "solver-call-title" }, "Call a shove"),
      element("div", { class: "field call-pick" }, element("label", { for: "call-spot" }, "Spot"), select), callSlot);
    showSpot();
  }
  container.dataset.state = "drawn";
}
