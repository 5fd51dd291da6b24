// A table's chat: the lines said there, a box to say one, and muting a person.
//
// One ChatBox lives as long as its table is shown, through its start too; the page moves
// its node into each redraw, and the box keeps what is being typed, the focus and the
// scroll through the move.

import { api } from "./api.js";
import { html } from "./draw.js";
import { t } from "./i18n.js";
import { notice, problem, session } from "./session.js";

const MAX_CHARS = 500; // the server's limit (server/chat.py)

// The box of the live table shown last. A table page drawn again (the table started, a
// seat was taken) takes it over with its lines, what is being typed and the scroll: a new
// box would stand empty until the new socket's first message.
let live = null;

export function liveChat(tableId) {
  const reader = session.me ? session.me.name : null;
  if (!live || live.tableId !== tableId || live.reader !== reader) live = new ChatBox(tableId);
  return live;
}

export class ChatBox {
  constructor(tableId, { upTo = null } = {}) {
    this.tableId = tableId;
    this.upTo = upTo; // a replay shows the lines said up to its step
    this.reader = session.me ? session.me.name : null; // whose box it is: what it may read
    this.lines = [];
    this.list = html("ol", { class: "chat-lines", "aria-live": "polite" });
    // Kept as it changes: reading scrollTop at a redraw would lay the whole page out first.
    this.scroll = 0;
    this.list.addEventListener("scroll", () => (this.scroll = this.list.scrollTop), { passive: true });
    this.root = html("section", { class: "chat-box", "data-chat": tableId }, [
      html("h2", {}, [t("chat.title")]),
      this.list,
      upTo === null ? this.form() : null,
    ]);
  }

  form() {
    if (!session.me) return html("p", { class: "hint" }, [t("chat.sign_in")]);
    this.input = html("input", {
      type: "text",
      name: "chat",
      maxlength: MAX_CHARS,
      autocomplete: "off",
      "aria-label": t("chat.placeholder"),
      placeholder: t("chat.placeholder"),
    });
    const form = html("form", { class: "chat-say" }, [this.input, html("button", { type: "submit" }, [t("chat.send")])]);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.say();
    });
    return form;
  }

  async say() {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      this.add(await api("POST", `/api/tables/${this.tableId}/chat`, { text }));
      this.input.value = "";
    } catch (error) {
      notice(problem(error));
    }
  }

  // Every line the server holds for this reader (a sync): the list as it is.
  setLines(lines) {
    this.lines = [];
    for (const line of lines) this.remember(line);
    this.draw();
  }

  // One line more (said here, or told by the socket; each line comes once either way).
  add(line) {
    if (this.remember(line)) this.draw();
  }

  remember(line) {
    if (this.lines.some((l) => l.id === line.id) || this.isMuted(line.name)) return false;
    this.lines.push(line);
    this.lines.sort((a, b) => a.id - b.id);
    return true;
  }

  // A line the site's host hid: it leaves the list at once.
  remove(id) {
    const before = this.lines.length;
    this.lines = this.lines.filter((line) => line.id !== id);
    if (this.lines.length !== before) this.draw();
  }

  showUpTo(step) {
    this.upTo = step;
    this.draw();
  }

  isMuted(name) {
    return Boolean(session.me && (session.me.muted || []).includes(name));
  }

  async mute(name) {
    try {
      await api("PUT", `/api/accounts/me/mutes/${encodeURIComponent(name)}`);
      session.me.muted = [...(session.me.muted || []), name];
      this.lines = this.lines.filter((line) => line.name !== name);
      this.draw();
      notice(t("chat.muted", { name }), "info");
    } catch (error) {
      notice(problem(error));
    }
  }

  draw() {
    const shown = this.upTo === null ? this.lines : this.lines.filter((line) => line.move <= this.upTo);
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 8;
    this.list.replaceChildren(...shown.map((line) => this.lineNode(line)));
    if (!shown.length) this.list.append(html("li", { class: "hint" }, [t("chat.empty")]));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  lineNode(line) {
    const at = new Date(line.at);
    const time = at.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
    const mine = session.me && session.me.name === line.name;
    const who = line.seat === null ? t("chat.watching", { name: line.name }) : line.name;
    return html("li", { class: mine ? "chat-line mine" : "chat-line", "data-chat-id": line.id }, [
      html("time", { datetime: line.at }, [time]),
      " ",
      // Plain text, never markup: a line that looks like HTML shows as what was typed. The
      // name and the text are each isolated (<bdi>): whatever direction a line's characters
      // take, they cannot run over the speaker's name (the server takes out the bidi
      // controls as well: meadow/server/chat.py).
      html("b", { class: "chat-name" }, [html("bdi", {}, [who])]),
      " ",
      html("bdi", { class: "chat-text" }, [line.text]),
      session.me && !mine && this.upTo === null
        ? html("button", { type: "button", class: "chat-mute", title: t("chat.mute_title", { name: line.name }), onclick: () => this.mute(line.name) }, [t("chat.mute")])
        : null,
    ]);
  }

  // A redraw of the page moves this node, which loses the focus and the scroll: the page
  // takes them before it redraws (`beforeMove`) and gives them back after (`afterMove`).
  // Neither measures the page: a forced layout a redraw costs a large board tens of ms.
  beforeMove() {
    const input = this.input;
    const typing = Boolean(input && document.activeElement === input);
    return { typing, start: input && input.selectionStart, end: input && input.selectionEnd, scroll: this.scroll };
  }

  afterMove(kept) {
    if (kept.scroll) this.list.scrollTop = kept.scroll;
    if (!kept.typing) return;
    this.input.focus();
    this.input.setSelectionRange(kept.start, kept.end);
  }
}
