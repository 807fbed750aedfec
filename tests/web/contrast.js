// Evaluated in the page by tests/web/test_sturdy.py and benchmarks/web_page.py: the WCAG 2
// contrast ratio of every visible HTML element's own text (its computed colour against the
// first opaque background behind it), disabled controls left out as WCAG allows.
() => {
  const parse = (value) => {
    const m = /rgba?\(([^)]+)\)/.exec(value || "");
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const over = (top, under) =>
    [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let bg = [255, 255, 255, 1]; // the canvas behind a page with no background of its own
    for (const layer of layers.reverse()) bg = over(layer, bg);
    return bg;
  };
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el instanceof SVGElement || el.closest("svg")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || el.closest("[disabled], [hidden]")) continue;
    const bg = background(el);
    const fg = over(parse(style.color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    let name = el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className ? "." + el.className : "");
    if (el.getAttribute("aria-current") === "step") name += "[current]";
    found.push([name, Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100, style.color, style.backgroundColor]);
  }
  return found;
}
