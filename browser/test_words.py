"""The page in people's words (issue 40): every refusal the board and the web view can send,
provoked for real on the simulated board, is said on the page as a sentence of the page's own,
with no command, option, path or service name; the board and the web view going away and coming
back are said in words, and the banner clears; a tap that cannot be sent says so; changing who
plays O mid-game asks first; a page that joins late shows the recent games, by the players' names.

Refusals a person can cause are caused through the page (a click); the rest through the page's
own WebSocket, as a raw client of the web view (a script on the page sending what the page never
would), so that each answer still lands on the page and is said there. Run by
`make browser-test`."""

import json
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import time

import pytest

from served import BIN, ROOT, Board, Client, Web, wait

KEYPAD_ORDER = [7, 8, 9, 4, 5, 6, 1, 2, 3]


def client_commands():
    """The protocol's command names, as docs/API.md's "What a client sends" writes them."""
    api = (ROOT / "docs" / "API.md").read_text()
    block = api.split("### What a client sends", 1)[1].split("```")[1]
    return sorted(set(re.findall(r'"command":"([a-z-]+)"', block)) | {"ping"})


COMMANDS = client_commands()
# What belongs in the terminal and the journal, never on the page.
TERMINAL_WORDS = ["--", "/", ".service", "systemctl", "tictactoe"]


def terminal_words(text):
    """The command names (as whole words) and terminal tokens in `text`."""
    found = [word for word in COMMANDS if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE)]
    return found + [token for token in TERMINAL_WORDS if token in text.lower()]


def visible_text(page):
    """What the page says, but for the share section: its address is there on purpose, to be
    typed on another phone (test_share.py checks it)."""
    share = page.evaluate("document.querySelector('.share') ? document.querySelector('.share').innerText : ''")
    text = page.evaluate("document.body.innerText")
    assert share and share in text, "the share section moved: say here what it shows"
    return text.replace(share, "")


def assert_in_words(page, what):
    """Nothing on the page, as a person sees it, speaks the command line."""
    text = visible_text(page)
    assert not terminal_words(text), f"{what}: the page shows {terminal_words(text)}: {text!r}"


def said(page):
    return page.evaluate("[...document.getElementById('said').children].map((item) => item.textContent)")


def banner(page):
    return page.evaluate("(() => { const link = document.getElementById('link'); return link.hidden ? '' : link.textContent; })()")


def turn(page):
    return page.evaluate("document.getElementById('turn').textContent")


# Records the reason of every error the page's socket receives (the page's own socket: a new one
# after a reconnection needs it again).
WATCH_ERRORS = """(() => { window.reasons = window.reasons || [];
  if (page.socket.watched) return true;
  page.socket.watched = true;
  page.socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error") window.reasons.push(message.reason);
  });
  return true; })()"""


def raw(message):
    """JavaScript that sends `message` (text, or a list of texts) on the page's own socket."""
    texts = message if isinstance(message, list) else [message]
    return "(() => { for (const text of %s) page.socket.send(text); return true; })()" % json.dumps(texts)


# The page connected to the web view and drawn the board's state: a tap now is sent.
CONNECTED = "page.socket && page.socket.readyState === WebSocket.OPEN && page.state !== null"


class Refusals:
    """Provokes refusals on one page and checks each is said in the page's words."""

    def __init__(self, page):
        self.page = page
        self.last_sent = 0.0
        page.wait_for(CONNECTED)
        page.evaluate(WATCH_ERRORS)

    def calm(self):
        """The web view lets a page send 10 commands a second (wall-clock): one second since the
        last batch, so that no refusal but the one provoked comes back."""
        wait(lambda: time.monotonic() - self.last_sent >= 1.0, "a second since the last commands")

    def provoke(self, reason, cause):
        """`cause` (JavaScript, or a Python callable) makes the board or the web view refuse with
        `reason`; the page must say the page's own sentence for it, in words."""
        self.calm()
        before = self.page.evaluate("window.reasons.length")
        if callable(cause):
            cause()
        else:
            self.page.evaluate(cause)
        self.last_sent = time.monotonic()
        self.page.wait_for(f"window.reasons.slice({before}).includes({json.dumps(reason)})")
        sentence = self.page.evaluate(f"reasonWords[{json.dumps(reason)}]")
        assert sentence, f"the page has no words of its own for {reason}"
        wait(lambda: sentence in said(self.page)[-3:], f"the page to say {sentence!r} for {reason}; it says {said(self.page)}")
        assert not terminal_words(sentence), (reason, sentence)
        assert_in_words(self.page, reason)
        return sentence


