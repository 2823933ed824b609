// keizer site: the front page's "Find a player" box filters the list under it as you type.
// Without this script the list is simply there in full.  Case, accents (Ł, ø, ß too), spaces
// and apostrophes are left out of the comparison: "lukasz", "obrien", "van t hof" find them.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll("input[data-filter]")) {
    const list = document.querySelector(box.dataset.filter);
    if (!list) continue;
    const items = Array.from(list.children).map((li) => [li, fold(li.textContent)]);
    box.addEventListener("input", () => {
      const words = box.value.split(/\s+/).map(fold).filter(Boolean);
      for (const [li, text] of items) li.hidden = !words.every((w) => text.includes(w));
    });
  }
});

function fold(text) {
  const special = { "ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i" };
  return text.normalize("NFKD").replace(/\p{Diacritic}/gu, "").toLowerCase()
    .replace(/[łøßæœđðþı]/g, (c) => special[c]).replace(/[^\p{L}\p{N}]/gu, "");
}
