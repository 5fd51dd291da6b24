// A card or piece shown enlarged (issue 21, 3): a game module marks what can be looked at
// closely with `data-magnify="<what>"` and exports `magnify(what, ctx)`, which draws it again
// with its own drawing functions at a larger size, with its full text. The page wires a board
// once per render (`magnifyOn`); this file owns the one floating panel of the page:
// - a mouse resting on a marked element shows it, leaving the element hides it (not after a
//   click, while the mouse stays where it clicked);
// - a finger held on it (a long press) shows it without picking it: the click the browser
//   may send after the press is swallowed; a short tap still clicks as before, and the next
//   tap anywhere hides the panel;
// - Escape, a scroll or the element leaving the page hide it too.
// The panel lies within the visible part of the viewport, beside the element where there is
// room. Titles inside a marked element are removed (the panel is its tooltip now); the module
// gives the element an aria-label, so that a screen reader still has its name.

import { html } from "./draw.js";

const HOVER_MS = 250; // a mouse resting this long on a thing shows it, not one passing by
const PRESS_MS = 450; // a finger held this long is a long press
const SLOP = 10; // px a held finger may wander
const MARGIN = 8; // px kept free between the panel and the viewport's edges

let panel = null;
let shown = null; // {node, what, touch}: what the panel shows, and whether a finger asked
let hoverTimer = null;
let press = null; // {x, y, id, timer}: a finger held on a marked element
let swallowClick = false;
// Where the mouse clicked: the board drawn anew under a resting mouse is no wish to look, so
// hovering shows nothing until the mouse has moved away from there.
let clickedAt = null;

export function magnifyOn(board, module, ctx) {
  if (!module.magnify) return;
  const draw = (what) => module.magnify(what, ctx);
  for (const node of board.querySelectorAll("[data-magnify]")) untitle(node);
  board.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse" || clickedAt) return;
    const node = marked(board, event.target);
    if (!node || (shown && shown.node === node)) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => show(node, draw, false), HOVER_MS);
  });
  board.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const node = marked(board, event.target);
    if (!node || (event.relatedTarget && node.contains(event.relatedTarget))) return;
    clearTimeout(hoverTimer);
    if (shown && shown.node === node) hide();
  });
  board.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") {
      hide(); // a click acts on the board, which is drawn anew: the look ends with it
      clickedAt = { x: event.clientX, y: event.clientY };
      return;
    }
    const node = marked(board, event.target);
    if (!node) return;
    const timer = setTimeout(() => {
      press = null;
      swallowClick = true;
      show(node, draw, true);
    }, PRESS_MS);
    press = { x: event.clientX, y: event.clientY, id: event.pointerId, timer };
  });
  board.addEventListener("pointermove", (event) => {
    if (press && event.pointerId === press.id) {
      const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > SLOP;
      if (far) endPress();
    }
  });
  for (const name of ["pointerup", "pointercancel"]) {
    board.addEventListener(name, (event) => {
      if (press && event.pointerId === press.id) endPress();
    });
  }
  // Before the element's own listener (the page's pick): the press was a look, not a pick.
  board.addEventListener(
    "click",
    (event) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    },
    true,
  );
  board.addEventListener("contextmenu", (event) => {
    if (marked(board, event.target) && (press || (shown && shown.touch))) event.preventDefault();
  });
  // The page draws a new board after each move: a panel open for the old one follows its
  // element into the new board, or closes when the element is gone.
  requestAnimationFrame(() => {
    if (!shown || shown.node.isConnected || !board.isConnected) return;
    const again = board.querySelector(`[data-magnify="${CSS.escape(shown.what)}"]`);
    if (again && !shown.touch) show(again, draw, false);
    else hide();
  });
  listenOnce();
}

function marked(board, target) {
  const node = target instanceof Element ? target.closest("[data-magnify]") : null;
  return node && board.contains(node) ? node : null;
}

function endPress() {
  clearTimeout(press.timer);
  press = null;
}

