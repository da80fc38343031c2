"""The learner's panel on the page (issue 41), against the simulated board: its box decodes to the
learner's beads, cell by cell, as the board's own API gives them; its plot decodes to the record's
tens; its reset is asked twice, each question can say no, a late yes acts on nothing stale, and a
reset mid-game is refused in the page's own words; the panel passes axe in both schemes and fits a
320 px phone. The learner is trained through the board's socket (a raw client, X at random), with
the computer's thinking made short (`simulate --think-ms`). Run by `make browser-test`."""

import json
import pathlib
import random
import tempfile

import pytest

from served import Board, Client, Web, wait
from test_access import NARROWEST, SCHEMES, WIDTHS, run_axe, scroll_width, view_as
from test_words import WATCH_ERRORS, said, terminal_words

KEYPAD_ORDER = [7, 8, 9, 4, 5, 6, 1, 2, 3]
# The thinking time while training (short: 25 games in a few seconds), and while the page's box
# is read (long: the box shows only while the learner thinks).
QUICK_MS = 0
SLOW_MS = 5000


@pytest.fixture
def folder():
    with tempfile.TemporaryDirectory(prefix="tictactoe-learner.") as name:
        yield pathlib.Path(name)


class Served:
    """The simulated board against the learner, its web view and a raw client of its socket."""

    def __init__(self, folder, think_ms):
        self.board = Board(folder, arguments=["--opponent", "learner", "--think-ms", think_ms])
        self.web = Web(folder, self.board)
        self.client = Client(self.board.socket)
        self.folder = folder

    def restart(self, think_ms):
        """The same board (its saved learner) with another thinking time."""
        self.client.close()
        self.web.stop()
        self.board.stop()
        self.board.arguments = ["--opponent", "learner", "--think-ms", str(think_ms)]
        self.board.start()
        self.web = Web(self.folder, self.board)
        self.client = Client(self.board.socket)

    def stop(self):
        self.client.close()
        if self.web.process.poll() is None:
            self.web.stop()
        if self.board.process.poll() is None:
            self.board.stop()


@pytest.fixture
def quick(folder):
    served = Served(folder, QUICK_MS)
    yield served
    served.stop()


def train(client, games, seed=7):
    """`games` more games against the learner, X playing at random; ends between games."""
    rng = random.Random(seed)
    target = client.latest["learner"]["games"] + games
    while client.latest["learner"]["games"] < target:
        state = client.wait_for(lambda s: s["outcome"] != "playing" or s["turn"] == "X", "X's turn or the end")
        if state["outcome"] != "playing":
            if state["learner"]["games"] >= target:
                break
            client.command("new-game")
            continue
        free = [KEYPAD_ORDER[index] for index, mark in enumerate(state["cells"]) if mark == ""]
        client.press(rng.choice(free))
    return client.wait_for(lambda s: s["outcome"] != "playing", "the last game's end")


def tap(page, selector):
    """A real click on an element, scrolled into view first (a click lands where it is seen)."""
    page.evaluate(f"document.querySelector({json.dumps(selector)}).scrollIntoView({{block: 'center'}})")
    page.click(selector)


def panel_box(page):
    """The panel's box as a person reads it: each cell's text, in reading order."""
    return page.evaluate(f"{json.dumps(KEYPAD_ORDER)}.map((cell) => "
                         "document.querySelector(`#learner-box td[data-cell='${cell}']`).textContent)")


def expected_box(state):
    """The board's own box, as the panel must say it: the beads of a free cell, "taken (X)" else."""
    box = state["learner"]["box"]
    return [f"taken ({mark})" if mark else str(box[index]) for index, mark in enumerate(state["cells"])]


