// Web Worker of the equity calculator: runs range-equity.js off the main thread. The page terminates
// it to cancel. In: {id, tablesUrl, matchupsUrl, weights, board, dead, targetSe}. Out: {id, progress}
// about every 100 ms ({done, total} while enumerating, {samples, se} while sampling), then
// {id, result, ms} or {id, error, player}.
import { parseTables } from "./evaluator.js";
import { rangeEquity } from "./range-equity.js";

const PROGRESS_EVERY_MS = 100;
const cache = {};
async function fetched(url, read) {
  cache[url] ??= fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return read(response);
  });
  return cache[url];
}

self.onmessage = async (e) => {
  const { id, tablesUrl, matchupsUrl, weights, board, dead, targetSe } = e.data;
  try {
    const tables = await fetched(tablesUrl, async (r) => parseTables(await r.arrayBuffer()));
    const matchups = weights.length === 2 && !board.length && !dead.length ? await fetched(matchupsUrl, (r) => r.json()) : null;
    const started = performance.now();
    let lastPost = started;
    const onProgress = (done, extra) => {
      const now = performance.now();
      if (now - lastPost >= PROGRESS_EVERY_MS) {
        lastPost = now;
        self.postMessage({ id, progress: Array.isArray(extra) ? { samples: done, se: Math.max(...extra) } : { done, total: extra } });
      }
      return false;
    };
    const result = rangeEquity(tables, weights.map((w) => Float64Array.from(w)), board, dead, { matchups, targetSe, onProgress });
    self.postMessage({ id, result, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, error: error.message, player: error.player ?? null });
  }
};
