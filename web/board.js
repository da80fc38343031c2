// The board's page: draws the view state the board sends (docs/API.md) and sends commands.
// It holds no rules: whatever it shows, the board said; whatever it sends, the board judges.
"use strict";

const keypadOrder = [7, 8, 9, 4, 5, 6, 1, 2, 3]; // the view state's cells are in reading order
const opponents = { "two-players": "a second player", "computer-1": "computer 1", "computer-2": "computer 2", "computer-3": "computer 3", "computer-4": "computer 4", "learner": "the learner" };

const page = {
  socket: null,
  play: false,
  state: null,
  retry: 1000,
  pingTimer: null,
  pongDue: null,
  historyAsked: false, // since this connection, or the board's return
  opponentAsked: null, // the opponent chosen while the page asks whether to give the game up
  invitationsSaid: new Set(), // the boards whose invitation the log has said
  resetAsked: null, // the learner asked about, { games, resets } as the board counted them, while the page asks
};

const $ = (id) => document.getElementById(id);
// A table's own entry for a name the board sent, never one an object inherits ("constructor",
// "__proto__"): what a board says is not trusted to be one of the names the page knows.
const entry = (table, name) => (Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined);
const cells = [...document.querySelectorAll(".cell")]; // in reading order, as the grid's rows hold them
// Each cell's place, by its keypad number, as a cell's name says it ("top left, X").
const places = {
  7: "top left", 8: "top centre", 9: "top right",
  4: "middle left", 5: "centre", 6: "middle right",
  1: "bottom left", 2: "bottom centre", 3: "bottom right",
};
// The page's own name, after whose turn it is in the tab's title ("X to move — Tic-tac-toe board").
const pageTitle = document.title;

// The cells' looks and the board's headline, in words. The names are the board's (its table of
// states, docs/VIEWS.md); how each is drawn is board.css's, how each is said is here. The page
// decides no look of its own: it draws and says the names the board sends.
const lookWords = {
  "empty": "empty",
  "x": "X",
  "o": "O",
  "x-winning": "X, on the winning line",
  "o-winning": "O, on the winning line",
  "x-drawn": "X, in a drawn game",
  "o-drawn": "O, in a drawn game",
  "refused-empty": "a refused press on an empty cell",
  "refused-x": "a refused press on X",
  "refused-o": "a refused press on O",
  "x-offered": "X, in the choice of opponent",
  "o-offered": "O, in the choice of opponent",
  "beads-few": "empty, few of the learner's beads",
  "beads-some": "empty, some of the learner's beads",
  "beads-most": "empty, the most of the learner's beads",
};
// What the page says when the board or the web view refuses a command, by the error's `reason`
// (docs/API.md, "Reasons"): in a person's words, with what to do. The `text` beside it is for
// programs and the terminal; commands, options, paths and services stay there.
const notUnderstood = "The board did not understand this page. Reload the page and try again.";
const reasonWords = {
  "cell-taken": "That cell is taken: choose a free one.",
  "computers-turn": "It is the computer's turn: wait for its move.",
  "game-over": "This game is over: start a new game to play again.",
  "woke-up": "The lights were asleep, and that woke them: tap the cell again to play it.",
  "game-not-over": "A game is in progress: finish it first, or give it up with New game.",
  "not-taken": "The board did not take that. Try again.",
  "not-ready": "The board is still starting. Try again in a moment.",
  "watch-only": "This page is for watching only: play on the board itself.",
  "too-many-commands": "That was faster than the board takes: wait a moment, then try again.",
  "busy": "The board is busy: try again in a moment.",
  "board-unreachable": "The board cannot be reached just now, so nothing was sent. Wait until it is back, then try again.",
  "board-went-away": "The board went away before it answered. Wait until it is back, then try again.",
  "too-long": notUnderstood,
  "not-json": notUnderstood,
  "not-a-command": notUnderstood,
  "unknown-command": notUnderstood,
  "bad-argument": notUnderstood,
  "unknown-opponent": "The board does not know that player. Reload the page and choose again.",
  "learner-playing": "The learner is in the middle of a game: finish it, or give it up with New game, then ask again.",
  "learner-changed": "The learner played or was reset meanwhile, so nothing was reset. Ask again if you still want to.",
  "learner-teaching": "The learner is in a lesson already: wait for its end, or stop it.",
};
// A reason of a later board, or none.
const otherRefusal = "The board could not do that. Try again, or reload the page.";
// Why the board cannot be reached, by the `web` message's `reason`, for the banner.
const awayWords = {
  "connecting": "Looking for the board…",
  "board-not-allowed": "The web view is not allowed to reach the board: whoever set the board up can fix this. This page will show the board once it can.",
};
const awayOtherwise = "The board cannot be reached. Wait a moment, or check that the board is switched on: this page will show it again by itself.";
const pageAway = "This page lost its connection to the board. Check that this device is on the board's network: the page reconnects by itself.";
const notSent = {
  closed: "This page is not connected just now, so nothing was sent. It reconnects by itself: try again in a moment.",
  watching: reasonWords["watch-only"],
};

