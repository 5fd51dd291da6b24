// Choosing on the board by pointer and by keyboard: the one place that makes a game module's
// `data-key` elements choosable.
//
// The keyboard moves a roving focus over what may be chosen: Tab reaches the board once (one
// choice is in the tab order, the others are reached from it), Left and Right go to the
// previous and next choice in the order the board is drawn (the order a screen reader reads),
// Up and Down to the nearest choice above or below, Home and End to the first and last; Enter
// or Space chooses; Escape steps back one pick. Every choice carries the role of a button and
// a name, so a screen reader says what it is. The board is drawn anew at every move, so the
// focus is kept by key: after a redraw it is on the same choice if that is still there, else
// on the first one (or on the same button of the bar), as long as the person plays by keys.

import { t } from "./i18n.js";

export class BoardKeys {
  constructor(back) {
    this.back = back; // Escape: undo the last pick
    this.focusedKey = null; // the board's choice the focus was last on
    this.active = false; // the table is being played by keys (the last input was a key)
    this.lost = null; // before a redraw, the focus was in the table: {key} of the choice it was on
  }

  // Once for the table's page: a key pressed there means keyboard play, a pointer ends it.
  watch(root) {
    root.addEventListener("keydown", () => (this.active = true));
    root.addEventListener("pointerdown", () => (this.active = false));
  }

  // Before the table is drawn anew: whether the focus is in it (it will be lost with the
  // old nodes), and on which choice of the board or the bar.
  remember(root) {
    const focused = document.activeElement;
    if (!focused || focused === document.body || !root.contains(focused)) {
      this.lost = null;
      return;
    }
    const choice = focused.closest && focused.closest("[data-key]");
    this.lost = { key: choice ? choice.dataset.key : null };
  }

  // After: the focus back on the same choice (board or bar) if it is still there, else on the
  // board's first, as long as the table is played by keys.
  restore(root, board) {
    const lost = this.lost;
    this.lost = null;
    if (!lost || !this.active || root.contains(document.activeElement)) return;
    const same = lost.key && root.querySelector(`.actions [data-key="${CSS.escape(lost.key)}"], .board [data-key="${CSS.escape(lost.key)}"][tabindex]`);
    const home = board && board.isConnected ? board.querySelector("[data-key][tabindex='0']") : null;
    const target = same || home;
    if (target) target.focus({ preventScroll: true });
  }

  // Mark the keys that may come next (`next`) and the ones picked so far on a freshly drawn
  // board; `pick(key)` is what a choice does, `nameOf(key)` names a choice that has no name.
  mark(board, next, picked, pick, nameOf) {
    const ring = [];
    const seen = new Set();
    for (const node of board.querySelectorAll("[data-key]")) {
      const key = node.dataset.key;
      const isPicked = picked.includes(key);
      if (isPicked) node.classList.add("picked");
      if (next.has(key)) {
        node.classList.add("choosable");
        node.addEventListener("click", (event) => {
          event.stopPropagation();
          pick(key);
        });
      } else if (isPicked) {
        node.addEventListener("click", () => pick(key)); // clicking a pick again goes back to it
      } else {
        continue;
      }
      // A key drawn in several places is one stop for the keyboard (the first drawn).
      if (seen.has(key)) continue;
      seen.add(key);
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "-1");
      if (isPicked) node.setAttribute("aria-pressed", "true");
      if (!hasName(node)) node.setAttribute("aria-label", nameOf(key) || pictureName(board, node) || key);
      if (node instanceof HTMLElement && node.hasAttribute("aria-label") && node.textContent.trim()) {
        describeInstead(board, node, ring.length);
      }
      ring.push(node);
    }
    giveRoles(board);
    const home = ring.find((node) => node.dataset.key === this.focusedKey) || ring[0];
    if (home) home.setAttribute("tabindex", "0");
    board.setAttribute("role", "group");
    board.setAttribute("aria-label", t("table.board"));
    if (ring.length) board.setAttribute("aria-describedby", "board-keys");
    // A focus given back by a script after a redraw is not "focus-visible" to the browser:
    // while the table is played by keys, the board draws the ring on any focus.
    if (this.active) board.classList.add("keyboard");
    board.addEventListener("keydown", (event) => this.onKey(event, board));
    board.addEventListener("focusin", (event) => {
      const node = event.target.closest && event.target.closest("[data-key][tabindex]");
      if (!node) return;
      this.focusedKey = node.dataset.key;
      for (const other of board.querySelectorAll("[data-key][tabindex='0']")) other.setAttribute("tabindex", "-1");
      node.setAttribute("tabindex", "0");
    });
    board.addEventListener("pointerdown", () => board.classList.remove("keyboard"));
  }

  onKey(event, board) {
    const node = event.target.closest && event.target.closest("[data-key][tabindex]");
    if (!node) return;
    board.classList.add("keyboard");
    const ring = [...board.querySelectorAll("[data-key][tabindex]")];
    const at = ring.indexOf(node);
    const step = {
      ArrowRight: () => ring[(at + 1) % ring.length],
      ArrowLeft: () => ring[(at - 1 + ring.length) % ring.length],
      ArrowDown: () => nearest(ring, node, 1) || ring[(at + 1) % ring.length],
      ArrowUp: () => nearest(ring, node, -1) || ring[(at - 1 + ring.length) % ring.length],
      Home: () => ring[0],
      End: () => ring[ring.length - 1],
    }[event.key];
    if (step) {
      event.preventDefault();
      step().focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.back();
    }
  }
}

