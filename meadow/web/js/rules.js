// A game's rules in Meadow's own words: #/rules/<game>, or #/rules/<game>?table=<id> to mark
// what that table chose. The texts are data (rules/<game>.<language>.json) built into the page
// as plain text nodes; the option names and values come from the game's string file, as in
// the lobby's form, and Mystic Vale's symbols are drawn by its own module.

import { api } from "./api.js";
import * as draw from "./draw.js";
import { currentLanguage, gameT, t } from "./i18n.js";
import { GAMES, problem, session } from "./session.js";
import { loadModule } from "./board.js";
import { learnButton } from "./guide.js";

const { html, styleSheet } = draw;

// The order of the page; "legend" only for a game whose module draws one.
const SECTIONS = ["goal", "setup", "turn", "end", "scoring", "options", "legend"];

// The link in a table's (or a replay's) header. It opens a new tab: the table keeps its
// socket, its half-made move, the chat's draft and the turn alert, and going back is a switch
// of tabs with nothing to load again.
export function rulesLink(game, tableId) {
  return html(
    "a",
    { href: `#/rules/${game}?table=${tableId}`, target: "_blank", rel: "noopener", class: "rules-link" },
    [t("table.rules")],
  );
}

export async function rulesPage(game, tableId) {
  if (!GAMES.includes(game)) return { nodes: [html("p", { class: "card" }, [t("error.no_page")])] };
  let rules;
  let described;
  try {
    [rules, described] = await Promise.all([readRules(game), describedGame(game)]);
  } catch (error) {
    return { nodes: [html("p", { class: "card" }, [problem(error)])] };
  }
  const [module] = await Promise.all([loadModule(game), styleSheet("/rules/rules.css")]);
  // The table is a help, not a need: rules read without it if it cannot be read.
  let table = null;
  let tableNote = null;
  if (tableId !== null) {
    try {
      table = await api("GET", `/api/tables/${tableId}`);
      if (table.game !== game) {
        table = null;
        tableNote = t("rules.other_game", { n: tableId });
      }
    } catch (error) {
      tableNote = t("rules.no_table", { n: tableId, reason: problem(error) });
    }
  }
  const page = new RulesPage(game, rules, described, module, table);
  return { nodes: [page.draw(tableId, tableNote)] };
}

async function readRules(game) {
  const response = await fetch(`/rules/${game}.${currentLanguage()}.json`);
  if (!response.ok) throw Object.assign(new Error(), { status: response.status });
  return response.json();
}

async function describedGame(game) {
  const games = await api("GET", "/api/games");
  return games.find((g) => g.id === game);
}

class RulesPage {
  constructor(game, rules, described, module, table) {
    this.game = game;
    this.rules = rules;
    this.described = described;
    this.module = module;
    this.chosen = table ? table.options : null; // every option, defaults filled in by the server
    this.table = table;
    this.gameT = gameT(game);
  }

  draw(tableId, tableNote) {
    const sections = SECTIONS.map((id) => [id, this.section(id)]).filter(([, body]) => body);
    const contents = html(
      "nav",
      { class: "rules-contents", "aria-label": t("rules.contents") },
      sections.map(([id]) =>
        html("button", { type: "button", class: "link", onclick: () => jump(id) }, [t(`rules.section.${id}`)]),
      ),
    );
    const head = html("header", { class: "rules-head card" }, [
      html("h1", {}, [t("rules.title", { game: t(`${this.game}.title`) })]),
      this.table
        ? html("p", { class: "rules-table" }, [
            t("rules.for_table", { n: this.table.id }),
            " ",
            html("a", { href: `#/table/${this.table.id}` }, [t("rules.back")]),
          ])
        : null,
      tableNote ? html("p", { class: "hint rules-table" }, [tableNote]) : null,
      html("p", { class: "rules-learn" }, [learnButton(this.game)]),
      ...(this.rules.standin || []).map((text) =>
        html("p", { class: "rules-standin" }, [html("strong", {}, [t("standin")]), `: ${text}`]),
      ),
      contents,
    ]);
    const root = html("div", { class: `rules game-${this.game}`, "data-game": this.game }, [
      head,
      ...sections.map(([id, body]) =>
        html("section", { class: "card rules-section", id: `rules-${id}`, "data-section": id }, [
          html("h2", {}, [t(`rules.section.${id}`)]),
          ...body,
        ]),
      ),
    ]);
    if (tableId !== null) root.dataset.table = tableId;
    return root;
  }

  section(id) {
    if (id === "options") return this.options();
    if (id === "legend") return this.legend();
    const blocks = this.rules.sections[id];
    return blocks ? blocks.map((block) => this.block(block)) : null;
  }

