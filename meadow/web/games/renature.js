// Renature's table: the 15 x 15 board (brook or meadow, areas, dominoes, plants, clouds,
// area tokens), the joker track, the player's hand and every player board.
//
// Clicks (see README.md):
//   place a domino      domino:<id>, cell:<first animal's space>, cell:<second's>
//   return it to box    domino:<id>, button:discard
//   mushroom (Valley)   cell:<meadow space>            or button:no_mushroom
//   plant               plant:<own|neutral>:<type>, cell:<space>   or button:no_plant
//   change the joker    joker:<animal>
//   take a plant back   button:return, cell:<space>
//   end / extra turn    button:end, button:extra_turn

import { html, seatSymbol, svg } from "../js/draw.js";

// The order of data/animals.json: a domino's id numbers every pair (A0-A0, A0-A1, ... A9-A9).
const ANIMALS = [
  "butterfly",
  "salamander",
  "owl",
  "woodpecker",
  "snail",
  "badger",
  "turtle",
  "hedgehog",
  "frog",
  "bee",
];
const STANDIN_ANIMALS = new Set(["hedgehog", "frog", "bee"]);
const PLANTS = ["turf", "bush", "pine", "oak"];
const PLANT_VALUE = { turf: 1, bush: 2, pine: 3, oak: 4 };
const COLOURS = ["orange", "blue", "black", "white"];
const CLOUD_SPACES = 6;

// The pieces' own colours (the game's player colours), not the page's seat colours.
const PIECE = {
  orange: { fill: "#ee7d1b", line: "#7a3a00" },
  blue: { fill: "#2f6fd6", line: "#0d2f66" },
  black: { fill: "#2b2b2b", line: "#000000" },
  white: { fill: "#fbfbf6", line: "#555555" },
  neutral: { fill: "#d8bb8a", line: "#6b4f25" },
};
const ANIMAL_COLOUR = {
  butterfly: "#f6a9cb",
  salamander: "#f3b23e",
  owl: "#c39a67",
  woodpecker: "#ec6a57",
  snail: "#c7a3e0",
  badger: "#a8b0b8",
  turtle: "#79c07a",
  hedgehog: "#d4a06a",
  frog: "#55c9b0",
  bee: "#ffdd4f",
};
const LAND = { open: "#a3cf6a", scored: "#dcc98f", valley: "#86bd58" };
const WATER = "#6db4de";
const MEADOW = "#dbeab0";
const INK = "#2b2b2b";

const C = 40; // one space, in board units
const PAD = 22; // room for the column letters and row numbers

// -- small pure helpers -------------------------------------------------------------------

