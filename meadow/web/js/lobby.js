// The lobby (open tables, your tables, a new table), invitations and the "your turn" list.

import { api, rememberKey } from "./api.js";
import { html } from "./draw.js";
import { botName, currentLanguage, t } from "./i18n.js";
import { go, notice, problem, session } from "./session.js";
import { rememberWhereTo, seatWanted } from "./account.js";
import { learnCard } from "./guide.js";

// The level a new seat starts at: a first game against the computer should be a gentle one.
const FIRST_LEVEL = "easy";

// `keepFor`: a person played with, for whom the new table keeps a seat (from the profile).
export async function lobbyPage(keepFor = null) {
  const games = await api("GET", "/api/games");
  const lists = html("div", { class: "lists" });
  const refresh = async () => {
    const [open, mine, running] = await Promise.all([
      api("GET", "/api/tables"),
      api("GET", "/api/tables/mine"),
      api("GET", "/api/tables/running"),
    ]);
    lists.replaceChildren(
      tableList("lobby.open", open, joinButton),
      tableList("lobby.mine", mine, openLink),
      tableList("lobby.watch", running, watchLink),
    );
  };
  await refresh();
  // Tables open and fill while the lobby is on screen: look again every few seconds.
  const every = setInterval(() => refresh().catch(() => null), 5000);
  return {
    nodes: [html("div", { class: "columns" }, [html("div", {}, [learnCard(games), newTableForm(games, keepFor)]), lists])],
    leave: () => clearInterval(every),
  };
}

export function seatNames(table) {
  return table.seats
    .map((seat) => seat.person || (seat.bot ? botName(seat.bot) : seat.kept_for ? t("lobby.kept_for", { name: seat.kept_for }) : t("lobby.free_seat")))
    .join(", ");
}

function tableList(titleKey, tables, action) {
  const rows = tables.map((table) =>
    html("tr", { "data-table": table.id }, [
      html("td", {}, [t(`${table.game}.title`), table.hints ? html("span", { class: "tag hints" }, [t("lobby.hints_tag")]) : null]),
      html("td", {}, [seatNames(table)]),
      html("td", {}, [t(`status.${table.status}`)]),
      html("td", {}, [action(table)]),
    ]),
  );
  return html("section", { class: "card" }, [
    html("h2", {}, [t(titleKey)]),
    rows.length ? html("table", { class: "grid" }, rows) : html("p", { class: "hint" }, [t("lobby.none")]),
  ]);
}

function joinButton(table) {
  const button = html("button", { type: "button" }, [t("lobby.join")]);
  button.addEventListener("click", async () => {
    try {
      await api("POST", `/api/tables/${table.id}/join`);
      go(`#/table/${table.id}`);
    } catch (error) {
      notice(problem(error));
    }
  });
  return button;
}

function watchLink(table) {
  return html("a", { href: `#/table/${table.id}`, class: "watch" }, [t("lobby.watch_link", { moves: table.moves_made })]);
}

function openLink(table) {
  if (table.status === "finished") {
    return html("a", { href: `#/replay/${table.id}` }, [t("lobby.replay")]);
  }
  return html("a", { href: `#/table/${table.id}` }, [t("lobby.to_table")]);
}

function optionField(game, option) {
  const label = t(`${game}.option.${option.name}`);
  const help = html("small", { class: "hint" }, [t(`${game}.option.${option.name}.help`)]);
  if (option.type === "boolean") {
    const box = html("input", { type: "checkbox", name: option.name, checked: option.default });
    return { read: () => box.checked, node: html("label", { class: "check" }, [box, label, help]) };
  }
  const select = html(
    "select",
    { name: option.name },
    option.choices.map((value) =>
      html("option", { value, selected: value === option.default }, [
        t(`${game}.option.${option.name}.${value}`),
      ]),
    ),
  );
  return { read: () => select.value, node: html("label", {}, [label, select, help]) };
}

// A level as people choose it: what it is worth to them, not how it thinks.
function levelText(level) {
  return `${botName(level.level)} — ${t(`bot.${level.level}.about`)}`;
}

