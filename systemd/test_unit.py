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
WEB_UNIT = ROOT / "systemd" / "tictactoe-web.service"
NETWORK_UNIT = ROOT / "systemd" / "tictactoe-network.service"


def unit_copy(directory, unit=UNIT):
    """The units with their binaries pointed at files that exist here, so verify can check them;
    the path of `unit`'s copy."""
    directory = pathlib.Path(directory)
    for name in ["tictactoe", "tictactoe-web", "tictactoe-network"]:
        (directory / name).write_text("#!/bin/sh\n")
        (directory / name).chmod(0o755)
    for source in [UNIT, WEB_UNIT, NETWORK_UNIT]:
        text = re.sub(r"/usr/local/bin/(tictactoe(-web|-network)?)", lambda m: str(directory / m.group(1)), source.read_text())
        (directory / source.name).write_text(text)
    (directory / "tictactoe.socket").write_text(SOCKET.read_text())
    return directory / unit.name


def exposure(unit):
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit_copy(directory, unit))],
            capture_output=True, text=True)
    match = re.search(rf"Overall exposure level for {re.escape(unit.name)}: ([0-9.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    print(f"\nsystemd-analyze security exposure of {unit.name}: {match.group(1)}")
    return float(match.group(1))


def test_systemd_analyze_verify_is_clean():
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(unit_copy(directory)), str(pathlib.Path(directory) / "tictactoe.socket"),
             str(pathlib.Path(directory) / WEB_UNIT.name), str(pathlib.Path(directory) / NETWORK_UNIT.name)],
            capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines() if "tictactoe" in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr


def test_exposure_is_at_most_1():
    assert exposure(UNIT) <= 1.0


def test_the_web_views_exposure_is_at_most_2():
    assert exposure(WEB_UNIT) <= 2.0


def test_the_network_links_exposure_is_at_most_2():
    assert exposure(NETWORK_UNIT) <= 2.0


def test_the_unit_keeps_what_the_service_needs():
    text = UNIT.read_text()
    for line in ["Type=notify", "WatchdogSec=", "Restart=on-failure", "DynamicUser=yes",
                 "SupplementaryGroups=gpio", "DeviceAllow=char-gpiochip rw", "StateDirectory=tictactoe"]:
        assert line in text
    assert "PrivateDevices=yes" not in text  # it would hide /dev/gpiochip*
    assert shutil.which("systemd-analyze")


def test_a_failed_part_and_an_overrun_stop_are_restarted_and_the_stop_deadline_fits():
    """`run` exits 71 when a part fails while playing and 70 when its stop overruns 5 s
    (Sources/Programs/tictactoe/ExitStatus.swift): Restart=on-failure must restart both, and systemd's
    stop timeout must leave the board its own deadline."""
    text = UNIT.read_text()
    assert re.search(r"^Restart=on-failure$", text, re.M)
    prevented = re.findall(r"^RestartPreventExitStatus=(.*)$", text, re.M)
    assert not {"70", "71"} & {status for line in prevented for status in line.split()}
    stop_timeout = re.search(r"^TimeoutStopSec=(\d+)$", text, re.M)
    assert stop_timeout and int(stop_timeout.group(1)) > 5


def test_the_socket_is_where_the_commands_look_and_only_for_the_tictactoe_group():
    text = SOCKET.read_text()
    default = re.search(r'defaultPath = "([^"]+)"', (ROOT / "Sources/Service/BoardProtocol/UnixSocket.swift").read_text())
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


def test_the_web_view_reaches_the_board_only_through_its_socket_and_only_the_local_network():
    text = WEB_UNIT.read_text()
    for line in ["DynamicUser=yes", "SupplementaryGroups=tictactoe", "DevicePolicy=closed", "PrivateDevices=yes",
                 "IPAddressDeny=any", "MemoryMax=", "Wants=tictactoe.socket"]:
        assert line in text, line
    user = re.search(r"^User=(.+)$", text, re.M)
    assert user and user.group(1) not in ["tictactoe", "tictactoe-board"]
    families = re.search(r"^RestrictAddressFamilies=(.+)$", text, re.M).group(1).split()
    assert sorted(families) == ["AF_INET", "AF_INET6", "AF_NETLINK", "AF_UNIX"]
    # Loopback, link-local and the private ranges, nothing routable on the internet.
    allowed = re.search(r"^IPAddressAllow=(.+)$", text, re.M).group(1).split()
    assert sorted(allowed) == sorted(["localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"])
    # The web view never touches the board's state or devices.
    for absent in ["StateDirectory=", "DeviceAllow=", "gpio"]:
        assert absent not in text, absent
    # The page the unit names is where make install puts it.
    page = re.search(r"--page (\S+)", text).group(1)
    assert f'"$dest{page}"' in (ROOT / "scripts" / "install.sh").read_text()


def test_the_network_link_reaches_the_board_only_through_its_socket_and_keeps_its_secrets_to_itself():
    text = NETWORK_UNIT.read_text()
    for line in ["User=tictactoe-network", "SupplementaryGroups=tictactoe", "StateDirectory=tictactoe-network",
                 "StateDirectoryMode=0700", "RuntimeDirectory=tictactoe-network", "RuntimeDirectoryMode=0755", "PrivateDevices=yes", "DevicePolicy=closed", "MemoryMax=",
                 "Wants=tictactoe.socket network-online.target"]:
        assert line in text, line
    # A static user, made by the package's sysusers.d file (with DynamicUser the files it must
    # read could not be given to it); in the socket's group, nothing of the board's.
    assert "DynamicUser=yes" not in text
    sysusers = (ROOT / "packaging" / "network" / "sysusers.conf").read_text()
    assert re.search(r"^u tictactoe-network - .* /var/lib/tictactoe-network$", sysusers, re.M)
    assert re.search(r"^m tictactoe-network tictactoe$", sysusers, re.M)
    for absent in ["DeviceAllow=", "gpio", "StateDirectory=tictactoe\n"]:
        assert absent not in text, absent
    families = re.search(r"^RestrictAddressFamilies=(.+)$", text, re.M).group(1).split()
    assert sorted(families) == ["AF_INET", "AF_INET6", "AF_UNIX"]
    # The statuses that will not mend by restarting (NetworkCommand: 64 an option, 66 a file,
    # 78 the table); a lost broker is not one of them, and 70 (no client made) is retried.
    prevented = re.search(r"^RestartPreventExitStatus=(.+)$", text, re.M).group(1).split()
    assert sorted(prevented) == ["64", "66", "78"]
    command = "".join(path.read_text() for path in (ROOT / "Sources" / "Programs" / "tictactoe-network").glob("*.swift"))
    for status in ["66", "78"]:
        assert f"ExitCode({status})" in command, status
    assert "ValidationError(" in command  # swift-argument-parser exits 64 on it
