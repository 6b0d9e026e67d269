// Python's number formatting where the browser must print the same text as the Python side
// (error messages compared on shared fixtures, file names of the precomputed push/fold set).

/** Python's f"{x:g}": 6 significant digits, trailing zeros dropped, exponent form below 1e-4 or from 1e6. */
export function formatG(x) {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const [mantissa, power] = x.toExponential(5).split("e");
  const exponent = Number(power);
  const strip = (text) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);
  if (exponent < -4 || exponent >= 6) return `${strip(mantissa)}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  return strip(x.toFixed(Math.max(0, 5 - exponent)));
}