  // One block of text: {p}, {h}, {ul}, {ol} or {score, text}; `when` names the option values
  // it holds for, and the page says whether this table has them.
  block(block) {
    let node;
    if (block.p !== undefined) node = html("p", {}, [block.p]);
    else if (block.h !== undefined) node = html("h3", {}, [block.h]);
    else if (block.ul) node = html("ul", {}, block.ul.map((item) => html("li", {}, [item])));
    else if (block.ol) node = html("ol", {}, block.ol.map((item) => html("li", {}, [item])));
    else if (block.score !== undefined) {
      node = html("p", { class: "rules-score", "data-score": block.score }, [
        html("strong", {}, [this.gameT(`score.${block.score}`)]),
        ": ",
        block.text,
      ]);
    } else {
      console.error(`rules: a block of no known kind in ${this.game}`);
      return null;
    }
    if (!block.when) return node;
    const applies = this.applies(block.when);
    const tag = html("span", { class: "rules-when" }, [this.condition(block.when)]);
    const here =
      applies === null
        ? null
        : html("span", { class: "rules-here" }, [t(applies ? "rules.applies_here" : "rules.not_here")]);
    return html(
      "div",
      {
        class: `rules-conditional ${applies === null ? "" : applies ? "applies" : "not-here"}`,
        "data-applies": applies === null ? null : String(applies),
      },
      [html("p", { class: "rules-tags" }, [tag, here]), node],
    );
  }

  // True or false at a table, null without one.
  applies(when) {
    if (!this.chosen) return null;
    return Object.entries(when).every(([name, wanted]) =>
      [].concat(wanted).map(String).includes(String(this.chosen[name])),
    );
  }

  condition(when) {
    const parts = Object.entries(when).map(([name, wanted]) => {
      const option = this.option(name);
      const values = [].concat(wanted).map((value) => this.valueLabel(option, value));
      return `${t(`${this.game}.option.${name}`)}: ${values.join(" / ")}`;
    });
    return t("rules.only_with", { what: parts.join(", ") });
  }

  option(name) {
    return this.described.options.find((o) => o.name === name) || { name, type: "string" };
  }

  valueLabel(option, value) {
    if (option.type === "boolean") return t(value === true || value === "true" ? "rules.on" : "rules.off");
    return t(`${this.game}.option.${option.name}.${value}`);
  }

  // Every option of the game with what each value means; the table's choice and the default
  // are marked.
  options() {
    const words = this.rules.options || {};
    const parts = this.described.options.map((option) => {
      const about = words[option.name] || {};
      const values = option.type === "boolean" ? [true, false] : option.choices || [];
      const items = values.map((value) => {
        const here = this.chosen !== null && String(this.chosen[option.name]) === String(value);
        const meaning = about.values && about.values[String(value)];
        return html(
          "li",
          { class: here ? "chosen" : null, "data-value": String(value), "data-chosen": here ? "true" : null },
          [
            html("strong", {}, [this.valueLabel(option, value)]),
            value === option.default ? html("span", { class: "rules-tag" }, [t("rules.default")]) : null,
            here ? html("span", { class: "rules-tag here" }, [t("rules.chosen_here")]) : null,
            meaning ? html("span", { class: "rules-meaning" }, [meaning]) : null,
          ],
        );
      });
      return html("div", { class: "rules-option", "data-option": option.name }, [
        html("h3", {}, [t(`${this.game}.option.${option.name}`)]),
        html("p", {}, [t(`${this.game}.option.${option.name}.help`)]),
        about.about ? html("p", {}, [about.about]) : null,
        html("ul", { class: "rules-values" }, items),
      ]);
    });
    const intro = t(this.chosen ? "rules.options_marked" : "rules.options_lobby");
    return [html("p", { class: "hint" }, [intro]), ...parts];
  }

  // The game's symbols drawn by its own module, each with what it means.
  legend() {
    if (!this.module.legendEntries || !this.rules.legend) return null;
    const ctx = { game: this.game, t: this.gameT, settings: session.settings, draw };
    const rows = this.module.legendEntries(ctx).map((entry) =>
      html("tr", { "data-symbol": entry.key }, [
        html("td", { class: "rules-picture" }, [entry.picture]),
        html("th", { scope: "row" }, [entry.name]),
        html("td", {}, [this.rules.legend[entry.key] || ""]),
      ]),
    );
    return [html("table", { class: "grid rules-legend" }, [html("tbody", {}, rows)])];
  }
}

function jump(id) {
  const target = document.getElementById(`rules-${id}`);
  if (target) target.scrollIntoView({ block: "start" });
}
