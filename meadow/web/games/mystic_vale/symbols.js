// The symbols printed on Mystic Vale's cards, ability timings, and text fitted onto a card.

import { html, svg } from "../../js/draw.js";
import { LEGEND, TIMINGS, abilityText } from "./names.js";

// A star as tall as the other symbols: its points reach r * 1.1 above the centre and, the
// lower ones, 0.9 r below it.
function starSymbol(fill, stroke) {
  return (x, y, r) => [
    svg("polygon", {
      points: star(x, y + r * 0.1, r * 1.1),
      fill,
      stroke,
      "stroke-width": r * 0.1,
      "stroke-linejoin": "round",
    }),
  ];
}

export function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(
      `${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`,
    );
  }
  return points.join(" ");
}

// Each symbol fills a box 2r high around (x, y), as the printed ones fill the width of a
// card's left edge: a gem of mana, a withered bud of decay, a sprouting leaf of growth, a blue
// star of points taken at the harvest, a grey one of points at the end, and the spirits in
// their coloured discs.
export const SHAPES = {
  mana: (x, y, r) => [
    svg("path", {
      d: `M${x} ${y - r} L${x + r * 0.78} ${y - r * 0.2} L${x} ${y + r} L${x - r * 0.78} ${y - r * 0.2} Z`,
      fill: "#1f7fd0",
      stroke: "#0b3f73",
      "stroke-width": r * 0.1,
      "stroke-linejoin": "round",
    }),
    svg("path", {
      d: `M${x} ${y - r} L${x - r * 0.78} ${y - r * 0.2} L${x} ${y + r * 0.05} Z`,
      fill: "#9fd3ff",
      opacity: 0.85,
    }),
    svg("path", {
      d: `M${x} ${y + r * 0.05} L${x + r * 0.78} ${y - r * 0.2} L${x} ${y + r} Z`,
      fill: "#0d5396",
      opacity: 0.55,
    }),
  ],
  decay: (x, y, r) => [
    svg("circle", {
      cx: x,
      cy: y,
      r: r * 0.95,
      fill: "#5b1f3f",
      stroke: "#2a0b1c",
      "stroke-width": r * 0.1,
    }),
    svg("path", {
      d: `M${x} ${y + r * 0.62} V${y - r * 0.05} M${x} ${y + r * 0.12} L${x - r * 0.42} ${y - r * 0.3} M${x} ${y - r * 0.05} L${x + r * 0.4} ${y - r * 0.48} M${x - r * 0.42} ${y - r * 0.3} l${-r * 0.08} ${-r * 0.3} M${x + r * 0.4} ${y - r * 0.48} l${r * 0.14} ${-r * 0.2}`,
      fill: "none",
      stroke: "#f0c9a8",
      "stroke-width": r * 0.15,
      "stroke-linecap": "round",
    }),
  ],
  growth: (x, y, r) => [
    svg("path", {
      d: `M${x - r * 0.55} ${y + r} C${x - r * 1.05} ${y - r * 0.1} ${x - r * 0.1} ${y - r * 0.95} ${x + r * 0.75} ${y - r} C${x + r * 0.95} ${y - r * 0.05} ${x + r * 0.25} ${y + r * 0.85} ${x - r * 0.55} ${y + r} Z`,
      fill: "#4caf50",
      stroke: "#1b5e20",
      "stroke-width": r * 0.1,
    }),
    svg("path", {
      d: `M${x - r * 0.55} ${y + r} Q${x} ${y} ${x + r * 0.55} ${y - r * 0.75}`,
      fill: "none",
      stroke: "#1b5e20",
      "stroke-width": r * 0.1,
    }),
  ],
  vp: starSymbol("#2f78c4", "#123a66"), // blue: points at the harvest
  end_vp: starSymbol("#a8a8a8", "#555"), // grey: points at the end
  beast: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#d9622b", stroke: "#7a2e0e", "stroke-width": r * 0.1 }),
    svg("ellipse", { cx: x, cy: y + r * 0.3, rx: r * 0.38, ry: r * 0.3, fill: "#fff3e8" }),
    ...[-0.45, 0, 0.45].map((dx) =>
      svg("circle", {
        cx: x + dx * r,
        cy: y - r * (dx ? 0.25 : 0.45),
        r: r * 0.17,
        fill: "#fff3e8",
      }),
    ),
  ],
  forest: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#2e7d32", stroke: "#103d13", "stroke-width": r * 0.1 }),
    svg("path", {
      d: `M${x} ${y - r * 0.7} L${x + r * 0.55} ${y + r * 0.35} L${x - r * 0.55} ${y + r * 0.35} Z M${x - r * 0.12} ${y + r * 0.35} h${r * 0.24} v${r * 0.35} h${-r * 0.24} Z`,
      fill: "#e8f5e9",
    }),
  ],
  sky: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#5fb8e8", stroke: "#1d5f85", "stroke-width": r * 0.1 }),
    svg("path", {
      d: `M${x - r * 0.65} ${y - r * 0.05} Q${x - r * 0.3} ${y - r * 0.45} ${x} ${y + r * 0.15} Q${x + r * 0.3} ${y - r * 0.45} ${x + r * 0.65} ${y - r * 0.05}`,
      fill: "none",
      stroke: "#ffffff",
      "stroke-width": r * 0.16,
      "stroke-linecap": "round",
    }),
  ],
  wild: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#8e44ad", stroke: "#4a1a5e", "stroke-width": r * 0.1 }),
    svg("path", {
      d: `M${x} ${y - r * 0.75} Q${x + r * 0.15} ${y - r * 0.15} ${x + r * 0.75} ${y} Q${x + r * 0.15} ${y + r * 0.15} ${x} ${y + r * 0.75} Q${x - r * 0.15} ${y + r * 0.15} ${x - r * 0.75} ${y} Q${x - r * 0.15} ${y - r * 0.15} ${x} ${y - r * 0.75} Z`,
      fill: "#fff6c2",
    }),
  ],
  guardian: (x, y, r) => [
    svg("path", {
      d: `M${x} ${y - r} L${x + r * 0.85} ${y - r * 0.6} L${x + r * 0.7} ${y + r * 0.35} L${x} ${y + r} L${x - r * 0.7} ${y + r * 0.35} L${x - r * 0.85} ${y - r * 0.6} Z`,
      fill: "#8d7b68",
      stroke: "#3e3328",
      "stroke-width": r * 0.1,
    }),
    svg("path", {
      d: `M${x} ${y - r * 0.6} V${y + r * 0.6}`,
      stroke: "#d8cbb8",
      "stroke-width": r * 0.14,
    }),
  ],
};

