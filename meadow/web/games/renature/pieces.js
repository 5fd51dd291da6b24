// Renature's pieces: plants, clouds, the joker's star, mushrooms, area tokens, colour chips.

import { html, seatSymbol, svg } from "../../js/draw.js";
import { INK, PIECE, plantName, seatOfColour } from "./names.js";

const PLANT_SHAPES = {
  turf: (c) => [
    svg("path", {
      d: "M-7 5 L-5.5 -1 L-3.5 3 L-1.5 -4 L0.5 3 L2.5 -2 L4.5 3 L6.5 -1 L7.5 5 Z",
      fill: c.fill,
      stroke: c.line,
      "stroke-width": 1.2,
      "stroke-linejoin": "round",
    }),
  ],
  bush: (c) => [
    svg("path", {
      d: "M-7 5 A4 4 0 0 1 -6 -1 A4.5 4.5 0 0 1 1 -5 A4.5 4.5 0 0 1 7 0 A3.5 3.5 0 0 1 7 5 Z",
      fill: c.fill,
      stroke: c.line,
      "stroke-width": 1.2,
      "stroke-linejoin": "round",
    }),
  ],
  pine: (c) => [
    svg("rect", {
      x: -1.3,
      y: 4,
      width: 2.6,
      height: 4.5,
      fill: "#6b4a2b",
      stroke: c.line,
      "stroke-width": 0.8,
    }),
    svg("path", {
      d: "M0 -9.5 L5 -2.5 L3 -2.5 L7.5 4.5 L-7.5 4.5 L-3 -2.5 L-5 -2.5 Z",
      fill: c.fill,
      stroke: c.line,
      "stroke-width": 1.2,
      "stroke-linejoin": "round",
    }),
  ],
  oak: (c) => [
    svg("rect", {
      x: -1.8,
      y: 3,
      width: 3.6,
      height: 6,
      fill: "#6b4a2b",
      stroke: c.line,
      "stroke-width": 0.8,
    }),
    svg("path", {
      d: "M-5 4.5 A4.5 4.5 0 0 1 -8 -2 A4.5 4.5 0 0 1 -3 -8.5 A5 5 0 0 1 5 -7.5 A4.5 4.5 0 0 1 8 0 A4.5 4.5 0 0 1 4 4.5 Z",
      fill: c.fill,
      stroke: c.line,
      "stroke-width": 1.2,
      "stroke-linejoin": "round",
    }),
  ],
};

// A plant piece centred on (x, y); `size` is the box it fills.
export function plantPiece(plant, colour, x, y, size, ctx, extra = {}) {
  const look = PIECE[colour] || PIECE.neutral;
  const parts = [
    svg("title", {
      text: `${plantName(ctx, plant, colour === "neutral")} · ${ctx.t(`colour.${colour}`)}`,
    }),
    svg("g", { transform: `scale(${size / 20})` }, PLANT_SHAPES[plant](look)),
  ];
  const seat = seatOfColour(colour);
  if (ctx.settings && ctx.settings.colourblind && seat !== null) {
    parts.push(
      svg("text", {
        x: size * 0.32,
        y: size * 0.45,
        "font-size": size * 0.36,
        "text-anchor": "middle",
        fill: INK,
        stroke: "#fff",
        "stroke-width": 2.5,
        "paint-order": "stroke",
        text: seatSymbol(seat),
      }),
    );
  }
  return svg(
    "g",
    { transform: `translate(${x} ${y})`, class: "rn-plant", "pointer-events": "none", ...extra },
    parts,
  );
}

export function cloudShape(x, y, size, extra = {}) {
  const s = size / 20;
  return svg("path", {
    d: "M-8 4 A4 4 0 0 1 -6.5 -3 A5 5 0 0 1 2.5 -5 A4 4 0 0 1 8 -0.5 A3.5 3.5 0 0 1 7 5 Z",
    transform: `translate(${x} ${y}) scale(${s})`,
    fill: "#dcefff",
    stroke: "#3f6f9f",
    "stroke-width": 1.4 / s,
    ...extra,
  });
}

export function star(x, y, r, extra = {}) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    const radius = i % 2 ? r * 0.45 : r;
    points.push(
      `${(x + Math.cos(angle) * radius).toFixed(1)},${(y + Math.sin(angle) * radius).toFixed(1)}`,
    );
  }
  return svg("polygon", {
    points: points.join(" "),
    fill: "#ffcf33",
    stroke: "#8a5a00",
    "stroke-width": 1,
    ...extra,
  });
}

export function mushroom(x, y, scale) {
  return svg(
    "g",
    {
      transform: `translate(${x} ${y}) scale(${scale})`,
      "pointer-events": "none",
      class: "rn-mushroom",
    },
    [
      svg("rect", {
        x: -3,
        y: 0,
        width: 6,
        height: 9,
        rx: 2,
        fill: "#f3ead5",
        stroke: "#6b4f25",
        "stroke-width": 1,
      }),
      svg("path", {
        d: "M-12 2 A12 11 0 0 1 12 2 Z",
        fill: "#c0392b",
        stroke: "#5a1a12",
        "stroke-width": 1.2,
      }),
      svg("circle", { cx: -5, cy: -3, r: 2, fill: "#fff" }),
      svg("circle", { cx: 3, cy: -6, r: 1.8, fill: "#fff" }),
      svg("circle", { cx: 6, cy: -1, r: 1.4, fill: "#fff" }),
    ],
  );
}

export function areaToken(token, x, y, ctx, extra = {}) {
  return svg("g", { transform: `translate(${x} ${y})`, class: "rn-token", ...extra }, [
    svg("title", { text: ctx.t("token_title", { main: token.main, minor: token.minor }) }),
    svg("rect", {
      x: -14,
      y: -14,
      width: 28,
      height: 28,
      rx: 6,
      fill: "#f3e3b5",
      stroke: "#7a5a22",
      "stroke-width": 1.5,
    }),
    svg("path", { d: "M-8 8 L8 -8", stroke: "#7a5a22", "stroke-width": 1 }),
    svg("text", {
      x: -4.5,
      y: -0.5,
      "font-size": 13,
      "font-weight": 700,
      "text-anchor": "middle",
      fill: "#3d2a08",
      text: String(token.main),
    }),
    svg("text", {
      x: 5.5,
      y: 11,
      "font-size": 10,
      "text-anchor": "middle",
      fill: "#3d2a08",
      text: String(token.minor),
    }),
  ]);
}

export function colourChip(colour, ctx) {
  const look = PIECE[colour] || PIECE.neutral;
  const seat = seatOfColour(colour);
  const symbol = ctx.settings && ctx.settings.colourblind && seat !== null ? seatSymbol(seat) : "";
  return html(
    "span",
    {
      class: "rn-chip",
      style: `background:${look.fill};border-color:${look.line};color:${colour === "black" || colour === "blue" ? "#fff" : INK}`,
    },
    [symbol],
  );
}
