"""Static checks of the systemd units: systemd-analyze verify, the sandboxing exposure score,
and the API socket where the commands look for it."""

import pathlib
import re
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tictactoe.service"
SOCKET = ROOT / "systemd" / "tictactoe.socket"


def unit_copy(directory):
    """The unit with its binary pointed at a file that exists here, so verify can check it."""
    binary = pathlib.Path(directory) / "tictactoe"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    text = UNIT.read_text().replace("/usr/local/bin/tictactoe", str(binary))
    copy = pathlib.Path(directory) / "tictactoe.service"
    copy.write_text(text)
    (pathlib.Path(directory) / "tictactoe.socket").write_text(SOCKET.read_text())
    return copy


def test_systemd_analyze_verify_is_clean():
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(unit_copy(directory)), str(pathlib.Path(directory) / "tictactoe.socket")],
            capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines() if "tictactoe." in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr


def test_exposure_is_at_most_1():
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit_copy(directory))],
            capture_output=True, text=True)
    match = re.search(r"Overall exposure level for tictactoe\.service: ([0-9.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    print(f"\nsystemd-analyze security exposure: {exposure}")
    assert exposure <= 1.0


def test_the_unit_keeps_what_the_service_needs():
    text = UNIT.read_text()
    for line in ["Type=notify", "WatchdogSec=", "Restart=on-failure", "DynamicUser=yes",
                 "SupplementaryGroups=gpio", "DeviceAllow=char-gpiochip rw", "StateDirectory=tictactoe"]:
        assert line in text
    assert "PrivateDevices=yes" not in text  # it would hide /dev/gpiochip*
    assert shutil.which("systemd-analyze")


def test_the_socket_is_where_the_commands_look_and_only_for_the_tictactoe_group():
    text = SOCKET.read_text()
    default = re.search(r'defaultPath = "([^"]+)"', (ROOT / "Sources/BoardAPI/UnixSocket.swift").read_text())
    assert default and f"ListenStream={default.group(1)}" in text
    for line in ["SocketGroup=tictactoe", "SocketMode=0660", "WantedBy=sockets.target"]:
        assert line in text
    assert "Accept=yes" not in text  # one board process serves every client
    service = UNIT.read_text()
    # The dynamic user must not be called after the socket's static group: systemd would take
    # the group as the user's and find no such user (the service would fail to start).
    user = re.search(r"^User=(.+)$", service, re.M)
    assert "DynamicUser=yes" in service and user and user.group(1) != "tictactoe"
    # The board reaches nothing but Unix sockets: its API is one, passed by systemd.
    assert "RestrictAddressFamilies=AF_UNIX" in service and "PrivateNetwork=yes" in service
