"""The board in a real browser: Debian's headless Chromium over the DevTools protocol, against
the simulated board (`tictactoe simulate --serve`, its LEDs seen by `--leds`) and the web view
(`tictactoe-web`), both built from this tree. What the page shows is checked against what the
board's API says, and what a click does against the simulated LED lines.

Run by `make browser-test` (part of `make test`). A screenshot of a finished game, on a
phone-sized window, is kept in test-results/browser/."""

import json
import pathlib
import subprocess
import tempfile
import time

import pytest

from served import BIN, ROOT, Board, Web, wait

RESULTS = ROOT / "test-results" / "browser"
KEYPAD_ORDER = [7, 8, 9, 4, 5, 6, 1, 2, 3]  # the API's cells are in reading order
OPPONENT_LABELS = {"two-players": "a second player", "computer-1": "computer 1", "computer-2": "computer 2",
                   "computer-3": "computer 3", "computer-4": "computer 4", "learner": "the learner"}


def now_ms():
    return int(time.monotonic() * 1000)


def index(cell):
    return KEYPAD_ORDER.index(cell)


PAGE_VIEW = """(() => {
  const order = %s;
  const cell = (n) => document.querySelector(`.cell[data-cell="${n}"]`);
  const link = document.getElementById("link");
  return {
    looks: order.map((n) => cell(n).dataset.look),
    winning: order.filter((n) => cell(n).dataset.look.endsWith("-winning")),
    turn: document.getElementById("turn").textContent,
    said: [...document.getElementById("said").children].map((item) => item.textContent),
    link: link.hidden ? "" : link.textContent,
    scores: [...document.querySelectorAll("#scores tbody tr")].map((row) => [...row.cells].map((c) => c.textContent)),
    history: [...document.querySelectorAll("#history li")].map((item) => item.textContent),
    controls: !document.getElementById("controls").hidden,
  };
})()""" % json.dumps(KEYPAD_ORDER)


def view(page):
    return page.evaluate(PAGE_VIEW)


def expected_turn(state):
    """What the page's turn line says for the board's state (no names given)."""
    def name(mark):
        return "the computer (O)" if mark == "O" and state["opponent"] != "two-players" else mark
    if state["asleep"]:
        return "The lights are asleep: press any cell to wake them."
    if state["outcome"] == "playing":
        return "The computer (O) is thinking…" if state["thinking"] else f"{name(state['turn'])} to move."
    if state["outcome"] == "draw":
        return "A draw."
    winner = name('X' if state['outcome'] == 'x-wins' else 'O')
    return f"{winner[0].upper()}{winner[1:]} wins."


def assert_page_shows(page, state):
    """The page draws the board's state: each cell's look, the turn, the current pairing's score."""
    shown = wait(lambda: (lambda v: v if v["looks"] == state["looks"] and v["turn"] == expected_turn(state) else None)(view(page)),
                 f"the page to show {state['looks']}, {expected_turn(state)!r}; it shows {view(page)}")
    score = state["scores"][state["opponent"]]
    row = [OPPONENT_LABELS[state["opponent"]], str(score["xWins"]), str(score["oWins"]), str(score["draws"])]
    assert row in shown["scores"], shown["scores"]
    return shown


def wait_for_move(board, cell, mark):
    return wait(lambda: (lambda s: s if s["cells"][index(cell)] == mark else None)(board.status()),
                f"the board to have {mark} at {cell}")


def led_seen(board, since, cell, colour, timeout=10):
    return wait(lambda: [r for r in board.leds(since) if r["cells"][index(cell)] == colour],
                f"the LED of cell {cell} to be seen {colour}", timeout=timeout)


@pytest.fixture
def folder():
    with tempfile.TemporaryDirectory(prefix="tictactoe-browser.") as name:
        yield pathlib.Path(name)


@pytest.fixture
def running(folder):
    board = Board(folder)
    web = Web(folder, board)
    yield board, web
    web.stop()
    if board.process.poll() is None:
        board.stop()


def test_a_game_clicked_on_the_page_is_the_boards_game_on_the_page_and_on_the_leds(browser, running):
    board, web = running
    page = browser.open(web.url)
    state = board.status()
    assert state["opponent"] == "two-players"
    assert_page_shows(page, state)
    # X takes the top row and the middle column with its last move: a double win on a full board.
    moves = [7, 4, 9, 6, 5, 1, 2, 3, 8]
    for number, cell in enumerate(moves):
        mark, colour = ("X", "red") if number % 2 == 0 else ("O", "green")
        clicked = now_ms()
        page.click(f'.cell[data-cell="{cell}"]')
        state = wait_for_move(board, cell, mark)
        shown = assert_page_shows(page, state)
        led_seen(board, clicked, cell, colour)
        if number == 0:
            assert wait(lambda: view(page)["said"][-1:] == ["X took cell 7."], "the move said in the live region")
    won = now_ms()
    assert state["outcome"] == "x-wins"
    lines = sorted(sorted(line) for line in state["winningLines"])
    assert lines == [[2, 5, 8], [7, 8, 9]], state["winningLines"]
    shown = wait(lambda: (lambda v: v if sorted(v["winning"]) == [2, 5, 7, 8, 9] else None)(view(page)),
                 "both winning lines marked on the page")
    assert shown["turn"] == "X wins."
    assert wait(lambda: view(page)["said"][-2:] == ["X took cell 8.", "X wins."], "the last move and the win said in the live region")
    assert ["a second player", "1", "0", "0"] in shown["scores"]
    history = wait(lambda: view(page)["history"], "the finished game in the page's last games")
    assert history[0].startswith("X won, 9 moves, "), history

    def blinking():
        seen = board.leds(won)
        for cell in [7, 8, 9, 5, 2]:
            lit = [r["cells"][index(cell)] != "off" for r in seen]
            if sum(1 for a, b in zip(lit, lit[1:]) if a != b) < 2:
                return False
        return True
    wait(blinking, "every cell of both winning lines to blink on the LEDs")
    RESULTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(RESULTS / "finished-game.png")
    print(f"\nscreenshot of the finished game (390×844): {RESULTS / 'finished-game.png'}")


