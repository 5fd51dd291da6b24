// Mystic Vale's table: each druid's sleeved cards (three positions each), the advancement and
// vale markets, Fertile Soil, the VP pool and the mana tokens. What is legal comes only from
// ctx.choices; this module draws and names the clicks.

import { html, seatColour, seatSymbol, svg } from "../js/draw.js";

const POSITIONS = ["top", "middle", "bottom"];
const SPIRITS = ["beast", "forest", "sky", "wild"];
// The left edge of a printed advancement, in the order the symbols are drawn.
const EDGE_SYMBOLS = [
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
const LEGEND = [...EDGE_SYMBOLS, "end_vp"];
const TIMINGS = [
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
const NAMED_ADVANCEMENTS = new Set([
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
const NAMED_VALES = new Set([
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
const CHOICE_ABILITIES = new Set([
  "discard_from_field",
  "ruhiges_wetter",
  "reinigender_regen",
  "lebenskraft_orakel",
  "hort_der_waldgeister",
]);
const STANDIN_NOTES = {
  "advancement costs, symbols and levels": "standins.advancements",
  "vale costs, symbols, levels and copies": "standins.vales",
  "starter card positions": "standins.starter",
};

// Local choices of this viewer that survive the page redrawing the board after every move.
const ui = { pinned: new Set(), deckOpen: false };

const BAND_W = 94;
const TILE_W = 122;
const VALE_W = 104;
const BAND_H = 46;
const CARD_W = 100;
const CARD_H = 150;

// ---------------------------------------------------------------------------------------
// names

function advName(id, ctx) {
  if (id.startsWith("standin_")) return `${ctx.t("standin")} ${standinCode(id.slice(8))}`;
  if (NAMED_ADVANCEMENTS.has(id)) return ctx.t(`adv.${id}`);
  const info = catalog(ctx).advancements[id];
  return info ? info.name : id;
}

function valeName(id, ctx) {
  if (id.startsWith("standin_v")) return `${ctx.t("standin")} ${standinCode(id.slice(9))}`;
  if (NAMED_VALES.has(id)) return ctx.t(`vale.${id}`);
  const info = catalog(ctx).vales[id];
  return info ? info.name : id;
}

// "b1a" -> "B1-A", the code the card file gives its plain stand-ins.
function standinCode(code) {
  return `${code.slice(0, -1)}-${code.slice(-1)}`.toUpperCase();
}

function copyName(copy, ctx) {
  const [id, position] = copy.split("@");
  return ctx.t("copy", { name: advName(id, ctx), position: ctx.t(`position.${position}`) });
}

function abilityText(ability, ctx) {
  return ABILITIES.has(ability) ? ctx.t(`ability.${ability}`) : "";
}

function playerName(seat, ctx) {
  if (ctx.seatName) return ctx.seatName(seat);
  const player = (ctx.players || [])[seat] || {};
  return player.name || ctx.t("druid_n", { n: seat + 1 });
}

function catalog(ctx) {
  return ctx.view.catalog || { advancements: {}, vales: {} };
}

function advInfo(id, ctx) {
  return catalog(ctx).advancements[id] || { symbols: {}, level: 0, cost: 0 };
}

function valeInfo(id, ctx) {
  return catalog(ctx).vales[id] || { cost: {}, level: 1, end_vp: 0, growth: 0 };
}

// ---------------------------------------------------------------------------------------
// symbols

function starSymbol(fill, stroke) {
  return (x, y, r) => [
    svg("polygon", { points: star(x, y, r * 1.1), fill, stroke, "stroke-width": 0.7 }),
  ];
}

function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(
      `${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`,
    );
  }
  return points.join(" ");
}

const SHAPES = {
  mana: (x, y, r) => [
    svg("path", {
      d: `M${x} ${y - r} L${x + r * 0.75} ${y} L${x} ${y + r} L${x - r * 0.75} ${y} Z`,
      fill: "#1f7fd0",
      stroke: "#0b3f73",
      "stroke-width": 0.8,
    }),
  ],
  decay: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#4a2347", stroke: "#230f22", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x - r * 0.2} ${y - r * 0.85} L${x + r * 0.2} ${y - r * 0.15} L${x - r * 0.3} ${y + r * 0.2} L${x + r * 0.1} ${y + r * 0.85}`,
      fill: "none",
      stroke: "#e6c9e0",
      "stroke-width": 1,
    }),
  ],
  growth: (x, y, r) => [
    svg("path", {
      d: `M${x - r * 0.8} ${y + r * 0.8} C${x - r} ${y - r * 0.6} ${x + r * 0.2} ${y - r} ${x + r * 0.85} ${y - r * 0.85} C${x + r} ${y + r * 0.2} ${x - r * 0.1} ${y + r} ${x - r * 0.8} ${y + r * 0.8} Z`,
      fill: "#4caf50",
      stroke: "#1b5e20",
      "stroke-width": 0.8,
    }),
    svg("path", {
      d: `M${x - r * 0.8} ${y + r * 0.8} L${x + r * 0.5} ${y - r * 0.5}`,
      stroke: "#1b5e20",
      "stroke-width": 0.7,
    }),
  ],
  vp: starSymbol("#f2b705", "#8a6100"), // gold: points now
  end_vp: starSymbol("#a8a8a8", "#555"), // grey: points at the end
  beast: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#d9622b", stroke: "#7a2e0e", "stroke-width": 0.8 }),
    svg("ellipse", { cx: x, cy: y + r * 0.3, rx: r * 0.38, ry: r * 0.3, fill: "#fff3e8" }),
    ...[-0.45, 0, 0.45].map((dx) =>
      svg("circle", {
        cx: x + dx * r,
        cy: y - r * (dx ? 0.25 : 0.45),
        r: r * 0.17,
        fill: "#fff3e8",
      }),
    ),
  ],
  forest: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#2e7d32", stroke: "#103d13", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x} ${y - r * 0.7} L${x + r * 0.55} ${y + r * 0.35} L${x - r * 0.55} ${y + r * 0.35} Z M${x - r * 0.12} ${y + r * 0.35} h${r * 0.24} v${r * 0.35} h${-r * 0.24} Z`,
      fill: "#e8f5e9",
    }),
  ],
  sky: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#5fb8e8", stroke: "#1d5f85", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x - r * 0.65} ${y - r * 0.05} Q${x - r * 0.3} ${y - r * 0.45} ${x} ${y + r * 0.15} Q${x + r * 0.3} ${y - r * 0.45} ${x + r * 0.65} ${y - r * 0.05}`,
      fill: "none",
      stroke: "#ffffff",
      "stroke-width": 1.1,
    }),
  ],
  wild: (x, y, r) => [
    svg("circle", { cx: x, cy: y, r, fill: "#8e44ad", stroke: "#4a1a5e", "stroke-width": 0.8 }),
    svg("path", {
      d: `M${x} ${y - r * 0.75} Q${x + r * 0.15} ${y - r * 0.15} ${x + r * 0.75} ${y} Q${x + r * 0.15} ${y + r * 0.15} ${x} ${y + r * 0.75} Q${x - r * 0.15} ${y + r * 0.15} ${x - r * 0.75} ${y} Q${x - r * 0.15} ${y - r * 0.15} ${x} ${y - r * 0.75} Z`,
      fill: "#fff6c2",
    }),
  ],
  guardian: (x, y, r) => [
    svg("path", {
      d: `M${x} ${y - r} L${x + r * 0.85} ${y - r * 0.6} L${x + r * 0.7} ${y + r * 0.35} L${x} ${y + r} L${x - r * 0.7} ${y + r * 0.35} L${x - r * 0.85} ${y - r * 0.6} Z`,
      fill: "#8d7b68",
      stroke: "#3e3328",
      "stroke-width": 0.8,
    }),
  ],
};

