// Python's number formatting where the browser must print the same text as the Python side
// (error messages compared on shared fixtures, file names of the precomputed push/fold set).

/** Python's f"{x:.{precision}g}" (with `grouped`, f"{x:,.{precision}g}"): `precision` significant
 * digits, trailing zeros dropped, exponent form below 1e-4 or from 10^precision. */
export function formatSignificant(x, precision, grouped = false) {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const [mantissa, power] = x.toExponential(precision - 1).split("e");
  const exponent = Number(power);
  const strip = (text) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);
  if (exponent < -4 || exponent >= precision) return `${strip(mantissa)}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  const fixed = strip(x.toFixed(Math.max(0, precision - 1 - exponent)));
  return grouped ? fixed.replace(/^-?\d+/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ",")) : fixed;
}

/** Python's f"{x:g}": 6 significant digits (one argument: safe to pass to Array.map). */
export const formatG = (x) => formatSignificant(x, 6);
