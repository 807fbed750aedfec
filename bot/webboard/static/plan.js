// Hexhall's plan mode (issue 46): on a player's own board, prepare conditional moves during
// the opponent's turn, tapping their move, then yours, part by part, from the legal parts the
// server computes along the line (/api/games/<slug>/premoves/next); then save the line, see
// your lines, or drop them.  Everything here is the signed-in player's alone: a spectator (or
// a page without sign-in) gets no plan panel.  Apart from board.js, which it leaves alone: it
// reads the same sign-in (the link's token, or Telegram's initData) the way board.js keeps it.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const slug = document.body.dataset.slug;
  const panel = $("plan");
  const words = panel ? panel.dataset : {}; // its words, written by the server (data-plan-*)
  if (!slug || !panel) return;

  function credentials() {
    const app = window.Telegram && window.Telegram.WebApp;
    const params = new URLSearchParams(location.hash.slice(1));
    const data =
      (app && app.initData) || params.get("tgWebAppData") || sessionStorage.getItem("hexhall-tma");
    if (data) return "tma " + data;
    const token = params.get("t") || sessionStorage.getItem("hexhall-token:" + location.pathname);
    return token ? "Bearer " + token : "";
  }

  const auth = credentials();
  if (!auth) return;
  const headers = { Authorization: auth };
  const base = `/api/games/${slug}/premoves`;
  let line = []; // whole moves so far: theirs, yours, theirs ...
  let prefix = ""; // the move being tapped
  let step = null;

  function button(label, action, parent) {
    const b = document.createElement("button");
    b.type = "button";
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
    const answer = await fetch(base, { headers, cache: "no-store" });
    if (!answer.ok) return false;
    const reply = await answer.json();
    $("plan-lines").replaceChildren(
      ...reply.lines.map((moves) => {
        const li = document.createElement("li");
        li.textContent = moves.map((m, i) => (i % 2 ? " => " : i ? "; " : "") + m).join("");
        return li;
      })
    );
    return true;
  }

  async function refresh() {
    const query = `?line=${encodeURIComponent(typed())}&prefix=${encodeURIComponent(prefix)}`;
    const answer = await fetch(base + "/next" + query, { headers, cache: "no-store" });
    step = await answer.json();
    if (!step.ok) {
      say(step.text);
      return;
    }
    const whose = line.length % 2 ? words.planPromptReply : words.planPromptTheirs;
    $("plan-prompt").textContent = whose.replace("{line}", (typed() || words.planNew) + (prefix ? " (" + prefix + ")" : ""));
    const choices = $("plan-choices");
    choices.replaceChildren();
    for (const part of step.parts) {
      button(part.trim(), () => {
        prefix += part;
        refresh();
      }, choices).className = "choice";
    }
    $("plan-add").disabled = !step.complete;
    $("plan-save").disabled = line.length < 2 || line.length % 2 === 1 || prefix !== "";
  }

  async function save(body) {
    const answer = await fetch(base, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const reply = await answer.json().catch(() => ({ text: answer.statusText }));
    say(reply.text);
    if (reply.ok) {
      line = [];
      prefix = "";
    }
    await lines();
    await refresh();
  }

  async function start() {
    if (!(await lines())) return; // not signed in as a player here: no plan mode
    const heading = document.createElement("h2");
    heading.textContent = words.planHeading;
    const prompt = document.createElement("p");
    prompt.id = "plan-prompt";
    const choices = document.createElement("div");
    choices.id = "plan-choices";
    choices.className = "choices";
    const controls = document.createElement("div");
    controls.className = "controls";
    button(words.planAdd, () => {
      if (!step || !step.complete) return;
      line.push(prefix);
      prefix = "";
      refresh();
    }, controls).id = "plan-add";
    button(words.back, () => {
      if (prefix) prefix = "";
      else line.pop();
      refresh();
    }, controls);
    button(words.planSave, () => save({ line: typed() }), controls).id = "plan-save";
    button(words.planDrop, () => save({ clear: true }), controls);
    const status = document.createElement("p");
    status.id = "plan-status";
    status.setAttribute("role", "status");
    panel.prepend(heading, prompt, choices, controls, status);
    panel.hidden = false;
    await refresh();
  }

  start();
})();