// Under the choice, in full (a closed list cuts its text short): who the level is for, how
// strong it measured (bench/ladder.py) or that nobody has measured it yet, how long it thinks.
function levelStrength(level) {
  const lang = currentLanguage();
  const about = t(`bot.${level.level}.about`);
  const seconds = t("lobby.level_seconds", { seconds: level.seconds.toLocaleString(lang) });
  const lead = `${about[0].toLocaleUpperCase(lang)}${about.slice(1)}.`;
  // a level that judges by a learned evaluation says when it plays without one here
  const missing = level.evaluation === "stale" ? "stale" : "no_model";
  const learned = level.evaluation && level.evaluation !== "in use" ? ` ${t(`lobby.level_${missing}`)}` : "";
  if (!level.measured) return `${lead} ${t("lobby.level_unmeasured")}${learned} ${seconds}`;
  const elo = (value) => Math.round(value).toLocaleString(lang, { signDisplay: "exceptZero" });
  const anchor = level.anchor === "random" ? t("lobby.random_moves") : botName(level.anchor);
  const rating = t("lobby.level_rating", {
    elo: elo(level.elo),
    low: elo(level.low),
    high: elo(level.high),
    anchor,
    games: level.games.toLocaleString(lang),
  });
  return `${lead} ${rating}${learned} ${seconds}`;
}

// `person`: the seat starts as a person's (the one a seat is kept for).
function seatField(number, levels, person = false) {
  const select = html("select", { name: `seat${number}` }, [
    ...levels.map((level) =>
      html("option", { value: level.level, selected: !person && level.level === FIRST_LEVEL }, [levelText(level)]),
    ),
    html("option", { value: "", selected: person }, [t("lobby.person")]),
  ]);
  const strength = html("small", { class: "hint level-strength" });
  const describe = () => {
    const level = levels.find((l) => l.level === select.value);
    strength.textContent = level ? levelStrength(level) : "";
  };
  select.addEventListener("change", describe);
  describe();
  return {
    read: () => select.value || null,
    node: html("label", {}, [t("lobby.seat", { n: number + 1 }), select, strength]),
  };
}

