// Web Worker of the matchup explorer: enumerates every board of the requested combo pairs with
// evaluator.js off the main thread, posting progress about every 100 ms and then the exact counts.
// The page starts one worker per question. In: {tablesUrl, combosA, combosB}. Out: {progress} …,
// then {result: {win, tie, loss, pairs, ms}} (ms: enumeration time) or {error}.
import { matchup, parseTables } from "../engines/evaluator.js";

const PROGRESS_EVERY_MS = 100;
async function loadTables(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`evaluator tables: HTTP ${response.status}`);
  return parseTables(await response.arrayBuffer());
}

self.onmessage = async (e) => {
  const { tablesUrl, combosA, combosB } = e.data;
  try {
    const tables = await loadTables(tablesUrl);
    let lastPost = performance.now();
    const started = lastPost;
    const result = matchup(tables, combosA, combosB, (fraction) => {
      const now = performance.now();
      if (now - lastPost >= PROGRESS_EVERY_MS) {
        lastPost = now;
        self.postMessage({ progress: fraction });
      }
    });
    self.postMessage({ result: { ...result, ms: performance.now() - started } });
  } catch (error) {
    self.postMessage({ error: error.message });
  }
};
