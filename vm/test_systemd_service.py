"""The service under real systemd, host side: boots the Debian VM (vm/run-systemd-suite.sh) and
asserts on what the in-VM checks reported."""

import json
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def vm():
    result = subprocess.run(
        ["bash", str(ROOT / "vm" / "run-systemd-suite.sh")],
        check=True, stdout=subprocess.PIPE, text=True, timeout=3600)
    log = pathlib.Path(result.stdout.strip().splitlines()[-1])
    records, journal = {}, []
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("@@J "):
            journal.append(line[4:])
        elif line.startswith("@@ "):
            record = json.loads(line[3:])
            records[record["scenario"]] = record
    return records, journal


X_CENTRE_O_CORNER = "G . .|. R .|. . .|X:on O:off"


def test_the_checks_ran_to_the_end(vm):
    records, _ = vm
    assert "done" in records, sorted(records)


def test_the_service_becomes_active_through_ready_and_runs_unprivileged(vm):
    records, journal = vm
    started = records["started"]
    assert started["active"] == "active" and started["substate"] == "running"
    assert started["uid"] != 0
    assert str(started["gpio_gid"]) in started["groups"].split()
    assert started["device_mode"] == "660 gpio"
    ready_ms = (started["ready_us"] - started["start_us"]) / 1000
    print(f"\nprocess start to READY=1: {ready_ms:.0f} ms (under TCG); resident memory {started['rss_kb']} kB")
    assert ready_ms > 0
    assert any("ready on gpiochip" in line and "[pinctrl-bcm2711]" in line for line in journal)
    assert records["initial"]["frame"] == ". . .|. . .|. . .|X:on O:off"


def test_moves_through_gpio_sim_show_on_the_led_lines(vm):
    records, _ = vm
    assert records["moves"]["frame"] == X_CENTRE_O_CORNER


def test_a_killed_service_is_restarted_with_the_same_game(vm):
    records, journal = vm
    assert records["after-kill"]["restarts"] >= 1
    assert records["after-kill"]["frame"] == X_CENTRE_O_CORNER
    assert any("restored the saved game" in line for line in journal)


def test_a_wedged_loop_is_killed_by_the_watchdog_and_restarted(vm):
    records, journal = vm
    wedge = records["after-wedge"]
    assert wedge["restarts"] > records["after-kill"]["restarts"]
    assert wedge["watchdog_kills"] >= 1
    assert any("test fault: wedging the game loop" in line for line in journal)
    assert wedge["frame"] == X_CENTRE_O_CORNER
    assert records["move-after-restarts"]["frame"] == "G . .|. R .|. . R|X:off O:on"


def test_stop_leaves_every_led_line_low(vm):
    records, journal = vm
    assert records["stopped"]["active"] == "inactive"
    assert records["stopped"]["leds"] == "off"
    assert any("switching every LED off" in line for line in journal)


def test_the_journal_records_each_line_at_its_level(vm):
    records, _ = vm
    priorities = records["priorities"]
    assert priorities["warnings"] >= 1, "the wedge warning is not at warning priority"
    assert priorities["ready_at_info"] >= 3, "each start's ready line is at info priority"
    assert priorities["ready_at_warning"] == 0
    assert priorities["raw_prefixes"] == 0, "journald did not read the <N> prefixes"


def test_a_killed_service_that_stays_down_leaves_no_led_lit(vm):
    records, _ = vm
    killed = records["killed-for-good"]
    assert killed["lit_before"] == "on", "nothing was lit before the kill: the check would prove nothing"
    assert killed["active"] == "failed" and killed["result"] == "signal"
    assert killed["leds"] == "off"
    assert killed["lights_off_runs"] >= 1


def test_a_watchdog_abort_that_stays_down_leaves_no_led_lit(vm):
    records, _ = vm
    aborted = records["aborted-for-good"]
    assert aborted["lit_before"] == "on"
    assert aborted["active"] == "failed" and aborted["result"] == "watchdog"
    assert aborted["leds"] == "off"
    assert aborted["lights_off_runs"] > records["killed-for-good"]["lights_off_runs"]
