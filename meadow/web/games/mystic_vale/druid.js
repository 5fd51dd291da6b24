// Each druid's mat: header, resources, field, on-deck card, vales, deck view and choices.

import { html, seatColour, seatSymbol, svg } from "../../js/draw.js";
import { advLook, card, marketTile } from "./cards.js";
import { pile } from "./market.js";
import { SPIRITS, advInfo, playerName, valeName } from "./names.js";
import { SHAPES, symbol, symbolBadge } from "./symbols.js";
import { valeCard, valeLook } from "./vale.js";

// Local choices of this viewer that survive the page redrawing the board after every move.
const ui = { pinned: new Set(), deckOpen: false };

function manaToken(active, owner, ctx) {
  const picture = svg("svg", { viewBox: "0 0 24 24", width: 24, height: 24 }, [
    svg("circle", {
      cx: 12,
      cy: 12,
      r: 10.5,
      fill: active ? "#2f8fe0" : "#9c9c9c",
      stroke: active ? "#0b3f73" : "#555",
      "stroke-width": 1.2,
    }),
    ...(active
      ? SHAPES.mana(12, 12, 6).map((n) => (n.setAttribute("fill", "#e9f5ff"), n))
      : [svg("circle", { cx: 12, cy: 12, r: 3, fill: "#cfcfcf" })]),
  ]);
  return html(
    "span",
    {
      class: `mv-token${active ? " mv-token-active" : ""}`,
      "data-spot": `token:${owner}`,
      title: ctx.t(active ? "mana_token.active" : "mana_token.inactive"),
    },
    [
      picture,
      html("span", {
        text: ctx.t(active ? "mana_token.active_short" : "mana_token.inactive_short"),
      }),
    ],
  );
}

function decayMeter(druid, ctx) {
  const decay = Math.max(0, druid.decay);
  const dots = svg(
    "svg",
    { viewBox: "0 0 52 14", width: 52, height: 14 },
    [0, 1, 2, 3].map((i) =>
      i < decay
        ? symbol("decay", 7 + i * 12.5, 7, 5.5, ctx)
        : svg("circle", {
            cx: 7 + i * 12.5,
            cy: 7,
            r: 5.2,
            fill: "none",
            stroke: i === 3 ? "#b71c1c" : "#888",
            "stroke-dasharray": "2 1.5",
          }),
    ),
  );
  return html("span", { class: "mv-decay", title: ctx.t("decay_help") }, [
    html("span", { text: ctx.t("decay_n", { n: druid.decay }) }),
    dots,
    druid.growth ? symbolBadge("growth", druid.growth, ctx) : null,
  ]);
}

// A token doubled by Wachstumsüberlauf is worth more than 1 in this harvest: say how much.
function plusToken(harvest, ctx) {
  const worth = harvest.token_mana || 1;
  return worth > 1 ? ctx.t("plus_token_n", { n: worth }) : ctx.t("plus_token");
}

// What the active druid has to spend: the harvest's remaining mana and spirits, or during
// Planting the symbols printed on the field cards (what the harvest will start from).
function resources(druid, owner, ctx) {
  const view = ctx.view;
  if (view.to_move !== owner) return null;
  if (view.harvest) {
    const h = view.harvest;
    return html("div", { class: "mv-resources" }, [
      html("span", { class: "mv-res-label", text: ctx.t("harvest_left") }),
      symbolBadge(
        "mana",
        h.mana,
        ctx,
        druid.mana_token ? html("span", { class: "mv-plus", text: plusToken(h, ctx) }) : null,
      ),
      ...SPIRITS.map((s) => symbolBadge(s, h.spirits[s] || 0, ctx)),
      html("span", {
        class: "mv-res-label",
        text: ctx.t("bought", { a: h.advancements_bought, limit: h.buy_limit, v: h.vales_bought }),
      }),
    ]);
  }
  const totals = {};
  for (const number of druid.field) {
    const entry = druid.cards[number - 1];
    for (const id of entry.slots) {
      if (!id) continue;
      for (const [s, n] of Object.entries(advInfo(id, ctx).symbols))
        totals[s] = (totals[s] || 0) + n;
    }
  }
  return html("div", { class: "mv-resources" }, [
    html("span", { class: "mv-res-label", text: ctx.t("in_field") }),
    symbolBadge("mana", totals.mana || 0, ctx),
    symbolBadge("vp", totals.vp || 0, ctx),
    ...SPIRITS.map((s) => symbolBadge(s, totals[s] || 0, ctx)),
  ]);
}

