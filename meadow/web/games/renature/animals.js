// Renature's animals: each one's glyph, and the coloured disc it is drawn on.

import { svg } from "../../js/draw.js";
import { ANIMAL_COLOUR, INK } from "./names.js";

// -- glyphs (drawn in a box from -10 to 10) ------------------------------------------------

const stroke = {
  stroke: INK,
  "stroke-width": 1.2,
  "stroke-linejoin": "round",
  "stroke-linecap": "round",
};

function hedgehogSpikes() {
  const points = [];
  for (let i = 0; i <= 12; i++) {
    const angle = Math.PI + (i / 12) * Math.PI;
    const r = i % 2 ? 9 : 6;
    points.push(`${(Math.cos(angle) * r - 1).toFixed(1)} ${(Math.sin(angle) * r + 4).toFixed(1)}`);
  }
  return `M${points.join(" L")} L8 4 Z`;
}

const ANIMAL_GLYPHS = {
  butterfly: () => [
    svg("path", {
      d: "M0 -1 C -4 -10 -10 -9 -9 -3 C -8 1 -3 1 0 -1 Z M0 -1 C 4 -10 10 -9 9 -3 C 8 1 3 1 0 -1 Z",
      fill: "#fff",
      ...stroke,
    }),
    svg("path", {
      d: "M0 1 C -3 2 -8 4 -6 8 C -4 10 -1 6 0 1 Z M0 1 C 3 2 8 4 6 8 C 4 10 1 6 0 1 Z",
      fill: "#fde7f1",
      ...stroke,
    }),
    svg("path", {
      d: "M0 -6 L0 7 M0 -6 L-2.5 -9.5 M0 -6 L2.5 -9.5",
      fill: "none",
      ...stroke,
      "stroke-width": 1.8,
    }),
  ],
  salamander: () => [
    svg("path", {
      d: "M-9 6 C -6 9 -2 7 0 2 C 2 -3 4 -5 7 -4",
      fill: "none",
      stroke: INK,
      "stroke-width": 3.2,
      "stroke-linecap": "round",
    }),
    svg("circle", { cx: 7.5, cy: -4.5, r: 2.6, fill: INK }),
    svg("path", {
      d: "M-4 6 l-2 3 M-3 4 l2 3 M1 -1 l-3 -2 M2 1 l3 1",
      fill: "none",
      stroke: INK,
      "stroke-width": 1.6,
      "stroke-linecap": "round",
    }),
    svg("circle", { cx: 8.2, cy: -5.2, r: 0.8, fill: "#fff" }),
  ],
  owl: () => [
    svg("path", {
      d: "M-6 -5 L-5.5 -10 L-2.5 -7 Q0 -8 2.5 -7 L5.5 -10 L6 -5 Q8 2 5 7 Q0 10 -5 7 Q-8 2 -6 -5 Z",
      fill: "#8a6a43",
      ...stroke,
    }),
    svg("circle", { cx: -2.8, cy: -3, r: 2.6, fill: "#fff", ...stroke }),
    svg("circle", { cx: 2.8, cy: -3, r: 2.6, fill: "#fff", ...stroke }),
    svg("circle", { cx: -2.8, cy: -3, r: 1.1, fill: INK }),
    svg("circle", { cx: 2.8, cy: -3, r: 1.1, fill: INK }),
    svg("path", { d: "M-1 0 L1 0 L0 2.2 Z", fill: "#f0b400", ...stroke, "stroke-width": 0.6 }),
    svg("path", {
      d: "M-3 4 q1 1 2 0 M1 4 q1 1 2 0",
      fill: "none",
      ...stroke,
      "stroke-width": 0.8,
    }),
  ],
  woodpecker: () => [
    svg("ellipse", {
      cx: -1.5,
      cy: 2.5,
      rx: 4.5,
      ry: 6.5,
      fill: "#333",
      ...stroke,
      transform: "rotate(20 -1.5 2.5)",
    }),
    svg("path", { d: "M-4 8 L-7 10 L-3 9.5 Z", fill: "#333", ...stroke }),
    svg("circle", { cx: 2, cy: -4.5, r: 3.6, fill: "#fff", ...stroke }),
    svg("path", { d: "M-0.5 -7.5 C 0 -10.5 4.5 -10.5 5 -7 Z", fill: "#d8261b", ...stroke }),
    svg("path", { d: "M5.3 -5.2 L10 -4.2 L5.3 -3.2 Z", fill: "#555", ...stroke }),
    svg("circle", { cx: 2.8, cy: -4.8, r: 0.9, fill: INK }),
    svg("path", {
      d: "M-1 0 l2.5 3 M-2 3 l2.5 3",
      fill: "none",
      stroke: "#fff",
      "stroke-width": 1,
    }),
  ],
  snail: () => [
    svg("path", {
      d: "M-9 7 L8 7 Q9 4.5 6 4.5 L-5 4.5 L-7 -1 M-5 4.5 L-5 -1.5",
      fill: "#e8d3b0",
      ...stroke,
    }),
    svg("circle", { cx: 1.5, cy: -1, r: 6, fill: "#c98a3e", ...stroke }),
    svg("path", {
      d: "M1.5 -1 m-1.2 0 a1.2 1.2 0 1 1 2.4 0 a2.6 2.6 0 1 1 -5.2 0 a4 4 0 1 1 8 0",
      fill: "none",
      ...stroke,
    }),
    svg("circle", { cx: -7, cy: -1.6, r: 0.9, fill: INK }),
    svg("circle", { cx: -5, cy: -2.1, r: 0.9, fill: INK }),
  ],
  badger: () => [
    svg("circle", { cx: -6.2, cy: -6, r: 2.2, fill: "#444", ...stroke }),
    svg("circle", { cx: 6.2, cy: -6, r: 2.2, fill: "#444", ...stroke }),
    svg("path", {
      d: "M-8 -3 C -8 -10 8 -10 8 -3 L 2 8 C 1 9.5 -1 9.5 -2 8 Z",
      fill: "#444",
      ...stroke,
    }),
    svg("path", { d: "M-1.6 -8.3 L1.6 -8.3 L1 6 L-1 6 Z", fill: "#fff" }),
    svg("path", {
      d: "M-6.5 -3 Q-4.5 -4 -3 0 M6.5 -3 Q4.5 -4 3 0",
      fill: "none",
      stroke: "#fff",
      "stroke-width": 1.6,
    }),
    svg("circle", { cx: 0, cy: 7.4, r: 1.4, fill: INK }),
  ],
  turtle: () => [
    svg("ellipse", { cx: 8, cy: 2, rx: 2.5, ry: 2, fill: "#9fd49a", ...stroke }),
    svg("ellipse", { cx: -5.5, cy: 5.5, rx: 2, ry: 1.6, fill: "#9fd49a", ...stroke }),
    svg("ellipse", { cx: 3.5, cy: 5.5, rx: 2, ry: 1.6, fill: "#9fd49a", ...stroke }),
    svg("path", { d: "M-9 4 A 8.5 8 0 0 1 7 4 Z", fill: "#2f7d3a", ...stroke }),
    svg("path", {
      d: "M-5 4 L-3 -1 L1 -1 L3 4 M-3 -1 L-4.5 -3.3 M1 -1 L2.5 -3.3",
      fill: "none",
      stroke: "#b9e3b3",
      "stroke-width": 1,
    }),
    svg("circle", { cx: 8.8, cy: 1.5, r: 0.6, fill: INK }),
  ],
  hedgehog: () => [
    svg("path", { d: hedgehogSpikes(), fill: "#6b4a2b", ...stroke }),
    svg("path", { d: "M3 4 Q6 -2 10 4 Z", fill: "#e9c79c", ...stroke }),
    svg("circle", { cx: 10, cy: 4, r: 1, fill: INK }),
    svg("circle", { cx: 6.5, cy: 1.8, r: 0.8, fill: INK }),
    svg("path", { d: "M-9 4 L10 4", fill: "none", ...stroke }),
  ],
  frog: () => [
    svg("path", {
      d: "M-8 6 l-2 3 M8 6 l2 3",
      fill: "none",
      stroke: INK,
      "stroke-width": 2,
      "stroke-linecap": "round",
    }),
    svg("ellipse", { cx: 0, cy: 2.5, rx: 8.5, ry: 6, fill: "#2f9a55", ...stroke }),
    svg("circle", { cx: -4.2, cy: -3.3, r: 3, fill: "#2f9a55", ...stroke }),
    svg("circle", { cx: 4.2, cy: -3.3, r: 3, fill: "#2f9a55", ...stroke }),
    svg("circle", { cx: -4.2, cy: -3.6, r: 1.6, fill: "#fff" }),
    svg("circle", { cx: 4.2, cy: -3.6, r: 1.6, fill: "#fff" }),
    svg("circle", { cx: -4.2, cy: -3.6, r: 0.8, fill: INK }),
    svg("circle", { cx: 4.2, cy: -3.6, r: 0.8, fill: INK }),
    svg("path", { d: "M-4.5 3 Q0 6.5 4.5 3", fill: "none", ...stroke }),
  ],
  bee: () => [
    svg("ellipse", {
      cx: -2,
      cy: -4.5,
      rx: 3,
      ry: 4.5,
      fill: "#fff",
      "fill-opacity": 0.9,
      ...stroke,
      transform: "rotate(-20 -2 -4.5)",
    }),
    svg("ellipse", {
      cx: 2.5,
      cy: -4.5,
      rx: 3,
      ry: 4.5,
      fill: "#fff",
      "fill-opacity": 0.9,
      ...stroke,
      transform: "rotate(20 2.5 -4.5)",
    }),
    svg("path", { d: "M6.5 2 L10 2", fill: "none", ...stroke, "stroke-width": 1.6 }),
    svg("ellipse", { cx: 0.5, cy: 2, rx: 6.5, ry: 4.6, fill: "#f2c200", ...stroke }),
    svg("path", {
      d: "M-2 -2.4 L-2 6.4 M1.5 -2.5 L1.5 6.5 M4.7 -1.3 L4.7 5.3",
      fill: "none",
      stroke: INK,
      "stroke-width": 1.8,
    }),
    svg("circle", { cx: -7, cy: 2, r: 2.6, fill: INK }),
  ],
};

function animalGlyph(animal, size) {
  const make = ANIMAL_GLYPHS[animal];
  return svg(
    "g",
    { transform: `scale(${size / 20})`, "pointer-events": "none" },
    make ? make() : [],
  );
}

// An animal on its coloured disc, centred on (x, y).
export function animalDisc(animal, x, y, r, ctx, extra = {}) {
  return svg("g", { transform: `translate(${x} ${y})`, class: "rn-animal", ...extra }, [
    svg("title", { text: ctx.t(`animal.${animal}`) }),
    svg("circle", {
      r,
      fill: ANIMAL_COLOUR[animal] || "#ccc",
      stroke: "#00000055",
      "stroke-width": 1,
    }),
    animalGlyph(animal, r * 1.7),
  ]);
}
