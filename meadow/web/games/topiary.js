// Topiary's table: the 5 x 5 garden of sculpture tiles, the 56 spots for visitors around it,
// the hands and the final scoring. What may be clicked comes only from ctx.choices (see
// README.md); this module draws and names things, it never decides what is legal.

import { html, seatColour, seatSymbol, svg } from "../js/draw.js";

const SIZE = 5;
const CELL = 100; // one garden cell in SVG units
const INSET = 4; // gravel between tiles
const DIAG_OUT = 28; // how far outside the garden the diagonal visitors stand
const ORTH_OUT = 68; // the straight-looking ones stand further out, so the two rings never touch
const MARGIN = 96;

const SHAPES = ["t_rex", "swan", "whale", "elephant", "spiral", "pyramid", "icosahedron", "cone"];
const STANDIN_SHAPES = new Set(["cone"]); // its printed name is unconfirmed (data/tiles.json)

const STEP = {
  N: [-1, 0], S: [1, 0], E: [0, 1], W: [0, -1], NE: [-1, 1], NW: [-1, -1], SE: [1, 1], SW: [1, -1],
};
const LOOK_FROM_SIDE = { N: "S", S: "N", W: "E", E: "W" };
const ANGLE = { E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: -135, N: -90, NE: -45 };

// Each shape's lawn colour: the silhouettes already tell shapes apart, the tint makes a set
// easy to spot across the garden.
const TINT = {
  t_rex: "#f4d9c2",
  swan: "#d5e5f6",
  whale: "#c6e4e4",
  elephant: "#e3daf0",
  spiral: "#f4eec0",
  pyramid: "#f3d2d8",
  icosahedron: "#dcebc9",
  cone: "#e9e0cf",
};
const HEDGE = "#2f6d31";
const HEDGE_DARK = "#1c4a1f";
const HEDGE_LIGHT = "#5a9e4e";

// -- geometry of the 56 visitor spots ---------------------------------------------------------

const inside = (r, c) => r >= 0 && r < SIZE && c >= 0 && c < SIZE;
const cellId = (r, c) => `r${r}c${c}`;
const centre = (r, c) => [c * CELL + CELL / 2, r * CELL + CELL / 2];

// A spot from its id: where the visitor stands, which way it looks, the cells it sees.
function spot(id) {
  let look, r, c, out;
  const straight = /^O-([NSWE])(\d)$/.exec(id);
  const diagonal = /^D-r(\d)c(\d)-(NE|NW|SE|SW)$/.exec(id);
  if (straight) {
    const side = straight[1];
    const i = Number(straight[2]);
    look = LOOK_FROM_SIDE[side];
    [r, c] = { N: [0, i], S: [SIZE - 1, i], W: [i, 0], E: [i, SIZE - 1] }[side];
    out = ORTH_OUT;
  } else if (diagonal) {
    [r, c, look] = [Number(diagonal[1]), Number(diagonal[2]), diagonal[3]];
    out = DIAG_OUT;
  } else {
    return null;
  }
  const [dr, dc] = STEP[look];
  const cells = [];
  for (let rr = r, cc = c; inside(rr, cc); rr += dr, cc += dc) cells.push(cellId(rr, cc));
  const back = CELL / 2 + out; // from the first cell's centre back along the line
  const [x, y] = centre(r, c);
  return { id, look, cells, entry: [r, c], x: x - dc * back, y: y - dr * back, diagonal: Boolean(diagonal) };
}

// Every spot: a straight one per side and row or column, a diagonal one wherever a diagonal
// line enters the garden.
function allSpots() {
  const ids = [];
  for (const side of ["N", "S", "W", "E"]) for (let i = 0; i < SIZE; i++) ids.push(`O-${side}${i}`);
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      for (const look of ["SE", "SW", "NE", "NW"]) {
        const [dr, dc] = STEP[look];
        if (!inside(r - dr, c - dc)) ids.push(`D-r${r}c${c}-${look}`);
      }
    }
  }
  return ids.map(spot);
}

const SPOTS = allSpots();
const SPOT_BY_ID = Object.fromEntries(SPOTS.map((s) => [s.id, s]));

// -- names ----------------------------------------------------------------------------------

function splitTile(tile) {
  const cut = tile.lastIndexOf("_");
  return { shape: tile.slice(0, cut), value: Number(tile.slice(cut + 1)) };
}

