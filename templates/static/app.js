// keizer app: small enhancements; every page works without this script.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Ask before a form that cannot be taken back lightly (undo, unpair, remove).
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
  // A bar that scrolls sideways on a phone shows the page one is on.
  for (const current of document.querySelectorAll(".main-nav [aria-current], nav.tabs [aria-current]")) {
    const bar = current.parentElement;
    if (bar.scrollWidth > bar.clientWidth) bar.scrollLeft = current.offsetLeft - (bar.clientWidth - current.offsetWidth) / 2;
  }
  // Filter-as-you-type: <input data-filter="#table-id"> hides rows whose text does not match.
  // Names are compared as the CLI compares them: case, accents (Ł, ø, ß too), spaces and
  // apostrophes left out, so "lukasz", "obrien" and "van t hof" find who they mean.
  for (const input of document.querySelectorAll("input[data-filter]")) {
    const target = document.querySelector(input.dataset.filter);
    if (!target) continue;
    input.addEventListener("input", () => {
      const words = input.value.split(/\s+/).map(fold).filter(Boolean);
      for (const row of target.querySelectorAll("[data-name]")) {
        const name = fold(row.dataset.name);
        row.hidden = !words.every((w) => name.includes(w));
      }
    });
  }
});

function fold(text) {
  const special = { "ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i" };
  return text.normalize("NFKD").replace(/\p{Diacritic}/gu, "").toLowerCase()
    .replace(/[łøßæœđðþı]/g, (c) => special[c]).replace(/[^\p{L}\p{N}]/gu, "");
}
