"""The simulated board (`tictactoe simulate --serve`, its LEDs seen by `--leds`) and the web
view (`tictactoe-web`), both built from this tree, run as a user runs them: for the page's tests
and its benchmark."""

import contextlib
import json
import os
import pathlib
import queue
import signal
import socket
import subprocess
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def binaries():
    """The built programs' folder: PROGRAMS if set (make bench: the release build with a static
    Swift standard library, as the packages ship it), else this tree's debug build."""
    if os.environ.get("PROGRAMS"):
        folder = pathlib.Path(os.environ["PROGRAMS"]).resolve()
    else:
        swift = os.environ.get("SWIFT", "swift")
        folder = pathlib.Path(subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, check=True,
                                             capture_output=True, text=True).stdout.strip())
    assert (folder / "tictactoe").exists(), f"{folder / 'tictactoe'} is missing: build it first"
    return folder


BIN = binaries()


def wait(predicate, what, timeout=15):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.02)


class Board:
    """The simulated board, headless, serving its API; restartable on the same socket and state.
    `wrapper` is a command to run it under (strace, for the storage suite); `arguments` are
    more of simulate's options (`--idle-sleep 10`)."""

    def __init__(self, folder, wrapper=(), arguments=()):
        self.folder = pathlib.Path(folder)
        self.arguments = [str(argument) for argument in arguments]
        self.socket = self.folder / "board.sock"
        self.leds_file = self.folder / "leds.jsonl"
        self.state_dir = self.folder / "state"
        self.log = self.folder / "board.log"
        self.process = None
        self.start(wrapper)

    def start(self, wrapper=()):
        self.wrapped = bool(wrapper)
        # A killed board's socket stays behind: its presence must not pass for the new one's.
        self.socket.unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [*wrapper, BIN / "tictactoe", "simulate", "--serve", self.socket, "--state-dir", self.state_dir,
             "--leds", self.leds_file, *self.arguments],
            stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        wait(lambda: self.socket.exists() or self.process.poll() is not None, "the board's socket")
        assert self.process.poll() is None, self.log.read_text()

    @property
    def pid(self):
        """The board's process: the one started, or, under a wrapper, its child."""
        if not self.wrapped:
            return self.process.pid
        children = pathlib.Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        # A wrapper that runs the board in its own place (setpriv) is the board.
        return int(children[0]) if children else self.process.pid

    def stop(self):
        os.kill(self.pid, signal.SIGTERM)
        assert self.process.wait(timeout=30) == 0, self.log.read_text()

    @contextlib.contextmanager
    def frozen(self):
        """The board stopped (SIGSTOP) while the block runs: its timers (the refused flash, the
        computer's thinking, the choice of opponent shown) wait, so that what it last sent stays
        on the page for as long as a test looks."""
        os.kill(self.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(self.pid, signal.SIGCONT)

    def status(self):
        result = subprocess.run([BIN / "tictactoe", "status", "--json", "--socket", self.socket],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)["state"]

    def leds(self, since=0):
        """What the eye saw, as it changed: (ms, cells, x, o) from `since` (monotonic ms) on."""
        seen = []
        for line in self.leds_file.read_text().splitlines():
            if line.endswith("}"):
                record = json.loads(line)
                if record["ms"] >= since:
                    seen.append(record)
        return seen


class Client:
    """A client of the board's socket, as `tictactoe press` is: its commands, each answered in
    turn, and every state the board sent it, in order (read as they come, on a thread)."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(str(path))
        self.file = self.socket.makefile("rb")
        self.states = []
        self.replies = queue.Queue()
        self.arrived = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        wait(lambda: self.states, "the board's first state")

    def _read(self):
        for line in self.file:
            message = json.loads(line)
            if message["type"] == "state":
                with self.arrived:
                    self.states.append(message["state"])
                    self.arrived.notify_all()
            elif message["type"] != "hello":
                self.replies.put(message)

    def command(self, command, **arguments):
        """The board's answer (`ok` or `error`) to a command; its state has come before it."""
        self.socket.sendall((json.dumps({"command": command, **arguments}) + "\n").encode())
        return self.replies.get(timeout=30)

    def press(self, cell):
        return self.command("press", cell=cell)

    @property
    def latest(self):
        with self.arrived:
            return self.states[-1]

    def wait_for(self, predicate, what, timeout=30):
        """The latest state, once `predicate` holds for it."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while not predicate(self.states[-1]):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"waited {timeout} s for {what}; the board shows {self.states[-1]}")
                self.arrived.wait(left)
            return self.states[-1]

    def close(self):
        self.socket.close()


class Web:
    """tictactoe-web on a free port of loopback, serving the page in `page` (this tree's)."""

    def __init__(self, folder, board, allow="play", page=ROOT / "web", boards_file=None):
        # The list of every board the page's boards view reads: one a test may write, by default.
        self.boards_file = pathlib.Path(folder) / "boards.json" if boards_file is None else boards_file
        assert (BIN / "tictactoe-web").exists(), f"{BIN / 'tictactoe-web'} is missing: build it first"
        self.log = pathlib.Path(folder) / "web.log"
        self.process = subprocess.Popen(
            [BIN / "tictactoe-web", "--socket", board.socket, "--listen", "127.0.0.1:0", "--allow", allow,
             "--page", page, "--config", ROOT / "Hardware" / "tictactoe.toml", "--boards-file", self.boards_file],
            stdout=subprocess.PIPE, stderr=open(self.log, "wb"), text=True)
        line = self.process.stdout.readline()
        assert "the board's page is at " in line, line + self.log.read_text()
        self.url = line.split("the board's page is at ")[1].split()[0]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=30) == 0, self.log.read_text()
