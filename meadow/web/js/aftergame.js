// The end of a game: what it did to each seat's rating, and playing again.

import { api } from "./api.js";
import { html } from "./draw.js";
import { botName, t } from "./i18n.js";
import { go, notice, problem } from "./session.js";

// `info`: the table as GET /api/tables/{id} has it, finished.
export function afterGame(info) {
  const rows = info.seats.filter((seat) => seat.rating).map(ratingRow);
  return html("section", { class: "card after-game" }, [
    html("h2", {}, [t("after.title")]),
    rows.length ? html("ul", { class: "rating-changes" }, rows) : html("p", { class: "hint" }, [t("after.unrated")]),
    rematchPart(info),
  ]);
}

function ratingRow(seat) {
  const { before, after } = seat.rating;
  const change = Math.round((after - before) * 10) / 10;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  const name = seat.person || botName(seat.bot);
  return html("li", { "data-seat": seat.seat }, [
    html("b", {}, [name]),
    " ",
    t("after.rating", { before: Math.round(before), after: Math.round(after) }),
    " ",
    html("span", { class: change > 0 ? "gain" : change < 0 ? "loss" : "even" }, [`(${sign}${Math.abs(change)})`]),
  ]);
}

function rematchPart(info) {
  if (info.your_seat === null || info.your_seat === undefined) return null; // a spectator
  const offered = info.rematch !== null && info.rematch !== undefined;
  const label = offered ? "after.join_rematch" : "after.rematch";
  const button = html("button", { type: "button", class: "rematch" }, [t(label)]);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const { id } = await api("POST", `/api/tables/${info.id}/rematch`);
      go(`#/table/${id}`);
    } catch (error) {
      button.disabled = false;
      notice(problem(error));
    }
  });
  return html("p", { class: "rematch-offer" }, [offered ? t("after.offered") + " " : "", button]);
}
