// A guided first game on the real table page: at each of the learner's decisions the guide
// lights the one thing to click next (the written move, key by key) and says why, each note
// where the game first shows what it teaches; once every note is told it offers to play the
// rest, and at the end it explains the final scoring. The other seat is the guide bot,
// which plays the written moves (server: meadow/server/routers/learn.py).

import { api } from "./api.js";
import { html } from "./draw.js";
import { t } from "./i18n.js";
import { go, notice, problem, session } from "./session.js";
import { rememberWhereTo } from "./account.js";
import { lightKeys } from "./board.js";
import { named } from "./choose.js";

export const GUIDE_BOT = "guide";
const AUTOPLAY_MS = 250;

// A "Learn to play" button for one game: a guided table, new or the one left unfinished.
export function learnButton(game) {
  const button = html("button", { type: "button", class: "learn", "data-game": game }, [t("learn.button", { game: t(`${game}.title`) })]);
  button.addEventListener("click", async () => {
    if (!session.me) {
      rememberWhereTo();
      go("#/signup");
      return;
    }
    button.disabled = true;
    try {
      const { id } = await api("POST", `/api/learn/${game}`);
      go(`#/table/${id}`);
    } catch (error) {
      button.disabled = false;
      notice(problem(error));
    }
  });
  return button;
}

// The lobby's card: one button a game.
export function learnCard(games) {
  return html("section", { class: "card learn-card" }, [
    html("h2", {}, [t("learn.title")]),
    html("p", { class: "hint" }, [t("learn.about")]),
    html("p", { class: "learn-buttons" }, games.map((game) => learnButton(game.id))),
  ]);
}

export class Guide {
  // `table`: the table page (its position, picked keys, module and send).
  constructor(table) {
    this.table = table;
    this.script = null;
    this.autoplay = false;
    this.timer = null;
    this.lastNote = Infinity;
    api("GET", `/api/learn/${table.info.game}`).then((script) => {
      this.script = script;
      this.lastNote = Math.max(...Object.keys(script.notes).map(Number));
      table.draw();
    });
  }

  // Is the page a learner's guided game?
  static wanted(info) {
    const other = info.seats.find((seat) => seat.seat !== info.your_seat);
    return info.your_seat === 0 && Boolean(other && other.bot === GUIDE_BOT);
  }

  // The written move for the decision at hand, when the game still follows the script.
  written() {
    const position = this.table.position;
    if (!this.script || !position || position.over) return null;
    return named(position.choices, this.script.moves[String(position.move + 1)]);
  }

  // The key to click next: the written move's next key, when what is picked so far is the
  // start of its path.
  target(ctx) {
    const choice = this.written();
    if (!choice) return null;
    const path = this.table.module.path(choice, ctx);
    const picked = this.table.picked;
    if (!picked.every((key, i) => path[i] === key)) return null;
    return path[picked.length] || null;
  }

  // Light the target on the board (the action bar lights its own button).
  mark(board, ctx, myTurn) {
    const key = myTurn ? this.target(ctx) : null;
    if (key) lightKeys(board, [key], "guide-target");
  }

  // The guide's words for the moment, and its buttons.
  box(ctx, myTurn) {
    const position = this.table.position;
    if (!this.script || !position) return null;
    const say = (key) => html("p", {}, [ctx.t(key)]);
    const parts = [html("h2", {}, [t("guide.title")])];
    if (position.over) {
      parts.push(html("p", { class: "learn-end" }, [t("guide.end")]), html("p", {}, [t("guide.final")]));
      return html("section", { class: "guide-box" }, parts);
    }
    if (!myTurn) {
      parts.push(html("p", { class: "hint" }, [t("guide.their_turn")]));
      return html("section", { class: "guide-box" }, parts);
    }
    const number = position.move + 1;
    const notes = this.script.notes[String(number)] || [];
    parts.push(...notes.map(say));
    if (!this.written()) parts.push(html("p", {}, [t("guide.left_script")]));
    else if (!this.target(ctx)) parts.push(html("p", {}, [t("guide.go_back")]));
    else parts.push(html("p", { class: "guide-click" }, [t("guide.click")]));
    if (number > this.lastNote && this.written() && !this.autoplay) {
      parts.push(html("button", { type: "button", class: "play-rest", onclick: () => this.playRest() }, [t("guide.play_rest")]));
    }
    return html("section", { class: "guide-box", "data-move": number }, parts);
  }

  playRest() {
    this.autoplay = true;
    this.table.player.hurry = true;
    this.table.draw();
  }

  // After each drawing: while playing the rest, the written move goes by itself.
  afterDraw(myTurn) {
    if (!this.autoplay || !myTurn || this.timer) return;
    const choice = this.written();
    if (!choice) return;
    const position = this.table.position;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.table.position !== position) return; // the game moved on meanwhile
      this.table.send({ kind: "move", move: position.move + 1, action: choice.text });
    }, AUTOPLAY_MS);
  }
}
