// The bounty fields of the ICM pages (KO and PKO): reading the typed bounties and bounty share, and
// the sentence naming the model. The twin of generator/cli/bounties.py (read_bounties,
// read_share, model_line), with the pages' field names; goldens in spec/bounty.json.
// Pure ES module: no DOM.
import { parseNumber, parseNumberList, shownEntry } from "../engines/number-list.js";
import { formatSignificant } from "../engines/python-format.js";

export const FIELD_NAMES = ["bounties", "bounty share"];

/** A share typed "0.5" or "50%" → 0.5; throws Error (starting with `name`) when it is not a number or
 * is outside 0..1 (0%..100%). */
export function readShare(text, name = FIELD_NAMES[1]) {
  const stripped = text.trim();
  const percent = stripped.endsWith("%");
  const value = parseNumber(percent ? stripped.slice(0, -1) : stripped, name);
  const share = percent ? value / 100 : value;
  if (!(share >= 0 && share <= 1)) {
    throw new Error(`${name}: ${shownEntry(stripped)} is outside 0 to 1 (0% to 100%): the part of a bounty paid ` +
      "in cash at a knockout, 1 for a regular KO, 0.5 for a typical PKO");
  }
  return share;
}

/** {bounties (numbers, or null when none are typed), share (1 by default), errors: [{field: "bounties" |
 * "share", message}]} from the typed text (null or blank: not given) and whether the payouts were typed
 * as percentages; the errors are those of read_bounties in the order it finds them, every one of them
 * (it stops at the first). The count and the values are bounty.js's to check. */
export function readBounties(bountiesText, shareText, percent, names = FIELD_NAMES) {
  const [bountiesName, shareName] = names;
  const given = (text) => text !== null && text.trim() !== "";
  const errors = [];
  const attempt = (field, read) => {
    try {
      return read();
    } catch (error) {
      errors.push({ field, message: error.message });
      return null;
    }
  };
  if (!given(bountiesText)) {
    if (given(shareText)) errors.push({ field: "share", message: `${shareName} needs ${bountiesName} (one bounty per player)` });
    return { bounties: null, share: 1, errors };
  }
  if (percent) {
    errors.push({ field: "bounties", message: `${bountiesName}: give the payouts as amounts in the unit of the bounties, ` +
      "not as percentages of the pool" });
  }
  const bounties = percent ? null : attempt("bounties", () => parseNumberList(bountiesText, bountiesName));
  const share = given(shareText) ? attempt("share", () => readShare(shareText, shareName)) : 1;
  return { bounties, share, errors };
}

/** One sentence naming the bounties and how a knockout pays them (model_line). */
export function modelLine(bounties, share) {
  const total = formatSignificant(bounties.reduce((sum, bounty) => sum + bounty, 0), 10, true);
  const rule = share === 1
    ? "regular KO: a bounty is paid in full to whoever knocks its player out"
    : `PKO: ${formatSignificant(100 * share, 10)}% of a bounty paid in cash at a knockout, ${formatSignificant(100 * (1 - share), 10)}% ` +
      "added to the winner's own bounty";
  return `Bounties: ${total} on heads (${rule}); bounties left valued in proportion to chips.`;
}
