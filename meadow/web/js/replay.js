// Step through a finished game, as everyone may now see it.

import { api, keyed } from "./api.js";
import * as draw from "./draw.js";
import { gameT, t } from "./i18n.js";
import { problem, session } from "./session.js";
import { lightKeys, loadModule, logLine, resultPanel, seatName } from "./board.js";
import { choicesOf, named } from "./choose.js";
import { ChatBox } from "./chat.js";
import { afterGame } from "./aftergame.js";
import { rulesLink } from "./rules.js";
import { magnifyOn } from "./magnify.js";
import { giveRoles } from "./keyboard.js";
import { AnalysisPanel, markBadge } from "./analysis.js";

const { html } = draw;

// `at`: the step to open at (the end when null): the move a link points to.
export async function replayPage(id, at = null) {
  let info;
  let first;
  let said;
  let log;
  try {
    info = await api("GET", `/api/tables/${id}`);
    first = await api("GET", `/api/tables/${id}/replay/0`);
    said = await api("GET", `/api/tables/${id}/chat`);
    log = (await api("GET", `/api/tables/${id}/replay`)).moves;
  } catch (error) {
    return { nodes: [html("p", { class: "card" }, [problem(error)])] };
  }
  const module = await loadModule(info.game);
  const root = html("div", { class: `table replay game-${info.game}`, "data-table": id });
  const players = info.seats.map((s) => ({ name: s.person, bot: s.bot }));
  const last = first.moves;
  let step = at === null ? last : Math.max(0, Math.min(last, at));
  // What was said at the table, up to the step shown (and after the game, at its end).
  const chat = new ChatBox(id, { upTo: step });
  chat.setLines(said);
  // The coach's analysis, once there is one: a mark on each judged move's line.
  let analysis = null;
  const judged = (number) => (analysis ? analysis.decisions.find((d) => d.move === number) : null);

  // `decision`: a judged move, shown as its seat saw the board before it, the better move on it.
  const show = async (wanted, decision = null) => {
    step = Math.max(0, Math.min(last, wanted));
    const lens = decision ? `?seat=${decision.seat}` : "";
    let shown;
    try {
      shown = await api("GET", `/api/tables/${id}/replay/${step}${lens}`);
    } catch (error) {
      root.replaceChildren(html("p", { class: "card" }, [problem(error)]));
      return;
    }
    const ctx = {
      game: info.game,
      view: shown.view,
      seat: decision ? decision.seat : null,
      players,
      choices: decision ? choicesOf(shown) : [],
      result: shown.result,
      t: gameT(info.game),
      settings: session.settings,
      draw,
    };
    ctx.seatName = (seat) => seatName(ctx, seat);
    const board = html("div", { class: "board" });
    module.render(board, ctx);
    magnifyOn(board, module, ctx);
    giveRoles(board);
    // The log so far, the latest first, as at the table.
    const lines = log.slice(0, step).reverse().map((move) => {
      const line = logLine(module, ctx, move, board);
      if (judged(move.number)) line.append(markBadge(judged(move.number)));
      return line;
    });
    const better = decision ? drawBetter(board, module, ctx, decision) : null;
    root.dataset.step = step;
    root.dataset.lens = decision ? decision.move : "";
    coach.showStep(step);
    chat.showUpTo(step === last ? Infinity : step);
    root.replaceChildren(
      html("header", { class: "table-head" }, [
        html("h1", {}, [t("replay.title", { game: t(`${info.game}.title`) })]),
        rulesLink(info.game, id),
      ]),
      controls(step, last, show),
      ...(better ? [better] : []), // replaceChildren would write a null as the word "null"
      html("div", { class: "play" }, [
        html("div", { class: "board-frame" }, [board]),
        html("aside", { class: "side" }, [
          lines.length
            ? html("ol", { class: "log", reversed: true, tabindex: 0, "aria-label": t("table.log") }, lines)
            : html("p", { class: "hint" }, [t("replay.start")]),
          html("a", { href: keyed(`/api/tables/${id}/record`), download: `meadow-${id}.json` }, [t("replay.record")]),
          chat.root,
        ]),
      ]),
      coach.root,
      ...(shown.result ? [afterGame(info), resultPanel(module, ctx)] : []),
    );
  };
  const coach = new AnalysisPanel(id, (seat) => seatName({ players }, seat), {
    onPick: (decision) => show(decision.move - 1, decision),
    onLoaded: (found) => {
      const fresh = !analysis;
      analysis = found;
      if (fresh) show(step);
    },
  });
  const keys = (event) => {
    if (event.key === "ArrowRight") show(step + 1);
    if (event.key === "ArrowLeft") show(step - 1);
  };
  document.addEventListener("keydown", keys);
  await show(step);
  await coach.start();
  const leave = () => {
    document.removeEventListener("keydown", keys);
    coach.stop();
  };
  return { nodes: [root], leave };
}

// The board before a judged move, as its seat saw it: the move played and the better move
// found drawn on it (each by the keys a click would follow), and a line saying which is which.
function drawBetter(board, module, ctx, decision) {
  const keysOf = (text) => {
    const choice = named(ctx.choices, text);
    return choice ? module.path(choice, ctx) : [];
  };
  lightKeys(board, keysOf(decision.played), "played-move");
  lightKeys(board, keysOf(decision.best), "better-move");
  const words = decision.played === decision.best
    ? t("analysis.was_best", { move: decision.move, played: decision.played })
    : t("analysis.better", {
        move: decision.move,
        mark: t(`analysis.mark.${decision.mark}`),
        played: decision.played,
        best: decision.best,
        loss: decision.loss.toFixed(1),
      });
  return html("p", { class: "card better-line", "data-move": decision.move }, [
    html("span", { class: "legend played-move" }, [t("analysis.played")]),
    " ",
    html("span", { class: "legend better-move" }, [t("analysis.best")]),
    " ",
    words,
  ]);
}

function controls(step, last, show) {
  const button = (key, to) =>
    html("button", { type: "button", class: `step-${key}`, disabled: to === step || to < 0 || to > last, onclick: () => show(to) }, [t(`replay.${key}`)]);
  const slider = html("input", { type: "range", min: 0, max: last, value: step, "aria-label": t("replay.step_label") });
  slider.addEventListener("change", () => show(Number(slider.value)));
  return html("div", { class: "replay-controls" }, [
    button("first", 0),
    button("back", step - 1),
    html("span", { class: "step" }, [t("replay.step", { step, last })]),
    button("next", step + 1),
    button("last", last),
    slider,
  ]);
}
