// The page: who is signed in, the navigation, and which page the address shows.

import { api, rememberKey } from "./api.js";
import { html, patternDefs } from "./draw.js";
import { t } from "./i18n.js";
import { clearError, go, session, signedIn } from "./session.js";
import { accountPage, profilePage } from "./account.js";
import { confirmPage, forgotPage, resetPage, undoAddressPage } from "./people.js";
import { adminPage } from "./admin.js";
import { lobbyPage, invitePage, turnsPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rules.js";

let leave = null; // the open page's clean-up (a table closes its socket)

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
  [/^#\/undo-address\/([\w-]+)$/, (m) => undoAddressPage(m[1])],
  [/^#\/table\/(\d+)(?:\?key=([\w-]+))?$/, (m) => (rememberKey(m[1], m[2]), tablePage(Number(m[1])))],
  [/^#\/replay\/(\d+)(?:\/(\d+))?(?:\?key=([\w-]+))?$/, (m) => (rememberKey(m[1], m[3]), replayPage(Number(m[1]), m[2] === undefined ? null : Number(m[2])))],
  [/^#\/rules\/(\w+)(?:\?table=(\d+))?$/, (m) => rulesPage(m[1], m[2] ? Number(m[2]) : null)],
  [/^#\/invite\/([\w-]+)$/, (m) => invitePage(m[1])],
  [/^#\/\?with=([^&]+)$/, (m) => lobbyPage(decodeURIComponent(m[1]))],
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
  const needsAccount = !/^#\/(login|signup|table|replay|invite|rules|forgot|reset|confirm|undo-address)/.test(address);
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
