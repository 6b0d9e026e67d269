// Matchup explorer: exact heads-up result of one class against another, looked up in matchups.json.
// The two picks live in the URL (?a=AKs&b=QQ) so a result can be shared.

const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const count = (n) => n.toLocaleString("en-US");
const BOARDS = 1712304;

function resultHtml(m, i, j, handsBase) {
  const [a, b] = [m.classes[i], m.classes[j]];
  const win = m.win[i][j], tie = m.tie[i][j], loss = m.loss[i][j];
  const total = win + tie + loss;
  const link = (c) => `<a href="${handsBase}${c}/index.html">${c}</a>`;
  return `
    <div class="versus">
      <div><p>${link(a)} equity</p><p class="big" data-equity="${m.equity[i][j]}">${pct(m.equity[i][j])}</p></div>
      <div><p>${link(b)} equity</p><p class="big">${pct(m.equity[j][i])}</p></div>
    </div>
    <div class="split" aria-hidden="true"><i class="w" style="width:${(100 * win) / total}%"></i><i class="t" style="width:${(100 * tie) / total}%"></i></div>
    <table class="data">
      <thead><tr><th scope="col">${a} against ${b}</th><th scope="col">Boards</th><th scope="col">Share</th></tr></thead>
      <tbody>
        <tr><th scope="row">${a} wins</th><td>${count(win)}</td><td>${pct(win / total)}</td></tr>
        <tr><th scope="row">Tie (split pot)</th><td>${count(tie)}</td><td>${pct(tie / total)}</td></tr>
        <tr><th scope="row">${b} wins</th><td>${count(loss)}</td><td>${pct(loss / total)}</td></tr>
        <tr><th scope="row">All</th><td>${count(total)}</td><td>${count(m.pairs[i][j])} combo pairs × ${count(BOARDS)} boards</td></tr>
      </tbody>
    </table>`;
}

async function main() {
  const form = document.getElementById("matchup-form");
  if (!form) return;
  const out = document.getElementById("matchup-result");
  const [selectA, selectB] = [form.elements.a, form.elements.b];
  const params = new URLSearchParams(location.search);
  const known = (c) => [...selectA.options].some((o) => o.value === c);
  if (known(params.get("a"))) selectA.value = params.get("a");
  if (known(params.get("b"))) selectB.value = params.get("b");

  out.innerHTML = '<p class="note">Loading the 169×169 table…</p>';
  let data;
  try {
    const response = await fetch(form.dataset.source);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    data = await response.json();
  } catch (error) {
    out.innerHTML = `<p class="notice">Could not load matchups.json (${error.message}). Pages opened from disk cannot load data files: serve the site (allin serve) or use the hand pages.</p>`;
    return;
  }
  const show = () => {
    const i = data.classes.indexOf(selectA.value);
    const j = data.classes.indexOf(selectB.value);
    out.innerHTML = resultHtml(data, i, j, form.dataset.hands);
    history.replaceState(null, "", `?a=${encodeURIComponent(selectA.value)}&b=${encodeURIComponent(selectB.value)}`);
  };
  form.addEventListener("change", show);
  form.addEventListener("submit", (e) => { e.preventDefault(); show(); });
  document.getElementById("swap").addEventListener("click", () => {
    [selectA.value, selectB.value] = [selectB.value, selectA.value];
    show();
  });
  show();
}

main();
