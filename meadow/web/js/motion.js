// Showing a move happen: the one player of every animation on a table.
//
// A computer's moves are shown one at a time, at the pace the person chose in Profile
// (`settings.move_pace`: off, normal, slow); another person's land as soon as they come, as
// they were played one by one (at the pace too if `settings.pace_people`); your own land at
// once. Each move of another seat is drawn, then animated from the picture before it:
// - a piece that a game module names as moving (`motion(event) -> [{from, to, piece}]`) flies
//   from where the `from` spot was (the first of several that was drawn) to where it now
//   stands: the element marked `data-piece="<piece>"` that is (or is inside) a `to` spot,
//   else the `to` spot itself when no piece is named;
// - what the move's events name (`spots(event)`) is marked fresh: a card flips in, a space
//   lights up;
// - every number drawn with `data-count="<key>"` counts up (or down) to its new value.
// Animations off in the settings, or reduced motion asked by the system, keep the pace but
// move nothing. A resync (a reconnection) skips what is still waiting to the present.
//
// A long turn is shown quickly: a Mystic Vale turn can be forty decisions, 1.35 s each at
// the normal pace, and a quick computer sends them all at once. The turn's last `CALM` moves
// (most Harmonies turns whole) keep the full pace; the routine ones before them flash by, each in
// `RUSH / (waiting - CALM)` of the pace (`tempo`, never less than `FASTEST`), so that all of
// them together take about a second and a half, however many: forty moves are shown in under
// ten seconds at the normal pace.

import { session } from "./session.js";

export const PACES = ["off", "normal", "slow"];
const PAUSE = { off: 0, normal: 900, slow: 1900 }; // ms a shown move stays before the next
const FLIGHT = { normal: 450, slow: 800 }; // ms a piece takes to fly
const CALM = 6; // moves waiting that are shown at the full pace (most Harmonies turns)
const RUSH = 0.25; // the share of the pace the first move past CALM is shown in
const FASTEST = 0.01; // the least share of the pace a move is shown in

export function pace() {
  const chosen = session.settings.move_pace;
  return PACES.includes(chosen) ? chosen : "normal";
}

export function movesAllowed() {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return session.settings.animations && !reduced;
}

// Where everything stood before a redraw: each spot's box and each counted number.
export function snapshot(board) {
  const spots = new Map();
  for (const node of board.querySelectorAll("[data-spot]")) {
    if (!spots.has(node.dataset.spot)) spots.set(node.dataset.spot, node.getBoundingClientRect());
  }
  const counts = new Map();
  for (const node of board.querySelectorAll("[data-count]")) {
    counts.set(node.dataset.count, Number(node.textContent));
  }
  return { spots, counts };
}

// Animate the board just drawn from `before`: flights, fresh marks, counts.
export function animate(board, before, { flights = [], fresh = [], flightMs = FLIGHT.normal }) {
  if (!movesAllowed()) {
    for (const node of freshNodes(board, fresh)) node.classList.add("fresh-still");
    return [];
  }
  const running = [];
  for (const flight of flights) {
    const start = [].concat(flight.from).map((spot) => before.spots.get(spot)).find(Boolean);
    const piece = pieceOf(board, flight);
    if (start && piece) running.push(fly(piece, start, flightMs));
  }
  for (const node of freshNodes(board, fresh)) node.classList.add("fresh");
  for (const node of board.querySelectorAll("[data-count]")) {
    const was = before.counts.get(node.dataset.count);
    const now = Number(node.textContent);
    if (was !== undefined && Number.isFinite(was) && Number.isFinite(now) && was !== now) {
      running.push(countUp(node, was, now, flightMs));
    }
  }
  return running;
}

function pieceOf(board, { to, piece }) {
  const targets = to ? [...board.querySelectorAll(`[data-spot="${CSS.escape(to)}"]`)] : [];
  if (!piece) return targets[0] || null;
  const named = `[data-piece="${CSS.escape(piece)}"]`;
  for (const target of targets) {
    if (target.matches(named)) return target;
    const inner = target.querySelector(named);
    if (inner) return inner;
  }
  return targets.length ? null : board.querySelector(named);
}

function freshNodes(board, spots) {
  return spots.flatMap((spot) => [...board.querySelectorAll(`[data-spot="${CSS.escape(spot)}"]`)]);
}

