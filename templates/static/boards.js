// keizer app: the reports page shows new reports as they arrive (reloads every 20 s while
// no choice is being made); without this script the Refresh link does it.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  if (!document.querySelector("a[data-refresh]")) return;
  let busy = false;
  document.addEventListener("input", () => { busy = true; });
  window.setInterval(() => {
    const active = document.activeElement;
    if (!busy && !(active && active.closest("form"))) window.location.reload();
  }, 20000);
});
