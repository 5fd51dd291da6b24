// Small helpers for building SVG and HTML from plain data, shared by the page and the games.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "class") node.setAttribute("class", value);
    else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of [].concat(children || [])) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// svg("rect", {x: 0, y: 0, width: 10}, [children]) -> SVGElement
export function svg(tag, attrs, children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

// html("div", {class: "x"}, ["text", node]) -> HTMLElement
export function html(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

const styleSheets = new Map();

// A style sheet added to the page, settled once it has loaded: what is drawn after it is
// drawn styled (a board drawn before its sheet arrived showed unstyled for a moment, cards a
// whole row wide). A sheet that fails to load settles too: unstyled, but readable.
export function styleSheet(href) {
  if (!styleSheets.has(href)) {
    styleSheets.set(
      href,
      new Promise((resolve) => {
        const link = html("link", { rel: "stylesheet", href });
        link.addEventListener("load", resolve);
        link.addEventListener("error", resolve);
        document.head.append(link);
      }),
    );
  }
  return styleSheets.get(href);
}

const SEAT_COLOURS = ["#c0392b", "#2166ac", "#e0a800", "#6a3d9a"];
const SEAT_SYMBOLS = ["●", "▲", "■", "◆"];

export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

// A shape per seat, for colour-blind help: colour is never the only sign of whose a thing is.
export function seatSymbol(seat) {
  return SEAT_SYMBOLS[seat % SEAT_SYMBOLS.length];
}

// Fill patterns for colour-blind help: pattern(i) is "url(#meadow-pattern-i)", defined once per
// page by patternDefs() (the page adds them; games only refer to them).
export const PATTERN_COUNT = 8;

export function pattern(index) {
  return `url(#meadow-pattern-${index % PATTERN_COUNT})`;
}

export function patternDefs() {
  const shapes = [
    (p) => p.append(svg("path", { d: "M0 8 L8 0", stroke: "#000", "stroke-width": 1.2 })),
    (p) => p.append(svg("path", { d: "M0 0 L8 8", stroke: "#000", "stroke-width": 1.2 })),
    (p) => p.append(svg("circle", { cx: 4, cy: 4, r: 1.5, fill: "#000" })),
    (p) => p.append(svg("path", { d: "M0 4 H8", stroke: "#000", "stroke-width": 1.2 })),
    (p) => p.append(svg("path", { d: "M4 0 V8", stroke: "#000", "stroke-width": 1.2 })),
    (p) => p.append(svg("path", { d: "M0 4 H8 M4 0 V8", stroke: "#000", "stroke-width": 1 })),
    (p) => p.append(svg("path", { d: "M0 8 L8 0 M0 0 L8 8", stroke: "#000", "stroke-width": 1 })),
    (p) => p.append(svg("rect", { x: 2, y: 2, width: 4, height: 4, fill: "#000" })),
  ];
  const defs = svg("defs");
  shapes.forEach((draw, i) => {
    const p = svg("pattern", {
      id: `meadow-pattern-${i}`,
      width: 8,
      height: 8,
      patternUnits: "userSpaceOnUse",
    });
    p.append(svg("rect", { width: 8, height: 8, fill: "#fff", "fill-opacity": 0.15 }));
    draw(p);
    defs.append(p);
  });
  return svg("svg", { width: 0, height: 0, "aria-hidden": "true", class: "pattern-defs" }, [defs]);
}
