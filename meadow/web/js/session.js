// What every page shares, below the pages and the router: who is signed in and their
// settings, saving them, the notice line, the sentence for a refused request, and going to
// an address. The pages import this, never app.js, so that imports run one way.

import { api, setCsrf } from "./api.js";
import { useLanguage, t } from "./i18n.js";

export const GAMES = ["topiary", "harmonies", "renature", "mystic_vale"];

const DEFAULT_SETTINGS = {
  language: null, // not chosen: the browser's own
  animations: true,
  move_pace: "normal", // a computer's moves shown one at a time (motion.js)
  pace_people: false, // and other people's: by default they land as they come
  colourblind: false,
  renature_scored_colour: true,
  renature_animals: "faded",
  turn_notification: false, // a browser notification when the move comes to a hidden tab
  turn_sound: false, // and a short sound
};

// What every page may read: the person signed in (or null) and their settings.
export const session = { me: null, settings: { ...DEFAULT_SETTINGS } };

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

// Said to a screen reader without moving its focus (another seat's move, for one).
export function announce(message) {
  const box = document.getElementById("announce");
  if (box) box.textContent = message;
}

export function clearError() {
  const box = document.getElementById("notice");
  if (box && box.classList.contains("error")) box.hidden = true;
}

// The sentence to show for a refused request: the server's own, else one of ours.
export function problem(error) {
  if (error && error.message && error.status) return error.message;
  if (error && error.status === 0) return t("error.offline");
  return t("error.unknown");
}

// Show the page of an address: the router (app.js) listens for the address's change, and is
// told again when the address is the one shown already.
export function go(address) {
  if (location.hash === address) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = address;
}

// Draw a page again after a request it made was answered, if it is still the page shown:
// a person who went on meanwhile (a mailed link opened, another page chosen) stays there.
export function redraw(address) {
  if (location.hash === address) go(address);
}
