// Mystic Vale's card faces as printed: a sleeved card (its frame and three thirds), the
// advancement printed in one third, and a market advancement. Vale cards are in vale.js.
//
// Sizes are in the pictures' own units; the table draws them at TABLE_SCALE. A symbol is
// 2 * SYMBOL_R high and a name NAME_SIZE: at the table's scale, 15.5 and 12.9 CSS px, the
// least that reads at a desk (the magnifier draws them larger).

import { html, svg } from "../../js/draw.js";
import { EDGE_SYMBOLS, POSITIONS, abilityText, advInfo, advName } from "./names.js";
import { SHAPES, symbol, textLines, timingBadge, wrap } from "./symbols.js";

// A drawing of `width` by `height` units, shown `scale` pixels a unit.
export function scaledSvg(cls, width, height, scale, children) {
  const size = { width: Math.round(width * scale), height: Math.round(height * scale) };
  return svg("svg", { class: cls, viewBox: `0 0 ${width} ${height}`, ...size }, children);
}

export const TABLE_SCALE = 0.86;
export const SYMBOL_R = 9;
export const NAME_SIZE = 15;
export const NAME_EM = 0.64; // a bold letter's width, as a share of NAME_SIZE
const FRAME = 6; // the card's dark frame band
const THIRD_W = 144;
const THIRD_H = 80;
const CARD_W = THIRD_W + 2 * FRAME;
const CARD_H = 3 * THIRD_H + 2 * FRAME;
const POSMARK_W = 14; // a market tile's mark of the third it fills, left of the frame
export const TILE_W = POSMARK_W + CARD_W;
export const TILE_H = THIRD_H + 2 * FRAME;
const EDGE_W = 24; // a column of symbols on the left edge
const RIGHT_W = 26; // the cost, grey VP and ability timing on the right

const FRAME_FILL = "#46553a";
const FRAME_LINE = "#2b3524";
const PAPER = "#f8f3e4";

// The art's colours (sky, hills, the hills' shade and the level stripes) by level, as the
// printed card's border colour tells its level at a glance.
const ART = {
  0: ["#f5ead0", "#dcc896", "#b39757"],
  1: ["#e6f1da", "#b3d59a", "#5f9a47"],
  2: ["#dde9f5", "#a6c5e4", "#4f7fb8"],
  3: ["#eee2f4", "#cdb0de", "#83579f"],
  cursed: ["#eadbe3", "#c4a0b5", "#7d4f69"],
};

function artOf(id, info) {
  if (id === "cursed_land") return ART.cursed;
  return ART[info.level] || ART[1];
}

// A landscape in two hills, the stand-in for an advancement's art.
export function hills(x, y, w, h, colours) {
  const [, light, dark] = colours;
  const bottom = y + h;
  const foot = `V${bottom - 3} Q${x + w} ${bottom} ${x + w - 3} ${bottom} H${x + 3} Q${x} ${bottom} ${x} ${bottom - 3} Z`;
  return [
    svg("path", {
      d: `M${x} ${y + h * 0.62} C${x + w * 0.3} ${y + h * 0.38} ${x + w * 0.55} ${y + h * 0.78} ${x + w} ${y + h * 0.5} ${foot}`,
      fill: light,
      opacity: 0.75,
    }),
    svg("path", {
      d: `M${x} ${y + h * 0.86} C${x + w * 0.35} ${y + h * 0.64} ${x + w * 0.7} ${y + h * 1.02} ${x + w} ${y + h * 0.76} ${foot}`,
      fill: dark,
      opacity: 0.35,
    }),
  ];
}

// The small tag that says a card's printed values are Meadow's stand-ins: in a corner of the
// art, clear of the symbols (the legend above the table says which values).
export function standinTag(x, y, ctx) {
  const text = ctx.t("standin");
  const width = text.length * 4.9 + 8;
  return svg("g", { class: "mv-standin-tag" }, [
    svg("rect", {
      x,
      y,
      width,
      height: 11,
      rx: 5.5,
      fill: "#fffaf0",
      "fill-opacity": 0.9,
      stroke: "#8b3a1f",
      "stroke-width": 0.6,
    }),
    svg("text", { x: x + 4, y: y + 8.2, "font-size": 8.5, class: "mv-standin", text }),
  ]);
}

