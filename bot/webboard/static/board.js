// Hexhall's web board: draws a game's board from /api/games/<slug> (a typed view of cells,
// coordinates, regions and marks: no game is named here), steps through its positions
// (#ply=N links, the browser's Back steps back), follows it live (server-sent events) and, for
// the player to move, builds a move from the choices the server offers (cells, regions of the
// board, buttons) or takes it typed, then plays it; resign, draw and takeback go through the
// server, which decides as the chat does.  Asks for the review of the game and shows the
// position of each move it names.  No inline script: the page's Content-Security-Policy
// forbids it.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const TILE_FILLS = { "-1": "#b4a58a", "0": "#e3d6bb", "1": "#fffaf0" };
  const ZOOMS = [1, 1.5, 2, 3];
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
  // The browser's lasting storage (the board turned or not), where it is allowed: a frame of
  // another site (Telegram's web client, Discord) may be refused it, and reading it throws.
  const lasting = {
    get(key) {
      try {
        return localStorage.getItem(key);
      } catch (e) {
        return key in memory ? memory[key] : null;
      }
    },
    set(key, value) {
      memory[key] = value;
      try {
        localStorage.setItem(key, value);
      } catch (e) {
        // kept in this page's memory only
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
    const params = fragment();
    const token = params.get("t");
    if (token) {
      tab.set(key, token);
      params.delete("t");
      const rest = params.toString();
      history.replaceState(null, "", location.pathname + (rest ? "#" + rest : ""));
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

  function html(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function say(text) {
    $("status").textContent = text || "";
  }

  // A label of the page's (the server's words, in the asker's language), its {names} filled.
  function word(key, values) {
    const text = (state && state.labels[key]) || "";
    return text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
  }

  // The page's own words said again in the signed-in player's language (the HTML came in the
  // browser's): each element marked with its label's key, and the page's lang.
  function relabel() {
    document.documentElement.lang = state.lang;
    for (const n of document.querySelectorAll("[data-label]")) n.textContent = word(n.dataset.label);
    for (const n of document.querySelectorAll("[data-label-aria]")) n.setAttribute("aria-label", word(n.dataset.labelAria));
    // plan.js reads its words from its section's data-* (planHeading: the label plan_heading).
    const plan = $("plan");
    for (const key of plan ? Object.keys(plan.dataset) : []) {
      const label = key.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
      if (label in state.labels) plan.dataset[key] = state.labels[label];
    }
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
      say(document.body.dataset.noGame);
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
  let cellChoices = {}; // notation -> the prefix tapping it makes
  let regionChoices = {}; // region -> the prefix tapping one of its cells makes
  let busy = false;
  let mine = false; // the next new position is this page's own move (not animated)
  let marked = null; // the reviewed move whose position is shown (its cells marked)
  let reviewing = false;
  let reviewed = -1; // how many moves the review shown looked at
  let flipped = null; // the board turned half round (null: as the player's seat says)
  let zoom = 0; // index into ZOOMS
  let asked = fragmentPly();
  let asking = false; // "Really resign?" asked, not yet answered
  // Plan mode (plan.js): another position and its choices drawn on this board, taps sent to
  // plan.js (draw), until the real game is shown again (real).  Nothing of it leaves the page.
  let planned = null; // { frame, choices, onTap, chosen, marked } while planning
  window.HexhallBoard = {
    draw(frame, choices, onTap, chosen, marked) {
      planned = { frame, choices, onTap, chosen: chosen || [], marked: marked || null, back: null };
      if (state) refresh();
    },
    real() {
      planned = null;
      if (state) refresh();
    },
  };

  function fragmentPly() {
    const ply = fragment().get("ply");
    return ply !== null && /^\d{1,6}$/.test(ply) ? Number(ply) : null;
  }

  async function load() {
    let answer;
    try {
      answer = await fetch("/api/games/" + slug, { headers, cache: "no-store" });
    } catch (e) {
      say(String(e));
      return;
    }
    if (!answer.ok) {
      say(await answer.text());
      return;
    }
    const fresh = await answer.json();
    // A new position (a move, a takeback): not an offer or a finish, which keep a half-built
    // move as it is.
    const moved = !state || fresh.moves.join("\n") !== state.moves.join("\n");
    const first = !state;
    const before = state ? state.ply : null;
    state = fresh;
    if (first) relabel();
    if (first) {
      if (asked !== null) {
        shown = Math.min(asked, state.ply);
        follow = shown === state.ply;
      } else {
        shown = state.ply;
      }
      build();
    }
    if (moved && !first) {
      if (follow || shown > state.ply) shown = state.ply;
      // Following the game: the address names no older position.
      if (follow && fragmentPly() !== null) history.replaceState(null, "", location.pathname + location.search);
      prefix = "";
      step = null;
    }
    if (state.auth) say(state.auth);
    header();
    moveList();
    gameActions();
    $("review").hidden = !state.reviewable;
    if (state.ply < reviewed) clearReview(); // a takeback: the review named moves now gone
    await refresh();
    if (moved && !first && !mine && follow && before !== null && state.ply === before + 1) {
      arrive(state.frames[state.ply].last);
    }
    mine = false;
  }

  // -- the board: drawn once from the view, turned, sized so every cell is a tap target --------
  function isFlipped() {
    if (flipped !== null) return flipped;
    const kept = lasting.get("hexhall-flip:" + slug);
    if (kept !== null) return kept === "1";
    return state.you === 1;
  }

  function place(c) {
    const [bx, by, bw, bh] = state.board.box;
    return isFlipped() ? { x: 2 * bx + bw - c.x, y: 2 * by + bh - c.y } : { x: c.x, y: c.y };
  }

  function outline(c, radius) {
    const points = [];
    for (let k = 0; k < 6; k++) {
      const a = ((-90 + 60 * k + state.board.turn) * Math.PI) / 180;
      points.push(`${(c.x + radius * Math.cos(a)).toFixed(1)},${(c.y + radius * Math.sin(a)).toFixed(1)}`);
    }
    return points.join(" ");
  }

  function shape(c, radius, parent, cls) {
    if (state.board.kind === "square") {
      return el("rect", { x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius, class: cls }, parent);
    }
    return el("polygon", { points: outline(c, radius), class: cls }, parent);
  }

  function build() {
    const g = state.board;
    const [bx, by, bw, bh] = g.box;
    const svg = el("svg", {
      viewBox: `${bx} ${by} ${bw} ${bh}`,
      role: "group",
      "aria-label": word("board_named", { title: state.title }),
    });
    const side = Math.round(Math.sqrt(g.regions.length)) || 1;
    // Each colour's goal edges (or home rows): a rim of its colour behind those cells.
    const rims = el("g", { class: "rims" }, svg);
    for (const c of g.cells) {
      if (c.e < 0) continue;
      const rim = shape(place(c), g.r * 1.12, rims, "rim");
      rim.setAttribute("fill", state.colours[c.e]);
    }
    cells = {};
    for (const c of g.cells) {
      const at = place(c);
      const group = el("g", { "data-cell": c.n, role: "button", tabindex: "-1", class: "cell" }, svg);
      if (c.s !== undefined) {
        // Regions (sub-boards) in a checkerboard of two tints.
        const row = Math.floor(c.s / side);
        group.classList.add((row + (c.s % side)) % 2 ? "alt" : "main");
        group.dataset.region = String(c.s);
      }
      shape(at, g.r, group, "ground");
      if (c.a) el("circle", { cx: at.x, cy: at.y, r: g.r * 0.16, class: "auto" }, group);
      el("circle", { cx: at.x, cy: at.y, r: g.r * 0.55, class: "piece" }, group);
      el("circle", { cx: at.x, cy: at.y, r: g.r * 0.7, class: "ring" }, group);
      el("circle", { cx: at.x, cy: at.y, r: g.r * 0.22, class: "hint" }, group);
      el("text", { x: at.x, y: at.y, class: "height" }, group);
      group.addEventListener("click", () => tap(c.n));
      group.addEventListener("keydown", (e) => key(e, c));
      cells[c.n] = group;
    }
    el("g", { class: "win-path" }, svg);
    const coords = el("g", { class: "coords", "aria-hidden": "true" }, svg);
    for (const label of g.labels) {
      const at = place(label);
      el("text", { x: at.x, y: at.y, class: "coord" }, coords).textContent = label.t;
    }
    const names = el("g", { class: "region-names", "aria-hidden": "true" }, svg);
    g.regions.forEach((region, i) => {
      const at = place(region);
      const t = el("text", { x: at.x, y: at.y, class: "region-name", "data-region": i }, names);
      t.textContent = region.n;
    });
    cells[g.cells[0].n].setAttribute("tabindex", "0");
    $("board").replaceChildren(svg);
    boardTools();
    $("flip").setAttribute("aria-pressed", String(isFlipped()));
    size();
  }

  // The drawing's scale: the rule of the page's placeholder (boardbox.js), so the board is
  // drawn where its place was kept.
  function size() {
    const svg = $("board").querySelector("svg");
    if (!svg || !state) return;
    const g = state.board;
    const [, , bw, bh] = g.box;
    const cell = (g.kind === "square" ? 2 : Math.sqrt(3)) * g.r;
    const scale = window.HexhallBoardBox.size($("board"), svg, bw, bh, cell, ZOOMS[zoom]);
    // Coordinates of at least 13 CSS px, whatever the scale.
    const font = Math.max(g.r * 0.5, 13 / scale);
    svg.style.setProperty("--coord", font.toFixed(1) + "px");
    svg.style.setProperty("--region", Math.max(g.r * 1.6, 20 / scale).toFixed(1) + "px");
    $("zoom-out").disabled = zoom === 0;
    $("zoom-in").disabled = zoom === ZOOMS.length - 1;
  }

  // Turn board and Zoom, under the board: the page has them in place already (disabled until
  // the board is drawn), so nothing moves when they come to life.
  let toolsWired = false;
  function boardTools() {
    if (toolsWired) return;
    toolsWired = true;
    if (!$("board-tools")) {
      const labels = state.labels;
      const tools = html("div", { id: "board-tools", class: "board-tools" });
      const flip = html("button", { type: "button", id: "flip", "aria-pressed": "false" }, labels.flip);
      const out = html("button", { type: "button", id: "zoom-out", "aria-label": labels.zoom_out }, "−");
      const into = html("button", { type: "button", id: "zoom-in", "aria-label": labels.zoom_in }, "+");
      tools.append(flip, out, into);
      $("board").after(tools);
    }
    $("flip").disabled = false;
    $("flip").addEventListener("click", () => {
      flipped = !isFlipped();
      lasting.set("hexhall-flip:" + slug, flipped ? "1" : "0");
      build();
      paint();
    });
    $("zoom-out").addEventListener("click", () => {
      zoom = Math.max(0, zoom - 1);
      size();
    });
    $("zoom-in").addEventListener("click", () => {
      zoom = Math.min(ZOOMS.length - 1, zoom + 1);
      size();
    });
  }

  function frameShown() {
    if (planned) return planned.frame;
    // A whole move built: its position, the opponent's last move still marked.
    if (step && step.complete && step.after && shown === state.ply) {
      return { ...step.after, last: state.frames[shown].last };
    }
    return state.frames[shown];
  }

  function paint() {
    const frame = frameShown();
    const g = state.board;
    const building = planned || (step && shown === state.ply ? step : null);
    const chosen = new Set(building ? building.chosen : []);
    const holding = building ? building.marked : null;
    const win = new Set(frame.win || []);
    const review = marked && shown === marked.ply ? marked : null;
    g.cells.forEach((c, i) => {
      const group = cells[c.n];
      const piece = frame.p[i];
      const height = frame.h ? frame.h[i] : null;
      const ground = group.querySelector(".ground");
      const disc = group.querySelector(".piece");
      const label = group.querySelector(".height");
      if (g.heights === "tiles") ground.style.fill = TILE_FILLS[String(height)] || TILE_FILLS["0"];
      disc.setAttribute("fill", piece >= 0 ? state.colours[piece] : "none");
      disc.classList.toggle("off", piece < 0);
      group.classList.toggle("taken", piece >= 0);
      label.textContent = g.heights === "stacks" && height > 1 ? String(height) : "";
      label.setAttribute("fill", piece === 1 ? "#fff" : "#111");
      const region = c.s === undefined ? null : c.s;
      group.classList.toggle("last", frame.last.includes(c.n));
      group.classList.toggle("can", c.n in cellChoices);
      group.classList.toggle("pick", region !== null && region in regionChoices);
      group.classList.toggle("zone", region !== null && frame.zone === region);
      group.classList.toggle("sel", chosen.has(c.n) || holding === c.n);
      group.classList.toggle("win", win.has(c.n));
      group.classList.toggle("better", !!review && review.cells.includes(c.n));
      group.classList.toggle("played", !!review && review.played_cells.includes(c.n));
      group.setAttribute("aria-label", cellWords(c, piece, height, group, region));
    });
    for (const t of $("board").querySelectorAll(".region-name")) {
      t.classList.toggle("shown", Number(t.dataset.region) in regionChoices);
    }
    winPath(frame);
    $("at").textContent = `${shown} / ${state.ply}`;
    $("first").disabled = $("prev").disabled = shown === 0;
    $("next").disabled = $("last").disabled = shown === state.ply;
    for (const b of $("moves").querySelectorAll("button")) {
      b.setAttribute("aria-current", Number(b.dataset.ply) === shown ? "step" : "false");
    }
    for (const tr of $("review-moves").querySelectorAll("tbody tr")) {
      tr.setAttribute("aria-current", review && Number(tr.dataset.ply) === review.ply ? "step" : "false");
    }
    $("review-at").textContent = review ? review.text : "";
  }

  function cellWords(c, piece, height, group, region) {
    let words = c.n;
    if (region !== null) words += ", " + state.board.regions[region].label;
    if (state.board.heights === "tiles") words += ", " + word(["no_tile", "one_tile", "two_tiles"][height + 1]);
    if (piece >= 0) words += ", " + sideOf(piece) + (state.board.heights === "stacks" && height > 1 ? " " + word("stack", { count: height }) : "");
    if (group.classList.contains("can") || group.classList.contains("pick")) words += ", " + word("can_choose");
    if (group.classList.contains("win")) words += ", " + word("win_path");
    if (group.classList.contains("better")) words += ", " + word("better_move");
    if (group.classList.contains("played")) words += ", " + word("played_move");
    return words;
  }

  // The winning path of a finished game: its cells ringed and linked, as the pictures draw it.
  function winPath(frame) {
    const layer = $("board").querySelector(".win-path");
    const byName = {};
    for (const c of state.board.cells) byName[c.n] = c;
    layer.replaceChildren();
    for (const [a, b] of frame.links || []) {
      const p = place(byName[a]);
      const q = place(byName[b]);
      el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "win-link" }, layer);
    }
  }

  // The opponent's move, shown briefly (nothing moves with prefers-reduced-motion: the CSS).
  function arrive(names) {
    for (const name of names) {
      const group = cells[name];
      if (!group) continue;
      group.classList.remove("arrive");
      group.getBoundingClientRect(); // restart the animation
      group.classList.add("arrive");
      group.addEventListener("animationend", () => group.classList.remove("arrive"), { once: true });
    }
  }

  // -- the review: the moves that changed the game most, each a way to its position ------
  async function askReview() {
    if (reviewing) return;
    reviewing = true;
    $("review-ask").disabled = true;
    $("review-text").textContent = word("reviewing");
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
    return player ? player.side : word("colour", { number: colour });
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
      turn = state.can_move ? word("your_turn", { side: p.side }) : word("to_move", { name: p.name, side: p.side });
      if (state.deadline) turn += " " + left(new Date(state.deadline));
    }
    $("turn").textContent = turn;
    $("result").textContent = state.over ? state.result : "";
    $("words").textContent = state.words;
  }

  function left(deadline) {
    const ms = deadline - Date.now();
    if (ms <= 0) return word("time_up");
    const h = Math.floor(ms / 3600000);
    const d = Math.floor(h / 24);
    return d >= 1 ? word("left_days", { days: d, hours: h % 24 }) : word("left_hours", { hours: h, minutes: Math.floor(ms / 60000) % 60 });
  }

  function moveList() {
    const list = $("moves");
    const now = [...list.querySelectorAll("button")].map((b) => b.textContent);
    if (now.join("\n") === state.moves.join("\n")) return;
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

  // -- the move builder: the server's choices after the prefix, tapped on the board ----------
  async function refresh() {
    const playing = !planned && state.can_move && shown === state.ply;
    $("play").hidden = !playing;
    cellChoices = {};
    regionChoices = {};
    for (const choice of planned ? planned.choices : []) {
      if (choice.c !== null && !(choice.c in cellChoices)) cellChoices[choice.c] = choice.next;
      else if (choice.r !== null) regionChoices[choice.r] = choice.next;
    }
    $("choices").replaceChildren();
    if ($("typed")) $("typed").hidden = !playing;
    if (playing) {
      typedBox();
      let answer;
      try {
        answer = await fetch(`/api/games/${slug}/next?prefix=${encodeURIComponent(prefix)}`, { headers, cache: "no-store" });
      } catch (e) {
        say(String(e));
        paint();
        return;
      }
      const reply = await answer.json().catch(() => ({ text: answer.statusText }));
      if (!answer.ok) {
        say(reply.text);
        if (prefix) {
          prefix = "";
          return refresh();
        }
        paint();
        return;
      }
      step = reply;
      prefix = step.selection;
      $("play").dataset.prefix = prefix;
      for (const choice of step.choices) {
        if (choice.c !== null && !(choice.c in cellChoices)) cellChoices[choice.c] = choice.next;
        else if (choice.r !== null) regionChoices[choice.r] = choice.next;
        else {
          const b = html("button", { type: "button", class: "choice" }, choice.label);
          b.addEventListener("click", () => choose(choice.next));
          $("choices").appendChild(b);
        }
      }
      if (!prefix) reveal(Object.keys(cellChoices));
      $("send").disabled = !step.complete;
      $("back").disabled = step.back === null || step.back === undefined;
      $("clear").disabled = !prefix;
      $("prompt").textContent = step.prompt;
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
    host.main(ready ? `${$("send").textContent} ${step.move}` : null, () => play(false));
    host.back(playing && prefix && step && step.back !== null && step.back !== undefined ? stepBack : null);
    host.confirmClose(playing && !!prefix);
  }

  // A board that pans (the biggest boards on a phone) scrolls, inside its box only, to show the
  // cells that can be chosen when none of them is in sight.
  function reveal(names) {
    const box = $("board");
    if (!box.classList.contains("pans") || !names.length) return;
    const view = box.getBoundingClientRect();
    const rects = names.map((n) => cells[n].getBoundingClientRect());
    const inside = (r) => r.left >= view.left && r.right <= view.right && r.top >= view.top && r.bottom <= view.bottom;
    if (rects.some(inside)) return;
    const x = (Math.min(...rects.map((r) => r.left)) + Math.max(...rects.map((r) => r.right))) / 2;
    const y = (Math.min(...rects.map((r) => r.top)) + Math.max(...rects.map((r) => r.bottom))) / 2;
    box.scrollLeft += x - (view.left + view.right) / 2;
    box.scrollTop += y - (view.top + Math.min(view.bottom, window.innerHeight)) / 2;
  }

  function choose(next) {
    if (planned) return planned.onTap(next);
    if (busy) return;
    host.haptic("tap");
    prefix = next;
    refresh();
  }

  function tap(name) {
    if (name in cellChoices) return choose(cellChoices[name]);
    const region = cells[name] ? cells[name].dataset.region : undefined;
    if (region !== undefined && region in regionChoices) return choose(regionChoices[region]);
    // Tapping what is chosen takes that choice back.
    const building = planned || step;
    if (building && (building.marked === name || building.chosen.includes(name)) && building.back !== null) choose(building.back);
  }

  // The move sent: the server's answer, or null when none came (no connection, its error).
  async function send(move, confirm) {
    try {
      const answer = await fetch(`/api/games/${slug}/moves`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ move, ply: state.ply, confirm: !!confirm }),
      });
      return answer.status >= 500 ? null : await answer.json();
    } catch (e) {
      return null;
    }
  }

  async function play(confirm, typed) {
    const move = typed !== undefined ? typed : step && step.complete ? step.move : null;
    if (busy || !move) return;
    busy = true;
    $("send").disabled = true;
    host.busy(true);
    try {
      const reply = await send(move, confirm);
      if (!reply) {
        // Said, the move kept as built, Play usable again.
        say(state.labels.failed || $("status").dataset.failed);
        host.haptic("error");
        return;
      }
      say(reply.text);
      host.haptic(reply.ok ? "done" : "error");
      if (reply.confirm) {
        const b = html("button", { type: "button", class: "choice" }, state.labels.anyway);
        b.addEventListener("click", () => play(true, move));
        $("choices").replaceChildren(b);
        return;
      }
      if (reply.ok) {
        mine = true;
        follow = true;
        if (typed !== undefined) $("typed-move").value = "";
        await load().catch(NOOP); // (the event stream, opened again, loads it then)
      }
    } catch (e) {
      say(String(e));
    } finally {
      busy = false;
      host.busy(false);
      if (step) $("send").disabled = !step.complete;
    }
  }

  // A move typed in the game's notation (the server reads it as the chat does), for the
  // player to move only (shown and hidden with the move builder).
  function typedBox() {
    if ($("typed")) return;
    const form = html("form", { id: "typed", class: "typed" });
    const label = html("label", { for: "typed-move" }, state.labels.typed);
    const input = html("input", {
      id: "typed-move", type: "text", autocomplete: "off", autocapitalize: "off",
      spellcheck: "false", enterkeyhint: "send", maxlength: "200",
    });
    const submit = html("button", { type: "submit", id: "typed-send" }, state.labels.typed_send);
    form.append(label, input, submit);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) play(false, text);
    });
    // With the page's actions, under what the game shows: the board's own controls stay one
    // short row, so the page grows little when a player's turn comes (no layout shift).
    $("game-actions").before(form);
  }

  // -- resign, draw, takeback: asked of the server, which decides as the chat does -----------
  function gameActions() {
    let box = $("game-actions");
    if (!box) {
      box = html("div", { id: "game-actions", class: "game-actions" });
      $("status").before(box);
    }
    const labels = state.labels;
    const buttons = [];
    const offer = html("p", { id: "offer", class: "offer" }, state.offer_text || "");
    if (state.you !== null && state.you !== undefined && !state.over) {
      const other = 1 - state.you;
      if (state.offers.draw === other) {
        buttons.push(action("draw-accept", labels.draw_accept, "draw", "accept"));
        buttons.push(action("draw-decline", labels.draw_decline, "draw", "decline"));
      } else {
        buttons.push(action("draw", labels.draw, "draw", "offer"));
      }
      if (state.offers.takeback === other) {
        buttons.push(action("takeback-accept", labels.takeback_accept, "takeback", "accept"));
        buttons.push(action("takeback-decline", labels.takeback_decline, "takeback", "decline"));
      } else {
        buttons.push(action("takeback", labels.takeback, "takeback", "ask"));
      }
      if (asking) {
        // "Really resign?" stays asked, whatever else changes, until it is answered.
        const cancel = html("button", { type: "button", id: "act-cancel" }, labels.cancel);
        cancel.addEventListener("click", () => {
          asking = false;
          say("");
          gameActions();
        });
        buttons.splice(0, buttons.length, action("resign-sure", labels.resign_sure, "resign", "", true), cancel);
      } else {
        buttons.push(action("resign", labels.resign, "resign", ""));
      }
    } else {
      asking = false;
    }
    const row = html("div", { class: "controls" });
    row.append(...buttons);
    const next = state.next_turn
      ? [html("a", { id: "next-turn", class: "next-turn", href: state.next_turn }, labels.next_turn)]
      : [];
    box.replaceChildren(offer, row, ...next);
  }

  function action(id, label, what, answer, confirm) {
    const b = html("button", { type: "button", id: "act-" + id }, label);
    b.addEventListener("click", () => act(what, answer, !!confirm));
    return b;
  }

  async function act(what, answer, confirm) {
    if (busy) return;
    busy = true;
    try {
      const reply = await fetch(`/api/games/${slug}/actions`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ action: what, answer, confirm }),
      }).then((r) => r.json().catch(() => ({ ok: false, text: r.statusText })));
      say(reply.text);
      // "Really resign?": the second tap resigns.
      asking = !!reply.ask;
      gameActions();
      if (!reply.ask) await load();
    } catch (e) {
      say(String(e));
    } finally {
      busy = false;
    }
  }

  // -- stepping through: #ply=N in the address, each step a history entry -------------------
  function show(ply, remember = true) {
    shown = Math.max(0, Math.min(state.ply, ply));
    follow = shown === state.ply;
    if (remember && fragmentPly() !== shown) {
      history.pushState({ ply: shown }, "", location.pathname + location.search + "#ply=" + shown);
    }
    refresh();
  }

  window.addEventListener("popstate", () => {
    if (!state) return;
    const ply = fragmentPly();
    show(ply === null ? state.ply : ply, false);
  });

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
    const from = place(c);
    let best = null;
    let bestScore = Infinity;
    for (const o of state.board.cells) {
      const to = place(o);
      const dx = to.x - from.x;
      const dy = to.y - from.y;
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
  $("clear").addEventListener("click", () => choose(""));
  function stepBack() {
    if (step && step.back !== null && step.back !== undefined) choose(step.back);
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
  window.addEventListener("resize", size);

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
      $("watchers").textContent = word("watching", { count: change.spectators });
      if (!state || change.stamp !== String(state.version)) load();
    };
    events.onerror = () => {
      events.close();
      $("watchers").textContent = word("reconnecting");
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