function druidHeader(druid, owner, ctx, extra) {
  const colour = seatColour(owner);
  const mark = ctx.settings && ctx.settings.colourblind ? `${seatSymbol(owner)} ` : "";
  const moving = ctx.view.to_move === owner;
  return html("div", { class: "mv-druid-head" }, [
    html("span", { class: "mv-druid-name", style: `border-color:${colour}` }, [
      html("span", { class: "mv-seat-dot", style: `background:${colour}` }),
      `${mark}${playerName(owner, ctx)}`,
      owner === ctx.seat ? html("span", { class: "mv-you", text: ctx.t("you") }) : null,
    ]),
    moving ? html("span", { class: "mv-to-move", text: ctx.t("to_move") }) : null,
    html("span", { class: "mv-vp", "data-spot": `vp:${owner}`, title: ctx.t("vp_tokens_help") }, [
      symbolBadge("vp", druid.vp, ctx),
    ]),
    manaToken(druid.mana_token, owner, ctx),
    decayMeter(druid, ctx),
    druid.spoiled ? html("span", { class: "mv-spoiled", text: ctx.t("spoiled") }) : null,
    html("span", {
      class: "mv-counts",
      text: ctx.t("counts", { deck: druid.deck_size, discard: druid.discard_size }),
    }),
    extra || null,
  ]);
}

function ownedVales(druid, owner, ctx, mine) {
  if (!druid.vales.length && !druid.boxed_vales.length) return null;
  const tiles = druid.vales.map((v) =>
    html(
      "div",
      {
        class: "mv-tile mv-vale mv-owned-vale",
        "data-key": mine ? `myvale:${v.vale}` : null,
        "data-spot": `vales:${owner}`,
        "data-piece": `vale:${v.vale}`,
        ...valeLook(v.vale, ctx),
      },
      [valeCard(v.vale, ctx, { isNew: v.new })],
    ),
  );
  const boxed = druid.boxed_vales.length
    ? html("div", {
        class: "mv-boxed",
        text: ctx.t("boxed", {
          names: druid.boxed_vales.map((id) => valeName(id, ctx)).join(", "),
        }),
      })
    : null;
  return html("div", { class: "mv-owned", "data-spot": `vales:${owner}` }, [
    html("span", { class: "mv-res-label", text: ctx.t("your_vales") }),
    ...tiles,
    boxed,
  ]);
}

// Which own-card keys this move needs: positions or whole cards.
function slotMode(ctx) {
  return (ctx.choices || []).some(
    (c) =>
      c.kind === "use_ability" || c.kind === "sleeve" || (c.kind === "buy_advancement" && c.onto),
  );
}

function fieldRow(druid, owner, ctx, mine) {
  const slotKeys = mine && slotMode(ctx);
  const onDeck = druid.on_deck
    ? card(druid.cards[druid.on_deck - 1], owner, ctx, {
        keyed: mine,
        slotKeys: false,
        note: ctx.t("on_deck"),
      })
    : html("div", { class: "mv-card mv-card-none", text: ctx.t("no_on_deck") });
  const piles = html("div", { class: "mv-piles" }, [
    pile(druid.deck_size, ctx.t("deck"), "#2f5d3a", {
      "data-key": mine ? "deck" : null,
      "data-spot": `deck:${owner}`,
    }),
    html("div", { class: "mv-pile-label", text: ctx.t("deck") }),
    pile(druid.discard_size, ctx.t("discard"), "#8a7a5c", { "data-spot": `discard:${owner}` }),
    html("div", { class: "mv-pile-label", text: ctx.t("discard") }),
  ]);
  const field = druid.field.map((number) =>
    card(druid.cards[number - 1], owner, ctx, { keyed: mine, slotKeys }),
  );
  return html("div", { class: "mv-field-row", "data-spot": `field:${owner}` }, [
    piles,
    html("div", { class: "mv-ondeck" }, [onDeck]),
    html(
      "div",
      { class: "mv-field" },
      field.length ? field : [html("div", { class: "mv-empty-field", text: ctx.t("field_empty") })],
    ),
  ]);
}

