// Mystic Vale's move log: each event's line, the spots it names and what it carries.

import {
  NAMED_ADVANCEMENTS,
  NAMED_VALES,
  SPIRITS,
  advInfo,
  advName,
  copyName,
  playerName,
  valeName,
} from "./names.js";

function spiritList(spirits, ctx) {
  const parts = SPIRITS.filter((s) => spirits && spirits[s]).map(
    (s) => `${spirits[s]} ${ctx.t(`symbol.${s}`)}`,
  );
  return parts.length ? parts.join(", ") : ctx.t("no_spirits");
}

function reasonText(reason, ctx) {
  if (reason === "field") return ctx.t("reason.field");
  if (NAMED_ADVANCEMENTS.has(reason)) return advName(reason, ctx);
  if (NAMED_VALES.has(reason)) return valeName(reason, ctx);
  return reason;
}

function sourceName(source, ctx) {
  return NAMED_ADVANCEMENTS.has(source) ? advName(source, ctx) : valeName(source, ctx);
}

const DESCRIBE = {
  turn: (e, p) => ["event.turn", { ...p, turn: e.turn }],
  play: (e, p, ctx) => [e.stage === "prep" ? "event.play_prep" : "event.play", { ...p, card: cardWords(e.seat, e.card, ctx) }],
  reveal: (e, p, ctx) => (e.card ? ["event.reveal", { ...p, card: cardWords(e.seat, e.card, ctx) }] : ["event.reveal_none", p]),
  spoil: (e, p) => [e.mana_token ? "event.spoil_token" : "event.spoil", p],
  cleanup: (e, p, ctx) =>
    e.kept && e.kept.length
      ? ["event.cleanup_kept", { ...p, cards: e.kept.map((n) => cardWords(e.seat, n, ctx)).join(", ") }]
      : ["event.cleanup", p],
  harvest: (e, p, ctx) => [
    "event.harvest",
    { ...p, mana: e.mana, spirits: spiritList(e.spirits, ctx) },
  ],
  vp: (e, p, ctx) => [
    e.end_triggered ? "event.vp_last" : "event.vp",
    { ...p, vp: e.vp, reason: reasonText(e.reason, ctx) },
  ],
  ability: (e, p, ctx) => [
    e.added ? "event.ability_added" : e.mana !== undefined ? "event.ability_mana" : "event.ability",
    {
      ...p,
      name: p.name,
      ability: abilityLabel(e, ctx),
      card: cardWords(e.seat, e.card, ctx),
      mana: e.mana,
      cards: (e.added || []).map((n) => cardWords(e.seat, n, ctx)).join(", "),
    },
  ],
  buy: (e, p, ctx) => ["event.buy", { ...p, adv: copyName(e.copy, ctx), cost: e.cost }],
  buy_vale: (e, p, ctx) => [
    "event.buy_vale",
    { ...p, vale: valeName(e.vale, ctx), paid: spiritList(e.paid, ctx) },
  ],
  sleeve: (e, p, ctx) => ["event.sleeve", { ...p, adv: copyName(e.copy, ctx), card: cardWords(e.seat, e.card, ctx) }],
  reveal_advancement: (e, p, ctx) => ["event.reveal_advancement", { adv: copyName(e.copy, ctx) }],
  reveal_vale: (e, p, ctx) => ["event.reveal_vale", { vale: valeName(e.vale, ctx) }],
  end_triggered: () => ["event.end_triggered", {}],
  discard_from_field: (e, p, ctx) => ["event.discard_from_field", { ...p, card: cardWords(e.seat, e.card, ctx) }],
  discard_from_deck: (e, p, ctx) =>
    e.card
      ? ["event.discard_from_deck_card", { ...p, card: cardWords(e.seat, e.card, ctx) }]
      : ["event.discard_from_deck", p],
  keep_on_top: (e, p) => ["event.keep_on_top", p],
  shuffle_deck: (e, p) => ["event.shuffle_deck", p],
  prevent: (e, p, ctx) => ["event.prevent", { ...p, source: sourceName(e.ability, ctx) }],
  stop_prep: (e, p) => ["event.stop_prep", p],
  end_harvest: (e, p) => ["event.end_harvest", p],
  exchange: (e, p) => ["event.exchange", p],
  mana_token: (e, p) => ["event.mana_token", p],
  nest: (e, p, ctx) => ["event.nest", { ...p, card: cardWords(e.seat, e.card, ctx) }],
  look: (e, p) =>
    e.cards
      ? ["event.look_cards", { ...p, cards: e.cards.map((n) => cardWords(e.seat, n, ctx)).join(", ") }]
      : ["event.look", { ...p, count: e.count }],
  take_vale: (e, p, ctx) => ["event.take_vale", { ...p, vale: valeName(e.vale, ctx) }],
  mana: (e, p, ctx) => ["event.mana", { ...p, mana: e.mana, reason: reasonText(e.reason, ctx) }],
  prep: (e, p, ctx) => [
    e.deck ? "event.prep" : "event.prep_no_deck",
    {
      ...p,
      cards: e.cards.map((n) => cardWords(e.seat, n, ctx)).join(", "),
      deck: e.deck && cardWords(e.seat, e.deck, ctx),
    },
  ],
};

