// The board's page: draws the view state the board sends (docs/API.md) and sends commands.
// It holds no rules: whatever it shows, the board said; whatever it sends, the board judges.
"use strict";

const keypadOrder = [7, 8, 9, 4, 5, 6, 1, 2, 3]; // the view state's cells are in reading order
const opponents = { "two-players": "a second player", "computer-1": "computer 1", "computer-2": "computer 2", "computer-3": "computer 3", "computer-4": "computer 4" };

const page = {
  socket: null,
  play: false,
  state: null,
  retry: 1000,
  pingTimer: null,
  pongDue: null,
};

const $ = (id) => document.getElementById(id);
const cells = [...document.querySelectorAll(".cell")];

function nameOf(mark, state) {
  const names = state.names || {};
  if (mark === "X") return names.x ? `${names.x} (X)` : "X";
  if (state.opponent !== "two-players") return `the computer (O)`;
  return names.o ? `${names.o} (O)` : "O";
}

// "the computer (O) wins" at the start of a sentence.
function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function say(text) {
  $("said").textContent = text;
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
}

function press(cell) {
  if (page.play) send({ command: "press", cell });
}

function newGame() {
  if (!page.play || !page.state) return;
  const inProgress = page.state.outcome === "playing" && page.state.cells.some((mark) => mark !== "");
  if (inProgress) $("abandon").showModal();
  else send({ command: "new-game" });
}

function drawState(state, previous) {
  // For docs/BENCHMARKS.md: page load to the first board drawn, and each move drawn.
  if (!previous) performance.mark("board-drawn");
  const lines = new Set((state.winningLines || []).flat());
  const board = $("board");
  board.classList.toggle("asleep", state.asleep);
  state.cells.forEach((mark, index) => {
    const cell = cells.find((button) => Number(button.dataset.cell) === keypadOrder[index]);
    const number = keypadOrder[index];
    cell.classList.toggle("x", mark === "X");
    cell.classList.toggle("o", mark === "O");
    cell.classList.toggle("flashing", state.flashing === number);
    cell.classList.toggle("winning", lines.has(number));
    const holder = mark === "" ? "free" : nameOf(mark, state);
    cell.setAttribute("aria-label", `cell ${number}, ${holder}${lines.has(number) ? ", winning line" : ""}`);
    cell.setAttribute("aria-disabled", String(!page.play));
  });
  let turn;
  if (state.asleep) turn = "The board is asleep: press any cell to wake it.";
  else if (state.outcome === "playing") turn = state.thinking ? "The computer (O) is thinking…" : `${nameOf(state.turn, state)} to move.`;
  else if (state.outcome === "draw") turn = "A draw.";
  else turn = sentence(`${nameOf(state.outcome === "x-wins" ? "X" : "O", state)} wins!`);
  $("turn").textContent = turn;
  $("opponent").value = state.opponent;
  drawScores(state);
  if (previous) announce(state, previous);
  if (state.outcome !== "playing" && (!previous || previous.outcome === "playing")) send({ command: "history" });
}

// Moves and endings, said in the live region for a screen reader.
function announce(state, previous) {
  state.cells.forEach((mark, index) => {
    if (mark !== "" && previous.cells[index] === "") say(sentence(`${nameOf(mark, state)} took cell ${keypadOrder[index]}.`));
  });
  if (state.outcome !== previous.outcome && state.outcome !== "playing") say($("turn").textContent);
  if (state.outcome === "playing" && previous.outcome !== "playing") say("A new game.");
}

function drawScores(state) {
  const body = $("scores").tBodies[0];
  body.replaceChildren();
  for (const [opponent, score] of Object.entries(state.scores || {})) {
    const row = body.insertRow();
    row.className = opponent === state.opponent ? "current" : "";
    for (const text of [opponents[opponent] || opponent, score.xWins, score.oWins, score.draws]) row.insertCell().textContent = String(text);
  }
}

// One finished game, in words: "X beat the computer (level 4), 7 moves, 09:12".
function describeGame(game) {
  const computer = game.opponent.startsWith("computer-") ? `the computer (level ${game.opponent.slice("computer-".length)})` : null;
  let outcome;
  if (game.outcome === "draw") outcome = computer ? `A draw with ${computer}` : "A draw";
  else if (game.outcome === "x-wins") outcome = computer ? `X beat ${computer}` : "X won";
  else outcome = computer ? sentence(`${computer} won`) : "O won";
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

function showLink(text) {
  const link = $("link");
  link.hidden = !text;
  link.textContent = text || "";
  $("board").classList.toggle("stale", Boolean(text));
}

function receive(message) {
  switch (message.type) {
    case "web":
      page.play = message.play;
      $("controls").hidden = !message.play;
      showLink(message.reachable ? "" : `The board cannot be reached (${message.text}). Trying again…`);
      break;
    case "state": {
      const previous = page.state;
      page.state = message.state;
      drawState(message.state, previous);
      break;
    }
    case "history":
      drawHistory(message.games || []);
      break;
    case "error":
      say(message.text);
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
    showLink("");
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
    showLink("The connection to the board's web view was lost. Reconnecting…");
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 8000);
  });
}

cells.forEach((cell) => cell.addEventListener("click", () => press(Number(cell.dataset.cell))));
$("new-game").addEventListener("click", newGame);
$("opponent").addEventListener("change", (event) => send({ command: "opponent", opponent: event.target.value }));
$("abandon-yes").addEventListener("click", () => {
  $("abandon").close();
  send({ command: "abandon" });
});
$("abandon-no").addEventListener("click", () => $("abandon").close());
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || $("abandon").open) return;
  if (event.target instanceof HTMLSelectElement) return;
  if (/^[1-9]$/.test(event.key)) {
    press(Number(event.key));
    event.preventDefault();
  } else if (event.key === "n") {
    newGame();
  }
});
connect();