// The level printed as stripes above and below the art: one stripe a level.
function stripes(level, x, y, w, h, colour) {
  const lines = [];
  for (let i = 0; i < level; i++) {
    for (const at of [y + 1 + i * 1.6, y + h - 1 - i * 1.6]) {
      lines.push(
        svg("path", { d: `M${x + 3} ${at} H${x + w - 3}`, stroke: colour, "stroke-width": 0.9 }),
      );
    }
  }
  return lines;
}

// A printed advancement filling one third at (x, y): its art, the symbols in a column on the
// left edge, the name, on the right its cost (in the market), grey VP and ability timing.
// `band`: null if it has no vertical ability band, else whether that band is the one showing.
function advancement(id, x, y, ctx, { band = null, cost = false } = {}) {
  const info = advInfo(id, ctx);
  const colours = artOf(id, info);
  const artY = y + 5;
  const artH = THIRD_H - 10;
  const parts = [
    svg("rect", {
      x: x + 0.5,
      y: artY,
      width: THIRD_W - 1,
      height: artH,
      rx: 3,
      fill: colours[0],
      stroke: colours[2],
      "stroke-width": 0.6,
    }),
    ...hills(x + 0.5, artY, THIRD_W - 1, artH, colours),
    ...stripes(info.level, x, y, THIRD_W, THIRD_H, colours[2]),
  ];
  let left = x;
  if (band !== null) {
    parts.push(verticalBand(x, y, band, ctx));
    left += 11;
  }
  const shown = EDGE_SYMBOLS.flatMap((s) => Array(info.symbols[s] || 0).fill(s)).slice(0, 8);
  const columns = shown.length > 4 ? 2 : 1;
  const rows = Math.ceil(shown.length / columns);
  if (shown.length) {
    parts.push(
      svg("rect", {
        x: left + 1,
        y: y + 1,
        width: EDGE_W * columns - 2,
        height: THIRD_H - 2,
        rx: 4,
        fill: "#ffffff",
        "fill-opacity": 0.7,
        stroke: colours[2],
        "stroke-opacity": 0.4,
        "stroke-width": 0.6,
      }),
    );
  }
  const step = Math.min(19, (THIRD_H - 4) / Math.max(rows, 1));
  shown.forEach((s, i) => {
    const column = Math.floor(i / rows);
    const row = i % rows;
    const cy = y + THIRD_H / 2 + (row - (rows - 1) / 2) * step;
    parts.push(symbol(s, left + EDGE_W / 2 + column * EDGE_W, cy, SYMBOL_R, ctx));
  });
  const right = x + THIRD_W - RIGHT_W / 2;
  let top = y + 18;
  if (cost) {
    parts.push(costMark(info.cost, info.level, right, y + 16, ctx));
    top = y + 47;
  }
  if (info.symbols.end_vp) {
    parts.push(symbol("end_vp", right, top, SYMBOL_R + 0.5, ctx));
    parts.push(
      svg("text", {
        x: right,
        y: top + 4.5,
        "font-size": 10,
        class: "mv-on-star",
        text: info.symbols.end_vp,
      }),
    );
  }
  if (info.ability)
    parts.push(timingBadge(info.timing, right, y + THIRD_H - 13, ctx, info.ability, SYMBOL_R));
  const nameX = left + (shown.length ? EDGE_W * columns + 5 : 7);
  const busyRight = cost || info.symbols.end_vp || info.ability;
  const room = x + THIRD_W - (busyRight ? RIGHT_W + 2 : 6) - nameX;
  const lines = wrap(advName(id, ctx), Math.max(4, Math.floor(room / (NAME_SIZE * NAME_EM))), 3);
  parts.push(...textLines(lines, nameX, y + 21, NAME_SIZE, room, { class: "mv-name" }, NAME_EM));
  if (info.standin && !id.startsWith("standin_"))
    parts.push(standinTag(nameX, y + THIRD_H - 18, ctx));
  return svg("g", { class: "mv-adv" }, [svg("title", { text: advTitle(id, ctx) }), ...parts]);
}