function shapeName(shape, ctx) {
  const name = ctx.t(`shape.${shape}`);
  return STANDIN_SHAPES.has(shape) ? `${name} (${ctx.t("standin")})` : name;
}

function tileName(tile, ctx) {
  const { shape, value } = splitTile(tile);
  return ctx.t("tile", { shape: shapeName(shape, ctx), value });
}

function cellName(id, ctx) {
  const m = /^r(\d)c(\d)$/.exec(id);
  return m ? ctx.t("cell", { row: Number(m[1]) + 1, col: Number(m[2]) + 1 }) : id;
}

function spotName(id, ctx) {
  const s = SPOT_BY_ID[id];
  if (!s) return id;
  const [r, c] = s.entry;
  let where;
  if (s.diagonal) where = ctx.t("pos.D", { cell: cellName(cellId(r, c), ctx) });
  else {
    const side = id[2];
    where = ctx.t(`pos.${side}`, { n: (side === "N" || side === "S" ? c : r) + 1 });
  }
  return ctx.t("pos.look", { where, dir: ctx.t(`dir.${s.look}`) });
}

function playerName(seat, ctx) {
  return ctx.seatName(seat);
}

const colourblind = (ctx) => Boolean(ctx.settings && ctx.settings.colourblind);

// -- tiles ----------------------------------------------------------------------------------

// Silhouettes in a 100 x 100 box standing on y = 92; a tile's value scales its sculpture.
const SILHOUETTE = {
  t_rex: () => [
    hedge(
      "M8 62 C20 56 32 46 44 44 C52 38 60 32 64 26 L65 19 C70 12 84 12 93 17 L93 27 L80 29 " +
        "L87 33 L76 38 C72 44 70 50 67 54 L74 57 L72 61 L64 59 C62 64 60 68 58 70 L62 84 L69 91 " +
        "L53 91 L50 75 L45 77 L45 84 L51 91 L35 91 L35 72 C27 70 18 66 8 62 Z",
    ),
    dot(80, 20, 2.6),
  ],
  swan: () => [
    hedge(
      "M20 70 C20 84 40 91 60 91 C80 91 92 82 94 58 C86 63 78 62 70 60 C60 52 50 56 45 62 " +
        "C41 50 51 40 49 28 C47 15 34 11 27 18 L12 26 L28 27 C36 25 38 34 34 44 C30 54 22 60 20 70 Z",
    ),
    leaf("M52 70 C60 62 74 62 84 66 C74 70 62 74 52 70 Z"),
    dot(31, 19, 2.4),
  ],
  whale: () => [
    hedge(
      "M8 66 C8 48 30 40 50 42 C66 44 76 54 82 58 L89 43 L97 47 L91 62 L97 77 L88 79 L80 68 " +
        "C70 84 40 91 24 85 C14 81 8 74 8 66 Z",
    ),
    hedge("M31 41 L30 31 C27 25 21 24 18 28 C23 27 27 29 28 33 C29 26 36 21 42 25 C36 26 33 30 33 41 Z"),
    leaf("M14 70 C26 78 48 80 66 74 C50 84 26 84 14 70 Z"),
    dot(22, 58, 2.4),
  ],
  elephant: () => [
    hedge(
      "M20 40 C26 30 42 30 48 36 C60 30 84 32 90 44 C94 52 92 62 88 66 L90 91 L77 91 L75 73 " +
        "L64 73 L62 91 L50 91 L48 71 L41 72 L40 91 L28 91 L28 67 C24 65 22 67 21 71 C19 78 19 85 " +
        "23 91 L13 91 C7 83 7 67 11 57 C11 49 15 43 20 40 Z",
    ),
    leaf("M33 41 C45 37 51 52 43 63 C36 63 31 54 33 41 Z"),
    dot(24, 47, 2.4),
  ],
  spiral: () => [
    svg("path", { d: "M50 10 L50 90", stroke: "#6b4a2b", "stroke-width": 4, fill: "none" }),
    ...[0, 1, 2, 3].map((i) =>
      svg("path", {
        // one turn of the helix: a band rising from left to right, narrower each turn up
        d: spiralTurn(50, 84 - i * 19, 31 - i * 6.5),
        fill: i % 2 ? HEDGE_LIGHT : HEDGE,
        stroke: HEDGE_DARK,
        "stroke-width": 2,
        "stroke-linejoin": "round",
      }),
    ),
    hedge("M50 4 C55 9 55 14 50 17 C45 14 45 9 50 4 Z"),
  ],
  pyramid: () => [
    hedge("M50 8 L92 90 L8 90 Z"),
    svg("path", { d: "M50 8 L92 90 L60 90 Z", fill: HEDGE_DARK, stroke: "none" }),
  ],
  icosahedron: () => [
    hedge("M50 10 L85 30 L85 70 L50 90 L15 70 L15 30 Z"),
    svg("path", {
      d:
        "M50 30 L68 62 L32 62 Z M50 10 L50 30 L15 30 L32 62 L15 70 " +
        "M32 62 L50 90 L68 62 L85 70 M68 62 L85 30 L50 30",
      fill: "none",
      stroke: HEDGE_LIGHT,
      "stroke-width": 2.5,
      "stroke-linejoin": "round",
    }),
    svg("path", { d: "M50 30 L68 62 L32 62 Z", fill: HEDGE_LIGHT, stroke: "none", opacity: 0.55 }),
  ],
  cone: () => [
    hedge("M50 6 L80 82 Q50 96 20 82 Z"),
    svg("path", { d: "M50 6 L80 82 Q66 88 56 89 Z", fill: HEDGE_DARK, stroke: "none" }),
  ],
};