def test_the_panels_box_is_the_learners_beads_cell_by_cell(browser, quick):
    train(quick.client, 30)
    quick.restart(SLOW_MS)
    served = quick
    page = browser.open(served.web.url)
    page.wait_for("page.state !== null")
    served.client.command("new-game")
    checked = 0
    for _ in range(2):
        state = served.client.wait_for(lambda s: s["turn"] == "X", "X's turn", timeout=30)
        free = [cell for cell in [7, 6, 2, 9, 1, 3, 4, 8, 5] if not state["cells"][KEYPAD_ORDER.index(cell)]]
        tap(page, f'.cell[data-cell="{free[0]}"]')
        state = served.client.wait_for(lambda s: s["turn"] == "O" and s["learner"]["box"], "the learner to think")
        page.wait_for("!document.getElementById('learner-box').hidden")
        wait(lambda: panel_box(page) == expected_box(state), f"the panel's box {panel_box(page)} to be {expected_box(state)}")
        beads = [int(text) for text in panel_box(page) if not text.startswith("taken")]
        checked += len(set(beads)) > 1
        if state["outcome"] != "playing" or sum(1 for mark in state["cells"] if mark) >= 5:
            break
    assert checked >= 1, "a box whose beads all agree proves little"
    # X's turn: no box, and the panel says when it shows.
    served.client.wait_for(lambda s: s["turn"] != "O", "the learner's move")
    page.wait_for("document.getElementById('learner-box').hidden")
    assert "learner's turn" in page.evaluate("document.getElementById('learner-box-about').textContent")


PLOT = """(() => { const svg = document.querySelector('#learner-plot svg');
  const lines = [...svg.querySelectorAll('polyline')].map((line) => ({
    result: line.dataset.result, counts: line.dataset.counts,
    ys: line.getAttribute('points').trim().split(' ').map((point) => Number(point.split(',')[1])) }));
  const grid = [...svg.querySelectorAll('line.grid')].map((line) => Number(line.getAttribute('y1')));
  return {lines, grid, first: Number(svg.dataset.first), words: svg.querySelector('desc').textContent,
          labelled: svg.getAttribute('role') === 'img'}; })()"""


def test_the_plot_decodes_to_the_records_tens(browser, quick):
    state = train(quick.client, 25)
    tens = state["learner"]["tens"]
    assert len(tens) >= 3, tens
    page = browser.open(quick.web.url)
    page.wait_for(f"page.state && page.state.learner.games === {state['learner']['games']}")
    plot = page.evaluate(PLOT)
    assert [line["result"] for line in plot["lines"]] == ["lost-latest", "won", "drew", "lost"]
    rate, *results = plot["lines"]
    # The gridlines at 0, 5 and 10 games give the scale; every point's height decodes to a count.
    zero, _, ten = plot["grid"]
    decoded = lambda ys: [round((zero - y) / (zero - ten) * 10, 1) for y in ys]  # noqa: E731
    # The loss rate over the latest hundred games, per ten games, at each ten (all 25 games here):
    # its last point is the board's own `latest`, which the panel's words give too.
    latest = state["learner"]["latest"]
    assert sum(latest) == state["learner"]["games"] == 25, latest
    played = [sum(ten_) for ten_ in tens]
    expected = [round(10 * sum(t[2] for t in tens[:i + 1]) / sum(played[:i + 1]), 1) for i in range(len(tens))]
    assert decoded(rate["ys"]) == expected and expected[-1] == round(10 * latest[2] / 25, 1), (decoded(rate["ys"]), expected, latest)
    words = f"Of its latest 25 games, it lost {latest[2]} ({round(100 * latest[2] / 25)}%)."
    assert words in plot["words"], plot["words"]
    assert words in page.evaluate("document.getElementById('learner-record').textContent")
    # The latest ten, under way (25 games: 5 in it), is drawn as a rate per ten games.
    in_last = state["learner"]["games"] % 10 or 10
    assert in_last < 10, "the plot's test needs a ten under way"
    for which, line in enumerate(results):
        from_geometry = decoded(line["ys"])
        rates = [ten_[which] * (10 / in_last if index == len(tens) - 1 else 1) for index, ten_ in enumerate(tens)]
        assert from_geometry == [round(rate, 1) for rate in rates], (line["result"], from_geometry, tens)
        assert line["counts"] == " ".join(str(ten_[which]) for ten_ in tens)
    assert plot["first"] == 1
    assert plot["labelled"] and f"won {tens[-1][0]}, drew {tens[-1][1]}, lost {tens[-1][2]}" in plot["words"], plot["words"]
    assert f"{in_last} games so far" in plot["words"], plot["words"]


