// Mystic Vale's table: each druid's sleeved cards (three positions each), the advancement and
// vale markets, Fertile Soil, the VP pool and the mana tokens. What is legal comes only from
// ctx.choices; this module draws and names the clicks. What it draws lives in mystic_vale/:
// names.js (names and the card file's facts), symbols.js (the printed symbols), cards.js (card
// faces: sleeved cards, market advancements), vale.js (vale cards), market.js (the markets and
// piles), druid.js (each druid's mat) and log.js (the move log's lines, spots and motion).

import { html } from "../js/draw.js";
import { myArea, otherArea } from "./mystic_vale/druid.js";
import { advancementMarket, fertileSoil, valeMarket, vpPool } from "./mystic_vale/market.js";
import { CHOICE_ABILITIES, STANDIN_NOTES, copyName, playerName } from "./mystic_vale/names.js";

function phaseName(view) {
  if (view.phase === "over") return "over";
  if (view.stage === "prep" && ["reveal", "ability", "spoiling", "prep"].includes(view.phase))
    return "prep";
  if (view.phase === "sleeve" || view.phase === "nest") return "cleanup";
  if (view.phase === "reveal" || view.phase === "plant") return "plant";
  return view.phase;
}

function header(ctx) {
  const view = ctx.view;
  const options = view.options || {};
  const auto = html("label", { class: "mv-auto", title: ctx.t("option.auto_reveal.help") }, [
    html("input", { type: "checkbox", disabled: true, checked: options.auto_reveal ? true : null }),
    ctx.t("option.auto_reveal"),
  ]);
  const notes = (view.standins || [])
    .map((s) => (STANDIN_NOTES[s] ? ctx.t(STANDIN_NOTES[s]) : null))
    .filter(Boolean);
  return html("div", { class: "mv-header" }, [
    html("span", { class: "mv-phase", text: ctx.t(`phase.${phaseName(view)}`) }),
    view.to_move !== null && view.to_move !== undefined
      ? html("span", {
          class: "mv-turn",
          text: ctx.t("turn_of", { name: playerName(view.to_move, ctx) }),
        })
      : null,
    html("span", {
      class: "mv-option",
      text: ctx.t(`option.edition.${options.edition || "yucata"}`),
    }),
    options.vale_of_magic
      ? html("span", { class: "mv-option", text: ctx.t("option.vale_of_magic") })
      : null,
    auto,
    notes.length
      ? html("span", { class: "mv-standin-note", title: notes.join("; ") }, [
          html("strong", { text: ctx.t("standin") }),
          `: ${notes.join("; ")}`,
        ])
      : null,
  ]);
}

function prompt(ctx) {
  const choices = ctx.choices || [];
  if (!choices.length) return null;
  const view = ctx.view;
  let text;
  if (view.phase === "ability" && view.choice) {
    text = ctx.t(
      `prompt.choice.${CHOICE_ABILITIES.has(view.choice.ability) ? view.choice.ability : "other"}`,
      {
        left: view.choice.left,
      },
    );
  } else if (view.phase === "sleeve" && view.harvest && view.harvest.to_sleeve.length) {
    const copy = view.harvest.to_sleeve[0];
    text = ctx.t("prompt.sleeve", {
      name: copyName(copy, ctx),
      position: ctx.t(`position.${copy.split("@")[1]}`),
    });
  } else {
    text = ctx.t(`prompt.${view.phase}`);
    if (choices.some((c) => c.kind === "buy_advancement" && c.onto)) {
      text += ` ${ctx.t("prompt.onto")}`;
    }
  }
  return html("div", { class: "mv-prompt", text });
}

export function render(root, ctx) {
  root.classList.add("mv-board");
  const view = ctx.view;
  const mine = ctx.seat !== null && ctx.seat !== undefined && view.druids[ctx.seat];
  const others = view.druids.map((_, i) => i).filter((i) => !mine || i !== ctx.seat);
  const parts = [
    header(ctx),
    prompt(ctx),
    html("div", { class: "mv-supply" }, [
      html("div", { class: "mv-supply-col" }, [advancementMarket(ctx), fertileSoil(ctx)]),
      html("div", { class: "mv-supply-col" }, [valeMarket(ctx), vpPool(ctx)]),
    ]),
    mine ? myArea(ctx) : null,
    ...others.map((owner) => otherArea(owner, ctx)),
  ];
  root.append(...parts.filter(Boolean));
}

function myDruid(ctx) {
  return ctx.view.druids[ctx.seat];
}

function positionOf(copy) {
  return copy.split("@")[1];
}

export function path(choice, ctx) {
  const choices = ctx.choices || [];
  switch (choice.kind) {
    case "push":
      return [`card:${myDruid(ctx).on_deck}`];
    case "reveal":
      // Two clicks, so that one stray click never turns up a card.
      return ["deck", "button:reveal"];
    case "choose":
      return [`card:${choice.card}`];
    case "prevent":
      if (choice.source === "druide_des_friedens") return [`card:${choice.card}`];
      if (choice.card) return [`myvale:${choice.source}`, `card:${choice.card}`];
      return [`myvale:${choice.source}`];
    case "use_ability":
      return [`slot:${choice.card}:${choice.position}`];
    case "buy_advancement": {
      if (choice.onto)
        return [`adv:${choice.copy}`, `slot:${choice.onto}:${positionOf(choice.copy)}`];
      const discounted = choices.some(
        (c) => c.kind === "buy_advancement" && c.copy === choice.copy && c.onto,
      );
      return discounted ? [`adv:${choice.copy}`, "button:buy_full"] : [`adv:${choice.copy}`];
    }
    case "buy_vale":
      return [`vale:${choice.vale}`];
    case "sleeve": {
      const slot = `slot:${choice.card}:${positionOf(choice.copy)}`;
      const both = choices.some(
        (c) =>
          c.kind === "sleeve" &&
          c.copy === choice.copy &&
          c.card === choice.card &&
          c.old_band !== choice.old_band,
      );
      if (!both) return [slot];
      return [slot, choice.old_band ? "button:band_old" : "button:band_new"];
    }
    default:
      // pass, spoil, decline, exchange, end_harvest, stop_prep: nothing on the board to click.
      return [`button:${choice.kind}`];
  }
}

export function label(key, ctx) {
  const view = ctx.view;
  if (key !== "button:decline") return undefined;
  if (view.phase === "nest") return ctx.t("decline.nest");
  if (view.choice && CHOICE_ABILITIES.has(view.choice.ability))
    return ctx.t(`decline.${view.choice.ability}`);
  return undefined;
}

// The page's table has each category; this says where the points come from.
export function scoring(ctx) {
  if (!ctx.result) return null;
  return html("div", { class: "mv-scoring" }, [
    html("p", { class: "mv-score-note", text: ctx.t("score.explain") }),
    html("p", { class: "mv-score-note", text: ctx.t("score.tiebreak") }),
  ]);
}

export { legendEntries } from "./mystic_vale/symbols.js";
export { describe, motion, spots, summarise } from "./mystic_vale/log.js";
export { magnify } from "./mystic_vale/magnify.js";
