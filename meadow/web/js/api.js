// Talking to the server: JSON in and out, the CSRF token on every request that changes
// something, and every refusal turned into an ApiError carrying the server's own sentence.

let csrf = null;

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export function setCsrf(token) {
  csrf = token;
}

// A private table is read only by its seats and by whoever holds its invitation or
// spectator key (server: meadow/server/access.py). A key a visitor came with is kept for
// the tab's life and sent with every request about that table.
const KEYS = "meadow-table-keys";

function tableKeys() {
  try {
    return JSON.parse(sessionStorage.getItem(KEYS)) || {};
  } catch {
    return {};
  }
}

export function rememberKey(tableId, key) {
  if (!key) return;
  try {
    sessionStorage.setItem(KEYS, JSON.stringify({ ...tableKeys(), [tableId]: key }));
  } catch {
    // storage refused (a private window): the key lasts as long as the page
  }
}

function keyFor(path) {
  const table = path.match(/^\/api\/tables\/(\d+)(?:[/?]|$)/);
  return table ? tableKeys()[table[1]] : undefined;
}

// The path with the table's key as a query parameter, for what cannot send a header
// (a socket, a download link).
export function keyed(path) {
  const key = keyFor(path);
  if (!key) return path;
  return `${path}${path.includes("?") ? "&" : "?"}key=${encodeURIComponent(key)}`;
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const key = keyFor(path);
  if (key) headers["X-Meadow-Key"] = key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, null, null);
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const message = data && typeof data.error === "string" ? data.error : null;
    throw new ApiError(response.status, message, data);
  }
  return data;
}

export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${keyed(path)}`;
}
