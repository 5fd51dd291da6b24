// The end of a game: what it did to each seat's rating, and playing again.

import { api } from "./api.js";
import { html } from "./draw.js";
import { botName, t } from "./i18n.js";
import { go, notice, problem, session } from "./session.js";

// `info`: the table as GET /api/tables/{id} has it, finished.
export function afterGame(info) {
  const rows = info.seats.filter((seat) => seat.rating).map(ratingRow);
  return html("section", { class: "card after-game" }, [
    html("h2", {}, [t("after.title")]),
    rows.length ? html("ul", { class: "rating-changes" }, rows) : html("p", { class: "hint" }, [t("after.unrated")]),
    coachPart(info),
    rematchPart(info),
  ]);
}

// Once the coach has analysed the game: each person's accuracy and biggest mistake, with a
// link into the replay at that move; until then, how far it has come, or a way to ask.
function coachPart(info) {
  const part = html("div", { class: "after-analysis" });
  const look = async () => {
    if (info.status !== "finished") return;
    let state;
    try {
      state = await api("GET", `/api/tables/${info.id}/analysis`);
    } catch {
      return; // the rest of the panel stands without it
    }
    part.replaceChildren(...coachLines(info, state));
    if (["queued", "running"].includes(state.status)) setTimeout(() => part.isConnected && look(), 3000);
  };
  look();
  return part;
}

function coachLines(info, state) {
  const replay = `#/replay/${info.id}`;
  if (state.status === "none" || state.status === "failed") {
    if (!state.enabled || !session.me) return [];
    const ask = html("button", { type: "button", class: "ask-analysis" }, [t("analysis.ask")]);
    ask.addEventListener("click", async () => {
      ask.disabled = true;
      try {
        await api("POST", `/api/tables/${info.id}/analysis`);
        go(replay);
      } catch (error) {
        ask.disabled = false;
        notice(problem(error));
      }
    });
    return [html("p", {}, [ask])];
  }
  if (state.status !== "done") {
    return [html("p", { class: "hint" }, [t("analysis.running", { done: state.done_moves, total: state.total_moves })])];
  }
  const people = info.seats.filter((seat) => seat.person);
  const lines = people.map((seat) => {
    const found = state.analysis.seats[seat.seat];
    const worst = found.swings[0];
    const decision = worst && state.analysis.decisions.find((d) => d.move === worst.move);
    const mistake = decision && decision.mark !== "best" && decision.mark !== "good"
      ? [" · ", html("a", { href: `${replay}/${decision.move}`, class: "worst-move" }, [
          t("after.worst", { move: decision.move, mark: t(`analysis.mark.${decision.mark}`) }),
        ])]
      : [];
    return html("li", { "data-seat": seat.seat }, [
      html("b", {}, [seat.person]),
      " ",
      t("analysis.accuracy", { accuracy: found.accuracy.toFixed(1) }),
      ...mistake,
    ]);
  });
  return [html("h3", {}, [t("analysis.title")]), html("ul", { class: "accuracy" }, lines), html("a", { href: replay }, [t("after.see_analysis")])];
}

function ratingRow(seat) {
  // Whole numbers throughout, the change the difference of the two shown (1484 → 1470 is −14).
  const before = Math.round(seat.rating.before);
  const after = Math.round(seat.rating.after);
  const change = after - before;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  const name = seat.person || botName(seat.bot);
  return html("li", { "data-seat": seat.seat }, [
    html("b", {}, [name]),
    " ",
    t("after.rating", { before, after }),
    " ",
    html("span", { class: change > 0 ? "gain" : change < 0 ? "loss" : "even" }, [`(${sign}${Math.abs(change)})`]),
  ]);
}

const seated = (info) => info.your_seat !== null && info.your_seat !== undefined;
const rematchOffered = (info) => info.rematch !== null && info.rematch !== undefined;

function rematchPart(info) {
  if (!seated(info)) return null; // a spectator
  const offered = rematchOffered(info);
  return html("p", { class: "rematch-offer" }, [offered ? t("after.offered") + " " : "", rematchButton(info, offered)]);
}

// A rematch offered to this person, at the top of the table where it is seen (the after-game
// card at the bottom has the same button), and said to a screen reader as it comes.
export function rematchBanner(info) {
  if (!rematchOffered(info) || !seated(info)) return null;
  return html("p", { class: "rematch-banner", role: "status" }, [t("after.offered") + " ", rematchButton(info, true)]);
}

function rematchButton(info, offered) {
  const label = offered ? "after.join_rematch" : "after.rematch";
  const button = html("button", { type: "button", class: "rematch primary" }, [t(label)]);
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
  return button;
}