def test_a_click_in_the_computers_turn_is_refused_on_the_page_and_the_leds(browser, running):
    board, web = running
    page = browser.open(web.url)
    assert_page_shows(page, board.status())
    # The opponent chosen on the page.
    page.evaluate("""(() => { const chooser = document.getElementById("opponent");
        chooser.value = "computer-4"; chooser.dispatchEvent(new Event("change")); })()""")
    wait(lambda: board.status()["opponent"] == "computer-4", "the board to take the page's opponent")
    page.evaluate("""(() => { window.flashed = [];
        new MutationObserver((changes) => changes.forEach((change) => {
          if (change.target.dataset.look.startsWith("refused-")) window.flashed.push(Number(change.target.dataset.cell));
        })).observe(document.getElementById("board"), { attributes: true, subtree: true, attributeFilter: ["data-look"] }); })()""")
    # The computer may have the first move of the new pairing's game: X's turn is waited for.
    state = wait(lambda: (lambda s: s if s["turn"] == "X" and not s["thinking"] else None)(board.status()), "X's turn")
    free = [cell for cell in [5, 1, 3, 7, 9, 2, 4, 6, 8] if state["cells"][index(cell)] == ""]
    played, pressed = free[0], free[1]
    page.click(f'.cell[data-cell="{played}"]')
    page.wait_for("document.getElementById('turn').textContent === 'The computer (O) is thinking…'")
    refused = now_ms()
    page.click(f'.cell[data-cell="{pressed}"]')
    page.wait_for(f"window.flashed.includes({pressed})")
    led_seen(board, refused, pressed, "amber")
    before = state
    marks = state["cells"].count("O")
    state = wait(lambda: (lambda s: s if s["cells"].count("O") == marks + 1 else None)(board.status()), "the computer's move")
    assert state["cells"][index(played)] == "X"
    assert state["cells"][index(pressed)] != "X", "a press in the computer's turn must not be played"
    assert state["cells"].count("X") == before["cells"].count("X") + 1, "one X: the click in X's turn"
    assert_page_shows(page, state)


def test_the_keyboard_plays_keypad_digits_and_tab_then_enter(browser, running):
    board, web = running
    page = browser.open(web.url)
    assert_page_shows(page, board.status())
    page.key("5", code="Numpad5", text="5")
    assert_page_shows(page, wait_for_move(board, 5, "X"))
    page.key("Tab", code="Tab")
    assert page.evaluate("document.activeElement.dataset.cell") == "7"
    page.key("Enter", code="Enter", text="\r")
    assert_page_shows(page, wait_for_move(board, 7, "O"))
    # New game mid-game asks first; keeping the game changes nothing, giving it up clears it.
    page.key("n", code="KeyN", text="n")
    page.wait_for("document.getElementById('abandon').open")
    page.click("#abandon-no")
    page.wait_for("!document.getElementById('abandon').open")
    assert board.status()["cells"].count("") == 7
    page.key("n", code="KeyN", text="n")
    page.wait_for("document.getElementById('abandon').open")
    page.click("#abandon-yes")
    state = wait(lambda: (lambda s: s if s["cells"] == [""] * 9 else None)(board.status()), "the game given up")
    assert_page_shows(page, state)


def test_the_page_says_when_the_board_is_away_and_comes_back_by_itself(browser, running):
    board, web = running
    page = browser.open(web.url)
    assert_page_shows(page, board.status())
    page.click('.cell[data-cell="3"]')
    assert_page_shows(page, wait_for_move(board, 3, "X"))
    board.stop()
    shown = wait(lambda: (lambda v: v if "cannot be reached" in v["link"] else None)(view(page)),
                 "the page to say the board cannot be reached")
    assert shown["link"].startswith("The board cannot be reached")
    board.start()
    wait(lambda: view(page)["link"] == "", "the page to find the board again")
    state = board.status()
    assert state["cells"][index(3)] == "X", "the board restores its game"
    assert_page_shows(page, state)
    page.click('.cell[data-cell="1"]')
    assert_page_shows(page, wait_for_move(board, 1, "O"))


def test_a_watch_only_page_shows_the_board_and_cannot_change_it(browser, folder):
    board = Board(folder)
    web = Web(folder, board, allow="watch")
    try:
        page = browser.open(web.url)
        assert_page_shows(page, board.status())
        page.wait_for("document.getElementById('controls').hidden")
        page.click('.cell[data-cell="5"]')
        page.key("5", code="Numpad5", text="5")
        subprocess.run([BIN / "tictactoe", "press", "1", "--socket", board.socket], check=True, capture_output=True)
        # The board's own press shows on the page; the page's did nothing.
        state = wait_for_move(board, 1, "X")
        assert_page_shows(page, state)
        assert state["cells"].count("X") == 1 and state["cells"].count("O") == 0, state["cells"]
        assert not view(page)["controls"]
    finally:
        web.stop()
        board.stop()