function symbol(kind, x, y, r, ctx) {
  return svg("g", { class: `mv-sym mv-sym-${kind}` }, [
    svg("title", { text: ctx.t(`symbol.${kind}`) }),
    ...SHAPES[kind](x, y, r),
  ]);
}

// A symbol with a number beside it, as an inline picture for HTML text.
function symbolBadge(kind, count, ctx, extra) {
  const picture = svg(
    "svg",
    { class: "mv-badge-icon", viewBox: "0 0 16 16", width: 16, height: 16 },
    [symbol(kind, 8, 8, 6.5, ctx)],
  );
  return html("span", { class: "mv-badge", title: ctx.t(`symbol.${kind}`) }, [
    picture,
    html("span", { class: "mv-badge-count", text: String(count) }),
    extra || null,
  ]);
}

function timingBadge(timing, x, y, ctx, ability) {
  const marks = {
    on_play: `M${x - 2.5} ${y - 3} L${x + 3} ${y} L${x - 2.5} ${y + 3} Z`,
    harvest: `M${x - 3} ${y + 2} Q${x} ${y - 5} ${x + 3} ${y + 2} M${x} ${y - 2} v5`,
    persistent: `M${x - 3} ${y} a1.5 1.5 0 1 0 3 0 a1.5 1.5 0 1 1 3 0 a1.5 1.5 0 1 1 -3 0 a1.5 1.5 0 1 0 -3 0`,
    end_of_game: `M${x - 2} ${y + 3.5} V${y - 3.5} L${x + 3} ${y - 2} L${x - 2} ${y - 0.5}`,
    cleanup: `M${x - 3} ${y + 1} A3 3 0 1 1 ${x + 1} ${y + 3} M${x - 3} ${y + 1} l-0.5 -2.5 M${x - 3} ${y + 1} l2.3 -0.8`,
    on_purchase: `M${x - 3} ${y} H${x + 3} M${x} ${y - 3} V${y + 3}`,
    spoil_prevention: `M${x} ${y - 3.5} L${x + 3} ${y - 2} L${x + 2.3} ${y + 1.5} L${x} ${y + 3.5} L${x - 2.3} ${y + 1.5} L${x - 3} ${y - 2} Z`,
  };
  const tip = [TIMINGS.includes(timing) ? ctx.t(`timing.${timing}`) : "", abilityText(ability, ctx)]
    .filter(Boolean)
    .join(": ");
  return svg("g", { class: "mv-timing" }, [
    svg("title", { text: tip }),
    svg("circle", { cx: x, cy: y, r: 5.5, fill: "#3b3b3b" }),
    svg("path", {
      d: marks[timing] || `M${x - 2} ${y} H${x + 2}`,
      fill: timing === "on_play" ? "#fff" : "none",
      stroke: "#fff",
      "stroke-width": 1,
    }),
  ]);
}