// The viewer's deck and discard pile, which only they may see (a toggle, kept across moves).
function deckView(druid, owner, ctx) {
  if (!druid.deck) return null;
  const known = new Set(druid.deck_top || []);
  const list = (numbers, marker) =>
    html(
      "div",
      { class: "mv-mini-row" },
      numbers.length
        ? numbers.map((n) => card(druid.cards[n - 1], owner, ctx, { scale: 0.6, note: marker(n) }))
        : [html("span", { class: "mv-none", text: ctx.t("none") })],
    );
  const details = html("details", { class: "mv-deckview", open: ui.deckOpen || null }, [
    html("summary", {
      text: ctx.t("deck_view", { deck: druid.deck.length, discard: druid.discard.length }),
    }),
    druid.deck_top && druid.deck_top.length
      ? html("div", {
          class: "mv-res-label",
          text: ctx.t("deck_top", { cards: druid.deck_top.join(", ") }),
        })
      : null,
    html("h4", { text: ctx.t("deck_cards", { n: druid.deck.length }) }),
    list(druid.deck, (n) => (known.has(n) ? ctx.t("known_top") : null)),
    html("h4", { text: ctx.t("discard_cards", { n: druid.discard.length }) }),
    list(druid.discard, () => null),
  ]);
  details.addEventListener("toggle", () => (ui.deckOpen = details.open));
  return details;
}

// Cards an ability offers from outside the field (the deck), drawn where they can be clicked.
function choiceStrip(druid, owner, ctx) {
  const field = new Set(druid.field);
  const offered = (ctx.choices || [])
    .filter((c) => c.kind === "choose" && !field.has(c.card))
    .map((c) => c.card);
  if (!offered.length) return null;
  return html("div", { class: "mv-choice-strip" }, [
    html("div", { class: "mv-res-label", text: ctx.t("choice_cards") }),
    html(
      "div",
      { class: "mv-mini-row" },
      offered.map((n) => card(druid.cards[n - 1], owner, ctx, { keyed: true, scale: 0.7 })),
    ),
  ]);
}

function waitingPurchases(ctx, owner) {
  const h = ctx.view.harvest;
  if (!h || !h.to_sleeve.length || ctx.view.to_move !== owner) return null;
  return html("div", { class: "mv-to-sleeve" }, [
    html("span", { class: "mv-res-label", text: ctx.t("to_sleeve") }),
    ...h.to_sleeve.map((copy, i) =>
      html("div", { class: `mv-tile${i === 0 ? " mv-next-sleeve" : ""}`, ...advLook(copy, ctx) }, [
        marketTile(copy, ctx),
      ]),
    ),
  ]);
}

export function myArea(ctx) {
  const owner = ctx.seat;
  const druid = ctx.view.druids[owner];
  return html(
    "section",
    {
      class: "mv-druid mv-mine",
      "data-spot": `druid:${owner}`,
      style: `--seat:${seatColour(owner)}`,
    },
    [
      druidHeader(druid, owner, ctx),
      resources(druid, owner, ctx),
      choiceStrip(druid, owner, ctx),
      waitingPurchases(ctx, owner),
      fieldRow(druid, owner, ctx, true),
      ownedVales(druid, owner, ctx, true),
      deckView(druid, owner, ctx),
    ],
  );
}

// Another druid: their field shows while they play, or always once pinned by the viewer.
export function otherArea(owner, ctx) {
  const druid = ctx.view.druids[owner];
  const over = ctx.view.to_move === null;
  const shown = over || ctx.view.to_move === owner || ui.pinned.has(owner);
  const body = html("div", { class: "mv-druid-body", hidden: shown ? null : true }, [
    resources(druid, owner, ctx),
    waitingPurchases(ctx, owner),
    fieldRow(druid, owner, ctx, false),
    ownedVales(druid, owner, ctx, false),
  ]);
  const pin = html("button", {
    type: "button",
    class: "mv-pin",
    "aria-pressed": String(ui.pinned.has(owner)),
  });
  const label = () => {
    pin.textContent = ctx.t(ui.pinned.has(owner) ? "unpin" : "pin");
    pin.setAttribute("aria-pressed", String(ui.pinned.has(owner)));
  };
  label();
  pin.addEventListener("click", () => {
    if (ui.pinned.has(owner)) ui.pinned.delete(owner);
    else ui.pinned.add(owner);
    label();
    body.hidden = !(over || ctx.view.to_move === owner || ui.pinned.has(owner));
    section.classList.toggle("mv-pinned", ui.pinned.has(owner));
  });
  const section = html(
    "section",
    {
      class: `mv-druid mv-other${ui.pinned.has(owner) ? " mv-pinned" : ""}`,
      "data-spot": `druid:${owner}`,
      style: `--seat:${seatColour(owner)}`,
    },
    [druidHeader(druid, owner, ctx, over ? null : pin), body],
  );
  return section;
}
