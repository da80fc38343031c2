"""The real-kernel suite, host side: boots the gpio-sim VM once per libgpiod generation (through
vm/run-suite.sh) and asserts on what the in-VM harness observed. The harness only reports; every
expectation lives here."""

import json
import pathlib
import re
import statistics
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def boot(generation):
    result = subprocess.run(
        ["bash", str(ROOT / "vm" / "run-suite.sh"), generation],
        check=True, stdout=subprocess.PIPE, text=True, timeout=2400,
    )
    log = pathlib.Path(result.stdout.strip().splitlines()[-1])
    records = {}
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("@@ "):
            record = json.loads(line[3:])
            records.setdefault(record["scenario"], []).append(record)
    return records


def boot_with_valid_input(generation, attempts=3):
    """Boots until the run is one the steps can judge: the guest kept its TSC clock (on a host
    busy at boot the kernel may find it unstable and fall back to a 4 ms tick, which puts the
    board's 500 µs scan on that tick), every simulated bounce burst was shorter than the
    debounce window by the kernel's own stamps (a host busy enough to starve the emulator
    mid-burst turns a bounce into two presses; the game then rightly plays two), and every
    step left at least two windows the harness could read (``readable``). Such a run is named
    and rerun, never excused: the checks below are the same for every run, and all attempts
    spoilt fail them."""
    for attempt in range(1, attempts + 1):
        records = boot(generation)
        clock = records.get("boot", [{}])[0].get("clocksource")
        stretched = [burst for burst in bounce_bursts(records) if burst[1] >= DEBOUNCE_MS]
        starved = [step["name"] for step in records.get("game-step", []) if len(readable(step.get("frames", []))) < 2]
        if (clock == "tsc" and not stretched and not starved) or attempt == attempts:
            return records
        print(f"\n{generation}: attempt {attempt}: clocksource {clock}, bounce bursts stretched past "
              f"{DEBOUNCE_MS} ms {stretched} (kernel stamps), steps starved unreadable {starved}; booting again")


@pytest.fixture(scope="module", params=["v1", "v2"])
def vm(request):
    return request.param, boot_with_valid_input(request.param)


def picture(text):
    """A frame as the harness prints it: rows of the matrix, then the status LEDs."""
    return text.replace("\n", "|")


def readable(frames):
    """The windows the harness could read: one whose status LEDs pulsed alone and the emulator
    cut every pulse short says "starved: …" in its place (what the board showed there is not
    known, not wrong)."""
    return [frame for frame in frames if not frame.startswith("starved:")]


def steady(frames, expected):
    return all(frame == picture(expected) for frame in frames)


def blinking(frames, on, off):
    """Both phases seen, and every window is one of them or a mix of the two."""
    on, off = picture(on), picture(off)
    if on not in frames or off not in frames:
        return False
    def tokens(frame):  # nine cells, then the two status LEDs
        return frame.replace("|", " ").split()
    def between(frame):
        return len(tokens(frame)) == 11 and all(
            f in (a, b) for f, a, b in zip(tokens(frame), tokens(on), tokens(off)))
    return all(between(frame) for frame in frames)


def test_the_harness_ran_to_the_end(vm):
    _, records = vm
    assert "boot" in records
    print(f"kernel {records['boot'][0]['kernel']}, clocksource {records['boot'][0].get('clocksource')}")
    assert records["setup"][0].get("chip", "").startswith("gpiochip"), records["setup"]
    assert records["done"] == [{"scenario": "done"}]
    assert records["harness-exit"][0]["status"] == 0


def test_a_missing_chip_is_a_clear_error_listing_the_chips(vm):
    _, records = vm
    missing = records["missing-chip"][0]
    assert missing["status"] == 69
    assert 'no GPIO chip matches "no-such-chip"' in missing["stderr"]
    assert "[tictactoe-sim] 28 lines at /dev/gpiochip" in missing["stderr"]


def test_a_busy_button_line_names_its_holder(vm):
    _, records = vm
    busy = records["busy-line"][0]
    assert busy["status"] == 75
    assert "line 17 (GPIO17) is busy" in busy["stderr"]
    assert '"gpiomon" holds it' in busy["stderr"]


def test_the_unattended_self_test_passes_a_correct_board(vm):
    _, records = vm
    check = records["selftest"][0]
    assert check["status"] == 0, check
    assert "self-test on gpiochip" in check["stdout"]
    assert "inputs OK: no button reads pressed at rest" in check["stdout"]


def test_the_binary_says_ready_with_the_library_in_use(vm):
    generation, records = vm
    ready = records["ready"][0]
    assert "ready on gpiochip" in ready["line"]
    assert "[tictactoe-sim]" in ready["line"]
    assert "Alice (X) vs Bob (O)" in ready["line"]
    assert f"({generation} API)" in ready["library"]


