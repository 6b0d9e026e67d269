// The 2,598,960 five-card boards up to suit relabelling (134,459 classes), each with its ten flops' suit-distinct
// flops: what the every-flop report (flop-equity.js) walks. The browser's twin of kernels/flop/boards.py: the same
// classes in the same order (ascending codes, suit k holding the k-th largest rank mask), generated directly
// from suit masks of popcounts adding up to 5, each at most the one before.

import { suitDistinctFlops } from "./flops.js";

export const N_BOARD_CLASSES = 134459;
/** The three-card subsets of a five-card board: positions in its sorted cards (Python's FLOPS_OF_BOARD). */
export const FLOPS_OF_BOARD = [];
for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) for (let k = j + 1; k < 5; k++) FLOPS_OF_BOARD.push([i, j, k]);

const popcount = (m) => { let n = 0; for (; m; m &= m - 1) n++; return n; };

/** Codes (m0·2^39 + m1·2^26 + m2·2^13 + m3, exact doubles) of every class: masks m0 ≥ m1 ≥ m2 ≥ m3 holding 5 cards. */
function classCodes() {
  const byPopcount = Array.from({ length: 6 }, () => []);
  for (let m = 0; m < 8192; m++) if (popcount(m) <= 5) byPopcount[popcount(m)].push(m);
  const codes = new Float64Array(N_BOARD_CLASSES);
  let n = 0;
  for (let p0 = 0; p0 < 6; p0++) {
    for (let p1 = 0; p1 < 6 - p0; p1++) {
      for (let p2 = 0; p2 < 6 - p0 - p1; p2++) {
        const p3 = 5 - p0 - p1 - p2;
        for (const m0 of byPopcount[p0]) {
          for (const m1 of byPopcount[p1]) {
            if (m1 > m0) break;
            for (const m2 of byPopcount[p2]) {
              if (m2 > m1) break;
              for (const m3 of byPopcount[p3]) {
                if (m3 > m2) break;
                codes[n++] = ((m0 * 8192 + m1) * 8192 + m2) * 8192 + m3;
              }
            }
          }
        }
      }
    }
  }
  if (n !== N_BOARD_CLASSES) throw new Error(`${n} board classes, expected ${N_BOARD_CLASSES}`);
  return codes.sort();
}

let classes = null;
/**
 * {boards: Int32Array(134459 × 5) sorted card ids, sizes: Int32Array(134459) (boards each class stands for: 24 / Π k!
 * over runs of k equal suit masks), flops: Int16Array(134459 × 10) (the suit-distinct flop of each three-card
 * subset, FLOPS_OF_BOARD's order)}: Python's board_classes, computed once.
 */
export function boardClasses() {
  if (classes) return classes;
  const codes = classCodes();
  const { orbitOf } = suitDistinctFlops();
  const boards = new Int32Array(5 * N_BOARD_CLASSES), sizes = new Int32Array(N_BOARD_CLASSES);
  const flops = new Int16Array(10 * N_BOARD_CLASSES);
  const masks = [0, 0, 0, 0];
  codes.forEach((code, b) => {
    let rest = code;
    for (let s = 3; s >= 0; s--) { masks[s] = rest % 8192; rest = Math.floor(rest / 8192); }
    let fixed = 1, run = 1, n = 0;
    for (let s = 1; s < 4; s++) { run = masks[s] === masks[s - 1] ? run + 1 : 1; fixed *= run; }
    sizes[b] = 24 / fixed;
    for (let card = 0; card < 52; card++) if ((masks[card & 3] >> (card >> 2)) & 1) boards[5 * b + n++] = card;
    FLOPS_OF_BOARD.forEach(([i, j, k], f) => {
      flops[10 * b + f] = orbitOf[(52 * boards[5 * b + i] + boards[5 * b + j]) * 52 + boards[5 * b + k]];
    });
  });
  classes = { boards, sizes, flops };
  return classes;
}
