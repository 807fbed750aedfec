// Hexhall's web board: draws a game's board from /api/games/<slug> (a typed view of cells,
// coordinates, regions and marks: no game is named here), steps through its positions (#ply=N
// links, the browser's Back steps back), follows it live (server-sent events) and, for the
// player to move, builds a move from the choices the server offers (cells, regions of the
// board, buttons) or takes it typed, then plays it; resign, draw and takeback go through the
// server, which decides as the chat does.  Its parts, loaded before it: session.js (the
// sign-in), drawing.js (the board's drawing), panel.js (the words around the board, the live
// stream), review.js (the game's review) and actions.js (resign, draw, takeback).  No inline
// script: the page's Content-Security-Policy forbids it.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const ZOOMS = [1, 1.5, 2, 3];
  // Telegram's Mini App side (host.js): MainButton, BackButton, haptics ... (no-ops outside).
  const NOOP = () => {};
  const host = window.HexhallHost ||
    { ready: NOOP, main: NOOP, busy: NOOP, back: NOOP, haptic: NOOP, confirmClose: NOOP, guard: NOOP };
  // The sign-in and the page's storage (session.js), the board's drawing (drawing.js).
  const { fragment, telegram, lasting, initData, forgetLaunchData, credentials } = window.HexhallSession;
  const drawing = window.HexhallDrawing;
  const panel = window.HexhallPanel;
  const { html } = drawing;

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
  // The choices after the prefix on their way (asked of the server): a cell tapped meanwhile is
  // kept and taken once they come, rather than lost ("Your turn" is shown before they come).
  let asking = 0; // how many asks are on their way
  let tappedMeanwhile = null;
  let tappedLast = null; // the cell whose choices are on their way: tapped again meanwhile, a double tap
  // A move or an action on its way (busy), said on the page too: <main> is aria-busy meanwhile
  // (for a screen reader, and for a test to wait on), its taps not taken.
  const lock = {
    busy: false,
    hold(on) {
      this.busy = on;
      const main = document.querySelector("main");
      if (!main) return;
      if (on) main.setAttribute("aria-busy", "true");
      else main.removeAttribute("aria-busy");
    },
  };
  let mine = false; // the next new position is this page's own move (not animated)
  let flipped = null; // the board turned half round (null: as the player's seat says)
  let zoom = 0; // index into ZOOMS
  let asked = fragmentPly();
  // Plan mode (plan.js): another position and its choices drawn on this board, taps sent to
  // plan.js (draw), until the real game is shown again (real).  Nothing of it leaves the page.
  let planned = null; // { frame, choices, onTap, chosen, marked } while planning
  // The review's moves (review.js), whose cells the board marks.
  const reviews = window.HexhallReview({ slug, headers, word, show, paint });
  // Resign, draw and takeback (actions.js).
  const actions = window.HexhallActions({ slug, headers, state: () => state, say, load, lock });
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
    if (first) $("review-ask").disabled = false; // its words have come (review.js)
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
    panel.header(state, word);
    panel.moveList(state);
    actions.show();
    $("review").hidden = !state.reviewable;
    if (state.ply < reviews.reviewed()) reviews.clear(); // a takeback: the review named moves now gone
    await refresh();
    if (moved && !first && !mine && follow && before !== null && state.ply === before + 1) {
      drawing.arrive(cells, state.frames[state.ply].last);
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
    return drawing.placer(state.board, isFlipped())(c);
  }

  function build() {
    const drawn = drawing.build(state.board, {
      place: drawing.placer(state.board, isFlipped()),
      colours: state.colours,
      label: word("board_named", { title: state.title }),
      onTap: tap,
      onKey: key,
    });
    cells = drawn.cells;
    $("board").replaceChildren(drawn.svg);
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
    const building = planned || (step && shown === state.ply ? step : null);
    const review = reviews.at(shown);
    drawing.paint(state.board, cells, frame, {
      place: drawing.placer(state.board, isFlipped()),
      colours: state.colours,
      cellChoices,
      regionChoices,
      chosen: new Set(building ? building.chosen : []),
      holding: building ? building.marked : null,
      review,
      word,
      sideOf,
    });
    $("at").textContent = `${shown} / ${state.ply}`;
    $("first").disabled = $("prev").disabled = shown === 0;
    $("next").disabled = $("last").disabled = shown === state.ply;
    for (const b of $("moves").querySelectorAll("button")) {
      b.setAttribute("aria-current", Number(b.dataset.ply) === shown ? "step" : "false");
    }
  }

  function sideOf(colour) {
    const start = state.colours[colour];
    const player = state.players.find((p) => p.colour === start);
    return player ? player.side : word("colour", { number: colour });
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
      let reply;
      asking += 1;
      try {
        answer = await fetch(`/api/games/${slug}/next?prefix=${encodeURIComponent(prefix)}`, { headers, cache: "no-store" });
        reply = await answer.json().catch(() => ({ text: answer.statusText }));
      } catch (e) {
        tappedMeanwhile = null;
        say(String(e));
        paint();
        return;
      } finally {
        asking -= 1;
        if (asking === 0) tappedLast = null;
      }
      if (!answer.ok) {
        tappedMeanwhile = null;
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
    if (tappedMeanwhile !== null && asking === 0) {
      const name = tappedMeanwhile;
      tappedMeanwhile = null;
      if (playing) tap(name);
    }
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
    if (lock.busy) return;
    host.haptic("tap");
    prefix = next;
    refresh();
  }

  function tap(name) {
    if (asking > 0 && !planned) {
      if (name !== tappedLast) tappedMeanwhile = name; // a double tap is one tap
      return;
    }
    takeTap(name);
    tappedLast = asking > 0 ? name : null;
  }

  function takeTap(name) {
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
    if (lock.busy || !move) return;
    lock.hold(true);
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
      lock.hold(false);
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
    const best = drawing.nearest(state.board, place, c, way);
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
  load().finally(() => {
    host.ready(); // the board is drawn (or what went wrong is said)
    panel.listen(slug, {
      player: () => !!state && state.you !== null && state.you !== undefined,
      stale: (stamp) => !state || stamp !== String(state.version),
      load,
      word,
    });
  });
  setInterval(() => state && panel.header(state, word), 30000);
})();
