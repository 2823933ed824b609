// The attendance page: counts follow the marks as they are tapped (the form works without this).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const list = document.querySelector("#att-players");
  const counts = document.querySelector("#att-counts");
  if (!list || !counts) return;
  const recount = () => {
    const found = {};
    for (const row of list.querySelectorAll(".att-player")) {
      const checked = row.querySelector("input[type=radio]:checked");
      const key = checked && checked.value !== "" ? checked.value : row.dataset.counted;
      found[key] = (found[key] || 0) + 1;
    }
    for (const item of counts.querySelectorAll("[data-status]")) {
      const n = found[item.dataset.status] || 0;
      item.querySelector("b").textContent = String(n);
      item.hidden = n === 0;
    }
  };
  list.addEventListener("change", (event) => {
    if (event.target.matches("input[type=radio]")) recount();
  });
  // Choosing an external result chooses "external" too.
  for (const select of list.querySelectorAll("select[name^='x-']")) {
    select.addEventListener("change", () => {
      const radio = list.querySelector(`input[name='a-${CSS.escape(select.name.slice(2))}'][value='external']`);
      if (radio && !radio.checked) { radio.checked = true; recount(); }
    });
  }
});