@pytest.fixture
def folder():
    with tempfile.TemporaryDirectory(prefix="tictactoe-words.") as name:
        yield pathlib.Path(name)


def stopped(board, web):
    web.stop()
    if board.process.poll() is None:
        board.stop()


def press_js(cell):
    return raw(json.dumps({"command": "press", "cell": cell}))


def test_every_refusal_a_page_meets_is_said_in_its_own_words(browser, folder):
    board = Board(folder)
    web = Web(folder, board)
    try:
        page = browser.open(web.url)
        refusals = Refusals(page)
        # A person's own: a taken cell, clicked.
        page.click('.cell[data-cell="5"]')
        wait(lambda: board.status()["cells"][KEYPAD_ORDER.index(5)] == "X", "X at 5")
        refusals.provoke("cell-taken", lambda: page.click('.cell[data-cell="5"]'))
        # The rest, as a script on the page would send them.
        refusals.provoke("game-not-over", raw('{"command":"new-game"}'))
        refusals.provoke("unknown-opponent", raw('{"command":"opponent","opponent":"robot"}'))
        refusals.provoke("unknown-command", raw('{"command":"fly"}'))
        refusals.provoke("not-json", raw("press 5"))
        refusals.provoke("not-a-command", raw("[1,2]"))
        refusals.provoke("bad-argument", raw('{"command":"press","cell":0}'))
        # O 1, X 8, O 2, X 2?: X has 5; O 1, X 4, O 2, X 6 wins the middle row; then a press is late.
        refusals.calm()
        page.evaluate(raw([json.dumps({"command": "press", "cell": cell}) for cell in [1, 4, 2, 6]]))
        refusals.last_sent = time.monotonic()
        wait(lambda: board.status()["outcome"] == "x-wins", "X's win")
        refusals.provoke("game-over", lambda: page.click('.cell[data-cell="9"]'))
        # At most 8 of a page's commands wait for the board: the 9th is answered busy at once.
        with board.frozen():
            refusals.provoke("busy", raw([json.dumps({"command": "press", "cell": 9})] * 9))
        refusals.provoke("too-many-commands", raw(['{"command":"status"}'] * 12))
        # A line too long reaches no board from a page (the web view's server closes a page's socket
        # on a message over 1 KiB): the board's own reply to one, to a raw client of its socket,
        # is handed to the page as if relayed, and so is a reason of a later board.
        client = Client(board.socket)
        try:
            client.socket.sendall(b" " * 5000 + b"\n")
            reply = client.replies.get(timeout=30)
        finally:
            client.close()
        assert reply["reason"] == "too-long", reply
        for message, sentence in [(reply, "reasonWords['too-long']"), (
                {"type": "error", "reason": "on-fire", "text": "see systemctl status tictactoe.service, new-game --abandon"},
                "otherRefusal"), (
                # A name every object inherits is no reason the page knows either.
                {"type": "error", "reason": "constructor", "text": "--abandon"}, "otherRefusal")]:
            page.evaluate(f"receive({json.dumps(message)})")
            assert said(page)[-1] == page.evaluate(sentence), said(page)
            assert_in_words(page, message["reason"])
    finally:
        stopped(board, web)


