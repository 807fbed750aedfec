// Resign, draw and takeback, for board.js: the buttons a player of the game shown is offered
// (from the game's state: the offers made, "Really resign?" asked), each asked of the server
// (/api/games/<slug>/actions), which decides as the chat does.  Defines
// window.HexhallActions(o), o: slug, headers, state() the game as loaded, say(text), load(),
// lock (its busy: a move or an action on its way; its hold(on) says so); returns its show().
// Nothing runs when loaded.
"use strict";
window.HexhallActions = (o) => {
  const $ = (id) => document.getElementById(id);
  const { html } = window.HexhallDrawing;
  let asking = false; // "Really resign?" asked, not yet answered

  function gameActions() {
    const state = o.state();
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
          o.say("");
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
    if (o.lock.busy) return;
    o.lock.hold(true);
    try {
      const reply = await fetch(`/api/games/${o.slug}/actions`, {
        method: "POST",
        headers: { ...o.headers, "Content-Type": "application/json" },
        body: JSON.stringify({ action: what, answer, confirm }),
      }).then((r) => r.json().catch(() => ({ ok: false, text: r.statusText })));
      o.say(reply.text);
      // "Really resign?": the second tap resigns.
      asking = !!reply.ask;
      gameActions();
      if (!reply.ask) await o.load();
    } catch (e) {
      o.say(String(e));
    } finally {
      o.lock.hold(false);
    }
  }

  return { show: gameActions };
};
