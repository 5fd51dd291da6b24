// Every word on the page comes from i18n/<language>/*.json: app.json for the page, <game>.json
// for each game. A missing key shows as the key itself and is reported in the console, so
// the tests catch it.

export const LANGUAGES = ["en", "de"];
const loaded = {}; // "en/app" -> {key: text}
let language = "en";

async function load(lang, file) {
  const name = `${lang}/${file}`;
  if (!loaded[name]) {
    const response = await fetch(`/i18n/${name}.json`);
    loaded[name] = response.ok ? await response.json() : {};
  }
  return loaded[name];
}

// The browser's own language, for someone who has not chosen one (German for a German
// browser); English when it speaks none of ours.
export function browserLanguage() {
  const spoken = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of spoken) {
    const lang = String(tag || "").slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(lang)) return lang;
  }
  return "en";
}

// `lang`: the person's choice, or null to speak the browser's language.
export async function useLanguage(lang, games = []) {
  const chosen = LANGUAGES.includes(lang) ? lang : browserLanguage();
  // Switch only once the strings are here: a page drawn meanwhile shows the old language,
  // never keys.
  await Promise.all([load(chosen, "app"), ...games.map((g) => load(chosen, g))]);
  language = chosen;
  document.documentElement.lang = language;
}

export function currentLanguage() {
  return language;
}

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params && params[name] !== undefined ? String(params[name]) : whole,
  );
}

function lookup(file, key) {
  const table = loaded[`${language}/${file}`];
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}

// A count of one reads "1 point": a key may have a singular, `<key>_one`, used when its `n`
// is 1.
function counted(file, key, params) {
  const one = params && params.n === 1 ? lookup(file, `${key}_one`) : undefined;
  return one === undefined ? lookup(file, key) : one;
}

// A page string, or a game's ("topiary.title") when the key starts with a game's id.
export function t(key, params) {
  let text = counted("app", key, params);
  if (text === undefined) {
    const dot = key.indexOf(".");
    if (dot > 0) text = counted(key.slice(0, dot), key.slice(dot + 1), params);
  }
  if (text === undefined) {
    console.error(`missing translation: ${language} ${key}`);
    return key;
  }
  return fillIn(text, params);
}

// A translator for one game: the game's own file first, then the page's strings.
export function gameT(game) {
  return (key, params) => {
    const text = counted(game, key, params);
    return text === undefined ? t(key, params) : fillIn(text, params);
  };
}

export async function loadGame(game) {
  await load(language, game);
}

export function has(key, game) {
  return (game && lookup(game, key) !== undefined) || lookup("app", key) !== undefined;
}

// A bot's name as people read it: the levels are translated, other bot names shown as they are.
export function botName(bot) {
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : bot;
}
