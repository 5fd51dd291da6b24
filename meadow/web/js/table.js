// A table: the waiting room before the start, then the game as this seat sees it, live.

import { Guide } from "./guide.js";
import { api, socketUrl } from "./api.js";
import * as draw from "./draw.js";
import { botName, gameT, t } from "./i18n.js";
import { announce, go, notice, problem, session } from "./session.js";
import { choicesOf, chosen, named, nextKeys, planPaths } from "./choose.js";
import { rememberWhereTo, seatWanted } from "./account.js";
import { lightKeys, lightOnHover, lineSpots, resultPanel, logLine, loadModule, moveWords, seatColour, seatName, seatWho } from "./board.js";
import { TurnWatch } from "./alerts.js";
import { liveChat } from "./chat.js";
import { afterGame, rematchBanner } from "./aftergame.js";
import { rulesLink } from "./rules.js";
import { MovePlayer, animate, snapshot } from "./motion.js";
import { magnifyOn } from "./magnify.js";
import { BoardKeys } from "./keyboard.js";
import { PatchRefused, patched } from "./patch.js";

// The server's close codes that carry a reason for the person (meadow/server/routers/sockets.py).
const ENDED = 4403;
const TOO_MANY = 4429;

const { html } = draw;
const THUMB = 44; // px: the least a target should measure on a phone

export async function tablePage(id) {
  let info;
  try {
    info = await api("GET", `/api/tables/${id}`);
  } catch (error) {
    return { nodes: [html("p", { class: "card" }, [problem(error)])] };
  }
  if (info.status === "finished") {
    go(`#/replay/${id}`);
    return { nodes: [] };
  }
  if (info.status === "open" && info.your_seat === null && seatWanted()) {
    // Back from signing up to take a seat here: it is taken, not asked for again.
    try {
      await api("POST", `/api/tables/${id}/join`);
      info = await api("GET", `/api/tables/${id}`);
    } catch (error) {
      notice(problem(error));
    }
  }
  const table = new LiveTable(info, await loadModule(info.game));
  return { nodes: [table.root], leave: () => table.close() };
}

class LiveTable {
  constructor(info, module) {
    this.info = info;
    this.module = module;
    this.seat = info.your_seat;
    this.lines = []; // the move log as this seat may read it
    this.position = null;
    // The last view heard and its move number: what the next move's patch applies to.
    this.known = null;
    this.patches = 0; // how many were applied (the browser tests look)
    this.picked = [];
    this.planned = [];
    this.fresh = [];
    this.hint = null; // the coach's move for this seat, at a table that allows hints
    this.closed = false;
    this.retries = 0;
    // The clock as far as this page can tell: when the current decision began, and each
    // seat's time used before it (the server keeps the real one and acts on it).
    this.turnStarted = Date.parse(info.clock.turn_since);
    this.used = info.seats.map((s) => s.used_ms);
    this.ticking = setInterval(() => this.tick(), 1000);
    this.root = html("div", { class: `table game-${info.game}`, "data-table": info.id });
    this.root.live = this; // what the page holds, for the browser tests to compare
    // A turn alert in a hidden tab, and a computer seat's "thinking…" mark (alerts.js).
    const table = { id: info.id, game: info.game, seat: this.seat };
    this.watch = new TurnWatch(this.root, table, () => this.info.seats);
    this.chat = liveChat(info.id); // kept through every redraw, and the start
    // Other seats' moves are shown one at a time; `heard` is the last line received,
    // shown or still waiting its turn.
    this.player = new MovePlayer((message, how) => this.show(message, how));
    this.heard = 0;
    this.guide = Guide.wanted(info) ? new Guide(this) : null; // a guided first game
    this.openTurns = new Set(); // folded turns of the log opened again, by their first move
    this.keys = new BoardKeys(() => this.stepBack());
    this.keys.watch(this.root);
    this.draw();
    this.connect(0);
  }

  close() {
    this.closed = true;
    clearInterval(this.ticking);
    this.watch.stop();
    if (this.socket) this.socket.close();
    banner(false);
  }