function spiralTurn(cx, cy, w) {
  const h = 7;
  return (
    `M${cx - w} ${cy + 2} C${cx - w} ${cy - h - 4} ${cx + w} ${cy - 2 * h - 2} ${cx + w} ${cy - 8} ` +
    `C${cx + w} ${cy + 4} ${cx - w} ${cy + h + 6} ${cx - w} ${cy + 2} Z`
  );
}

function hedge(d) {
  return svg("path", { d, fill: HEDGE, stroke: HEDGE_DARK, "stroke-width": 2, "stroke-linejoin": "round" });
}

function leaf(d) {
  return svg("path", { d, fill: HEDGE_LIGHT, stroke: "none" });
}

function dot(cx, cy, r) {
  return svg("circle", { cx, cy, r, fill: "#f6f3ea", stroke: "none" });
}

// A face-up tile in a size x size box at the origin.
function tileFace(tile, size, ctx) {
  const { shape, value } = splitTile(tile);
  const k = size / 100;
  const scale = 0.6 + 0.08 * value; // taller sculptures are worth more
  const draw = SILHOUETTE[shape] || (() => [hedge("M50 10 L90 90 L10 90 Z")]);
  const sculpture = `translate(${size / 2} ${92 * k}) scale(${k * scale}) translate(-50 -92)`;
  const parts = [
    frame(size, { fill: TINT[shape] || "#eee", stroke: "#8a7f62", "stroke-width": 1.5 }),
    svg("ellipse", { cx: size / 2, cy: 92 * k, rx: 30 * k * scale, ry: 4 * k, fill: "#0002" }),
    svg("g", { transform: sculpture }, draw()),
    svg("circle", { cx: 15 * k, cy: 15 * k, r: 12 * k, fill: "#fffdf7", stroke: "#5b523c" }),
    label(15 * k, 15 * k, 17 * k, String(value), { "font-weight": 700, "dominant-baseline": "central" }),
    svg("title", {}, [tileName(tile, ctx)]),
  ];
  if (STANDIN_SHAPES.has(shape)) {
    const note = { "font-style": "italic", "text-anchor": "end", fill: "#5b523c" };
    parts.push(label(size - 5 * k, 13 * k, 10 * k, ctx.t("standin"), note));
  }
  return svg("g", { class: `tile shape-${shape}` }, parts);
}

function frame(size, attrs) {
  return svg("rect", { class: "frame", width: size, height: size, rx: (8 * size) / 100, ...attrs });
}

function label(x, y, fontSize, text, attrs) {
  const base = { x, y, "font-size": fontSize, "text-anchor": "middle", fill: "#1f2a1f", stroke: "none" };
  return svg("text", { ...base, ...attrs }, [text]);
}

function tileBack(size, ctx) {
  return svg("g", { class: "tile back" }, [
    frame(size, { fill: "url(#topiary-hedge)", stroke: HEDGE_DARK, "stroke-width": 1.5 }),
    svg("title", {}, [ctx.t("label.face_down")]),
  ]);
}

