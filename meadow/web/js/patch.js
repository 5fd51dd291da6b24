// A move's news patches the view the page holds (meadow/server/patch.py, docs/server.md
// "Patches"): a list of operations on JSON Pointer paths, `[path, value]` to set (a key
// added or replaced; a list's element replaced, or appended at the list's length) and
// `[path]` to remove (a key; a list's last element). One function for every game: the
// page draws from the patched view as from a whole one.

// A path the view does not have: the page and the server disagree on what the page holds.
export class PatchRefused extends Error {}

// `view` with `ops` applied, as a copy: the message before keeps its own view (a move still
// waiting to be shown draws from it). Throws PatchRefused rather than guess.
export function patched(view, ops) {
  let doc = structuredClone(view);
  for (const op of ops) {
    if (!Array.isArray(op) || typeof op[0] !== "string" || (op.length !== 1 && op.length !== 2)) {
      throw new PatchRefused(`not an operation: ${JSON.stringify(op)}`);
    }
    const keys = op[0].split("/").slice(1).map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
    if (op[0] !== "" && !op[0].startsWith("/")) throw new PatchRefused(`not a path: ${op[0]}`);
    if (!keys.length) {
      if (op.length !== 2) throw new PatchRefused("the view itself removed");
      doc = op[1];
      continue;
    }
    let parent = doc;
    for (const key of keys.slice(0, -1)) parent = child(parent, key, op[0]);
    set(parent, keys[keys.length - 1], op, op[0]);
  }
  return doc;
}

function child(parent, key, path) {
  if (Array.isArray(parent)) return parent[index(parent, key, parent.length - 1, path)];
  if (!isObject(parent) || !Object.hasOwn(parent, key)) throw new PatchRefused(`no ${path}`);
  return parent[key];
}

function set(parent, key, op, path) {
  const removing = op.length === 1;
  if (Array.isArray(parent)) {
    // Elements are removed from the end and appended at it: no index shifts under a patch.
    const at = index(parent, key, removing ? parent.length - 1 : parent.length, path);
    if (removing) {
      if (at !== parent.length - 1) throw new PatchRefused(`not the last: ${path}`);
      parent.pop();
    } else {
      parent[at] = op[1];
    }
    return;
  }
  // A key of a view never names the prototype: one that does is refused, never followed.
  if (!isObject(parent) || key === "__proto__") throw new PatchRefused(`no ${path}`);
  if (removing) {
    if (!Object.hasOwn(parent, key)) throw new PatchRefused(`no ${path}`);
    delete parent[key];
  } else {
    parent[key] = op[1];
  }
}

function index(list, key, most, path) {
  const at = /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
  if (at < 0 || at > most) throw new PatchRefused(`no ${path}`);
  return at;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
