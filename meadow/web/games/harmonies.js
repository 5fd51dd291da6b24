// Harmonies' table: the central board, the animal cards on display, and every player's hex
// board with its token stacks, cubes and cards. Legal moves come only from ctx.choices.

import { html, pattern, seatColour, seatSymbol, svg } from "../js/draw.js";

const SQRT3 = Math.sqrt(3);

// Token colours as printed; `pattern` is the colour-blind fill drawn over each disc.
const TOKEN = {
  blue: { fill: "#3f7fc8", side: "#2a5a94", pattern: 3 },
  gray: { fill: "#a3a6aa", side: "#6d7176", pattern: 1 },
  brown: { fill: "#8d5a32", side: "#5f3b1e", pattern: 4 },
  green: { fill: "#5aa646", side: "#3b7430", pattern: 2 },
  yellow: { fill: "#efc53f", side: "#b8931d", pattern: 0 },
  red: { fill: "#cc4a3c", side: "#8f2c23", pattern: 7 },
  // A card's Building stands on any of gray, brown or red: drawn as a plain base.
  base: { fill: "#e6dccb", side: "#b7aa93", pattern: null },
};
const COLOURS = ["blue", "gray", "brown", "green", "yellow", "red"];

// How a card's habitat landscape looks as a stack, bottom to top.
const LANDSCAPE_STACK = {
  water: ["blue"],
  field: ["yellow"],
  tree1: ["green"],
  tree2: ["brown", "green"],
  tree3: ["brown", "brown", "green"],
  mountain1: ["gray"],
  mountain2: ["gray", "gray"],
  mountain3: ["gray", "gray", "gray"],
  building: ["base", "red"],
};

const CATEGORIES = ["trees", "mountains", "fields", "buildings", "water", "animals", "spirit"];
const CATEGORY_ICON = {
  trees: ["brown", "green"],
  mountains: ["gray", "gray"],
  fields: ["yellow"],
  buildings: ["gray", "red"],
  water: ["blue"],
};

// -- small drawing pieces ------------------------------------------------------------------

// A token's proportions: its top face's height and its thickness, as parts of its width.
const DISC_RY = 0.42;
const DISC_H = 0.36;

// One token seen from the side: a coloured cylinder, `rx` wide, its top face centred at (x, y).
function disc(colour, x, y, rx, cb) {
  const look = TOKEN[colour] || TOKEN.base;
  const ry = rx * DISC_RY;
  const side = `M${x - rx} ${y} v${rx * DISC_H} a${rx} ${ry} 0 0 0 ${2 * rx} 0 v${-rx * DISC_H} Z`;
  const edge = { stroke: "#2b2118", "stroke-width": Math.max(0.6, rx / 14) };
  const g = svg("g", { class: "hm-disc", "pointer-events": "none" }, [
    svg("path", { d: side, fill: look.side, ...edge }),
    svg("ellipse", { cx: x, cy: y, rx, ry, fill: look.fill, ...edge }),
  ]);
  if (cb && look.pattern !== null) {
    const fill = pattern(look.pattern);
    g.append(
      svg("path", { d: side, fill, stroke: "none" }),
      svg("ellipse", { cx: x, cy: y, rx, ry, fill, stroke: "none" }),
    );
  }
  return g;
}

// A pile of tokens, bottom first, centred on (x, y); returns the group and its top's y.
function pile(tokens, x, y, rx, cb) {
  const h = rx * DISC_H;
  const base = y + ((tokens.length - 2) * h) / 2;
  const g = svg("g", { class: "hm-stack", "pointer-events": "none" });
  tokens.forEach((colour, k) => g.append(disc(colour, x, base - k * h, rx, cb)));
  g.lastChild.setAttribute("data-piece", "top"); // the token placed last, for motion.js
  return { node: g, top: base - (tokens.length - 1) * h };
}

