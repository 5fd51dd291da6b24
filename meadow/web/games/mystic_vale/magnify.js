// A card, a market advancement or a vale card shown enlarged (js/magnify.js): drawn by cards.js
// at a larger scale, with everything its small face shows said in words.

import { html } from "../../js/draw.js";
import { card, marketTile } from "./cards.js";
import {
  EDGE_SYMBOLS,
  POSITIONS,
  SPIRITS,
  TIMINGS,
  abilityText,
  advInfo,
  advName,
  copyName,
  standinWords,
  valeInfo,
  valeName,
  valeNameLanguage,
} from "./names.js";
import { symbolBadge } from "./symbols.js";
import { valeCard } from "./vale.js";

const SCALE = 2; // market advancements and vale cards
const CARD_SCALE = 1.3; // a sleeved card, three advancements high

// `adv:<id>@<position>`, `vale:<id>` or `card:<owner>:<number>`, as the table marks them.
export function magnify(what, ctx) {
  const cut = what.indexOf(":");
  const kind = what.slice(0, cut);
  const rest = what.slice(cut + 1);
  if (kind === "adv") return advancementPanel(rest, ctx);
  if (kind === "vale") return valePanel(rest, ctx);
  if (kind === "card") {
    const [owner, number] = rest.split(":").map(Number);
    return cardPanel(owner, number, ctx);
  }
  return null;
}

function panel(picture, parts) {
  return html("div", { class: "mv-board mv-magnified" }, [
    html("div", { class: "mv-magnified-picture" }, [picture]),
    html("div", { class: "mv-magnified-text" }, parts.filter(Boolean)),
  ]);
}

function advancementPanel(copy, ctx) {
  const id = copy.split("@")[0];
  const info = advInfo(id, ctx);
  const facts = [info.level ? ctx.t("level_n", { n: info.level }) : null];
  facts.push(ctx.t("cost_n", { n: info.cost }));
  if (id === "fertile_soil") {
    const left = ctx.view.fertile_soil[POSITIONS.indexOf(copy.split("@")[1])];
    if (left !== undefined) facts.push(ctx.t("left_n", { n: left }));
  }
  return panel(marketTile(copy, ctx, null, SCALE), [
    html("strong", { class: "mv-magnified-name", text: copyName(copy, ctx) }),
    html("p", { text: facts.filter(Boolean).join(" · ") }),
    ...advancementText(id, ctx, null),
  ]);
}

// What a printed advancement does: its symbols, grey VP, ability and the state of its band.
function advancementText(id, ctx, band) {
  const info = advInfo(id, ctx);
  return [
    symbolsLine(ctx.t("magnify.gives"), info.symbols, [...EDGE_SYMBOLS, "end_vp"], ctx),
    abilityLine(info, ctx),
    band === null || band === undefined
      ? null
      : html("p", { text: ctx.t(band ? "band.showing" : "band.covered") }),
    info.standin ? html("p", { class: "mv-magnified-note", text: ctx.t("standin_values") }) : null,
  ];
}

function abilityLine(info, ctx) {
  if (!info.ability) return null;
  const timing = TIMINGS.includes(info.timing) ? ctx.t(`timing.${info.timing}`) : "";
  const text = abilityText(info.ability, ctx);
  return html("p", { class: "mv-magnified-ability" }, [
    timing ? html("em", { text: timing }) : null,
    timing && text ? ": " : "",
    text,
  ]);
}

function symbolsLine(label, counts, kinds, ctx) {
  const shown = kinds.filter((kind) => counts && counts[kind]);
  if (!shown.length) return null;
  return html("p", { class: "mv-magnified-symbols" }, [
    html("span", { text: label }),
    ...shown.map((kind) =>
      html("span", { class: "mv-magnified-symbol" }, [
        symbolBadge(kind, counts[kind], ctx),
        ctx.t(`symbol.${kind}`),
      ]),
    ),
  ]);
}

function valePanel(id, ctx) {
  const info = valeInfo(id, ctx);
  return panel(valeCard(id, ctx, { scale: SCALE }), [
    html("strong", {
      class: "mv-magnified-name",
      lang: valeNameLanguage(id, ctx),
      text: valeName(id, ctx),
    }),
    html("p", { text: ctx.t("level_n", { n: info.level || 1 }) }),
    symbolsLine(ctx.t("magnify.costs"), info.cost, SPIRITS, ctx),
    symbolsLine(ctx.t("magnify.gives"), info, ["growth", "end_vp"], ctx),
    abilityLine(info, ctx),
    info.standin ? html("p", { class: "mv-magnified-note", text: standinWords(info, ctx) }) : null,
  ]);
}

// A sleeved card: its three positions top to bottom, each advancement in full.
function cardPanel(owner, number, ctx) {
  const druid = ctx.view.druids[owner];
  const entry = druid && druid.cards[number - 1];
  if (!entry) return null;
  const positions = POSITIONS.map((position, i) => {
    const id = entry.slots[i];
    const where = ctx.t(`position.${position}`);
    if (!id) return html("li", {}, [html("strong", { text: `${where}: –` })]);
    const band = advInfo(id, ctx).vertical ? entry.band === position : null;
    return html("li", {}, [
      html("strong", { text: `${where}: ${advName(id, ctx)}` }),
      ...advancementText(id, ctx, band),
    ]);
  });
  return panel(card(entry, owner, ctx, { scale: CARD_SCALE }), [
    html("strong", { class: "mv-magnified-name", text: ctx.t("magnify.card", { n: number }) }),
    html("ul", { class: "mv-magnified-slots" }, positions),
  ]);
}