function gapTile(size, ctx) {
  return svg("g", { class: "tile gap" }, [
    frame(size, { fill: "#b99a6b", stroke: "#6f5634", "stroke-width": 2, "stroke-dasharray": "8 5" }),
    svg("title", {}, [ctx.t("label.gap")]),
  ]);
}

// A tile on its own, for the hand, the panel and the scoring.
function tileIcon(tile, px, ctx, attrs = {}) {
  return svg("svg", { class: "tile-icon", viewBox: "0 0 100 100", width: px, height: px, ...attrs }, [
    tile ? tileFace(tile, 100, ctx) : tileBack(100, ctx),
  ]);
}

// What marks a face-up tile for the enlarged view (magnify.js), with its name for a screen reader.
function tileLook(tile, ctx) {
  return { "data-magnify": `tile:${tile}`, "aria-label": tileName(tile, ctx) };
}

function hedgeDefs() {
  const tile = { id: "topiary-hedge", width: 16, height: 16, patternUnits: "userSpaceOnUse" };
  const pattern = svg("pattern", tile, [
    svg("rect", { width: 16, height: 16, fill: "#3f7a3a" }),
    svg("circle", { cx: 4, cy: 4, r: 4, fill: "#4d8c43" }),
    svg("circle", { cx: 12, cy: 11, r: 4.5, fill: "#346a30" }),
    svg("circle", { cx: 13, cy: 2, r: 2.5, fill: "#5a9a4c" }),
    svg("circle", { cx: 3, cy: 13, r: 2.5, fill: "#2f6330" }),
  ]);
  return svg("defs", {}, [pattern]);
}

// -- visitors -------------------------------------------------------------------------------

// A visitor seen from above: a round head with a point showing where it looks.
function visitorShape(r, look) {
  const tip = r * 1.75;
  const a = Math.acos(r / tip);
  const x = (r * Math.cos(a)).toFixed(2);
  const y = (r * Math.sin(a)).toFixed(2);
  return svg("path", {
    class: "marker",
    d: `M${tip} 0 L${x} ${-y} A${r} ${r} 0 1 0 ${x} ${y} Z`,
    transform: `rotate(${ANGLE[look]})`,
  });
}

function visitorGlyph(seat, r, look, ctx) {
  const group = svg("g", { class: "visitor", "data-seat": seat }, [visitorShape(r, look)]);
  group.style.setProperty("--seat", seatColour(seat));
  if (colourblind(ctx)) {
    const text = { class: "symbol", "font-size": r * 1.15, "text-anchor": "middle", "dominant-baseline": "central" };
    group.append(svg("text", text, [seatSymbol(seat)]));
  }
  return group;
}

function spotMarker(s, seat, ctx, sight) {
  const r = s.diagonal ? 13 : 16;
  const taken = seat !== undefined;
  const key = `pos:${s.id}`;
  const group = svg("g", {
    class: `pos${taken ? " taken" : " free"}${s.id === ctx.view.current_position ? " current" : ""}`,
    "data-key": taken ? null : key,
    "data-spot": key,
    transform: `translate(${s.x.toFixed(1)} ${s.y.toFixed(1)})`,
  });
  group.append(svg("circle", { class: "hit", r: r + 5, fill: "transparent", stroke: "none" }));
  if (taken) group.append(visitorGlyph(seat, r, s.look, ctx));
  else group.append(visitorShape(r * 0.8, s.look));
  group.setAttribute("aria-label", spotTitle(s.id, seat, ctx));
  group.dataset.magnify = key;
  group.addEventListener("mouseenter", () => sight.show(s, seat));
  group.addEventListener("mouseleave", () => sight.show(null));
  return group;
}

function spotTitle(id, seat, ctx) {
  const taken = seat !== undefined;
  const who = taken ? ctx.t("label.visitor_of", { player: playerName(seat, ctx) }) : ctx.t("label.free");
  return `${who}: ${spotName(id, ctx)}`;
}

