"""The web view's figures (docs/BENCHMARKS.md), on release builds, each against a baseline
measured in the same run:

- page load: navigation start to the first board drawn (the page's `board-drawn` mark), against
  the same page's `load` event (its files, without the WebSocket and the board's state);
- a press with 32 pages open (one real page in Chromium and 31 WebSocket clients that read every
  message): the page's click to the page showing the move, and to the simulated LED lines showing
  it, against the same press sent straight to the board's socket (an API client's press to the
  state that shows it);
- the web view's resident memory with the 32 pages open, and after the presses.

Usage: PROGRAMS=FOLDER python3 browser/bench_page.py [GAMES] [--results FILE]
(make bench runs it on its release build, with --results ../Benchmarks/results/web-page.json, from
which `make docs` writes docs/BENCHMARKS.md's table.)
"""

import http.client
import json
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import websocket

from cdp import Chromium
from served import BIN, ROOT, Board, Web, wait

KEYPAD_ORDER = [7, 8, 9, 4, 5, 6, 1, 2, 3]
GAME = [7, 4, 9, 6, 5, 1, 2, 3, 8]  # nine presses, the last wins for whoever started
PAGES = 32


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def summary(values):
    return {"p50": round(statistics.median(values), 2), "p99": round(percentile(values, 0.99), 2),
            "max": round(max(values), 2), "n": len(values)}


