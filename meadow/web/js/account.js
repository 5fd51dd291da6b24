// Signing up, logging in, playing as a guest, and the profile: ratings and settings.

import { api } from "./api.js";
import { html } from "./draw.js";
import { botName, currentLanguage, t, LANGUAGES } from "./i18n.js";
import { GAMES, go, notice, problem, redraw, saveSettings, session, signedIn } from "./session.js";
import { notificationRefusal } from "./alerts.js";
import { PACES } from "./motion.js";
import { accountSections, addressSaved, addressState } from "./people.js";

export async function accountPage(mode) {
  const name = html("input", { name: "name", autocomplete: "username", required: true });
  const password = html("input", {
    name: "password",
    type: "password",
    autocomplete: mode === "signup" ? "new-password" : "current-password",
    required: true,
  });
  const form = html("form", { class: "card narrow" }, [
    html("h1", {}, [t(mode === "signup" ? "account.signup" : "account.login")]),
    html("label", {}, [t("account.name"), name]),
    html("label", {}, [t("account.password"), password]),
    html("button", { type: "submit", class: "primary" }, [
      t(mode === "signup" ? "account.signup" : "account.login"),
    ]),
    html("p", { class: "hint" }, [t(mode === "signup" ? "account.name_rule" : "account.no_account")]),
    mode === "login" ? html("p", {}, [html("a", { href: "#/forgot", class: "forgot" }, [t("reset.forgot")])]) : null,
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: name.value, password: password.value };
    try {
      await signedIn(await api("POST", `/api/accounts/${mode}`, body));
      go(afterSignIn());
    } catch (error) {
      notice(problem(error));
    }
  });
  const guest = html("button", { type: "button", class: "link", onclick: playAsGuest }, [
    t("account.guest"),
  ]);
  const welcome = html("section", { class: "welcome narrow" }, [
    html("h1", {}, [t("welcome.title")]),
    html("p", {}, [t("welcome.text")]),
  ]);
  return { nodes: [welcome, form, html("p", { class: "center" }, [guest])] };
}

// Back to where an invitation or a table link was leading, if anywhere.
function afterSignIn() {
  const wanted = sessionStorage.getItem("meadow-after-sign-in");
  sessionStorage.removeItem("meadow-after-sign-in");
  return wanted || "#/";
}

// `seat`: the person was taking a seat when asked to sign in; the page they come back to
// takes it for them (`seatWanted`), rather than asking a second time.
export function rememberWhereTo({ seat = false } = {}) {
  sessionStorage.setItem("meadow-after-sign-in", location.hash);
  if (seat) sessionStorage.setItem("meadow-seat-wanted", location.hash);
}

// Whether the person, just signed in, was taking a seat at this address (asked once).
export function seatWanted() {
  const wanted = sessionStorage.getItem("meadow-seat-wanted");
  sessionStorage.removeItem("meadow-seat-wanted");
  return Boolean(session.me) && wanted === location.hash;
}

async function playAsGuest() {
  try {
    await signedIn(await api("POST", "/api/accounts/guest"));
    go(afterSignIn());
  } catch (error) {
    notice(problem(error));
  }
}

export async function profilePage() {
  const nodes = [
    html("h1", {}, [t("profile.title", { name: session.me.name })]),
    settingsForm(),
    noticesForm(),
    ...accountSections(),
    mutedList(),
    await playedWith(),
    await ratingsTable(),
  ];
  return { nodes };
}

// The people this person finished games with: to find them again, see the last game, and
// invite them to a new table (a seat kept for them, among their tables).
async function playedWith() {
  let people = [];
  try {
    people = await api("GET", "/api/accounts/me/played-with");
  } catch {
    // the rest of the profile stands without it
  }
  const rows = people.map((person) =>
    html("li", { "data-name": person.name }, [
      html("b", {}, [person.name]),
      " ",
      t("played.games", { n: person.games }),
      " · ",
      html("a", { href: `#/replay/${person.last_table}` }, [t("played.last", { game: t(`${person.last_game}.title`) })]),
      " ",
      html("a", { class: "invite-again", href: `#/?with=${encodeURIComponent(person.name)}` }, [t("played.invite")]),
    ]),
  );
  return html("section", { class: "card played-with" }, [
    html("h2", {}, [t("played.title")]),
    rows.length ? html("ul", {}, rows) : html("p", { class: "hint" }, [t("played.nobody")]),
  ]);
}