// How many of the last things said the log keeps on the page (a screen reader has heard each),
// unless more came at once.
const saidKept = 3;

// Another board's name and mark, from an opponent "board:kitchen" (it plays O) or
// "board:kitchen:x"; null for any other opponent.
function otherBoard(opponent) {
  const found = /^board:([a-z0-9][a-z0-9-]*?)(:x)?$/.exec(opponent || "");
  return found ? { name: found[1], mark: found[2] ? "X" : "O" } : null;
}

function nameOf(mark, state) {
  const names = state.names || {};
  const board = otherBoard(state.opponent);
  if (board && board.mark === mark) return `the board ${board.name} (${mark})`;
  if (board || mark === "X") return names[mark.toLowerCase()] ? `${names[mark.toLowerCase()]} (${mark})` : mark;
  if (state.opponent === "learner") return "the learner (O)";
  if (state.opponent !== "two-players") return `the computer (O)`;
  return names.o ? `${names.o} (O)` : "O";
}

// "the computer (O) wins" at the start of a sentence.
function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Who plays O, as the chooser names it ("the computer, level 2").
function opponentWords(opponent) {
  const option = [...$("opponent").options].find((item) => item.value === opponent);
  return option ? option.textContent : opponent;
}

// The chooser shows the opponent, and offers each other board the board's link sees online:
// joining one that invites this board, inviting any other. Another board chosen elsewhere and no
// longer seen keeps an option of its own for as long as it plays.
function showOpponent(state) {
  const chooser = $("opponent");
  const offered = (state.boardsSeen || []).map((seen) => ({
    value: seen.invites ? `board:${seen.board}:x` : `board:${seen.board}`,
    text: seen.invites ? `the board ${seen.board}, which invites this one (join: it plays X)` : `the board ${seen.board} (invite it: it plays O)`,
  })).filter((choice) => otherBoard(choice.value));
  const board = otherBoard(state.opponent);
  if (board && !offered.some((choice) => choice.value === state.opponent)) {
    offered.push({ value: state.opponent, text: `the board ${board.name}, playing ${board.mark}` });
  }
  // Updated in place, each option kept while its board is offered: one a keyboard or a screen
  // reader is on does not vanish and come back when the list changes around it.
  const shown = new Map([...chooser.options].filter((option) => option.dataset.board).map((option) => [option.value, option]));
  for (const [value, option] of shown) if (!offered.some((choice) => choice.value === value)) option.remove();
  let after = [...chooser.options].filter((option) => !option.dataset.board).pop();
  for (const choice of offered) {
    let option = shown.get(choice.value);
    if (!option) {
      option = new Option(choice.text, choice.value);
      option.dataset.board = "yes";
    } else if (option.textContent !== choice.text) {
      option.textContent = choice.text;
    }
    if (after.nextElementSibling !== option) after.after(option);
    after = option;
  }
  chooser.value = state.opponent;
}

// The headline as the turn line says it; "" for a name of a later board.
function headlineText(headline, state) {
  switch (headline) {
    case "x-to-move": return sentence(`${nameOf("X", state)} to move.`);
    case "o-to-move": return sentence(`${nameOf("O", state)} to move.`);
    case "o-thinking": return sentence(`${nameOf("O", state)} is thinking…`);
    case "x-wins": return sentence(`${nameOf("X", state)} wins.`);
    case "o-wins": return sentence(`${nameOf("O", state)} wins.`);
    case "draw": return "A draw.";
    case "asleep": return "The lights are asleep: press any cell to wake them.";
    case "choosing-opponent": {
      const board = otherBoard(state.opponent);
      if (board) return `The board ${board.name} plays ${board.mark} now.`;
      return `O is now played by ${opponentWords(state.opponent)}.`;
    }
    case "unreachable": return "The board cannot be reached.";
    case "waiting-for-x": return `Waiting for ${nameOf("X", state)}: it is not heard.`;
    case "waiting-for-o": return `Waiting for ${nameOf("O", state)}: it is not heard.`;
    default: return "";
  }
}

// Adds to the log, in order: a screen reader says each addition once. The oldest items go to
// make room, but never one added in the same turn: removed before it was said, it is never said.
function say(...texts) {
  const log = $("said");
  while (log.childElementCount > 0 && log.childElementCount + texts.length > saidKept) log.firstElementChild.remove();
  for (const text of texts) {
    const item = document.createElement("p");
    item.textContent = text;
    log.append(item);
  }
}

function connected() {
  return page.socket !== null && page.socket.readyState === WebSocket.OPEN;
}

function send(message) {
  if (connected()) page.socket.send(JSON.stringify(message));
}

// Sends a command of the person's (a tap, New game, who plays O), or says why it cannot go:
// nothing a person does vanishes without a word. A board out of reach answers for itself
// (the web view refuses with "board-unreachable").
function sendChange(message) {
  if (!connected()) say(notSent.closed);
  else if (!page.play) say(notSent.watching);
  else send(message);
  return connected() && page.play;
}

function press(cell) {
  sendChange({ command: "press", cell });
}

