"""Two boards, one game, measured (docs/BENCHMARKS.md), on release builds, against a baseline
measured in the same run:

- a press on one board, sent to its socket, to the other board's simulated LED lines showing the
  mark: board, link, broker (mosquitto on loopback, with passwords and the access list), the other
  link and the other board; against the broker's own round trip (a message published and heard
  back by one client of the same broker, as the boards' users are), and against the same press
  to the LED lines of the board it was made on; the presses a quick player's, at most one each
  150 ms;
- each link's resident memory after the games;
- a hundred boards on the broker (each its own user, publishing its state as a board's link
  does): the processor time a link spends on each of their states (it reads every board's, for
  the boards its board offers), against its time for each press of its own game in the same run,
  and its resident memory with them;
- the page's boards view of them (the web view reading the kitchen's link's list, a page showing
  the view): the lists a second the page is sent while the hundred send 500 states a second, how
  long after the last state the page shows it, the web view's processor time for each list sent
  and its resident memory, against its memory before the view was opened.

Usage: PROGRAMS=FOLDER python3 browser/bench_network.py [GAMES] [--results FILE]
(make bench runs it on its release build, with --results ../Benchmarks/results/network.json.)
"""

import base64
import json
import os
import pathlib
import socket
import struct
import subprocess
import tempfile
import threading
import time

from bench_page import bench_arguments, report, rss_mb, summary
from served import BIN, ROOT, Board, Client, Web, wait

KEYPAD_ORDER = [7, 8, 9, 4, 5, 6, 1, 2, 3]
# X and O alternate from the inviting board; seven presses, X's last wins along 2-5-8.
GAME = [5, 1, 9, 3, 2, 7, 8]
# The shortest time between two presses, as a quick player's.
PACE_MS = 150


def password(user):
    return user[::-1]


