// Hexhall's plan mode (issue 46): on a player's own page, prepare conditional moves by tapping
// cells on the board switched into plan mode (marked "only you see this"): their move, then
// yours, step by step, the board showing the position after each step and lighting only the
// cells the server finds legal along the line (/api/games/<slug>/premoves/next, in /next's
// own step format); then save the line, see your lines, or drop them.  Leaving plan mode shows
// the real game again.  Everything here is the signed-in player's alone: a spectator (or a
// page without sign-in) gets no plan panel.  It draws through board.js's small hook
// (window.HexhallBoard.draw / real) and holds no sentence: its words come from the server.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const slug = document.body.dataset.slug;
  const panel = $("plan");
  if (!slug || !panel || !$("board")) return;

  function credentials() {
    const app = window.Telegram && window.Telegram.WebApp;
    const params = new URLSearchParams(location.hash.slice(1));
    let data = (app && app.initData) || params.get("tgWebAppData");
    let token = params.get("t");
    try {
      data = data || sessionStorage.getItem("hexhall-tma");
      token = token || sessionStorage.getItem("hexhall-token:" + location.pathname);
    } catch (e) {
      // the tab's storage refused (a third-party frame): the address's sign-in only
    }
    if (data) return "tma " + data;
    return token ? "Bearer " + token : "";
  }

  const auth = credentials();
  if (!auth) return;
  const headers = { Authorization: auth };
  const base = `/api/games/${slug}/premoves`;
  let labels = {};
  let planning = false;
  let line = []; // whole moves so far: theirs, yours, theirs ...
  let prefix = ""; // the move being tapped
  let step = null;
  let asked = 0; // the latest step asked for (an older answer is dropped)
  let pending = false; // a step asked for, not yet answered

  function button(id, label, action, parent) {
    const b = document.createElement("button");
    b.type = "button";
    if (id) b.id = id;
    b.textContent = label;
    b.addEventListener("click", action);
    parent.appendChild(b);
    return b;
  }

  function say(text) {
    $("plan-status").textContent = text || "";
  }

  function typed() {
    return line.map((m, i) => (i === 0 ? "" : i % 2 ? " => " : "; ") + m).join("");
  }

  async function lines() {
    const answer = await fetch(base, { headers, cache: "no-store" }).catch(() => null);
    if (!answer || !answer.ok) return false;
    const reply = await answer.json();
    labels = reply.labels;
    $("plan-lines").replaceChildren(
      ...reply.lines.map((moves) => {
        const li = document.createElement("li");
        li.textContent = moves.map((m, i) => (i % 2 ? " => " : i ? "; " : "") + m).join("");
        return li;
      })
    );
    return true;
  }

  function choose(next) {
    // A tap while the step is being asked for is of a board about to change: not taken.
    if (!planning || pending) return;
    prefix = next;
    refresh();
  }

  async function refresh() {
    if (!planning) return;
    const mine = ++asked;
    const query = `?line=${encodeURIComponent(typed())}&prefix=${encodeURIComponent(prefix)}`;
    let reply;
    pending = true;
    try {
      const answer = await fetch(base + "/next" + query, { headers, cache: "no-store" });
      reply = await answer.json().catch(() => ({ ok: false, text: answer.statusText }));
    } catch (e) {
      reply = { ok: false, text: String(e) };
    }
    if (mine !== asked || !planning) return;
    pending = false;
    if (!reply.ok) {
      say(reply.text);
      if (prefix) {
        prefix = "";
        return refresh();
      }
      return;
    }
    step = reply;
    prefix = step.selection;
    // A whole move that can go no further joins the line at once: the next step is drawn.
    if (step.complete && step.choices.length === 0) {
      line.push(step.move);
      prefix = "";
      return refresh();
    }
    $("plan-prompt").textContent = step.prompt;
    const buttons = $("plan-choices");
    buttons.replaceChildren();
    for (const choice of step.choices) {
      if (choice.c === null && choice.r === null) {
        button("", choice.label, () => choose(choice.next), buttons).className = "choice";
      }
    }
    const frame = step.complete && step.after ? step.after : step.frame;
    window.HexhallBoard.draw(frame, step.choices, choose, step.chosen, step.marked);
    $("plan-add").disabled = !step.complete;
    $("plan-back").disabled = $("plan-clear").disabled = !prefix && !line.length;
    $("plan-save").disabled = line.length < 2 || line.length % 2 === 1 || prefix !== "";
  }

  async function save(body) {
    let reply;
    try {
      const answer = await fetch(base, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      reply = await answer.json().catch(() => ({ text: answer.statusText }));
    } catch (e) {
      reply = { text: String(e) };
    }
    say(reply.text);
    if (reply.ok) {
      line = [];
      prefix = "";
    }
    await lines();
    await refresh();
  }

  function mode(on) {
    planning = on;
    line = [];
    prefix = "";
    say("");
    $("board").classList.toggle("planning", on);
    $("plan-bar").hidden = !on;
    $("plan-start").hidden = on;
    if (on) {
      $("plan-bar").scrollIntoView({ block: "start" });
      refresh();
    } else {
      window.HexhallBoard.real();
    }
  }

  async function start() {
    if (!window.HexhallBoard || !(await lines())) return; // not a player here: no plan mode
    // The bar over the board while planning: the mark, the prompt, the controls.
    const bar = document.createElement("div");
    bar.id = "plan-bar";
    bar.className = "plan-bar";
    bar.hidden = true;
    const banner = document.createElement("p");
    banner.id = "plan-banner";
    banner.className = "plan-banner";
    banner.textContent = labels.banner;
    const prompt = document.createElement("p");
    prompt.id = "plan-prompt";
    prompt.className = "prompt";
    prompt.setAttribute("aria-live", "polite");
    const choices = document.createElement("div");
    choices.id = "plan-choices";
    choices.className = "choices";
    const controls = document.createElement("div");
    controls.className = "controls";
    button("plan-back", labels.back, () => {
      if (prefix) prefix = "";
      else line.pop();
      refresh();
    }, controls);
    button("plan-clear", labels.clear, () => {
      line = [];
      prefix = "";
      refresh();
    }, controls);
    button("plan-add", labels.add, () => {
      if (!step || !step.complete) return;
      line.push(step.move);
      prefix = "";
      refresh();
    }, controls);
    button("plan-save", labels.save, () => save({ line: typed() }), controls).className = "send";
    button("plan-leave", labels.leave, () => mode(false), controls);
    button("plan-drop", labels.drop, () => save({ clear: true }), controls);
    const status = document.createElement("p");
    status.id = "plan-status";
    status.className = "status";
    status.setAttribute("role", "status");
    bar.append(banner, prompt, choices, controls, status);
    $("board").before(bar);

    const heading = document.createElement("h2");
    heading.textContent = labels.heading;
    const row = document.createElement("div");
    row.className = "controls";
    button("plan-start", labels.start, () => mode(true), row);
    panel.prepend(heading, row);
    panel.hidden = false;
  }

  start();
})();
