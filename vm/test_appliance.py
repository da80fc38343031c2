"""The arm64 appliance, host side: boots Debian 13 arm64 in QEMU's virt machine with the packages
installed by apt (vm/appliance/run-suite.sh) and asserts on what the in-VM checks reported. While
the VM runs, a browser here plays on its web view through QEMU's port forward, and a press is
published on an MQTT broker here (Debian's mosquitto, with passwords and the committed access
list) for the VM's link to play (the VM says when, and reports what its LED lines showed); then a
simulated board here, with its own link on that broker, plays a whole game against the VM's."""

import http.client
import json
import secrets
import pathlib
import shutil
import re
import socket
import subprocess
import sys
import os
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "browser"))
from cdp import Chromium  # noqa: E402

RESULTS = ROOT / "test-results" / "appliance"
X_CENTRE_O_CORNER = "g . .|. R .|. . .|X:on O:off"
AFTER_THIRD_MOVE = "g . .|. R .|. . R|X:off O:dim"
PAGE_CELLS = """[7, 8, 9, 4, 5, 6, 1, 2, 3].map((n) => {
  const mark = (document.querySelector(`.cell[data-cell="${n}"]`).dataset.look || "").match(/^(?:refused-)?([xo])(?:-|$)/);
  return mark ? mark[1].toUpperCase() : ".";
}).join("")"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_cue(console, cue, suite):
    """Follows the console while the suite runs, until the line `cue`; whether it came."""
    seen = 0
    while suite.poll() is None:
        if console.exists():
            text = console.read_bytes()
            if len(text) < seen:
                seen = 0  # the suite starts the log afresh when the VM boots
            if cue.encode() in text[seen:]:
                return True
            seen = max(0, len(text) - len(cue))
        time.sleep(0.5)
    return False


def answer(port, headers):
    """The status of a GET of the page with these headers, through the port forward."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", "/ws" if "Upgrade" in headers else "/", headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def play_on_the_web_view(port, console, suite):
    """What a browser on this machine saw and did on the VM's page: refusals of a foreign Host
    and a cross-origin WebSocket, the page drawn, the middle cell clicked and its mark shown,
    then, once the VM has sampled its LED lines, the top left corner clicked."""
    seen, browser = {}, None
    host = f"127.0.0.1:{port}"
    try:
        seen["foreign_host"] = answer(port, {"Host": "board.example.com"})
        seen["cross_origin"] = answer(port, {
            "Host": host, "Origin": "http://board.example.com", "Connection": "Upgrade", "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
        browser = Chromium(width=390, height=844)
        page = browser.open(f"http://{host}/")
        page.wait_for("performance.getEntriesByName('board-drawn').length > 0", timeout=120)
        seen["drawn_ms"] = round(page.evaluate("performance.getEntriesByName('board-drawn')[0].startTime"))
        seen["before"] = page.evaluate(PAGE_CELLS)
        seen["turn_before"] = page.evaluate("document.getElementById('turn').textContent")
        clicked = time.monotonic()
        page.click('.cell[data-cell="5"]')
        seen["after_first"] = page.wait_for(f"(() => {{ const c = {PAGE_CELLS}; return c[4] !== '.' ? c : null; }})()", timeout=120)
        seen["first_shown_s"] = round(time.monotonic() - clicked, 2)
        seen["turn"] = page.evaluate("document.getElementById('turn').textContent")
        RESULTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(RESULTS / "web-view-on-arm64.png")
        if not wait_for_cue(console, "@@H first-sampled", suite):
            raise AssertionError("the VM never said it had sampled the first move")
        page.click('.cell[data-cell="7"]')
    except Exception as error:  # reported by the web test; the VM's own checks go on without it
        seen["error"] = repr(error)
    finally:
        if browser:
            browser.close()
    return seen


class Broker:
    """Debian's mosquitto on a loopback port here, as the docs set one up: a password file (the
    VM's board "appliance", the household's "home", a "visitor"), the committed access list; and
    a subscriber (the household's) that keeps every message under tictactoe/ and homeassistant/
    the run sees."""

    def __init__(self, folder):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.port = folder, free_port()
        self.passwords = {user: secrets.token_hex(12) for user in ["appliance", "home", "visitor", "house"]}
        passwords = folder / "passwd"
        passwords.write_text("")
        for user, password in self.passwords.items():
            subprocess.run(["mosquitto_passwd", "-b", str(passwords), user, password], check=True)
        (folder / "mosquitto.conf").write_text(
            ("user root\n" if os.getuid() == 0 else "") +
            f"listener {self.port} 127.0.0.1\nallow_anonymous false\npassword_file {passwords}\n"
            f"acl_file {ROOT / 'Hardware/mosquitto/tictactoe.acl'}\npersistence false\nlog_dest stderr\n"
            "log_type error\nlog_type warning\nlog_type notice\nlog_type subscribe\n")
        self.log = open(folder / "mosquitto.log", "w")
        self.process = subprocess.Popen(["mosquitto", "-c", str(folder / "mosquitto.conf")], stdout=self.log, stderr=self.log)
        self.seen_file = open(folder / "seen.txt", "w")
        self.subscriber = None
        for _ in range(100):  # until it listens; each attempt waits for its connection
            if self.process.poll() is not None:
                raise AssertionError((folder / "mosquitto.log").read_text())
            probe = subprocess.run(self.client("mosquitto_pub", "visitor") + ["-t", "probe/none", "-n"], capture_output=True)
            if probe.returncode == 0:
                break
            time.sleep(0.1)
        self.subscriber = subprocess.Popen(
            # As the household: the access list lets it read Home Assistant's topics too.
            ["stdbuf", "-oL"] + self.client("mosquitto_sub", "home") + ["-v", "-t", "tictactoe/#", "-t", "homeassistant/#"],
            stdout=self.seen_file, stderr=subprocess.STDOUT)

    def client(self, program, user):
        return [program, "-h", "127.0.0.1", "-p", str(self.port), "-u", user, "-P", self.passwords[user]]

    def publish(self, topic, payload, user="home"):
        return subprocess.run(self.client("mosquitto_pub", user) + ["-V", "5", "-t", topic, "-m", payload,
                                                                    "-D", "publish", "correlation-data", "from-the-host"],
                              capture_output=True, text=True, timeout=60)

    def seen(self):
        """(topic, payload) of every message the subscriber has seen so far, in order."""
        lines = (self.folder / "seen.txt").read_text(errors="replace").splitlines()
        return [tuple(line.split(" ", 1)) if " " in line else (line, "") for line in lines]

    def stop(self):
        for process in [self.subscriber, self.process]:
            if process and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
        self.log.close()
        self.seen_file.close()


def play_through_the_broker(broker, console, suite):
    """Once the VM's link is enabled: waits (while the VM runs) for the board to be online and its
    state retained on the broker, then publishes a press of cell 3 as the household would."""
    seen = {}
    if not wait_for_cue(console, "@@H network-ready", suite):
        return {"error": "no network-ready cue"}
    deadline = time.monotonic() + 240  # the VM waits 300 s for the press
    while suite.poll() is None and time.monotonic() < deadline:
        messages = broker.seen()
        if ("tictactoe/appliance/presence", "online") in messages and any(
                topic == "tictactoe/appliance/state" for topic, _ in messages):
            break
        time.sleep(0.5)
    seen["online_before_press"] = ("tictactoe/appliance/presence", "online") in broker.seen()
    # First a user who may not command the board (the access list drops it): had it been played,
    # the press after it would land on an empty board, one mark where the VM waits for three.
    broker.publish("tictactoe/appliance/commands", '{"command":"new-game"}', user="visitor")
    published = broker.publish("tictactoe/appliance/commands", '{"command":"press","cell":3}')
    seen["published"] = (published.returncode, published.stderr)
    return seen


def play_against_the_house(broker, console, suite, port):
    """A simulated board here, "house", with its own link on the broker (as its service runs it),
    plays a whole game against the VM's board once the VM invites it: told of the invitation by
    its link, it joins (playing O) and answers each of X's moves with the next of its own (cells
    2, then 3). Then the VM's page (through the forward) opens its boards view, which the
    installed web view fills from the installed link's list: both boards, the game as it ended.
    The house's link stops after that, which the VM waits for. What it saw, for the test."""
    swift = os.environ.get("SWIFT", "swift")
    for product in ("tictactoe", "tictactoe-network"):
        subprocess.run([swift, "build", "--product", product], cwd=ROOT, check=True, capture_output=True)
    import served  # noqa: E402 (after the build it finds)
    folder = RESULTS / "house"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "link").mkdir(parents=True)
    board = served.Board(folder)
    (folder / "link" / "password").write_text(broker.passwords["house"] + "\n")
    (folder / "link" / "tictactoe.toml").write_text(
        f'[network]\nbroker = "127.0.0.1:{broker.port}"\nname = "house"\nuser = "house"\n'
        f'password-file = "{folder / "link" / "password"}"\n')
    link = subprocess.Popen([served.BIN / "tictactoe-network", "--socket", board.socket, "--config", folder / "link" / "tictactoe.toml",
                             "--boards-file", folder / "link" / "boards.json"],
                            stdout=open(folder / "link" / "log", "wb"), stderr=subprocess.STDOUT)
    seen = {}
    try:
        if not wait_for_cue(console, "@@H remote-game-ready", suite):
            return {"error": "no remote-game-ready cue"}
        client = served.Client(board.socket)
        invited = client.wait_for(lambda s: {"board": "appliance", "invites": True} in (s.get("boardsSeen") or []),
                                  "the appliance's invitation", timeout=300)
        seen["offered"] = invited["boardsSeen"]
        seen["joined"] = client.command("opponent", opponent="board:appliance:x")
        for cell, marks in ((2, 1), (3, 3)):
            client.wait_for(lambda s: s["turn"] == "O" and sum(1 for mark in s["cells"] if mark) == marks,
                            f"X's move number {(marks + 1) // 2}", timeout=300)
            seen[f"pressed {cell}"] = client.press(cell)
        final = client.wait_for(lambda s: s["outcome"] != "playing", "the game's end", timeout=300)
        seen.update(cells=final["cells"], outcome=final["outcome"], score=final["scores"].get("board:appliance:x"))
        client.close()
        try:
            seen["boards-view"] = boards_view(port)
        except Exception as error:  # reported by the test; the VM's own checks go on without it
            seen["boards-view"] = {"error": repr(error)}
    except AssertionError as error:
        seen["error"] = str(error)
    finally:
        link.terminate()
        link.wait(timeout=30)
        board.stop()
        seen["link-log"] = (folder / "link" / "log").read_text(errors="replace")[-2000:]
    return seen


def boards_view(port):
    """The VM's page's boards view once it lists the house's game as it ended: each board's line
    as the page shows it, by name."""
    browser = Chromium(width=390, height=844)
    try:
        page = browser.open(f"http://127.0.0.1:{port}/")
        page.wait_for("performance.getEntriesByName('board-drawn').length > 0", timeout=120)
        page.evaluate("document.querySelector('#boards-view summary').scrollIntoView({block: 'center'})")
        page.click("#boards-view summary")
        page.wait_for("(document.querySelector('#boards-list li[data-board=\"house\"]')?.textContent || '').includes('X won')", timeout=120)
        return page.evaluate("Object.fromEntries([...document.querySelectorAll('#boards-list li')].map((li) => [li.dataset.board, "
                             "[li.querySelector('.board-presence').textContent, li.querySelector('.mini').getAttribute('aria-label'), "
                             "li.querySelector('.board-game').textContent]]))")
    finally:
        browser.close()


@pytest.fixture(scope="module")
def vm():
    console = RESULTS / "console.log"
    RESULTS.mkdir(parents=True, exist_ok=True)
    console.unlink(missing_ok=True)
    port = free_port()
    broker = Broker(RESULTS / "broker")
    try:
        suite = subprocess.Popen(
            ["bash", str(ROOT / "vm" / "appliance" / "run-suite.sh")], stdout=subprocess.PIPE, text=True,
            env={**os.environ, "APPLIANCE_WEB_PORT": str(port), "APPLIANCE_CONSOLE": str(console),
                 "APPLIANCE_BROKER_PORT": str(broker.port), "APPLIANCE_BROKER_PASSWORD": broker.passwords["appliance"]})
        host = play_on_the_web_view(port, console, suite) if wait_for_cue(console, "@@H web-ready", suite) else {"error": "no web-ready cue"}
        network = play_through_the_broker(broker, console, suite)
        house = play_against_the_house(broker, console, suite, port)
        out, _ = suite.communicate(timeout=5400)
        assert suite.returncode == 0, out
        network["messages"] = broker.seen()
    finally:
        broker.stop()
    records, journal, lines, web_journal, network_journal = {}, [], [], [], []
    for line in console.read_text(errors="replace").splitlines():
        # The console may put a terminal reset before the first line of the checks.
        line = line[line.find("@@"):] if "@@" in line else line
        if line.startswith("@@J "):
            journal.append(line[4:])
        elif line.startswith("@@W "):
            web_journal.append(line[4:])
        elif line.startswith("@@N "):
            network_journal.append(line[4:])
        elif line.startswith("@@L "):
            lines.append(line[4:])
        elif line.startswith("@@ "):
            record = json.loads(line[3:])
            records[record["scenario"]] = record
            records.setdefault("every " + record["scenario"], []).append(record)
    records["host"] = host
    records["web-journal"] = web_journal
    records["network-host"] = network
    records["network-journal"] = network_journal
    records["house"] = house
    if "done" not in records:
        print("\n".join(console.read_text(errors="replace").splitlines()[-80:]))
    return records, journal, lines


def test_the_checks_ran_to_the_end_on_arm64(vm):
    records, _, _ = vm
    assert "done" in records, sorted(records)
    assert records["booted"]["arch"] == "aarch64"
    print(f"\nkernel boot to the checks: {records['booted']['uptime_s']} s (TCG)")


def test_apt_installs_the_package_and_its_library_offline(vm):
    records, _, lines = vm
    # dpkg-query's status of a package: "absent" when dpkg has never heard of it, "unknown ok
    # not-installed" when it has (as from an apt list) but it is not on the system.
    def lacks(status):
        return status == "absent" or status.split()[-1:] != ["installed"]
    assert lacks(records["booted"]["libgpiod_before"]), "the image must lack libgpiod3, as a fresh Pi may"
    assert lacks(records["booted"]["libqrencode_before"]), "the image must lack libqrencode4, as Lite may"
    installed = records["installed"]
    assert installed["status"] == 0, "\n".join(lines)
    assert installed["libgpiod"].startswith("2."), installed
    assert installed["libqrencode"].startswith("4."), installed
    # The board's database: SQLite, which the image (any Debian 13: util-linux needs it) already has.
    assert installed["libsqlite3"].startswith("3."), installed
    assert installed["version"] == this_release()
    print(f"apt install: {installed['ms']} ms")


def test_the_service_becomes_active_through_ready_and_runs_unprivileged(vm):
    records, journal, _ = vm
    started = records["started"]
    assert started["active"] == "active" and started["substate"] == "running"
    assert started["uid"] != 0
    assert str(started["gpio_gid"]) in started["groups"].split()
    assert started["device_mode"] == "660 gpio"
    ready_ms = (started["ready_us"] - started["start_us"]) / 1000
    print(f"process start to READY=1: {ready_ms:.0f} ms; boot to READY=1 (apt install included): "
          f"{started['ready_us'] / 1e6:.1f} s; resident memory {started['rss_kb']} kB (TCG)")
    # The ready line is logged after READY=1 and names the chip "auto" found by its label.
    assert any(line.startswith(f"ready on {started['chip']} [pinctrl-rp1]") for line in journal), journal
    assert records["initial"]["frame"] == ". . .|. . .|. . .|X:on O:off"
    # The package starts the socket before the board, which takes it from systemd.
    assert 0 < started["socket_active_us"] <= started["start_us"]
    assert any("serving the board's API on the socket systemd passed" in line for line in journal), journal


def test_moves_through_gpio_sim_show_on_the_led_lines(vm):
    records, _, _ = vm
    assert records["moves"]["frame"] == X_CENTRE_O_CORNER


def test_o_is_dim_and_every_lit_led_is_refreshed_at_least_100_times_a_second(vm):
    """The default marks on the gpio-sim lines: X's cells lit in every visit of their row, O's one
    frame in N (duty 1/N, within 0.1; N the dim cycle the installed configuration's LEDs need, as
    check-config reports it), O's status LED 1/N of the scan's steps; and each
    lit LED coming on at least 100 times a second (the flicker limit) at the frame rate the
    installed configuration asks for.

    The rate is judged against the scan in the same recording, not against the emulator's
    clock: under TCG on a busy two-core host the whole guest runs slow (two VMs at once ran the
    scan at half its rate), which says nothing about the program. What the program decides is
    how often an LED comes on per frame; that share times the configured frame rate must reach
    100 Hz, and the share is what the kernel recorded. The emulator's own pace is printed."""
    records, _, _ = vm
    x_turn, o_turn = records["timing-x-to-move"]["timing"], records["timing-o-to-move"]["timing"]
    configured = re.search(r"(\d+) matrix frames a second", records["configured-scan"]["check"])
    assert configured, records["configured-scan"]
    frame_rate = int(configured.group(1))
    cycle = re.search(r"O lit one frame in (\d+)", records["configured-scan"]["check"])
    assert cycle, records["configured-scan"]
    dim_duty = 1 / int(cycle.group(1))
    full = {"X centre, X to move": (x_turn, x_turn["cells"]["4"]), "X centre, O to move": (o_turn, o_turn["cells"]["4"]),
            "X bottom right": (o_turn, o_turn["cells"]["8"])}
    dim = {"O corner, X to move": (x_turn, x_turn["cells"]["0"]), "O corner, O to move": (o_turn, o_turn["cells"]["0"]),
           "O's status LED": (o_turn, o_turn.get("o"))}
    assert sorted(x_turn["cells"]) == ["0", "4"] and sorted(o_turn["cells"]) == ["0", "4", "8"], (x_turn, o_turn)
    assert dim["O's status LED"][1] is not None, o_turn
    for name, (_, seen) in full.items():
        assert seen["duty"] >= 0.85, (name, seen)
    for name, (_, seen) in dim.items():
        assert abs(seen["duty"] - dim_duty) <= 0.1, (name, seen, dim_duty)
    lines = []
    for name, (turn, seen) in {**full, **dim}.items():
        # A frame rate seen over two seconds of a running scan: enough visits to judge a share by.
        assert turn["frameRate"] * 2 >= 50, ("the scan was hardly seen running", turn)
        per_frame = seen["hz"] / turn["frameRate"]
        assert per_frame * frame_rate >= 100, (name, seen, turn["frameRate"], frame_rate)
        lines.append(f"{name}: duty {seen['duty']:.2f}, on {per_frame:.2f} times a frame, "
                     f"{per_frame * frame_rate:.0f} Hz at {frame_rate} frames a second ({seen['hz']:.0f} Hz seen)")
    # X's status LED when lit is full and steady (driven directly, never scanned); an unlit one
    # is never seen on.
    assert x_turn["x"]["duty"] >= 0.95 and "o" not in x_turn and "x" not in o_turn, (x_turn, o_turn)
    pace = min(x_turn["frameRate"], o_turn["frameRate"]) / frame_rate
    print("\n" + "; ".join(lines) + f"\nthe emulated scan ran at {pace:.0%} of its configured rate or more")


def test_a_killed_service_is_restarted_with_the_same_game(vm):
    records, journal, _ = vm
    assert records["after-kill"]["restarts"] >= 1
    assert records["after-kill"]["frame"] == X_CENTRE_O_CORNER
    assert any("restored the saved game" in line for line in journal)


def test_a_wedged_loop_is_killed_by_the_watchdog_and_restarted(vm):
    records, journal, _ = vm
    wedge = records["after-wedge"]
    assert wedge["restarts"] > records["after-kill"]["restarts"]
    assert wedge["watchdog_kills"] >= 1
    assert any("test fault: wedging the game loop" in line for line in journal)
    assert wedge["frame"] == X_CENTRE_O_CORNER
    assert records["move-after-restarts"]["frame"] == AFTER_THIRD_MOVE


def test_led_lines_that_fail_mid_game_stop_the_service_and_it_comes_back_lit_with_its_game(vm):
    records, _, _ = vm
    failed = records["after-led-failure"]
    assert failed["frame_before"] == AFTER_THIRD_MOVE, "the board was not scanning a game when its chip went"
    assert failed["said_while_gone"] > failed["said_before"], "the board never said its LED lines failed"
    assert failed["exited_71"] >= 1, "the service did not exit with the status of a failed part (71)"
    assert failed["restarts"] > failed["restarts_before"]
    assert failed["frame"] == AFTER_THIRD_MOVE


def test_a_killed_service_that_stays_down_leaves_no_led_lit(vm):
    records, _, _ = vm
    killed = records["killed-for-good"]
    assert killed["lit_before"] == "on", "nothing was lit before the kill: the check would prove nothing"
    assert killed["active"] == "failed" and killed["result"] == "signal"
    assert killed["leds"] == "off"
    assert killed["lights_off_runs"] >= 1


def test_a_watchdog_abort_that_stays_down_leaves_no_led_lit(vm):
    records, _, _ = vm
    aborted = records["aborted-for-good"]
    assert aborted["lit_before"] == "on"
    assert aborted["active"] == "failed" and aborted["result"] == "watchdog"
    assert aborted["leds"] == "off"
    assert aborted["lights_off_runs"] > records["killed-for-good"]["lights_off_runs"]


def test_stop_leaves_every_led_line_low(vm):
    records, journal, _ = vm
    assert records["stopped"]["active"] == "inactive"
    assert records["stopped"]["leds"] == "off"
    assert any("switching every LED off" in line for line in journal)


def test_the_journal_records_each_line_at_its_level(vm):
    records, _, _ = vm
    priorities = records["priorities"]
    assert priorities["warnings"] >= 1, "the wedge warning is not at warning priority"
    assert priorities["ready_at_info"] >= 3, "each start's ready line is at info priority"
    assert priorities["ready_at_warning"] == 0
    assert priorities["raw_prefixes"] == 0, "journald did not read the <N> prefixes"


def test_installing_again_keeps_the_edited_configuration_and_the_game(vm):
    records, _, lines = vm
    again = records["reinstalled"]
    assert again["status"] == 0, "\n".join(lines)
    assert again["edit_kept"] == "1"
    assert again["restarted"] == "yes" and again["active"] == "active"
    assert again["names_in_log"] >= 1, "the restarted service did not read the edited file"
    assert again["frame"] == AFTER_THIRD_MOVE


def by_colour(frame):
    """A frame in the harness's notation with brightness left out: what `watch` shows of it."""
    return frame.upper().replace("DIM", "ON")


def as_frame(watched):
    """`tictactoe watch --once`'s board (lines joined by |) in the harness's notation, by
    colour only (it draws the state, not the LEDs' brightness). Its cells are the terminal's
    texts (Console's TerminalLook, docs/VIEWS.md): the mark's letter, or · for none, between two
    signs: none for a steady mark, [ ] on a winning line and = = in a drawn game (both blink:
    lower case here), ! ! a refused press (amber), < > the choice of opponent."""
    rows = watched.split("|")[:3]
    colour = {"X": "R", "O": "G", "·": "."}

    def cell(text):
        if text[0] == "!":
            return "A"
        return colour[text[1]].lower() if text[0] in "[=" else colour[text[1]]

    cells = [" ".join(cell(row[2 + 4 * column:5 + 4 * column]) for column in range(3)) for row in rows]
    status = re.search(r"status LEDs: X (.+), O (.+)$", rows[1])
    return "|".join(cells) + f"|X:{status.group(1)} O:{status.group(2)}"


def test_the_api_socket_is_systemds_and_only_for_the_tictactoe_group(vm):
    records, _, _ = vm
    socket = records["api-socket"]
    assert socket["mode"] == "660 root tictactoe socket"
    assert (socket["socket_active"], socket["socket_enabled"]) == ("active", "enabled")


def test_watch_once_shows_what_the_led_lines_show(vm):
    records, _, _ = vm
    watched = records["api-watch"]
    assert watched["frame"] == AFTER_THIRD_MOVE
    assert by_colour(as_frame(watched["watched"])) == by_colour(watched["frame"]), watched


def test_a_press_through_the_socket_is_a_move_the_led_lines_show(vm):
    records, _, _ = vm
    pressed = records["api-press"]
    assert pressed["status"] == 0 and pressed["output"] == "O took cell 9.", pressed
    assert pressed["frame"] == "g . g|. R .|. . R|X:on O:off"
    refused = records["api-refused"]
    assert refused["status"] == 65 and "cell 9 is taken by O" in refused["output"], refused


def test_a_refused_press_flickers_its_cell_fast_enough_to_read_without_colour(vm):
    """A press on O's cell through the socket, refused: on the gpio-sim lines the cell's lit share
    (either die, colour ignored) toggles every 50 ms for 400 ms, about 100 ms a period, unlike a
    game's end (400 ms each way) and unlike a steady mark; read in the VM from the kernel's record
    of every write to the LED lines, per visit of the scan, by the simulation's own eye
    (PatternReader, the default timings). An attempt that reads no flicker must be one the
    emulator starved: the cell's row not visited for at least the eye's 30 ms (the board kept
    from scanning, as the kernel's record shows), through which the reader sees no phase (so it
    says "too short to tell" or "starved", never a pattern the board did not show); the VM made
    the press again then, up to three times, and one attempt must read the flicker."""
    records, _, _ = vm
    attempts = records["every api-refused"]
    for attempt in attempts:
        assert attempt["status"] == 65 and "cell 9 is taken by O" in attempt["output"], attempt
        pattern = attempt["pattern"]
        assert pattern, attempt
        if pattern["reading"] != "flicker":
            assert pattern["longest_unseen_ms"] >= 30, ("read as", pattern["reading"], "with nothing starved", pattern)
    read = [attempt["pattern"] for attempt in attempts if attempt["pattern"]["reading"] == "flicker"]
    assert read, [attempt["pattern"]["reading"] for attempt in attempts]
    pattern = read[-1]
    runs = pattern["lit_runs"]
    # Four lit half periods in 400 ms, each starting about 100 ms after the one before: faster by
    # far than the blink's half period (400 ms), which no flicker's period may reach.
    assert 3 <= len(runs) <= 5, runs
    periods = [later[0] - earlier[0] for earlier, later in zip(runs, runs[1:])]
    assert all(period < 400 for period in periods), runs
    print(f"\nrefused press: {len(attempts)} attempt(s); lit runs {runs} ms (start, length), periods {periods} ms; "
          f"the board's longest pause between writes {pattern['longest_pause_ms']:.1f} ms, longest unseen "
          f"{pattern['longest_unseen_ms']:.0f} ms, visits of its row per 10 ms bin {min(pattern['visits'])}-{max(pattern['visits'])}")


def test_a_user_outside_the_group_is_refused_and_a_member_is_served(vm):
    records, _, _ = vm
    permissions = records["api-permissions"]
    assert permissions["outsider_status"] == 77 and "tictactoe group" in permissions["outsider"], permissions
    assert permissions["member_status"] == 0 and permissions["member"].startswith("  "), permissions


def test_the_first_connection_starts_a_stopped_board_and_the_history_survives(vm):
    records, _, _ = vm
    activation = records["api-activation"]
    assert activation["stopped"] == "inactive" and activation["socket_active"] == "active"
    assert activation["watch_status"] == 0 and activation["active"] == "active", activation
    # X took the middle column before the stop: the restarted board shows the win.
    assert as_frame(activation["watched"]).startswith("G r G|G r .|. r R"), activation
    assert "won in" in activation["history_before"] and activation["history_after"] == activation["history_before"]
    assert activation["history_file"] == "yes"


def test_apt_installs_the_web_view_beside_the_board_and_starts_it_sandboxed(vm):
    records, _, lines = vm
    web = records["web-installed"]
    assert web["status"] == 0, "\n".join(line for line in lines if line.startswith("install-web"))
    # The web view links no Foundation networking since issue 38: nothing asks for libcurl.
    assert not web["curl"], "libcurl was installed, though the web package no longer depends on it"
    assert (web["active"], web["enabled"], web["said_ready"]) == ("active", "enabled", 1), web
    # DynamicUser: not root, and in the tictactoe group for the board's socket.
    assert set(web["uid"].split()) != {"0"} and web["uid"] != "null", web
    assert str(web["tictactoe_gid"]) in web["groups"].split(), web
    # The unit's limits are the kernel's: the memory cap in its cgroup, the IP address policy
    # loaded (systemd warns once when it cannot be: "... does not support BPF/cgroup firewalling").
    assert web["memory_max"] == str(96 * 1024 * 1024), web
    assert web["firewall_warnings"] == 0, web
    print(f"\napt install of the web package: {web['ms']} ms; resident memory {web['rss']} (TCG)")


def test_the_web_view_refuses_a_foreign_host_and_a_cross_origin_websocket_through_the_forward(vm):
    records, _, _ = vm
    host = records["host"]
    assert (host.get("foreign_host"), host.get("cross_origin")) == (421, 403), host


def test_a_browser_on_the_host_plays_on_the_vms_page_and_the_led_lines_show_it(vm):
    records, _, _ = vm
    host, clicks = records["host"], records["web-clicks"]
    assert "error" not in host, (host, records["web-journal"][-20:])
    # Who starts alternates from game to game: the page said whose turn it was, and showed it.
    first = host["after_first"][4]
    second = {"X": "O", "O": "X"}[first]
    assert host["before"] == "........." and host["after_first"] == f"....{first}....", host
    assert first in host["turn_before"] and second in host["turn"] and first not in host["turn"], host
    # The VM's own eye on the gpio-sim lines: the first mark in the middle, the other player's
    # LED on; then the second mark in the corner. O's marks and LED are dim (the default marks).
    colour = {"X": "R", "O": "g"}
    def status(on):
        return f"X:{'on' if on == 'X' else 'off'} O:{'dim' if on == 'O' else 'off'}"
    assert clicks["frame_first"] == f". . .|. {colour[first]} .|. . .|{status(second)}", clicks
    assert clicks["frame"] == f"{colour[second]} . .|. {colour[first]} .|. . .|{status(first)}", clicks
    assert by_colour(as_frame(clicks["watched"])) == by_colour(clicks["frame"]), clicks
    assert clicks["restarts"] == 0, records["web-journal"]
    print(f"page drawn {host['drawn_ms']} ms after navigation; a click shown on the page {host['first_shown_s']} s later; "
          f"the VM saw it after {clicks['waited_first_s']} s (TCG); web view resident memory {clicks['rss']}")


def test_a_power_cut_at_any_flush_of_a_game_leaves_the_old_game_or_the_new_one(vm):
    """Block level: every write and flush of the state file system recorded by the kernel's
    log-writes target while a game is played through gpio-sim, replayed up to each flush (and each
    forced write) in turn; at each, what a power cut would have left is mounted by the kernel
    (journal replayed), read by the board's own check-state and checked by e2fsck. The game found
    is always one the board showed, never older than the last one it had said was on disk, never
    going back from one crash point to the next; the file system never needs a repair."""
    records, _, lines = vm
    setup, game = records["crash-points-setup"], records["crash-points-game"]
    assert setup["tools"] == 0 and "log-writes" in setup["target"], setup
    shown = game["shown"]
    # Against the learner a game takes five moves or more: with the new game and X's move and
    # the learner's answer, at least eight states.
    assert len(shown) >= 8 and game["durable_marks"] == len(shown) - 1, game
    summary = records["write-log"]
    assert "error" not in summary, summary
    assert records["crash-points-replayed"]["status"] == 0
    points = records.get("every crash-point", [])
    # Each crash point with something written since the one before is checked (the others leave
    # the very same disk); a game's saves leave at least a flush and a forced write for each state.
    assert summary["crash_points"] >= 2 * len(shown), summary
    assert len(points) == summary["checked"] and len(points) >= len(shown), summary
    reached, games, found_states, leftovers = 0, 0, set(), 0
    # The game's last state: the one before the new game's empty board.
    ended = next(place for place in range(1, len(shown)) if shown[place] == ".........") - 1
    for point in points:
        where = f"crash point {point['point']} (log entry {point['entry']}, {point['kind']}, after mark {point['mark']!r})"
        assert point["mounted"] == 0, (where, point["mount_said"])
        assert point["ext4_errors"] == 0, where
        assert point["fsck"] == 0, (where, "e2fsck found something to repair after the kernel's journal replay")
        assert point["check"] == 0, (where, "the board could not use what it found", point["found"])
        found = point["found"]
        leftovers += len(found["leftovers"])
        assert len(found["leftovers"]) <= 2, (where, found)
        # Nothing saved yet: the board starts with the new board it first showed.
        cells = "".join(mark or "." for mark in found["cells"]) if found["state"] == "restored" else shown[0]
        assert found["state"] in ("restored", "fresh") and (found["state"] == "restored" or reached == 0), (where, found)
        later = [place for place in range(reached, len(shown)) if shown[place] == cells]
        assert later, (where, f"{cells}: a game the board never showed, or one before {shown[reached]}", shown)
        reached = later[0]
        if point["mark"].startswith("durable-"):
            assert reached >= int(point["mark"][len("durable-"):]), (where, f"found {cells}: a state said to be on disk was lost")
        assert (found.get("games") or 0) >= games, (where, "the history lost a game", found)
        games = found.get("games") or 0
        # One save, one record: the game is in the history exactly when the state restored is
        # its end or later (check-state drops, as the board does, a game the state does not name).
        assert games == (1 if reached >= ended else 0), (where, "the state and the history disagree", found)
        found_states.add(reached)
    assert reached == len(shown) - 1, "the last crash point does not hold the last game shown"
    assert games == 1, "the finished game is not in the history at the end"
    print(f"\ncrash points: {summary['crash_points']}, {summary['checked']} of them leaving a disk unlike the one before, "
          f"checked ({summary['flushes']} flushes, {summary['fua']} forced writes) "
          f"in a log of {summary['entries']} entries, {summary['bytes_written'] // 1024} KiB written; "
          f"{len(shown)} states shown, {len(found_states)} of them found at some crash point; "
          f"temporary files found (removed at the next start): {leftovers}; "
          f"replayed and checked in {records['crash-points-replayed']['seconds']} s")


LEARNER_COUNTS = ("games", "won", "drew", "lost", "boxes")


def test_a_power_cut_at_any_flush_of_a_learners_game_leaves_its_old_boxes_or_its_new_ones(vm):
    """The same crash points: the game was played against the matchbox learner, which learns as
    the game ends. With each state shown the VM recorded the learner the API showed and the one
    the live state file held once the state was said saved (check-state's record, boxes and
    beads' digest). The learner found at each crash point is exactly the one saved with the
    game state found there: before the game's end the old learner (fresh), from its end the new
    one, never the new record with the old boxes or the old record with the new beads."""
    records, _, _ = vm
    game = records["crash-points-game"]
    shown, learners = game["shown"], game["learners"]
    assert len(learners) == len(shown), game
    assert game["think_ms"] == 3000, ("the learner's think time was not set for the scenario", game["think_ms"])
    expected = []  # the learner saved with each state shown
    for place, learner in enumerate(learners):
        status = learner["status"]
        assert status, (place, learner)
        if learner["live_cells"] == shown[place]:
            # What the file held is what the board showed: the same cells, the same record.
            assert learner["live"] and all(learner["live"][count] == status[count] for count in LEARNER_COUNTS), (place, learner)
            expected.append(learner["live"])
        else:
            # The learner answered before the file was read (the VM was slow): a state with the
            # learner to move (the API shows its box), mid-game, which teaches it nothing: the
            # learner of the state before, the API's record unchanged.
            before = learners[place - 1]["status"]
            assert place > 0 and status["box"] is not None, (place, learner, "only the learner's turn may race its read")
            # And then the file held the learner's answer: the next state shown, not a lost save.
            assert place + 1 < len(shown) and learner["live_cells"] == shown[place + 1], (place, learner, shown)
            assert all(status[count] == before[count] for count in LEARNER_COUNTS), (place, learner)
            expected.append(expected[-1])
    ended = next(place for place in range(1, len(shown)) if shown[place] == ".........") - 1
    old, new = expected[0], expected[ended]
    assert old["games"] == 0 and old["boxes"] == 0, old
    assert new["games"] == 1 and new["boxes"] >= 1 and new["digest"] != old["digest"], new
    assert all(learner == (old if place < ended else new) for place, learner in enumerate(expected)), \
        "the learner changed other than as its game ended"
    points = records["every crash-point"]
    reached, seen = 0, set()
    for point in points:
        where = f"crash point {point['point']} (log entry {point['entry']}, after mark {point['mark']!r})"
        found = point["found"]
        cells = "".join(mark or "." for mark in found["cells"]) if found["state"] == "restored" else shown[0]
        reached = next((place for place in range(reached, len(shown)) if shown[place] == cells), None)
        assert reached is not None, (where, cells, "a game the board never showed, or an older one", shown)
        assert found["learner"] == expected[reached], \
            (where, cells, "a learner the board never saved with this game", found["learner"], expected[reached])
        seen.add("new" if found["learner"] == new else "old")
    assert seen == {"old", "new"}, ("the crash points should find both the old learner and the new", seen)
    print(f"\nlearner at the crash points: {sum(point['found']['learner'] == old for point in points)} old "
          f"(games {old['games']}, digest {old['digest']}), {sum(point['found']['learner'] == new for point in points)} new "
          f"(games {new['games']}, {new['boxes']} boxes, digest {new['digest']}), none mixed")


def test_a_restarted_board_resumes_the_same_learner(vm):
    """After the learner's game, the service restarted: the API's status shows the same learner
    (record, boxes opened, box) on the same board, still the opponent."""
    records, _, _ = vm
    restarted = records["learner-restarted"]
    assert restarted["before"] and restarted["before"]["games"] == 1, restarted
    assert restarted["after"] == restarted["before"], restarted
    assert restarted["cells_after"] == restarted["cells_before"] and restarted["opponent_after"] == "learner", restarted
    assert all(restarted["live"][count] == restarted["after"][count] for count in LEARNER_COUNTS), restarted


def test_apt_installs_the_link_disabled_and_once_enabled_it_runs_sandboxed_as_its_own_user(vm):
    records, _, lines = vm
    played = records["network-played"]
    assert played["status"] == 0, "\n".join(line for line in lines if line.startswith("install-network"))
    # Off until the owner names a broker and enables it.
    assert (played["enabled_after_install"], played["active_after_install"]) == ("disabled", "inactive"), played
    assert ": OK." in played["config_check"], played
    assert played["active"] == "active" and played["restarts"] == 0, (played, records["network-journal"][-20:])
    # Its own static user (whose folder holds the password), in the socket's group, no capability.
    assert played["uid"].split() == [played["user_uid"]] * 4, played
    assert str(played["tictactoe_gid"]) in played["groups"].split(), played
    assert int(played["capabilities"], 16) == 0, played
    assert played["memory_max"] == str(64 * 1024 * 1024), played
    print(f"\nthe link on arm64 (TCG): resident memory {played['rss']}")


def test_a_press_published_on_a_broker_here_is_played_by_the_vms_board_and_its_leds_show_it(vm):
    """The broker on this machine, the link in the VM reaching it through QEMU's guest forward: the
    board's presence and state published there, a press from the household played, a command
    from a user the access list refuses never played, and the LED lines in the VM showing the
    new mark."""
    records, _, _ = vm
    host, played = records["network-host"], records["network-played"]
    assert "error" not in host and host["online_before_press"], (host, records["network-journal"][-20:])
    assert host["published"][0] == 0, host
    # Three marks where there were two: the press, and no new game from the refused user before it.
    assert played["marks_before"] == 2, played
    cells = json.loads(played["cells"].split(":", 1)[1])
    assert sum(1 for cell in cells if cell) == 3 and cells[8] in ("X", "O"), played
    # X's mark red, O's green and dim (the installed configuration's marks), as the LED lines showed.
    assert played["frame"].split("|")[2].split()[2] == {"X": "R", "O": "g"}[cells[8]], played
    messages = host["messages"]
    events = [json.loads(payload) for topic, payload in messages if topic == "tictactoe/appliance/events"]
    # Up to the game with the house's board, which the VM begins after this one.
    house = next((index for index, event in enumerate(events) if event == {"type": "opponent", "opponent": "board:house"}), len(events))
    events = events[:house]
    assert {"type": "move", "player": cells[8], "cell": 3, "number": 3} in events, events
    assert not any(event["type"] == "new-game" for event in events), events
    answers = [payload for topic, payload in messages if topic == "tictactoe/appliance/answers"]
    assert len(answers) == 1 and "error" not in answers[0], answers
    # Home Assistant's discovery, retained under the board's own name.
    assert any(topic.startswith("homeassistant/") and "/appliance/" in topic for topic, _ in messages), messages[:20]


def test_the_vms_board_plays_a_whole_game_against_a_board_here_through_the_broker(vm):
    """The VM's board invites the house's (a simulated board here, its own link on the broker
    here); the house's link tells it of the invitation and it joins; X's moves pressed on the VM's
    gpio-sim buttons, O's on the house's socket: the same game, won by X, on both boards, and
    scored for the pairing on each."""
    records, _, _ = vm
    played, house = records["remote-game"], records["house"]
    assert played["status"] == 0 and "error" not in house, (played, house, records["network-journal"][-20:])
    assert house["offered"][0] == {"board": "appliance", "invites": True} and house["joined"]["type"] == "ok", house
    won = ["", "", "X", "", "X", "", "X", "O", "O"]
    assert house["cells"] == won and house["outcome"] == "x-wins", house
    assert json.loads(played["cells"].split(":", 1)[1]) == won and played["outcome"] == "x-wins", played
    assert json.loads(played["score"].split('":', 1)[1])["xWins"] == 1, played
    assert house["score"]["xWins"] == 1, house
    # The VM's page's boards view, from the list the installed link keeps (mode 0644 in its
    # runtime folder) and the installed web view reads under its own sandbox: both boards, the
    # game on each, readable without colour.
    assert played["boards_file"] == "644 tictactoe-network", played
    view = house["boards-view"]
    assert sorted(view) == ["appliance", "house"], view
    marks = "X top right, centre, bottom left; O bottom centre, bottom right"
    assert view["house"] == ["online", marks, "X won, against the board appliance (it plays X); score X 1, O 0, draws 0"], view
    assert view["appliance"] == ["online", marks, "X won, against the board house (it plays O); score X 1, O 0, draws 0"], view
    # The VM's LED lines show the game: X red on the diagonal, O green and dim.
    assert played["frame"].split("|")[:3] == [". . R", ". R .", "R g g"], played
    print(f"\nthe remote game on arm64 (TCG): waits for each turn {played['waits']} s, the win after {played['waited_end_s']} s")


def test_an_upgrade_restarts_the_link_and_keeps_it_enabled_a_stop_marks_the_board_offline_and_a_purge_leaves_the_board(vm):
    records, _, _ = vm
    presence = [payload for topic, payload in records["network-host"]["messages"] if topic == "tictactoe/appliance/presence"]
    # Offline until the link has the board's first state, online once it has; offline at the end.
    assert "online" in presence and presence[-1] == "offline", presence
    reinstalled = records["network-reinstalled"]
    assert reinstalled["status"] == 0 and (reinstalled["enabled"], reinstalled["active"]) == ("enabled", "active"), reinstalled
    assert reinstalled["pid_after"] not in (0, reinstalled["pid_before"]), "an upgrade did not restart the running link"
    stopped = records["network-stopped"]
    assert (stopped["result"], stopped["status"]) == ("success", "0"), stopped
    purged = records["network-purged"]
    assert purged["status"] == 0, purged
    assert (purged["binary"], purged["folder"], purged["unit"], purged["enabled_link"]) == ("no", "no", "no", "no"), purged
    assert purged["board"] == "active", purged


def test_the_web_view_alone_is_refused_for_want_of_the_board(vm):
    records, _, lines = vm
    alone = records["web-alone"]
    assert alone["status"] != 0 and alone["installed"] == "no", "\n".join(lines)
    assert alone["names_board"] >= 1, "apt should say which package of which version is missing"


def test_remove_keeps_what_the_maker_made_and_stops_the_leds(vm):
    records, _, lines = vm
    web = records["web-removed"]
    assert web["status"] == 0, "\n".join(line for line in lines if line.startswith("remove-web"))
    assert (web["web_binary"], web["web_unit"], web["web_active"]) == ("no", "no", "inactive"), web
    assert web["avahi"] == "yes", "the Avahi file is a conffile: kept until purged"
    assert (web["board"], web["board_active"]) == ("yes", "active"), "removing the web view leaves the board playing"
    removed = records["removed"]
    assert removed["status"] == 0, "\n".join(line for line in lines if line.startswith("remove:"))
    assert (removed["binary"], removed["unit"], removed["active"]) == ("no", "no", "inactive"), removed
    assert (removed["config"], removed["state"]) == ("yes", "yes"), "a removed board keeps its configuration and its game"
    assert removed["leds"] == "off"


def test_purge_removes_the_binary_the_unit_the_udev_rule_and_the_saved_game(vm):
    records, _, lines = vm
    purged = records["purged"]
    assert purged["status"] == 0, "\n".join(lines)
    assert (purged["binary"], purged["unit"], purged["udev_rule"]) == ("no", "no", "no")
    assert (purged["socket_unit"], purged["socket"]) == ("no", "no")
    assert (purged["state"], purged["state_link"], purged["config"]) == ("no", "no", "no")
    assert (purged["enabled"], purged["socket_enabled"], purged["web_enabled"]) == ("no", "no", "no"), purged
    assert purged["active"] == "inactive"
    assert purged["leds"] == "off"
    # The gpio group may be the system's own (Raspberry Pi OS has one): it stays.
    assert purged["gpio_group"] == "yes"
    assert (purged["web_binary"], purged["web_unit"], purged["web_page"]) == ("no", "no", "no"), purged
    assert (purged["avahi"], purged["web_active"]) == ("no", "inactive"), purged


def previous_release():
    """The tag vm/appliance/previous-release names, as a version: v0.4.0 -> 0.4.0."""
    line = next(line for line in (ROOT / "vm/appliance/previous-release").read_text().splitlines()
                if line and not line.startswith("#"))
    return line.split()[0].removeprefix("v")


def this_release():
    """This tree's version, as its Debian changelog's latest entry names it."""
    return (ROOT / "packaging/debian/changelog").read_text().split("(")[1].split(")")[0]


def test_an_upgrade_from_the_repository_keeps_every_game_the_learner_and_the_edited_configuration(vm):
    """A maker's way (docs/RELEASES.md): a signed repository added with its key, the previous
    release installed from it and played (150 games, a learner taught three, a game under way,
    the configuration edited); the repository gains this release and `apt upgrade` installs it.
    The service restarts by itself, shows the same board, score and learner, answers the same
    history byte for byte and holds the same beads; the edit is kept without a prompt; the old
    files were imported into the database and kept beside it. apt refuses the repository under
    another key."""
    records, journal, lines = vm
    this, previous = this_release(), previous_release()
    added = records["repository-added"]
    assert added["update_status"] == 0 and added["update_warnings"] == 0, "\n".join(lines)
    assert added["previous_status"] == 0 and added["candidate"] == previous, added
    assert added["versions"] == f"tictactoe-gpio={previous} tictactoe-gpio-web={previous}", added
    assert added["wrong_key_refused"] >= 1, added
    before = records["played-previous"]
    assert before["played"] == "150" and before["config_kept"] == 1, before
    assert "learner" in before["shown"] and before["games"] == 100 and before["digest"], before

    upgraded = records["upgraded-from-previous"]
    assert upgraded["status"] == 0, "\n".join(lines)
    assert upgraded["versions"] == f"tictactoe-gpio={this} tictactoe-gpio-web={this}", upgraded
    assert (upgraded["restarted"], upgraded["active"], upgraded["web_active"]) == ("yes", "active", "active"), upgraded
    # The board as it was: its cells, whose turn, the score and the learner's record and boxes;
    # the games the previous release showed (its last 100), the same answer byte for byte.
    for key in ["shown", "history", "games", "digest"]:
        assert upgraded[key] == before[key], (key, before, upgraded)
    # And the running board, restarted by the upgrade, holds those beads: its status says the
    # digest the previous release saved (that release's status gave none).
    assert before["live_digest"] == "" and upgraded["live_digest"] == before["digest"], (before, upgraded)
    assert upgraded["config_kept"] == 1 and upgraded["prompted"] == 0, upgraded
    assert (upgraded["database"], upgraded["state_imported"], upgraded["history_imported"], upgraded["old_state"]) == ("yes", "yes", "yes", "no")
    # Release 0.4 showed its last 100 games but its journal held every game since its last
    # compaction (past 200 lines): all 153 are in the database now.
    assert any("imported the saved game and 153 finished games" in line for line in journal), journal[-20:]


def test_going_back_to_the_previous_release_and_up_again_remove_install_and_purge(vm):
    """Going back with apt works and says what it means: the previous release (0.4, which
    cannot read the database) runs on an empty board and leaves the database alone; upgrading
    again brings back everything, with what the older release saved meanwhile kept aside.
    `apt remove` then `apt install` keeps the saved state and the edit; `purge` removes both."""
    records, _, lines = vm
    this, previous = this_release(), previous_release()
    before = records["played-previous"]
    down = records["downgraded"]
    assert down["status"] == 0 and down["active"] == "active", "\n".join(lines)
    assert down["versions"] == f"tictactoe-gpio={previous} tictactoe-gpio-web={previous}", down
    assert down["said"] >= 1, "the downgrade did not say what it means"
    assert down["database_untouched"] == "yes" and down["its_state"] == "yes", down
    assert down["shown"] != before["shown"] and "learner" not in down["shown"], down
    again = records["upgraded-again"]
    assert again["status"] == 0 and again["prompted"] == 0 and again["kept_aside"] >= 1, again
    for key in ["shown", "history", "games", "digest", "config_kept"]:
        assert again[key] == before[key], (key, before, again)
    assert again["live_digest"] == before["digest"], (before, again)
    assert again["versions"] == f"tictactoe-gpio={this} tictactoe-gpio-web={this}", again

    removed = records["removed-upgraded"]
    assert removed["status"] == 0 and removed["binary"] == "no", removed
    assert removed["database"] == "yes" and removed["config_kept"] == 1, removed
    installed = records["installed-again"]
    assert installed["status"] == 0 and installed["active"] == "active", installed
    # The web view went with the board it depends on, and was not asked back.
    assert installed["versions"] == f"tictactoe-gpio={this}", installed
    for key in ["shown", "history", "games", "digest", "config_kept"]:
        assert installed[key] == before[key], (key, before, installed)
    assert installed["live_digest"] == before["digest"], (before, installed)
    purged = records["purged-upgraded"]
    assert purged["status"] == 0 and (purged["state"], purged["config"], purged["binary"]) == ("no", "no", "no"), purged