class Broker:
    """Debian's mosquitto on a loopback port, with a password for each user (its name reversed)
    and the committed access list."""

    def __init__(self, folder, users):
        self.folder = pathlib.Path(folder)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        passwords = self.folder / "passwords"
        passwords.write_text("")
        for user in users:
            subprocess.run(["mosquitto_passwd", "-b", passwords, user, password(user)], check=True)
        config = self.folder / "mosquitto.conf"
        config.write_text(("user root\n" if subprocess.os.getuid() == 0 else "") + "\n".join([
            "per_listener_settings false", "allow_anonymous false", f"password_file {passwords}",
            f"acl_file {ROOT / 'Hardware/mosquitto/tictactoe.acl'}", "persistence false", "log_dest stderr",
            f"listener {self.port} 127.0.0.1", ""]))
        self.process = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: self.accepts(), "the broker")

    def accepts(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


class MQTT:
    """Just enough MQTT 3.1.1 for the baseline: connect, subscribe, publish at QoS 0, read."""

    def __init__(self, port, user):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        payload = self.text(f"bench-{user}-{time.monotonic_ns()}") + self.text(user) + self.text(password(user))
        self.send(0x10, self.text("MQTT") + bytes([4, 0xC2]) + struct.pack(">H", 60) + payload)
        assert self.read() == (0x20, b"\x00\x00"), "the broker refused the connection"

    @staticmethod
    def text(value):
        data = value.encode()
        return struct.pack(">H", len(data)) + data

    def send(self, header, body):
        length, encoded = len(body), b""
        while True:
            byte, length = length % 128, length // 128
            encoded += bytes([byte | (0x80 if length else 0)])
            if not length:
                break
        self.socket.sendall(bytes([header]) + encoded + body)

    def exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.socket.recv(count - len(data))
            assert chunk, "the broker closed the connection"
            data += chunk
        return data

    def read(self):
        header = self.exactly(1)[0]
        length, shift = 0, 0
        while True:
            byte = self.exactly(1)[0]
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        return header & 0xF0, self.exactly(length)

    def subscribe(self, topic):
        self.send(0x82, struct.pack(">H", 1) + self.text(topic) + b"\x00")
        assert self.read()[0] == 0x90

    def publish(self, topic, payload, retain=False):
        self.send(0x31 if retain else 0x30, self.text(topic) + payload)

    def round_trip_ms(self, topic, payload):
        start = time.monotonic()
        self.publish(topic, payload)
        while True:
            kind, body = self.read()
            if kind == 0x30 and body.endswith(payload):
                return (time.monotonic() - start) * 1000


def link(folder, board, broker, name):
    """The board's link to the broker, as its service runs it: the board's user and password."""
    folder = pathlib.Path(folder) / f"link-{name}"
    folder.mkdir()
    (folder / "password").write_text(password(name) + "\n")
    (folder / "tictactoe.toml").write_text(
        f'[network]\nbroker = "127.0.0.1:{broker.port}"\nname = "{name}"\nuser = "{name}"\npassword-file = "{folder}/password"\n')
    return subprocess.Popen([BIN / "tictactoe-network", "--socket", board.socket, "--config", folder / "tictactoe.toml",
                             "--boards-file", folder / "boards.json"],
                            stdout=open(folder / "log", "wb"), stderr=subprocess.STDOUT)


class PageSocket:
    """A page's WebSocket to the web view, as the page opens it: just enough to send a command and
    read the text messages sent back (the server's frames are not masked, the client's are)."""

    def __init__(self, url):
        host = url.split("//")[1].rstrip("/")
        address, port = host.rsplit(":", 1)
        self.socket = socket.create_connection((address, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nConnection: Upgrade\r\n"
                             f"Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n").encode())
        self.pending = b""
        while b"\r\n\r\n" not in self.pending:
            self.pending += self.socket.recv(4096)
        head, self.pending = self.pending.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, message):
        data, mask = json.dumps(message).encode(), os.urandom(4)
        assert len(data) < 126
        self.socket.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(byte ^ mask[i % 4] for i, byte in enumerate(data)))

    def _exactly(self, count):
        while len(self.pending) < count:
            chunk = self.socket.recv(65536)
            assert chunk, "the web view closed the page's connection"
            self.pending += chunk
        data, self.pending = self.pending[:count], self.pending[count:]
        return data

    def next(self):
        """The next text message, decoded."""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._exactly(8))[0]
            payload = self._exactly(length)
            if first & 0x0F == 0x1:
                return json.loads(payload)


def cpu_seconds(pid):
    """The processor time `pid` has used, all its threads (the link's loop and its MQTT client's),
    to the nanosecond (the scheduler's own count: /proc/PID/stat's clock ticks are 10 ms)."""
    tasks = pathlib.Path(f"/proc/{pid}/task")
    return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks.iterdir()) / 1e9


HUNDRED = [f"board-{n}" for n in range(1, 101)]
# A state as a board's link publishes it: X to move against the computer, each change a draw more.
STATE = ('{{"state":{{"asleep":false,"boardsSeen":[],"cells":["X","","","","O","","","",""],"flashing":null,"headline":"x-to-move",'
         '"looks":[],"names":{{"o":null,"x":null}},"opponent":"{opponent}","outcome":"playing","scores":{{"computer-3":{{"draws":{draws},'
         '"oWins":1,"xWins":0}}}},"starter":"X","thinking":false,"turn":"X","winningLines":[]}},"type":"state"}}')


# How often each of the hundred changes its state: a quick player's every press, all at once.
CHANGES_PER_SECOND = 5


def boards_view_reader(page, record):
    """Reads the page's boards lists into `record` (each with the time it came), until the page's
    connection ends."""
    try:
        while True:
            message = page.next()
            if message.get("type") == "boards":
                record.append((time.monotonic(), message))
    except (AssertionError, OSError):
        pass