// Prep is routine: the cards go into the field one by one until the next would spoil it, and
// the log said each ("reveals", "into the field", a dozen lines a turn). A run of Prep's
// plays and reveals becomes one step naming the cards in order and the one left on deck.
export function summarise(events) {
  const found = [];
  let prep = null; // the Prep being gathered into one step
  for (const event of events) {
    const mine = prep && event.seat === prep.seat;
    if (mine && isPrepPlay(event)) {
      prep.cards.push(event.card);
      prep.deck = null;
    } else if (mine && event.kind === "reveal" && event.card && !prep.deck) {
      prep.deck = event.card;
    } else if (isPrepPlay(event)) {
      prep = { kind: "prep", seat: event.seat, cards: [event.card], deck: null };
      found.push(prep);
    } else {
      prep = null;
      found.push(event);
    }
  }
  return found;
}

function isPrepPlay(event) {
  return event.kind === "play" && event.stage === "prep";
}

// A card named by what it is: its advancements top to bottom ("Cursed Land", "Deer + Owl"),
// or a blank card, with its number as drawn on it. The names are the card's now (the event
// carries only its number): a card sleeved since reads with what it holds today.
function cardWords(seat, number, ctx) {
  const druid = ctx.view.druids[seat];
  const entry = druid && druid.cards[number - 1];
  if (!entry) return ctx.t("magnify.card", { n: number });
  const names = entry.slots.filter(Boolean).map((id) => advName(id, ctx));
  return ctx.t("card_words", { names: names.length ? names.join(" + ") : ctx.t("blank_card"), n: number });
}

function abilityLabel(event, ctx) {
  const druid = ctx.view.druids[event.seat];
  const entry = druid && druid.cards[event.card - 1];
  const id = entry && entry.slots.find((s) => s && advInfo(s, ctx).ability === event.ability);
  return id ? advName(id, ctx) : sourceName(event.ability, ctx);
}

export function describe(event, ctx) {
  const params = {
    name: event.seat === null || event.seat === undefined ? "" : playerName(event.seat, ctx),
  };
  const make = DESCRIBE[event.kind];
  if (!make) return ctx.t("event.other", { ...params, kind: event.kind });
  const [key, values] = make(event, params, ctx);
  return ctx.t(key, values);
}

export function spots(event) {
  const s = event.seat;
  switch (event.kind) {
    case "play":
    case "reveal":
    case "ability":
    case "sleeve":
    case "nest":
      return event.card ? [`c:${s}:${event.card}`] : [`deck:${s}`];
    case "discard_from_field":
      return [`c:${s}:${event.card}`, `discard:${s}`];
    case "discard_from_deck":
    case "cleanup":
      return [`discard:${s}`];
    case "keep_on_top":
    case "shuffle_deck":
    case "look":
      return [`deck:${s}`];
    case "spoil":
      return [`field:${s}`];
    case "buy":
      return [`adv:${event.copy}`];
    case "vp":
      return [`vp:${s}`, "pool"];
    case "exchange":
      return [`vp:${s}`];
    case "mana_token":
      return [`token:${s}`];
    case "buy_vale":
    case "take_vale":
      return [`vales:${s}`];
    case "prevent":
      if (event.ability === "druide_des_friedens") return [`field:${s}`, `discard:${s}`];
      return event.card ? [`vales:${s}`, `c:${s}:${event.card}`] : [`vales:${s}`];
    case "reveal_advancement":
      return [`adv:${event.copy}`];
    case "reveal_vale":
      return [`vale:${event.vale}`];
    case "end_triggered":
      return ["pool"];
    default:
      // A harvest, a purchase ending, a new turn: nothing in particular changed on the mat,
      // and marking the whole mat made it flash on most moves.
      return [];
  }
}

// What a move carries across the table, for the page to show it flying (motion.js): an
// advancement from the market into the card it is sleeved onto, a vale from the market to
// the druid's vales.
export function motion(event) {
  if (event.kind === "sleeve") return [{ from: `adv:${event.copy}`, to: `c:${event.seat}:${event.card}` }];
  if (event.kind === "buy_vale") {
    return [{ from: `vale:${event.vale}`, to: `vales:${event.seat}`, piece: `vale:${event.vale}` }];
  }
  return [];
}