// A vertical ability band along the left edge: amber while it is the one showing (and
// working), grey when another band covers it.
function verticalBand(x, y, showing, ctx) {
  const fill = showing ? "#d98e04" : "#9e9e9e";
  const ticks = [0, 1, 2, 3, 4].map((i) =>
    svg("path", {
      d: `M${x + 5.5} ${y + 14 + i * 12} v7`,
      stroke: "#fff",
      "stroke-width": 1.6,
      "stroke-linecap": "round",
      opacity: 0.8,
    }),
  );
  return svg("g", { class: "mv-vband", opacity: showing ? 1 : 0.6 }, [
    svg("title", { text: ctx.t(showing ? "band.showing" : "band.covered") }),
    svg("rect", { x: x + 1, y: y + 2, width: 9, height: THIRD_H - 4, rx: 3, fill }),
    ...ticks,
  ]);
}

export function advTitle(id, ctx) {
  const info = advInfo(id, ctx);
  const parts = [advName(id, ctx)];
  if (info.level) parts.push(ctx.t("level_n", { n: info.level }));
  if (info.ability) parts.push(abilityText(info.ability, ctx));
  if (info.standin) parts.push(ctx.t("standin_values"));
  return parts.filter(Boolean).join(" · ");
}

// A third with nothing sleeved in it: the blank card shows through.
function emptyThird(x, y) {
  return svg("rect", {
    x: x + 3,
    y: y + 5,
    width: THIRD_W - 6,
    height: THIRD_H - 10,
    rx: 4,
    fill: "none",
    stroke: "#d6ccb4",
    "stroke-dasharray": "4 3",
    "stroke-width": 0.9,
  });
}

// Where two thirds meet: a notch in the frame band on either side, a fine line across.
function divider(y) {
  return svg("g", {}, [
    svg("path", {
      d: `M${FRAME + 4} ${y} H${CARD_W - FRAME - 4}`,
      stroke: "#c9bd9f",
      "stroke-width": 0.8,
    }),
    svg("path", { d: `M0.8 ${y - 4} L${FRAME} ${y} L0.8 ${y + 4} Z`, fill: "#a9b98c" }),
    svg("path", {
      d: `M${CARD_W - 0.8} ${y - 4} L${CARD_W - FRAME} ${y} L${CARD_W - 0.8} ${y + 4} Z`,
      fill: "#a9b98c",
    }),
  ]);
}

// One sleeved card. Own cards carry keys: the whole card, or (when a choice names a position)
// each of its three positions, never both, so that no click lands on a key not in play.
export function card(entry, owner, ctx, opts = {}) {
  const { slotKeys = false, keyed = false, scale = TABLE_SCALE, note = null } = opts;
  const parts = [
    svg("rect", {
      x: 0.7,
      y: 0.7,
      width: CARD_W - 1.4,
      height: CARD_H - 1.4,
      rx: 9,
      class: "mv-sleeve",
      fill: FRAME_FILL,
      stroke: FRAME_LINE,
      "stroke-width": 1.4,
    }),
    svg("rect", { x: FRAME, y: FRAME, width: THIRD_W, height: 3 * THIRD_H, rx: 4, fill: PAPER }),
  ];
  POSITIONS.forEach((position, i) => {
    const y = FRAME + i * THIRD_H;
    const id = entry.slots[i];
    const band = id && advInfo(id, ctx).vertical ? entry.band === position : null;
    const drawn = id ? advancement(id, FRAME, y, ctx, { band }) : emptyThird(FRAME, y);
    if (slotKeys && keyed) {
      parts.push(
        svg("g", { class: "mv-slot", "data-key": `slot:${entry.card}:${position}` }, [
          drawn,
          svg("rect", {
            x: FRAME,
            y,
            width: THIRD_W,
            height: THIRD_H,
            rx: 4,
            class: "mv-slot-mark",
            fill: "none",
          }),
        ]),
      );
    } else parts.push(drawn);
  });
  parts.push(divider(FRAME + THIRD_H), divider(FRAME + 2 * THIRD_H));
  const picture = scaledSvg("mv-card-svg", CARD_W, CARD_H, scale, parts);
  return html(
    "div",
    {
      class: "mv-card",
      "data-key": keyed && !slotKeys ? `card:${entry.card}` : null,
      "data-spot": `c:${owner}:${entry.card}`,
      "data-magnify": `card:${owner}:${entry.card}`,
      "aria-label": cardTitle(entry, ctx),
    },
    [
      picture,
      html("div", {
        class: "mv-card-number",
        text: note ? `${entry.card} · ${note}` : String(entry.card),
      }),
    ],
  );
}

