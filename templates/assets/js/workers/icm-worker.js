// Web Worker for the ICM pages: runs icm.js and icm-spot.js off the main thread so the page stays
// responsive. In: {id, kind: "icm" | "bubble" | "summary", stacks, payouts, bands, bounties (bubble: null
// or one per player), share}, {id, kind: "parse-stacks" | "parse-payouts", text} (a long typed list, read off
// the main thread) or {id, kind: "spot", side, stacks, payouts, spot, range, hand, bounties, share, matchupsUrl,
// headsupUrl, check}. Out: {id, result} or {id, error, field, fields}.
import { bubbleFactors as bountyBubbleFactors } from "../engines/bounty.js";
import { bubbleFactors, fieldSummary, groupMeans, icm, parseNumberList, parsePayouts, stackOrder } from "../engines/icm.js";
import { spotAnswer } from "../engines/icm-spot.js";
import { parseMatchupTable } from "../engines/matchup-table.js";
import { classWeights } from "../engines/range-equity.js";
import { parseRange, rankingFromHeadsup } from "../engines/ranges.js";

const cache = {};
/** A file fetched once per worker and read by ``read`` (a Response → its content). */
function fetched(url, read) {
  cache[url] ??= fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return read(response);
  });
  return cache[url];
}
const fetchedJson = (url) => fetched(url, (response) => response.json());

class FieldError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

/** Class weights (169) of a typed range; FieldError naming the form field when it is not one. */
function rangeWeights(text, ranking, field) {
  let combos;
  try {
    combos = parseRange(text, ranking).weights;
  } catch (error) {
    throw new FieldError(field, `${field}: ${error.message}`);
  }
  const weights = classWeights(combos);
  if (weights === null) throw new FieldError(field, `${field}: the range weights single combos of a class differently; give whole classes (AKs, QQ+)`);
  if (!weights.some((w) => w > 0)) throw new FieldError(field, `${field}: the range is empty`);
  return { weights: Array.from(weights), combos: combos.reduce((n, w) => n + (w > 0), 0) };
}

/** The spot's answer; with ``check`` only the range and hand are read (the page found other problems
 * and shows these with them). Every bad field is reported at once: an Error with ``fields``. */
async function spot({ side, stacks, payouts, spot: table, range, hand, bounties = null, share = 1, matchupsUrl, headsupUrl, check = false }) {
  const ranking = /%/.test(range + hand) ? rankingFromHeadsup(await fetchedJson(headsupUrl)) : null;
  const fields = [];
  const read = (text, field) => {
    if (!text.trim()) return null;
    try {
      return rangeWeights(text, ranking, field);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      fields.push({ field, message: error.message });
      return null;
    }
  };
  const villain = read(range, "range");
  const hero = read(hand, "hand");
  if (fields.length) throw Object.assign(new Error(fields.map((f) => f.message).join("; ")), { fields });
  if (check) return { checked: true };
  const tables = await fetched(matchupsUrl, async (response) => parseMatchupTable(await response.arrayBuffer())); // matchups.bin
  const answer = spotAnswer(side, stacks, payouts, table, tables, villain.weights, { bounties, bountyShare: share });
  return { ...answer, rangeCombos: villain.combos, hero };
}

/** Bubble factors of the field, with the bounty term when there are bounties. */
function bubble(stacks, payouts, bounties, share) {
  return bounties === null ? bubbleFactors(stacks, payouts) : bountyBubbleFactors(stacks, payouts, bounties, share);
}

/** fieldSummary plus what the page would otherwise sort and sum on its main thread: the stack order
 * and the heatmap (stack groups × bands of places, then "not paid"). */
function summary(stacks, payouts, bands, groups) {
  const result = fieldSummary(stacks, payouts, { bands });
  const order = stackOrder(stacks);
  const columns = [...result.bands, result.cash.map((p) => 1 - p)];
  return { ...result, order, heatmap: columns.map((chances) => groupMeans(order, chances, groups)) };
}

self.onmessage = async (e) => {
  const { id, kind, stacks, payouts } = e.data;
  try {
    let result;
    if (kind === "spot") result = await spot(e.data);
    else if (kind === "parse-stacks") result = { values: parseNumberList(e.data.text, "stacks"), percent: false };
    else if (kind === "parse-payouts") result = parsePayouts(e.data.text, "payouts");
    else if (kind === "summary") result = summary(stacks, payouts, e.data.bands, e.data.groups);
    else result = kind === "bubble" ? bubble(stacks, payouts, e.data.bounties ?? null, e.data.share) : icm(stacks, payouts);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: error.message, field: error.field ?? null, fields: error.fields ?? null });
  }
};