// The line a visitor looks along, drawn while the mouse is over it (and for this turn's visitor).
function sightLayer(cellNodes) {
  const layer = svg("g", { class: "sight", "pointer-events": "none" });
  const line = svg("polyline", { class: "sight-line", fill: "none" });
  layer.append(line);
  let lit = [];
  const show = (s, seat) => {
    for (const node of lit) node.classList.remove("in-sight");
    lit = [];
    layer.classList.toggle("shown", Boolean(s));
    if (!s) return;
    const points = [[s.x, s.y], ...s.cells.map((id) => centre(Number(id[1]), Number(id[3])))];
    line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
    line.style.setProperty("--seat", seat === undefined ? "var(--choose)" : seatColour(seat));
    for (const id of s.cells) {
      const node = cellNodes[id];
      if (node) node.classList.add("in-sight"), lit.push(node);
    }
  };
  return { layer, show };
}

// -- the garden -----------------------------------------------------------------------------

function gardenSvg(ctx) {
  const view = ctx.view;
  const span = SIZE * CELL;
  const outer = span + 2 * MARGIN;
  const root = svg("svg", {
    class: "garden",
    viewBox: `${-MARGIN} ${-MARGIN} ${outer} ${outer}`,
    role: "img",
    "aria-label": ctx.t("title"),
  });
  root.append(hedgeDefs());
  root.append(
    svg("rect", { x: 2 - MARGIN, y: 2 - MARGIN, width: outer - 4, height: outer - 4, rx: 28, class: "gravel" }),
    svg("rect", { x: -10, y: -10, width: span + 20, height: span + 20, rx: 12, class: "lawn" }),
  );
  const cells = {};
  const cellLayer = svg("g", { class: "cells" });
  view.garden.forEach((row, r) =>
    row.forEach((content, c) => {
      const id = cellId(r, c);
      const size = CELL - 2 * INSET;
      const node = svg("g", {
        class: `cell ${content === "face_down" ? "down" : content === "gap" ? "gap" : "up"}`,
        "data-key": content === "face_down" || content === "gap" ? `cell:${id}` : null,
        "data-spot": `cell:${id}`,
        transform: `translate(${c * CELL + INSET} ${r * CELL + INSET})`,
      });
      if (content === "face_down") node.append(tileBack(size, ctx));
      else if (content === "gap") node.append(gapTile(size, ctx));
      else {
        node.append(tileFace(content, size, ctx));
        for (const [name, value] of Object.entries(tileLook(content, ctx))) node.setAttribute(name, value);
      }
      cells[id] = node;
      cellLayer.append(node);
    }),
  );
  root.append(cellLayer);
  const sight = sightLayer(cells);
  root.append(sight.layer);
  root.append(currentLine(ctx));
  const shortOff = view.options && view.options.one_tile_diagonals === false;
  const markers = svg("g", { class: "spots" });
  for (const s of SPOTS) {
    const seat = view.visitors[s.id];
    if (seat === undefined && shortOff && s.cells.length === 1) continue; // never legal here
    markers.append(spotMarker(s, seat, ctx, sight));
  }
  root.append(markers);
  return root;
}

// This turn's visitor keeps its line drawn while its owner takes and places.
function currentLine(ctx) {
  const s = SPOT_BY_ID[ctx.view.current_position];
  const group = svg("g", { class: "current-sight", "pointer-events": "none" });
  if (!s) return group;
  const seat = ctx.view.visitors[s.id];
  const end = s.cells[s.cells.length - 1];
  const [x2, y2] = centre(Number(end[1]), Number(end[3]));
  const line = svg("line", { x1: s.x, y1: s.y, x2, y2, class: "sight-line" });
  line.style.setProperty("--seat", seatColour(seat ?? 0));
  group.append(line);
  return group;
}

// -- the panel beside the garden -----------------------------------------------------------

function prompt(ctx) {
  const view = ctx.view;
  if (view.phase === "over") return ctx.t("prompt.over");
  if (view.to_move === null || view.to_move === undefined) return "";
  if (ctx.seat !== view.to_move || !ctx.choices.length) {
    return ctx.t("prompt.wait", { player: playerName(view.to_move, ctx) });
  }
  if (view.phase === "take") {
    const skip = ctx.choices.some((c) => c.kind === "skip_take");
    return ctx.t(skip ? "prompt.take_optional" : "prompt.take");
  }
  return ctx.t(`prompt.${view.phase}`);
}

