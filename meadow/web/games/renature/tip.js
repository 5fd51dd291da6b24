// The area tip: what an area holds and would score, shown with a space of the board enlarged
// (magnify.js).

import { html } from "../../js/draw.js";
import { playerName, seatOfColour } from "./names.js";
import { colourChip } from "./pieces.js";

function colourLabel(colour, ctx) {
  const seat = seatOfColour(colour);
  const name = ctx.t(`colour.${colour}`);
  return seat === null || !ctx.players || !ctx.players[seat] ? name : playerName(ctx, seat);
}

export function areaTip(area, view, ctx) {
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
    ctx.t("would_score", { name: playerName(ctx, Number(seat)), points }),
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
