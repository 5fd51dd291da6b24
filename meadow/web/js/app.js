// The page: who is signed in, the navigation, and which page the address shows.

import { api, setCsrf } from "./api.js";
import { html, patternDefs } from "./draw.js";
import { t, useLanguage } from "./i18n.js";
import { accountPage, profilePage } from "./account.js";
import { confirmPage, forgotPage, resetPage } from "./people.js";
import { adminPage } from "./admin.js";
import { lobbyPage, invitePage, turnsPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rules.js";

export const GAMES = ["topiary", "harmonies", "renature", "mystic_vale"];

const DEFAULT_SETTINGS = {
  language: null, // not chosen: the browser's own
  animations: true,
  move_pace: "normal", // other seats' moves shown one at a time (motion.js)
  colourblind: false,
  renature_scored_colour: true,
  renature_animals: "faded",
  turn_notification: false, // a browser notification when the move comes to a hidden tab
  turn_sound: false, // and a short sound
};

// What every page may read: the person signed in (or null) and their settings.
export const session = { me: null, settings: { ...DEFAULT_SETTINGS } };

let leave = null; // the open page's clean-up (a table closes its socket)

export async function signedIn(me) {
  session.me = me;
  setCsrf(me ? me.csrf : null);
  session.settings = { ...DEFAULT_SETTINGS, ...(me ? me.settings : visitorSettings()) };
  await useLanguage(session.settings.language, GAMES);
  applySettings();
}

function visitorSettings() {
  try {
    return JSON.parse(localStorage.getItem("meadow-settings") || "{}");
  } catch {
    return {};
  }
}

// Saves run one after another: each sends the whole settings, so one that overtook an
// earlier one on the wire would be undone by it. The body says when all have landed.
let saving = Promise.resolve();
let unsaved = 0;

export function saveSettings(changes) {
  session.settings = { ...session.settings, ...changes };
  const settings = { ...session.settings };
  unsaved += 1;
  document.body.dataset.settings = "saving";
  const saved = saving.then(() => storeSettings(settings));
  saving = saved.catch(() => {});
  return saved.finally(() => {
    unsaved -= 1;
    if (unsaved === 0) document.body.dataset.settings = "saved";
  });
}

async function storeSettings(settings) {
  if (session.me) {
    session.me = await api("PUT", "/api/accounts/me/settings", settings);
  } else {
    localStorage.setItem("meadow-settings", JSON.stringify(settings));
  }
  await useLanguage(settings.language, GAMES);
  applySettings();
}

function applySettings() {
  const root = document.documentElement;
  root.classList.toggle("no-animations", !session.settings.animations);
  root.classList.toggle("colourblind", session.settings.colourblind);
}

export function notice(message, kind = "error") {
  const box = document.getElementById("notice");
  box.textContent = message;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => (box.hidden = true), 6000);
}

function clearError() {
  const box = document.getElementById("notice");
  if (box && box.classList.contains("error")) box.hidden = true;
}

// The sentence to show for a refused request: the server's own, else one of ours.
export function problem(error) {
  if (error && error.message && error.status) return error.message;
  if (error && error.status === 0) return t("error.offline");
  return t("error.unknown");
}

export function go(address) {
  if (location.hash === address) route();
  else location.hash = address;
}

function drawNav() {
  const nav = document.getElementById("nav");
  const link = (href, key) => html("a", { href }, [t(key)]);
  const items = session.me
    ? [
        link("#/", "nav.lobby"),
        link("#/turns", "nav.turns"),
        link("#/profile", "nav.profile"),
        session.me.admin ? link("#/admin", "nav.admin") : null,
        html("span", { class: "who" }, [session.me.name]),
        html("button", { type: "button", class: "link", onclick: logOut }, [t("nav.logout")]),
      ]
    : [link("#/login", "nav.login"), link("#/signup", "nav.signup")];
  nav.replaceChildren(...items.filter(Boolean));
  document.title = t("site.title");
}

async function logOut() {
  await api("POST", "/api/accounts/logout").catch(() => null);
  await signedIn(null);
  go("#/login");
}

const ROUTES = [
  [/^#\/login$/, () => accountPage("login")],
  [/^#\/signup$/, () => accountPage("signup")],
  [/^#\/turns$/, () => turnsPage()],
  [/^#\/profile$/, () => profilePage()],
  [/^#\/admin$/, () => adminPage()],
  [/^#\/forgot$/, () => forgotPage()],
  [/^#\/reset\/([\w-]+)$/, (m) => resetPage(m[1])],
  [/^#\/confirm\/([\w-]+)$/, (m) => confirmPage(m[1])],
  [/^#\/table\/(\d+)$/, (m) => tablePage(Number(m[1]))],
  [/^#\/replay\/(\d+)$/, (m) => replayPage(Number(m[1]))],
  [/^#\/rules\/(\w+)(?:\?table=(\d+))?$/, (m) => rulesPage(m[1], m[2] ? Number(m[2]) : null)],
  [/^#\/invite\/([\w-]+)$/, (m) => invitePage(m[1])],
  [/^#?\/?$/, () => lobbyPage()],
];

let routing = 0; // which call of route() is the latest: pages load while the address changes

export async function route() {
  const mine = ++routing;
  if (leave) leave();
  leave = null;
  clearError(); // a refusal belongs to the page it was made on
  drawNav();
  const address = location.hash || "#/";
  const needsAccount = !/^#\/(login|signup|table|replay|invite|rules|forgot|reset|confirm)/.test(address);
  const found = ROUTES.map(([pattern, open]) => [address.match(pattern), open]).find(([m]) => m);
  let shown;
  if (needsAccount && !session.me) shown = await accountPage("login");
  else if (found) shown = await found[1](found[0]);
  else shown = { nodes: [html("p", {}, [t("error.no_page")])] };
  if (mine !== routing) {
    if (shown.leave) shown.leave(); // a later address won: this page closes unseen
    return;
  }
  document.getElementById("page").replaceChildren(...shown.nodes);
  leave = shown.leave || null;
  document.body.dataset.shown = address; // which address the page shows now (for tests)
}

async function start() {
  document.body.append(patternDefs());
  const me = await api("GET", "/api/accounts/me").catch(() => null);
  await signedIn(me);
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "true";
}

start();