// One line of the panel per seat: who, visitors still to place, points so far, hand.
function seatRow(seat, ctx) {
  const view = ctx.view;
  const left = view.visitors_left[seat];
  const points = view.points[seat];
  const hand = view.hands ? view.hands[seat] : null;
  const classes = ["seat-row", view.to_move === seat ? "to-move" : "", seat === ctx.seat ? "mine" : ""];
  const pointsLabel = view.phase === "over" ? "label.points_end" : "label.points";
  const row = html("li", { class: classes.join(" ").trim(), "data-seat": seat, "data-spot": `seat:${seat}` }, [
    html("div", { class: "who" }, [
      svg("svg", { viewBox: "-12 -12 24 24", width: 20, height: 20 }, [visitorGlyph(seat, 9, "E", ctx)]),
      html("strong", {}, [playerName(seat, ctx)]),
      seat === ctx.seat ? html("span", { class: "you" }, [ctx.t("label.you")]) : null,
    ]),
    panelLine(ctx.t("label.visitors_left"), [meeples(seat, ctx), count(left, `left:${seat}`)]),
    panelLine(ctx.t(pointsLabel), [count(ctx.t("label.points_value", points))]),
    hand
      ? panelLine(ctx.t("label.hand"), hand.map((t) => tileIcon(t, 34, ctx, tileLook(t, ctx))))
      : panelLine(ctx.t("label.hand_size"), [count(view.hand_sizes[seat], `hand:${seat}`)]),
  ]);
  row.style.setProperty("--seat", seatColour(seat));
  return row;
}

function panelLine(what, parts) {
  return html("div", { class: "line" }, [html("span", { class: "what" }, [what]), ...parts]);
}

// `counted`: a number the page counts up or down when a shown move changes it (motion.js).
function count(value, counted = null) {
  return html("span", { class: "count", "data-count": counted }, [String(value)]);
}

// A seat's visitors in a row: those still to place, then the placed ones faded.
function meeples(seat, ctx) {
  const left = ctx.view.visitors_left[seat];
  const all = left + Object.values(ctx.view.visitors).filter((s) => s === seat).length;
  const icons = svg("svg", { class: "meeples", viewBox: `0 0 ${all * 20} 20`, width: all * 14, height: 14 });
  for (let i = 0; i < all; i++) {
    const at = `translate(${i * 20 + 10} 10)`;
    icons.append(svg("g", { transform: at, class: i < left ? null : "used" }, [visitorGlyph(seat, 8, "S", ctx)]));
  }
  return icons;
}

function handBox(ctx) {
  const view = ctx.view;
  if (!view.hand || view.hands) return null; // spectators have none; at the end all are shown
  const tiles = view.hand.map((tile) =>
    html("div", { class: "hand-tile", "data-key": `tile:${tile}`, "data-spot": `tile:${tile}`, ...tileLook(tile, ctx) }, [
      tileIcon(tile, 60, ctx),
    ]),
  );
  const parts = [html("h3", {}, [ctx.t("label.your_hand")]), html("div", { class: "hand" }, tiles)];
  if (view.passed && view.passed.length) {
    const passed = view.passed.map((t) => tileIcon(t, 40, ctx, tileLook(t, ctx)));
    parts.push(html("h3", {}, [ctx.t("label.passed")]), html("div", { class: "hand small" }, passed));
  }
  return html("section", { class: "hand-box" }, parts);
}

function removedBox(ctx) {
  const shape = ctx.view.removed_shape;
  if (!shape) return null;
  return html("p", { class: "removed" }, [
    tileIcon(`${shape}_5`, 30, ctx, { class: "tile-icon faded" }),
    ctx.t("label.removed", { shape: shapeName(shape, ctx) }),
  ]);
}

function panel(ctx) {
  const view = ctx.view;
  const seats = [];
  for (let seat = 0; seat < view.players; seat++) seats.push(seatRow(seat, ctx));
  return html("div", { class: "panel" }, [
    html("p", { class: "prompt" }, [prompt(ctx)]),
    handBox(ctx),
    html("ul", { class: "seat-rows" }, seats),
    removedBox(ctx),
  ]);
}

// -- enlarged (js/magnify.js) ---------------------------------------------------------------

