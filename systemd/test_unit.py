"""Static checks of the systemd unit: systemd-analyze verify, and the sandboxing exposure score."""

import pathlib
import re
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tictactoe.service"


def unit_copy(directory):
    """The unit with its binary pointed at a file that exists here, so verify can check it."""
    binary = pathlib.Path(directory) / "tictactoe"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    text = UNIT.read_text().replace("/usr/local/bin/tictactoe", str(binary))
    copy = pathlib.Path(directory) / "tictactoe.service"
    copy.write_text(text)
    return copy


def test_systemd_analyze_verify_is_clean():
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(unit_copy(directory))],
            capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines() if "tictactoe.service" in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr


def test_exposure_is_at_most_2():
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit_copy(directory))],
            capture_output=True, text=True)
    match = re.search(r"Overall exposure level for tictactoe\.service: ([0-9.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    print(f"\nsystemd-analyze security exposure: {exposure}")
    assert exposure <= 2.0


def test_the_unit_keeps_what_the_service_needs():
    text = UNIT.read_text()
    for line in ["Type=notify", "WatchdogSec=", "Restart=on-failure", "DynamicUser=yes",
                 "SupplementaryGroups=gpio", "DeviceAllow=char-gpiochip rw", "StateDirectory=tictactoe"]:
        assert line in text
    assert "PrivateDevices=yes" not in text  # it would hide /dev/gpiochip*
    assert shutil.which("systemd-analyze")
