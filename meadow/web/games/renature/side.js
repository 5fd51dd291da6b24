// Beside Renature's board: the prompt, the hand, the joker track and every player board.

import { html, svg } from "../../js/draw.js";
import { animalDisc } from "./animals.js";
import {
  ANIMALS,
  CLOUD_SPACES,
  PIECE,
  PLANTS,
  PLANT_VALUE,
  STANDIN_ANIMALS,
  animalName,
  boardKind,
  plantName,
  playerName,
} from "./names.js";
import { areaToken, cloudShape, colourChip, plantPiece, star } from "./pieces.js";

// -- beside the board: prompt, hand, joker track, player boards ----------------------------

export function prompt(view, ctx) {
  if (view.phase === "over") return html("p", { class: "rn-prompt" }, [ctx.t("phase.over")]);
  if (
    ctx.seat === null ||
    ctx.seat === undefined ||
    view.to_move !== ctx.seat ||
    !ctx.choices.length
  ) {
    return html("p", { class: "rn-prompt" }, [
      ctx.t("waiting_for", { name: playerName(ctx, view.to_move) }),
    ]);
  }
  return html("p", { class: "rn-prompt mine" }, [ctx.t(`phase.${view.phase}`)]);
}

export function handDomino(domino, ctx, scale = 1) {
  const [a, b] = domino.animals;
  const h = 44;
  const name = `${animalName(ctx, a)} – ${animalName(ctx, b)}`;
  return svg(
    "svg",
    {
      viewBox: `0 0 ${2 * h + 6} ${h + 6}`,
      width: (2 * h + 6) * scale,
      height: (h + 6) * scale,
      class: "rn-hand-domino",
      role: "img",
      "aria-label": name,
      "data-magnify": `domino:${domino.domino}`,
    },
    [
      svg("rect", {
        x: 3,
        y: 3,
        width: 2 * h,
        height: h,
        rx: 8,
        fill: "#fbf4e2",
        stroke: "#7a6a4a",
        "stroke-width": 1.5,
        "data-key": `domino:${domino.domino}`,
      }),
      svg("path", {
        d: `M${3 + h} 9 v${h - 12}`,
        stroke: "#b8a77f",
        "stroke-width": 1.2,
        "pointer-events": "none",
      }),
      animalDisc(a, 3 + h / 2, 3 + h / 2, 17, ctx, { "pointer-events": "none" }),
      animalDisc(b, 3 + h * 1.5, 3 + h / 2, 17, ctx, { "pointer-events": "none" }),
    ],
  );
}

export function handPanel(view, ctx) {
  const mine = ctx.seat !== null && ctx.seat !== undefined ? view.seats[ctx.seat] : null;
  if (!mine || !mine.hand || view.phase === "over") return null;
  const dominoes = mine.hand.map((domino) => handDomino(domino, ctx));
  return html("section", { class: "rn-panel rn-hand" }, [
    html("h3", {}, [ctx.t("your_hand")]),
    html("div", { class: "rn-row" }, dominoes.length ? dominoes : [ctx.t("hand_empty")]),
    ctx.choices.some((c) => c.kind === "place_domino")
      ? html("p", { class: "rn-small" }, [ctx.t("order_hint")])
      : null,
  ]);
}

export function jokerTrack(view, ctx) {
  const step = 34;
  const parts = ANIMALS.map((animal, i) => {
    const x = 4 + i * step;
    const current = animal === view.joker;
    const look = { "data-magnify": `animal:${animal}`, "aria-label": animalName(ctx, animal) };
    return svg("g", look, [
      svg("rect", {
        x,
        y: 4,
        width: step - 4,
        height: step - 4,
        rx: 6,
        fill: current ? "#fff3c4" : "#f4efe2",
        stroke: current ? "#c98a00" : "#b9ae92",
        "stroke-width": current ? 2.5 : 1,
        "data-key": `joker:${animal}`,
        "data-spot": `joker:${animal}`,
      }),
      animalDisc(animal, x + (step - 4) / 2, 4 + (step - 4) / 2, 12, ctx, {
        "pointer-events": "none",
      }),
      current ? star(x + step - 8, 8, 6, { "pointer-events": "none" }) : null,
      STANDIN_ANIMALS.has(animal)
        ? svg("text", { x: x + 3, y: step - 3, "font-size": 9, fill: "#7a5a22", text: "*" })
        : null,
    ]);
  });
  return html("section", { class: "rn-panel rn-joker" }, [
    html("h3", {}, [
      ctx.t("joker_track"),
      ": ",
      html("span", { class: "rn-joker-name" }, [ctx.t(`animal.${view.joker}`)]),
    ]),
    svg(
      "svg",
      { viewBox: `0 0 ${ANIMALS.length * step + 6} ${step + 6}`, class: "rn-track" },
      parts,
    ),
    ctx.choices.some((c) => c.kind === "change_joker")
      ? html("p", { class: "rn-small" }, [ctx.t("joker_hint")])
      : null,
  ]);
}