// Text in lines of at most `width` characters (names are long German compounds): lines break
// at spaces, after a word's hyphen (not a code's, "B1-A") and at soft hyphens (U+00AD, in the
// language files), which then show.
function wrap(text, width, most) {
  const pieces = [];
  text
    .split(" ")
    .forEach((word, i) =>
      word
        .split(/(?<=\p{L}{3}-)/u)
        .forEach((part, j) =>
          part
            .split("\u00ad")
            .forEach((syllable, k) => pieces.push([syllable, k ? "soft" : i && !j ? "space" : ""])),
        ),
    );
  const lines = [];
  for (const [piece, joint] of pieces) {
    const last = lines.length - 1;
    const joined = last >= 0 ? lines[last] + (joint === "space" ? " " : "") + piece : null;
    if (joined !== null && joined.length <= width) lines[last] = joined;
    else if (joint === "soft") {
      lines[last] += "-";
      lines.push(piece);
    } else lines.push(piece);
  }
  if (lines.length > most) lines.splice(most - 1, lines.length, lines.slice(most - 1).join(" "));
  return lines;
}

// Lines of text, a line too wide for `room` squeezed into it.
function textLines(lines, x, y, size, room, attrs) {
  return lines.map((line, i) =>
    svg("text", {
      x,
      y: y + i * (size + 1),
      "font-size": size,
      ...attrs,
      textLength: line.length * size * 0.6 > room ? room : null,
      lengthAdjust: "spacingAndGlyphs",
      text: line,
    }),
  );
}

// ---------------------------------------------------------------------------------------
// advancements and cards

const BAND_FILL = { 0: "#efe6c8", 1: "#dcebd0", 2: "#d5e3f0", 3: "#eadcf0" };

