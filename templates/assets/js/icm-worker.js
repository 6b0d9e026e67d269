// Web Worker for the ICM page: runs icm.js off the main thread so the page stays responsive.
// Message {id, kind: "icm" | "bubble", stacks, payouts} → {id, result} or {id, error}.
import { bubbleFactors, icm } from "./icm.js";

self.onmessage = (e) => {
  const { id, kind, stacks, payouts } = e.data;
  try {
    self.postMessage({ id, result: kind === "bubble" ? bubbleFactors(stacks, payouts) : icm(stacks, payouts) });
  } catch (error) {
    self.postMessage({ id, error: error.message });
  }
};
