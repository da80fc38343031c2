"""Power cuts at random instants, machine level: the arm64 appliance (the package installed with
apt, run by systemd, played through gpio-sim) reset by QEMU (`system_reset`: no sync, the page
cache lost, whatever the guest was doing) at seeded random instants, while it plays, while the
service restarts, and during boot as the service starts. After each cut the VM boots again and
vm/appliance/power-cuts.sh reports what came back; this side judges, knowing which of the
guest's lines it had read when it cut. A cut in the middle of an apt upgrade may leave dpkg's
work for `dpkg --configure -a` (which the guest then runs, as dpkg asks; a package cut mid-unpack
is left half-installed, which only running the install again finishes); any other cut must leave
nothing to repair, and after every cut the board runs by itself.

POWER_CUTS (8) cuts are made; POWER_CUT_SEED chooses the instants (printed, to replay a run)."""

import json
import os
import pathlib
import random
import socket
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "test-results" / "power-cuts"
CUTS = int(os.environ.get("POWER_CUTS", "8"))
SEED = int(os.environ.get("POWER_CUT_SEED", str(random.SystemRandom().randrange(1, 1 << 30))))
# A guest that does not answer in this long after a cut has not come back.
ROUND_LIMIT_S = 600
# An upgrade's cut comes at most this long after apt starts, until the guest has reported how
# long an upgrade it finished took; then at most that long.
UPGRADE_S = 30.0


class Console:
    """The VM's console log, read as it grows: the "@@" records, and the instant each was read."""

    def __init__(self, path):
        self.path, self.offset, self.buffer, self.records = path, 0, b"", []

    def read(self):
        if not self.path.exists():
            return
        with open(self.path, "rb") as log:
            log.seek(self.offset)
            chunk = log.read()
        self.offset += len(chunk)
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        now = time.monotonic()
        for line in complete:
            text = line.decode("utf-8", "replace").strip()
            # A line may start with what a boot's terminal resets left on the console.
            text = text[text.find("@@"):] if "@@" in text else ""
            if text.startswith("@@ {"):
                self.records.append((now, json.loads(text[3:])))
            elif text == "@@H cut-window":
                self.records.append((now, {"scenario": "cue"}))


class Monitor:
    """QEMU's human monitor on a Unix socket."""

    def __init__(self, path):
        self.path = path

    def send(self, command):
        deadline = time.monotonic() + 60
        while not self.path.exists():
            assert time.monotonic() < deadline, "QEMU's monitor socket never appeared"
            time.sleep(0.2)
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(str(self.path))
            connection.settimeout(10)
            connection.recv(4096)  # the banner
            connection.sendall(command.encode() + b"\n")
            time.sleep(0.2)


class Judge:
    """What the board may restore after a cut: one of the states it showed since the last state
    it was seen to restore (or the one a press under way makes: it may be shown and saved before
    the guest sees it), and never one older than the last reported on disk."""

    def __init__(self):
        self.shown, self.durable = [], 0

    def window(self, cells):
        if not self.shown or self.shown[-1] != cells:
            self.shown.append(cells)
        self.durable = len(self.shown) - 1

    def show(self, cells):
        if self.shown[-1] != cells:
            self.shown.append(cells)

    def made_durable(self, cells):
        assert cells in self.shown, (cells, self.shown)
        self.durable = max(self.durable, len(self.shown) - 1 - self.shown[::-1].index(cells))

    def restored(self, cells):
        """Checks a restore; returns the states lost (shown, not yet reported on disk)."""
        assert cells in self.shown[self.durable:], \
            f"restored {cells}; allowed {self.shown[self.durable:]} (shown since the last restore: {self.shown})"
        lost = self.shown[len(self.shown) - 1 - self.shown[::-1].index(cells) + 1:]
        self.shown, self.durable = [cells], 0
        return lost


