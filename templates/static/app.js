// keizer app: small enhancements; every page works without this script.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Ask before a form that cannot be taken back lightly (undo, unpair, remove).
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
  // Filter-as-you-type: <input data-filter="#table-id"> hides rows whose text does not match.
  for (const input of document.querySelectorAll("input[data-filter]")) {
    const target = document.querySelector(input.dataset.filter);
    if (!target) continue;
    const fold = (s) => s.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
    input.addEventListener("input", () => {
      const wanted = fold(input.value.trim());
      for (const row of target.querySelectorAll("[data-name]")) {
        row.hidden = wanted !== "" && !fold(row.dataset.name).includes(wanted);
      }
    });
  }
});