def hundred_boards(broker, link_process, board, log, web, changes=20):
    """The hundred boards come online, then each changes its state `changes` times at
    CHANGES_PER_SECOND (500 states a second in all), the last of them inviting the kitchen: the
    kitchen's link's processor time for each state, until its board offers the sixteen first by
    name (it then has read them all: they come in order); its memory then, and the messages its
    inbox had no room for (its log says)."""
    clients = [MQTT(broker.port, name) for name in HUNDRED]
    page, lists = PageSocket(web.url), []
    web_memory_before = rss_mb(web.process.pid)
    page.send({"command": "boards", "watch": True})
    reader = threading.Thread(target=boards_view_reader, args=(page, lists), daemon=True)
    reader.start()
    web_before = cpu_seconds(web.process.pid)
    before = cpu_seconds(link_process.pid)
    for name, client in zip(HUNDRED, clients):
        client.publish(f"tictactoe/{name}/presence", b"online", retain=True)
    first_state = time.monotonic()
    for change in range(changes):
        started = time.monotonic()
        for name, client in zip(HUNDRED, clients):
            opponent = "board:kitchen" if change == changes - 1 else "computer-3"
            client.publish(f"tictactoe/{name}/state", STATE.format(opponent=opponent, draws=change).encode(), retain=True)
        last_published = time.monotonic()
        time.sleep(max(0, 1 / CHANGES_PER_SECOND - (time.monotonic() - started)))
    flood = (first_state, last_published)
    expected = sorted(HUNDRED)[:16]
    wait(lambda: [seen["board"] for seen in board.status().get("boardsSeen") or [] if seen["invites"]] == expected,
         "the kitchen to offer the sixteen that invite it", timeout=60)
    spent = cpu_seconds(link_process.pid) - before
    # The page shows the last state of all hundred: each invites the kitchen.
    wait(lambda: lists and sum(1 for b in lists[-1][1]["boards"] if b.get("opponent") == "board:kitchen") == len(HUNDRED),
         "the page's boards view to show the hundred's last states", timeout=60)
    shown = next(when for when, message in lists if sum(1 for b in message["boards"] if b.get("opponent") == "board:kitchen") == len(HUNDRED))
    web_spent = cpu_seconds(web.process.pid) - web_before
    during = [message for when, message in lists if flood[0] <= when <= flood[1]]
    view = {"lists-per-second": round(len(during) / (flood[1] - flood[0]), 1), "boards-listed": len(lists[-1][1]["boards"]),
            "list-bytes": len(json.dumps(lists[-1][1], separators=(",", ":"))),
            "last-state-shown-ms": round((shown - flood[1]) * 1000), "web-cpu-us-per-list": round(web_spent * 1e6 / len(lists), 1),
            "web-memory-mb": round(rss_mb(web.process.pid), 1), "web-memory-before-mb": round(web_memory_before, 1)}
    page.socket.close()
    for client in clients:
        client.socket.close()
    # Its overflows are logged apart from other drops, the first at once: none logged is none.
    lines = [line for line in pathlib.Path(log).read_text().splitlines() if "the link's inbox had no room for" in line]
    dropped = sum(int(line.split("dropped ")[1].split()[0]) + (int(line.split("(and ")[1].split()[0]) if "(and " in line else 0)
                  for line in lines)
    return {"boards": len(HUNDRED), "states": len(HUNDRED) * changes, "states-per-second": len(HUNDRED) * CHANGES_PER_SECOND,
            "link-cpu-us-per-state": round(spent * 1e6 / (len(HUNDRED) * changes), 1), "link-memory-mb": round(rss_mb(link_process.pid), 1),
            "dropped": dropped, "boards-view": view}


def here(board):
    other = board.status().get("otherBoard") or {}
    return other.get("here") is True


