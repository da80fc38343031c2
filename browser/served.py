"""The simulated board (`tictactoe simulate --serve`, its LEDs seen by `--leds`) and the web
view (`tictactoe-web`), both built from this tree, run as a user runs them: for the page's tests
and its benchmark."""

import json
import os
import pathlib
import signal
import subprocess
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
    `wrapper` is a command to run it under (strace, for the storage suite)."""

    def __init__(self, folder, wrapper=()):
        self.folder = pathlib.Path(folder)
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
             "--leds", self.leds_file],
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


class Web:
    """tictactoe-web on a free port of loopback."""

    def __init__(self, folder, board, allow="play"):
        assert (BIN / "tictactoe-web").exists(), f"{BIN / 'tictactoe-web'} is missing: build it first"
        self.log = pathlib.Path(folder) / "web.log"
        self.process = subprocess.Popen(
            [BIN / "tictactoe-web", "--socket", board.socket, "--listen", "127.0.0.1:0", "--allow", allow,
             "--page", ROOT / "web", "--config", ROOT / "Hardware" / "tictactoe.toml"],
            stdout=subprocess.PIPE, stderr=open(self.log, "wb"), text=True)
        line = self.process.stdout.readline()
        assert "the board's page is at " in line, line + self.log.read_text()
        self.url = line.split("the board's page is at ")[1].split()[0]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=30) == 0, self.log.read_text()
