// Web Worker for large ICM fields: runs icm.js off the main thread so the page stays responsive.
import { icm } from "./icm.js";

self.onmessage = (e) => {
  const { id, stacks, payouts } = e.data;
  try {
    self.postMessage({ id, result: icm(stacks, payouts) });
  } catch (error) {
    self.postMessage({ id, error: error.message });
  }
};