// A player board: cloud spaces, then per plant type its own and neutral spaces.
function playerBoardSvg(view, seatNo, ctx) {
  const seat = view.seats[seatNo];
  const colour = seat.colour;
  const mine = seatNo === ctx.seat;
  const slot = 17;
  const colW = 76;
  const parts = [];
  for (let i = 0; i < CLOUD_SPACES; i++) {
    const full = i < seat.clouds;
    parts.push(
      cloudShape(
        12 + i * 24,
        12,
        20,
        full ? {} : { fill: "none", stroke: "#b5c2cf", "stroke-dasharray": "2 2" },
      ),
    );
  }
  PLANTS.forEach((plant, col) => {
    const x0 = 4 + col * colW;
    [false, true].forEach((neutral, row) => {
      const key = neutral ? `neutral ${plant}` : plant;
      const capacity = seat.capacity[key] || 0;
      const left = seat.supply[key] || 0;
      const y0 = 30 + row * (slot + 6);
      if (!capacity) return;
      parts.push(
        svg(
          "rect",
          {
            x: x0,
            y: y0,
            width: capacity * slot + 4,
            height: slot + 2,
            rx: 4,
            fill: neutral ? "#efe4cc" : "#ffffff",
            stroke: "#c9bd9f",
            "stroke-width": 1,
            "data-key": mine ? `plant:${neutral ? "neutral" : "own"}:${plant}` : null,
            "data-magnify": `plants:${seatNo}:${neutral ? "neutral" : "own"}:${plant}`,
            "aria-label": `${plantName(ctx, plant, neutral)}: ${left} / ${capacity}`,
          },
        ),
      );
      for (let i = 0; i < capacity; i++) {
        const cx = x0 + 2 + i * slot + slot / 2;
        const cy = y0 + 1 + slot / 2;
        parts.push(
          i < left
            ? plantPiece(plant, neutral ? "neutral" : colour, cx, cy, slot, ctx)
            : svg("circle", { cx, cy, r: 3, fill: "#d8cfb8", "pointer-events": "none" }),
        );
      }
    });
    parts.push(
      svg("text", {
        x: x0 + 2,
        y: 84,
        "font-size": 10,
        fill: "#555",
        text: `${ctx.t(`plant.${plant}`)} ${PLANT_VALUE[plant]}`,
      }),
    );
  });
  return svg("svg", { viewBox: `0 0 ${4 * colW + 4} 90`, class: "rn-pboard" }, parts);
}

function tokenChips(seat, seatNo, ctx) {
  if (!seat.tokens.length) return null;
  const backs = seat.token_backs || [];
  const chips = seat.tokens.map((token, i) =>
    svg(
      "svg",
      {
        viewBox: "0 0 32 32",
        width: 26,
        height: 26,
        class: "rn-token-chip",
        role: "img",
        "aria-label": ctx.t("token_title", { main: token.main, minor: token.minor }),
        "data-magnify": `token:${seatNo}:${i}`,
      },
      [
        areaToken(token, 16, 16, ctx),
        backs[i] !== undefined
          ? svg("text", {
              x: 30,
              y: 30,
              "font-size": 11,
              "font-weight": 700,
              "text-anchor": "end",
              fill: "#1b5e20",
              stroke: "#fff",
              "stroke-width": 2.5,
              "paint-order": "stroke",
              text: `+${backs[i]}`,
            })
          : null,
      ],
    ),
  );
  return html("div", { class: "rn-tokens-row" }, [
    html("span", {}, [ctx.t("tokens_taken")]),
    ...chips,
  ]);
}

export function seatPanel(view, seatNo, ctx) {
  const seat = view.seats[seatNo];
  const look = PIECE[seat.colour];
  const you = seatNo === ctx.seat ? ` (${ctx.t("table.you")})` : "";
  const counts = ctx.t("counts", {
    hand: seat.hand_size,
    reserve: seat.reserve_size,
    clouds: seat.clouds,
  });
  return html(
    "section",
    {
      class: `rn-panel rn-seat${view.to_move === seatNo ? " to-move" : ""}`,
      "data-spot": `seat:${seatNo}`,
      style: `--piece:${look.fill};--piece-line:${look.line}`,
    },
    [
      html("div", { class: "rn-seat-head" }, [
        colourChip(seat.colour, ctx),
        html("strong", {}, [playerName(ctx, seatNo), you]),
        html("span", { class: "rn-score", title: ctx.t("score_title") }, [
          ctx.t("points", { n: seat.score }),
        ]),
      ]),
      playerBoardSvg(view, seatNo, ctx),
      html("p", { class: "rn-small" }, [counts]),
      tokenChips(seat, seatNo, ctx),
    ],
  );
}

export function standinNote(view, ctx) {
  const kind = boardKind(view);
  const names = [];
  for (const item of view.standins || []) {
    if (item.endsWith("board map")) {
      if (item === `${kind} board map`) names.push(ctx.t("standin.board_map"));
    } else if (item === "area tokens" && kind !== "base") {
      continue; // the Valley has no area tokens
    } else if (item.startsWith("animal names ")) {
      const animals = item.slice("animal names ".length).split(", ");
      names.push(
        ctx.t("standin.animal_names", {
          names: animals.map((a) => ctx.t(`animal.${a}`)).join(", "),
        }),
      );
    } else {
      names.push(ctx.t(`standin.${item.replace(/[^a-z]+/gi, "_")}`));
    }
  }
  return html("p", { class: "rn-standin" }, [
    html("strong", {}, [ctx.t("standin")]),
    ": ",
    names.join(" · "),
  ]);
}