// The piece drawn where it stands now, moved back to `start` and let fly home.
function fly(piece, start, ms) {
  const end = piece.getBoundingClientRect();
  let dx = start.left + start.width / 2 - (end.left + end.width / 2);
  let dy = start.top + start.height / 2 - (end.top + end.height / 2);
  let base = "";
  if (piece instanceof SVGGraphicsElement && piece.ownerSVGElement) {
    // An SVG element moves in its drawing's units; its own transform stays under the flight.
    const scale = piece.ownerSVGElement.getScreenCTM();
    if (scale && scale.a) {
      dx /= scale.a;
      dy /= scale.d;
    }
    const own = piece.transform && piece.transform.baseVal.consolidate();
    if (own) {
      const m = own.matrix;
      base = ` matrix(${m.a}, ${m.b}, ${m.c}, ${m.d}, ${m.e}, ${m.f})`;
    }
  }
  const animation = piece.animate(
    [
      { transform: `translate(${dx}px, ${dy}px)${base}`, opacity: 0.85 },
      { transform: base.trim() || "none", opacity: 1 },
    ],
    { duration: ms, easing: "cubic-bezier(.3,.7,.4,1)" },
  );
  piece.classList.add("flying");
  return animation.finished.catch(() => null).then(() => piece.classList.remove("flying"));
}

function countUp(node, was, now, ms) {
  const started = performance.now();
  return new Promise((done) => {
    const step = (time) => {
      const part = Math.min(1, (time - started) / ms);
      node.textContent = String(Math.round(was + (now - was) * part));
      if (part < 1) requestAnimationFrame(step);
      else done();
    };
    node.textContent = String(was);
    requestAnimationFrame(step);
  });
}

// Other seats' moves, one at a time. `show(message, {animated, flight})` draws a message and
// returns the animations it started; the player waits for them and the pace before the next.
// A computer's moves come in a burst and are paced; a person's come as they play them and
// land at once, each still animated (`push(message, {paced, animated})`).
export class MovePlayer {
  constructor(show) {
    this.show = show;
    this.waiting = [];
    this.running = false;
    this.generation = 0; // a skip ends whatever was being waited for
    this.hurry = false; // every move at once (a guided game played to its end)
  }

  get busy() {
    return this.running || this.waiting.length > 0;
  }

  // A move to show: at once when it is not paced (the viewer's own, a person's, the pace
  // off), else in turn. A hidden tab shows at once too: nobody watches, and its timers and
  // frames are held back (the title must say "your move" when the move comes).
  push(message, { paced, animated }) {
    const still = this.hurry || pace() === "off" || document.hidden;
    if (!paced || still) {
      const entry = { message, paced: false, animated: animated && !still };
      if (this.busy) this.waiting.push(entry);
      else this.showing(entry);
      return;
    }
    this.waiting.push({ message, paced: true, animated: true });
    if (!this.running) this.run();
  }

  async run() {
    this.running = true;
    const generation = this.generation;
    try {
      while (this.waiting.length && generation === this.generation) {
        const flight = flightMs() * tempo(this.waiting.length);
        const entry = this.waiting.shift();
        const shownPaced = entry.paced && !document.hidden;
        const running = this.showing(entry, flight);
        if (!shownPaced) continue;
        // Frames stop when the tab is hidden meanwhile: the flight's own time bounds the wait.
        await Promise.race([Promise.allSettled(running || []), sleep(flight + 300)]);
        // The moves heard meanwhile count too: a turn's first move often comes alone.
        await sleep(PAUSE[pace()] * tempo(this.waiting.length + 1));
      }
    } finally {
      // Whatever happened, the queue is not left waiting on a run that has ended.
      if (generation === this.generation) this.running = false;
    }
  }

  // One move shown. A move that fails to draw is reported and passed over: left to throw,
  // it would end the run with the queue marked busy, and every later move would wait for good.
  showing({ message, animated }, flight = flightMs()) {
    try {
      return this.show(message, { animated: animated && !document.hidden, flight });
    } catch (error) {
      console.error("a move could not be shown", error);
      return [];
    }
  }

  // Drop what waits (a resync brings the present): nothing more is shown from the queue.
  skip() {
    this.generation += 1;
    this.waiting = [];
    this.running = false;
  }

  // Everything that waits, shown now and still (the table's "Show everything now").
  showAll() {
    const waiting = this.waiting;
    this.skip();
    for (const entry of waiting) this.showing({ ...entry, animated: false });
  }
}

// The share of the pace a move is shown in while `waiting` moves (itself included) are
// still to be shown.
export function tempo(waiting) {
  return waiting <= CALM ? 1 : Math.max(FASTEST, RUSH / (waiting - CALM));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function flightMs() {
  return FLIGHT[pace()] || FLIGHT.normal;
}