def test_power_cuts_at_random_instants_lose_nothing_on_disk(tmp_path):
    rng = random.Random(SEED)
    print(f"\npower cuts: {CUTS}, seed {SEED} (POWER_CUT_SEED={SEED} replays the instants)")
    console_path, monitor_path = tmp_path / "console.log", tmp_path / "monitor.sock"
    environment = dict(os.environ, APPLIANCE_POWER_CUTS=str(SEED), APPLIANCE_MONITOR=str(monitor_path),
                       APPLIANCE_CONSOLE=str(console_path), APPLIANCE_LIMIT=str(900 + 240 * CUTS),
                       APPLIANCE_WEB_PORT=str(free_port()))
    suite = subprocess.Popen(["bash", str(ROOT / "vm" / "appliance" / "run-suite.sh")], env=environment,
                             stdout=subprocess.PIPE, text=True)
    console, monitor, judge = Console(console_path), Monitor(monitor_path), Judge()
    cuts, restores = [], []
    state = {"seen": 0, "kind": None, "due": None}

    def handle(when, what):
        scenario = what["scenario"]
        if scenario == "power-cuts-installed":
            assert what["status"] == 0 and what["active"] == "active", what
            judge.window(".........")
        elif scenario == "after-cut":
            lost = judge.restored(what["cells"])
            restores.append({"after_cut": len(cuts), "cut": cuts[-1]["kind"], "cells": what["cells"], "lost": lost,
                             "waited_s": what["waited_s"], "ext4": what["ext4"], "journal": what["journal"],
                             "by_itself": what["by_itself"], "dpkg_audit": what["dpkg_audit"],
                             "repair": what["repair"], "version": what["version"]})
            assert what["active"] == "active", ("the service is not running", what)
            assert what["repair"] in ("none", "configure", "configure+reinstall"), ("dpkg's work was left unfinished", what)
            if cuts[-1]["kind"] != "upgrade":
                assert what["by_itself"] == "active", ("the service did not come back by itself", what)
                assert what["repair"] == "none", ("dpkg had work left though no package was being changed", what)
            assert what["ext4_errors"] == 0, what
            assert what["set_aside"] == 0, ("a state file was found corrupt", what)
            assert what["leftovers"] == 0, ("a temporary file outlived the start", what)
            assert what["check_state"] == 0, ("check-state found a file the board could not use", what)
            assert "restored the saved game" in what["journal"] or what["cells"] == ".........", what
            if state["due"] and state["due"][1] == "during boot":
                state["due"] = None  # the boot was quicker than the instant drawn: no cut in it
        elif scenario == "cut-window":
            judge.window(what["cells"])
            state["kind"] = what["kind"]
            state["finished"] = False
        elif scenario in ("restarted", "upgraded"):
            state["finished"] = True
            assert what.get("status", 0) == 0, ("the upgrade failed", what)
            if scenario == "upgraded":
                state["upgrade_s"] = what["ms"] / 1000
        elif scenario in ("tap", "new-game"):
            judge.show(what["next"])  # shown, perhaps saved, before the guest sees it
        elif scenario == "shown":
            judge.show(what["cells"])
        elif scenario == "durable":
            judge.show(what["cells"])
            judge.made_durable(what["cells"])
        elif scenario == "cue" and len(cuts) < CUTS:
            delay = {"play": rng.uniform(0.3, 8.0), "restart": rng.uniform(0.0, 4.0),
                     "upgrade": rng.uniform(0.0, state.get("upgrade_s", UPGRADE_S))}.get(state["kind"], 0.0)
            state["due"] = (when + delay, state["kind"], when)

    def read():
        console.read()
        while state["seen"] < len(console.records):
            state["seen"] += 1
            handle(*console.records[state["seen"] - 1])

    try:
        deadline = time.monotonic() + ROUND_LIMIT_S * 2
        while len(cuts) < CUTS or not restores or restores[-1]["after_cut"] < len(cuts):
            # Every line read so far happened before a cut made now: the judge has taken them in.
            read()
            if state["due"] and time.monotonic() >= state["due"][0]:
                _, kind, window = state["due"]
                state["due"] = None
                monitor.send("system_reset")
                cuts.append({"kind": kind, "after_window_s": round(time.monotonic() - window, 2),
                             "states_shown": len(judge.shown), "durable": judge.durable,
                             "finished_before": state.get("finished", False)})
                if kind == "boot" and len(cuts) < CUTS:
                    # Again during the boot that follows: the kernel, systemd, the service's start.
                    state["due"] = (time.monotonic() + rng.uniform(3.0, 25.0), "during boot", time.monotonic())
                deadline = time.monotonic() + ROUND_LIMIT_S
            assert suite.poll() is None, "the VM ended before the power cuts did"
            assert time.monotonic() < deadline, f"nothing from the VM for {ROUND_LIMIT_S} s; last: {console.records[-3:]}"
            time.sleep(0.05)
        monitor.send("quit")
    finally:
        if suite.poll() is None:
            try:
                monitor.send("quit")
            except (OSError, AssertionError):
                suite.kill()
        suite.wait(timeout=120)
        RESULTS.mkdir(parents=True, exist_ok=True)
        summary = {"seed": SEED, "cuts": cuts, "restores": restores}
        (RESULTS / "power-cuts.json").write_text(json.dumps(summary, indent=2) + "\n")
        if console_path.exists():
            (RESULTS / "console.log").write_bytes(console_path.read_bytes())
    lost = sum(len(r["lost"]) for r in restores)
    upgrades = [c for c in cuts if c["kind"] == "upgrade"]
    print(f"power cuts made: {len(cuts)} ({', '.join(c['kind'] for c in cuts)}); restores checked: {len(restores)}; "
          f"states lost (shown, their save not yet reported on disk): {lost}; "
          f"ext4 journal replays: {sum('recovery complete' in r['ext4'] for r in restores)}; file system repairs: 0; "
          f"cuts during an apt upgrade: {sum(not c['finished_before'] for c in upgrades)} of {len(upgrades)}, "
          f"dpkg --configure -a needed after {sum(r['repair'] != 'none' for r in restores)} "
          f"(and the install run again after {sum(r['repair'] == 'configure+reinstall' for r in restores)})")
    assert len(cuts) == CUTS and len(restores) >= 1


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