function bandFill(id, info) {
  if (id === "cursed_land") return "#d8c3cf";
  return BAND_FILL[info.level] || BAND_FILL[1];
}

// One printed advancement: symbols on its left edge, name, grey VP and the ability's timing.
// `band`: null if it has no vertical band, else whether that band is the one showing.
function advancement(id, x, y, ctx, band) {
  const info = advInfo(id, ctx);
  const parts = [
    svg("rect", {
      x,
      y,
      width: BAND_W,
      height: BAND_H,
      rx: 3,
      fill: bandFill(id, info),
      stroke: "#6f6552",
      "stroke-width": 0.7,
    }),
  ];
  if (band !== null) parts.push(verticalBand(x, y, band, ctx));
  const left = x + (band === null ? 0 : 5);
  const shown = EDGE_SYMBOLS.flatMap((s) => Array(info.symbols[s] || 0).fill(s));
  shown.slice(0, 8).forEach((s, i) => {
    parts.push(symbol(s, left + 7.5 + (i % 2) * 12, y + 8 + Math.floor(i / 2) * 11, 5.2, ctx));
  });
  const nameX = left + (shown.length > 1 ? 30 : shown.length ? 17 : 5);
  const room = x + BAND_W - nameX - (info.symbols.end_vp || info.ability ? 14 : 3);
  const lines = wrap(advName(id, ctx), Math.floor(room / 5.4), 3);
  parts.push(...textLines(lines, nameX, y + 13, 9, room, { class: "mv-name" }));
  if (info.symbols.end_vp) {
    parts.push(symbol("end_vp", x + BAND_W - 8, y + 9, 5.5, ctx));
    parts.push(
      svg("text", {
        x: x + BAND_W - 8,
        y: y + 11.5,
        "font-size": 7,
        class: "mv-on-star",
        text: info.symbols.end_vp,
      }),
    );
  }
  if (info.ability)
    parts.push(timingBadge(info.timing, x + BAND_W - 8, y + BAND_H - 9, ctx, info.ability));
  if (info.standin && !id.startsWith("standin_")) {
    parts.push(
      svg("text", {
        x: nameX,
        y: y + BAND_H - 3.5,
        "font-size": 6.5,
        class: "mv-standin",
        text: ctx.t("standin"),
      }),
    );
  }
  return svg("g", { class: "mv-adv" }, [svg("title", { text: advTitle(id, ctx) }), ...parts]);
}

function verticalBand(x, y, showing, ctx) {
  return svg(
    "rect",
    {
      x: x + 0.5,
      y: y + 0.5,
      width: 4,
      height: BAND_H - 1,
      fill: showing ? "#d98e04" : "#9e9e9e",
      opacity: showing ? 1 : 0.6,
      class: "mv-vband",
    },
    [svg("title", { text: ctx.t(showing ? "band.showing" : "band.covered") })],
  );
}

function advTitle(id, ctx) {
  const info = advInfo(id, ctx);
  const parts = [advName(id, ctx)];
  if (info.level) parts.push(ctx.t("level_n", { n: info.level }));
  if (info.ability) parts.push(abilityText(info.ability, ctx));
  if (info.standin) parts.push(ctx.t("standin_values"));
  return parts.filter(Boolean).join(" · ");
}

function emptySlot(x, y) {
  return svg("rect", {
    x,
    y,
    width: BAND_W,
    height: BAND_H,
    rx: 3,
    fill: "#ffffff",
    "fill-opacity": 0.35,
    stroke: "#b9ae96",
    "stroke-dasharray": "3 2",
    "stroke-width": 0.8,
  });
}