// A sleeved card's name for a screen reader: its number and its advancements top to bottom.
function cardTitle(entry, ctx) {
  const names = entry.slots.filter(Boolean).map((id) => advName(id, ctx));
  return [ctx.t("magnify.card", { n: entry.card }), ...names].join(" · ");
}

// Which third of a card a market advancement fills: three boxes, that one dark.
function positionMark(position, x, y) {
  return svg(
    "g",
    { class: "mv-posmark" },
    POSITIONS.map((p, i) =>
      svg("rect", {
        x,
        y: y + i * 11,
        width: 10,
        height: 9,
        rx: 1.5,
        fill: p === position ? "#3b3b3b" : "#ffffff",
        stroke: "#3b3b3b",
        "stroke-width": 0.8,
      }),
    ),
  );
}

// The cost in a mana gem, the level as dots under it, as printed on the advancement.
function costMark(cost, level, x, y, ctx) {
  const gem = SHAPES.mana(x, y, 10.5);
  const parts = [
    svg("g", { class: "mv-cost-mark" }, [
      svg("title", { text: ctx.t("cost_n", { n: cost }) }),
      ...gem,
    ]),
    svg("text", { x, y: y + 4, "font-size": 11, class: "mv-cost", text: cost }),
  ];
  for (let i = 0; i < level; i++) {
    parts.push(
      svg("circle", { cx: x - (level - 1) * 3 + i * 6, cy: y + 15, r: 2.2, fill: "#3b3b3b" }),
    );
  }
  return svg("g", {}, parts);
}

// A market advancement: the printed third of a card in its frame, with its cost and level,
// and which third it fills.
export function marketTile(copy, ctx, extra, scale = TABLE_SCALE) {
  const [id, position] = copy.split("@");
  const info = advInfo(id, ctx);
  const parts = [
    svg("rect", {
      x: 0.5,
      y: 0.5,
      width: TILE_W - 1,
      height: TILE_H - 1,
      rx: 7,
      class: "mv-tile-bg",
    }),
    positionMark(position, 2, TILE_H / 2 - 15),
    svg("rect", {
      x: POSMARK_W + 0.7,
      y: 0.7,
      width: CARD_W - 1.4,
      height: TILE_H - 1.4,
      rx: 8,
      fill: FRAME_FILL,
      stroke: FRAME_LINE,
      "stroke-width": 1.2,
    }),
    svg("rect", {
      x: POSMARK_W + FRAME,
      y: FRAME,
      width: THIRD_W,
      height: THIRD_H,
      rx: 4,
      fill: PAPER,
    }),
    advancement(id, POSMARK_W + FRAME, FRAME, ctx, {
      band: info.vertical ? true : null,
      cost: true,
    }),
  ];
  if (extra) parts.push(extra);
  return scaledSvg("mv-tile-svg", TILE_W, TILE_H, scale, parts);
}

// What marks a market advancement for the enlarged view (magnify.js), with its name for a
// screen reader.
export function advLook(copy, ctx) {
  return { "data-magnify": `adv:${copy}`, "aria-label": advTitle(copy.split("@")[0], ctx) };
}
