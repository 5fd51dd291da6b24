// The coach's analysis of a finished game on the replay page: ask for it, follow its progress,
// then each seat's accuracy, a graph of each seat's win chance over the game (its marks on
// it), and the biggest swings. A click on a mark asks the replay to show that decision.

import { api } from "./api.js";
import { html, seatColour, seatSymbol, svg } from "./draw.js";
import { t } from "./i18n.js";
import { problem, session } from "./session.js";

const POLL_MS = 2000;
const SHOWN_MARKS = new Set(["inaccuracy", "mistake", "blunder"]);
const WIDTH = 600;
const HEIGHT = 140;

export class AnalysisPanel {
  // `onPick(decision)`: show that decision; `onLoaded(analysis)`: the analysis came.
  constructor(tableId, players, { onPick, onLoaded }) {
    this.tableId = tableId;
    this.players = players;
    this.onPick = onPick;
    this.onLoaded = onLoaded;
    this.root = html("section", { class: "card analysis", "aria-live": "polite" });
    this.state = null;
    this.timer = null;
    this.step = null;
  }

  async start() {
    await this.refresh();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  async refresh() {
    try {
      this.state = await api("GET", `/api/tables/${this.tableId}/analysis`);
    } catch (error) {
      this.root.replaceChildren(html("p", { class: "hint" }, [problem(error)]));
      return;
    }
    this.draw();
    const waiting = ["queued", "running"].includes(this.state.status);
    if (waiting) this.timer = setTimeout(() => this.refresh(), POLL_MS);
    if (this.state.status === "done") this.onLoaded(this.state.analysis);
  }

  async ask() {
    try {
      this.state = await api("POST", `/api/tables/${this.tableId}/analysis`);
    } catch (error) {
      this.root.replaceChildren(this.heading(), html("p", { class: "hint refused" }, [problem(error)]));
      return;
    }
    this.draw();
    this.timer = setTimeout(() => this.refresh(), POLL_MS);
  }

  // The replay moved: the graph shows where.
  showStep(step) {
    this.step = step;
    const line = this.root.querySelector(".now");
    if (line && this.state && this.state.analysis) {
      const x = xOf(step, this.state.analysis.moves);
      line.setAttribute("x1", x);
      line.setAttribute("x2", x);
    }
  }

  heading() {
    return html("h2", {}, [t("analysis.title")]);
  }

  draw() {
    const state = this.state;
    const parts = [this.heading()];
    if (state.status === "none") parts.push(this.askPart(state));
    else if (state.status === "queued") parts.push(html("p", { class: "progress" }, [t("analysis.queued")]));
    else if (state.status === "running") {
      parts.push(
        html("p", { class: "progress" }, [t("analysis.running", { done: state.done_moves, total: state.total_moves })]),
        html("progress", { max: state.total_moves || 1, value: state.done_moves }),
      );
    } else if (state.status === "failed") {
      parts.push(html("p", { class: "hint refused" }, [t("analysis.failed")]), this.askButton());
    } else parts.push(...this.findings(state.analysis));
    this.root.replaceChildren(...parts);
  }

  askPart(state) {
    if (state.enabled === false) return html("p", { class: "hint" }, [t("analysis.off")]);
    if (!session.me) return html("p", { class: "hint" }, [t("analysis.sign_in")]);
    return html("p", {}, [t("analysis.explain"), " ", this.askButton()]);
  }

  askButton() {
    return html("button", { type: "button", class: "ask-analysis", onclick: () => this.ask() }, [t("analysis.ask")]);
  }

  findings(analysis) {
    return [
      html("ul", { class: "accuracy" }, analysis.seats.map((seat) => this.seatLine(seat, analysis))),
      this.graph(analysis),
      html("p", { class: "hint" }, [t("analysis.graph_help")]),
      this.swings(analysis),
    ];
  }

  seatLine(seat, analysis) {
    const marks = ["inaccuracy", "mistake", "blunder"]
      .map((mark) => `${seat.marks[mark] || 0} ${t(`analysis.mark.${mark}`)}`)
      .join(" · ");
    return html("li", { "data-seat": seat.seat, style: `--seat: ${seatColour(seat.seat)}` }, [
      html("b", {}, [`${seatSymbol(seat.seat)} ${this.players(seat.seat)}`]),
      " ",
      t("analysis.accuracy", { accuracy: seat.accuracy.toFixed(1) }),
      " · ",
      marks,
      this.hintsUsed(seat.seat),
      this.worstTurn(seat, analysis),
    ]);
  }

  hintsUsed(seat) {
    const used = this.state.hints;
    return used ? ` · ${t("analysis.hints", { n: used[seat] })}` : null;
  }

  // A whole turn judged: its moves, and a click shows its first decision.
  worstTurn(seat, analysis) {
    if (seat.worst_turn === null || seat.worst_turn === undefined) return null;
    const turn = analysis.turns[seat.worst_turn];
    const first = analysis.decisions.find((d) => d.turn === turn.turn);
    if (!first || turn.mark === "best" || turn.mark === "good") return null;
    const words = t("analysis.worst_turn", {
      move: turn.move,
      moves: turn.played.join(" · "),
      mark: t(`analysis.mark.${turn.mark}`),
      loss: turn.loss.toFixed(1),
    });
    return html("div", { class: "worst-turn" }, [
      html("button", { type: "button", class: "link", onclick: () => this.onPick(first) }, [words]),
    ]);
  }

  // Each seat's win chance after each of its own decisions, from the start to the end of the
  // game: one line a seat, and a dot where a decision earned a mark worth a look.
  graph(analysis) {
    const lines = [];
    const dots = [];
    for (const seat of analysis.seats) {
      const own = analysis.decisions.filter((d) => d.seat === seat.seat && d.chance_played !== null);
      if (!own.length) continue;
      const points = own.map((d) => `${xOf(d.move, analysis.moves)},${yOf(d.chance_played)}`).join(" ");
      lines.push(svg("polyline", { points, fill: "none", stroke: seatColour(seat.seat), "stroke-width": 2, class: "chance-line", "data-seat": seat.seat }));
      for (const d of own.filter((one) => SHOWN_MARKS.has(one.mark))) {
        const label = t("analysis.dot", { move: d.move, mark: t(`analysis.mark.${d.mark}`), name: this.players(d.seat) });
        dots.push(
          svg(
            "circle",
            {
              cx: xOf(d.move, analysis.moves),
              cy: yOf(d.chance_played),
              r: d.mark === "blunder" ? 6 : d.mark === "mistake" ? 5 : 4,
              class: `mark-dot ${d.mark}`,
              "data-move": d.move,
              tabindex: 0,
              role: "button",
              "aria-label": label,
              onclick: () => this.onPick(d),
              onkeydown: (event) => {
                if (event.key === "Enter" || event.key === " ") this.onPick(d);
              },
            },
            [svg("title", {}, [label])],
          ),
        );
      }
    }
    const x = xOf(this.step ?? analysis.moves, analysis.moves);
    return svg("svg", { class: "chance-graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": t("analysis.graph_label") }, [
      svg("line", { x1: 0, x2: WIDTH, y1: yOf(0.5), y2: yOf(0.5), class: "even" }),
      svg("line", { x1: x, x2: x, y1: 0, y2: HEIGHT, class: "now" }),
      ...lines,
      ...dots,
    ]);
  }

  swings(analysis) {
    const items = analysis.seats.flatMap((seat) =>
      seat.swings.map((swing) => {
        const decision = analysis.decisions.find((d) => d.move === swing.move);
        return html("li", { "data-move": swing.move }, [
          html("button", { type: "button", class: "link", onclick: () => this.onPick(decision) }, [
            `${seatSymbol(swing.seat)} ${this.players(swing.seat)}: `,
            swing.words,
          ]),
        ]);
      }),
    );
    return html("div", {}, [html("h3", {}, [t("analysis.swings")]), html("ol", { class: "swings" }, items)]);
  }
}

// A decision's mark, as a small badge for its log line.
export function markBadge(decision) {
  if (!decision) return null;
  return html("span", { class: `mark-badge ${decision.mark}`, title: t(`analysis.mark.${decision.mark}`) }, [t(`analysis.mark.${decision.mark}`)]);
}

function xOf(move, moves) {
  return ((move / Math.max(1, moves)) * WIDTH).toFixed(1);
}

function yOf(chance) {
  return ((1 - chance) * (HEIGHT - 10) + 5).toFixed(1);
}