def test_a_press_in_the_computers_turn_and_on_sleeping_lights_are_said_in_words(browser, folder):
    board = Board(folder, arguments=["--opponent", "computer-4", "--idle-sleep", "10"])
    web = Web(folder, board)
    try:
        page = browser.open(web.url)
        refusals = Refusals(page)
        state = wait(lambda: (lambda s: s if s["turn"] == "X" and not s["thinking"] else None)(board.status()), "X's turn")
        free = [cell for cell in [5, 1, 3, 7, 9] if state["cells"][KEYPAD_ORDER.index(cell)] == ""]
        refusals.provoke("computers-turn", raw([json.dumps({"command": "press", "cell": free[0]}),
                                                json.dumps({"command": "press", "cell": free[1]})]))
        wait(lambda: board.status()["asleep"], "the lights to sleep (10 s)", timeout=40)
        page.wait_for("document.getElementById('view').dataset.headline === 'asleep'")
        refusals.provoke("woke-up", lambda: page.click(f'.cell[data-cell="{free[2]}"]'))
    finally:
        stopped(board, web)


def board_holds_a_line(board):
    """Whether a line sent to the (stopped) board waits unread in its socket (`ss`'s Recv-Q)."""
    rows = subprocess.run(["ss", "-xH", "state", "established"], capture_output=True, text=True).stdout.splitlines()
    return any(str(board.socket) in row and int(row.split()[1]) > 0 for row in rows if len(row.split()) > 1)


def test_the_board_going_away_is_said_in_words_and_cleared_when_it_is_back(browser, folder):
    board = Board(folder)
    web = Web(folder, board)
    try:
        page = browser.open(web.url)
        refusals = Refusals(page)
        page.click('.cell[data-cell="3"]')
        wait(lambda: board.status()["cells"][KEYPAD_ORDER.index(3)] == "X", "X at 3")
        # A command the board never answers: it went away with the command read by nobody.
        os.kill(board.pid, signal.SIGSTOP)
        refusals.calm()
        page.evaluate(press_js(1))
        wait(lambda: board_holds_a_line(board), "the press to wait in the stopped board's socket")
        before = page.evaluate("window.reasons.length")
        os.kill(board.pid, signal.SIGKILL)
        board.process.wait(timeout=30)
        page.wait_for(f"window.reasons.slice({before}).includes('board-went-away')")
        wait(lambda: page.evaluate("reasonWords['board-went-away']") in said(page), "the lost command said")
        # Away: the banner says what a person can do, the turn line asks for no tap.
        text = wait(lambda: banner(page), "the banner")
        assert "switched on" in text, text
        assert_in_words(page, "the board away")
        assert turn(page) == "The board cannot be reached.", turn(page)
        refusals.provoke("board-unreachable", lambda: page.click('.cell[data-cell="1"]'))
        assert_in_words(page, "a tap while the board is away")
        # Back: the banner clears by itself, and the game is the board's again.
        board.start()
        wait(lambda: banner(page) == "", f"the banner to clear; it says {banner(page)!r}")
        # (The killed board may not have saved X's move: whose turn it is, it says.)
        mover = board.status()["turn"]
        wait(lambda: turn(page) == f"{mover} to move.", f"the turn line to be the board's; it says {turn(page)!r}")
        assert_in_words(page, "the board back")
    finally:
        stopped(board, web)


class WebAt(Web):
    """The web view on a given port of loopback: a restarted web view where the page left it."""

    def __init__(self, folder, board, port):
        self.log = pathlib.Path(folder) / "web.log"
        self.process = subprocess.Popen(
            [BIN / "tictactoe-web", "--socket", board.socket, "--listen", f"127.0.0.1:{port}", "--allow", "play",
             "--page", ROOT / "web", "--config", ROOT / "Hardware" / "tictactoe.toml"],
            stdout=subprocess.PIPE, stderr=open(self.log, "ab"), text=True)
        line = self.process.stdout.readline()
        assert "the board's page is at " in line, line + self.log.read_text()
        self.url = line.split("the board's page is at ")[1].split()[0]