// One sleeved card. Own cards carry keys: the whole card, or (when a choice names a position)
// each of its three positions, never both, so that no click lands on a key not in play.
function card(entry, owner, ctx, opts = {}) {
  const { slotKeys = false, keyed = false, scale = 1, note = null } = opts;
  const frame = svg("rect", {
    x: 1,
    y: 1,
    width: CARD_W - 2,
    height: CARD_H - 2,
    rx: 6,
    class: "mv-sleeve",
    fill: "#f8f4ea",
    stroke: "#8c7f66",
    "stroke-width": 1.4,
  });
  const parts = [frame];
  POSITIONS.forEach((position, i) => {
    const y = 4 + i * 48;
    const id = entry.slots[i];
    const band = id && advInfo(id, ctx).vertical ? entry.band === position : null;
    const drawn = id ? advancement(id, 3, y, ctx, band) : emptySlot(3, y);
    if (slotKeys && keyed) {
      parts.push(
        svg("g", { class: "mv-slot", "data-key": `slot:${entry.card}:${position}` }, [
          drawn,
          svg("rect", {
            x: 3,
            y,
            width: BAND_W,
            height: BAND_H,
            rx: 3,
            class: "mv-slot-mark",
            fill: "none",
          }),
        ]),
      );
    } else parts.push(drawn);
  });
  const picture = svg(
    "svg",
    {
      class: "mv-card-svg",
      viewBox: `0 0 ${CARD_W} ${CARD_H}`,
      width: Math.round(CARD_W * scale),
      height: Math.round(CARD_H * scale),
    },
    parts,
  );
  return html(
    "div",
    {
      class: "mv-card",
      "data-key": keyed && !slotKeys ? `card:${entry.card}` : null,
      "data-spot": `c:${owner}:${entry.card}`,
    },
    [
      picture,
      html("div", {
        class: "mv-card-number",
        text: note ? `${entry.card} · ${note}` : String(entry.card),
      }),
    ],
  );
}

// ---------------------------------------------------------------------------------------
// markets

function positionMark(position, x, y) {
  return svg(
    "g",
    { class: "mv-posmark" },
    POSITIONS.map((p, i) =>
      svg("rect", {
        x,
        y: y + i * 6,
        width: 7,
        height: 5,
        rx: 1,
        fill: p === position ? "#3b3b3b" : "#ffffff",
        stroke: "#3b3b3b",
        "stroke-width": 0.6,
      }),
    ),
  );
}

function costMark(cost, level, x, y, ctx) {
  const parts = [
    svg("g", {}, [svg("title", { text: ctx.t("cost_n", { n: cost }) }), ...SHAPES.mana(x, y, 8)]),
    svg("text", { x, y: y + 3, "font-size": 9, class: "mv-cost", text: cost }),
  ];
  for (let i = 0; i < level; i++) {
    parts.push(
      svg("circle", { cx: x - (level - 1) * 2.5 + i * 5, cy: y + 13, r: 1.8, fill: "#3b3b3b" }),
    );
  }
  return svg("g", {}, parts);
}

// A market advancement: the printed third of a card, its position, cost and level.
function marketTile(copy, ctx, extra) {
  const [id, position] = copy.split("@");
  const info = advInfo(id, ctx);
  const parts = [
    svg("rect", { x: 0.5, y: 0.5, width: TILE_W - 1, height: 53, rx: 5, class: "mv-tile-bg" }),
    positionMark(position, 2, 18),
    advancement(id, 11, 4, ctx, info.vertical ? true : null),
    costMark(info.cost, info.level, TILE_W - 9, 17, ctx),
  ];
  if (extra) parts.push(extra);
  return svg(
    "svg",
    { class: "mv-tile-svg", viewBox: `0 0 ${TILE_W} 54`, width: TILE_W, height: 54 },
    parts,
  );
}

function advancementMarket(ctx) {
  const view = ctx.view;
  const rows = view.market.map((slots, level) =>
    html("div", { class: "mv-market-row" }, [
      pile(
        view.piles[level],
        ctx.t("pile_advancements", { n: level + 1 }),
        "#5d4a7a",
        {},
        level + 1,
      ),
      ...slots.map((copy) =>
        copy
          ? html(
              "div",
              { class: "mv-tile", "data-key": `adv:${copy}`, "data-spot": `adv:${copy}` },
              [marketTile(copy, ctx)],
            )
          : html("div", { class: "mv-tile mv-tile-empty" }),
      ),
    ]),
  );
  return html("section", { class: "mv-market" }, [
    html("h3", { text: ctx.t("advancements") }),
    ...rows,
  ]);
}

