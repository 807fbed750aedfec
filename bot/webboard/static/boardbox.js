// The board's size on the page: one rule, used twice.  The page's placeholder (an empty
// drawing of the board's own box, from the same view as the board) is sized by it as soon as
// it is parsed, before anything under it is (this script is not deferred), and board.js sizes
// its drawing by the same rule: so the board is drawn exactly where its place was kept and
// nothing on the page moves.  The rule: the whole board in its box when its cells are big
// enough to tap, else bigger (the box pans); the page's Zoom makes it bigger still.
"use strict";
window.HexhallBoardBox = (() => {
  // The smallest tap target on the board, in CSS pixels (the 44, rounding aside).
  const MIN_TAP = 44.5;

  // Sizes ``svg`` (a drawing of viewBox width ``bw`` and height ``bh`` whose neighbouring
  // cells are ``cell`` apart) in ``box`` at ``zoom``; returns the scale (CSS px per unit).
  function size(box, svg, bw, bh, cell, zoom) {
    const width = box.clientWidth || window.innerWidth;
    const landscape = window.innerWidth > window.innerHeight;
    const height = Math.max(200, window.innerHeight - (landscape ? 8 : 110));
    const fit = Math.min(width / bw, height / bh);
    const scale = Math.max(fit * zoom, MIN_TAP / cell);
    svg.setAttribute("width", (bw * scale).toFixed(0));
    svg.setAttribute("height", (bh * scale).toFixed(0));
    box.classList.toggle("pans", bw * scale > width + 1);
    return scale;
  }

  // The placeholder: its viewBox is the board's, its data-cell the cells' spacing.
  const box = document.getElementById("board");
  const kept = box && box.querySelector("svg[data-cell]");
  if (kept) {
    const [, , bw, bh] = kept.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    size(box, kept, bw, bh, Number(kept.dataset.cell), 1);
  }
  return { size };
})();
