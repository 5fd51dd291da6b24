// Renature's facts and names: animals, plants, piece colours, spaces and players.

// The order of data/animals.json: a domino's id numbers every pair (A0-A0, A0-A1, ... A9-A9).
export const ANIMALS = [
  "butterfly",
  "salamander",
  "owl",
  "woodpecker",
  "snail",
  "badger",
  "turtle",
  "hedgehog",
  "frog",
  "bee",
];
export const STANDIN_ANIMALS = new Set(["hedgehog", "frog", "bee"]);
export const PLANTS = ["turf", "bush", "pine", "oak"];
export const PLANT_VALUE = { turf: 1, bush: 2, pine: 3, oak: 4 };
export const COLOURS = ["orange", "blue", "black", "white"];
export const CLOUD_SPACES = 6;

// The pieces' own colours (the game's player colours), not the page's seat colours.
export const PIECE = {
  orange: { fill: "#ee7d1b", line: "#7a3a00" },
  blue: { fill: "#2f6fd6", line: "#0d2f66" },
  black: { fill: "#2b2b2b", line: "#000000" },
  white: { fill: "#fbfbf6", line: "#555555" },
  neutral: { fill: "#d8bb8a", line: "#6b4f25" },
};
export const ANIMAL_COLOUR = {
  butterfly: "#f6a9cb",
  salamander: "#f3b23e",
  owl: "#c39a67",
  woodpecker: "#ec6a57",
  snail: "#c7a3e0",
  badger: "#a8b0b8",
  turtle: "#79c07a",
  hedgehog: "#d4a06a",
  frog: "#55c9b0",
  bee: "#ffdd4f",
};
export const LAND = { open: "#a3cf6a", scored: "#dcc98f", valley: "#86bd58" };
export const WATER = "#6db4de";
export const MEADOW = "#dbeab0";
export const INK = "#2b2b2b";

export const C = 40; // one space, in board units
export const PAD = 22; // room for the column letters and row numbers

// -- small pure helpers -------------------------------------------------------------------

export function colRow(name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

export function cellName(col, row) {
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

export function cellXY(name) {
  const [col, row] = colRow(name);
  return [PAD + col * C, PAD + row * C];
}

export function dominoAnimals(id) {
  let n = Number(id.slice(1));
  for (let first = 0; first < ANIMALS.length; first++) {
    const pairs = ANIMALS.length - first;
    if (n < pairs) return [ANIMALS[first], ANIMALS[first + n]];
    n -= pairs;
  }
  return ["", ""];
}

export function playerName(ctx, seat) {
  return ctx.seatName(seat);
}

export function seatOfColour(colour) {
  const seat = COLOURS.indexOf(colour);
  return seat < 0 ? null : seat;
}

// An animal's name, marked where the name is a stand-in: everywhere it is read or heard
// (labels for screen readers included), as on the magnified piece.
export function animalName(ctx, animal) {
  const name = ctx.t(`animal.${animal}`);
  return STANDIN_ANIMALS.has(animal) ? `${name} (${ctx.t("standin")})` : name;
}

export function plantName(ctx, plant, neutral) {
  const name = ctx.t(`plant.${plant}`);
  return neutral ? ctx.t("neutral_plant", { plant: name }) : name;
}

export function boardKind(view) {
  return (view.options && view.options.board) || "base";
}
