// The game's review, for board.js: asked of the server (/api/games/<slug>/review), the moves
// that changed the game most, each a way to its position, whose cells the board marks (the
// move played and the better one).  Defines window.HexhallReview(o), o: slug, headers,
// word(key), show(ply) and paint(); nothing runs when loaded.
"use strict";
window.HexhallReview = (o) => {
  const $ = (id) => document.getElementById(id);
  let marked = null; // the reviewed move whose position is shown (its cells marked)
  let reviewing = false;
  let reviewed = -1; // how many moves the review shown looked at

  async function askReview() {
    if (reviewing) return;
    reviewing = true;
    $("review-ask").disabled = true;
    $("review-text").textContent = o.word("reviewing");
    try {
      const answer = await fetch(`/api/games/${o.slug}/review`, { headers: o.headers, cache: "no-store" });
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
          o.show(m.ply);
          $("board").scrollIntoView({ block: "nearest" });
        });
        return tr;
      })
    );
    $("review-moves").hidden = reply.moves.length === 0;
    $("review-hint").textContent = reply.hint;
    o.paint();
  }

  // The reviewed move shown at ``ply`` (null for none): its row marked, its words said.
  function at(ply) {
    const review = marked && ply === marked.ply ? marked : null;
    for (const tr of $("review-moves").querySelectorAll("tbody tr")) {
      tr.setAttribute("aria-current", review && Number(tr.dataset.ply) === review.ply ? "step" : "false");
    }
    $("review-at").textContent = review ? review.text : "";
    return review;
  }

  $("review-ask").addEventListener("click", askReview);
  return { clear: clearReview, at, reviewed: () => reviewed };
};