// Whether a game has moves that a new game, or another opponent, would give up.
function gameInProgress() {
  return page.state !== null && page.state.outcome === "playing" && page.state.cells.some((mark) => mark !== "");
}

function newGame() {
  if (page.play && connected() && gameInProgress()) $("abandon").showModal();
  else sendChange({ command: "new-game" });
}

// Who plays O, chosen: mid-game the page asks first, as New game does; "keep playing" puts the
// chooser back to the opponent of the game.
function chooseOpponent(event) {
  const chosen = event.target.value;
  if (page.play && connected() && gameInProgress()) {
    page.opponentAsked = chosen;
    $("change-who").textContent = opponentWords(chosen);
    $("change-opponent").showModal();
  } else if (!sendChange({ command: "opponent", opponent: chosen }) && page.state) {
    event.target.value = page.state.opponent;
  }
}

// The headline drawn: the turn line says it, board.css draws it from `data-headline`.
function showHeadline(headline, state) {
  $("view").dataset.headline = headline;
  const text = headlineText(headline, state);
  $("turn").textContent = text;
  document.title = text ? `${text.replace(/[.…]$/, "")} — ${pageTitle}` : pageTitle;
}

function drawState(state, previous) {
  // For docs/BENCHMARKS.md: page load to the first board drawn, and each move drawn.
  if (!previous) performance.mark("board-drawn");
  // The invitations there when the page opens are listed, not news.
  if (!previous) for (const seen of state.boardsSeen || []) if (seen.invites) page.invitationsSaid.add(seen.board);
  const looks = state.looks || [];
  state.cells.forEach((mark, index) => {
    const number = keypadOrder[index];
    const cell = cells.find((button) => Number(button.dataset.cell) === number);
    const look = looks[index] || "empty";
    cell.dataset.look = look;
    cell.setAttribute("aria-label", `${places[number]}, ${entry(lookWords, look) || look}`);
    cell.setAttribute("aria-disabled", String(!page.play));
  });
  showHeadline(state.headline, state);
  if (page.opponentAsked === null) showOpponent(state);
  drawScores(state);
  drawLearner(state);
  if (previous) {
    // A new game's log starts afresh: the last game's moves do not stay over an empty board.
    if (startsNewGame(state, previous)) $("said").replaceChildren();
    say(...happenings(state, previous));
    // A question about the game in progress is moot once that game is over or another began
    // (from another page, say): its yes would give up a game it never asked about.
    if (startsNewGame(state, previous) || state.outcome !== "playing") {
      for (const id of ["abandon", "change-opponent"]) {
        if ($(id).open) {
          $(id).close();
          say("The game changed meanwhile, so nothing was given up.");
        }
      }
    }
    // A question about the learner is moot once it changed: its yes would reset another learner.
    if (page.resetAsked !== null && (!state.learner || state.learner.games !== page.resetAsked.games
        || (state.learner.resets ?? null) !== page.resetAsked.resets)) {
      page.resetAsked = null;
      for (const id of ["reset-first", "reset-second"]) if ($(id).open) $(id).close();
      say(reasonWords["learner-changed"]);
    }
  }
  if (state.outcome !== "playing" && (!previous || previous.outcome === "playing")) send({ command: "history" });
}

// Whether `state` is another game than `previous`'s: marks never leave a game, a finished game
// is never played on, and each new game has the other starter.
function startsNewGame(state, previous) {
  if (previous.outcome !== "playing" && state.outcome === "playing") return true;
  if (previous.cells.some((mark, index) => mark !== "" && state.cells[index] !== mark)) return true;
  return state.starter !== previous.starter;
}

// What happened between two states, each once and in order, for the log: a game given up, a new
// opponent, a new game, the moves (the mover's first, should two arrive at once) and how it ended.
function happenings(state, previous) {
  const said = [];
  const fresh = startsNewGame(state, previous);
  const before = fresh ? state.cells.map(() => "") : previous.cells;
  if (fresh && previous.outcome === "playing" && previous.cells.some((mark) => mark !== "")) said.push("The game was given up.");
  const choosing = state.headline === "choosing-opponent";
  if (state.opponent !== previous.opponent || (choosing && (previous.headline !== "choosing-opponent" || fresh))) {
    said.push(headlineText("choosing-opponent", state));
  }
  // Each board's invitation said once, until this board chooses that board (as the board itself
  // tells it): one that comes and goes (a link that drops, a board flapping on purpose) is not
  // said again and again.
  const chosen = otherBoard(state.opponent);
  if (chosen && state.opponent !== previous.opponent) page.invitationsSaid.delete(chosen.name);
  for (const seen of state.boardsSeen || []) {
    if (seen.invites && !page.invitationsSaid.has(seen.board) && state.opponent !== `board:${seen.board}:x` && otherBoard(`board:${seen.board}`)) {
      page.invitationsSaid.add(seen.board);
      said.push(`The board ${seen.board} invites this board to a game${page.play ? ': choose it under "Who plays O" to join' : ""}.`);
    }
  }
  if (fresh) said.push("A new game.");
  if (state.learner && previous.learner && previous.learner.games > 0 && state.learner.games === 0) {
    said.push("The learner was reset: it starts again with fresh matchboxes.");
  }
  // A lesson begun, and its end, each said once (its steps only move the bar).
  if (lessonUnderWay(state.lesson) && !lessonUnderWay(previous.lesson)) said.push(lessonWords(state.lesson));
  if (state.lesson && state.lesson.end && lessonUnderWay(previous.lesson)) said.push(lessonWords(state.lesson));
  const first = fresh ? state.starter : previous.turn;
  for (const mover of first === "O" ? ["O", "X"] : ["X", "O"]) {
    state.cells.forEach((mark, index) => {
      if (mark === mover && before[index] === "") said.push(sentence(`${nameOf(mark, state)} took cell ${keypadOrder[index]}.`));
    });
  }
  if (state.outcome !== "playing" && (fresh || previous.outcome === "playing")) {
    said.push(headlineText(state.outcome, state)); // "x-wins", "o-wins", "draw": the headlines' names
  }
  return said;
}