def reset_state(client):
    learner = client.latest["learner"]
    return learner["games"], learner["boxes"]


def dialog_open(page, name):
    return page.evaluate(f"document.getElementById({json.dumps(name)}).open")


# The board's `status`, asked on the page's own socket: a barrier, not a wait. The web view
# relays a page's messages to the board in order, on its one connection, and the board answers
# a connection's commands in order, each after the state it caused; so the answer tells what
# the board made of everything the page sent before it. A page never asks for the status, so
# this reply is the test's (the page itself skips it).
ASK_STATUS = """new Promise((resolve) => {
  const socket = page.socket;
  const listener = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "status" || (message.type === "error" && message.command === "status")) {
      socket.removeEventListener("message", listener);
      resolve(message);
    }
  };
  socket.addEventListener("message", listener);
  socket.send(JSON.stringify({command: "status"}));
})"""


# Every reset the page sends, by the count of games it names, kept in the page: what it did, to
# be counted once the test is over (a reset sent late, by a timer, is counted too).
COUNT_RESETS = """(() => {
  if (window.resetsSent) return true;
  window.resetsSent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const message = JSON.parse(data);
      if (message.command === "reset-learner") window.resetsSent.push([message.games, message.resets ?? null]);
    } catch (error) {}
    return send.call(this, data);
  };
  return true; })()"""


def ask_status(page):
    answer = page.evaluate(ASK_STATUS)
    assert answer["type"] == "status", answer
    return answer


def test_reset_is_asked_twice_each_no_keeps_the_learner_and_a_late_yes_acts_on_nothing_stale(browser, quick):
    train(quick.client, 3)
    page = browser.open(quick.web.url)
    page.wait_for("page.state !== null && !document.getElementById('learner').hidden")
    page.evaluate(WATCH_ERRORS)
    page.evaluate(COUNT_RESETS)
    before = reset_state(quick.client)
    assert before[0] == 3 and before[1] > 0
    # No at the first question.
    tap(page, "#learner-reset")
    page.wait_for("document.getElementById('reset-first').open")
    assert "3 games" in page.evaluate("document.getElementById('reset-first-question').textContent")
    page.click("#reset-first-no")
    page.wait_for("!document.getElementById('reset-first').open && page.resetAsked === null")
    assert not dialog_open(page, "reset-second")
    # Yes, then no.
    tap(page, "#learner-reset")
    page.wait_for("document.getElementById('reset-first').open")
    page.click("#reset-first-yes")
    page.wait_for("document.getElementById('reset-second').open")
    page.click("#reset-second-no")
    # The question's close has run (it forgets the count asked about), and what the board says
    # after it: a reset sent by mistake, in the click or the close, went before this status.
    page.wait_for("!document.getElementById('reset-second').open && page.resetAsked === null")
    learner = ask_status(page)["state"]["learner"]
    assert (learner["games"], learner["boxes"]) == before
    # A late yes: another page resets, then this one's question closes, and its yes never comes.
    tap(page, "#learner-reset")
    page.wait_for("document.getElementById('reset-first').open")
    page.click("#reset-first-yes")
    page.wait_for("document.getElementById('reset-second').open")
    train(quick.client, 1)
    page.wait_for("!document.getElementById('reset-second').open")
    assert page.evaluate("reasonWords['learner-changed']") in said(page)
    assert reset_state(quick.client)[0] == 4
    # And the board itself refuses a yes for a count of games the learner no longer has.
    page.evaluate("page.socket.send(JSON.stringify({command: 'reset-learner', games: 3}))")
    page.wait_for("window.reasons.includes('learner-changed')")
    assert reset_state(quick.client)[0] == 4
    # Yes and yes: a fresh learner, by the board's own account.
    tap(page, "#learner-reset")
    page.wait_for("document.getElementById('reset-first').open")
    page.click("#reset-first-yes")
    page.wait_for("document.getElementById('reset-second').open")
    page.click("#reset-second-yes")
    quick.client.wait_for(lambda s: s["learner"]["games"] == 0, "the reset")
    learner = quick.client.latest["learner"]
    assert learner["boxes"] == 0 and learner["won"] + learner["drew"] + learner["lost"] == 0 and learner["tens"] == []
    page.wait_for("document.getElementById('learner-record').textContent.startsWith('0 games')")
    assert "The learner was reset: it starts again with fresh matchboxes." in said(page)
    assert learner["resets"] == 1, learner
    # A question about this fresh learner (0 games, 1 reset), and meanwhile another client resets
    # it: the next learner has 0 games too, but it is another one, so the question closes.
    changed = page.evaluate("reasonWords['learner-changed']")
    assert said(page)[-1] != changed, said(page)
    tap(page, "#learner-reset")
    page.wait_for("document.getElementById('reset-first').open")
    assert quick.client.command("reset-learner", games=0, resets=1)["type"] == "ok"
    page.wait_for("!document.getElementById('reset-first').open && page.resetAsked === null")
    assert said(page)[-1] == changed, said(page)
    assert quick.client.latest["learner"]["resets"] == 2
    # And the board itself refuses a yes for the learner before, at the same count of games.
    page.evaluate("page.socket.send(JSON.stringify({command: 'reset-learner', games: 0, resets: 1}))")
    page.wait_for("window.reasons.filter((reason) => reason === 'learner-changed').length === 2")
    assert quick.client.latest["learner"]["resets"] == 2
    # The page sent three resets in all: the test's own two, and the yes and yes, which named the
    # learner by both counts.
    assert page.evaluate("window.resetsSent") == [[3, None], [4, 0], [0, 1]], page.evaluate("window.resetsSent")


