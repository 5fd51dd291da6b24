// A vale card as printed: a landscape card of its own (not sleeved), framed in its level's
// colour, with its name, grey VP and level at the top, the spirit symbols it costs (and the
// growth it gives) along the bottom, and its ability's timing.

import { svg } from "../../js/draw.js";
import {
  NAME_EM,
  NAME_SIZE,
  SYMBOL_R,
  TABLE_SCALE,
  hills,
  scaledSvg,
  standinTag,
} from "./cards.js";
import {
  SPIRITS,
  abilityText,
  standinWords,
  valeInfo,
  valeName,
  valeNameLanguage,
} from "./names.js";
import { symbol, textLines, timingBadge, wrap } from "./symbols.js";

const VALE_W = 136;
const VALE_H = 100;
const BORDER = 5;

// Frame, paper and hills by level.
const LOOK = {
  1: { frame: "#2f7565", line: "#1c4a40", art: ["#e0f1ea", "#a9d6c6", "#2f7565"] },
  2: { frame: "#3d4f8f", line: "#25315c", art: ["#e0e5f6", "#b0bde6", "#3d4f8f"] },
};

export function valeCard(id, ctx, opts = {}) {
  const info = valeInfo(id, ctx);
  const look = LOOK[info.level] || LOOK[1];
  const inner = [BORDER, BORDER, VALE_W - 2 * BORDER, VALE_H - 2 * BORDER];
  const parts = [
    svg("rect", {
      x: 0.6,
      y: 0.6,
      width: VALE_W - 1.2,
      height: VALE_H - 1.2,
      rx: 8,
      fill: look.frame,
      stroke: look.line,
      "stroke-width": 1.2,
    }),
    svg("rect", {
      x: inner[0],
      y: inner[1],
      width: inner[2],
      height: inner[3],
      rx: 4,
      fill: look.art[0],
    }),
    ...hills(...inner, look.art),
  ];
  const right = VALE_W - BORDER - 16;
  if (info.end_vp) {
    parts.push(symbol("end_vp", right, 22, SYMBOL_R + 3, ctx));
    parts.push(
      svg("text", { x: right, y: 27.5, "font-size": 12, class: "mv-on-star", text: info.end_vp }),
    );
  }
  const level = info.level || 1;
  const dotsY = info.end_vp ? 43 : 14;
  for (let i = 0; i < level; i++)
    parts.push(
      svg("circle", { cx: right - (level - 1) * 3 + i * 6, cy: dotsY, r: 2.2, fill: "#3b3b3b" }),
    );
  const tagged = info.standin && !id.startsWith("standin_");
  const room = VALE_W - 2 * BORDER - 6 - (info.end_vp ? 34 : 14);
  const lines = wrap(valeName(id, ctx), Math.floor(room / (NAME_SIZE * NAME_EM)), tagged ? 2 : 3);
  const nameAttrs = { class: "mv-name", lang: valeNameLanguage(id, ctx) };
  parts.push(...textLines(lines, BORDER + 6, 24, NAME_SIZE, room, nameAttrs, NAME_EM));
  if (tagged) parts.push(standinTag(BORDER + 6, 50, ctx));
  // The cost on a pale plate at the bottom, the growth the vale gives after it.
  const cost = SPIRITS.flatMap((s) => Array(info.cost[s] || 0).fill(s));
  const growth = Array(info.growth || 0).fill("growth");
  const shown = [...cost, ...growth];
  const cy = VALE_H - BORDER - 14;
  if (shown.length) {
    const width = shown.length * 20 + (cost.length && growth.length ? 6 : 0) + 2;
    parts.push(
      svg("rect", {
        x: BORDER + 3,
        y: cy - 12,
        width,
        height: 24,
        rx: 12,
        fill: "#ffffff",
        "fill-opacity": 0.75,
        stroke: look.frame,
        "stroke-opacity": 0.4,
        "stroke-width": 0.6,
      }),
    );
  }
  shown.forEach((s, i) => {
    const gap = i >= cost.length && cost.length ? 6 : 0;
    parts.push(symbol(s, BORDER + 14 + i * 20 + gap, cy, SYMBOL_R, ctx));
  });
  if (info.ability) parts.push(timingBadge(info.timing, right, cy, ctx, info.ability, SYMBOL_R));
  if (opts.isNew) {
    parts.push(
      svg("rect", {
        x: 2,
        y: 2,
        width: VALE_W - 4,
        height: VALE_H - 4,
        rx: 7,
        class: "mv-vale-new",
      }),
    );
    parts.push(
      svg("text", {
        x: VALE_W / 2,
        y: VALE_H / 2 + 4,
        "font-size": 12,
        class: "mv-new-label",
        text: ctx.t("vale_new"),
      }),
    );
  }
  const scale = opts.scale || TABLE_SCALE;
  return scaledSvg("mv-vale-svg", VALE_W, VALE_H, scale, [
    svg("title", { text: valeTitle(id, ctx) }),
    ...parts,
  ]);
}

// What marks a vale card for the enlarged view (magnify.js), with its name for a screen
// reader.
export function valeLook(id, ctx) {
  return { "data-magnify": `vale:${id}`, "aria-label": valeTitle(id, ctx) };
}

export function valeTitle(id, ctx) {
  const info = valeInfo(id, ctx);
  const title = [
    valeName(id, ctx),
    ctx.t("level_n", { n: info.level }),
    abilityText(info.ability, ctx),
    standinWords(info, ctx),
  ];
  return title.filter(Boolean).join(" · ");
}