// The people whose chat this person does not read, each with a way back.
function mutedList() {
  const muted = session.me.muted || [];
  const unmute = async (name) => {
    try {
      await api("DELETE", `/api/accounts/me/mutes/${encodeURIComponent(name)}`);
      session.me.muted = muted.filter((other) => other !== name);
      redraw("#/profile");
    } catch (error) {
      notice(problem(error));
    }
  };
  const items = muted.map((name) =>
    html("li", {}, [name, " ", html("button", { type: "button", class: "unmute", onclick: () => unmute(name) }, [t("chat.unmute")])]),
  );
  return html("section", { class: "card muted-people" }, [
    html("h2", {}, [t("chat.muted_title")]),
    items.length ? html("ul", {}, items) : html("p", { class: "hint" }, [t("chat.nobody_muted")]),
  ]);
}

function choice(key, options, labelOf, current = session.settings[key]) {
  const select = html(
    "select",
    { name: key },
    options.map((value) => html("option", { value, selected: current === value }, [labelOf(value)])),
  );
  select.addEventListener("change", () => change({ [key]: select.value }));
  return html("label", {}, [t(`settings.${key}`), select]);
}

// `refusal`, for a setting the browser must allow: asked when the box is ticked, it answers
// null, or why the box stays unticked (said in one line, and saved as off).
function toggle(key, refusal = null) {
  const box = html("input", { type: "checkbox", name: key, checked: session.settings[key] });
  box.addEventListener("change", async () => {
    const refused = box.checked && refusal ? await refusal() : null;
    if (refused) box.checked = false;
    await change({ [key]: box.checked });
    if (refused) notice(refused); // after the profile is drawn again, which clears notices
  });
  return html("label", { class: "check" }, [box, t(`settings.${key}`)]);
}

async function change(changes) {
  try {
    await saveSettings(changes);
    redraw("#/profile"); // in the language just chosen
  } catch (error) {
    notice(problem(error));
  }
}

function settingsForm() {
  return html("section", { class: "card" }, [
    html("h2", {}, [t("settings.title")]),
    choice("language", LANGUAGES, (lang) => t(`language.${lang}`), currentLanguage()),
    toggle("animations"),
    choice("move_pace", PACES, (pace) => t(`settings.pace.${pace}`)),
    toggle("pace_people"),
    toggle("colourblind"),
    toggle("turn_notification", notificationRefusal),
    toggle("turn_sound"),
    html("h3", {}, [t("renature.title")]),
    toggle("renature_scored_colour"),
    choice("renature_animals", ["faded", "hidden", "visible"], (v) => t(`settings.animals.${v}`)),
  ]);
}

function noticesForm() {
  const email = html("input", { type: "email", name: "email", value: session.me.pending_email || session.me.email || "" });
  const notify = html("input", { type: "checkbox", name: "notify", checked: session.me.notify });
  // A reset link goes to the address, so moving it takes the password (a guest has none).
  const password = html("input", { type: "password", name: "password", autocomplete: "current-password" });
  const form = html("form", { class: "card" }, [
    html("h2", {}, [t("notices.title")]),
    html("label", {}, [t("notices.email"), email]),
    session.me.guest ? null : html("label", {}, [t("email.password"), password]),
    addressState(),
    html("label", { class: "check" }, [notify, t("notices.notify")]),
    html("button", { type: "submit" }, [t("notices.save")]),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { email: email.value || null, notify: notify.checked };
      if (password.value) body.password = password.value;
      const before = session.me.pending_email;
      session.me = await api("PUT", "/api/accounts/me", body);
      redraw("#/profile"); // the address's state drawn afresh
      notice(addressSaved(before), "info");
    } catch (error) {
      notice(problem(error));
    }
  });
  return form;
}

async function ratingsTable() {
  const rows = [];
  for (const game of GAMES) {
    const ratings = await api("GET", `/api/ratings/${game}`);
    const mine = ratings.people.find((r) => r.name === session.me.name);
    const bots = ratings.bots.map((r) => `${botName(r.bot)} ${r.rating}`).join(", ");
    rows.push(
      html("tr", {}, [
        html("td", {}, [t(`${game}.title`)]),
        html("td", {}, [mine ? String(mine.rating) : "–"]),
        html("td", {}, [mine ? String(mine.games) : "0"]),
        html("td", {}, [bots || "–"]),
      ]),
    );
  }
  return html("section", { class: "card" }, [
    html("h2", {}, [t("ratings.title")]),
    html("table", { class: "grid" }, [
      html("tr", {}, ["game", "rating", "games", "bots"].map((k) => html("th", {}, [t(`ratings.${k}`)]))),
      ...rows,
    ]),
  ]);
}