// An animal cube (or the Nature's Spirit cube) drawn in three faces, centred at (x, y).
function cube(x, y, s, spirit) {
  const faces = spirit ? ["#cfb0f0", "#9f76d2", "#7d55b1"] : ["#fdf9f0", "#dcd2bf", "#bfb299"];
  const w = s * 0.87;
  const edge = { stroke: "#30261d", "stroke-width": Math.max(0.6, s / 8), "stroke-linejoin": "round" };
  const poly = (points, fill) => svg("polygon", { points: points.join(" "), fill, ...edge });
  const look = spirit ? "hm-cube hm-spirit-cube" : "hm-cube";
  return svg("g", { class: look, "pointer-events": "none", "data-piece": "cube" }, [
    poly([`${x},${y - s}`, `${x + w},${y - s / 2}`, `${x},${y}`, `${x - w},${y - s / 2}`], faces[0]),
    poly([`${x - w},${y - s / 2}`, `${x},${y}`, `${x},${y + s}`, `${x - w},${y + s / 2}`], faces[1]),
    poly([`${x + w},${y - s / 2}`, `${x},${y}`, `${x},${y + s}`, `${x + w},${y + s / 2}`], faces[2]),
  ]);
}

function hexPoints(x, y, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    points.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

function icon(tokens, size, cb, extra) {
  const node = svg("svg", { class: "hm-icon", width: size, height: size, viewBox: "0 0 20 20" });
  if (tokens) node.append(pile(tokens, 10, 11, 7, cb).node);
  if (extra) node.append(extra);
  return node;
}

function colourName(colour, ctx) {
  return ctx.t(`colour.${colour}`);
}

function cardName(slug, ctx) {
  return ctx.t(`card.${slug}`);
}

function landscapeName(landscape, ctx) {
  return ctx.t(`landscape.${landscape}`);
}

function playerName(seat, ctx) {
  return ctx.seatName(seat);
}

function seated(ctx) {
  return ctx.seat !== null && ctx.seat !== undefined;
}

// -- the central board, the tokens in hand, the supply ---------------------------------------

function centralBoard(view, ctx, cb) {
  const spaces = view.central;
  const step = 74;
  const r = 32;
  const width = spaces.length * step + 12;
  const height = 2 * r + 24;
  const root = svg("svg", {
    class: "hm-central",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": ctx.t("central"),
  });
  root.append(
    svg("rect", { x: 2, y: 2, width: width - 4, height: height - 4, rx: 22, class: "hm-central-bg" }),
  );
  spaces.forEach((tokens, i) => {
    const x = 6 + step * (i + 0.5);
    root.append(centralSpace(tokens, i + 1, x, height / 2, r, view, ctx, cb));
  });
  return root;
}

function centralSpace(tokens, number, x, y, r, view, ctx, cb) {
  const taken = tokens.length === 0;
  const title = taken
    ? ctx.t(view.taken_space === number ? "central.taken" : "central.empty", { n: number })
    : ctx.t("central.space", { n: number, tokens: tokens.map((c) => colourName(c, ctx)).join(", ") });
  const g = svg("g", {
    class: `hm-space${taken ? " hm-space-empty" : ""}`,
    "data-spot": `central:${number}`,
    "data-key": seated(ctx) ? `central:${number}` : null,
  }, [svg("title", { text: title }), svg("circle", { cx: x, cy: y, r, class: "hm-space-ring" })]);
  // Three tokens lying in a triangle, the back one drawn first.
  const spots = [[0, -10], [-12, 8], [12, 8]];
  tokens.forEach((colour, k) => g.append(disc(colour, x + spots[k][0], y + spots[k][1] - 3, 11, cb)));
  g.append(svg("text", { x: x - r + 4, y: y - r + 10, class: "hm-space-number", text: String(number) }));
  return g;
}

// The tokens taken this turn and not yet placed. Several colours to place: the player picks
// one here first, then a space (see `path`).
function handTray(view, ctx, cb) {
  if (!view.hand || view.hand.length === 0) return null;
  const keyed = placeableColours(ctx).size > 1;
  const size = 40;
  const tray = svg("svg", {
    class: "hm-hand",
    viewBox: `0 0 ${view.hand.length * size + 8} ${size + 4}`,
    width: view.hand.length * size + 8,
    height: size + 4,
  });
  view.hand.forEach((colour, k) => {
    const x = 4 + size * (k + 0.5);
    tray.append(
      svg("g", { class: "hm-hand-token", "data-key": keyed ? `hand:${colour}` : null }, [
        svg("title", { text: colourName(colour, ctx) }),
        svg("rect", { x: x - size / 2 + 2, y: 2, width: size - 4, height: size, rx: 8 }),
        disc(colour, x, size / 2 - 3, 14, cb),
      ]),
    );
  });
  const mover = view.to_move === null ? null : playerName(view.to_move, ctx);
  return html("div", { class: "hm-hand-box", "data-spot": "hand" }, [
    html("div", { class: "hm-caption", text: ctx.t("hand", { player: mover }) }),
    tray,
  ]);
}

function countRow(counts, ctx, cb) {
  return html(
    "div",
    { class: "hm-counts" },
    COLOURS.map((colour) =>
      html("span", { class: "hm-count", title: colourName(colour, ctx) }, [
        icon([colour], 20, cb),
        String(counts[colour] ?? 0),
      ]),
    ),
  );
}

function supply(view, ctx, cb) {
  const box = html("div", { class: "hm-supply" }, [
    html("div", { class: "hm-caption", text: ctx.t("pouch") }),
    countRow(view.pouch, ctx, cb),
  ]);
  if (view.solo || Object.values(view.discarded || {}).some((n) => n > 0)) {
    box.append(
      html("div", { class: "hm-caption", text: ctx.t("discarded") }),
      countRow(view.discarded, ctx, cb),
    );
  }
  box.append(
    html("div", { class: "hm-line" }, [
      icon(null, 20, cb, cube(10, 9, 7, false)),
      ctx.t("reserve", { n: view.cube_reserve }),
    ]),
  );
  if (view.end_triggered && !view.result) {
    box.append(html("div", { class: "hm-last-round", text: ctx.t("last_round") }));
  }
  return box;
}

// -- cards -------------------------------------------------------------------------------------

function habitatSvg(info, ctx, cb) {
  const r = 17;
  const cells = info.pattern.map(([q, rr, landscape, isCube]) => ({
    x: 1.5 * r * q,
    y: SQRT3 * r * (rr + q / 2),
    landscape,
    isCube,
  }));
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const minX = Math.min(...xs) - r - 2;
  const minY = Math.min(...ys) - (SQRT3 / 2) * r - 2;
  const width = Math.max(...xs) - minX + r + 2;
  const height = Math.max(...ys) - minY + (SQRT3 / 2) * r + 2;
  const node = svg("svg", {
    class: "hm-habitat",
    viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
    width: width.toFixed(0),
    height: height.toFixed(0),
  });
  for (const c of cells) {
    const drawn = pile(LANDSCAPE_STACK[c.landscape] || [], c.x, c.y + 1, r * 0.55, cb);
    node.append(
      svg("g", {}, [
        svg("title", { text: landscapeName(c.landscape, ctx) }),
        svg("polygon", {
          points: hexPoints(c.x, c.y, r - 1),
          class: c.isCube ? "hm-hex hm-hex-cube" : "hm-hex",
        }),
        drawn.node,
        c.isCube ? cube(c.x, drawn.top - 3, 5, info.spirit) : null,
      ]),
    );
  }
  return node;
}

// The card's points track: a slot per cube; a held card keeps cubes on the slots not yet
// placed, and the last slot uncovered is what the card scores now.
function track(info, placed) {
  const slots = info.spirit ? [null] : info.points;
  return html(
    "div",
    { class: "hm-track" },
    slots.map((points, k) => {
      const label = points === null ? "★" : String(points);
      return html("span", { class: `hm-slot${slotState(k, placed)}` }, [label]);
    }),
  );
}

function slotState(k, placed) {
  if (placed === null) return "";
  if (k >= placed) return " hm-covered";
  return k === placed - 1 ? " hm-now" : " hm-past";
}

function cardStripe(info) {
  const landscape = (info.pattern.find((c) => c[3]) || [0, 0, "field"])[2];
  return landscape.replace(/[0-9]/g, "");
}

function cardTip(slug, info, placed, ctx) {
  const name = cardName(slug, ctx);
  const text = info.spirit
    ? `${name}: ${ctx.t(`rule.${slug}`)}`
    : ctx.t("card.tip", { name, points: info.points.join(" / ") });
  return placed === null ? text : `${text} (${ctx.t("card.placed", { placed, cubes: info.cubes })})`;
}

// One animal or spirit card. `placed` is null for a card nobody holds yet.
function card(slug, ctx, cb, { key = null, placed = null, rule = false } = {}) {
  const info = (ctx.view.card_info || {})[slug];
  const name = cardName(slug, ctx);
  const classes = ["hm-card"];
  if (info) classes.push(`hm-stripe-${cardStripe(info)}`);
  if (info && info.spirit) classes.push("hm-spirit");
  const node = html("div", { class: classes.join(" "), "data-key": key, "data-spot": `card:${slug}` }, [
    html("div", { class: "hm-card-name", text: name }),
  ]);
  if (!info) return node;
  node.setAttribute("aria-label", cardTip(slug, info, placed, ctx));
  node.dataset.magnify = placed === null ? `card:${slug}` : `card:${slug}:${placed}`;
  node.append(html("div", { class: "hm-card-art" }, [habitatSvg(info, ctx, cb)]));
  // A spirit's rule is spelt out while it is being chosen; afterwards it is the card's tooltip.
  if (rule) node.append(html("div", { class: "hm-rule", text: ctx.t(`rule.${slug}`) }));
  node.append(track(info, placed));
  return node;
}

// A card enlarged (js/magnify.js): `card:<slug>` or `card:<slug>:<cubes placed>`, drawn by
// `card` at twice the size, with its points or rule, its habitat in words and where its cube
// goes.
export function magnify(what, ctx) {
  const [, slug, placed] = what.split(":");
  const info = (ctx.view.card_info || {})[slug];
  if (!info) return null;
  const cb = Boolean(ctx.settings && ctx.settings.colourblind);
  const held = placed === undefined ? null : Number(placed);
  const cubeOn = info.pattern.find((c) => c[3]);
  const landscapes = [...new Set(info.pattern.map((c) => landscapeName(c[2], ctx)))];
  return html("div", { class: "hm-table hm-magnified" }, [
    card(slug, ctx, cb, { placed: held }),
    html("div", { class: "hm-magnified-text" }, [
      html("strong", { text: cardTip(slug, info, held, ctx) }),
      html("p", { text: ctx.t("magnify.habitat", { landscapes: landscapes.join(" · ") }) }),
      cubeOn
        ? html("p", { text: ctx.t("magnify.cube_on", { landscape: landscapeName(cubeOn[2], ctx) }) })
        : null,
    ]),
  ]);
}

function display(view, ctx, cb) {
  const keyed = seated(ctx);
  const row = html(
    "div",
    { class: "hm-display-cards" },
    view.display.map((slug) => card(slug, ctx, cb, { key: keyed ? `card:${slug}` : null })),
  );
  return html("div", { class: "hm-display" }, [
    html("div", { class: "hm-caption" }, [
      ctx.t("display"),
      html("span", { class: "hm-deck", text: ctx.t("deck", { n: view.deck_size }) }),
    ]),
    row,
  ]);
}

// -- a personal board --------------------------------------------------------------------------

function parseCell(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1)) - 1 };
}

