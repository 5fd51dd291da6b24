// The symbols printed on Mystic Vale's cards, ability timings, and text fitted onto a card.

import { html, svg } from "../../js/draw.js";
import { LEGEND, TIMINGS, abilityText } from "./names.js";

function starSymbol(fill, stroke) {
  return (x, y, r) => [
    svg("polygon", { points: star(x, y, r * 1.1), fill, stroke, "stroke-width": 0.7 }),
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

export const SHAPES = {
  mana: (x, y, r) => [
    svg("path", {
      d: `M${x} ${y - r} L${x + r * 0.75} ${y} L${x} ${y + r} L${x - r * 0.75} ${y} Z`,
      fill: "#1f7fd0",
      stroke: "#0b3f73",
      "stroke-width": 0.8,
    }),
  ],
  decay: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#4a2347", stroke: "#230f22", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x - r * 0.2} ${y - r * 0.85} L${x + r * 0.2} ${y - r * 0.15} L${x - r * 0.3} ${y + r * 0.2} L${x + r * 0.1} ${y + r * 0.85}`,
      fill: "none",
      stroke: "#e6c9e0",
      "stroke-width": 1,
    }),
  ],
  growth: (x, y, r) => [
    svg("path", {
      d: `M${x - r * 0.8} ${y + r * 0.8} C${x - r} ${y - r * 0.6} ${x + r * 0.2} ${y - r} ${x + r * 0.85} ${y - r * 0.85} C${x + r} ${y + r * 0.2} ${x - r * 0.1} ${y + r} ${x - r * 0.8} ${y + r * 0.8} Z`,
      fill: "#4caf50",
      stroke: "#1b5e20",
      "stroke-width": 0.8,
    }),
    svg("path", {
      d: `M${x - r * 0.8} ${y + r * 0.8} L${x + r * 0.5} ${y - r * 0.5}`,
      stroke: "#1b5e20",
      "stroke-width": 0.7,
    }),
  ],
  vp: starSymbol("#f2b705", "#8a6100"), // gold: points now
  end_vp: starSymbol("#a8a8a8", "#555"), // grey: points at the end
  beast: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#d9622b", stroke: "#7a2e0e", "stroke-width": 0.8 }),
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
    svg("circle", { cx: x, cy: y, r, fill: "#2e7d32", stroke: "#103d13", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x} ${y - r * 0.7} L${x + r * 0.55} ${y + r * 0.35} L${x - r * 0.55} ${y + r * 0.35} Z M${x - r * 0.12} ${y + r * 0.35} h${r * 0.24} v${r * 0.35} h${-r * 0.24} Z`,
      fill: "#e8f5e9",
    }),
  ],
  sky: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#5fb8e8", stroke: "#1d5f85", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x - r * 0.65} ${y - r * 0.05} Q${x - r * 0.3} ${y - r * 0.45} ${x} ${y + r * 0.15} Q${x + r * 0.3} ${y - r * 0.45} ${x + r * 0.65} ${y - r * 0.05}`,
      fill: "none",
      stroke: "#ffffff",
      "stroke-width": 1.1,
    }),
  ],
  wild: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#8e44ad", stroke: "#4a1a5e", "stroke-width": 0.8 }),
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
      "stroke-width": 0.8,
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

export function timingBadge(timing, x, y, ctx, ability) {
  const marks = {
    on_play: `M${x - 2.5} ${y - 3} L${x + 3} ${y} L${x - 2.5} ${y + 3} Z`,
    harvest: `M${x - 3} ${y + 2} Q${x} ${y - 5} ${x + 3} ${y + 2} M${x} ${y - 2} v5`,
    persistent: `M${x - 3} ${y} a1.5 1.5 0 1 0 3 0 a1.5 1.5 0 1 1 3 0 a1.5 1.5 0 1 1 -3 0 a1.5 1.5 0 1 0 -3 0`,
    end_of_game: `M${x - 2} ${y + 3.5} V${y - 3.5} L${x + 3} ${y - 2} L${x - 2} ${y - 0.5}`,
    cleanup: `M${x - 3} ${y + 1} A3 3 0 1 1 ${x + 1} ${y + 3} M${x - 3} ${y + 1} l-0.5 -2.5 M${x - 3} ${y + 1} l2.3 -0.8`,
    on_purchase: `M${x - 3} ${y} H${x + 3} M${x} ${y - 3} V${y + 3}`,
    spoil_prevention: `M${x} ${y - 3.5} L${x + 3} ${y - 2} L${x + 2.3} ${y + 1.5} L${x} ${y + 3.5} L${x - 2.3} ${y + 1.5} L${x - 3} ${y - 2} Z`,
  };
  const tip = [TIMINGS.includes(timing) ? ctx.t(`timing.${timing}`) : "", abilityText(ability, ctx)]
    .filter(Boolean)
    .join(": ");
  return svg("g", { class: "mv-timing" }, [
    svg("title", { text: tip }),
    svg("circle", { cx: x, cy: y, r: 5.5, fill: "#3b3b3b" }),
    svg("path", {
      d: marks[timing] || `M${x - 2} ${y} H${x + 2}`,
      fill: timing === "on_play" ? "#fff" : "none",
      stroke: "#fff",
      "stroke-width": 1,
    }),
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

// Lines of text, a line too wide for `room` squeezed into it.
export function textLines(lines, x, y, size, room, attrs) {
  return lines.map((line, i) =>
    svg("text", {
      x,
      y: y + i * (size + 1),
      "font-size": size,
      ...attrs,
      textLength: line.length * size * 0.6 > room ? room : null,
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
