// Renature's move log: each event's line, the spots it names and what it carries.

import { dominoAnimals, plantName, playerName } from "./names.js";

function cloudsNote(ctx, n) {
  return n ? ctx.t("event.clouds", { n }) : "";
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
          n: event.points,
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
    t("would_score", { name: playerName(ctx, Number(seat)), points: p }),
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