function boardSvg(view, owner, ctx, cb, R) {
  const board = view.boards[owner];
  const own = owner === ctx.seat;
  const pad = 5;
  const cells = Object.keys(board.stacks).map((name) => {
    const { col, row } = parseCell(name);
    // Flat-topped hexes in columns; odd columns sit half a space lower ("odd-q").
    return { name, x: pad + R + 1.5 * R * col, y: pad + (SQRT3 / 2) * R * (1 + 2 * row + (col & 1)) };
  });
  const width = Math.max(...cells.map((c) => c.x)) + R + pad;
  const height = Math.max(...cells.map((c) => c.y)) + (SQRT3 / 2) * R + pad;
  const node = svg("svg", {
    class: "hm-board-svg",
    viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`,
    width: width.toFixed(0),
    height: height.toFixed(0),
    role: "img",
    "aria-label": ctx.t("board.of", { player: playerName(owner, ctx) }),
  });
  const frame = { x: 1, y: 1, width: width - 2, height: height - 2, rx: R * 0.5 };
  node.append(svg("rect", { ...frame, class: "hm-board-bg" }));
  for (const c of cells) node.append(boardCell(c, board, owner, own, ctx, cb, R));
  return node;
}

function boardCell(c, board, owner, own, ctx, cb, R) {
  const tokens = board.stacks[c.name];
  const cubeOf = board.cubes[c.name];
  const g = svg("g", {
    class: `hm-cell${tokens.length ? "" : " hm-cell-empty"}`,
    "data-spot": `cell:${owner}:${c.name}`,
    "data-key": own ? `cell:${c.name}` : null,
  });
  g.append(
    svg("title", { text: cellTitle(c.name, tokens, cubeOf, ctx) }),
    svg("polygon", { points: hexPoints(c.x, c.y, R - 1.5), class: "hm-hex" }),
    svg("text", { x: c.x, y: c.y + R * 0.74, class: "hm-cell-name", text: c.name }),
  );
  if (tokens.length) {
    const drawn = pile(tokens, c.x, c.y - R * 0.08, R * 0.56, cb);
    g.append(drawn.node);
    if (cubeOf) g.append(cube(c.x, drawn.top - R * 0.1, R * 0.3, isSpirit(cubeOf, ctx)));
  }
  return g;
}

function isSpirit(slug, ctx) {
  const info = (ctx.view.card_info || {})[slug];
  return Boolean(info && info.spirit);
}

function cellTitle(name, tokens, cubeOf, ctx) {
  const parts = [name];
  parts.push(tokens.length ? tokens.map((c) => colourName(c, ctx)).join(" / ") : ctx.t("cell.empty"));
  if (cubeOf) parts.push(ctx.t("cell.cube", { card: cardName(cubeOf, ctx) }));
  return parts.join(" · ");
}

function scoreRow(points, ctx, cb) {
  const spirits = ctx.view.options && ctx.view.options.spirits;
  const shown = spirits ? CATEGORIES : CATEGORIES.filter((k) => k !== "spirit");
  return html(
    "div",
    { class: "hm-score" },
    shown.map((category) => {
      const cubed = category === "animals" || category === "spirit";
      const extra = cubed ? cube(10, 9, 7, category === "spirit") : null;
      return html("span", { class: "hm-score-part", title: ctx.t(`score.${category}`) }, [
        icon(CATEGORY_ICON[category] || null, 18, cb, extra),
        String(points[category] ?? 0),
      ]);
    }),
  );
}

function heldCards(board, owner, ctx, cb) {
  const own = owner === ctx.seat;
  const row = html("div", { class: "hm-held" });
  for (const entry of board.cards) {
    const key = own ? `held:${entry.card}` : null;
    row.append(card(entry.card, ctx, cb, { key, placed: entry.placed }));
  }
  if (board.cards.length === 0) row.append(html("div", { class: "hm-none", text: ctx.t("held.none") }));
  return row;
}

// Completed cards leave play: a chip each, with what it scores.
function completedCards(board, ctx) {
  if (!board.completed.length) return null;
  const info = ctx.view.card_info || {};
  return html("div", { class: "hm-completed" }, [
    html("div", { class: "hm-caption", text: ctx.t("completed") }),
    ...board.completed.map((e) => {
      const card = info[e.card];
      const points = card && !card.spirit ? card.points[e.placed - 1] : null;
      const stripe = card ? ` hm-stripe-${cardStripe(card)}` : "";
      return html("span", { class: `hm-chip${stripe}`, "data-spot": `card:${e.card}` }, [
        cardName(e.card, ctx),
        points === null ? "" : html("b", { text: String(points) }),
      ]);
    }),
  ]);
}

function spiritOffer(board, owner, ctx, cb) {
  if (!board.spirit_offer || board.spirit) return null;
  const own = owner === ctx.seat;
  return html("div", { class: "hm-offer" }, [
    html("div", { class: "hm-caption", text: ctx.t("spirit.choose") }),
    html(
      "div",
      { class: "hm-held" },
      board.spirit_offer.map((slug) =>
        card(slug, ctx, cb, { key: own ? `spirit:${slug}` : null, rule: true }),
      ),
    ),
  ]);
}

function panelHeader(view, owner, ctx) {
  const total = CATEGORIES.reduce((sum, k) => sum + (view.points[owner][k] || 0), 0);
  const colour = seatColour(owner);
  const mark = html("span", { class: "hm-seat-mark", style: `background:${colour}` }, [
    ctx.settings && ctx.settings.colourblind ? seatSymbol(owner) : "",
  ]);
  const header = html("div", { class: "hm-panel-head" }, [
    mark,
    html("span", { class: "hm-player", text: playerName(owner, ctx) }),
  ]);
  if (view.to_move === owner) {
    header.append(html("span", { class: "hm-to-move", text: ctx.t("to_move") }));
  }
  const empty = ctx.t("empty_spaces", { n: view.boards[owner].empty_spaces });
  header.append(
    html("span", { class: "hm-empty-count", text: empty }),
    html("span", { class: "hm-total", text: ctx.t("points", { n: total }) }),
  );
  return header;
}

function panel(view, owner, ctx, cb) {
  const board = view.boards[owner];
  const R = view.players === 1 ? 34 : view.players > 2 ? 26 : 28;
  const node = html("section", {
    class: `hm-panel${view.to_move === owner ? " hm-moving" : ""}`,
    style: `--seat:${seatColour(owner)}`,
  });
  node.append(
    panelHeader(view, owner, ctx),
    html("div", { class: "hm-panel-body" }, [
      html("div", { class: "hm-board-wrap" }, [
        boardSvg(view, owner, ctx, cb, R),
        scoreRow(view.points[owner], ctx, cb),
      ]),
      html("div", { class: "hm-cards-col" }, [
        spiritOffer(board, owner, ctx, cb),
        html("div", { class: "hm-caption", text: ctx.t("held") }),
        heldCards(board, owner, ctx, cb),
        completedCards(board, ctx),
      ]),
    ]),
  );
  return node;
}

// -- the module's contract ---------------------------------------------------------------------

export function render(root, ctx) {
  const view = ctx.view;
  const cb = Boolean(ctx.settings && ctx.settings.colourblind);
  root.classList.add("hm-table");
  // Placing the tokens taken: on a phone the hand and the player's own board come first.
  if (seated(ctx) && view.to_move === ctx.seat && view.hand && view.hand.length) {
    root.classList.add("hm-placing");
  }
  const top = html("div", { class: "hm-top" }, [
    html("div", { class: "hm-central-box" }, [
      html("div", { class: "hm-caption", text: ctx.t("central") }),
      centralBoard(view, ctx, cb),
      html("div", { class: "hm-under-central" }, [handTray(view, ctx, cb), supply(view, ctx, cb)]),
    ]),
    display(view, ctx, cb),
  ]);
  // The viewer's own board first, then the others in seat order.
  const order = [...Array(view.players).keys()];
  if (seated(ctx)) order.sort((a, b) => (b === ctx.seat) - (a === ctx.seat));
  const boards = html(
    "div",
    { class: `hm-boards hm-players-${view.players}` },
    order.map((owner) => panel(view, owner, ctx, cb)),
  );
  root.append(top, boards);
}

// Colours the mover may place now: with one only, a click on a space places it.
function placeableColours(ctx) {
  return new Set((ctx.choices || []).filter((c) => c.kind === "place_token").map((c) => c.colour));
}

export function path(choice, ctx) {
  switch (choice.kind) {
    case "take_tokens":
      return [`central:${choice.space}`];
    case "place_token":
      return placeableColours(ctx).size > 1
        ? [`hand:${choice.colour}`, `cell:${choice.cell}`]
        : [`cell:${choice.cell}`];
    case "take_card":
      return [`card:${choice.card}`];
    case "place_cube":
      return [`held:${choice.card}`, `cell:${choice.cell}`];
    case "choose_spirit":
      return [`spirit:${choice.spirit}`];
    case "end_turn":
      return ["button:end"];
    case "swap_card":
      return ["button:swap", `card:${choice.card}`];
    default:
      return [`button:${choice.kind}`];
  }
}

function tokenList(tokens, ctx) {
  return tokens.length ? tokens.map((c) => colourName(c, ctx)).join(", ") : ctx.t("nothing");
}

// The log names the mover beside each line, so a line says only what happened.
export function describe(event, ctx) {
  const card = event.card ? cardName(event.card, ctx) : "";
  switch (event.kind) {
    case "take_tokens":
      return ctx.t("event.take_tokens", { space: event.space, tokens: tokenList(event.tokens, ctx) });
    case "place_token":
      return ctx.t("event.place_token", { colour: colourName(event.colour, ctx), cell: event.cell });
    case "take_card":
      return ctx.t("event.take_card", { card });
    case "place_cube":
      return ctx.t(event.completed ? "event.place_cube.completed" : "event.place_cube", {
        card,
        cell: event.cell,
      });
    case "choose_spirit":
      return event.returned
        ? ctx.t("event.choose_spirit.returned", {
            spirit: cardName(event.spirit, ctx),
            returned: cardName(event.returned, ctx),
          })
        : ctx.t("event.choose_spirit", { spirit: cardName(event.spirit, ctx) });
    case "swap_card":
      return ctx.t("event.swap_card", { card });
    case "refill":
      return event.tokens.length
        ? ctx.t("event.refill", { space: event.space, tokens: tokenList(event.tokens, ctx) })
        : ctx.t("event.refill.empty", { space: event.space });
    case "reveal_card":
      return ctx.t("event.reveal_card", { card });
    default:
      return event.kind;
  }
}

// What a move carries across the table, for the page to show it flying (motion.js): tokens
// from the central board to the hand and from the hand to a space, a card from the river to
// the player, a cube from its card to the board.
export function motion(event) {
  const cell = `cell:${event.seat}:${event.cell}`;
  switch (event.kind) {
    case "take_tokens":
      return [{ from: `central:${event.space}`, to: "hand" }];
    case "place_token":
      return [{ from: "hand", to: cell, piece: "top" }];
    case "take_card":
      return [{ from: `card:${event.card}`, to: `card:${event.card}` }];
    case "place_cube":
      return [{ from: `card:${event.card}`, to: cell, piece: "cube" }];
    default:
      return [];
  }
}

export function spots(event) {
  switch (event.kind) {
    case "take_tokens":
    case "refill":
      return [`central:${event.space}`];
    case "place_token":
      return [`cell:${event.seat}:${event.cell}`];
    case "place_cube":
      return [`cell:${event.seat}:${event.cell}`, `card:${event.card}`];
    case "take_card":
    case "reveal_card":
    case "swap_card":
      return [`card:${event.card}`];
    case "choose_spirit":
      return [`card:${event.spirit}`];
    default:
      return [];
  }
}

// The page shows each category's points; this says how they came about: the rules of the
// landscapes, each player's animal cards and spirit, and the solo game's suns.
export function scoring(ctx) {
  const result = ctx.result || (ctx.view && ctx.view.result);
  if (!result || !ctx.view) return null;
  const view = ctx.view;
  const box = html("div", { class: "hm-scoring" });
  if (result.extra && result.extra.suns !== undefined) {
    const n = result.extra.suns;
    box.append(html("p", { class: "hm-suns", text: ctx.t("suns", { n, suns: "☀".repeat(n) }) }));
  }
  const rules = ["trees", "mountains", "fields", "buildings", `water.${view.side}`];
  box.append(
    html("div", { class: "hm-caption", text: ctx.t("explain.title") }),
    html("ul", { class: "hm-rules" }, rules.map((k) => html("li", { text: ctx.t(`explain.${k}`) }))),
  );
  const scored = view.boards.map((board, seat) => cardScores(board, result.breakdown[seat], ctx));
  if (scored.some(Boolean)) {
    const rows = scored.map((text, seat) =>
      html("tr", {}, [
        html("th", { style: `color:${seatColour(seat)}` }, [
          `${seatSymbol(seat)} ${playerName(seat, ctx)}`,
        ]),
        html("td", { text: text || "–" }),
      ]),
    );
    box.append(
      html("div", { class: "hm-caption", text: ctx.t("explain.cards") }),
      html("table", {}, [html("tbody", {}, rows)]),
    );
  }
  return box;
}

// Each card with cubes on the board and what its track shows now.
function cardScores(board, breakdown, ctx) {
  const info = ctx.view.card_info || {};
  return [...board.completed, ...board.cards]
    .filter((e) => e.placed > 0 && info[e.card])
    .map((e) => {
      const card = info[e.card];
      const points = card.spirit ? breakdown.spirit : card.points[e.placed - 1];
      return `${cardName(e.card, ctx)} ${points}`;
    })
    .join(" · ");
}