// The score of every pairing; X's column and a second player's row by the players' names.
function drawScores(state) {
  const names = state.names || {};
  $("x-wins").textContent = names.x ? `${names.x} (X) wins` : "X wins";
  const body = $("scores").tBodies[0];
  body.replaceChildren();
  for (const [opponent, score] of Object.entries(state.scores || {})) {
    const row = body.insertRow();
    row.className = opponent === state.opponent ? "current" : "";
    const who = opponent === "two-players" && names.o ? names.o : entry(opponents, opponent) || opponent;
    for (const text of [who, score.xWins, score.oWins, score.draws]) row.insertCell().textContent = String(text);
  }
}

// The learner's panel (issue 41): shown while it plays O, or once it has played. Its record in
// words, its box while it is to move (a number of beads in each free cell: how likely it is to
// play there), and its results per ten games as a plot.
const learnerBoxes = 593; // every position it can face, up to the board's symmetries (docs/PLAYING.md)
function drawLearner(state) {
  const learner = state.learner;
  $("learner").hidden = !learner || (state.opponent !== "learner" && learner.games === 0 && !state.lesson);
  if (!learner) return;
  drawLesson(state.lesson);
  const games = learner.games === 1 ? "1 game" : `${learner.games} games`;
  $("learner-record").textContent = `${sentence(games)} since it was last reset: won ${learner.won}, drew ${learner.drew}, lost ${learner.lost}. `
    + latestWords(learner) + `Matchboxes opened: ${learner.boxes} of ${learnerBoxes}.`;
  $("reset-games").textContent = games;
  drawLearnerBox(state);
  drawRecord(learner);
}

// A lesson (the board's `teach`): while under way, its progress as a bar and in words, with a
// button that stops it; once ended, how it went, in words.
const levelNames = { 1: "computer 1", 2: "computer 2", 3: "computer 3", 4: "computer 4" };
function lessonWords(lesson) {
  const against = levelNames[lesson.level] || `level ${lesson.level}`;
  const results = `won ${lesson.won}, drew ${lesson.drew}, lost ${lesson.lost}`;
  const taught = `${lesson.played} ${lesson.played === 1 ? "game" : "games"} against ${against} (${results})`;
  switch (lesson.end) {
    case null: case undefined: return `Lesson under way: ${lesson.played} of ${lesson.games} games against ${against} so far (${results}).`;
    case "finished": return `Taught the learner ${taught}.`;
    case "stopped": return `The lesson was stopped: taught the learner ${taught} of the ${lesson.games} asked for. It keeps what it learnt.`;
    case "interrupted": return `The lesson gave way to a game against the learner, or a reset, after ${taught} of the ${lesson.games} asked for. It keeps what it learnt.`;
    default: return `The lesson ended after ${taught}.`;
  }
}

function lessonUnderWay(lesson) {
  return !!lesson && (lesson.end === null || lesson.end === undefined);
}

function drawLesson(lesson) {
  const under = lessonUnderWay(lesson);
  $("lesson-words").textContent = lesson ? lessonWords(lesson) : "";
  $("lesson-progress").hidden = !under;
  $("lesson-stop").hidden = !under;
  $("learner-teach").hidden = under;
  if (under) {
    $("lesson-progress").max = Math.max(lesson.games, 1);
    $("lesson-progress").value = lesson.played;
  }
}

function askTeach() {
  if (!connected()) say(notSent.closed);
  else if (!page.play) say(notSent.watching);
  else $("teach").showModal();
}

// How it plays now: its latest games (about a hundred, the board's `latest`), where its record
// since the reset is mostly what it did while it knew little.
function latestWords(learner) {
  const latest = learner.latest;
  if (!latest || learner.games === 0) return "";
  const games = latest[0] + latest[1] + latest[2];
  return `Of its latest ${games === 1 ? "game" : `${games} games`}, it lost ${latest[2]} (${Math.round(100 * latest[2] / games)}%). `;
}