export function symbol(kind, x, y, r, ctx) {
  return svg("g", { class: `mv-sym mv-sym-${kind}` }, [
    svg("title", { text: ctx.t(`symbol.${kind}`) }),
    ...SHAPES[kind](x, y, r),
  ]);
}

// A symbol with a number beside it, as an inline picture for HTML text.
export function symbolBadge(kind, count, ctx, extra) {
  const picture = svg(
    "svg",
    { class: "mv-badge-icon", viewBox: "0 0 16 16", width: 16, height: 16 },
    [symbol(kind, 8, 8, 6.5, ctx)],
  );
  return html("span", { class: "mv-badge", title: ctx.t(`symbol.${kind}`) }, [
    picture,
    html("span", { class: "mv-badge-count", text: String(count) }),
    extra || null,
  ]);
}

// The mark of when an ability works, in a dark disc of radius `r`.
export function timingBadge(timing, x, y, ctx, ability, r = 5.5) {
  const marks = {
    on_play: "M-2.5 -3 L3 0 L-2.5 3 Z",
    harvest: "M-3 2 Q0 -5 3 2 M0 -2 v5",
    persistent: "M-3 0 a1.5 1.5 0 1 0 3 0 a1.5 1.5 0 1 1 3 0 a1.5 1.5 0 1 1 -3 0 a1.5 1.5 0 1 0 -3 0",
    end_of_game: "M-2 3.5 V-3.5 L3 -2 L-2 -0.5",
    cleanup: "M-3 1 A3 3 0 1 1 1 3 M-3 1 l-0.5 -2.5 M-3 1 l2.3 -0.8",
    on_purchase: "M-3 0 H3 M0 -3 V3",
    spoil_prevention: "M0 -3.5 L3 -2 L2.3 1.5 L0 3.5 L-2.3 1.5 L-3 -2 Z",
  };
  const tip = [TIMINGS.includes(timing) ? ctx.t(`timing.${timing}`) : "", abilityText(ability, ctx)]
    .filter(Boolean)
    .join(": ");
  return svg("g", { class: "mv-timing" }, [
    svg("title", { text: tip }),
    svg("g", { transform: `translate(${x} ${y}) scale(${r / 5.5})` }, [
      svg("circle", {
        cx: 0,
        cy: 0,
        r: 5.5,
        fill: "#3b3b3b",
        stroke: "#f4ecd6",
        "stroke-width": 0.5,
      }),
      svg("path", {
        d: marks[timing] || "M-2 0 H2",
        fill: timing === "on_play" ? "#fff" : "none",
        stroke: "#fff",
        "stroke-width": 1,
      }),
    ]),
  ]);
}

