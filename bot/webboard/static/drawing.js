// The board's drawing, for board.js: an SVG of the cells of the board view (the "board" of
// /api/games/<slug>: cells, coordinates, regions, goal rims, how heights are shown) painted
// with one frame (what is on every cell, the last move, the winning path, the region to play
// in).  It draws from that JSON only: no game is named here, and no game's rule is known.
// Defines window.HexhallDrawing; nothing runs when loaded.
"use strict";
window.HexhallDrawing = (() => {
  const SVG = "http://www.w3.org/2000/svg";

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

  // Where a point of the view is drawn: as it is, or the board turned half round.
  function placer(g, flipped) {
    const [bx, by, bw, bh] = g.box;
    return (c) => (flipped ? { x: 2 * bx + bw - c.x, y: 2 * by + bh - c.y } : { x: c.x, y: c.y });
  }

  function outline(g, c, radius) {
    const points = [];
    for (let k = 0; k < 6; k++) {
      const a = ((-90 + 60 * k + g.turn) * Math.PI) / 180;
      points.push(`${(c.x + radius * Math.cos(a)).toFixed(1)},${(c.y + radius * Math.sin(a)).toFixed(1)}`);
    }
    return points.join(" ");
  }

  function shape(g, c, radius, parent, cls) {
    if (g.kind === "square") {
      return el("rect", { x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius, class: cls }, parent);
    }
    return el("polygon", { points: outline(g, c, radius), class: cls }, parent);
  }

  // The board's drawing: goal rims, cells (each a tap target with its piece, ring, hint and
  // height), the winning path's layer, coordinates and region names.  ``o``: place (from
  // placer), colours (by colour), label (the drawing's aria-label), onTap(name), onKey(event,
  // cell).  Returns the drawing and its cells' groups by notation.
  function build(g, o) {
    const [bx, by, bw, bh] = g.box;
    const svg = el("svg", { viewBox: `${bx} ${by} ${bw} ${bh}`, role: "group", "aria-label": o.label });
    const side = Math.round(Math.sqrt(g.regions.length)) || 1;
    // Each colour's goal cells: a rim of its colour behind them.
    const rims = el("g", { class: "rims" }, svg);
    for (const c of g.cells) {
      if (c.e < 0) continue;
      const rim = shape(g, o.place(c), g.r * 1.12, rims, "rim");
      rim.setAttribute("fill", o.colours[c.e]);
    }
    const cells = {};
    for (const c of g.cells) {
      const at = o.place(c);
      const group = el("g", { "data-cell": c.n, role: "button", tabindex: "-1", class: "cell" }, svg);
      if (c.s !== undefined && c.s !== null) {
        // Regions in a checkerboard of two tints.
        const row = Math.floor(c.s / side);
        group.classList.add((row + (c.s % side)) % 2 ? "alt" : "main");
        group.dataset.region = String(c.s);
      }
      shape(g, at, g.r, group, "ground");
      if (c.a) el("circle", { cx: at.x, cy: at.y, r: g.r * 0.16, class: "auto" }, group);
      el("circle", { cx: at.x, cy: at.y, r: g.r * 0.55, class: "piece" }, group);
      el("circle", { cx: at.x, cy: at.y, r: g.r * 0.7, class: "ring" }, group);
      el("circle", { cx: at.x, cy: at.y, r: g.r * 0.22, class: "hint" }, group);
      el("text", { x: at.x, y: at.y, class: "height" }, group);
      group.addEventListener("click", () => o.onTap(c.n));
      group.addEventListener("keydown", (e) => o.onKey(e, c));
      cells[c.n] = group;
    }
    el("g", { class: "win-path" }, svg);
    const coords = el("g", { class: "coords", "aria-hidden": "true" }, svg);
    for (const label of g.labels) {
      const at = o.place(label);
      el("text", { x: at.x, y: at.y, class: "coord" }, coords).textContent = label.t;
    }
    const names = el("g", { class: "region-names", "aria-hidden": "true" }, svg);
    g.regions.forEach((region, i) => {
      const at = o.place(region);
      const t = el("text", { x: at.x, y: at.y, class: "region-name", "data-region": i }, names);
      t.textContent = region.n;
    });
    cells[g.cells[0].n].setAttribute("tabindex", "0");
    return { svg, cells };
  }

  // Paints ``frame`` on the drawing's ``cells``.  ``o``: place, colours, cellChoices (notation
  // -> next), regionChoices (region -> next), chosen (a Set of notations), holding (a
  // notation or null), review (the reviewed move shown, or null), word(key, values) and
  // sideOf(colour) for the cells' words.
  function paint(g, cells, frame, o) {
    const win = new Set(frame.win || []);
    const heights = g.heights;
    g.cells.forEach((c, i) => {
      const group = cells[c.n];
      const piece = frame.p[i];
      const height = frame.h ? frame.h[i] : null;
      const ground = group.querySelector(".ground");
      const disc = group.querySelector(".piece");
      const label = group.querySelector(".height");
      if (heights && heights.fills) ground.style.fill = heights.fills[String(height)] || "";
      disc.setAttribute("fill", piece >= 0 ? o.colours[piece] : "none");
      disc.classList.toggle("off", piece < 0);
      group.classList.toggle("taken", piece >= 0);
      label.textContent = counted(heights, height) ? String(height) : "";
      label.setAttribute("fill", piece === 1 ? "#fff" : "#111");
      const region = c.s === undefined ? null : c.s;
      group.classList.toggle("last", frame.last.includes(c.n));
      group.classList.toggle("can", c.n in o.cellChoices);
      group.classList.toggle("pick", region !== null && region in o.regionChoices);
      group.classList.toggle("zone", region !== null && frame.zone === region);
      group.classList.toggle("sel", o.chosen.has(c.n) || o.holding === c.n);
      group.classList.toggle("win", win.has(c.n));
      group.classList.toggle("better", !!o.review && o.review.cells.includes(c.n));
      group.classList.toggle("played", !!o.review && o.review.played_cells.includes(c.n));
      group.setAttribute("aria-label", cellWords(g, c, piece, height, group, region, o));
    });
    const svg = cells[g.cells[0].n].ownerSVGElement;
    for (const t of svg.querySelectorAll(".region-name")) {
      t.classList.toggle("shown", Number(t.dataset.region) in o.regionChoices);
    }
    winPath(svg.querySelector(".win-path"), g, frame, o.place);
  }

  // Whether a cell's height is written on it (a stack's, from the view's least height).
  function counted(heights, height) {
    return !!heights && heights.from !== null && height !== null && height >= heights.from;
  }

  function cellWords(g, c, piece, height, group, region, o) {
    const heights = g.heights;
    let words = c.n;
    if (region !== null) words += ", " + g.regions[region].label;
    if (heights && heights.ground) words += ", " + o.word(heights.ground[String(height)]);
    if (piece >= 0) {
      words += ", " + o.sideOf(piece);
      if (heights && heights.count && counted(heights, height)) words += " " + o.word(heights.count, { count: height });
    }
    if (group.classList.contains("can") || group.classList.contains("pick")) words += ", " + o.word("can_choose");
    if (group.classList.contains("win")) words += ", " + o.word("win_path");
    if (group.classList.contains("better")) words += ", " + o.word("better_move");
    if (group.classList.contains("played")) words += ", " + o.word("played_move");
    return words;
  }

  // The winning path of a finished game: its cells ringed and linked, as the pictures draw it.
  function winPath(layer, g, frame, place) {
    const byName = {};
    for (const c of g.cells) byName[c.n] = c;
    layer.replaceChildren();
    for (const [a, b] of frame.links || []) {
      const p = place(byName[a]);
      const q = place(byName[b]);
      el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "win-link" }, layer);
    }
  }

  // The opponent's move, shown briefly (nothing moves with prefers-reduced-motion: the CSS).
  function arrive(cells, names) {
    for (const name of names) {
      const group = cells[name];
      if (!group) continue;
      group.classList.remove("arrive");
      group.getBoundingClientRect(); // restart the animation
      group.classList.add("arrive");
      group.addEventListener("animationend", () => group.classList.remove("arrive"), { once: true });
    }
  }

  // The cell nearest to ``c`` the way an arrow key points ([dx, dy] on the screen), or null.
  function nearest(g, place, c, way) {
    const from = place(c);
    let best = null;
    let bestScore = Infinity;
    for (const o of g.cells) {
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
    return best;
  }

  return { el, html, placer, build, paint, arrive, nearest };
})();
