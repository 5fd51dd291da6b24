// Mystic Vale's card faces: printed advancements, sleeved cards, market tiles and vales.

import { html, svg } from "../../js/draw.js";
import {
  EDGE_SYMBOLS,
  POSITIONS,
  SPIRITS,
  abilityText,
  advInfo,
  advName,
  valeInfo,
  valeName,
} from "./names.js";
import { SHAPES, symbol, textLines, timingBadge, wrap } from "./symbols.js";

const BAND_W = 94;
export const TILE_W = 122;
const VALE_W = 104;
const BAND_H = 46;
const CARD_W = 100;
const CARD_H = 150;

const BAND_FILL = { 0: "#efe6c8", 1: "#dcebd0", 2: "#d5e3f0", 3: "#eadcf0" };

function bandFill(id, info) {
  if (id === "cursed_land") return "#d8c3cf";
  return BAND_FILL[info.level] || BAND_FILL[1];
}

// One printed advancement: symbols on its left edge, name, grey VP and the ability's timing.
// `band`: null if it has no vertical band, else whether that band is the one showing.
function advancement(id, x, y, ctx, band) {
  const info = advInfo(id, ctx);
  const parts = [
    svg("rect", {
      x,
      y,
      width: BAND_W,
      height: BAND_H,
      rx: 3,
      fill: bandFill(id, info),
      stroke: "#6f6552",
      "stroke-width": 0.7,
    }),
  ];
  if (band !== null) parts.push(verticalBand(x, y, band, ctx));
  const left = x + (band === null ? 0 : 5);
  const shown = EDGE_SYMBOLS.flatMap((s) => Array(info.symbols[s] || 0).fill(s));
  shown.slice(0, 8).forEach((s, i) => {
    parts.push(symbol(s, left + 7.5 + (i % 2) * 12, y + 8 + Math.floor(i / 2) * 11, 5.2, ctx));
  });
  const nameX = left + (shown.length > 1 ? 30 : shown.length ? 17 : 5);
  const room = x + BAND_W - nameX - (info.symbols.end_vp || info.ability ? 14 : 3);
  const lines = wrap(advName(id, ctx), Math.floor(room / 5.4), 3);
  parts.push(...textLines(lines, nameX, y + 13, 9, room, { class: "mv-name" }));
  if (info.symbols.end_vp) {
    parts.push(symbol("end_vp", x + BAND_W - 8, y + 9, 5.5, ctx));
    parts.push(
      svg("text", {
        x: x + BAND_W - 8,
        y: y + 11.5,
        "font-size": 7,
        class: "mv-on-star",
        text: info.symbols.end_vp,
      }),
    );
  }
  if (info.ability)
    parts.push(timingBadge(info.timing, x + BAND_W - 8, y + BAND_H - 9, ctx, info.ability));
  if (info.standin && !id.startsWith("standin_")) {
    parts.push(
      svg("text", {
        x: nameX,
        y: y + BAND_H - 3.5,
        "font-size": 6.5,
        class: "mv-standin",
        text: ctx.t("standin"),
      }),
    );
  }
  return svg("g", { class: "mv-adv" }, [svg("title", { text: advTitle(id, ctx) }), ...parts]);
}

function verticalBand(x, y, showing, ctx) {
  return svg(
    "rect",
    {
      x: x + 0.5,
      y: y + 0.5,
      width: 4,
      height: BAND_H - 1,
      fill: showing ? "#d98e04" : "#9e9e9e",
      opacity: showing ? 1 : 0.6,
      class: "mv-vband",
    },
    [svg("title", { text: ctx.t(showing ? "band.showing" : "band.covered") })],
  );
}

export function advTitle(id, ctx) {
  const info = advInfo(id, ctx);
  const parts = [advName(id, ctx)];
  if (info.level) parts.push(ctx.t("level_n", { n: info.level }));
  if (info.ability) parts.push(abilityText(info.ability, ctx));
  if (info.standin) parts.push(ctx.t("standin_values"));
  return parts.filter(Boolean).join(" · ");
}

function emptySlot(x, y) {
  return svg("rect", {
    x,
    y,
    width: BAND_W,
    height: BAND_H,
    rx: 3,
    fill: "#ffffff",
    "fill-opacity": 0.35,
    stroke: "#b9ae96",
    "stroke-dasharray": "3 2",
    "stroke-width": 0.8,
  });
}

