// From clicks to an action. A game module gives each legal action a path of keys; the
// player clicks keys one by one, and once the keys picked so far are one action's whole path,
// that action is chosen. The page only ever offers actions the server listed.

// Each choice with its path, and any paths that would make a click ambiguous.
export function planPaths(choices, pathOf) {
  const planned = choices.map((choice) => ({ choice, path: pathOf(choice) }));
  const conflicts = [];
  const seen = new Map();
  for (const { choice, path } of planned) {
    const whole = JSON.stringify(path);
    if (seen.has(whole)) conflicts.push(`${choice.text} and ${seen.get(whole)} share ${whole}`);
    seen.set(whole, choice.text);
  }
  const beginnings = new Set();
  for (const { path } of planned) {
    for (let n = 1; n < path.length; n++) beginnings.add(JSON.stringify(path.slice(0, n)));
  }
  for (const { choice, path } of planned) {
    if (beginnings.has(JSON.stringify(path))) {
      conflicts.push(`the path of ${choice.text} is the start of another action's`);
    }
  }
  return { planned, conflicts };
}

function startsWith(path, prefix) {
  return prefix.every((key, i) => path[i] === key);
}

// The keys that may be clicked next, after `picked`.
export function nextKeys(planned, picked) {
  const keys = new Set();
  for (const { path } of planned) {
    if (path.length > picked.length && startsWith(path, picked)) keys.add(path[picked.length]);
  }
  return keys;
}

// The action the picked keys name whole, if any.
export function chosen(planned, picked) {
  const found = planned.find(
    ({ path }) => path.length === picked.length && startsWith(path, picked),
  );
  return found ? found.choice : null;
}

// The listed action with this notation, if the position lists it (a hint, a written move, a
// judged move drawn on the board).
export function named(choices, text) {
  return (choices || []).find((choice) => choice.text === text) || null;
}

// A position's choices as the page uses them: the server sends each choice's fields and its
// notation apart, `legal[i]` beside `choices[i]` (so the notation crosses the wire once).
export function choicesOf(position) {
  const legal = position.legal || [];
  return (position.choices || []).map((choice, i) => ({ ...choice, text: legal[i] }));
}