function drawLearnerBox(state) {
  const box = state.learner.box;
  for (const cell of $("learner-box").querySelectorAll("td")) {
    const index = keypadOrder.indexOf(Number(cell.dataset.cell));
    const mark = state.cells[index];
    cell.className = box && mark === "" ? "beads" : "taken";
    cell.textContent = !box ? "" : mark !== "" ? `taken (${mark})` : String(box[index]);
    if (box && mark === "") cell.dataset.beads = String(box[index]);
    else delete cell.dataset.beads;
  }
  $("learner-box").hidden = !box;
  $("learner-box-about").textContent = box
    ? "The beads behind each free cell: the learner draws one at random to choose its move, so more beads, more likely."
    : "Its box for the board shows here while it is the learner's turn.";
}

// The plot: three lines over the tens of games, won solid, drew dashed, lost dotted (board.css),
// each point a ten's count of 0 to 10; its data attributes carry the numbers drawn.
const plot = { width: 300, height: 130, left: 22, right: 8, top: 8, bottom: 22 };
const svgNamespace = "http://www.w3.org/2000/svg";
function svg(name, attributes, text) {
  const element = document.createElementNS(svgNamespace, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

function drawRecord(learner) {
  const tens = learner.tens || [];
  const holder = $("learner-plot");
  const first = Math.floor((learner.games + 9) / 10) - tens.length + 1;
  const chart = svg("svg", { viewBox: `0 0 ${plot.width} ${plot.height}`, role: "img", "aria-labelledby": "learner-plot-title learner-plot-words", class: "plot" });
  // The latest ten may be under way: it is drawn as a rate (results per ten games), so that its
  // point does not dive for want of games, and its words say how many it has had.
  const inLast = learner.games % 10 || 10;
  const per = (ten, index) => (index === tens.length - 1 ? 10 / inLast : 1);
  chart.append(svg("desc", { id: "learner-plot-words" }, recordWords(tens, first, inLast, learner.tens === undefined || learner.tens === null) + (tens.length > 0 ? " " + latestWords(learner) : "")));
  const inner = { x: plot.left, y: plot.top, w: plot.width - plot.left - plot.right, h: plot.height - plot.top - plot.bottom };
  const y = (count) => inner.y + inner.h * (1 - count / 10);
  const x = (index) => inner.x + (tens.length > 1 ? inner.w * index / (tens.length - 1) : inner.w / 2);
  for (const count of [0, 5, 10]) {
    chart.append(svg("line", { class: "grid", x1: inner.x, x2: inner.x + inner.w, y1: y(count), y2: y(count) }));
    chart.append(svg("text", { class: "axis", x: inner.x - 4, y: y(count) + 4, "text-anchor": "end" }, String(count)));
  }
  if (tens.length > 0) {
    const last = first + tens.length - 1;
    chart.append(svg("text", { class: "axis", x: inner.x, y: plot.height - 6, "text-anchor": "start" }, `games ${first * 10 - 9}–${Math.min(first * 10, learner.games)}`));
    if (tens.length > 1) chart.append(svg("text", { class: "axis", x: inner.x + inner.w, y: plot.height - 6, "text-anchor": "end" }, `${last * 10 - 9}–${learner.games}`));
  }
  // Its loss rate over its latest hundred games (the rate the benchmark reads, docs/BENCHMARKS.md)
  // at each ten, in losses per ten games: from the tenth ten shown on, or from the first ten.
  const rate = latestRates(tens, first, inLast);
  if (rate.length > 0) {
    const points = rate.map(({ index, perTen }) => `${x(index).toFixed(2)},${y(perTen).toFixed(2)}`).join(" ");
    chart.append(svg("polyline", { class: "lost-latest", points, "data-result": "lost-latest", "data-rates": rate.map(({ perTen }) => perTen.toFixed(2)).join(" ") }));
  }
  ["won", "drew", "lost"].forEach((result, which) => {
    const points = tens.map((ten, index) => `${x(index).toFixed(2)},${y(ten[which] * per(ten, index)).toFixed(2)}`).join(" ");
    const line = svg("polyline", { class: result, points, "data-result": result, "data-counts": tens.map((ten) => ten[which]).join(" ") });
    chart.append(line);
    if (tens.length <= 30) tens.forEach((ten, index) => chart.append(svg("circle", { class: result, cx: x(index), cy: y(ten[which] * per(ten, index)), r: 2.5 })));
  });
  chart.dataset.first = String(first);
  holder.replaceChildren(chart);
}

// The board's `latest` window (LearnerRecord.latestTens): the browser test holds the plot's last
// point to the board's own figure.
const latestTens = 10;
function latestRates(tens, first, inLast) {
  const rates = [];
  tens.forEach((ten, index) => {
    const from = index - latestTens + 1;
    if (from < 0 && first > 1) return; // its window began before the tens shown
    const window = tens.slice(Math.max(from, 0), index + 1);
    const games = window.length * 10 - (index === tens.length - 1 ? 10 - inLast : 0);
    rates.push({ index, perTen: 10 * window.reduce((sum, t) => sum + t[2], 0) / games });
  });
  return rates;
}

// The plot in words, for a screen reader: the tens it shows, the first and the latest.
function recordWords(tens, first, inLast, unsent) {
  if (unsent) return "This board does not send the learner's record.";
  if (tens.length === 0) return "No games yet.";
  const one = (ten) => `won ${ten[0]}, drew ${ten[1]}, lost ${ten[2]}`;
  const sofar = inLast < 10 ? `, ${inLast} ${inLast === 1 ? "game" : "games"} so far` : "";
  const latest = `In the latest ten (ten ${first + tens.length - 1}${sofar}): ${one(tens[tens.length - 1])}.`;
  if (tens.length === 1) return latest;
  return `Tens ${first} to ${first + tens.length - 1}. In ten ${first}: ${one(tens[0])}. ${latest}`;
}

// The learner's reset, asked twice; each question can say no, and a yes acts only on the learner
// asked about (the board refuses a reset asked for at another count of games or of resets).
function askReset() {
  if (!connected() || !page.play || !page.state || !page.state.learner) {
    // Says why it cannot go, without sending: a reset is only ever sent after both questions.
    if (!connected()) say(notSent.closed);
    else if (!page.play) say(notSent.watching);
    else say("The board has not said how its learner stands yet: try again in a moment.");
    return;
  }
  page.resetAsked = { games: page.state.learner.games, resets: page.state.learner.resets ?? null };
  $("reset-first").showModal();
}

// One finished game, in words, by the players' names where the board has them: "Ada beat the
// computer (level 4), 7 moves, 09:12", "Bob won, 9 moves, 09:20".
function describeGame(game) {
  const computer = game.opponent === "learner" ? "the learner"
    : game.opponent.startsWith("computer-") ? `the computer (level ${game.opponent.slice("computer-".length)})` : null;
  const names = game.names || {};
  const x = names.x || "X";
  const o = names.o || "O";
  let outcome;
  if (game.outcome === "draw") outcome = computer ? `A draw with ${computer}` : "A draw";
  else if (game.outcome === "x-wins") outcome = computer ? `${x} beat ${computer}` : `${x} won`;
  else outcome = computer ? sentence(`${computer} won`) : `${o} won`;
  const when = new Date(game.finished).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return `${outcome}, ${game.moves.length} moves, ${when}`;
}

function drawHistory(games) {
  const list = $("history");
  list.replaceChildren();
  for (const game of games.slice(-5).reverse()) {
    const item = document.createElement("li");
    item.textContent = describeGame(game);
    list.append(item);
  }
}

// A line saying the board or the web view cannot be reached, and the headline that says so
// (the one the page gives itself, so the turn line never asks for a tap the board cannot take);
// the board's next state draws its own again.
function showLink(text) {
  const link = $("link");
  link.hidden = !text;
  link.textContent = text || "";
  if (text) showHeadline("unreachable", page.state || {});
}

// The recent games, asked for once a connection (or the board's return) brings the board's
// state: a page that joins mid-session shows them at once, not after the next game.
function askHistory() {
  if (page.historyAsked) return;
  page.historyAsked = true;
  send({ command: "history" });
}

// The boards view: every board the board's network link hears on the broker, by name, as the
// web view sends them while the view is open (docs/NETWORK.md, "Every board at once"). Each
// board's line is kept and changed in place, so a reader's place in the list stays.
function boardPresence(board) {
  if (board.online === true) return "online";
  if (board.online === false) return "offline";
  return "presence not heard";
}

// The marks as a person reads them: "X top left, centre; O top right", or "no marks".
function marksWords(cellsShown) {
  const at = (mark) => keypadOrder.filter((_, index) => cellsShown[index] === mark).map((number) => places[number]);
  const words = ["X", "O"].filter((mark) => at(mark).length).map((mark) => `${mark} ${at(mark).join(", ")}`);
  return words.length ? words.join("; ") : "no marks";
}

function boardGameWords(board) {
  if (!board.cells) return "no game heard yet";
  const said = { "x-wins": "X won", "o-wins": "O won", "draw": "a draw" }[board.outcome] || `${board.turn} to move`;
  const other = otherBoard(board.opponent);
  const against = other ? `against the board ${other.name} (it plays ${other.mark})` : `O is ${entry(opponents, board.opponent) || board.opponent}`;
  const score = board.score ? `; score X ${board.score.xWins}, O ${board.score.oWins}, draws ${board.score.draws}` : "";
  return `${said}, ${against}${score}`;
}

function drawBoardsList(list) {
  const shown = list.boards.length;
  const online = list.boards.filter((board) => board.online === true).length;
  let said = list.connected
    ? `${shown} board${shown === 1 ? "" : "s"} on ${list.broker}, ${online} online.`
    : `The board's network link is not connected to ${list.broker} just now: no board is heard until it is back.`;
  if (list.lost > 0) said += " Some messages were lost for want of room: the list may be out of date.";
  if (list.beyondLimit > 0) said += " More boards are on the broker than the list holds.";
  // A status a screen reader announces: only when it says something new.
  if ($("boards-said").textContent !== said) $("boards-said").textContent = said;
  const holder = $("boards-list");
  const kept = new Map([...holder.children].map((item) => [item.dataset.board, item]));
  for (const [name, item] of kept) if (!list.boards.some((board) => board.name === name)) item.remove();
  let after = null;
  for (const board of list.boards) {
    let item = kept.get(board.name);
    if (!item) {
      item = document.createElement("li");
      item.dataset.board = board.name;
      item.innerHTML = '<span class="mini" role="img"></span><span><span class="board-name"></span>, <span class="board-presence"></span><br><span class="board-game"></span></span>';
    }
    const cellsShown = board.cells || Array(9).fill("");
    const part = (name) => item.querySelector(`.${name}`);
    part("board-name").textContent = board.name;
    part("board-presence").textContent = boardPresence(board);
    part("mini").textContent = [0, 3, 6].map((row) => cellsShown.slice(row, row + 3).map((mark) => mark || "·").join("")).join("\n");
    part("mini").setAttribute("aria-label", marksWords(cellsShown));
    part("board-game").textContent = boardGameWords(board);
    item.classList.toggle("away", board.online !== true);
    if (after ? after.nextElementSibling !== item : holder.firstElementChild !== item) {
      if (after) after.after(item);
      else holder.prepend(item);
    }
    after = item;
  }
}

// Why the boards view has no list, by the web view's `reason`, in words for a person.
const boardsAwayWords = {
  "none": "This page does not show the boards on the network.",
  "no-link": "This board is not on a network of boards just now, so no other board is listed. Whoever set the board up can put it on one.",
};
const boardsAwayOtherwise = "The list of the boards on the network cannot be read just now. Whoever set the board up can look into it.";

function watchBoards() {
  send({ command: "boards", watch: $("boards-view").open });
}

function receive(message) {
  switch (message.type) {
    case "boards":
      if ($("boards-view").open) drawBoardsList(message);
      break;
    case "boards-unavailable": {
      const said = entry(boardsAwayWords, message.reason) || boardsAwayOtherwise;
      if ($("boards-said").textContent !== said) $("boards-said").textContent = said;
      $("boards-list").replaceChildren();
      break;
    }
    case "web":
      page.play = message.play;
      $("controls").hidden = !message.play;
      $("learner-reset").hidden = !message.play;
      if (!message.reachable) page.historyAsked = false;
      showLink(message.reachable ? "" : entry(awayWords, message.reason) || awayOtherwise);
      if (message.reachable && page.state) showHeadline(page.state.headline, page.state);
      break;
    case "state": {
      const previous = page.state;
      page.state = message.state;
      drawState(message.state, previous);
      askHistory();
      break;
    }
    case "history":
      drawHistory(message.games || []);
      break;
    case "error":
      if (message.command === "boards") {
        // The page's own question too: asked again a second later, as the view then is.
        if (message.reason === "too-many-commands") setTimeout(watchBoards, 1000);
        break;
      }
      if (message.command === "history") {
        // The page's own question, not a person's: nothing to say; asked again when the page
        // (or the board) had more than it takes just then.
        if (message.reason === "too-many-commands" || message.reason === "busy") setTimeout(() => send({ command: "history" }), 1000);
        break;
      }
      say(entry(reasonWords, message.reason) || otherRefusal);
      break;
    case "pong":
      page.pongDue = null;
      break;
    default:
      break; // hello, ok and types of later versions: nothing to draw
  }
}

function connect() {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  page.socket = socket;
  socket.addEventListener("open", () => {
    page.retry = 1000;
    page.historyAsked = false;
    showLink("");
    if ($("boards-view").open) watchBoards();
    page.pingTimer = setInterval(() => {
      if (page.pongDue && Date.now() > page.pongDue) return socket.close();
      page.pongDue = page.pongDue || Date.now() + 10000;
      send({ command: "ping" });
    }, 20000);
  });
  socket.addEventListener("message", (event) => {
    try {
      receive(JSON.parse(event.data));
    } catch (error) {
      console.error("tictactoe: an unreadable message", error);
    }
  });
  socket.addEventListener("close", () => {
    clearInterval(page.pingTimer);
    page.pongDue = null;
    showLink(pageAway);
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 8000);
  });
}

// The board as one stop of the Tab key: the cell last focused is the one Tab reaches (roving
// tabindex), and the arrow keys, Home and End (Ctrl with them: the whole board) move between the
// cells as in any grid; Enter and Space press the focused cell, as a button's keys do. The cell
// `key` moves to from the cell at `at` (in reading order), or null for a key that does not move.
function cellAfterKey(key, at, ctrl) {
  const row = Math.floor(at / 3), column = at % 3;
  switch (key) {
    case "ArrowLeft": return row * 3 + Math.max(column - 1, 0);
    case "ArrowRight": return row * 3 + Math.min(column + 1, 2);
    case "ArrowUp": return Math.max(row - 1, 0) * 3 + column;
    case "ArrowDown": return Math.min(row + 1, 2) * 3 + column;
    case "Home": return ctrl ? 0 : row * 3;
    case "End": return ctrl ? 8 : row * 3 + 2;
    default: return null;
  }
}

$("board").addEventListener("keydown", (event) => {
  const at = cells.indexOf(event.target);
  if (at < 0 || event.altKey || event.metaKey) return;
  const next = cellAfterKey(event.key, at, event.ctrlKey);
  if (next === null) return;
  event.preventDefault();
  cells[next].focus();
});
$("board").addEventListener("focusin", (event) => {
  if (!cells.includes(event.target) || event.target.tabIndex === 0) return;
  for (const cell of cells) cell.tabIndex = cell === event.target ? 0 : -1;
});
// Named by place until the board's first state names each look too.
cells.forEach((cell) => cell.setAttribute("aria-label", places[Number(cell.dataset.cell)]));

// A dialog gives focus back to what had it before it opened, whichever dialog and however it
// closes (a button, Escape): `close` does not bubble, so it is caught on its way down.
let focusBeforeDialog = null;
document.addEventListener("focusin", (event) => {
  if (!event.target.closest("dialog")) focusBeforeDialog = event.target;
});
// Tab and Shift+Tab go round the open dialog's controls: out of its last, into its first (a modal
// dialog leaves the page inert, but the browser would let the focus go to its own toolbar).
document.addEventListener("keydown", (event) => {
  const dialog = document.querySelector("dialog[open]");
  if (event.key !== "Tab" || !dialog) return;
  const controls = [...dialog.querySelectorAll("button, select, input, [tabindex]:not([tabindex='-1'])")].filter((item) => !item.disabled);
  if (controls.length === 0) return;
  const [first, last] = [controls[0], controls[controls.length - 1]];
  const inside = dialog.contains(document.activeElement);
  if (event.shiftKey && (!inside || document.activeElement === first)) {
    last.focus();
    event.preventDefault();
  } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
    first.focus();
    event.preventDefault();
  }
});
document.addEventListener("close", (event) => {
  if (event.target instanceof HTMLDialogElement && focusBeforeDialog && focusBeforeDialog.isConnected) focusBeforeDialog.focus();
}, true);