function newTableForm(games, keepFor) {
  const gameSelect = html(
    "select",
    { name: "game" },
    games.map((g) => html("option", { value: g.id }, [t(`${g.id}.title`)])),
  );
  const playerSelect = html("select", { name: "players" });
  const mode = html("select", { name: "mode" }, [
    html("option", { value: "live" }, [t("lobby.live")]),
    html("option", { value: "async" }, [t("lobby.async")]),
  ]);
  const moveSeconds = html("input", { type: "number", name: "move_seconds", min: 10, max: 86400 * 7, placeholder: t("lobby.no_clock") });
  const gameMinutes = html("input", { type: "number", name: "game_minutes", min: 1, max: 30 * 1440, placeholder: t("lobby.no_clock") });
  const privateBox = html("input", { type: "checkbox", name: "private" });
  const hintsBox = html("input", { type: "checkbox", name: "hints" });
  const options = html("div", { class: "options" });
  const seats = html("div", { class: "seats" });
  let optionFields = [];
  let seatFields = [];

  const drawSeats = () => {
    const players = Number(playerSelect.value);
    const levels = games.find((g) => g.id === gameSelect.value).levels;
    seatFields = Array.from({ length: players - 1 }, (_, i) => seatField(i + 1, levels, Boolean(keepFor) && i === 0));
    seats.replaceChildren(
      html("label", {}, [t("lobby.seat", { n: 1 }), html("span", {}, [session.me.name])]),
      ...seatFields.map((f) => f.node),
    );
  };
  const drawGame = () => {
    const game = games.find((g) => g.id === gameSelect.value);
    playerSelect.replaceChildren(
      ...game.players.map((n) => html("option", { value: n, selected: n === 2 }, [String(n)])),
    );
    optionFields = game.options.map((option) => [option.name, optionField(game.id, option)]);
    options.replaceChildren(...optionFields.map(([, f]) => f.node));
    drawSeats();
  };
  gameSelect.addEventListener("change", drawGame);
  playerSelect.addEventListener("change", drawSeats);
  drawGame();

  const form = html("form", { class: "card", id: "new-table" }, [
    html("h2", {}, [t("lobby.new")]),
    keepFor ? html("p", { class: "keep-for" }, [t("lobby.keep_for", { name: keepFor })]) : null,
    html("label", {}, [t("lobby.game"), gameSelect]),
    html("label", {}, [t("lobby.players"), playerSelect]),
    seats,
    options,
    html("label", {}, [t("lobby.mode"), mode]),
    html("label", {}, [t("lobby.move_seconds"), moveSeconds]),
    html("label", {}, [t("lobby.game_minutes"), gameMinutes]),
    html("label", { class: "check" }, [privateBox, t("lobby.private")]),
    html("label", { class: "check" }, [hintsBox, t("lobby.hints"), html("small", { class: "hint" }, [t("lobby.hints_help")])]),
    html("button", { type: "submit", class: "primary" }, [t("lobby.create")]),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosenSeats = [null, ...seatFields.map((f) => f.read())];
    const body = {
      game: gameSelect.value,
      players: Number(playerSelect.value),
      options: Object.fromEntries(optionFields.map(([name, f]) => [name, f.read()])),
      seats: chosenSeats,
      mode: mode.value,
      private: privateBox.checked,
      hints: hintsBox.checked,
    };
    if (moveSeconds.value) body.move_seconds = Number(moveSeconds.value);
    if (gameMinutes.value) body.game_seconds = Number(gameMinutes.value) * 60;
    if (keepFor) body.keep_seat_for = keepFor;
    try {
      const created = await api("POST", "/api/tables", body);
      // A table of the host and bots only has no one to wait for.
      if (chosenSeats.filter((s) => s === null).length === 1) {
        await api("POST", `/api/tables/${created.id}/start`);
      }
      go(`#/table/${created.id}`);
    } catch (error) {
      notice(problem(error));
    }
  });
  return form;
}

export async function invitePage(code) {
  let table;
  try {
    table = await api("GET", `/api/invites/${code}`);
  } catch (error) {
    return { nodes: [html("p", { class: "card" }, [problem(error)])] };
  }
  rememberKey(table.id, code); // the invitation lets its holder watch the table, too
  const takeSeat = async () => {
    if (!session.me) {
      rememberWhereTo({ seat: true });
      go("#/signup");
      return;
    }
    try {
      await api("POST", `/api/invites/${code}/join`);
      go(`#/table/${table.id}`);
    } catch (error) {
      notice(problem(error));
    }
  };
  const join = html("button", { type: "button", class: "primary", onclick: takeSeat }, [t("invite.join")]);
  if (seatWanted()) takeSeat(); // back from signing up for this seat
  return {
    nodes: [
      html("section", { class: "card narrow" }, [
        html("h1", {}, [t("invite.title", { game: t(`${table.game}.title`) })]),
        html("p", {}, [seatNames(table)]),
        join,
        " ",
        html("a", { href: `#/table/${table.id}` }, [t("invite.watch")]),
      ]),
    ],
  };
}

export async function turnsPage() {
  const waiting = await api("GET", "/api/turns");
  const rows = waiting.map((table) =>
    html("tr", { "data-table": table.id }, [
      html("td", {}, [t(`${table.game}.title`)]),
      html("td", {}, [seatNames(table)]),
      html("td", {}, [new Date(table.since).toLocaleString(document.documentElement.lang)]),
      html("td", {}, [html("a", { href: `#/table/${table.id}` }, [t("turns.play")])]),
    ]),
  );
  return {
    nodes: [
      html("section", { class: "card" }, [
        html("h1", {}, [t("turns.title")]),
        rows.length ? html("table", { class: "grid" }, rows) : html("p", { class: "hint" }, [t("turns.none")]),
      ]),
    ],
  };
}