function fertileSoil(ctx) {
  const tiles = POSITIONS.map((position, i) => {
    const copy = `fertile_soil@${position}`;
    const left = ctx.view.fertile_soil[i];
    const count = svg("text", {
      x: TILE_W - 9,
      y: 49,
      "font-size": 8,
      class: "mv-count",
      text: `×${left}`,
    });
    return html(
      "div",
      {
        class: `mv-tile${left ? "" : " mv-tile-out"}`,
        "data-key": `adv:${copy}`,
        "data-spot": `adv:${copy}`,
        title: ctx.t("left_n", { n: left }),
      },
      [marketTile(copy, ctx, count)],
    );
  });
  return html("section", { class: "mv-fertile" }, [
    html("h3", { text: ctx.t("adv.fertile_soil") }),
    html("div", { class: "mv-market-row" }, tiles),
  ]);
}

// A vale card: name, spirit cost, grey VP, growth and its ability.
function valeCard(id, ctx, opts = {}) {
  const info = valeInfo(id, ctx);
  const parts = [
    svg("rect", {
      x: 0.5,
      y: 0.5,
      width: VALE_W - 1,
      height: 63,
      rx: 6,
      fill: info.level === 2 ? "#c7d0ee" : "#cfe8e0",
      stroke: info.level === 2 ? "#3d4f8f" : "#2f7565",
      "stroke-width": 1.2,
    }),
    svg("rect", {
      x: 4,
      y: 4,
      width: VALE_W - 8,
      height: 3,
      rx: 1.5,
      fill: info.level === 2 ? "#3d4f8f" : "#2f7565",
    }),
  ];
  parts.push(
    ...textLines(wrap(valeName(id, ctx), 15, 2), 5, 17, 9, VALE_W - 24, { class: "mv-name" }),
  );
  const cost = SPIRITS.flatMap((s) => Array(info.cost[s] || 0).fill(s));
  cost.forEach((s, i) => parts.push(symbol(s, 10 + i * 12, 52, 5, ctx)));
  for (let i = 0; i < (info.growth || 0); i++)
    parts.push(symbol("growth", 14 + (cost.length + i) * 12, 52, 5, ctx));
  const right = VALE_W - 10;
  if (info.end_vp) {
    parts.push(symbol("end_vp", right, 17, 7, ctx));
    parts.push(
      svg("text", { x: right, y: 20, "font-size": 8, class: "mv-on-star", text: info.end_vp }),
    );
  }
  if (info.ability) parts.push(timingBadge(info.timing, right, 52, ctx, info.ability));
  if (info.standin && !id.startsWith("standin_")) {
    parts.push(
      svg("text", { x: 5, y: 41, "font-size": 6.5, class: "mv-standin", text: ctx.t("standin") }),
    );
  }
  for (let i = 0; i < (info.level || 1); i++)
    parts.push(svg("circle", { cx: right - i * 5, cy: 33, r: 1.8, fill: "#3b3b3b" }));
  if (opts.isNew) {
    parts.push(
      svg("rect", { x: 2, y: 2, width: VALE_W - 4, height: 60, rx: 5, class: "mv-vale-new" }),
    );
    parts.push(
      svg("text", {
        x: VALE_W / 2,
        y: 37,
        "font-size": 8,
        class: "mv-new-label",
        text: ctx.t("vale_new"),
      }),
    );
  }
  const title = [
    valeName(id, ctx),
    ctx.t("level_n", { n: info.level }),
    abilityText(info.ability, ctx),
    info.standin ? ctx.t("standin_values") : "",
  ];
  const scale = opts.scale || 1;
  return svg(
    "svg",
    {
      class: "mv-vale-svg",
      viewBox: `0 0 ${VALE_W} 64`,
      width: VALE_W * scale,
      height: 64 * scale,
    },
    [svg("title", { text: title.filter(Boolean).join(" · ") }), ...parts],
  );
}

function valeMarket(ctx) {
  const view = ctx.view;
  const rows = view.vale_market.map((slots, level) =>
    html("div", { class: "mv-market-row" }, [
      pile(
        view.vale_piles[level],
        ctx.t("pile_vales", { n: level + 1 }),
        level ? "#3d4f8f" : "#2f7565",
        {},
        level + 1,
      ),
      ...slots.map((id) =>
        id
          ? html(
              "div",
              { class: "mv-tile mv-vale", "data-key": `vale:${id}`, "data-spot": `vale:${id}` },
              [valeCard(id, ctx)],
            )
          : html("div", { class: "mv-tile mv-vale mv-tile-empty" }),
      ),
    ]),
  );
  return html("section", { class: "mv-vales" }, [html("h3", { text: ctx.t("vales") }), ...rows]);
}

