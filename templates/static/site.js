// keizer site: a "Find a player" box filters the list it names as you type.  On the front
// page (data-found) the list shows only while something is typed; the page of every player
// A–Z takes the name typed on the front page along (?q=).  Without this script the A–Z page
// simply lists everyone and the front page's box opens it.  Case, accents (Ł, ø, ß too),
// spaces and apostrophes are left out of the comparison: "lukasz", "obrien", "van t hof" find them.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll("input[data-filter]")) {
    const list = document.querySelector(box.dataset.filter);
    if (!list) continue;
    const items = Array.from(list.children).map((li) => [li, fold(li.textContent)]);
    const found = "found" in box.dataset;
    const filter = () => {
      const words = box.value.split(/\s+/).map(fold).filter(Boolean);
      for (const [li, text] of items) li.hidden = !words.every((w) => text.includes(w));
      if (found) list.hidden = words.length === 0;
    };
    box.addEventListener("input", filter);
    const asked = new URLSearchParams(window.location.search).get("q");
    if (asked && !found) {
      box.value = asked;
      filter();
    }
  }
});

function fold(text) {
  const special = { "ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i" };
  return text.normalize("NFKD").replace(/\p{Diacritic}/gu, "").toLowerCase()
    .replace(/[łøßæœđðþı]/g, (c) => special[c]).replace(/[^\p{L}\p{N}]/gu, "");
}
