// Mystic Vale's names: of cards, copies, abilities and players, and the card file's facts.

export const POSITIONS = ["top", "middle", "bottom"];
export const SPIRITS = ["beast", "forest", "sky", "wild"];
// The left edge of a printed advancement, in the order the symbols are drawn.
export const EDGE_SYMBOLS = [
  "mana",
  "decay",
  "growth",
  "vp",
  "beast",
  "forest",
  "sky",
  "wild",
  "guardian",
];
export const LEGEND = [...EDGE_SYMBOLS, "end_vp"];
export const TIMINGS = [
  "on_play",
  "harvest",
  "persistent",
  "end_of_game",
  "cleanup",
  "on_purchase",
  "spoil_prevention",
];

// Card types whose names are in the language files; others (a card file imported later)
// show the name the server sends.
export const NAMED_ADVANCEMENTS = new Set([
  "cursed_land",
  "fertile_soil",
  "druide_des_friedens",
  "ruhiges_wetter",
  "totholz_ernterin",
  "druidenlied",
  "mondwolf",
  "hirsch",
  "achtsame_eule",
  "reinigender_regen",
  "samen_des_lebens",
  "magischer_samen",
  "morgenrot_saengerin",
  "aurora",
  "chor_des_erdengesangs",
  "gaias_erwaehlte",
  "goldfluegel_greif",
  "keimling",
  "brutplatz",
  "lebenskraft_orakel",
  "baumkronen_erkunder",
  "wachstumsueberlauf",
  "sporenverteiler",
]);
export const NAMED_VALES = new Set([
  "bluehende_lichtung",
  "alte_lebenswurzeln",
  "azurblauer_see",
  "bach_der_vitalitaet",
  "aetherbaum",
  "hoehle_der_tierwelt",
  "hort_der_waldgeister",
  "sonnenquell_tempel",
  "bernsteinbaum",
  "wolfsbau",
  "manatau_wiese",
  "erdenwiege",
  "tal_der_magie",
  "glitzerklippen_horst",
  "konklave_der_baumhirten",
]);
const ABILITIES = new Set([
  "druide_des_friedens",
  "ruhiges_wetter",
  "discard_from_field",
  "reinigender_regen",
  "samen_des_lebens",
  "magischer_samen",
  "aurora",
  "chor_des_erdengesangs",
  "gaias_erwaehlte",
  "goldfluegel_greif",
  "keimling",
  "brutplatz",
  "lebenskraft_orakel",
  "baumkronen_erkunder",
  "wachstumsueberlauf",
  "sporenverteiler",
  "bluehende_lichtung",
  "alte_lebenswurzeln",
  "azurblauer_see",
  "bach_der_vitalitaet",
  "aetherbaum",
  "hoehle_der_tierwelt",
  "hort_der_waldgeister",
  "sonnenquell_tempel",
  "mana_token",
  "manatau_wiese",
  "erdenwiege",
  "tal_der_magie",
  "konklave_der_baumhirten",
]);
// Abilities that stop the game for a choice of cards.
export const CHOICE_ABILITIES = new Set([
  "discard_from_field",
  "ruhiges_wetter",
  "reinigender_regen",
  "lebenskraft_orakel",
  "hort_der_waldgeister",
]);
export const STANDIN_NOTES = {
  "advancement costs, symbols and levels": "standins.advancements",
  "vale costs, symbols, levels and copies": "standins.vales",
  "vale symbols and copies; the costs and levels of vales no source lists":
    "standins.vales_unsourced",
  "starter card positions": "standins.starter",
};

export function advName(id, ctx) {
  if (id.startsWith("standin_")) return `${ctx.t("standin")} ${standinCode(id.slice(8))}`;
  if (NAMED_ADVANCEMENTS.has(id)) return ctx.t(`adv.${id}`);
  const info = catalog(ctx).advancements[id];
  return info ? info.name : id;
}

export function valeName(id, ctx) {
  if (id.startsWith("standin_v")) return `${ctx.t("standin")} ${standinCode(id.slice(9))}`;
  if (NAMED_VALES.has(id)) return ctx.t(`vale.${id}`);
  const info = catalog(ctx).vales[id];
  return info ? info.name : id;
}

// The language a vale's name is written in where it is not the page's (S19 gives some names in
// English alone), for a `lang` attribute, so that a screen reader reads it as written.
export function valeNameLanguage(id, ctx) {
  if (NAMED_VALES.has(id) || id.startsWith("standin_v")) return null;
  const language = (catalog(ctx).vales[id] || {}).name_language;
  return language && language !== document.documentElement.lang ? language : null;
}

// "b1a" -> "B1-A", the code the card file gives its plain stand-ins.
function standinCode(code) {
  return `${code.slice(0, -1)}-${code.slice(-1)}`.toUpperCase();
}

export function copyName(copy, ctx) {
  const [id, position] = copy.split("@");
  return ctx.t("copy", { name: advName(id, ctx), position: ctx.t(`position.${position}`) });
}

export function abilityText(ability, ctx) {
  return ABILITIES.has(ability) ? ctx.t(`ability.${ability}`) : "";
}

export function playerName(seat, ctx) {
  if (ctx.seatName) return ctx.seatName(seat);
  const player = (ctx.players || [])[seat] || {};
  return player.name || ctx.t("druid_n", { n: seat + 1 });
}

function catalog(ctx) {
  return ctx.view.catalog || { advancements: {}, vales: {} };
}

export function advInfo(id, ctx) {
  return catalog(ctx).advancements[id] || { symbols: {}, level: 0, cost: 0 };
}

// What a card's stand-in note says: some values are Meadow's, and for a vale whose cost and
// level come from a public list (S19), that those two are printed ones.
export function standinWords(info, ctx) {
  if (!info.standin) return "";
  return info.sourced && info.sourced.length ? ctx.t("standin_but_sourced") : ctx.t("standin_values");
}

export function valeInfo(id, ctx) {
  return catalog(ctx).vales[id] || { cost: {}, level: 1, end_vp: 0, growth: 0 };
}
