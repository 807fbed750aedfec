// The words around the board, for board.js: the players and whose turn it is (with the time
// left), the move list, and who is watching, kept from the game's live event stream.  Every
// word is the server's (word: a label of the page's, its {names} filled).  Defines
// window.HexhallPanel; nothing runs when loaded.
"use strict";
window.HexhallPanel = (() => {
  const $ = (id) => document.getElementById(id);

  function header(state, word) {
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
      if (state.deadline) turn += " " + left(new Date(state.deadline), word);
    }
    $("turn").textContent = turn;
    $("result").textContent = state.over ? state.result : "";
    $("words").textContent = state.words;
  }

  function left(deadline, word) {
    const ms = deadline - Date.now();
    if (ms <= 0) return word("time_up");
    const h = Math.floor(ms / 3600000);
    const d = Math.floor(h / 24);
    return d >= 1 ? word("left_days", { days: d, hours: h % 24 }) : word("left_hours", { hours: h, minutes: Math.floor(ms / 60000) % 60 });
  }

  function moveList(state) {
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

  // -- live: the game's event stream, opened again after any error ---------------------------
  // A browser gives an event stream up for good on an HTTP error (the operator's proxy
  // answering 502 while the bot restarts): the page opens it again itself, sooner at first
  // (a restart takes seconds), never more than RETRY_MAX apart, and says it is reconnecting.
  const RETRY_FIRST = 500;
  const RETRY_MAX = 1500;
  let retry = RETRY_FIRST;

  // Follows game ``slug`` (o: player() whether this page is a player's, stale(stamp) whether a
  // change's stamp is not the game shown, load(), word(key, values)).
  function listen(slug, o) {
    // A player's own page is no spectator: it says so, and is left out of "N watching".
    const player = o.player() ? "?player=1" : "";
    const events = new EventSource(`/api/games/${slug}/events${player}`);
    events.onopen = () => {
      retry = RETRY_FIRST;
      $("watchers").classList.remove("reconnecting");
    };
    // The first event is the game as it is now: what changed while the stream was down too.
    events.onmessage = (e) => {
      const change = JSON.parse(e.data);
      $("watchers").textContent = o.word("watching", { count: change.spectators });
      if (o.stale(change.stamp)) o.load();
    };
    events.onerror = () => {
      events.close();
      $("watchers").textContent = o.word("reconnecting");
      $("watchers").classList.add("reconnecting");
      setTimeout(() => listen(slug, o), retry * (0.75 + Math.random() / 4));
      retry = Math.min(retry * 1.5, RETRY_MAX);
    };
  }

  return { header, moveList, listen };
})();
