// keizer venue screen: alternate the boards and the standing, and fetch fresh data.
// Without this script the page shows both and reloads itself every minute.
"use strict";
(() => {
  const SWITCH_MS = 20000;  // each page stays ~20 s
  const POLL_MS = 20000;    // fresh data every 20 s
  const body = document.body;
  const pairs = document.getElementById("venue-pairs");
  const table = document.getElementById("venue-table");
  let showing = pairs;

  const cell = (tag, text, cls) => {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = text == null ? "" : String(text);
    return el;
  };

  function pairRows(d) {
    const columns = Number(body.dataset.columns || 4);
    const points = columns > 4;
    const rows = [];
    for (const p of d.pairs) {
      const tr = document.createElement("tr");
      if (p.type === "match") {
        tr.className = "match";
        const th = cell("th", "", null);
        th.scope = "rowgroup";
        th.colSpan = columns;
        th.append(cell("span", `${p.top} – ${p.bottom}`, "teams"), " ", cell("span", p.note, "how"));
        tr.append(th);
      } else {
        tr.append(cell("td", p.board, "num"), cell("td", p.white));
        if (points) tr.append(cell("td", p.white_points, "num pts"));
        const result = cell("td", p.result, "result");
        if (p.stage) result.append(" ", cell("span", p.stage, "stage"));
        tr.append(result);
        if (points) tr.append(cell("td", p.black_points, "num pts"));
        tr.append(cell("td", p.black));
      }
      rows.push(tr);
    }
    return rows;
  }

  function tableRows(d) {
    return d.table.map((r) => {
      const tr = document.createElement("tr");
      tr.append(cell("td", r.rank, "num"), cell("td", r.name));
      for (const c of r.cells) tr.append(cell("td", c, d.standing.length ? "num" : null));
      return tr;
    });
  }

  function fill(d) {
    document.getElementById("venue-name").textContent = d.name;
    document.getElementById("venue-pairs-title").textContent = d.heading;
    document.getElementById("venue-table-title").textContent = d.table_heading;
    document.querySelector("#venue-pairs-table tbody").replaceChildren(...pairRows(d));
    document.querySelector("#venue-table-table tbody").replaceChildren(...tableRows(d));
    document.getElementById("venue-pairs-table").hidden = d.pairs.length === 0;
    document.getElementById("venue-pairs-none").hidden = d.pairs.length > 0;
    document.getElementById("venue-table-table").hidden = d.table.length === 0;
    document.getElementById("venue-table-none").hidden = d.table.length > 0;
    const byes = document.getElementById("venue-byes");
    byes.hidden = d.byes.length === 0;
    byes.querySelector("span").textContent = d.byes.join(", ");
    const checkin = document.getElementById("venue-checkin");  // check-in ends with the pairing
    if (checkin && d.pairs.length > 0 && String(d.round) === checkin.dataset.round) checkin.hidden = true;
    fit();
  }

  // Shrink the type until a panel fits the screen (down to a readable size); a panel that
  // still does not fit is shown page by page: every row gets its turn, none is left out.
  let views = [];  // [panel, first row, last row] in the order they are shown
  let current = 0;

  function paginate(panel) {
    const rows = Array.from(panel.querySelectorAll("tbody tr"));
    for (const tr of rows) tr.hidden = false;
    const bottom = document.querySelector("main").getBoundingClientRect().bottom;
    const pages = [];
    let first = 0;
    while (first < rows.length) {
      for (const [k, tr] of rows.entries()) tr.hidden = k < first;
      let last = first;
      while (last < rows.length && rows[last].getBoundingClientRect().bottom <= bottom) last += 1;
      if (last === first) last = first + 1;  // a row taller than the screen still gets shown
      pages.push([panel, first, last]);
      first = last;
    }
    for (const tr of rows) tr.hidden = false;
    return pages.length ? pages : [[panel, 0, 0]];
  }

  function fit() {
    if (window.innerWidth < 800) {  // a phone or a small tablet: everything, scrolled
      views = [];
      for (const panel of [pairs, table]) {
        panel.classList.remove("off");
        for (const tr of panel.querySelectorAll("tbody tr")) tr.hidden = false;
        setPage(panel, "");
      }
      return;
    }
    const main = document.querySelector("main");
    views = [];
    for (const panel of [pairs, table]) {
      panel.classList.remove("off");
      for (const other of [pairs, table]) if (other !== panel) other.classList.add("off");
      let size = 100;
      panel.style.fontSize = "100%";
      for (const tr of panel.querySelectorAll("tbody tr")) tr.hidden = false;
      while (panel.scrollHeight > main.clientHeight && size > 70) {
        size -= 5;
        panel.style.fontSize = `${size}%`;
      }
      views.push(...paginate(panel));
    }
    current = Math.min(current, views.length - 1);
    show();
  }

  function setPage(panel, text) {
    const mark = panel.querySelector(".page");
    if (mark) mark.textContent = text;
  }

  function show() {
    if (!views.length) return;
    const [panel, first, last] = views[current];
    const mine = views.filter((v) => v[0] === panel);
    for (const other of [pairs, table]) other.classList.toggle("off", other !== panel);
    for (const [k, tr] of Array.from(panel.querySelectorAll("tbody tr")).entries()) tr.hidden = k < first || k >= last;
    setPage(panel, mine.length > 1 ? `${mine.findIndex((v) => v[1] === first) + 1}/${mine.length}` : "");
  }

  function flip() {
    if (!views.length) return;
    current = (current + 1) % views.length;
    show();
  }

  async function poll() {
    try {
      const response = await fetch(body.dataset.source, {credentials: "same-origin", cache: "no-store"});
      if (response.ok && (response.headers.get("Content-Type") || "").startsWith("application/json")) {
        fill(await response.json());
      } else if (response.redirected || response.status === 401) {
        window.location.reload();  // logged out: the login page
      }
    } catch (_error) {
      // The server is away for a moment: keep showing what we have.
    }
  }

  body.classList.add("rotating");
  table.classList.add("off");
  fit();
  window.addEventListener("resize", fit);
  setInterval(flip, SWITCH_MS);
  setInterval(poll, POLL_MS);
})();