  // -- the connection --------------------------------------------------------------------

  connect(since) {
    const socket = new WebSocket(socketUrl(`/api/tables/${this.info.id}/ws?since=${since}`));
    this.socket = socket;
    socket.onopen = () => {
      this.retries = 0;
      banner(false);
    };
    socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (this.closed || socket !== this.socket) return;
      // Closed on purpose (a session ended, too many sockets open): say why, not only
      // "reconnecting", and do not hurry back to a cap.
      const told = event.code === ENDED || event.code === TOO_MANY ? event.reason : "";
      banner(true, told);
      const backoff = Math.min(8000, 500 * 2 ** this.retries++);
      const wait = event.code === TOO_MANY ? 8000 : backoff;
      setTimeout(() => !this.closed && this.connect(this.lastNumber()), wait);
    };
  }

  // The page of this table drawn afresh (its seats, its view), unless the person has left it.
  drawnAgain() {
    if (!this.closed) go(`#/table/${this.info.id}`);
  }

  lastNumber() {
    return this.lines.length ? this.lines[this.lines.length - 1].number : 0;
  }

  receive(message) {
    if (this.closed || !this.reach(message)) return; // a page left hears no more
    if (message.to_move !== undefined) this.watch.heard(message); // as it arrives, shown or not
    if (message.kind === "sync") this.onSync(message);
    else if (message.kind === "move") this.onMove(message);
    else if (message.kind === "undo") this.onUndo(message);
    else if (message.kind === "seat") this.refreshSeats();
    else if (message.kind === "chat") this.chat.add(message);
    else if (message.kind === "chat_hidden") this.chat.remove(message.id);
    else if (message.kind === "error") this.refused(refusal(message.status, message.error));
  }

  // A sync or an undo carries the view whole; a move carries it whole or, once the page
  // holds the view of the move before, as its patch, applied here as it arrives, so that
  // each message waiting to be shown holds its own whole view. A patch that does not
  // follow the view held (a move number skipped, a path the view lacks) is never drawn:
  // the page reads the present afresh. False: the message is not to be used.
  reach(message) {
    const old = message.kind === "move" && this.known && message.move <= this.known.move;
    if (old) return false; // heard already: what the page holds is newer
    if (message.view !== undefined && message.move !== undefined) {
      this.known = { move: message.move, view: message.view };
      return true;
    }
    if (message.patch === undefined) return true;
    try {
      if (!this.known || message.move !== this.known.move + 1) throw new PatchRefused("a move missed");
      message.view = patched(this.known.view, message.patch);
    } catch (error) {
      if (!(error instanceof PatchRefused)) throw error;
      this.resync();
      return false;
    }
    delete message.patch;
    this.known = { move: message.move, view: message.view };
    this.patches += 1;
    return true;
  }

  // A new socket: its sync brings the present, whole. What the old one still had to say
  // is not heard.
  resync() {
    this.known = null;
    const old = this.socket;
    if (old) {
      old.onmessage = null;
      old.onclose = null;
      old.close();
    }
    this.connect(this.lastNumber());
  }

  onSync(message) {
    if (message.chat) this.chat.setLines(message.chat);
    if (message.status === "finished") {
      // The end, or a rematch offered: the ratings and the offer are in the table's info.
      this.absorb(message);
      this.refreshSeats();
      return;
    }
    if (message.status !== this.info.status) {
      // The table started (or ended) since the page was drawn: seats and view change.
      this.drawnAgain();
      return;
    }
    if (message.status === "open") {
      // Someone took or gave up a seat: the waiting room shows it (and the Start button).
      this.refreshSeats();
      return;
    }
    this.absorb(message);
    this.draw();
  }

  absorb(sync) {
    // A resync brings the present: moves still waiting to be shown are in it.
    this.player.skip();
    const known = this.lastNumber();
    for (const line of sync.moves) if (line.number > known) this.addLine(line);
    this.heard = Math.max(this.heard, this.lastNumber());
    if (sync.view !== undefined) this.setPosition(sync);
  }

  onMove(message) {
    if (message.number <= this.heard) return;
    this.heard = message.number;
    this.used[message.seat] += Date.now() - this.turnStarted;
    this.turnStarted = Date.now();
    // A computer's turn comes in a burst and is shown at the pace; a person's moves come as
    // they are played and land at once (each animated), unless paced too in the settings.
    const own = message.seat === this.seat;
    const seat = this.info.seats[message.seat];
    const paced = !own && Boolean((seat && seat.bot) || session.settings.pace_people);
    this.player.push(message, { paced, animated: !own });
  }

  onUndo(message) {
    if (message.number <= this.heard) return;
    this.heard = message.number;
    this.player.push(message, { paced: false, animated: false });
  }

  // Draw one move or undo; for an animated move, the animations it started, its pieces
  // flying for `flight` ms.
  show(message, { animated, flight }) {
    if (message.kind === "undo") {
      this.addLine({ number: message.number, seat: message.seat, undoes: message.undoes });
      this.setPosition(message);
      this.draw();
      return [];
    }
    const { number, seat, events, action, note } = message;
    this.addLine({ number, seat, events, action, note });
    const ctx = this.ctx();
    const fresh = events.flatMap((event) => this.module.spots(event, ctx) || []);
    const before = animated && this.board ? snapshot(this.board) : null;
    this.fresh = before ? [] : fresh;
    this.setPosition(message);
    this.draw();
    if (seat !== null && seat !== this.seat) {
      const words = moveWords(this.module, ctx, { events });
      if (words) announce(`${seatName(ctx, seat)}: ${words}`);
    }
    if (message.over) this.refreshSeats(); // the ratings it changed
    if (!before || !this.board) return [];
    const flights = events.flatMap((event) => (this.module.motion && this.module.motion(event, ctx)) || []);
    return animate(this.board, before, { flights, fresh, flightMs: flight });
  }

  addLine(line) {
    this.lines.push(line);
    if (line.undoes !== undefined) {
      const undone = this.lines.find((l) => l.number === line.undoes);
      if (undone) undone.undone = true;
    }
  }

  setPosition(message) {
    message.choices = choicesOf(message);
    this.position = message;
    this.picked = [];
    const { planned, conflicts } = planPaths(message.choices, (c) => this.module.path(c, this.ctx()));
    for (const conflict of conflicts) console.error(`path conflict: ${conflict}`);
    this.planned = planned;
  }

  // A bot plays this person's seat (a time-out, or leaving): one click takes it back.
  reclaimButton() {
    const take = async () => {
      try {
        await api("POST", `/api/tables/${this.info.id}/reclaim`);
        await this.refreshSeats();
      } catch (error) {
        this.refused(problem(error));
      }
    };
    return html("button", { type: "button", class: "reclaim", onclick: take }, [t("table.reclaim")]);
  }

  async refreshSeats() {
    this.info = { ...this.info, ...(await api("GET", `/api/tables/${this.info.id}`)) };
    this.draw();
  }

  // -- playing ---------------------------------------------------------------------------

  pick(key) {
    const at = this.picked.indexOf(key);
    if (at >= 0) {
      this.picked = this.picked.slice(0, at); // clicking a picked key again goes back to it
    } else {
      this.picked = [...this.picked, key];
      const action = chosen(this.planned, this.picked);
      if (action) {
        this.send({ kind: "move", move: this.position.move + 1, action: action.text });
        this.planned = []; // nothing more to click until the server answers
      }
    }
    this.draw();
  }

  undo() {
    this.send({ kind: "undo", move: this.position.move + 1 });
  }

  async send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return;
    }
    const path = message.kind === "undo" ? "undo" : "moves";
    const body = { move: message.move, ...(message.action ? { action: message.action } : {}) };
    try {
      await api("POST", `/api/tables/${this.info.id}/${path}`, body);
    } catch (error) {
      this.refused(refusal(error.status, problem(error)));
    }
  }

  refused(text) {
    notice(t("table.refused", { reason: text }));
    if (this.position) this.setPosition(this.position);
    this.draw();
  }

  // -- drawing ---------------------------------------------------------------------------

  ctx() {
    const players = this.info.seats.map((s) => ({ name: s.person, bot: s.bot }));
    const position = this.position || {};
    const ctx = {
      game: this.info.game,
      view: position.view,
      seat: this.seat,
      players,
      choices: position.choices || [],
      result: position.result || null,
      t: gameT(this.info.game),
      settings: session.settings,
      draw,
    };
    ctx.seatName = (seat) => seatName(ctx, seat);
    return ctx;
  }

  draw() {
    const kept = this.chat.beforeMove(); // before the new parts take the chat's node
    this.keys.remember(this.root);
    const position = this.position;
    const myTurn = Boolean(position && !position.over && position.to_move === this.seat);
    Object.assign(this.root.dataset, {
      status: this.info.status,
      move: position ? position.move : 0,
      myTurn,
      over: Boolean(position && position.over),
      showing: this.player.waiting.length, // moves heard, still waiting to be shown
    });
    // Another tab's title tells a player whose move it is.
    const title = t(`${this.info.game}.title`);
    document.title = myTurn ? `● ${t("table.your_turn")} · ${title}` : `${title} · ${t("site.title")}`;
    const parts = [this.header(myTurn)];
    if (this.info.status === "open") parts.push(this.waitingRoom(), this.chat.root);
    else if (position) parts.push(this.playArea(myTurn));
    else parts.push(this.chat.root); // the table just started: its view is on its way
    this.root.replaceChildren(...parts);
    this.chat.afterMove(kept);
    this.keys.restore(this.root, this.board);
    this.fitZoom();
    if (this.guide) this.guide.afterDraw(myTurn);
  }

  header(myTurn) {
    const position = this.position;
    const seats = this.info.seats.map((s) =>
      html(
        "li",
        {
          class: position && position.to_move === s.seat ? "seat to-move" : "seat",
          style: `--seat: ${seatColour(this.module, s.seat)}`,
          "data-seat": s.seat,
        },
        [
          html("span", { class: "mark" }, [draw.seatSymbol(s.seat)]),
          seatLabel(s),
          s.seat === this.seat ? ` (${t("table.you")})` : "",
          typeof s.rated === "number"
            ? html("span", { class: "seat-rating", title: t("table.rating") }, [String(Math.round(s.rated))])
            : null,
          this.seatClock(s.seat),
          s.seat === this.seat && s.bot && this.info.status === "running" ? this.reclaimButton() : null,
          this.watch.mark(s.seat),
        ],
      ),
    );
    const status = !position
      ? t(this.info.status === "abandoned" ? "table.closed" : "table.waiting")
      : this.info.status === "abandoned"
        ? t("table.closed_running")
      : position.over
        ? t("table.over")
        : myTurn
          ? t("table.your_turn")
          : t("table.their_turn");
    return html("header", { class: "table-head" }, [
      html("h1", {}, [t(`${this.info.game}.title`)]),
      rulesLink(this.info.game, this.info.id),
      this.info.hints ? html("span", { class: "tag hints" }, [t("table.hints_allowed")]) : null,
      html("ul", { class: "seats" }, seats),
      html("p", { class: myTurn ? "status mine" : "status" }, [status]),
      html("p", { class: "clock" }, [this.clockText()]),
      this.info.status === "finished" ? rematchBanner(this.info) : null,
    ]);
  }

  // Time left for the seat to move, if the table has a clock.
  clockText() {
    const { move_seconds: perMove, game_seconds: perGame } = this.info.clock;
    const position = this.position;
    if ((!perMove && !perGame) || !position || position.over || position.to_move === null) return "";
    const thinking = Date.now() - this.turnStarted;
    const left = perMove ? perMove * 1000 - thinking : perGame * 1000 - this.used[position.to_move] - thinking;
    const name = seatName(this.ctx(), position.to_move);
    return t("table.clock", { name, time: minutes(left) });
  }

  tick() {
    const shown = this.root.querySelector(".clock");
    if (shown) shown.textContent = this.clockText();
    for (const clock of this.root.querySelectorAll(".seat-clock")) {
      clock.textContent = this.timeLeft(Number(clock.dataset.seat));
    }
  }

  // With a clock for the whole game, each seat's time left, beside its name.
  seatClock(seat) {
    if (!this.info.clock.game_seconds || !this.position || this.position.over) return null;
    return html("span", { class: "seat-clock", "data-seat": seat, title: t("table.time_left") }, [this.timeLeft(seat)]);
  }

  timeLeft(seat) {
    const thinking = this.position && this.position.to_move === seat ? Date.now() - this.turnStarted : 0;
    const left = this.info.clock.game_seconds * 1000 - this.used[seat] - thinking;
    return minutes(left);
  }

  waitingRoom() {
    const parts = [html("h2", {}, [t("table.waiting")])];
    const free = this.info.seats.some((s) => !s.person && !s.bot);
    if (this.info.invite) {
      const link = `${location.origin}/#/invite/${this.info.invite}`;
      parts.push(html("p", {}, [t("table.invite"), " ", html("code", { class: "invite" }, [link])]));
    }
    if (this.info.spectator_key) {
      const link = `${location.origin}/#/table/${this.info.id}?key=${this.info.spectator_key}`;
      parts.push(html("p", {}, [t("table.spectate"), " ", html("code", { class: "spectate" }, [link])]));
    }
    if (this.seat === null && free) {
      parts.push(this.button("table.join", async () => {
        if (!session.me) {
          rememberWhereTo({ seat: true }); // back to this seat, taken, after signing up
          go("#/signup");
          return;
        }
        await api("POST", `/api/tables/${this.info.id}/join`);
        this.drawnAgain();
      }));
    }
    if (this.info.you_host && !free) {
      parts.push(this.button("table.start", () => api("POST", `/api/tables/${this.info.id}/start`)));
    } else if (this.seat !== null) {
      parts.push(html("p", { class: "hint" }, [t(free ? "table.seats_free" : "table.host_starts")]));
    }
    if (this.seat !== null) {
      parts.push(this.button("table.leave", async () => {
        await api("POST", `/api/tables/${this.info.id}/leave`);
        go("#/");
      }));
    }
    return html("section", { class: "card waiting" }, parts);
  }

  button(key, act) {
    const button = html("button", { type: "button" }, [t(key)]);
    button.addEventListener("click", async () => {
      try {
        await act();
      } catch (error) {
        notice(problem(error));
      }
    });
    return button;
  }

  playArea(myTurn) {
    const ctx = this.ctx();
    const board = html("div", { class: this.zoom ? "board zoomed" : "board" });
    if (this.zoom) {
      board.style.setProperty("--board-zoom", this.zoom);
      board.style.width = `${this.boardWidth}px`; // its frame's width, then enlarged: it scrolls
    }
    this.board = board; // what the next shown move animates from
    this.module.render(board, ctx);
    magnifyOn(board, this.module, ctx);
    const next = myTurn ? nextKeys(this.planned, this.picked) : new Set();
    const nameOf = (key) => (this.module.label && this.module.label(key, ctx)) || null;
    this.keys.mark(board, next, this.picked, (key) => this.pick(key), nameOf);
    if (this.guide) this.guide.mark(board, ctx, myTurn);
    lightKeys(board, this.hintedKeys(ctx), "hinted");
    if (this.fresh.length && session.settings.animations) markFresh(board, this.fresh);
    this.fresh = [];
    const side = html("aside", { class: "side" }, [
      this.actionBar(ctx, next, myTurn),
      this.position.over
        ? html("a", { href: `#/replay/${this.info.id}`, class: "replay-link" }, [t("table.replay")])
        : null,
      this.logList(ctx, board),
      this.chat.root,
    ]);
    // The final scores run under the board and the log: a game's breakdown is wide.
    const over = this.position.over ? resultPanel(this.module, ctx) : null;
    const after = this.info.status === "finished" ? afterGame(this.info) : null;
    // On a phone the board may be enlarged within a frame that scrolls, not the page.
    const frame = html("div", { class: "board-frame" }, [board]);
    return html("div", {}, [html("div", { class: "play" }, [frame, side]), after, over]);
  }

  actionBar(ctx, next, myTurn) {
    const hinted = this.hintedKeys(ctx);
    const buttons = [...next]
      .filter((key) => key.startsWith("button:"))
      .map((key) => {
        const label = (this.module.label && this.module.label(key, ctx)) || ctx.t(`button.${key.slice(7)}`);
        const guided = this.guide && this.guide.target(ctx) === key ? " guide-target" : "";
        const cls = (hinted.includes(key) ? "choosable hinted" : "choosable") + guided;
        return html("button", { type: "button", class: cls, "data-key": key, onclick: () => this.pick(key) }, [label]);
      });
    if (myTurn && this.info.hints) {
      buttons.push(html("button", { type: "button", class: "ask-hint", onclick: () => this.askHint() }, [t("table.hint")]));
    }
    if (this.picked.length) {
      buttons.push(html("button", { type: "button", class: "cancel", onclick: () => this.cancel() }, [t("table.cancel")]));
    }
    const waiting = this.player.waiting.length;
    if (waiting) {
      const all = () => this.player.showAll();
      buttons.push(html("button", { type: "button", class: "show-all", onclick: all }, [t("table.show_all", { n: waiting })]));
    }
    if (myTurn && this.mayTryUndo()) {
      buttons.push(html("button", { type: "button", class: "undo", onclick: () => this.undo() }, [t("table.undo")]));
    }
    const prompt = myTurn ? t(this.picked.length ? "table.go_on" : "table.choose") : "";
    const help = myTurn ? html("p", { id: "board-keys", class: "keys-help" }, [t("table.keys_help")]) : null;
    const hint = hinted.length ? html("p", { class: "hint-words" }, [t("table.hint_says", { words: this.hint.words })]) : null;
    // The bar is pinned at the bottom on a phone, where the thumb is; the zoom is for there.
    const zoom = html("button", { type: "button", class: "zoom-toggle", "aria-pressed": String(Boolean(this.zoom)), onclick: () => this.toggleZoom() }, [
      t(this.zoom ? "table.zoom_out" : "table.zoom_in"),
    ]);
    const guide = this.guide ? this.guide.box(ctx, myTurn) : null;
    return html("div", { class: "actions" }, [guide, html("p", { class: "prompt" }, [prompt]), hint, ...buttons, zoom, help]);
  }

  // The coach's move for this decision, asked for at a table that allows hints (the server
  // refuses elsewhere, counts each decision's hint once, and works it out from this seat's
  // view only).
  async askHint() {
    try {
      this.hint = await api("POST", `/api/tables/${this.info.id}/hint`);
    } catch (error) {
      this.refused(problem(error));
      return;
    }
    this.draw();
  }

  // The keys the hinted move is clicked by, while the hint is for the decision at hand.
  hintedKeys(ctx) {
    const position = this.position;
    if (!this.hint || !position || this.hint.number !== position.move + 1) return [];
    const choice = named(position.choices, this.hint.move);
    return choice ? this.module.path(choice, ctx) : [];
  }

  // Enlarge the board until its smallest target is a thumb's width (at least 1.5 times, at
  // most 3), within its frame, which scrolls.
  toggleZoom() {
    this.zoom = this.zoom ? null : 1;
    if (this.zoom && this.board) this.boardWidth = this.board.parentElement.clientWidth;
    this.draw();
  }

  // A zoomed board grows, never shrinks, as smaller targets come up: what was in reach stays.
  fitZoom() {
    if (!this.zoom || !this.board || !this.board.isConnected) return;
    const sizes = [...this.board.querySelectorAll("[data-key]")]
      .map((node) => node.getBoundingClientRect())
      .filter((box) => box.width && box.height)
      .map((box) => Math.min(box.width, box.height) / this.zoom);
    const wanted = Math.min(3, Math.max(1.5, THUMB / Math.min(...sizes, THUMB)));
    if (wanted > this.zoom + 0.01) {
      this.zoom = Number(wanted.toFixed(2));
      this.board.style.setProperty("--board-zoom", this.zoom);
    }
  }

  cancel() {
    this.picked = [];
    this.draw();
  }

  // Escape on the board: the last pick taken back.
  stepBack() {
    if (!this.picked.length) return;
    this.picked = this.picked.slice(0, -1);
    this.draw();
  }

  // The server decides; the button is only offered after a move of ours that showed nothing.
  mayTryUndo() {
    const standing = this.lines.filter((l) => l.undoes === undefined && !l.undone);
    const last = standing[standing.length - 1];
    return Boolean(last && last.seat === this.seat && !last.events.some((e) => e.reveals));
  }

  // The move log, the latest first. A turn (the moves one seat made in a row) is folded into
  // one line once the next seat has moved; a click opens it again, and it stays open.
  logList(ctx, board) {
    const turns = [];
    for (const line of this.lines.filter((l) => l.undoes === undefined)) {
      const last = turns[turns.length - 1];
      if (last && last.seat === line.seat) last.lines.push(line);
      else turns.push({ seat: line.seat, lines: [line] });
    }
    const items = turns.flatMap((turn, index) => {
      const lines = turn.lines.map((line) => logLine(this.module, ctx, line, board));
      const ended = index < turns.length - 1;
      return ended && lines.length > 1 ? [this.foldedTurn(ctx, turn, lines, board)] : lines;
    });
    // Reachable by Tab, so that a keyboard can scroll it.
    const list = html("ol", { class: "log", reversed: true, tabindex: 0, "aria-label": t("table.log") }, items.reverse());
    return html("section", { class: "log-box" }, [html("h2", {}, [t("table.log")]), list]);
  }

  foldedTurn(ctx, turn, lines, board) {
    const first = turn.lines[0].number;
    const last = turn.lines[turn.lines.length - 1].number;
    const who = seatWho(ctx, turn.seat) || t("log.nobody");
    const folded = html("details", { open: this.openTurns.has(first) }, [
      html("summary", {}, [html("span", { class: "who" }, [who]), t("log.turn_moves", { n: lines.length })]),
      html("ol", { class: "turn-lines", reversed: true }, lines.reverse()),
    ]);
    folded.addEventListener("toggle", () => (folded.open ? this.openTurns.add(first) : this.openTurns.delete(first)));
    const colour = turn.seat === null ? null : `--seat: ${seatColour(this.module, turn.seat)}`;
    const item = html("li", { class: "turn", value: last, "data-turn": first, style: colour }, [folded]);
    lightOnHover(item, turn.lines.flatMap((line) => lineSpots(this.module, ctx, line)), board);
    return item;
  }
}

// Why a move was refused, in the page's language where the page knows the reason: the
// page offers only legal moves, so a refusal means the game moved on (409) or the seat is
// not this person's to move (403). Other reasons are the engine's own sentence.
function seatLabel(seat) {
  if (seat.person && seat.bot) return t("table.bot_plays", { bot: botName(seat.bot), name: seat.person });
  return seat.person || (seat.bot ? botName(seat.bot) : t("lobby.free_seat"));
}

function refusal(status, text) {
  if (status === 409) return t("table.moved_on");
  if (status === 403) return t("table.not_yours");
  return text;
}

// "m:ss" of a time left in ms (never below nothing).
function minutes(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function markFresh(board, spots) {
  for (const spot of spots) {
    for (const node of board.querySelectorAll(`[data-spot="${CSS.escape(spot)}"]`)) {
      node.classList.add("fresh");
    }
  }
}

function banner(shown, reason = "") {
  const box = document.getElementById("banner");
  box.textContent = shown ? [reason, t("table.reconnecting")].filter(Boolean).join(" · ") : "";
  box.hidden = !shown;
}
