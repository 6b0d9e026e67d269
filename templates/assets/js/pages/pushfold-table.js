// The call chart of a static push/fold chart page (templates/pushfold-table.html): a selector of the call
// spots (each caller against each lone shover) and the 13×13 chart of the spot picked, drawn from the
// page's embedded `#call-spots` data (generator/pushfold_pages.table_context) by the solver page's
// renderer. The page draws only the shove charts itself, so that a 6-player page stays light; every call
// range is also in the page's table in words, which is what a reader sees without JavaScript.

import { rovingGrid } from "../widgets/grid-nav.js";
import { chartSection } from "../widgets/pushfold-view.js";

const slot = document.getElementById("call-chart");
const spots = JSON.parse(document.getElementById("call-spots").textContent);
const { root, stack } = slot.dataset;

const label = document.createElement("label");
label.htmlFor = "call-spot";
label.textContent = "Spot";
const select = document.createElement("select");
select.id = "call-spot";
for (const spot of spots) select.append(new Option(spot.title, spot.id));
const field = document.createElement("div");
field.className = "field call-pick";
field.append(label, select);
const chart = document.createElement("div");

function show() {
  const spot = spots.find((s) => s.id === select.value);
  const drawn = chartSection(spot.id, `${spot.title} at ${stack} bb`, spot.frequencies, `${spot.spot}: calls`, root, spot.largest);
  chart.replaceChildren(drawn.section);
  rovingGrid(drawn.table);
}

select.addEventListener("change", show);
slot.append(field, chart);
show();
slot.hidden = false;
