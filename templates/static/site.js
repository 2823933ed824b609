// keizer site: the front page's "Find a player" box filters the list under it as you type.
// Without this script the list is simply there in full.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll("input[data-filter]")) {
    const list = document.querySelector(box.dataset.filter);
    if (!list) continue;
    // Case and accents ignored; letters that do not decompose (Polish ł, Danish ø, Croatian đ,
    // German ß) as a member types them.
    const fold = (s) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/ł/g, "l").replace(/ø/g, "o").replace(/đ/g, "d").replace(/ß/g, "ss");
    const items = Array.from(list.children).map((li) => [li, fold(li.textContent)]);
    box.addEventListener("input", () => {
      const words = fold(box.value).split(/\s+/).filter(Boolean);
      for (const [li, text] of items) li.hidden = !words.every((w) => text.includes(w));
    });
  }
});