def test_a_reset_mid_game_is_refused_in_the_pages_words(browser, quick):
    train(quick.client, 2)
    page = browser.open(quick.web.url)
    page.wait_for("page.state !== null")
    page.evaluate(WATCH_ERRORS)
    state = quick.client.latest
    quick.client.command("new-game")
    state = quick.client.wait_for(lambda s: s["outcome"] == "playing" and s["turn"] == "X", "X's turn")
    free = [KEYPAD_ORDER[index] for index, mark in enumerate(state["cells"]) if mark == ""]
    quick.client.press(free[0])
    games = reset_state(quick.client)[0]
    tap(page, "#learner-reset")
    page.wait_for("document.getElementById('reset-first').open")
    page.click("#reset-first-yes")
    page.wait_for("document.getElementById('reset-second').open")
    page.click("#reset-second-yes")
    page.wait_for("window.reasons.includes('learner-playing')")
    sentence = page.evaluate("reasonWords['learner-playing']")
    wait(lambda: sentence in said(page), f"the page to say {sentence!r}; it says {said(page)}")
    assert not terminal_words(sentence), terminal_words(sentence)
    assert reset_state(quick.client)[0] == games


def test_the_panel_passes_axe_in_both_schemes_and_fits_320_px(browser, quick):
    train(quick.client, 25)
    quick.restart(SLOW_MS)
    page = browser.open(quick.web.url)
    page.wait_for("page.state !== null")
    quick.client.command("new-game")
    state = quick.client.wait_for(lambda s: s["turn"] == "X", "X's turn", timeout=30)
    free = [KEYPAD_ORDER[index] for index, mark in enumerate(state["cells"]) if mark == ""]
    quick.client.press(free[0])
    quick.client.wait_for(lambda s: s["learner"]["box"], "the learner's box")
    page.wait_for("!document.getElementById('learner-box').hidden && document.querySelector('#learner-plot polyline') !== null")
    # The board held still (SIGSTOP) while the audit runs: the box shows only while the learner thinks.
    with quick.board.frozen():
        assert page.evaluate("document.querySelectorAll('#learner-box td.taken').length") > 0
        failures = []
        for scheme in SCHEMES:
            width, height, mobile = WIDTHS[0]
            view_as(page, scheme, width, height, mobile)
            failures += [f"{scheme}: axe {rule['id']}: {rule['nodes']}" for rule in run_axe(page)]
            view_as(page, scheme, NARROWEST, 640, True)
            if scroll_width(page) > NARROWEST:
                failures.append(f"{scheme}: {NARROWEST} px scrolls sideways, {scroll_width(page)} px wide")
            plot_width = page.evaluate("document.querySelector('#learner-plot svg').getBoundingClientRect().right")
            if plot_width > NARROWEST:
                failures.append(f"{scheme}: the plot reaches {plot_width} px")
        # The reset's questions too, each in both schemes.
        for dialog in ["reset-first", "reset-second"]:
            page.evaluate(f"document.getElementById({json.dumps(dialog)}).showModal()")
            for scheme in SCHEMES:
                view_as(page, scheme, *WIDTHS[0])
                failures += [f"{dialog}, {scheme}: axe {rule['id']}: {rule['nodes']}" for rule in run_axe(page)]
            page.evaluate(f"document.getElementById({json.dumps(dialog)}).close()")
    assert failures == [], "\n".join(failures)


