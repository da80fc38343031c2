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
    """The built programs' folder: the debug build, or BUILD_CONFIGURATION's (release for the
    benchmark)."""
    swift = os.environ.get("SWIFT", "swift")
    configuration = os.environ.get("BUILD_CONFIGURATION", "debug")
    folder = pathlib.Path(subprocess.run([swift, "build", "-c", configuration, "--show-bin-path"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout.strip())
    for name in ("tictactoe", "tictactoe-web"):
        assert (folder / name).exists(), f"{folder / name} is missing: build it ({configuration}) first"
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
    """The simulated board, headless, serving its API; restartable on the same socket and state."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.socket = self.folder / "board.sock"
        self.leds_file = self.folder / "leds.jsonl"
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [BIN / "tictactoe", "simulate", "--serve", self.socket, "--state-dir", self.folder / "state",
             "--leds", self.leds_file],
            stdout=open(self.folder / "board.log", "ab"), stderr=subprocess.STDOUT)
        wait(lambda: self.socket.exists() or self.process.poll() is not None, "the board's socket")
        assert self.process.poll() is None, (self.folder / "board.log").read_text()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=30) == 0, (self.folder / "board.log").read_text()

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
