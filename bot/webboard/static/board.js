// Hexhall's web board: draws a game's board from /api/games/<slug>, steps through its
// positions, follows it live (server-sent events) and, for the player to move, builds a move
// part by part from the legal parts the server offers, then plays it; asks for the review of
// the game and shows the position of each move it names, the better move marked.  No inline
// script: the page's Content-Security-Policy forbids it.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const JOINERS = /^[ >\-]/;
  const HEIGHT_FILLS = { "-1": "#b4a58a", "0": "#e3d6bb", "1": "#fffaf0" };
  // Telegram's Mini App side (host.js): MainButton, BackButton, haptics ... (no-ops outside).
  const NOOP = () => {};
  const host = window.HexhallHost ||
    { ready: NOOP, main: NOOP, busy: NOOP, back: NOOP, haptic: NOOP, confirmClose: NOOP, guard: NOOP };

  function fragment() {
    return new URLSearchParams(location.hash.slice(1));
  }

  function telegram() {
    return (window.Telegram && window.Telegram.WebApp) || null;
  }

  // Telegram's initData: from its script when present, else from the launch fragment (kept
  // for this tab, then taken out of the address by forgetLaunchData: an address copied,
  // shared or bookmarked never carries the player's sign-in).
  const TMA_KEY = "hexhall-tma";
  // The tab's storage, or this page's memory where it is refused (a third-party frame, as in
  // Telegram's web client, when the browser blocks third-party storage).
  const memory = {};
  const tab = {
    get(key) {
      if (key in memory) return memory[key];
      try {
        return sessionStorage.getItem(key);
      } catch (e) {
        return null;
      }
    },
    set(key, value) {
      memory[key] = value;
      try {
        sessionStorage.setItem(key, value);
        return true;
      } catch (e) {
        return false; // kept in memory only
      }
    },
  };
  function initData() {
    const app = telegram();
    if (app && app.initData) return app.initData;
    return fragment().get("tgWebAppData") || tab.get(TMA_KEY) || "";
  }

  function forgetLaunchData() {
    const params = fragment();
    const data = params.get("tgWebAppData");
    if (!data) return;
    // A frame's address is shown to nobody: where the tab's storage is refused, the data
    // stays in it, so the client's reload of the frame (reload_iframe) keeps the sign-in.
    if (!tab.set(TMA_KEY, data) && window.parent !== window) return;
    params.delete("tgWebAppData");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
  }

  function credentials() {
    const data = initData();
    if (data) return "tma " + data;
    const key = "hexhall-token:" + location.pathname;
    const token = fragment().get("t");
    if (token) {
      tab.set(key, token);
      history.replaceState(null, "", location.pathname);
    }
    const kept = tab.get(key);
    return kept ? "Bearer " + kept : "";
  }

  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function say(text) {
    $("status").textContent = text || "";
  }

  // -- the Mini App's entry: open the game the link named (startapp=g_<slug>) --------------
  if (document.body.dataset.app) {
    const app = telegram();
    let start = fragment().get("tgWebAppStartParam") || "";
    if (!start && app && app.initDataUnsafe) start = app.initDataUnsafe.start_param || "";
    if (!start) start = new URLSearchParams(initData()).get("start_param") || "";
    if (/^g_[A-Za-z0-9_-]{1,64}$/.test(start)) {
      location.replace("/g/" + start.slice(2) + location.hash);
    } else {
      say("This link names no game.");
      host.ready();
    }
    return;
  }

  const slug = document.body.dataset.slug;
  forgetLaunchData();
  const auth = credentials();
  const headers = auth ? { Authorization: auth } : {};
  let state = null;
  let shown = 0; // the ply shown
  let follow = true; // show each new position as it comes
  let prefix = "";
  let step = null;
  let cells = {}; // notation -> <g>
  let cellParts = {}; // notation -> part
  let busy = false;
  let marked = null; // the reviewed move whose position is shown (its cells marked)
  let reviewing = false;
  let reviewed = -1; // how many moves the review shown looked at

  async function load() {
    const answer = await fetch("/api/games/" + slug, { headers, cache: "no-store" });
    if (!answer.ok) {
      say(await answer.text());
      return;
    }
    const fresh = await answer.json();
    const moved = !state || fresh.ply !== state.ply || fresh.version !== state.version;
    const first = !state;
    state = fresh;
    if (first) build();
    if (moved) {
      if (follow || shown > state.ply) shown = state.ply;
      prefix = "";
      step = null;
    }
    if (state.auth) say(state.auth);
    header();
    moveList();
    $("review").hidden = !state.reviewable;
    if (state.ply < reviewed) clearReview(); // a takeback: the review named moves now gone
    await refresh();
  }

  function build() {
    const g = state.board;
    const pad = g.r * 0.25;
    const svg = el("svg", {
      viewBox: `${-pad} ${-pad} ${g.w + 2 * pad} ${g.h + 2 * pad}`,
      role: "group",
      "aria-label": state.title + " board",
    });
    const r = g.r * 0.97;
    const outline = (c, radius) => {
      const points = [];
      for (let k = 0; k < 6; k++) {
        const a = ((-90 + 60 * k + g.turn) * Math.PI) / 180;
        points.push(`${(c.x + radius * Math.cos(a)).toFixed(1)},${(c.y + radius * Math.sin(a)).toFixed(1)}`);
      }
      return points.join(" ");
    };
    // Each colour's goal edges (or home rows): a rim of its colour behind those cells.
    const rims = el("g", { class: "rims" }, svg);
    for (const c of g.cells) {
      if (c.e < 0) continue;
      const rim = g.kind === "square"
        ? el("rect", { x: c.x - g.r * 1.15, y: c.y - g.r * 1.15, width: 2.3 * g.r, height: 2.3 * g.r }, rims)
        : el("polygon", { points: outline(c, g.r * 1.18) }, rims);
      rim.setAttribute("fill", state.colours[c.e]);
      rim.setAttribute("stroke", "#555");
    }
    for (const c of g.cells) {
      const group = el("g", {
        "data-cell": c.n,
        role: "button",
        tabindex: "-1",
        class: "cell",
      }, svg);
      if (g.kind === "square") {
        el("rect", { x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r, class: "ground" }, group);
      } else {
        el("polygon", { points: outline(c, r), class: "ground" }, group);
      }
      el("circle", { cx: c.x, cy: c.y, r: g.r * 0.55, class: "piece" }, group);
      const label = el("text", { x: c.x, y: c.y, class: "height" }, group);
      label.textContent = "";
      group.addEventListener("click", () => tap(c.n));
      group.addEventListener("keydown", (e) => key(e, c));
      cells[c.n] = group;
    }
    const first = cells[g.cells[0].n];
    first.setAttribute("tabindex", "0");
    $("board").replaceChildren(svg);
  }

  function frameShown() {
    if (step && step.complete && step.after && shown === state.ply) return step.after;
    return state.frames[shown];
  }

  function paint() {
    const frame = frameShown();
    const g = state.board;
    const chosen = new Set(
      prefix.split(/[ >\-]/).filter((n) => n in cells)
    );
    g.cells.forEach((c, i) => {
      const group = cells[c.n];
      const piece = frame.p[i];
      const height = frame.h ? frame.h[i] : null;
      const ground = group.querySelector(".ground");
      const disc = group.querySelector(".piece");
      const label = group.querySelector(".height");
      if (state.game === "isopath") {
        ground.style.fill = HEIGHT_FILLS[String(height)] || "#e3d6bb";
      }
      disc.setAttribute("fill", piece >= 0 ? state.colours[piece] : "none");
      disc.classList.toggle("off", piece < 0);
      label.textContent = state.game === "fixation" && height > 1 ? String(height) : "";
      label.setAttribute("fill", piece === 1 ? "#fff" : "#111");
      group.classList.toggle("last", frame.last.includes(c.n));
      group.classList.toggle("can", c.n in cellParts);
      group.classList.toggle("sel", chosen.has(c.n));
      const review = marked && shown === marked.ply ? marked : null;
      group.classList.toggle("better", !!review && review.cells.includes(c.n));
      group.classList.toggle("played", !!review && review.played_cells.includes(c.n));
      let words = c.n;
      if (state.game === "isopath") words += ", " + ["no tile", "one tile", "two tiles"][height + 1];
      if (piece >= 0) words += ", " + sideOf(piece) + (height > 1 && state.game === "fixation" ? ` stack of ${height}` : "");
      if (c.n in cellParts) words += ", can be chosen";
      if (group.classList.contains("better")) words += ", the better move";
      if (group.classList.contains("played")) words += ", the move played";
      group.setAttribute("aria-label", words);
    });
    $("at").textContent = `${shown} / ${state.ply}`;
    $("first").disabled = $("prev").disabled = shown === 0;
    $("next").disabled = $("last").disabled = shown === state.ply;
    for (const b of $("moves").querySelectorAll("button")) {
      b.setAttribute("aria-current", Number(b.dataset.ply) === shown ? "step" : "false");
    }
    const review = marked && shown === marked.ply ? marked : null;
    for (const tr of $("review-moves").querySelectorAll("tbody tr")) {
      tr.setAttribute("aria-current", review && Number(tr.dataset.ply) === review.ply ? "step" : "false");
    }
    $("review-at").textContent = review ? review.text : "";
  }

  // -- the review: the moves that changed the game most, each a way to its position ------
  async function askReview() {
    if (reviewing) return;
    reviewing = true;
    $("review-ask").disabled = true;
    $("review-text").textContent = "Reviewing the game…";
    try {
      const answer = await fetch(`/api/games/${slug}/review`, { headers, cache: "no-store" });
      const reply = await answer.json().catch(() => ({ ok: false, text: answer.statusText }));
      $("review-text").textContent = reply.text;
      if (reply.ok) showReview(reply);
    } catch (e) {
      $("review-text").textContent = String(e);
    } finally {
      reviewing = false;
      $("review-ask").disabled = false;
    }
  }

  function clearReview() {
    marked = null;
    reviewed = -1;
    $("review-moves").querySelector("tbody").replaceChildren();
    $("review-moves").hidden = true;
    $("review-text").textContent = $("review-hint").textContent = "";
  }

  function showReview(reply) {
    marked = null;
    reviewed = reply.ply;
    const cell = (text, code) => {
      const td = document.createElement("td");
      if (code) {
        const c = document.createElement("code");
        c.textContent = text;
        td.appendChild(c);
      } else {
        td.textContent = text;
      }
      return td;
    };
    $("review-moves").querySelector("tbody").replaceChildren(
      ...reply.moves.map((m) => {
        const tr = document.createElement("tr");
        tr.dataset.ply = String(m.ply);
        const first = document.createElement("td");
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = String(m.number);
        b.setAttribute("aria-label", m.text);
        first.appendChild(b);
        tr.append(first, cell(`${m.player} (${m.side})`), cell(m.played, true), cell(m.better, true), cell(`${m.cost} %`));
        tr.addEventListener("click", () => {
          marked = m;
          show(m.ply);
          $("board").scrollIntoView({ block: "nearest" });
        });
        return tr;
      })
    );
    $("review-moves").hidden = reply.moves.length === 0;
    $("review-hint").textContent = reply.hint;
    paint();
  }

  function sideOf(colour) {
    const start = state.colours[colour];
    const player = state.players.find((p) => p.colour === start);
    return player ? player.side : "colour " + colour;
  }

  function header() {
    $("players").replaceChildren(
      ...state.players.map((p, seat) => {
        const li = document.createElement("li");
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = p.colour;
        li.append(swatch, `${p.name} (${p.side})`);
        if (state.to_move === seat && !state.over) li.className = "to-move";
        return li;
      })
    );
    let turn = "";
    if (state.over) turn = state.result;
    else if (state.to_move !== null) {
      const p = state.players[state.to_move];
      turn = state.can_move ? `Your turn (${p.side}).` : `${p.name} (${p.side}) to move.`;
      if (state.deadline) turn += " " + left(new Date(state.deadline));
    }
    $("turn").textContent = turn;
    $("result").textContent = state.over ? state.result : "";
    $("words").textContent = state.words;
  }

  function left(deadline) {
    const ms = deadline - Date.now();
    if (ms <= 0) return "Time is up.";
    const h = Math.floor(ms / 3600000);
    const d = Math.floor(h / 24);
    return d >= 1 ? `${d} d ${h % 24} h left.` : `${h} h ${Math.floor(ms / 60000) % 60} min left.`;
  }

  function moveList() {
    const list = $("moves");
    if (list.children.length === state.moves.length) return;
    list.replaceChildren(
      ...state.moves.map((m, i) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.ply = String(i + 1);
        b.textContent = m;
        li.appendChild(b);
        return li;
      })
    );
  }

  async function refresh() {
    const playing = state.can_move && shown === state.ply;
    $("play").hidden = !playing;
    cellParts = {};
    $("choices").replaceChildren();
    if (playing) {
      const answer = await fetch(
        `/api/games/${slug}/next?prefix=${encodeURIComponent(prefix)}`,
        { cache: "no-store" }
      );
      step = await answer.json();
      const others = [];
      for (const part of step.parts) {
        const name = part.replace(JOINERS, "");
        if (name in cells && !(name in cellParts)) cellParts[name] = part;
        else others.push(part);
      }
      for (const part of others) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "choice";
        b.textContent = part.trim();
        b.addEventListener("click", () => choose(part));
        $("choices").appendChild(b);
      }
      $("send").disabled = !step.complete;
      $("back").disabled = $("clear").disabled = !prefix;
      let prompt = prefix ? `${prefix}: ` : "";
      if (step.complete && step.parts.length) prompt += "play it, or choose more.";
      else if (step.complete) prompt += "play it.";
      else prompt += prefix ? "choose the next part." : "tap where your move starts.";
      $("prompt").textContent = prompt;
    } else {
      step = null;
    }
    hostControls(playing);
    paint();
  }

  // Inside Telegram: Play is its MainButton, Back its BackButton, and closing asks first
  // while a move is half built.
  function hostControls(playing) {
    const ready = playing && step && step.complete;
    host.main(ready ? `${$("send").textContent} ${prefix.trim()}` : null, () => play(false));
    host.back(playing && prefix ? stepBack : null);
    host.confirmClose(playing && !!prefix);
  }

  function choose(part) {
    if (busy) return;
    host.haptic("tap");
    prefix += part;
    refresh();
  }

  function tap(name) {
    if (name in cellParts) choose(cellParts[name]);
  }

  // The move sent: the server's answer, or null when none came (no connection, its error).
  async function sendMove(confirm) {
    try {
      const answer = await fetch(`/api/games/${slug}/moves`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ move: prefix, ply: state.ply, confirm: !!confirm }),
      });
      return answer.status >= 500 ? null : await answer.json();
    } catch (e) {
      return null;
    }
  }

  async function play(confirm) {
    if (busy || !step || !step.complete) return;
    busy = true;
    $("send").disabled = true;
    host.busy(true);
    try {
      const reply = await sendMove(confirm);
      if (!reply) {
        // Said, the move kept as built, Play usable again.
        say($("status").dataset.failed);
        host.haptic("error");
        $("send").disabled = false;
        return;
      }
      say(reply.text);
      host.haptic(reply.ok ? "done" : "error");
      if (reply.confirm) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "choice";
        b.textContent = "Play it anyway";
        b.addEventListener("click", () => play(true));
        $("choices").replaceChildren(b);
        $("send").disabled = false;
        return;
      }
      follow = true;
      await load().catch(NOOP); // (the event stream, opened again, loads it then)
    } finally {
      busy = false;
      host.busy(false);
    }
  }

  function show(ply) {
    shown = Math.max(0, Math.min(state.ply, ply));
    follow = shown === state.ply;
    refresh();
  }

  // Arrow keys move between cells (to the nearest one that way), Enter or Space taps.
  function key(e, c) {
    const ways = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      tap(c.n);
      return;
    }
    const way = ways[e.key];
    if (!way) return;
    e.preventDefault();
    let best = null;
    let bestScore = Infinity;
    for (const o of state.board.cells) {
      const dx = o.x - c.x;
      const dy = o.y - c.y;
      const along = dx * way[0] + dy * way[1];
      if (along <= 0.5) continue;
      const score = along + 2 * Math.abs(dx * way[1] - dy * way[0]);
      if (score < bestScore) {
        bestScore = score;
        best = o;
      }
    }
    if (best) {
      cells[c.n].setAttribute("tabindex", "-1");
      const next = cells[best.n];
      next.setAttribute("tabindex", "0");
      next.focus();
    }
  }

  $("send").addEventListener("click", () => play(false));
  $("clear").addEventListener("click", () => {
    prefix = "";
    refresh();
  });
  function stepBack() {
    const parts = prefix.match(/[ >\-]?[^ >\-]+/g) || [];
    parts.pop();
    prefix = parts.join("");
    refresh();
  }
  $("back").addEventListener("click", stepBack);
  host.guard($("board"));
  $("review-ask").addEventListener("click", askReview);
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(shown - 1));
  $("next").addEventListener("click", () => show(shown + 1));
  $("last").addEventListener("click", () => show(state.ply));
  $("moves").addEventListener("click", (e) => {
    const ply = e.target && e.target.dataset ? e.target.dataset.ply : undefined;
    if (ply !== undefined) show(Number(ply));
  });

  const app = telegram();
  if (app && app.ready) {
    app.ready();
    if (app.expand) app.expand();
  }

  // -- live: the game's event stream, opened again after any error ---------------------------
  // A browser gives an event stream up for good on an HTTP error (the operator's proxy
  // answering 502 while the bot restarts): the page opens it again itself, sooner at first
  // (a restart takes seconds), never more than RETRY_MAX apart, and says it is reconnecting.
  const RETRY_FIRST = 500;
  const RETRY_MAX = 1500;
  let retry = RETRY_FIRST;

  function listen() {
    // A player's own page is no spectator: it says so, and is left out of "N watching".
    const player = state && state.you !== null && state.you !== undefined ? "?player=1" : "";
    const events = new EventSource(`/api/games/${slug}/events${player}`);
    events.onopen = () => {
      retry = RETRY_FIRST;
      $("watchers").classList.remove("reconnecting");
    };
    // The first event is the game as it is now: what changed while the stream was down too.
    events.onmessage = (e) => {
      const change = JSON.parse(e.data);
      $("watchers").textContent = `${change.spectators} watching`;
      if (!state || change.stamp !== String(state.version)) load();
    };
    events.onerror = () => {
      events.close();
      $("watchers").textContent = "reconnecting…";
      $("watchers").classList.add("reconnecting");
      setTimeout(listen, retry * (0.75 + Math.random() / 4));
      retry = Math.min(retry * 1.5, RETRY_MAX);
    };
  }

  load().finally(() => {
    host.ready(); // the board is drawn (or what went wrong is said)
    listen();
  });
  setInterval(() => state && header(), 30000);
})();
