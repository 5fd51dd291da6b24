// Turn alerts and the "computer is thinking" hint, for a table's page.
//
// Both go by what the table's socket brings, as it arrives: a table may show other seats'
// moves a while later, one at a time (motion.js), and a hidden tab may hardly draw at all.
//
// A turn alert: when a position arrives in which this page's seat is to move and was not
// before, while the tab is hidden, a browser notification and two soft tones, each only if
// the player turned it on in the profile (both off by default). The tab's title says whose
// move it is in any case (table.js).
//
// The thinking hint: once a computer seat has been to move for a moment with no move
// arriving, its seat in the table's seat list shows a small animated mark.

import { html } from "./draw.js";
import { t } from "./i18n.js";
import { session } from "./session.js";

const THINKING_MS = 700; // "longer than a moment": a quick bot never shows the mark

// -- turn alerts -------------------------------------------------------------------------

// Asked when the player turns the notification on (from the click, as browsers require):
// null once the browser allows notifications, else the sentence saying why they stay off.
export async function notificationRefusal() {
  const Notice = window.Notification;
  if (typeof Notice !== "function" || typeof Notice.requestPermission !== "function") {
    return t("settings.no_notifications");
  }
  let answer;
  try {
    answer = await Notice.requestPermission();
  } catch {
    answer = "denied";
  }
  return answer === "granted" ? null : t("settings.notifications_refused");
}

// Whether a position just heard (`after`, a move, undo or sync) brings the move to `seat`
// (null for a spectator): it was someone else's move in `before`, the last one heard, and
// `after` is not the echo of this seat's own move. The first position a page hears is no
// news: opening a table rings nothing.
export function moveCame(before, after, seat) {
  if (seat === null || seat === undefined || !before || after.over) return false;
  return after.to_move === seat && before.to_move !== seat && after.seat !== seat;
}

// The alerts the player chose, when the move has come while the tab is hidden.
function turnAlert(table) {
  if (!document.hidden) return; // the player is looking: the page itself says it
  if (session.settings.turn_notification) {
    notify(t(`${table.game}.title`), t("table.alert_body", { n: table.id }), table.id);
  }
  if (session.settings.turn_sound) chime();
}

function notify(title, body, id) {
  const Notice = window.Notification;
  if (typeof Notice !== "function" || Notice.permission !== "granted") return;
  try {
    // One per table: a newer alert replaces an older one still on screen.
    const note = new Notice(title, { body, tag: `meadow-table-${id}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // Some browsers (Chrome on Android) show notifications only from a service worker.
  }
}

let audio = null; // one audio context for the page, made at the first alert

// Two soft rising tones, about half a second in all: made here, no sound file.
function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended" && audio.resume) audio.resume().catch(() => {});
    const start = audio.currentTime + 0.02;
    for (const [pitch, delay] of [
      [660, 0],
      [880, 0.2],
    ]) {
      const at = start + delay;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "sine";
      tone.frequency.setValueAtTime(pitch, at);
      volume.gain.setValueAtTime(0.0001, at);
      volume.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.28);
      tone.connect(volume);
      volume.connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.3);
    }
  } catch {
    // No sound is no harm: the notification and the title still say it.
  }
}

// -- what a table hears: the alert and the thinking hint ---------------------------------

// What a table's page does with each position it hears: `table` is {id, game, seat}, `root`
// the table's element, `seats()` its seats as they are now (to know which a computer plays).
export class TurnWatch {
  constructor(root, table, seats) {
    this.root = root;
    this.table = table;
    this.seats = seats;
    this.last = null; // the last position heard
    this.thinker = null; // the computer seat whose mark shows, once it has thought a while
    this.timer = null;
  }

  // A message with a position (move, undo, sync) has arrived.
  heard(position) {
    const before = this.last;
    if (before && position.move < before.move) return; // a late copy of an older one
    this.last = position;
    if (moveCame(before, position, this.table.seat)) turnAlert(this.table);
    const seat = position.over ? null : position.to_move;
    const same = before && before.move === position.move && before.to_move === position.to_move;
    if (same && (this.timer || this.thinker !== null)) return; // the same position again
    this.stop();
    if (seat === null || seat === undefined) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const found = this.seats()[seat];
      if (!found || !found.bot) return; // a person thinks as long as they like
      this.thinker = seat;
      const label = this.root.querySelector(`ul.seats li[data-seat="${seat}"]`);
      if (label && !label.querySelector(".thinking")) label.append(thinkingMark());
    }, THINKING_MS);
  }

  // The mark for one seat's label (when the seats are drawn again while the bot thinks).
  mark(seat) {
    return seat === this.thinker ? thinkingMark() : null;
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.thinker = null;
    for (const node of this.root.querySelectorAll("ul.seats .thinking")) node.remove();
  }
}

function thinkingMark() {
  return html("span", { class: "thinking", role: "status" }, [t("table.thinking")]);
}
