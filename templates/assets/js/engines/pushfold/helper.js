// The helper's side of a shared solve (solveSteps with `share`: a second Web Worker takes about half of the 3-way
// sums): its own copy of the 3-way table and of the table's game, and the tasks the solving thread posts
// (Evaluator.message), run by the same code as there (runTask), so that where a task runs never changes its result.
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import { runTask } from "./best-response.js";
import { makeGame } from "./game.js";
import { marginals } from "./model.js";
import { Strategy } from "./strategy.js";

/** What a helper needs of a 3-way table (loadEquities' `triple`), to post once: its rows, scale, marginals and
 *  whether its tensors are float64 (`tensorType`, as the tests set it). */
export function helperTable(triple) {
  return { rows: triple.rows, scale: triple.scale, marginals: marginals(triple), float64: triple.tensorType === Float64Array };
}

/** Runs posted tasks against a helperTable (as received, setTriple) for one table (setTable) at a time; the two may
 *  come in either order. */
export class TaskRunner {
  setTriple({ rows, scale, marginals: kept, float64 }) {
    this.triple = { rows, weights: new Uint16Array(rows.buffer, rows.byteOffset, rows.byteLength / 2), scale, marginals: kept,
      ...(float64 ? { tensorType: Float64Array } : {}) };
  }

  /** The table (as solveSteps') whose tasks come next. */
  setTable(table) {
    this.game = makeGame(table);
    this.strategy = new Strategy(this.game.infosets.length, null);
  }

  /** The results of posted tasks ({spec, strategies}), in order. */
  run(messages) {
    const context = { game: this.game, triple: this.triple };
    return messages.map(({ spec, strategies }) => {
      for (const [i, p] of strategies) {
        this.strategy.p[i].set(p);
        this.strategy.changed(i);
      }
      return runTask(context, this.strategy, spec);
    });
  }
}