def rss_mb(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Listener:
    """A page that is not a browser: a WebSocket client that reads everything it is sent, from
    an address of its own on loopback (`source`), as another phone would: the server lets one
    address hold only a share of its connections."""

    def __init__(self, url, source):
        host = url.split("//")[1].rstrip("/")
        address, port = host.rsplit(":", 1)
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.settimeout(30)
        connection.bind((source, 0))
        connection.connect((address, int(port)))
        self.socket = websocket.create_connection(
            f"ws://{host}/ws", origin=f"http://{host}", host=host, timeout=30, socket=connection)
        self.received = 0
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        try:
            while True:
                self.socket.recv()
                self.received += 1
        except Exception:
            return

    def close(self):
        self.socket.close()


class BoardClient:
    """The baseline: the board's own API over its socket, a press to the state that shows it."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(str(path))
        self.file = self.socket.makefile("rb")
        self.next_message()  # hello
        self.state = self.next_message()["state"]

    def next_message(self):
        return json.loads(self.file.readline())

    def send(self, command):
        self.socket.sendall((json.dumps(command) + "\n").encode())

    def press_ms(self, cell):
        index = KEYPAD_ORDER.index(cell)
        started = time.perf_counter()
        self.send({"command": "press", "cell": cell})
        while True:
            message = self.next_message()
            if message["type"] == "state" and message["state"]["cells"][index] != "":
                return (time.perf_counter() - started) * 1000

    def new_game(self):
        self.send({"command": "new-game"})
        while True:
            message = self.next_message()
            if message["type"] == "state" and message["state"]["cells"] == [""] * 9:
                return


def page_load(browser, url, rounds=15):
    drawn, loaded = [], []
    page = browser.open(url)
    for _ in range(rounds):
        page.call("Page.reload", {"ignoreCache": True})
        page.wait_for("performance.getEntriesByName('board-drawn').length > 0 && document.readyState === 'complete'")
        timing = page.evaluate("""(() => ({ drawn: performance.getEntriesByName('board-drawn')[0].startTime,
            loaded: performance.getEntriesByType('navigation')[0].loadEventEnd }))()""")
        drawn.append(timing["drawn"])
        loaded.append(timing["loaded"])
    page.call("Page.close")
    return drawn, loaded


def kept_alive(url, path, rounds=40):
    """Each of `rounds` requests for `path` on one kept-alive connection, in ms, and its size: a
    response longer than one piece (16 KiB) went out in two, and before
    TCP_NODELAY the second waited for the client's delayed acknowledgement, 40 ms."""
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    times, size = [], 0
    try:
        for _ in range(rounds):
            started = time.perf_counter()
            connection.request("GET", path)
            response = connection.getresponse()
            size = len(response.read())
            assert response.status == 200, (path, response.status)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        connection.close()
    return times, size


def bench_arguments(default_games):
    """A bench's command line: how many games (`default_games` when not given), the results
    file (`--results FILE`, or None), and the machine's context as the run begins."""
    arguments = sys.argv[1:]
    results = None
    if "--results" in arguments:
        at = arguments.index("--results")
        results = pathlib.Path(arguments[at + 1])
        del arguments[at:at + 2]
    games = int(arguments[0]) if arguments else default_games
    context = json.loads(subprocess.run(["bash", str(ROOT / "scripts" / "bench-context.sh")],
                                        check=True, capture_output=True, text=True).stdout)
    return games, results, context


def report(figures, results):
    """Prints the figures, and writes them to `results` when given."""
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    if results:
        results.parent.mkdir(parents=True, exist_ok=True)
        results.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
        print("results:", results)


def main():
    games, results, context = bench_arguments(12)
    with tempfile.TemporaryDirectory(prefix="tictactoe-bench.") as folder:
        board = Board(folder)
        web = Web(folder, board)
        browser = Chromium(width=390, height=844)
        listeners = []
        try:
            rss_idle = rss_mb(web.process.pid)
            drawn, loaded = page_load(browser, web.url)
            # The largest of the page's files against the smallest, each on a kept-alive connection.
            sizes = {path: (ROOT / "web" / path.lstrip("/")).stat().st_size for path in ("/board.js", "/board.css", "/icon-512.png", "/manifest.webmanifest")}
            largest, smallest = max(sizes, key=sizes.get), min(sizes, key=sizes.get)
            large, large_size = kept_alive(web.url, largest)
            small, small_size = kept_alive(web.url, smallest)

            page = browser.open(web.url)
            page.wait_for("performance.getEntriesByName('board-drawn').length > 0")
            listeners = [Listener(web.url, f"127.0.0.{2 + index}") for index in range(PAGES - 1)]
            # Joined: each has had the web view's message, the board's hello and its state.
            wait(lambda: all(listener.received >= 3 for listener in listeners), f"{PAGES} pages open", timeout=30)
            rss_open = rss_mb(web.process.pid)
            page.evaluate("""(() => { window.shown = [];
                const order = [7, 8, 9, 4, 5, 6, 1, 2, 3];
                document.addEventListener('mousedown', () => { window.clickedAt = performance.now(); }, true);
                // A cell shows a move once its look names a mark: "x", "o-winning", ….
                new MutationObserver((changes) => changes.forEach((change) => {
                  const cell = change.target;
                  if (/^[xo](-|$)/.test(cell.dataset.look) && !cell.dataset.seen) {
                    cell.dataset.seen = '1';
                    window.shown.push(performance.now() - window.clickedAt);
                  }
                })).observe(document.getElementById('board'), { attributes: true, subtree: true, attributeFilter: ['data-look'] });
            })()""")
            on_page, on_leds = [], []
            for _ in range(games):
                for cell in GAME:
                    index = KEYPAD_ORDER.index(cell)
                    clicked = time.monotonic() * 1000
                    page.click(f'.cell[data-cell="{cell}"]')
                    try:
                        page.wait_for(f"window.shown.length === {len(on_page) + 1}")
                    except Exception:
                        print("the page said:", page.evaluate("[...document.querySelectorAll('#said p')].map((p) => p.textContent)"), file=sys.stderr)
                        raise
                    on_page.append(page.evaluate(f"window.shown[{len(on_page)}]"))
                    # Who moved: the starter alternates from game to game.
                    is_x = page.evaluate(f"document.querySelector('.cell[data-cell=\"{cell}\"]').dataset.look.startsWith('x')")
                    colour = "red" if is_x else "green"
                    seen = wait(lambda: [r for r in board.leds(clicked) if r["cells"][index] == colour],
                                "the LEDs to show the press")
                    on_leds.append(seen[0]["ms"] - clicked)
                page.evaluate("document.querySelectorAll('.cell').forEach((c) => delete c.dataset.seen)")
                # A page may send ten commands in any second (a sliding window): this game's nine
                # presses and the page's own history request, sent as the game ended, fill it.
                # The next game's new game and nine presses may all go once the last of those is
                # a second old; waiting a second from the game's start instead refused a press
                # whenever a game took longer than a tenth of a second and the next one went fast.
                time.sleep(1.2)
                page.click("#new-game")
                page.wait_for("[...document.querySelectorAll('.cell')].every((c) => c.dataset.look === 'empty')")
                # And the new game's command out of the window too: the page also sends commands of
                # its own (the history, asked again when the board refuses it as too many).
                time.sleep(1.1)
            rss_after = rss_mb(web.process.pid)

            client = BoardClient(board.socket)
            direct = []
            for _ in range(games):
                for cell in GAME:
                    direct.append(client.press_ms(cell))
                client.new_game()
            figures = {
                "measured": context,
                "pages": PAGES,
                "presses": len(on_page),
                # Times in ms: p50, p99, the slowest and how many.
                "page-load": summary(drawn),
                "page-load-baseline": summary(loaded),
                "click-to-page": summary(on_page),
                "click-to-leds": summary(on_leds),
                "api-press": summary(direct),
                "largest-file": dict(summary(large), path=largest, bytes=large_size),
                "smallest-file": dict(summary(small), path=smallest, bytes=small_size),
                "memory-mb": {"idle": round(rss_idle, 1), "pages-open": round(rss_open, 1),
                              "after-presses": round(rss_after, 1)},
                "fewest-messages-a-listener-read": min(listener.received for listener in listeners),
            }
            report(figures, results)
        finally:
            for listener in listeners:
                listener.close()
            browser.close()
            web.stop()
            board.stop()


if __name__ == "__main__":
    main()
