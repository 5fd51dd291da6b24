// Renature's pieces shown enlarged (js/magnify.js), each drawn as on the table at a larger size
// with its words: a space of the board (what lies there and its area's standing), a domino of
// the hand, an animal of the joker track, a player board's plants, an area token taken.

import { html, svg } from "../../js/draw.js";
import { animalDisc } from "./animals.js";
import { PLANT_VALUE, animalName, boardKind, dominoAnimals, plantName } from "./names.js";
import { areaToken, cloudShape, plantPiece } from "./pieces.js";
import { handDomino } from "./side.js";
import { areaTip } from "./tip.js";

const PICTURE = 96; // px of one enlarged piece
const DOMINO_SCALE = 2.5;

// `cell:<space>`, `domino:<id>`, `animal:<animal>`, `plants:<seat>:<own|neutral>:<plant>` or
// `token:<seat>:<index>`, as the table marks them.
export function magnify(what, ctx) {
  const [kind, ...rest] = what.split(":");
  switch (kind) {
    case "cell":
      return cellPanel(rest[0], ctx);
    case "domino":
      return dominoPanel(rest[0], ctx);
    case "animal":
      return animalPanel(rest[0], ctx);
    case "plants":
      return plantsPanel(Number(rest[0]), rest[1] === "neutral", rest[2], ctx);
    case "token":
      return tokenPanel(Number(rest[0]), Number(rest[1]), ctx);
    default:
      return null;
  }
}

function panel(parts) {
  return html("div", { class: "rn-magnified" }, parts.filter(Boolean));
}

// One piece drawn centred in a box from -20 to 20.
function picture(parts) {
  return svg(
    "svg",
    { viewBox: "-20 -20 40 40", width: PICTURE, height: PICTURE, class: "rn-magnified-piece" },
    parts,
  );
}

function piece(drawn, text) {
  return html("div", { class: "rn-magnified-row" }, [picture([drawn]), html("span", {}, [text])]);
}

function cellPanel(name, ctx) {
  const view = ctx.view;
  const board = view.board;
  const half = view.dominoes[name];
  const plant = view.plants[name];
  const clouds = view.clouds[name];
  const area = view.areas.find((a) => a.area === view.area_of[name]);
  const valley = boardKind(view) !== "base";
  const marks = [];
  if ((board.start || []).includes(name)) marks.push(ctx.t(valley ? "pond" : "start_space"));
  if ((board.stumps || []).includes(name)) marks.push(ctx.t("stump"));
  const parts = [
    half ? piece(animalDisc(half.animal, 0, 0, 18, ctx), animalName(ctx, half.animal)) : null,
    plant
      ? piece(
          plantPiece(plant.plant, plant.colour, 0, 0, 36, ctx),
          `${plantName(ctx, plant.plant, plant.colour === "neutral")} · ${ctx.t(`colour.${plant.colour}`)}`,
        )
      : null,
    clouds ? piece(cloudShape(0, 0, 34), ctx.t("clouds_here", { n: clouds })) : null,
    ...marks.map((text) => html("p", {}, [text])),
  ].filter(Boolean);
  if (area) parts.push(html("div", { class: "rn-magnified-area" }, areaTip(area, view, ctx)));
  if (!parts.length) return null;
  return panel([html("strong", {}, [ctx.t("magnify.space", { cell: name })]), ...parts]);
}

function dominoPanel(id, ctx) {
  const animals = dominoAnimals(id);
  return panel([
    handDomino({ domino: id, animals }, ctx, DOMINO_SCALE),
    html("p", {}, [animals.map((animal) => animalName(ctx, animal)).join(" – ")]),
  ]);
}

function animalPanel(animal, ctx) {
  const joker = ctx.view.joker === animal;
  return panel([
    piece(animalDisc(animal, 0, 0, 18, ctx), animalName(ctx, animal)),
    joker ? html("p", {}, [ctx.t("magnify.joker_now")]) : null,
    html("p", { class: "rn-small" }, [ctx.t("joker_hint")]),
  ]);
}

function plantsPanel(seatNo, neutral, plant, ctx) {
  const seat = ctx.view.seats[seatNo];
  if (!seat) return null;
  const key = neutral ? `neutral ${plant}` : plant;
  const count = `${seat.supply[key] || 0} / ${seat.capacity[key] || 0}`;
  return panel([
    piece(
      plantPiece(plant, neutral ? "neutral" : seat.colour, 0, 0, 36, ctx),
      `${plantName(ctx, plant, neutral)}: ${count}`,
    ),
    html("p", {}, [ctx.t("magnify.plant_value", { n: PLANT_VALUE[plant] })]),
  ]);
}

function tokenPanel(seatNo, index, ctx) {
  const seat = ctx.view.seats[seatNo];
  const token = seat && seat.tokens[index];
  if (!token) return null;
  const back = (seat.token_backs || [])[index];
  return panel([
    piece(
      areaToken(token, 0, 0, ctx),
      ctx.t("token_title", { main: token.main, minor: token.minor }),
    ),
    back === undefined ? null : html("p", {}, [ctx.t("magnify.token_back", { n: back })]),
  ]);
}