// A face-down pile with how many cards are in it (and its level as dots, as on the cards).
function pile(count, title, colour, attrs = {}, level = 0) {
  const dots = [];
  for (let i = 0; i < level; i++) {
    dots.push(
      svg("circle", {
        cx: 16.5 - (level - 1) * 3 + i * 6,
        cy: 43,
        r: 2,
        fill: count ? "#fff" : colour,
      }),
    );
  }
  const picture = svg("svg", { viewBox: "0 0 36 56", width: 36, height: 56 }, [
    svg("title", { text: `${title}: ${count}` }),
    svg("rect", {
      x: 4,
      y: 1,
      width: 31,
      height: 52,
      rx: 4,
      fill: colour,
      opacity: count > 1 ? 0.55 : 0,
    }),
    svg("rect", {
      x: 1,
      y: 3,
      width: 31,
      height: 52,
      rx: 4,
      fill: count ? colour : "none",
      stroke: colour,
      "stroke-dasharray": count ? null : "3 2",
    }),
    svg("text", {
      x: 16.5,
      y: 30,
      "font-size": 14,
      class: count ? "mv-pile-count" : "mv-pile-empty",
      text: count,
    }),
    ...dots,
  ]);
  return html("div", { class: "mv-pile", ...attrs }, [picture]);
}

function vpPool(ctx) {
  const view = ctx.view;
  const picture = svg("svg", { viewBox: "0 0 48 48", width: 48, height: 48 }, [
    svg("polygon", {
      points: star(24, 25, 22),
      fill: "#f2b705",
      stroke: "#8a6100",
      "stroke-width": 1.5,
    }),
    svg("text", { x: 24, y: 30, "font-size": 14, class: "mv-pool-count", text: view.vp_pool }),
  ]);
  return html("section", { class: "mv-pool", "data-spot": "pool", title: ctx.t("vp_pool_help") }, [
    picture,
    html("h3", { text: ctx.t("vp_pool") }),
    view.end_triggered ? html("div", { class: "mv-last-round", text: ctx.t("last_round") }) : null,
  ]);
}

// ---------------------------------------------------------------------------------------
// druids

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
        druid.mana_token ? html("span", { class: "mv-plus", text: ctx.t("plus_token") }) : null,
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
      },
      [valeCard(v.vale, ctx, { isNew: v.new, scale: 0.85 })],
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
  // Big fields would need a third row; smaller cards keep them to two.
  const crowd = druid.field.length > 12 ? 0.8 : druid.field.length > 8 ? 0.9 : 1;
  const watched =
    mine || ((ctx.seat === null || ctx.seat === undefined) && ctx.view.to_move === owner);
  const scale = (watched ? 1.04 : 0.84) * crowd;
  const onDeck = druid.on_deck
    ? card(druid.cards[druid.on_deck - 1], owner, ctx, {
        keyed: mine,
        slotKeys: false,
        scale,
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
    card(druid.cards[number - 1], owner, ctx, { keyed: mine, slotKeys, scale }),
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
        ? numbers.map((n) => card(druid.cards[n - 1], owner, ctx, { scale: 0.72, note: marker(n) }))
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
      offered.map((n) => card(druid.cards[n - 1], owner, ctx, { keyed: true, scale: 0.8 })),
    ),
  ]);
}

function waitingPurchases(ctx, owner) {
  const h = ctx.view.harvest;
  if (!h || !h.to_sleeve.length || ctx.view.to_move !== owner) return null;
  return html("div", { class: "mv-to-sleeve" }, [
    html("span", { class: "mv-res-label", text: ctx.t("to_sleeve") }),
    ...h.to_sleeve.map((copy, i) =>
      html("div", { class: `mv-tile${i === 0 ? " mv-next-sleeve" : ""}` }, [marketTile(copy, ctx)]),
    ),
  ]);
}