// `tile:<tile>`: the tile at 200 px. `pos:<spot>`: the visitor (or the free spot) and the
// tiles along the line it looks, face-up or not, nearest first.
export function magnify(what, ctx) {
  const cut = what.indexOf(":");
  const [kind, rest] = [what.slice(0, cut), what.slice(cut + 1)];
  if (kind === "tile") {
    return html("div", { class: "topiary-magnified" }, [
      tileIcon(rest, 200, ctx),
      html("p", {}, [html("strong", {}, [tileName(rest, ctx)])]),
    ]);
  }
  const s = kind === "pos" ? SPOT_BY_ID[rest] : null;
  if (!s) return null;
  const seat = ctx.view.visitors[s.id];
  const figure = seat === undefined ? visitorShape(16, s.look) : visitorGlyph(seat, 16, s.look, ctx);
  const line = s.cells.map((id) => {
    const content = ctx.view.garden[Number(id[1])][Number(id[3])];
    if (content === "gap") return svg("svg", { viewBox: "0 0 100 100", width: 44, height: 44 }, [gapTile(100, ctx)]);
    return tileIcon(content === "face_down" ? null : content, 44, ctx);
  });
  const box = html("div", { class: "topiary-magnified" }, [
    svg("svg", { viewBox: "-30 -30 60 60", width: 96, height: 96 }, [figure]),
    html("p", {}, [html("strong", {}, [spotTitle(s.id, seat, ctx)])]),
    html("p", {}, [ctx.t("magnify.line")]),
    html("div", { class: "topiary-magnified-line" }, line),
  ]);
  if (seat !== undefined) box.style.setProperty("--seat", seatColour(seat));
  return box;
}

// -- the module's contract -----------------------------------------------------------------

export function render(root, ctx) {
  const box = html("div", { class: `topiary${colourblind(ctx) ? " colourblind" : ""}` }, [
    html("div", { class: "garden-box" }, [gardenSvg(ctx)]),
    panel(ctx),
  ]);
  root.append(box);
}

export function path(choice) {
  switch (choice.kind) {
    case "place_visitor":
      return [`pos:${choice.position}`];
    case "take_tile":
      return [`cell:${choice.cell}`];
    case "skip_take":
      return ["button:skip"];
    case "place_tile":
      return [`tile:${choice.tile}`, `cell:${choice.cell}`];
    case "keep_tiles":
      // The action lists its tiles in the hand's order, so they are clicked left to right.
      return choice.tiles.map((tile) => `tile:${tile}`);
    default:
      return [`button:${choice.kind}`];
  }
}

export function describe(event, ctx) {
  const tiles = (list) => list.map((t) => tileName(t, ctx)).join(", ");
  switch (event.kind) {
    case "visit":
      return ctx.t("event.visit", { where: spotName(event.position, ctx) });
    case "take":
      return event.tile
        ? ctx.t("event.take_seen", { cell: cellName(event.cell, ctx), tile: tileName(event.tile, ctx) })
        : ctx.t("event.take", { cell: cellName(event.cell, ctx) });
    case "skip":
      return ctx.t("event.skip");
    case "place":
      return ctx.t("event.place", { tile: tileName(event.tile, ctx), cell: cellName(event.cell, ctx) });
    case "keep": {
      let line =
        event.to === null || event.to === undefined
          ? ctx.t("event.keep_box", { n: event.passed })
          : ctx.t("event.keep", { n: event.passed, player: playerName(event.to, ctx) });
      const passed = event.passed_tiles;
      const received = event.received_tiles;
      if (passed) line += ` (${ctx.t("event.passed", { tiles: tiles(passed) })})`;
      if (received) line += ` (${ctx.t("event.received", { tiles: tiles(received) })})`;
      return line;
    }
    default:
      return event.kind;
  }
}

// What a move carries across the table, for the page to show it flying (motion.js): a tile
// from the hand (the seat's panel, when the hand is hidden) to its cell, a visitor from the
// seat's panel to its place on the border.
export function motion(event) {
  if (event.kind === "place") return [{ from: [`tile:${event.tile}`, `seat:${event.seat}`], to: `cell:${event.cell}` }];
  if (event.kind === "visit") return [{ from: `seat:${event.seat}`, to: `pos:${event.position}` }];
  return [];
}

export function spots(event) {
  if (event.kind === "visit") return [`pos:${event.position}`];
  if (event.kind === "take" || event.kind === "place") return [`cell:${event.cell}`];
  return [];
}