cells.forEach((cell) => cell.addEventListener("click", () => press(Number(cell.dataset.cell))));
$("new-game").addEventListener("click", newGame);
$("opponent").addEventListener("change", chooseOpponent);
$("abandon-yes").addEventListener("click", () => {
  $("abandon").close();
  sendChange({ command: "abandon" });
});
$("abandon-no").addEventListener("click", () => $("abandon").close());
$("change-yes").addEventListener("click", () => {
  const chosen = page.opponentAsked;
  page.opponentAsked = null;
  $("change-opponent").close();
  if (chosen !== null) sendChange({ command: "opponent", opponent: chosen });
});
// However the question closes without a yes (the button, Escape), the chooser shows the game's.
function keepOpponent() {
  if (page.opponentAsked !== null && page.state) showOpponent(page.state);
  page.opponentAsked = null;
}
$("change-no").addEventListener("click", () => {
  keepOpponent();
  $("change-opponent").close();
});
$("change-opponent").addEventListener("close", keepOpponent);
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || document.querySelector("dialog[open]")) return;
  if (event.target instanceof HTMLSelectElement) return;
  if (/^[1-9]$/.test(event.key)) {
    press(Number(event.key));
    event.preventDefault();
  } else if (event.key === "n") {
    newGame();
  }
});
$("boards-view").addEventListener("toggle", watchBoards);
$("learner-reset").addEventListener("click", askReset);
$("learner-teach").addEventListener("click", askTeach);
$("teach-yes").addEventListener("click", () => {
  $("teach").close();
  sendChange({ command: "teach", games: Number($("teach-games").value), level: Number($("teach-level").value) });
});
$("teach-no").addEventListener("click", () => $("teach").close());
$("lesson-stop").addEventListener("click", () => sendChange({ command: "stop-teaching" }));
$("reset-first-yes").addEventListener("click", () => {
  $("reset-first").close();
  if (page.resetAsked !== null) $("reset-second").showModal();
});
$("reset-second-yes").addEventListener("click", () => {
  const asked = page.resetAsked;
  page.resetAsked = null;
  $("reset-second").close();
  // Both counts: the games alone would take a learner reset and played as far meanwhile for it.
  if (asked !== null) sendChange({ command: "reset-learner", games: asked.games, ...(asked.resets === null ? {} : { resets: asked.resets }) });
});
for (const id of ["reset-first-no", "reset-second-no"]) $(id).addEventListener("click", () => $(id).closest("dialog").close());
// However a question closes without going on (a no, Escape), nothing stays asked.
// (The first's close comes after its yes opened the second.)
$("reset-first").addEventListener("close", () => {
  if (!$("reset-second").open) page.resetAsked = null;
});
$("reset-second").addEventListener("close", () => {
  page.resetAsked = null;
});
// Sharing the page (issue 40): the address this page was opened by, the one its QR code carries.
$("share-address").textContent = location.origin + "/";
$("share-code").alt = "QR code of this page's address, " + location.origin + "/";
connect();
