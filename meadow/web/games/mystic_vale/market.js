// The supply: the advancement and vale markets, Fertile Soil, face-down piles, the VP pool.

import { html, svg } from "../../js/draw.js";
import { TILE_H, advLook, advTitle, marketTile } from "./cards.js";
import { POSITIONS } from "./names.js";
import { star } from "./symbols.js";
import { valeCard, valeLook } from "./vale.js";

const PILE_H = 76; // as tall as the cards beside it

export function advancementMarket(ctx) {
  const view = ctx.view;
  const rows = view.market.map((slots, level) =>
    html("div", { class: "mv-market-row" }, [
      pile(
        view.piles[level],
        ctx.t("pile_advancements", { n: level + 1 }),
        "#5d4a7a",
        {},
        level + 1,
        PILE_H,
      ),
      ...slots.map((copy) =>
        copy
          ? html(
              "div",
              {
                class: "mv-tile",
                "data-key": `adv:${copy}`,
                "data-spot": `adv:${copy}`,
                ...advLook(copy, ctx),
              },
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

export function fertileSoil(ctx) {
  const tiles = POSITIONS.map((position, i) => {
    const copy = `fertile_soil@${position}`;
    const left = ctx.view.fertile_soil[i];
    const count = svg("text", {
      x: 7,
      y: TILE_H - 7,
      "font-size": 10,
      class: "mv-count",
      text: `×${left}`,
    });
    return html(
      "div",
      {
        class: `mv-tile${left ? "" : " mv-tile-out"}`,
        "data-key": `adv:${copy}`,
        "data-spot": `adv:${copy}`,
        ...advLook(copy, ctx),
        "aria-label": `${advTitle("fertile_soil", ctx)} · ${ctx.t("left_n", { n: left })}`,
      },
      [marketTile(copy, ctx, count)],
    );
  });
  return html("section", { class: "mv-fertile" }, [
    html("h3", { text: ctx.t("adv.fertile_soil") }),
    html("div", { class: "mv-market-row" }, tiles),
  ]);
}

export function valeMarket(ctx) {
  const view = ctx.view;
  const rows = view.vale_market.map((slots, level) =>
    html("div", { class: "mv-market-row" }, [
      pile(
        view.vale_piles[level],
        ctx.t("pile_vales", { n: level + 1 }),
        level ? "#3d4f8f" : "#2f7565",
        {},
        level + 1,
        PILE_H,
      ),
      ...slots.map((id) =>
        id
          ? html(
              "div",
              {
                class: "mv-tile mv-vale",
                "data-key": `vale:${id}`,
                "data-spot": `vale:${id}`,
                ...valeLook(id, ctx),
              },
              [valeCard(id, ctx)],
            )
          : html("div", { class: "mv-tile mv-vale mv-tile-empty" }),
      ),
    ]),
  );
  return html("section", { class: "mv-vales" }, [html("h3", { text: ctx.t("vales") }), ...rows]);
}

// A face-down pile with how many cards are in it (and its level as dots, as on the cards).
export function pile(count, title, colour, attrs = {}, level = 0, height = 56) {
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
  const width = Math.round((height * 36) / 56);
  const picture = svg("svg", { viewBox: "0 0 36 56", width, height }, [
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

export function vpPool(ctx) {
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