function colRow(name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

function cellName(col, row) {
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

function cellXY(name) {
  const [col, row] = colRow(name);
  return [PAD + col * C, PAD + row * C];
}

function dominoAnimals(id) {
  let n = Number(id.slice(1));
  for (let first = 0; first < ANIMALS.length; first++) {
    const pairs = ANIMALS.length - first;
    if (n < pairs) return [ANIMALS[first], ANIMALS[first + n]];
    n -= pairs;
  }
  return ["", ""];
}

function playerName(ctx, seat) {
  return ctx.seatName(seat);
}

function seatOfColour(colour) {
  const seat = COLOURS.indexOf(colour);
  return seat < 0 ? null : seat;
}

function plantName(ctx, plant, neutral) {
  const name = ctx.t(`plant.${plant}`);
  return neutral ? ctx.t("neutral_plant", { plant: name }) : name;
}

function cloudsNote(ctx, n) {
  return n ? ctx.t("event.clouds", { n }) : "";
}

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
function animalDisc(animal, x, y, r, ctx, extra = {}) {
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
function plantPiece(plant, colour, x, y, size, ctx, extra = {}) {
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

function cloudShape(x, y, size, extra = {}) {
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

function star(x, y, r, extra = {}) {
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

// -- the board ----------------------------------------------------------------------------

function boardFacts(view) {
  const board = view.board;
  const valley = view.options && view.options.board !== "base";
  const scored = new Set(view.areas.filter((a) => a.scored).map((a) => a.area));
  return {
    width: board.width,
    height: board.height,
    valley,
    start: new Set(board.start),
    stumps: new Set(board.stumps || []),
    mushrooms: new Set(board.mushrooms || []),
    cloudSpaces: new Set(board.cloud_spaces || []),
    scored,
    irrelevant: new Set(view.irrelevant || []),
    last: new Set(view.last_domino || []),
    areaByName: Object.fromEntries(view.areas.map((a) => [a.area, a])),
  };
}

function eachCell(facts, fn) {
  for (let row = 0; row < facts.height; row++) {
    for (let col = 0; col < facts.width; col++) fn(cellName(col, row), col, row);
  }
}

function groundLayer(view, facts, ctx) {
  const layer = svg("g", { class: "rn-ground" });
  const w = facts.width * C;
  const h = facts.height * C;
  layer.append(
    svg("rect", {
      x: PAD,
      y: PAD,
      width: w,
      height: h,
      fill: facts.valley ? MEADOW : WATER,
      rx: 6,
    }),
  );
  // The brook's ripples, or the meadow's grass, on every space that is not an area's.
  eachCell(facts, (name) => {
    if (view.area_of[name] && !facts.mushrooms.has(name)) return;
    const [x, y] = cellXY(name);
    const d = facts.valley
      ? `M${x + 9} ${y + 30} l2 -6 l2 6 M${x + 26} ${y + 14} l2 -6 l2 6`
      : `M${x + 6} ${y + 14} q5 -4 10 0 t10 0 M${x + 14} ${y + 28} q5 -4 10 0 t10 0`;
    layer.append(
      svg("path", {
        d,
        fill: "none",
        stroke: facts.valley ? "#9cc46a" : "#b7dcf2",
        "stroke-width": 1.4,
        "stroke-linecap": "round",
      }),
    );
  });
  layer.append(gridLines(facts, facts.valley ? "#00000018" : "#ffffff55"));
  return layer;
}

function gridLines(facts, colour) {
  const parts = [];
  for (let i = 1; i < facts.width; i++) parts.push(`M${PAD + i * C} ${PAD} v${facts.height * C}`);
  for (let i = 1; i < facts.height; i++) parts.push(`M${PAD} ${PAD + i * C} h${facts.width * C}`);
  return svg("path", { d: parts.join(" "), stroke: colour, "stroke-width": 1, fill: "none" });
}

function areaFill(area, facts, ctx) {
  if (facts.scored.has(area.area) && ctx.settings && ctx.settings.renature_scored_colour)
    return LAND.scored;
  return facts.valley ? LAND.valley : LAND.open;
}

// The edges of an area's spaces that border another area or the brook: its outline.
function outlinePath(area, view) {
  const parts = [];
  for (const name of area.cells) {
    const [col, row] = colRow(name);
    const [x, y] = cellXY(name);
    const same = (dc, dr) => view.area_of[cellName(col + dc, row + dr)] === area.area;
    if (!same(0, -1)) parts.push(`M${x} ${y} h${C}`);
    if (!same(1, 0)) parts.push(`M${x + C} ${y} v${C}`);
    if (!same(0, 1)) parts.push(`M${x} ${y + C} h${C}`);
    if (!same(-1, 0)) parts.push(`M${x} ${y} v${C}`);
  }
  return parts.join(" ");
}

function areaLayer(view, facts, ctx) {
  const layer = svg("g", { class: "rn-areas" });
  for (const area of view.areas) {
    const fill = areaFill(area, facts, ctx);
    const group = svg("g", { "data-spot": `area:${area.area}`, class: "rn-area" });
    for (const name of area.cells) {
      const [x, y] = cellXY(name);
      group.append(svg("rect", { x, y, width: C, height: C, fill, stroke: "none" }));
      // under a plant the mushroom moves to a corner, so both stay in sight
      if (facts.mushrooms.has(name)) {
        group.append(
          view.plants[name]
            ? mushroom(x + C - 9, y + C - 8, 0.45)
            : mushroom(x + C / 2, y + C / 2, 1),
        );
      }
    }
    group.append(
      svg("path", {
        d: outlinePath(area, view),
        stroke: "#2f5a1f",
        "stroke-width": 3,
        "stroke-linecap": "round",
        fill: "none",
      }),
    );
    const [lx, ly] = cellXY(area.cells[0]);
    group.append(
      svg("text", {
        x: lx + 3,
        y: ly + 10,
        "font-size": 9,
        "font-weight": 700,
        fill: "#2f5a1f",
        text: area.area,
      }),
    );
    layer.append(group);
  }
  return layer;
}

function mushroom(x, y, scale) {
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

// Start spaces (ponds in the Valley), tree stumps and the printed cloud symbols.
function landmarkLayer(view, facts, ctx) {
  const layer = svg("g", { class: "rn-landmarks", "pointer-events": "none" });
  for (const name of facts.start) {
    const [x, y] = cellXY(name);
    const title = svg("title", { text: ctx.t(facts.valley ? "pond" : "start_space") });
    if (facts.valley) {
      layer.append(
        svg("g", {}, [
          title,
          svg("ellipse", {
            cx: x + C / 2,
            cy: y + C / 2,
            rx: 16,
            ry: 12,
            fill: WATER,
            stroke: "#2f6f9a",
            "stroke-width": 1.5,
          }),
          svg("path", {
            d: `M${x + 12} ${y + 20} q4 -3 8 0 t8 0`,
            stroke: "#d6eefb",
            fill: "none",
            "stroke-width": 1.4,
          }),
        ]),
      );
    } else {
      layer.append(
        svg("g", {}, [
          title,
          svg("circle", {
            cx: x + C / 2,
            cy: y + C / 2,
            r: 14,
            fill: "#ffffff33",
            stroke: "#ffffff",
            "stroke-width": 2.5,
            "stroke-dasharray": "5 3",
          }),
          svg("path", { d: `M${x + 16} ${y + 14} l10 6 l-10 6 z`, fill: "#ffffff" }),
        ]),
      );
    }
  }
  for (const name of facts.stumps) {
    const [x, y] = cellXY(name);
    layer.append(
      svg("g", {}, [
        svg("title", { text: ctx.t("stump") }),
        svg("ellipse", {
          cx: x + C / 2,
          cy: y + C / 2 + 2,
          rx: 13,
          ry: 11,
          fill: "#8a5d34",
          stroke: "#4a2f16",
          "stroke-width": 1.5,
        }),
        svg("ellipse", {
          cx: x + C / 2,
          cy: y + C / 2,
          rx: 11,
          ry: 9,
          fill: "#d9b27c",
          stroke: "#8a5d34",
          "stroke-width": 1,
        }),
        svg("ellipse", {
          cx: x + C / 2,
          cy: y + C / 2,
          rx: 6,
          ry: 4.5,
          fill: "none",
          stroke: "#8a5d34",
          "stroke-width": 1,
        }),
      ]),
    );
  }
  for (const name of facts.cloudSpaces) {
    if (view.clouds[name]) continue; // the token lies on the symbol
    const [x, y] = cellXY(name);
    layer.append(
      cloudShape(x + C / 2, y + C / 2, 22, {
        fill: "none",
        stroke: "#ffffffaa",
        "stroke-dasharray": "2 2",
      }),
    );
  }
  return layer;
}

function dominoLayer(view, facts, ctx) {
  const layer = svg("g", { class: "rn-dominoes" });
  const byDomino = {};
  for (const [name, half] of Object.entries(view.dominoes)) {
    (byDomino[half.domino] = byDomino[half.domino] || []).push(name);
  }
  for (const [id, cells] of Object.entries(byDomino)) {
    layer.append(boardDomino(id, cells, view, facts, ctx));
  }
  return layer;
}

function boardDomino(id, cells, view, facts, ctx) {
  const xs = cells.map((name) => cellXY(name));
  const left = Math.min(...xs.map(([x]) => x));
  const top = Math.min(...xs.map(([, y]) => y));
  const wide = xs.length === 2 && xs[0][1] === xs[1][1];
  const w = wide ? 2 * C : C;
  const h = xs.length === 2 && !wide ? 2 * C : C;
  const last = cells.some((name) => facts.last.has(name));
  const group = svg("g", { class: "rn-domino", "pointer-events": "none" }, [
    svg("rect", {
      x: left + 2,
      y: top + 2,
      width: w - 4,
      height: h - 4,
      rx: 7,
      fill: "#fbf4e2",
      stroke: last ? "#d98e00" : "#7a6a4a",
      "stroke-width": last ? 3 : 1.5,
    }),
  ]);
  if (xs.length === 2) {
    const d = wide ? `M${left + C} ${top + 6} v${C - 12}` : `M${left + 6} ${top + C} h${C - 12}`;
    group.append(svg("path", { d, stroke: "#b8a77f", "stroke-width": 1.2 }));
  }
  for (const name of cells) group.append(boardHalf(name, view, facts, ctx));
  return group;
}

function boardHalf(name, view, facts, ctx) {
  const animal = view.dominoes[name].animal;
  const [x, y] = cellXY(name);
  const cx = x + C / 2;
  const cy = y + C / 2;
  const mode = (ctx.settings && ctx.settings.renature_animals) || "faded";
  const irrelevant = facts.irrelevant.has(name);
  const half = svg("g", {
    "data-spot": `cell:${name}`,
    class: irrelevant ? "rn-half irrelevant" : "rn-half",
  });
  if (irrelevant && mode === "hidden") {
    half.append(svg("circle", { cx, cy, r: 6, fill: "#e6dcc2", stroke: "none" }));
    return half;
  }
  half.append(
    animalDisc(animal, cx, cy, 15, ctx, irrelevant && mode === "faded" ? { opacity: 0.35 } : {}),
  );
  if (animal === view.joker) half.append(star(x + C - 8, y + 8, 6.5, { class: "rn-joker-mark" }));
  return half;
}

function plantLayer(view, ctx) {
  const layer = svg("g", { class: "rn-plants" });
  for (const [name, plant] of Object.entries(view.plants)) {
    const [x, y] = cellXY(name);
    layer.append(
      plantPiece(plant.plant, plant.colour, x + C / 2, y + C / 2 + 1, 34, ctx, {
        "data-spot": `cell:${name}`,
        "data-piece": "plant",
      }),
    );
  }
  return layer;
}

function cloudLayer(view, ctx) {
  const layer = svg("g", { class: "rn-clouds", "pointer-events": "none" });
  for (const [name, count] of Object.entries(view.clouds)) {
    const [x, y] = cellXY(name);
    layer.append(
      svg("g", { "data-spot": `cell:${name}` }, [
        svg("title", { text: ctx.t("clouds_here", { n: count }) }),
        cloudShape(x + C / 2, y + C / 2, 30),
        count > 1
          ? svg("text", {
              x: x + C / 2,
              y: y + C / 2 + 4,
              "font-size": 12,
              "font-weight": 700,
              "text-anchor": "middle",
              fill: "#2f4a66",
              text: String(count),
            })
          : null,
      ]),
    );
  }
  return layer;
}

// Where an unscored area's token lies: the free space nearest the area's middle, not the one
// with the area's letter (the rules move it out of a plant's way; the engine does not track
// the exact space).
function tokenSpace(area, view) {
  const points = area.cells.map(colRow);
  const mid = [0, 1].map((i) => points.reduce((sum, p) => sum + p[i], 0) / points.length);
  const free = area.cells.filter((name, i) => i > 0 && !view.plants[name] && !view.clouds[name]);
  const far = (name) => {
    const [col, row] = colRow(name);
    return (col - mid[0]) ** 2 + (row - mid[1]) ** 2;
  };
  free.sort((a, b) => far(a) - far(b));
  return free[0] || area.cells[0];
}

function areaToken(token, x, y, ctx, extra = {}) {
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

function tokenLayer(view, ctx) {
  const layer = svg("g", { class: "rn-tokens", "pointer-events": "none" });
  for (const area of view.areas) {
    if (!area.token || area.scored) continue;
    const [x, y] = cellXY(tokenSpace(area, view));
    layer.append(areaToken(area.token, x + C / 2, y + C / 2, ctx));
  }
  return layer;
}

function labelLayer(facts) {
  const layer = svg("g", { class: "rn-labels" });
  for (let col = 0; col < facts.width; col++) {
    layer.append(
      svg("text", {
        x: PAD + col * C + C / 2,
        y: PAD - 7,
        "font-size": 11,
        "text-anchor": "middle",
        fill: "#4a5a3a",
        text: String.fromCharCode(97 + col),
      }),
    );
  }
  for (let row = 0; row < facts.height; row++) {
    layer.append(
      svg("text", {
        x: PAD - 5,
        y: PAD + row * C + C / 2 + 4,
        "font-size": 11,
        "text-anchor": "end",
        fill: "#4a5a3a",
        text: String(row + 1),
      }),
    );
  }
  return layer;
}

// On top of everything: the outline the log lights per area and a box per space.
function spotLayer(view, facts) {
  const layer = svg("g", { class: "rn-spots", "pointer-events": "none" });
  for (const area of view.areas) {
    layer.append(
      svg("path", {
        d: outlinePath(area, view),
        fill: "none",
        stroke: "none",
        "data-spot": `area:${area.area}`,
      }),
    );
  }
  eachCell(facts, (name) => {
    const [x, y] = cellXY(name);
    layer.append(
      svg("rect", {
        x: x + 2,
        y: y + 2,
        width: C - 4,
        height: C - 4,
        rx: 5,
        fill: "none",
        stroke: "none",
        "data-spot": `cell:${name}`,
      }),
    );
  });
  return layer;
}

// The spaces one clicks: transparent, on top, each with the area tip on hover.
function hitLayer(view, facts, ctx, tip) {
  const layer = svg("g", { class: "rn-hits" });
  eachCell(facts, (name) => {
    const [x, y] = cellXY(name);
    const rect = svg("rect", {
      x: x + 2,
      y: y + 2,
      width: C - 4,
      height: C - 4,
      rx: 5,
      fill: "transparent",
      "data-key": `cell:${name}`,
    });
    const area = facts.areaByName[view.area_of[name]];
    if (area) {
      rect.addEventListener("mouseenter", (event) => tip.show(areaTip(area, view, ctx), event));
      rect.addEventListener("mousemove", (event) => tip.move(event));
      rect.addEventListener("mouseleave", () => tip.hide());
    }
    layer.append(rect);
  });
  return layer;
}

function boardSvg(view, ctx, tip) {
  const facts = boardFacts(view);
  const width = PAD + facts.width * C + 4;
  const height = PAD + facts.height * C + 4;
  return svg(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      class: "rn-board",
      role: "img",
      "aria-label": ctx.t("title"),
    },
    [
      groundLayer(view, facts, ctx),
      areaLayer(view, facts, ctx),
      landmarkLayer(view, facts, ctx),
      dominoLayer(view, facts, ctx),
      plantLayer(view, ctx),
      cloudLayer(view, ctx),
      tokenLayer(view, ctx),
      labelLayer(facts),
      spotLayer(view, facts),
      hitLayer(view, facts, ctx, tip),
    ],
  );
}

// -- the area tip (hover) -------------------------------------------------------------------

function colourChip(colour, ctx) {
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

function colourLabel(colour, ctx) {
  const seat = seatOfColour(colour);
  const name = ctx.t(`colour.${colour}`);
  return seat === null || !ctx.players || !ctx.players[seat] ? name : playerName(ctx, seat);
}

function areaTip(area, view, ctx) {
  const head = [ctx.t("area_head", { area: area.area, size: area.size })];
  if (area.token && !area.scored)
    head.push(" · ", ctx.t("token_title", { main: area.token.main, minor: area.token.minor }));
  const state = area.scored ? "area_scored" : area.closed ? "area_closed" : null;
  const totals = Object.entries(area.totals);
  const rows = totals.length
    ? totals.map(([colour, total]) => {
        const tied = area.tied.includes(colour);
        const text = `${colourLabel(colour, ctx)}: ${total}`;
        return html("li", { class: tied ? "tied" : null }, [
          colourChip(colour, ctx),
          tied ? html("s", {}, [text]) : text,
        ]);
      })
    : [html("li", {}, [ctx.t("no_plants")])];
  const would = Object.entries(area.would_score).map(([seat, points]) =>
    ctx.t("would_one", { name: playerName(ctx, Number(seat)), points }),
  );
  const nowLine = area.scored
    ? null
    : html("p", {}, [
        ctx.t(view.options && view.options.board !== "base" ? "would_valley" : "would_now"),
        " ",
        would.length ? would.join(", ") : ctx.t("would_nobody"),
      ]);
  return [
    html("strong", {}, head),
    state ? html("p", { class: "rn-state" }, [ctx.t(state)]) : null,
    html("ul", {}, rows),
    area.tied.length ? html("p", { class: "rn-note" }, [ctx.t("tied_note")]) : null,
    nowLine,
  ];
}

function makeTip(wrap) {
  const box = html("div", { class: "rn-tip", hidden: true, role: "tooltip" });
  wrap.append(box);
  const place = (event) => {
    const frame = wrap.getBoundingClientRect();
    let left = event.clientX - frame.left + 16;
    if (left + 260 > frame.width) left = Math.max(0, event.clientX - frame.left - 276);
    box.style.left = `${left}px`;
    box.style.top = `${event.clientY - frame.top + 16}px`;
  };
  return {
    show(parts, event) {
      box.replaceChildren(...parts.filter(Boolean));
      box.hidden = false;
      place(event);
    },
    move: place,
    hide() {
      box.hidden = true;
    },
  };
}

// -- beside the board: prompt, hand, joker track, player boards ----------------------------

function prompt(view, ctx) {
  if (view.phase === "over") return html("p", { class: "rn-prompt" }, [ctx.t("phase.over")]);
  if (
    ctx.seat === null ||
    ctx.seat === undefined ||
    view.to_move !== ctx.seat ||
    !ctx.choices.length
  ) {
    return html("p", { class: "rn-prompt" }, [
      ctx.t("waiting_for", { name: playerName(ctx, view.to_move) }),
    ]);
  }
  return html("p", { class: "rn-prompt mine" }, [ctx.t(`phase.${view.phase}`)]);
}

function handDomino(domino, ctx) {
  const [a, b] = domino.animals;
  const h = 44;
  return svg(
    "svg",
    {
      viewBox: `0 0 ${2 * h + 6} ${h + 6}`,
      width: 2 * h + 6,
      height: h + 6,
      class: "rn-hand-domino",
    },
    [
      svg("title", { text: `${ctx.t(`animal.${a}`)} – ${ctx.t(`animal.${b}`)}` }),
      svg("rect", {
        x: 3,
        y: 3,
        width: 2 * h,
        height: h,
        rx: 8,
        fill: "#fbf4e2",
        stroke: "#7a6a4a",
        "stroke-width": 1.5,
        "data-key": `domino:${domino.domino}`,
      }),
      svg("path", {
        d: `M${3 + h} 9 v${h - 12}`,
        stroke: "#b8a77f",
        "stroke-width": 1.2,
        "pointer-events": "none",
      }),
      animalDisc(a, 3 + h / 2, 3 + h / 2, 17, ctx, { "pointer-events": "none" }),
      animalDisc(b, 3 + h * 1.5, 3 + h / 2, 17, ctx, { "pointer-events": "none" }),
    ],
  );
}

function handPanel(view, ctx) {
  const mine = ctx.seat !== null && ctx.seat !== undefined ? view.seats[ctx.seat] : null;
  if (!mine || !mine.hand || view.phase === "over") return null;
  const dominoes = mine.hand.map((domino) => handDomino(domino, ctx));
  return html("section", { class: "rn-panel rn-hand" }, [
    html("h3", {}, [ctx.t("your_hand")]),
    html("div", { class: "rn-row" }, dominoes.length ? dominoes : [ctx.t("hand_empty")]),
    ctx.choices.some((c) => c.kind === "place_domino")
      ? html("p", { class: "rn-small" }, [ctx.t("order_hint")])
      : null,
  ]);
}

function jokerTrack(view, ctx) {
  const step = 34;
  const parts = ANIMALS.map((animal, i) => {
    const x = 4 + i * step;
    const current = animal === view.joker;
    return svg("g", {}, [
      svg("rect", {
        x,
        y: 4,
        width: step - 4,
        height: step - 4,
        rx: 6,
        fill: current ? "#fff3c4" : "#f4efe2",
        stroke: current ? "#c98a00" : "#b9ae92",
        "stroke-width": current ? 2.5 : 1,
        "data-key": `joker:${animal}`,
        "data-spot": `joker:${animal}`,
      }),
      animalDisc(animal, x + (step - 4) / 2, 4 + (step - 4) / 2, 12, ctx, {
        "pointer-events": "none",
      }),
      current ? star(x + step - 8, 8, 6, { "pointer-events": "none" }) : null,
      STANDIN_ANIMALS.has(animal)
        ? svg("text", { x: x + 3, y: step - 3, "font-size": 9, fill: "#7a5a22", text: "*" })
        : null,
    ]);
  });
  return html("section", { class: "rn-panel rn-joker" }, [
    html("h3", {}, [
      ctx.t("joker_track"),
      ": ",
      html("span", { class: "rn-joker-name" }, [ctx.t(`animal.${view.joker}`)]),
    ]),
    svg(
      "svg",
      { viewBox: `0 0 ${ANIMALS.length * step + 6} ${step + 6}`, class: "rn-track" },
      parts,
    ),
    ctx.choices.some((c) => c.kind === "change_joker")
      ? html("p", { class: "rn-small" }, [ctx.t("joker_hint")])
      : null,
  ]);
}

// A player board: cloud spaces, then per plant type its own and neutral spaces.
function playerBoardSvg(view, seatNo, ctx) {
  const seat = view.seats[seatNo];
  const colour = seat.colour;
  const mine = seatNo === ctx.seat;
  const slot = 17;
  const colW = 76;
  const parts = [];
  for (let i = 0; i < CLOUD_SPACES; i++) {
    const full = i < seat.clouds;
    parts.push(
      cloudShape(
        12 + i * 24,
        12,
        20,
        full ? {} : { fill: "none", stroke: "#b5c2cf", "stroke-dasharray": "2 2" },
      ),
    );
  }
  PLANTS.forEach((plant, col) => {
    const x0 = 4 + col * colW;
    [false, true].forEach((neutral, row) => {
      const key = neutral ? `neutral ${plant}` : plant;
      const capacity = seat.capacity[key] || 0;
      const left = seat.supply[key] || 0;
      const y0 = 30 + row * (slot + 6);
      if (!capacity) return;
      parts.push(
        svg(
          "rect",
          {
            x: x0,
            y: y0,
            width: capacity * slot + 4,
            height: slot + 2,
            rx: 4,
            fill: neutral ? "#efe4cc" : "#ffffff",
            stroke: "#c9bd9f",
            "stroke-width": 1,
            "data-key": mine ? `plant:${neutral ? "neutral" : "own"}:${plant}` : null,
          },
          [svg("title", { text: `${plantName(ctx, plant, neutral)}: ${left} / ${capacity}` })],
        ),
      );
      for (let i = 0; i < capacity; i++) {
        const cx = x0 + 2 + i * slot + slot / 2;
        const cy = y0 + 1 + slot / 2;
        parts.push(
          i < left
            ? plantPiece(plant, neutral ? "neutral" : colour, cx, cy, slot, ctx)
            : svg("circle", { cx, cy, r: 3, fill: "#d8cfb8", "pointer-events": "none" }),
        );
      }
    });
    parts.push(
      svg("text", {
        x: x0 + 2,
        y: 84,
        "font-size": 10,
        fill: "#555",
        text: `${ctx.t(`plant.${plant}`)} ${PLANT_VALUE[plant]}`,
      }),
    );
  });
  return svg("svg", { viewBox: `0 0 ${4 * colW + 4} 90`, class: "rn-pboard" }, parts);
}

function tokenChips(seat, ctx) {
  if (!seat.tokens.length) return null;
  const backs = seat.token_backs || [];
  const chips = seat.tokens.map((token, i) =>
    svg("svg", { viewBox: "0 0 32 32", width: 26, height: 26, class: "rn-token-chip" }, [
      areaToken(token, 16, 16, ctx),
      backs[i] !== undefined
        ? svg("text", {
            x: 30,
            y: 30,
            "font-size": 11,
            "font-weight": 700,
            "text-anchor": "end",
            fill: "#1b5e20",
            stroke: "#fff",
            "stroke-width": 2.5,
            "paint-order": "stroke",
            text: `+${backs[i]}`,
          })
        : null,
    ]),
  );
  return html("div", { class: "rn-tokens-row" }, [
    html("span", {}, [ctx.t("tokens_taken")]),
    ...chips,
  ]);
}

function seatPanel(view, seatNo, ctx) {
  const seat = view.seats[seatNo];
  const look = PIECE[seat.colour];
  const you = seatNo === ctx.seat ? ` (${ctx.t("table.you")})` : "";
  const counts = ctx.t("counts", {
    hand: seat.hand_size,
    reserve: seat.reserve_size,
    clouds: seat.clouds,
  });
  return html(
    "section",
    {
      class: `rn-panel rn-seat${view.to_move === seatNo ? " to-move" : ""}`,
      "data-spot": `seat:${seatNo}`,
      style: `--piece:${look.fill};--piece-line:${look.line}`,
    },
    [
      html("div", { class: "rn-seat-head" }, [
        colourChip(seat.colour, ctx),
        html("strong", {}, [playerName(ctx, seatNo), you]),
        html("span", { class: "rn-score", title: ctx.t("score_title") }, [
          ctx.t("points", { n: seat.score }),
        ]),
      ]),
      playerBoardSvg(view, seatNo, ctx),
      html("p", { class: "rn-small" }, [counts]),
      tokenChips(seat, ctx),
    ],
  );
}

function standinNote(view, ctx) {
  const kind = boardKind(view);
  const names = [];
  for (const item of view.standins || []) {
    if (item.endsWith("board map")) {
      if (item === `${kind} board map`) names.push(ctx.t("standin.board_map"));
    } else if (item === "area tokens" && kind !== "base") {
      continue; // the Valley has no area tokens
    } else if (item.startsWith("animal names ")) {
      const animals = item.slice("animal names ".length).split(", ");
      names.push(
        ctx.t("standin.animal_names", {
          names: animals.map((a) => ctx.t(`animal.${a}`)).join(", "),
        }),
      );
    } else {
      names.push(ctx.t(`standin.${item.replace(/[^a-z]+/gi, "_")}`));
    }
  }
  return html("p", { class: "rn-standin" }, [
    html("strong", {}, [ctx.t("standin")]),
    ": ",
    names.join(" · "),
  ]);
}

function boardKind(view) {
  return (view.options && view.options.board) || "base";
}

// -- the module's contract ------------------------------------------------------------------

export function render(root, ctx) {
  const view = ctx.view;
  if (!view) return;
  const wrap = html("div", { class: "rn" });
  const tip = makeTip(wrap);
  const boardBox = html("div", { class: "rn-boardbox" }, [
    view.board.standin
      ? html("div", { class: "rn-standin-badge" }, [
          `${ctx.t("standin")}: ${ctx.t(`board.${boardKind(view)}`)}`,
        ])
      : null,
    boardSvg(view, ctx, tip),
    standinNote(view, ctx),
  ]);
  const side = html("div", { class: "rn-side" }, [
    prompt(view, ctx),
    handPanel(view, ctx),
    jokerTrack(view, ctx),
    ...view.seats.map((_, seatNo) => seatPanel(view, seatNo, ctx)),
  ]);
  wrap.prepend(boardBox, side);
  root.append(wrap);
}

export function path(choice) {
  switch (choice.kind) {
    case "place_domino":
      return [`domino:${choice.domino}`, `cell:${choice.first}`, `cell:${choice.second}`];
    case "discard_domino":
      return [`domino:${choice.domino}`, "button:discard"];
    case "place_mushroom":
      return [`cell:${choice.cell}`];
    case "skip_mushroom":
      return ["button:no_mushroom"];
    case "place_plant":
      return [`plant:${choice.neutral ? "neutral" : "own"}:${choice.plant}`, `cell:${choice.cell}`];
    case "skip_plant":
      return ["button:no_plant"];
    case "change_joker":
      return [`joker:${choice.animal}`];
    case "return_plant":
      return ["button:return", `cell:${choice.cell}`];
    case "end_turn":
      return ["button:end"];
    case "extra_turn":
      return ["button:extra_turn"];
    default:
      return [`button:${choice.kind}`];
  }
}

export function describe(event, ctx) {
  const t = ctx.t;
  switch (event.kind) {
    case "place_domino": {
      const [a, b] = event.animals;
      const [first, second] = event.cells;
      return (
        t("event.place_domino", { a: t(`animal.${a}`), b: t(`animal.${b}`), first, second }) +
        cloudsNote(ctx, event.clouds)
      );
    }
    case "discard":
      return event.domino
        ? t("event.discard_known", { dom: dominoText(event.domino, ctx) })
        : t("event.discard");
    case "draw":
      return event.domino
        ? t("event.draw_known", { dom: dominoText(event.domino, ctx) })
        : t("event.draw");
    case "mushroom":
      return t("event.mushroom", { cell: event.cell, area: event.area, size: event.size });
    case "plant":
      return (
        t("event.plant", {
          plant: plantName(ctx, event.plant, event.neutral),
          cell: event.cell,
          points: event.points,
        }) + cloudsNote(ctx, event.clouds)
      );
    case "area_scored":
      return areaScoredText(event, ctx);
    case "joker":
      return t("event.joker", { animal: t(`animal.${event.animal}`) });
    case "return_plant":
      return t("event.return_plant", {
        plant: plantName(ctx, event.plant, event.neutral),
        cell: event.cell,
      });
    case "extra_turn":
      return t("event.extra_turn");
    case "game_over": {
      const scores = event.result.scores.map(
        (points, seat) => `${playerName(ctx, seat)} ${points}`,
      );
      return t("event.game_over", { scores: scores.join(", ") });
    }
    default:
      return t("event.other", { kind: event.kind });
  }
}

function dominoText(id, ctx) {
  const [a, b] = dominoAnimals(id);
  return `${ctx.t(`animal.${a}`)} – ${ctx.t(`animal.${b}`)}`;
}

function areaScoredText(event, ctx) {
  const t = ctx.t;
  const points = Object.entries(event.points).map(([seat, p]) =>
    t("would_one", { name: playerName(ctx, Number(seat)), points: p }),
  );
  const who = points.length ? points.join(", ") : t("would_nobody");
  // At the end the unclosed areas' tokens go back to the box, which is no news.
  if (event.taker === null || event.taker === undefined)
    return t("event.area_final", { area: event.area, who });
  const token = t("event.token_to", { name: playerName(ctx, event.taker) });
  const back = event.back !== undefined ? t("event.token_back", { n: event.back }) : "";
  return `${t("event.area_scored", { area: event.area, who })}; ${token}${back}`;
}

// What a move carries onto the board, for the page to show it flying (motion.js): a domino's
// halves and a plant, from the seat's panel to their spaces.
export function motion(event) {
  const from = `seat:${event.seat}`;
  if (event.kind === "place_domino") return event.cells.map((cell) => ({ from, to: `cell:${cell}` }));
  if (event.kind === "plant") return [{ from, to: `cell:${event.cell}`, piece: "plant" }];
  return [];
}

export function spots(event) {
  switch (event.kind) {
    case "place_domino":
      return event.cells.map((cell) => `cell:${cell}`);
    case "mushroom":
      return [`cell:${event.cell}`, `area:${event.area}`];
    case "plant":
    case "return_plant":
      return [`cell:${event.cell}`];
    case "area_scored":
      return [`area:${event.area}`];
    case "joker":
      return [`joker:${event.animal}`];
    case "discard": // not "draw": every turn ends with one, and the panel would flash each time
    case "extra_turn":
      return event.seat === null || event.seat === undefined ? [] : [`seat:${event.seat}`];
    default:
      return [];
  }
}

export function scoring(ctx) {
  const result = ctx.result;
  if (!result) return null;
  const valley = ctx.view && ctx.view.options && ctx.view.options.board !== "base";
  const lines = [ctx.t(valley ? "scoring.valley" : "scoring.base")];
  for (const rule of result.tiebreak || []) {
    lines.push(
      ctx.t("scoring.tiebreak", { rule: ctx.t(`tiebreak.${rule.replace(/[^a-z]+/gi, "_")}`) }),
    );
  }
  return html(
    "div",
    { class: "rn-scoring" },
    lines.map((line) => html("p", {}, [line])),
  );
}

// The page draws names and log lines in the colour of the seat's plants (white plants get
// their outline colour: white text would not read on the page).
export function seatColour(seat) {
  const piece = PIECE[COLOURS[seat]];
  if (!piece) return null;
  return COLOURS[seat] === "white" ? piece.line : piece.fill;
}