def test_the_web_view_going_away_is_said_and_what_cannot_be_sent_says_so(browser, folder):
    board = Board(folder)
    web = Web(folder, board)
    try:
        page = browser.open(web.url)
        Refusals(page)
        page.click('.cell[data-cell="7"]')
        wait(lambda: board.status()["cells"][KEYPAD_ORDER.index(7)] == "X", "X at 7")
        web.stop()
        text = wait(lambda: banner(page), "the banner")
        assert_in_words(page, "the web view away")
        assert "reconnect" in text, text
        assert turn(page) == "The board cannot be reached.", turn(page)
        closed = page.evaluate("notSent.closed")
        # A tap, New game and another opponent, none of which can go: each is said, none vanishes.
        for act in [lambda: page.click('.cell[data-cell="1"]'), lambda: page.click("#new-game"),
                    lambda: page.evaluate("""(() => { const chooser = document.getElementById("opponent");
                        chooser.value = "computer-2"; chooser.dispatchEvent(new Event("change")); })()""")]:
            count = page.evaluate("document.getElementById('said').childElementCount")
            act()
            wait(lambda: said(page)[-1:] == [closed] and page.evaluate("document.getElementById('said').childElementCount") >= min(count + 1, 3),
                 f"the page to say it could not send; it says {said(page)}")
        assert page.evaluate("document.getElementById('opponent').value") == "two-players", "the chooser shows the game's opponent"
        assert_in_words(page, "taps while the web view is away")
        port = web.url.rstrip("/").rsplit(":", 1)[1]
        web = WebAt(folder, board, port)
        wait(lambda: banner(page) == "", f"the banner to clear; it says {banner(page)!r}")
        wait(lambda: turn(page) == "O to move.", f"the turn line to be the board's; it says {turn(page)!r}")
    finally:
        stopped(board, web)


def test_a_watching_page_says_a_tap_is_not_for_it(browser, folder):
    board = Board(folder)
    web = Web(folder, board, allow="watch")
    try:
        page = browser.open(web.url)
        refusals = Refusals(page)
        watching = page.evaluate("notSent.watching")
        page.click('.cell[data-cell="5"]')
        wait(lambda: said(page)[-1:] == [watching], f"the page to say it is for watching; it says {said(page)}")
        assert_in_words(page, "a tap on a watching page")
        refusals.provoke("watch-only", press_js(5))
        assert board.status()["cells"] == [""] * 9
    finally:
        stopped(board, web)


def test_changing_who_plays_o_mid_game_asks_first_and_a_new_game_starts_a_fresh_log(browser, folder):
    board = Board(folder)
    web = Web(folder, board)
    choose = """(() => { const chooser = document.getElementById("opponent");
        chooser.value = "computer-2"; chooser.dispatchEvent(new Event("change")); return true; })()"""
    try:
        page = browser.open(web.url)
        Refusals(page)
        page.click('.cell[data-cell="5"]')
        wait(lambda: "X took cell 5." in said(page), "the move said")
        page.evaluate(choose)
        page.wait_for("document.getElementById('change-opponent').open")
        assert_in_words(page, "the question")
        page.click("#change-no")
        page.wait_for("!document.getElementById('change-opponent').open")
        assert page.evaluate("document.getElementById('opponent').value") == "two-players"
        state = board.status()
        assert state["opponent"] == "two-players" and state["cells"][KEYPAD_ORDER.index(5)] == "X", state
        # A game given up: the new game's log has none of the last game's moves.
        page.click("#new-game")
        page.wait_for("document.getElementById('abandon').open")
        page.click("#abandon-yes")
        wait(lambda: "A new game." in said(page), f"the new game said; the log says {said(page)}")
        assert not [item for item in said(page) if "took cell" in item], said(page)
        page.click('.cell[data-cell="5"]')
        wait(lambda: [item for item in said(page) if "took cell 5" in item], "the new game's first move said")
        page.evaluate(choose)
        page.wait_for("document.getElementById('change-opponent').open")
        page.click("#change-yes")
        wait(lambda: board.status()["opponent"] == "computer-2", "the board to take the new opponent")
        assert page.evaluate("document.getElementById('opponent').value") == "computer-2"
        wait(lambda: "A new game." in said(page), f"the new game said; the log says {said(page)}")
        assert not [item for item in said(page) if "took cell" in item], said(page)
    finally:
        stopped(board, web)


# Three kinds of game, told apart by how they end and their length (keypad cells, the starter first).
GAMES = [[7, 1, 8, 2, 9], [1, 7, 2, 8, 5, 9], [5, 7, 9, 1, 4, 6, 3, 8, 2]]