// Titles would show the browser's own small tooltip over the panel.
function untitle(node) {
  node.removeAttribute("title");
  for (const inner of node.querySelectorAll("[title]")) inner.removeAttribute("title");
  for (const title of node.querySelectorAll("title")) title.remove();
}

function show(node, draw, touch) {
  clearTimeout(hoverTimer);
  if (!node.isConnected) return;
  const what = node.dataset.magnify;
  const content = draw(what);
  if (!content) return;
  untitle(content);
  // The copy is no part of the board: nothing in it is clicked, lit or animated.
  const marks = ["data-key", "data-spot", "data-piece", "data-count", "data-magnify"];
  for (const inner of [content, ...content.querySelectorAll("*")]) {
    for (const mark of marks) inner.removeAttribute(mark);
  }
  if (!panel) {
    panel = html("div", { class: "magnify", role: "tooltip", id: "magnify", hidden: true });
    document.body.append(panel);
  }
  panel.replaceChildren(content);
  panel.classList.toggle("by-touch", touch);
  panel.dataset.what = what;
  panel.hidden = false;
  place(panel, node.getBoundingClientRect());
  const described = node.getAttribute("aria-describedby"); // a choice's words, kept
  node.setAttribute("aria-describedby", described ? `${described} magnify` : "magnify");
  shown = { node, what, touch, described };
}

export function hide() {
  clearTimeout(hoverTimer);
  if (!shown) return;
  if (shown.described) shown.node.setAttribute("aria-describedby", shown.described);
  else shown.node.removeAttribute("aria-describedby");
  shown = null;
  panel.hidden = true;
  panel.replaceChildren();
  delete panel.dataset.what;
}

// Beside the element (right, left, below, above: the first side with room), else wherever
// it fits; always inside the part of the viewport one sees (a pinch-zoomed phone sees less).
function place(box, near) {
  const view = window.visualViewport;
  const area = {
    left: (view ? view.offsetLeft : 0) + MARGIN,
    top: (view ? view.offsetTop : 0) + MARGIN,
    width: (view ? view.width : document.documentElement.clientWidth) - 2 * MARGIN,
    height: (view ? view.height : window.innerHeight) - 2 * MARGIN,
  };
  box.style.maxWidth = `${Math.max(0, area.width)}px`;
  box.style.maxHeight = `${Math.max(0, area.height)}px`;
  box.style.left = "0px";
  box.style.top = "0px";
  // Its own size, not the size it has while it zooms in.
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const right = area.left + area.width;
  const bottom = area.top + area.height;
  const clampX = (x) => Math.max(area.left, Math.min(x, right - width));
  const clampY = (y) => Math.max(area.top, Math.min(y, bottom - height));
  const sides = [
    [near.right + MARGIN, clampY(near.top), near.right + MARGIN + width <= right],
    [near.left - MARGIN - width, clampY(near.top), near.left - MARGIN - width >= area.left],
    [clampX(near.left), near.bottom + MARGIN, near.bottom + MARGIN + height <= bottom],
    [clampX(near.left), near.top - MARGIN - height, near.top - MARGIN - height >= area.top],
  ];
  const [x, y] = sides.find(([, , fits]) => fits) || [clampX(near.right), clampY(near.top)];
  box.style.left = `${Math.round(x)}px`;
  box.style.top = `${Math.round(y)}px`;
}

let listening = false;

function listenOnce() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  // A new touch anywhere ends the look (a tap elsewhere still does what it does), and starts
  // a gesture whose click is its own.
  document.addEventListener(
    "pointerdown",
    (event) => {
      swallowClick = false;
      if (event.pointerType !== "mouse" && shown && shown.touch) hide();
    },
    true,
  );
  document.addEventListener("pointermove", (event) => {
    if (clickedAt && Math.hypot(event.clientX - clickedAt.x, event.clientY - clickedAt.y) > SLOP) clickedAt = null;
  });
  window.addEventListener("scroll", () => shown && hide(), { capture: true, passive: true });
  window.addEventListener("hashchange", hide);
}