// A choice that shows words is named by them, as a person who sees it would call it (WCAG
// 2.5.3, label in name); what the module said of it besides is its description.
function describeInstead(board, node, index) {
  const words = document.createElement("span");
  words.id = `choice-words-${index}`;
  words.hidden = true;
  words.textContent = node.getAttribute("aria-label");
  board.append(words);
  node.removeAttribute("aria-label");
  node.setAttribute("aria-describedby", words.id);
}

// The board's drawing as a screen reader meets it. A game module names what it draws
// (`aria-label`, `<title>`), but an aria-label needs a role to be read (ARIA forbids it on a
// plain <div> or <g>), and a picture (role img) cannot hold a choice. So a named element
// without a role becomes a picture, or a group when it holds a choice; a picture holding a
// choice becomes a group. The table and the replay both pass their board through here.
export function giveRoles(board) {
  for (const node of board.querySelectorAll("[aria-label], [role='img']")) {
    const role = node.getAttribute("role");
    if (role && role !== "img") continue;
    const holdsChoice = node.querySelector("[data-key][tabindex]") !== null;
    if (holdsChoice) node.setAttribute("role", "group");
    else if (!role) node.setAttribute("role", "img");
  }
}

// The name of the picture a choice is drawn in (a domino's outline inside the drawing of the
// domino), for a choice the module drew without a name of its own.
function pictureName(board, node) {
  const named = node.parentElement && node.parentElement.closest("[aria-label]");
  return named && board.contains(named) ? named.getAttribute("aria-label") : null;
}

// Whether a choice has a name already: its own label or title, or what it holds (a button is
// named by its content: words, or the names of the pictures in it).
function hasName(node) {
  if (node.getAttribute("aria-label")) return true;
  const title = [...node.children].find((child) => child.tagName.toLowerCase() === "title");
  if (title && title.textContent.trim()) return true;
  if (node instanceof HTMLElement && node.textContent.trim()) return true;
  return [...node.querySelectorAll("[aria-label]")].some((inner) => inner.getAttribute("aria-label").trim());
}

// The choice nearest to `node` below it (`direction` 1) or above it (-1), preferring one
// straight down or up over one to the side.
function nearest(ring, node, direction) {
  const from = centre(node);
  let best = null;
  let bestCost = Infinity;
  for (const other of ring) {
    if (other === node) continue;
    const to = centre(other);
    const dy = (to.y - from.y) * direction;
    if (dy < 4) continue; // not below (or above) it
    const cost = dy + 2 * Math.abs(to.x - from.x);
    if (cost < bestCost) [best, bestCost] = [other, cost];
  }
  return best;
}

function centre(node) {
  const box = node.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}