def main():
    games, results, context = bench_arguments(20)
    with tempfile.TemporaryDirectory(prefix="tictactoe-bench.") as folder:
        broker = Broker(folder, ["kitchen", "attic"] + HUNDRED)
        for name in ("kitchen", "attic"):
            (pathlib.Path(folder) / name).mkdir()
        kitchen, attic = Board(pathlib.Path(folder) / "kitchen"), Board(pathlib.Path(folder) / "attic")
        links = [link(folder, kitchen, broker, "kitchen"), link(folder, attic, broker, "attic")]
        try:
            clients = {"kitchen": Client(kitchen.socket), "attic": Client(attic.socket)}
            assert clients["kitchen"].command("opponent", opponent="board:attic")["type"] == "ok"
            assert clients["attic"].command("opponent", opponent="board:kitchen:x")["type"] == "ok"
            wait(lambda: here(kitchen) and here(attic), "the two boards to hear each other", timeout=30)
            # The choice of opponent shows for a moment (the other board's mark across the middle
            # row, lit as a mark would be): the first press waits it out, so that only the move
            # can light the cell it watches.
            wait(lambda: all(board.status()["headline"] != "choosing-opponent" for board in (kitchen, attic)), "the choice to be shown", timeout=30)
            boards = {"kitchen": kitchen, "attic": attic}
            across, own = [], []
            games_cpu = cpu_seconds(links[0].pid)
            for game in range(games):
                # Game n of the pairing: X (the kitchen) starts the odd ones, O (the attic) the even ones.
                starter, other = ("kitchen", "attic") if game % 2 == 0 else ("attic", "kitchen")
                for move, cell in enumerate(GAME):
                    mover, watcher = (starter, other) if move % 2 == 0 else (other, starter)
                    colour = "red" if mover == "kitchen" else "green"
                    index = KEYPAD_ORDER.index(cell)
                    pressed = time.monotonic() * 1000
                    answer = clients[mover].command("press", cell=cell)
                    assert answer["type"] == "ok", answer
                    seen = wait(lambda: [r for r in boards[watcher].leds(pressed) if r["cells"][index] == colour],
                                "the other board's LEDs to show the press", timeout=30)
                    across.append(seen[0]["ms"] - pressed)
                    # The same press on the board it was made on: what the network adds is the rest.
                    mine = wait(lambda: [r for r in boards[mover].leds(pressed) if r["cells"][index] == colour],
                                "its own board's LEDs to show the press", timeout=30)
                    own.append(mine[0]["ms"] - pressed)
                    # A quick player's pace: the link passes the other board's changes at most ten
                    # a second, and holds the latest beyond (a flood's cost), which is not what is
                    # measured here.
                    time.sleep(max(0, PACE_MS - (time.monotonic() * 1000 - pressed)) / 1000)
                # The next game of the pairing, started on the board that lost.
                answer = clients[other].command("new-game")
                assert answer["type"] == "ok", answer
                wait(lambda: all(len(board.status()["otherBoard"]["moves"]) == 0 and board.status()["otherBoard"]["game"] == game + 2
                                 for board in boards.values()), "the next game on both boards", timeout=30)
            games_cpu = cpu_seconds(links[0].pid) - games_cpu
            memory = [round(rss_mb(process.pid), 1) for process in links]
            web = Web(folder, kitchen, boards_file=pathlib.Path(folder) / "link-kitchen" / "boards.json")
            try:
                hundred = hundred_boards(broker, links[0], kitchen, pathlib.Path(folder) / "link-kitchen" / "log", web)
            finally:
                web.stop()
            hundred["link-cpu-us-per-press"] = round(games_cpu * 1e6 / len(across), 1)
            client = MQTT(broker.port, "kitchen")
            client.subscribe("tictactoe/kitchen/bench")
            baseline = [client.round_trip_ms("tictactoe/kitchen/bench", f"round trip {n}".encode()) for n in range(len(across))]
            figures = {
                "measured": context,
                "games": games,
                "presses": len(across),
                # Times in ms: p50, p99, the slowest and how many.
                "press-to-other-leds": summary(across),
                "press-to-own-leds": summary(own),
                "broker-round-trip": summary(baseline),
                "link-memory-mb": memory,
                "hundred-boards": hundred,
            }
            report(figures, results)
        finally:
            for process in links:
                process.terminate()
                process.wait(timeout=30)
            kitchen.stop()
            attic.stop()
            broker.stop()


if __name__ == "__main__":
    main()