def test_a_lesson_from_the_page_asked_once_shown_as_it_goes_said_at_its_end_and_stopped_by_its_button(browser, quick):
    page = browser.open(quick.web.url)
    page.wait_for("page.state !== null && !document.getElementById('learner').hidden")
    page.evaluate(WATCH_ERRORS)
    # Not now: nothing sent.
    tap(page, "#learner-teach")
    page.wait_for("document.getElementById('teach').open")
    page.click("#teach-no")
    page.wait_for("!document.getElementById('teach').open")
    assert ask_status(page)["state"]["lesson"] is None
    # 100 games against computer 1, asked once: the board plays them, the page says how it went.
    tap(page, "#learner-teach")
    page.wait_for("document.getElementById('teach').open")
    page.evaluate("document.getElementById('teach-games').value = '100'; document.getElementById('teach-level').value = '1'")
    page.click("#teach-yes")
    state = quick.client.wait_for(lambda s: s["lesson"] and s["lesson"]["end"] == "finished", "the lesson's end")
    lesson = state["lesson"]
    assert (lesson["games"], lesson["level"], lesson["played"]) == (100, 1, 100) and state["learner"]["games"] == 100, lesson
    words = f"Taught the learner 100 games against computer 1 (won {lesson['won']}, drew {lesson['drew']}, lost {lesson['lost']})."
    page.wait_for(f"document.getElementById('lesson-words').textContent === {json.dumps(words)}")
    assert words in said(page) and page.evaluate("document.getElementById('lesson-progress').hidden")
    # A long one (at least 4 s at its pace): its bar and words move with the board's count, and its button stops it.
    tap(page, "#learner-teach")
    page.wait_for("document.getElementById('teach').open")
    # The dialog keeps the last choice (computer 1): the level chosen again.
    assert page.evaluate("document.getElementById('teach-level').value") == "1"
    page.evaluate("document.getElementById('teach-games').value = '5000'; document.getElementById('teach-level').value = '4'")
    page.click("#teach-yes")
    page.wait_for("page.state.lesson && page.state.lesson.played > 0 && page.state.lesson.end === null")
    with quick.board.frozen():
        shown = page.evaluate("({bar: document.getElementById('lesson-progress').value, max: document.getElementById('lesson-progress').max,"
                              " words: document.getElementById('lesson-words').textContent, played: page.state.lesson.played,"
                              " stop: !document.getElementById('lesson-stop').hidden, teach: !document.getElementById('learner-teach').hidden})")
        assert shown["bar"] == shown["played"] and shown["max"] == 5000 and shown["stop"] and not shown["teach"], shown
        assert shown["words"].startswith(f"Lesson under way: {shown['played']} of 5000 games against computer 4 so far"), shown
        failures = []
        for scheme in SCHEMES:
            width, height, mobile = WIDTHS[0]
            view_as(page, scheme, width, height, mobile)
            failures += [f"{scheme}: axe {rule['id']}: {rule['nodes']}" for rule in run_axe(page)]
        assert not failures, failures
    tap(page, "#lesson-stop")
    state = quick.client.wait_for(lambda s: s["lesson"]["end"] == "stopped", "the lesson stopped")
    played = state["lesson"]["played"]
    assert played < 5000 and state["learner"]["games"] == 100 + played
    page.wait_for("document.getElementById('lesson-words').textContent.startsWith('The lesson was stopped')")
    assert not window_reasons(page), window_reasons(page)


def window_reasons(page):
    return page.evaluate("window.reasons")
