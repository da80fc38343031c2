"""The page walked through every state it can show (each cell look and headline of
docs/VIEWS.md's table, the dialog, the board and the web view gone), for test_access.py's checks
and page_shots.py's screenshots; against the simulated board and the web view (served.py)."""

import json
import pathlib

from served import Client

KEYPAD_ORDER = [7, 8, 9, 4, 5, 6, 1, 2, 3]  # the API's cells are in reading order
IDLE_SLEEP = 10  # seconds: the least the board takes before its lights sleep (simulate --idle-sleep)


# A learner that lost games it opened in the centre (three) and on an edge (two): its box for
# the empty board holds 4 beads for a corner, 2 for an edge, 1 for the centre (the board files
# the empty board as nine dots, beads on one cell of each kind: corner, edge, centre), so it
# shows all three levels of beads. Its last game is over and it starts the next.
TAUGHT = {
    "version": 3, "cells": ["X", "X", "X", "O", "O", "", "", "", ""], "starter": "X", "nextStarter": "O",
    "opponent": "learner", "scores": {}, "moves": [7, 4, 8, 5, 9],
    "learner": {"boxes": {".........": [4, 2, 0, 0, 1, 0, 0, 0, 0]}, "refills": 0, "games": 5, "tens": [[0, 0, 5]]},
}


def index(cell):
    return KEYPAD_ORDER.index(cell)


def shows(page, state):
    """Waits for the page to draw `state` (its looks and headline)."""
    expression = ("JSON.stringify([...document.querySelectorAll('.cell')].sort((a, b) => %s.indexOf(+a.dataset.cell) - "
                  "%s.indexOf(+b.dataset.cell)).map((c) => c.dataset.look)) === %s && "
                  "document.getElementById('view').dataset.headline === %s") % (
        json.dumps(KEYPAD_ORDER), json.dumps(KEYPAD_ORDER), json.dumps(json.dumps(state["looks"], separators=(",", ":"))), json.dumps(state["headline"]))
    try:
        page.wait_for(expression)
    except Exception:
        shown = page.evaluate("[document.getElementById('view').dataset.headline, [...document.querySelectorAll('.cell')].map((c) => c.dataset.cell + ':' + c.dataset.look).join(' ')]")
        raise AssertionError(f"the page shows {shown}, not {state['headline']} {state['looks']}")


# Every board on the broker as the link lists them: one mid-game against another board, one whose
# game X won against the computer, one offline, one whose state was never heard.
BOARDS = {"type": "boards", "broker": "broker.home:8883", "connected": True, "lost": 0, "ignored": 0, "beyondLimit": 0, "boards": [
    {"name": "cellar", "online": True, "cells": ["X", "", "", "", "O", "", "", "", ""], "turn": "X", "outcome": "playing",
     "opponent": "board:porch:x", "score": {"xWins": 1, "oWins": 0, "draws": 2}},
    {"name": "grandma", "online": False, "cells": ["X", "X", "X", "O", "O", "", "", "", ""], "outcome": "x-wins", "opponent": "computer-2"},
    {"name": "kitchen", "online": True},
    {"name": "porch", "online": None, "cells": [""] * 9, "turn": "X", "outcome": "playing", "opponent": "learner"},
]}


def boards_view(page, web, visit):
    """The boards view opened with no link's list, then on the list the link keeps (written
    here)."""
    page.evaluate("document.querySelector('#boards-view summary').scrollIntoView({block: 'center'})")
    page.click("#boards-view summary")
    page.wait_for("document.getElementById('boards-said').textContent.includes('not on a network of boards')")
    visit("the boards view, no link")
    pathlib.Path(web.boards_file).write_text(json.dumps(BOARDS))
    page.wait_for("document.querySelectorAll('#boards-list li').length === 4")
    said = page.evaluate("[...document.querySelectorAll('#boards-list li')].map((li) => li.querySelector('.board-game').textContent)")
    assert said == ["X to move, against the board porch (it plays X); score X 1, O 0, draws 2", "X won, O is computer 2",
                    "no game heard yet", "X to move, O is the learner"], said
    visit_boards = page.evaluate("document.getElementById('boards-said').textContent")
    assert visit_boards == "4 boards on broker.home:8883, 2 online.", visit_boards
    return said


