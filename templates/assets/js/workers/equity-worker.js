// Web Worker of the equity calculator: runs range-equity.js off the main thread. The page terminates
// it to cancel. In: {id, tablesUrl, matchupsUrl, weights, board, dead, targetSe, seed (of the sampling; part k
// of several uses seed + k), exact (enumerate whatever the work)}. Out: {id, progress}
// about every progressMs (default 100 ms; 0: at every report of the engine) with the running counts ({done, total, counts: {win, ties, total, visited, unit}} while
// enumerating: boards, or deals of hole cards up to suit symmetry, by unit; {samples, se, counts: {win, ties, samples}} while sampling; progressResult() in
// range-equity.js turns them into figures), then {id, result, ms} or {id, error, player}. The multiway table is read from multiway.json beside
// matchupsUrl (when missing, the spot is sampled).
// As one of several workers (equity-pool.js) the message also holds {part, parts}: the worker then
// enumerates its share of the boards (or deals), or samples its own stream to targetSe·√parts, and answers
// {id, counts, method} with counts that add up (enumerateCounts / Monte Carlo integer counts).
import { parseTables } from "../engines/evaluator.js";
import { parseMatchupTable } from "../engines/matchup-table.js";
import { classTableDocument, classTableFile, enumerateCounts, planEquity, rangeEquity, sampleEquity } from "../engines/range-equity.js";

const PROGRESS_EVERY_MS = 100; // default of the message's progressMs
const cache = {};
async function fetched(url, read) {
  cache[url] ??= fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return read(response);
  });
  return cache[url];
}

/** The class-against-random table beside matchups.bin (the exact counts at the sizes in ``exactPlayers``, else
 *  multiway.json), or null when the site has none (then the spot is sampled). */
const multiwayTable = (matchupsUrl, players, exactPlayers) => fetched(new URL(classTableFile(players, exactPlayers), matchupsUrl).href,
  async (r) => classTableDocument(players, await r.json(), exactPlayers)).catch(() => null);

self.onmessage = async (e) => {
  const { id, tablesUrl, matchupsUrl, weights, board, dead, targetSe, part = 0, parts = 1, progressMs = PROGRESS_EVERY_MS,
    seed = 1, exact = false, exactPlayers = [3] } = e.data;
  const exactLimit = exact ? Infinity : undefined;
  try {
    const tables = await fetched(tablesUrl, async (r) => parseTables(await r.arrayBuffer()));
    const arrays = weights.map((w) => Float64Array.from(w));
    const started = performance.now();
    let lastPost = started;
    const onProgress = (done, extra, counts) => {
      const now = performance.now();
      if (now - lastPost >= progressMs) {
        lastPost = now;
        self.postMessage({ id, progress: Array.isArray(extra) ? { samples: done, se: Math.max(...extra), counts } : { done, total: extra, counts } });
      }
      return false;
    };
    if (parts > 1) {
      const { method, live } = planEquity(arrays, board, dead, { exactLimit });
      const counts = method === "enumeration" ? enumerateCounts(tables, live, board, dead, { part, parts, onProgress })
        : sampleEquity(tables, live, board, dead, { targetSe: targetSe * Math.sqrt(parts), seed: seed + part, onProgress }).counts;
      self.postMessage({ id, counts, method, ms: performance.now() - started });
      return;
    }
    const { method } = planEquity(arrays, board, dead, { exactLimit });
    const matchups = method === "table" ? await fetched(matchupsUrl, async (r) => parseMatchupTable(await r.arrayBuffer())) : null;
    const multiway = method === "multiway table" ? await multiwayTable(matchupsUrl, arrays.length, exactPlayers) : null;
    const result = rangeEquity(tables, arrays, board, dead, { matchups, multiway, targetSe, seed, exactLimit, onProgress });
    self.postMessage({ id, result, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, error: error.message, player: error.player ?? null, blockers: error.blockers ?? [] });
  }
};
