// The push/fold page's stack selector ("show me 10 bb"): highlights the hands the small blind
// pushes and the big blind calls at one effective stack, says what share of hands that is, and
// keeps the choice in the URL (?stack=10). The charts themselves are static HTML.

const pct = (x) => `${(100 * x).toFixed(1)}%`;

function pick(data, form, value) {
  const k = value === "" ? -1 : data.stacks.indexOf(Number(value));
  const stack = k >= 0 ? data.stacks[k] : null;
  form.stack.value = stack === null ? "" : String(stack);
  for (const [key, id, verb] of [["push", "push-chart", "pushed"], ["call", "call-chart", "called"]]) {
    const grid = document.getElementById(id);
    grid.classList.toggle("picking", stack !== null);
    for (const a of grid.querySelectorAll("a[data-i]")) {
      const played = stack !== null && data[key][k][Number(a.dataset.i)] === "1";
      a.parentElement.classList.toggle("out", stack !== null && !played);
      a.querySelector(".at-stack").textContent = stack === null ? "" : `; at ${stack} bb: ${played ? verb : "folded"}`;
    }
  }
  const summary = document.getElementById("stack-summary");
  summary.textContent = stack === null ? "" :
    `At ${stack} bb the small blind pushes ${pct(data.push_share[k])} of all hands and the big blind calls with ` +
    `${pct(data.call_share[k])}; the other hands are greyed out.`;
  const query = new URLSearchParams(location.search);
  if (stack === null) query.delete("stack"); else query.set("stack", String(stack));
  const search = query.toString() ? `?${query}` : "";
  history.replaceState(null, "", location.pathname + search + location.hash);
}

const form = document.getElementById("stack-pick");
const payload = document.getElementById("pushfold-picker");
if (form && payload) {
  const data = JSON.parse(payload.textContent);
  form.hidden = false;
  form.addEventListener("submit", (e) => e.preventDefault());
  form.stack.addEventListener("change", () => pick(data, form, form.stack.value));
  pick(data, form, new URLSearchParams(location.search).get("stack") ?? "");
}