def every_state(page, board, web, client, visit):
    """Walks the page through every state it can show, calling `visit(name)` in each: each cell
    look (docs/VIEWS.md's table) and each headline, the dialog, the board out of reach, the
    web view gone. Needs a board with `--idle-sleep IDLE_SLEEP`; stops the board and the web view."""
    shows(page, client.wait_for(lambda s: s["headline"] == "x-to-move", "a fresh board"))
    visit("start, X to move")

    def caught(act, moment, what):
        """`act`, then the board held still (SIGSTOP) while the page shows the passing moment
        the page-side expression `moment` names (a refused press's 400 ms, the computer's
        thinking, the choice of opponent shown); again if it passed before the board stopped."""
        for _ in range(8):
            act()
            try:
                page.wait_for(moment, timeout=3)
            except Exception:
                continue
            with board.frozen():
                if page.evaluate(moment):
                    visit(what)
                    return
            page.wait_for(f"!({moment})", timeout=30)
        raise AssertionError(f"never caught {what}")

    def look_of(cell, look):
        return f"document.querySelector('.cell[data-cell=\"{cell}\"]').dataset.look === '{look}'"

    def headline(name):
        return f"document.getElementById('view').dataset.headline === '{name}'"

    client.press(7)
    shows(page, client.latest)
    visit("O to move")
    caught(lambda: client.press(7), look_of(7, "refused-x"), "refused press on X")
    client.press(4)
    caught(lambda: client.press(4), look_of(4, "refused-o"), "refused press on O")
    for cell in [9, 6, 5, 1, 2, 3]:
        client.press(cell)
    client.press(8)  # the top row and the middle column: a double win
    shows(page, client.wait_for(lambda s: s["headline"] == "x-wins", "X's double win"))
    visit("double win")

    client.command("new-game")  # O starts: a draw
    for cell in [1, 5, 9, 2, 8, 7, 3, 6, 4]:
        client.press(cell)
    shows(page, client.wait_for(lambda s: s["headline"] == "draw", "the draw"))
    visit("draw")

    client.command("new-game")  # X starts; O wins along the top row
    for cell in [1, 7, 2, 8, 6, 9]:
        client.press(cell)
    shows(page, client.wait_for(lambda s: s["headline"] == "o-wins", "O's win"))
    visit("win")

    client.command("new-game")
    client.press(5)
    shows(page, client.latest)
    page.key("n", code="KeyN", text="n")
    page.wait_for("document.querySelector('dialog[open]') !== null")
    visit("dialog open")
    page.click("#abandon-no")
    page.wait_for("document.querySelector('dialog[open]') === null")

    caught(lambda: client.command("opponent", opponent="two-players"), headline("choosing-opponent"), "choosing two players")
    client.wait_for(lambda s: s["headline"] == "x-to-move", "X's turn", timeout=30)
    caught(lambda: client.command("opponent", opponent="computer-2"), headline("choosing-opponent"), "choosing the computer")
    client.wait_for(lambda s: s["headline"] == "x-to-move", "X's turn against the computer", timeout=30)

    def move_then_press():
        client.wait_for(lambda s: s["headline"] == "x-to-move", "X's turn")
        free = [cell for cell in KEYPAD_ORDER if client.latest["cells"][index(cell)] == ""]
        client.press(free[0])
        client.press(free[1])
    caught(move_then_press, headline("o-thinking") + " && document.querySelector('.cell[data-look=\"refused-empty\"]') !== null",
           "the computer thinking, a press refused")

    # Another board (NETWORK.md): invited and not heard yet, the game waits for it; heard (as its
    # link would tell the board), a move; gone again, the game waits with its mark. Then a board
    # this one joins, playing O: waiting for X's board.
    client.command("opponent", opponent="board:kitchen")
    shows(page, client.wait_for(lambda s: s["headline"] == "waiting-for-o", "the invited board waited for", timeout=30))
    visit("waiting for the other board (O)")
    client.command("heard", board="kitchen", online=True, game={"mark": "O", "number": 1, "moves": []})
    client.press(5)
    client.command("heard", board="kitchen", online=False, game=None)
    shows(page, client.wait_for(lambda s: s["headline"] == "waiting-for-o" and s["cells"][index(5)] == "X", "the other board gone mid-game"))
    visit("waiting for the other board mid-game")
    client.command("opponent", opponent="board:attic:x")
    shows(page, client.wait_for(lambda s: s["headline"] == "waiting-for-x", "the board joined waited for", timeout=30))
    visit("waiting for the other board (X)")
    # The boards the link sees online (as it would tell the board: `seen`): the porch invites this
    # board, the cellar does not. The page offers both, says the invitation, and joins the porch's
    # game from its own chooser.
    client.command("seen", boards=[{"board": "porch", "invites": True}, {"board": "cellar", "invites": False}])
    page.wait_for("[...document.querySelectorAll('#opponent option')].map((o) => o.value).join(' ').includes('board:porch:x board:cellar')")
    page.wait_for("document.getElementById('said').textContent.includes('The board porch invites this board to a game')")
    visit("other boards seen, one inviting")
    page.evaluate("(() => { const c = document.getElementById('opponent'); c.value = 'board:porch:x'; c.dispatchEvent(new Event('change')); })()")
    client.wait_for(lambda s: s["opponent"] == "board:porch:x", "the porch's game joined from the page", timeout=30)
    boards_view(page, web, visit)
    visit("the boards view, four boards")
    page.evaluate("document.querySelector('#boards-view summary').scrollIntoView({block: 'center'})")
    page.click("#boards-view summary")

    # The learner's box, all three levels: the board started again on a taught learner's state,
    # thinking long enough for the page to show the box before the board is held still.
    client.close()
    board.stop()
    # The taught learner's state as release 0.4 saved it, imported at the start as an upgraded
    # board's is: the database the first run made goes first (it would win over the file).
    for name in ("board.sqlite3", "board.sqlite3-wal", "board.sqlite3-shm"):
        (board.state_dir / name).unlink(missing_ok=True)
    (board.state_dir / "state.json").write_text(json.dumps(TAUGHT))
    board.arguments = [*board.arguments, "--think-ms", "5000"]
    board.start()
    client = Client(board.socket)
    try:
        caught(lambda: client.command("new-game"),
               headline("o-thinking") + " && ['few', 'some', 'most'].every((level) => "
               "document.querySelector(`.cell[data-look=\"beads-${level}\"]`) !== null)", "the learner thinking, its box shown")

        shows(page, client.wait_for(lambda s: s["asleep"], "the board to sleep", timeout=IDLE_SLEEP + 20))
        visit("asleep")
    finally:
        client.close()

    board.stop()
    page.wait_for("!document.getElementById('link').hidden && document.getElementById('view').dataset.headline === 'unreachable'")
    visit("the board cannot be reached")
    board_away = page.evaluate("document.getElementById('link').textContent")
    web.stop()
    # The line's words are the page's to choose: only that they change is waited for.
    page.wait_for("!document.getElementById('link').hidden && document.getElementById('link').textContent !== %s" % json.dumps(board_away))
    visit("the web view gone")
