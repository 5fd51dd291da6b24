// Renature's board, layer by layer: ground, areas, landmarks, dominoes, plants, clouds,
// area tokens, labels, the spots the log lights and the spaces one clicks.

import { svg } from "../../js/draw.js";
import { animalDisc } from "./animals.js";
import { C, LAND, MEADOW, PAD, WATER, cellName, cellXY, colRow } from "./names.js";
import { areaToken, cloudShape, mushroom, plantPiece, star } from "./pieces.js";

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

// The spaces one clicks: transparent, on top. One with something on it, or in an area, shows
// it enlarged with its area's standing (magnify.js) while the mouse rests on it or a finger
// holds it.
function hitLayer(view, facts) {
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
    const things = [view.area_of[name], view.dominoes[name], view.plants[name], view.clouds[name]];
    if (things.some(Boolean) || facts.start.has(name) || facts.stumps.has(name)) {
      rect.dataset.magnify = `cell:${name}`;
    }
    layer.append(rect);
  });
  return layer;
}

export function boardSvg(view, ctx) {
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
      hitLayer(view, facts),
    ],
  );
}