def described(game):
    """How the page says a finished two-player game, up to its time."""
    names = game.get("names") or {}
    x, o = names.get("x") or "X", names.get("o") or "O"
    outcome = {"x-wins": f"{x} won", "o-wins": f"{o} won", "draw": "A draw"}[game["outcome"]]
    return f"{outcome}, {len(game['moves'])} moves, "


def test_a_page_joining_after_twelve_games_shows_the_last_ones_by_name(browser, folder):
    board = Board(folder, arguments=["--x-name", "Ada", "--o-name", "Bob"])
    web = Web(folder, board)
    client = Client(board.socket)
    try:
        for number in range(12):
            for cell in GAMES[number % 3]:
                assert client.press(cell)["type"] == "ok"
            assert client.command("new-game")["type"] == "ok"
        games = client.command("history")["games"]
        assert len(games) == 12
        page = browser.open(web.url)
        expected = [described(game) for game in games[-5:][::-1]]
        shown = page.wait_for("(() => { const items = [...document.querySelectorAll('#history li')].map((item) => item.textContent);"
                              " return items.length === 5 ? items : null; })()")
        assert [item[:len(want)] for item, want in zip(shown, expected)] == expected, (shown, expected)
        assert any(item.startswith(("Ada won", "Bob won")) for item in shown), shown
        # The score by name: X's column and the second player's row.
        header = page.evaluate("[...document.querySelectorAll('#scores thead th')].map((cell) => cell.textContent)")
        assert header[1] == "Ada (X) wins", header
        rows = page.evaluate("[...document.querySelectorAll('#scores tbody tr')].map((row) => [...row.cells].map((c) => c.textContent))")
        score = board.status()["scores"]["two-players"]
        assert ["Bob", str(score["xWins"]), str(score["oWins"]), str(score["draws"])] in rows, rows
        assert_in_words(page, "the last games")
    finally:
        client.close()
        stopped(board, web)


def test_a_question_about_a_game_that_changed_meanwhile_closes_and_gives_nothing_up(browser, folder):
    """New game asked about X's game; meanwhile another client gives it up and plays on: the
    question closes, says so, and the other game is not given up by a late yes."""
    board = Board(folder)
    web = Web(folder, board)
    try:
        page = browser.open(web.url)
        # A tap before the page has the board's state is answered as not sent: wait for it.
        page.wait_for(CONNECTED)
        page.click('.cell[data-cell="5"]')
        wait(lambda: "X took cell 5." in said(page), "the move said")
        page.click("#new-game")
        page.wait_for("document.getElementById('abandon').open")
        other = Client(board.socket)
        try:
            other.command("abandon")
            other.command("press", cell=7)
        finally:
            other.close()
        page.wait_for("!document.getElementById('abandon').open")
        wait(lambda: "The game changed meanwhile, so nothing was given up." in said(page), f"the page to say so; it says {said(page)}")
        state = board.status()
        assert [mark for mark in state["cells"] if mark] == ["O"], state
    finally:
        stopped(board, web)


def test_the_longest_names_fit_a_320_px_phone(browser, folder):
    """Two names of the longest allowed, without a space, in the turn line, the score table's
    header and rows, and the history: no sideways scroll at 320 px."""
    longest = "W" * 32
    board = Board(folder, arguments=["--x-name", longest, "--o-name", "M" * 32])
    web = Web(folder, board)
    try:
        page = browser.open(web.url)
        page.call("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 720, "deviceScaleFactor": 1, "mobile": True})
        page.wait_for("performance.getEntriesByName('board-drawn').length > 0")
        for moves, cell in enumerate([7, 1, 8, 2, 9], start=1):
            page.click(f'.cell[data-cell="{cell}"]')
            wait(lambda: sum(1 for mark in board.status()["cells"] if mark) == moves, f"move {moves} on the board")
        wait(lambda: longest in page.evaluate("document.getElementById('history').innerText"), "the game in the history")
        assert longest in page.evaluate("document.getElementById('scores').innerText")
        width = page.evaluate("document.documentElement.scrollWidth")
        wide = page.evaluate("""[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 321)
            .map((e) => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)""")
        assert width <= 320, f"the page is {width} px wide at 320: {wide}"
    finally:
        stopped(board, web)
