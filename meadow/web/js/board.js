// What the live table and the replay share: a game's module, its log lines and the result.

import { html, seatColour as drawSeatColour, seatSymbol, styleSheet } from "./draw.js";
import { botName, has, t } from "./i18n.js";

const modules = {};

// A game's module, once its style sheet has loaded too. The promise is what is kept, so a
// second page asking while the first load is under way waits for the same one.
export function loadModule(game) {
  if (!modules[game]) {
    modules[game] = styledModule(game).catch((error) => {
      delete modules[game]; // tried again next time, not failed for good
      throw error;
    });
  }
  return modules[game];
}

async function styledModule(game) {
  const module = await import(`/games/${game}.js`);
  const style = await fetch(`/games/${game}.css`, { method: "HEAD" });
  if (style.ok) await styleSheet(`/games/${game}.css`);
  return module;
}

// A seat's colour on the page: the game's own pieces' colour where it has one (Renature's
// orange, blue, black and white), else the page's.
export function seatColour(module, seat) {
  return (module.seatColour && module.seatColour(seat)) || drawSeatColour(seat);
}

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return t("log.nobody");
  const player = ctx.players[seat];
  if (!player) return t("log.seat", { n: seat + 1 });
  return player.name || (player.bot ? botName(player.bot) : t("log.seat", { n: seat + 1 }));
}

// What a move did, in words: a line per event that says something (none when it showed
// nothing), after the module has gathered what is routine into one (`summarise`: Mystic
// Vale's Prep). The end of a game is said the same way in every game, naming who won.
function eventLines(module, ctx, line) {
  const words = (event) => (event.kind === "game_over" ? gameOverWords(event.result, ctx) : module.describe(event, ctx));
  const events = module.summarise ? module.summarise(line.events) : line.events;
  return events.map(words).filter(Boolean);
}

// The same in one sentence, for the live region.
export function moveWords(module, ctx, line) {
  return eventLines(module, ctx, line).join(" · ");
}

function gameOverWords(result, ctx) {
  const first = result.ranking[0];
  const points = result.scores[first[0]];
  if (first.length === 1) return t("log.winner", { player: seatName(ctx, first[0]), points });
  return t("log.shared", { players: first.map((seat) => seatName(ctx, seat)).join(", "), points });
}

// One entry of the move log, a line for each step of the move (a Mystic Vale harvest is
// many); the mouse over it lights the spots its events name.
export function logLine(module, ctx, line, board) {
  const steps = eventLines(module, ctx, line).map((text) => html("span", { class: "step" }, [text]));
  const item = html(
    "li",
    {
      class: line.undone ? "undone" : null,
      value: line.number,
      "data-number": line.number,
      style: line.seat === null ? null : `--seat: ${seatColour(module, line.seat)}`,
    },
    [
      html("span", { class: "who" }, [seatWho(ctx, line.seat)]),
      html("span", { class: "what" }, steps.length ? steps : [t("log.nothing_shown")]),
      // The server notes one thing on a move: that a computer took the seat over (its
      // sentence, kept in the record, is English; the page says it in its own words).
      line.note ? html("span", { class: "note" }, [t("log.took_over")]) : null,
    ],
  );
  lightOnHover(item, lineSpots(module, ctx, line), board);
  return item;
}

// Who made a move, as the log says it: the seat's symbol and name (nothing for the game's own).
export function seatWho(ctx, seat) {
  return seat === null ? "" : `${seatSymbol(seat)} ${seatName(ctx, seat)}`;
}

// The spots a move's events name, which its line lights on the board.
export function lineSpots(module, ctx, line) {
  return line.events.flatMap((event) => module.spots(event, ctx) || []);
}

// The spots a line of the log (or a folded turn, all its moves') names, lit on the board
// while the mouse is over it.
export function lightOnHover(item, spots, board) {
  const light = (on) => {
    for (const spot of spots) {
      for (const node of board.querySelectorAll(`[data-spot="${CSS.escape(spot)}"]`)) {
        node.classList.toggle("spotlight", on);
      }
    }
  };
  item.addEventListener("mouseenter", () => light(true));
  item.addEventListener("mouseleave", () => light(false));
}

// The final scores: place, seat, points and the game's own breakdown.
export function resultPanel(module, ctx) {
  const result = ctx.result;
  const keys = [...new Set(result.breakdown.flatMap((b) => Object.keys(b)))];
  const label = (key) => (has(`score.${key}`, ctx.game) ? ctx.t(`score.${key}`) : key);
  const head = html("tr", {}, [
    html("th", {}, [t("result.place")]),
    html("th", {}, [t("result.player")]),
    ...keys.map((key) => html("th", {}, [label(key)])),
    html("th", {}, [t("result.total")]),
  ]);
  const order = result.ranking.flat();
  const rows = order.map((seat) =>
    html("tr", { "data-seat": seat, class: seat === ctx.seat ? "mine" : null }, [
      html("td", {}, [String(result.places[seat])]),
      html("td", {}, [seatWho(ctx, seat)]),
      ...keys.map((key) => html("td", {}, [String(result.breakdown[seat][key] ?? "")])),
      html("td", { class: "total" }, [String(result.scores[seat])]),
    ]),
  );
  const details = module.scoring ? module.scoring(ctx) : null;
  return html("section", { class: "result card" }, [
    html("h2", {}, [t("result.title")]),
    html("table", { class: "grid scores" }, [head, ...rows]),
    details,
  ]);
}

// Give each board node clicked by one of `keys` the class `cls`: a move drawn on the board
// (the hinted one, the guide's next click, a judged move and the better one).
export function lightKeys(board, keys, cls) {
  for (const key of keys) {
    for (const node of board.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) node.classList.add(cls);
  }
}