// One sleeved card. Own cards carry keys: the whole card, or (when a choice names a position)
// each of its three positions, never both, so that no click lands on a key not in play.
export function card(entry, owner, ctx, opts = {}) {
  const { slotKeys = false, keyed = false, scale = 1, note = null } = opts;
  const frame = svg("rect", {
    x: 1,
    y: 1,
    width: CARD_W - 2,
    height: CARD_H - 2,
    rx: 6,
    class: "mv-sleeve",
    fill: "#f8f4ea",
    stroke: "#8c7f66",
    "stroke-width": 1.4,
  });
  const parts = [frame];
  POSITIONS.forEach((position, i) => {
    const y = 4 + i * 48;
    const id = entry.slots[i];
    const band = id && advInfo(id, ctx).vertical ? entry.band === position : null;
    const drawn = id ? advancement(id, 3, y, ctx, band) : emptySlot(3, y);
    if (slotKeys && keyed) {
      parts.push(
        svg("g", { class: "mv-slot", "data-key": `slot:${entry.card}:${position}` }, [
          drawn,
          svg("rect", {
            x: 3,
            y,
            width: BAND_W,
            height: BAND_H,
            rx: 3,
            class: "mv-slot-mark",
            fill: "none",
          }),
        ]),
      );
    } else parts.push(drawn);
  });
  const picture = svg(
    "svg",
    {
      class: "mv-card-svg",
      viewBox: `0 0 ${CARD_W} ${CARD_H}`,
      width: Math.round(CARD_W * scale),
      height: Math.round(CARD_H * scale),
    },
    parts,
  );
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

function positionMark(position, x, y) {
  return svg(
    "g",
    { class: "mv-posmark" },
    POSITIONS.map((p, i) =>
      svg("rect", {
        x,
        y: y + i * 6,
        width: 7,
        height: 5,
        rx: 1,
        fill: p === position ? "#3b3b3b" : "#ffffff",
        stroke: "#3b3b3b",
        "stroke-width": 0.6,
      }),
    ),
  );
}

function costMark(cost, level, x, y, ctx) {
  const parts = [
    svg("g", {}, [svg("title", { text: ctx.t("cost_n", { n: cost }) }), ...SHAPES.mana(x, y, 8)]),
    svg("text", { x, y: y + 3, "font-size": 9, class: "mv-cost", text: cost }),
  ];
  for (let i = 0; i < level; i++) {
    parts.push(
      svg("circle", { cx: x - (level - 1) * 2.5 + i * 5, cy: y + 13, r: 1.8, fill: "#3b3b3b" }),
    );
  }
  return svg("g", {}, parts);
}

// A market advancement: the printed third of a card, its position, cost and level.
export function marketTile(copy, ctx, extra, scale = 1) {
  const [id, position] = copy.split("@");
  const info = advInfo(id, ctx);
  const parts = [
    svg("rect", { x: 0.5, y: 0.5, width: TILE_W - 1, height: 53, rx: 5, class: "mv-tile-bg" }),
    positionMark(position, 2, 18),
    advancement(id, 11, 4, ctx, info.vertical ? true : null),
    costMark(info.cost, info.level, TILE_W - 9, 17, ctx),
  ];
  if (extra) parts.push(extra);
  return svg(
    "svg",
    {
      class: "mv-tile-svg",
      viewBox: `0 0 ${TILE_W} 54`,
      width: TILE_W * scale,
      height: 54 * scale,
    },
    parts,
  );
}

// A vale card: name, spirit cost, grey VP, growth and its ability.
export function valeCard(id, ctx, opts = {}) {
  const info = valeInfo(id, ctx);
  const parts = [
    svg("rect", {
      x: 0.5,
      y: 0.5,
      width: VALE_W - 1,
      height: 63,
      rx: 6,
      fill: info.level === 2 ? "#c7d0ee" : "#cfe8e0",
      stroke: info.level === 2 ? "#3d4f8f" : "#2f7565",
      "stroke-width": 1.2,
    }),
    svg("rect", {
      x: 4,
      y: 4,
      width: VALE_W - 8,
      height: 3,
      rx: 1.5,
      fill: info.level === 2 ? "#3d4f8f" : "#2f7565",
    }),
  ];
  parts.push(
    ...textLines(wrap(valeName(id, ctx), 15, 2), 5, 17, 9, VALE_W - 24, { class: "mv-name" }),
  );
  const cost = SPIRITS.flatMap((s) => Array(info.cost[s] || 0).fill(s));
  cost.forEach((s, i) => parts.push(symbol(s, 10 + i * 12, 52, 5, ctx)));
  for (let i = 0; i < (info.growth || 0); i++)
    parts.push(symbol("growth", 14 + (cost.length + i) * 12, 52, 5, ctx));
  const right = VALE_W - 10;
  if (info.end_vp) {
    parts.push(symbol("end_vp", right, 17, 7, ctx));
    parts.push(
      svg("text", { x: right, y: 20, "font-size": 8, class: "mv-on-star", text: info.end_vp }),
    );
  }
  if (info.ability) parts.push(timingBadge(info.timing, right, 52, ctx, info.ability));
  if (info.standin && !id.startsWith("standin_")) {
    parts.push(
      svg("text", { x: 5, y: 41, "font-size": 6.5, class: "mv-standin", text: ctx.t("standin") }),
    );
  }
  for (let i = 0; i < (info.level || 1); i++)
    parts.push(svg("circle", { cx: right - i * 5, cy: 33, r: 1.8, fill: "#3b3b3b" }));
  if (opts.isNew) {
    parts.push(
      svg("rect", { x: 2, y: 2, width: VALE_W - 4, height: 60, rx: 5, class: "mv-vale-new" }),
    );
    parts.push(
      svg("text", {
        x: VALE_W / 2,
        y: 37,
        "font-size": 8,
        class: "mv-new-label",
        text: ctx.t("vale_new"),
      }),
    );
  }
  const scale = opts.scale || 1;
  return svg(
    "svg",
    {
      class: "mv-vale-svg",
      viewBox: `0 0 ${VALE_W} 64`,
      width: VALE_W * scale,
      height: 64 * scale,
    },
    [svg("title", { text: valeTitle(id, ctx) }), ...parts],
  );
}

// What marks a market advancement or a vale card for the enlarged view (magnify.js), with its
// name for a screen reader.
export function advLook(copy, ctx) {
  return { "data-magnify": `adv:${copy}`, "aria-label": advTitle(copy.split("@")[0], ctx) };
}

export function valeLook(id, ctx) {
  return { "data-magnify": `vale:${id}`, "aria-label": valeTitle(id, ctx) };
}

export function valeTitle(id, ctx) {
  const info = valeInfo(id, ctx);
  const title = [
    valeName(id, ctx),
    ctx.t("level_n", { n: info.level }),
    abilityText(info.ability, ctx),
    info.standin ? ctx.t("standin_values") : "",
  ];
  return title.filter(Boolean).join(" · ");
}
