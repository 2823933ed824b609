// keizer app: the results grid, keyboard first.  One key per board saves the result and
// moves on (1 0 = ½ +; "-" waits a moment for a second "-"); Enter saves and moves on; an
// emptied box clears the result when it loses focus.  Each board is posted alone (JSON) and
// the standing beside the grid reloads.  Without this script the grid is a plain form.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("results-form");
  if (!form) return;
  const status = document.getElementById("results-status");
  const fragment = document.getElementById("standing-fragment");
  const inputs = Array.from(form.querySelectorAll("td.cell input[name^='r']"));
  const ONE_KEY = new Set(["1", "0", "=", "½", "+", "--"]);
  const sent = new Map();  // what was last posted per box: a blur after a one-key save posts nothing

  const board = (input) => input.name.slice(1);
  const row = (input) => input.closest("tr");
  const was = (input) => form.querySelector(`input[name='was${board(input)}']`);

  function next(input) {
    const k = inputs.indexOf(input);
    const following = inputs[k + 1];
    if (following) {
      following.focus();
      following.select();
    } else {
      input.blur();
    }
  }

  function say(text, kind) {
    status.textContent = text;
    status.className = "note" + (kind ? " " + kind : "");
  }

  function flash(text, kind) {
    let box = document.querySelector(".flashes");
    if (!box) {
      box = document.createElement("div");
      box.className = "flashes";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      document.getElementById("main").prepend(box);
    }
    const p = document.createElement("p");
    p.className = "flash " + kind;
    p.textContent = text;
    box.replaceChildren(p);
  }

  async function reloadStanding() {
    if (!fragment || !form.dataset.standing) return;
    try {
      const reply = await fetch(form.dataset.standing, { headers: { "X-Requested-With": "keizer" } });
      if (reply.ok) fragment.innerHTML = await reply.text();  // the server's own escaped HTML
    } catch (_error) {
      // the standing stays as it was; the next save tries again
    }
  }

  async function save(input) {
    const typed = input.value.trim();
    if (typed === input.dataset.was.trim() || typed === sent.get(input)) return;
    sent.set(input, typed);
    const data = new FormData();
    data.append("csrf", form.querySelector("input[name='csrf']").value);
    data.append("round", form.querySelector("input[name='round']").value);
    data.append(input.name, typed);
    data.append("was" + board(input), input.dataset.was);
    const tr = row(input);
    tr.classList.remove("refused");
    tr.classList.add("saving");
    let reply, body;
    try {
      reply = await fetch(form.action, {
        method: "POST", body: data, headers: { "X-Requested-With": "keizer", "Accept": "application/json" },
      });
      body = await reply.json();
    } catch (_error) {
      tr.classList.remove("saving");
      tr.classList.add("refused");
      sent.delete(input);
      say(form.dataset.noAnswer, "bad");  // the page's words: the club's language
      return;
    }
    tr.classList.remove("saving");
    if (!reply.ok || body.error) {
      tr.classList.add("refused");
      sent.delete(input);
      say(body.error || form.dataset.unsaved, "bad");
      input.focus();  // stay on the refused board: type it again
      return;
    }
    for (const [b, shown] of Object.entries(body.results || {})) {
      const other = form.querySelector(`input[name='r${b}']`);
      if (!other) continue;
      other.dataset.was = shown;
      was(other).value = shown;
      if (other === input || document.activeElement !== other) other.value = shown;
      row(other).classList.toggle("done", shown !== "");
      row(other).classList.toggle("open", shown === "");
    }
    say(body.ok, "");
    if (body.warning) flash(body.warning, "warning");
    reloadStanding();
  }

  // One key per board: 1 0 = ½ + - (and --) save the board and move on.  A key is not saved
  // at once: the next key decides.  A key that continues the notation the board's key starts
  // (1-0 and 1/2-1/2 after 1, 0-1 after 0, ½-½ after ½, +- after +, -+ and -- after -) means a
  // full notation is being typed, which is saved with Enter or on leaving the box; any other
  // key (a complete result such as = or --, or a key that continues nothing: 1 then +) saves
  // this board and starts the next one; a pause saves it too.  A board that already has a
  // result is a correction: it is saved only with Enter (or the Save button), never by one
  // stray key.
  const CONTINUES = { "1": "-/", "0": "-", "½": "-", "+": "-", "-": "+-" };
  const continues = (typed, key) => (CONTINUES[typed] || "").includes(key);
  let waiting = null;  // [input, timer] of a one-key result not saved yet

  function commit() {
    if (!waiting) return;
    const [input, timer] = waiting;
    clearTimeout(timer);
    waiting = null;
    save(input);
    if (document.activeElement === input) next(input);  // not when the officer went elsewhere meanwhile
  }

  const correction = (input) => input.dataset.was.trim() !== "";

  function pending(input) {
    const typed = input.value.trim();
    const changed = typed !== input.dataset.was.trim();
    row(input).classList.toggle("pending", changed && correction(input));
    if (changed && correction(input)) say((form.dataset.pending || "").replace("%(n)s", board(input)), "");
  }

  for (const input of inputs) {
    input.addEventListener("focus", () => input.select());
    input.addEventListener("keydown", (event) => {
      if (waiting && waiting[0] === input && event.key.length === 1) {
        if (continues(input.value.trim(), event.key)) {  // a full notation: this board waits for Enter
          clearTimeout(waiting[1]);
          waiting = null;
          return;
        }
        event.preventDefault();  // the next board's first key
        const key = event.key;
        commit();
        const following = document.activeElement;
        if (following && following !== input && following.matches("td.cell input")) {
          following.value = key;
          following.dispatchEvent(new Event("input", { bubbles: true }));
        }
        return;
      }
      if (event.key !== "Enter") return;
      event.preventDefault();  // not the whole form: this board alone
      if (waiting && waiting[0] === input) {
        commit();
        return;
      }
      save(input);
      next(input);
    });
    input.addEventListener("input", () => {
      if (waiting && waiting[0] === input) {
        clearTimeout(waiting[1]);
        waiting = null;
      }
      if (correction(input)) {
        pending(input);
        return;
      }
      const typed = input.value.trim();
      if (ONE_KEY.has(typed) || typed === "-") {
        waiting = [input, setTimeout(commit, typed === "-" ? 900 : 700)];
      }
    });
    input.addEventListener("change", () => {
      if (waiting && waiting[0] === input) return;  // saved by commit()
      if (correction(input)) {
        pending(input);
        return;
      }
      save(input);
    });
  }
});
