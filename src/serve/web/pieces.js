// Chimera's piece drawings: SVG silhouettes for the six orthodox men, a lettered disc for
// every other man (spy, cannon, archbishop, ...). Drawn in a 45x45 box, coloured by owner.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// Fill and outline per owner: White/South, Black/North, Peacekeeper.
const OWNER_COLOURS = [
  { fill: "#fbfbf4", line: "#1b1b1b" },
  { fill: "#262626", line: "#e8e8e8" },
  { fill: "#2f7fd8", line: "#0d2a4d" },
];

const BASE = '<rect x="10" y="35" width="25" height="5.5" rx="1.5"/>';

// Each orthodox man as SVG shapes; `detail` strokes are drawn in the outline colour.
const SHAPES = {
  pawn:
    BASE +
    '<path d="M15 36 C15 28 18 24 22.5 22 C27 24 30 28 30 36 Z"/>' +
    '<circle cx="22.5" cy="15" r="6.5"/>',
  rook:
    BASE +
    '<rect x="14" y="18" width="17" height="18"/>' +
    '<path d="M11 9 h5 v4 h4 v-4 h5 v4 h4 v-4 h5 v10 h-23 Z"/>',
  bishop:
    BASE +
    '<path d="M15.5 36 C13 29 16 22 22.5 13 C29 22 32 29 29.5 36 Z"/>' +
    '<circle cx="22.5" cy="9.5" r="3.2"/>' +
    '<path class="detail" d="M25.5 19 L20 26" fill="none"/>',
  knight:
    BASE +
    '<path d="M14 36 C13 29 17 25 20.5 21.5 C16 22 12.5 23.5 10 20.5 C11 15 16 10 22 8.5 L24 5 L26.5 8.5 C33 10.5 35.5 19 33.5 36 Z"/>' +
    '<circle class="detail-dot" cx="20.5" cy="13" r="1.3"/>',
  queen:
    BASE +
    '<path d="M12.5 36 L9.5 15 L16 26 L18.5 11.5 L22.5 25 L26.5 11.5 L29 26 L35.5 15 L32.5 36 Z"/>' +
    '<circle cx="9.5" cy="13.5" r="2.4"/><circle cx="18.5" cy="10" r="2.4"/>' +
    '<circle cx="26.5" cy="10" r="2.4"/><circle cx="35.5" cy="13.5" r="2.4"/>',
  king:
    BASE +
    '<path d="M13 36 C10.5 28 14 21.5 22.5 21.5 C31 21.5 34.5 28 32 36 Z"/>' +
    '<rect x="21" y="5" width="3" height="15"/><rect x="16.5" y="9.5" width="12" height="3"/>',
};

/// An SVG <g> drawing `man` ({letter, kind, owner}) in a 45x45 box at (x, y) scaled to `size`.
function drawMan(man, x, y, size) {
  const colour = OWNER_COLOURS[man.owner] || OWNER_COLOURS[0];
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("transform", `translate(${x} ${y}) scale(${size / 45})`);
  g.setAttribute("fill", colour.fill);
  g.setAttribute("stroke", colour.line);
  g.setAttribute("stroke-width", "1.4");
  g.setAttribute("stroke-linejoin", "round");
  g.classList.add("man");
  const shape = SHAPES[man.kind];
  if (shape) {
    g.innerHTML = shape;
    for (const d of g.querySelectorAll(".detail")) d.setAttribute("stroke-width", "1.8");
    for (const d of g.querySelectorAll(".detail-dot")) d.setAttribute("fill", colour.line);
  } else {
    g.innerHTML =
      '<circle cx="22.5" cy="22.5" r="16"/>' +
      `<text x="22.5" y="29.5" text-anchor="middle" font-size="20" font-weight="700" ` +
      `font-family="sans-serif" stroke="none" fill="${colour.line}">${man.letter}</text>`;
  }
  return g;
}