DARK_X = ". . .\n. . .\n. . .\nX:on O:off"


DEBOUNCE_MS = int(re.search(r"^debounce_ms = (\d+)", (ROOT / "Hardware" / "tictactoe.toml").read_text(), re.M).group(1))


def bounce_bursts(records):
    """The harness's bounce bursts as the kernel stamped them (from the game's debug log): per
    burst, the line and the time from its first edge to its last, in ms."""
    bursts = []
    for line in records.get("game-log", [{"lines": []}])[0]["lines"]:
        match = re.match(r"debug: edge (GPIO\d+) \w+ stamped ([\d.]+) ms", line)
        if not match:
            continue
        name, stamp = match.group(1), float(match.group(2))
        if bursts and bursts[-1][0] == name and stamp - bursts[-1][2] < 100:
            bursts[-1][2] = stamp
        else:
            bursts.append([name, stamp, stamp])
    return [(name, last - first) for name, first, last in bursts]


def test_every_simulated_bounce_stayed_inside_the_debounce_window(vm):
    """The steps below assume the harness's bursts were contact bounce. A starved emulator can
    stretch one past the window, and then the game rightly sees two presses: this says so,
    with the kernel's stamps, instead of leaving a puzzling frame."""
    _, records = vm
    bursts = bounce_bursts(records)
    assert len(bursts) >= 40, bursts
    longest = max(span for _, span in bursts)
    print(f"longest bounce burst {longest:.1f} ms (kernel stamps), debounce window {DEBOUNCE_MS} ms")
    assert longest < DEBOUNCE_MS, [burst for burst in bursts if burst[1] >= DEBOUNCE_MS]


GAME_SCRIPT = json.loads((ROOT / "vm" / "game-script.json").read_text())


def test_a_complete_run_of_play_on_the_kernel_chip(vm):
    """Every step of vm/game-script.json (the harness plays the same file), checked by name."""
    _, records = vm
    assert steady(records["game-start"][0]["frames"], DARK_X)
    seen = {step["name"]: step for step in records["game-step"]}
    assert [step["name"] for step in records["game-step"]] == [step["name"] for step in GAME_SCRIPT]
    for step in GAME_SCRIPT:
        frames = seen[step["name"]].get("frames")
        assert frames, seen[step["name"]]
        if "steady" in step:
            assert len(readable(frames)) >= 2 and steady(readable(frames), step["steady"]), (step["name"], frames)
        elif "blink" in step:
            assert blinking(readable(frames), *step["blink"]), (step["name"], frames)
        else:
            flash, after = step["flash"]
            # A refused press flickers (50 ms on, 50 ms off): over the first window its amber is
            # lit in about half its row's visits, so it may read full, half or dim; the cell is
            # amber in every case.
            assert frames[0] in (picture(flash), picture(flash).replace("A", "ᴀ"), picture(flash).replace("A", "a")), \
                (step["name"], frames)
            assert steady(frames[-4:], after), (step["name"], frames)


def test_latency_is_measured_against_gpiomon(vm):
    generation, records = vm
    latency = records["latency"][0]
    assert len(latency["board"]) == 5, latency
    assert len(latency["gpiomon"]) == 5, latency
    board = statistics.median(latency["board"])
    monitor = statistics.median(latency["gpiomon"])
    print(f"\nlibgpiod {generation}: edge to LED lines median {board * 1000:.1f} ms, "
          f"gpiomon median {monitor * 1000:.1f} ms, ratio {board / monitor:.1f}")
    assert all(0 < seconds < 3 for seconds in latency["gpiomon"]), latency
    # Relative to gpiomon on the same kernel in the same run, so a loaded machine slows both:
    # gpiomon is a bare edge print; the board adds its hop onto the game loop, the debounce
    # decision, the frame and up to one 1.5 ms scan frame (a dim cycle's for a dim O mark, lit one
    # frame in N: six at the default LEDs), and with v2 the kernel's 2 ms debounce. Measured here over 16 runs, 6 of them
    # beside a parallel release build: 0.9–1.8× (v1) and 1.1–4.8× (v2, whose medians of five move
    # most under load), before O's marks were dim. And within a human's notice, even here.
    assert board < 6 * monitor + 0.010, (board, monitor)
    assert board < 0.2


def test_sigterm_mid_game_turns_every_led_off_and_frees_the_lines(vm):
    _, records = vm
    stop = records["sigterm"][0]
    assert stop["litBefore"] is True
    assert stop["status"] == 0
    assert stop["allOffAfter"] is True
    assert "switching every LED off and releasing the lines" in stop["stdout"]
    assert "info: stopped" in stop["stdout"].splitlines()
    assert "tictactoe-" not in stop["gpioinfo"]
    assert records["restart"][0]["ready"] is True
    assert records["restart-stop"][0] == {"scenario": "restart-stop", "status": 0, "allOffAfter": True}