// The final scoring as players would count it at the table: per seat, each visitor with
// the tiles it sees, its points and bonus, then the hand tiles.
export function scoring(ctx) {
  const rows = ctx.view && ctx.view.scoring;
  if (!rows) return null;
  const order = ctx.result && ctx.result.ranking ? ctx.result.ranking.flat() : rows.map((_, i) => i);
  return html("div", { class: "topiary-scoring" }, [
    html("h3", {}, [ctx.t("scoring.title")]),
    ...order.map((seat) => seatScoring(seat, rows[seat], ctx)),
    html("p", { class: "hint" }, [ctx.t("scoring.hand_rule")]),
  ]);
}

function seatScoring(seat, data, ctx) {
  const head = html("tr", {}, [
    html("th", {}, [ctx.t("scoring.visitor")]),
    html("th", {}, [ctx.t("scoring.seen")]),
    html("th", { class: "num" }, [ctx.t("scoring.points")]),
    html("th", { class: "num" }, [ctx.t("scoring.bonus")]),
  ]);
  const lines = data.lines.map((line) => visitorRow(seat, line, ctx));
  const chips = data.hand.map((h) =>
    html("span", { class: `chip ${h.points ? "scored" : "unscored"}`, title: tileName(h.tile, ctx) }, [
      tileIcon(h.tile, 24, ctx),
      html("b", {}, [String(h.points)]),
    ]),
  );
  const handRow = html("tr", { class: "hand-row" }, [
    html("td", {}, [ctx.t("scoring.hand")]),
    html("td", {}, [html("span", { class: "seen" }, chips)]),
    html("td", { class: "num" }, [String(data.hand.reduce((sum, h) => sum + h.points, 0))]),
    html("td", { class: "num" }, [""]),
  ]);
  const score = ctx.result && ctx.result.scores ? ctx.result.scores[seat] : null;
  const title = html("h4", {}, [
    html("span", { class: "mark" }, [seatSymbol(seat)]),
    ` ${playerName(seat, ctx)}`,
    score === null ? "" : ` · ${ctx.t("scoring.total", { points: score })}`,
  ]);
  const table = html("table", { class: "grid" }, [head, ...lines, handRow]);
  const section = html("section", { class: "seat-scoring" }, [title, table]);
  section.style.setProperty("--seat", seatColour(seat));
  return section;
}

// A visitor in the scoring: its pin pointing the way it looks and the cell its line starts at.
function visitorRow(seat, line, ctx) {
  const s = SPOT_BY_ID[line.position];
  const chips = line.seen.map((cell) => {
    const tile = tileAt(cell, ctx);
    if (!tile) return null;
    const value = html("b", {}, [String(splitTile(tile).value)]);
    return html("span", { class: "chip", title: tileName(tile, ctx) }, [tileIcon(tile, 24, ctx), value]);
  });
  const box = { viewBox: "-17 -17 34 34", width: 24, height: 24, class: "pin" };
  const pin = s ? svg("svg", box, [visitorGlyph(seat, 9.5, s.look, ctx)]) : null;
  const start = s ? s.cells[0] : "";
  const row = html("tr", { "data-position": line.position, title: spotName(line.position, ctx) }, [
    html("td", { class: "where" }, [pin, start ? cellShort(start, ctx) : line.position]),
    html("td", {}, [html("span", { class: "seen" }, chips.length ? chips : [ctx.t("scoring.nothing")])]),
    html("td", { class: "num" }, [String(line.base)]),
    html("td", { class: "num" }, [line.bonus ? `+${line.bonus}` : "0"]),
  ]);
  // Pointing at a line of the scoring shows that visitor and what it sees in the garden.
  const light = (on) => {
    const board = document.querySelector(".topiary .garden");
    if (!board) return;
    for (const key of [`pos:${line.position}`, ...line.seen.map((c) => `cell:${c}`)]) {
      const nodes = board.querySelectorAll(`[data-spot="${key}"]`);
      for (const node of nodes) node.classList.toggle("spotlight", on);
    }
  };
  row.addEventListener("mouseenter", () => light(true));
  row.addEventListener("mouseleave", () => light(false));
  return row;
}

function cellShort(id, ctx) {
  return ctx.t("cell.short", { row: Number(id[1]) + 1, col: Number(id[3]) + 1 });
}

function tileAt(cell, ctx) {
  const m = /^r(\d)c(\d)$/.exec(cell);
  const content = m ? ctx.view.garden[Number(m[1])][Number(m[2])] : null;
  return content && content !== "face_down" && content !== "gap" ? content : null;
}
