// The ranking of the 169 classes that x% ranges take their top x% of (ranges.js's topPercent): best first by
// exact heads-up equity against a random hand, from the build's headsup.json (as Python's ranking_from_equity),
// fetched once per page. A module of its own, light to load: the calculators read a typed range with it before
// any of their engines is needed.

import { rankingFromHeadsup } from "../engines/ranges.js";

let ranking = null;
/** Class indices best first (a Promise, cached) from the headsup.json at ``url``. */
export function loadRanking(url) {
  ranking ??= fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`headsup.json: HTTP ${response.status}`);
    return rankingFromHeadsup(await response.json());
  });
  return ranking;
}