function myArea(ctx) {
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
function otherArea(owner, ctx) {
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

// ---------------------------------------------------------------------------------------
// header and prompt

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

// The symbols and ability timings, each drawn as on the cards, for the rules page
// (js/rules.js): the legend lives there, not on the table.
export function legendEntries(ctx) {
  const symbols = LEGEND.map((kind) => ({
    key: kind,
    name: ctx.t(`symbol.${kind}`),
    picture: svg("svg", { viewBox: "0 0 16 16", width: 24, height: 24 }, [symbol(kind, 8, 8, 6.5, ctx)]),
  }));
  const timings = TIMINGS.map((timing) => ({
    key: timing,
    name: ctx.t(`timing.${timing}`),
    picture: svg("svg", { viewBox: "0 0 14 14", width: 24, height: 24 }, [
      timingBadge(timing, 7, 7, ctx, null),
    ]),
  }));
  return [...symbols, ...timings];
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

// ---------------------------------------------------------------------------------------
// exports

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
  play: (e, p) => [e.stage === "prep" ? "event.play_prep" : "event.play", { ...p, card: e.card }],
  reveal: (e, p) => (e.card ? ["event.reveal", { ...p, card: e.card }] : ["event.reveal_none", p]),
  spoil: (e, p) => [e.mana_token ? "event.spoil_token" : "event.spoil", p],
  cleanup: (e, p) =>
    e.kept && e.kept.length
      ? ["event.cleanup_kept", { ...p, cards: e.kept.join(", ") }]
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
      card: e.card,
      mana: e.mana,
      cards: (e.added || []).join(", "),
    },
  ],
  buy: (e, p, ctx) => ["event.buy", { ...p, adv: copyName(e.copy, ctx), cost: e.cost }],
  buy_vale: (e, p, ctx) => [
    "event.buy_vale",
    { ...p, vale: valeName(e.vale, ctx), paid: spiritList(e.paid, ctx) },
  ],
  sleeve: (e, p, ctx) => ["event.sleeve", { ...p, adv: copyName(e.copy, ctx), card: e.card }],
  reveal_advancement: (e, p, ctx) => ["event.reveal_advancement", { adv: copyName(e.copy, ctx) }],
  reveal_vale: (e, p, ctx) => ["event.reveal_vale", { vale: valeName(e.vale, ctx) }],
  end_triggered: () => ["event.end_triggered", {}],
  game_over: () => ["event.game_over", {}],
  discard_from_field: (e, p) => ["event.discard_from_field", { ...p, card: e.card }],
  discard_from_deck: (e, p) =>
    e.card
      ? ["event.discard_from_deck_card", { ...p, card: e.card }]
      : ["event.discard_from_deck", p],
  keep_on_top: (e, p) => ["event.keep_on_top", p],
  shuffle_deck: (e, p) => ["event.shuffle_deck", p],
  prevent: (e, p, ctx) => ["event.prevent", { ...p, source: sourceName(e.ability, ctx) }],
  stop_prep: (e, p) => ["event.stop_prep", p],
  end_harvest: (e, p) => ["event.end_harvest", p],
  exchange: (e, p) => ["event.exchange", p],
  mana_token: (e, p) => ["event.mana_token", p],
  nest: (e, p) => ["event.nest", { ...p, card: e.card }],
  look: (e, p) =>
    e.cards
      ? ["event.look_cards", { ...p, cards: e.cards.join(", ") }]
      : ["event.look", { ...p, count: e.count }],
  take_vale: (e, p, ctx) => ["event.take_vale", { ...p, vale: valeName(e.vale, ctx) }],
  mana: (e, p, ctx) => ["event.mana", { ...p, mana: e.mana, reason: reasonText(e.reason, ctx) }],
};

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

// The page's table has each category; this says where the points come from.
export function scoring(ctx) {
  if (!ctx.result) return null;
  return html("div", { class: "mv-scoring" }, [
    html("p", { class: "mv-score-note", text: ctx.t("score.explain") }),
    html("p", { class: "mv-score-note", text: ctx.t("score.tiebreak") }),
  ]);
}
