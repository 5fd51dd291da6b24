// Renature's table: the 15 x 15 board (brook or meadow, areas, dominoes, plants, clouds,
// area tokens), the joker track, the player's hand and every player board. What it draws
// lives in renature/: names.js (the game's facts and names), animals.js (the animal glyphs),
// pieces.js (plants, clouds, stars, mushrooms, area tokens), board.js (the board's layers),
// tip.js (the area tip), side.js (prompt, hand, joker track, player boards), magnify.js (a
// piece enlarged) and log.js (the move log's lines, spots and motion).
//
// Clicks (see README.md):
//   place a domino      domino:<id>, cell:<first animal's space>, cell:<second's>
//   return it to box    domino:<id>, button:discard
//   mushroom (Valley)   cell:<meadow space>            or button:no_mushroom
//   plant               plant:<own|neutral>:<type>, cell:<space>   or button:no_plant
//   change the joker    joker:<animal>
//   take a plant back   button:return, cell:<space>
//   end / extra turn    button:end, button:extra_turn

import { html } from "../js/draw.js";
import { boardSvg } from "./renature/board.js";
import { COLOURS, PIECE, boardKind } from "./renature/names.js";
import { handPanel, jokerTrack, prompt, seatPanel, standinNote } from "./renature/side.js";

export function render(root, ctx) {
  const view = ctx.view;
  if (!view) return;
  const wrap = html("div", { class: "rn" });
  const boardBox = html("div", { class: "rn-boardbox" }, [
    view.board.standin
      ? html("div", { class: "rn-standin-badge" }, [
          `${ctx.t("standin")}: ${ctx.t(`board.${boardKind(view)}`)}`,
        ])
      : null,
    boardSvg(view, ctx),
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

export { describe, motion, spots } from "./renature/log.js";
export { magnify } from "./renature/magnify.js";