// Text in lines of at most `width` characters (names are long German compounds): lines break
// at spaces, after a word's hyphen (not a code's, "B1-A") and at soft hyphens (U+00AD, in the
// language files), which then show.
export function wrap(text, width, most) {
  const pieces = [];
  text
    .split(" ")
    .forEach((word, i) =>
      word
        .split(/(?<=\p{L}{3}-)/u)
        .forEach((part, j) =>
          part
            .split("\u00ad")
            .forEach((syllable, k) => pieces.push([syllable, k ? "soft" : i && !j ? "space" : ""])),
        ),
    );
  const lines = [];
  for (const [piece, joint] of pieces) {
    const last = lines.length - 1;
    const joined = last >= 0 ? lines[last] + (joint === "space" ? " " : "") + piece : null;
    if (joined !== null && joined.length <= width) lines[last] = joined;
    else if (joint === "soft") {
      lines[last] += "-";
      lines.push(piece);
    } else lines.push(piece);
  }
  if (lines.length > most) lines.splice(most - 1, lines.length, lines.slice(most - 1).join(" "));
  return lines;
}

// Lines of text, a line too wide for `room` squeezed into it. `em`: a letter's width as a
// share of the size (bold names are wider than the 0.6 of plain text).
export function textLines(lines, x, y, size, room, attrs, em = 0.6) {
  return lines.map((line, i) =>
    svg("text", {
      x,
      y: y + i * (size + 1),
      "font-size": size,
      ...attrs,
      textLength: line.length * size * em > room ? room : null,
      lengthAdjust: "spacingAndGlyphs",
      text: line,
    }),
  );
}

// The symbols and ability timings, each drawn as on the cards, for the rules page
// (js/rules.js): the legend lives there, not on the table.
export function legendEntries(ctx) {
  const symbols = LEGEND.map((kind) => ({
    key: kind,
    name: ctx.t(`symbol.${kind}`),
    picture: svg("svg", { viewBox: "0 0 16 16", width: 24, height: 24 }, [symbol(kind, 8, 8, 6.5, ctx)]),
  }));
  const timings = TIMINGS.map((timing) => ({
    key: timing,
    name: ctx.t(`timing.${timing}`),
    picture: svg("svg", { viewBox: "0 0 14 14", width: 24, height: 24 }, [
      timingBadge(timing, 7, 7, ctx, null),
    ]),
  }));
  return [...symbols, ...timings];
}
