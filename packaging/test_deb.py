"""The Debian packages (the board's, the web view's and the MQTT link's), built by packaging/make-deb.sh and inspected the way a maker's apt and
kernel will see it: control fields, contents, the binary's ELF machine and glibc needs, lintian
(trixie's), and a smoke run of the packaged binary itself under qemu-aarch64-static on the Pi's
own libraries. apt installing, upgrading, removing and purging them is the arm64 appliance's
part (vm/test_appliance.py), under systemd on an arm64 machine."""

import gzip
import http.client
import io
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import tarfile
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = pathlib.Path(os.environ.get("TICTACTOE_CACHE") or
                     pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / "tictactoe-gpio")
ELF_MACHINES = {"arm64": "AArch64"}
TRIXIE_GLIBC = (2, 41)
# What Raspberry Pi OS Lite (Trixie) already has (libc6, libgcc-s1, libstdc++6), so that a maker
# installs only our package, libgpiod3 and libqrencode4 (the page's address as a QR code in
# `tictactoe status`). Lite is not known to have libqrencode4 (systemd only Suggests it): apt
# pulls it in, 39 KB to download and 101 KB installed for arm64, needing only libc6. The board's
# database is SQLite's (libsqlite3-0), which every Debian 13 already has (util-linux, essential,
# pre-depends on liblastlog2-2, which depends on it): nothing more to download.
ALLOWED_DEPENDS = {"libc6", "libgcc-s1", "libstdc++6", "libgpiod3", "libqrencode4", "libsqlite3-0"}
# and what makes the gpio group (sysusers.d): systemd, which any Raspberry Pi OS runs.
WIN_SCRIPT = "7 4 8 5 9\n"  # X takes the top row


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(*command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


BUILT = {}


def built(arch, which="board"):
    """The board's (or the web view's, or the link's) package for `arch`, all made once per test
    session, and its unpacked tree."""
    if arch not in BUILT:
        result = run("bash", str(ROOT / "packaging" / "make-deb.sh"), arch, timeout=3600)
        assert result.returncode == 0, result.stderr[-4000:]
        print(result.stderr[-1000:])
        lines = result.stdout.strip().splitlines()
        BUILT[arch] = {}
        for name, deb in [("board", lines[-3]), ("web", lines[-2]), ("network", lines[-1])]:
            deb = pathlib.Path(deb)
            unpacked = pathlib.Path(tempfile.mkdtemp(prefix=f"deb-{name}-{arch}-", dir=ROOT / "dist"))
            subprocess.run(["dpkg-deb", "-R", str(deb), str(unpacked)], check=True)
            BUILT[arch][name] = (arch, deb, unpacked)
    return BUILT[arch][which]


@pytest.fixture(scope="module", params=["arm64"])
def package(request):
    return built(request.param)


def control(deb):
    fields = {}
    for line in run("dpkg-deb", "--field", str(deb)).stdout.splitlines():
        if line and not line[0].isspace() and ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    return fields


def packaged(arch, unpacked, program, *arguments):
    """The command that runs a packaged binary on its own architecture's libraries."""
    assert arch == "arm64", arch
    binary = unpacked / "usr" / "bin" / program
    sdks = run("bash", str(ROOT / "packaging" / "arm64-sysroot.sh"), str(CACHE)).stdout.strip()
    sysroot = pathlib.Path(sdks) / "trixie-arm64.artifactbundle" / "trixie-arm64" / "sysroot"
    return ["qemu-aarch64-static", "-L", str(sysroot), str(binary), *arguments]


def smoke(arch, unpacked, *arguments, stdin=""):
    """Runs the packaged board binary."""
    return subprocess.run(packaged(arch, unpacked, "tictactoe", *arguments), input=stdin, capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_control_fields(package):
    arch, deb, unpacked = package
    fields = control(deb)
    assert fields["Package"] == "tictactoe-gpio"
    assert fields["Architecture"] == arch
    version = smoke(arch, unpacked, "--version").stdout.strip()
    assert fields["Version"] == version, "the package and the program disagree on the version"
    assert deb.name == f"tictactoe-gpio_{version}_{arch}.deb"
    depends = {re.match(r"[a-z0-9.+-]+", item.strip()).group(0): item.strip()
               for item in fields["Depends"].split(",")}
    assert set(depends) == ALLOWED_DEPENDS | {"systemd"}, fields["Depends"]
    assert depends["systemd"] == "systemd | systemd-standalone-sysusers | systemd-sysusers"
    assert re.fullmatch(r"libgpiod3 \(>= 2\.[0-9.]+\)", depends["libgpiod3"])
    assert re.fullmatch(r"libqrencode4 \(>= [0-9.]+\)", depends["libqrencode4"])
    assert re.fullmatch(r"libsqlite3-0 \(>= 3\.[0-9][0-9.~+-]*\)", depends["libsqlite3-0"])
    # What a maker installs: our files (Installed-Size, KiB), libgpiod3 and libqrencode4 (each
    # well under 1 MB).
    assert int(fields["Installed-Size"]) <= 29 * 1024


def test_contents_and_conffiles(package):
    _, deb, unpacked = package
    listing = run("dpkg-deb", "--contents", str(deb)).stdout
    files = {line.split()[-1].lstrip(".") for line in listing.splitlines() if not line.startswith("d")}
    for path in ["/usr/bin/tictactoe", "/usr/lib/systemd/system/tictactoe.service",
                 "/usr/lib/systemd/system/tictactoe.socket", "/usr/share/doc/tictactoe-gpio/docs/API.md.gz",
                 "/usr/lib/udev/rules.d/60-tictactoe-gpio.rules", "/usr/lib/sysusers.d/tictactoe-gpio.conf",
                 "/etc/tictactoe/tictactoe.toml", "/usr/share/man/man1/tictactoe.1.gz",
                 "/usr/share/doc/tictactoe-gpio/copyright", "/usr/share/doc/tictactoe-gpio/changelog.gz",
                 "/usr/share/doc/tictactoe-gpio/CHANGELOG.md.gz", "/usr/share/doc/tictactoe-gpio/docs/RELEASES.md.gz",
                 "/usr/share/doc/tictactoe-gpio/wiring.png", "/usr/share/doc/tictactoe-gpio/README.md.gz"]:
        assert path in files, f"{path} missing from the package"
    assert not any(path.startswith("/usr/local") for path in files)
    assert (unpacked / "DEBIAN" / "conffiles").read_text().split() == ["/etc/tictactoe/tictactoe.toml"]
    assert (unpacked / "etc/tictactoe/tictactoe.toml").read_bytes() == (ROOT / "Hardware/tictactoe.toml").read_bytes()
    unit = (unpacked / "usr/lib/systemd/system/tictactoe.service").read_text()
    assert "ExecStart=/usr/bin/tictactoe run --config /etc/tictactoe/tictactoe.toml" in unit
    assert "/usr/local" not in unit
    socket = (unpacked / "usr/lib/systemd/system/tictactoe.socket").read_text()
    assert "ListenStream=/run/tictactoe/board.sock" in socket and "/usr/local" not in socket
    assert "g tictactoe - -" in (unpacked / "usr/lib/sysusers.d/tictactoe-gpio.conf").read_text()
    for script in ["postinst", "prerm", "postrm"]:
        path = unpacked / "DEBIAN" / script
        assert os.access(path, os.X_OK), script
        assert run("sh", "-n", str(path)).returncode == 0, script
    owners = {line.split()[1] for line in listing.splitlines()}
    assert owners == {"root/root"}


def test_binary_is_for_the_pi_and_needs_no_newer_glibc_than_trixie(package):
    arch, deb, unpacked = package
    binary = unpacked / "usr" / "bin" / "tictactoe"
    header = run("readelf", "-h", str(binary)).stdout
    assert re.search(rf"Machine:\s+{re.escape(ELF_MACHINES[arch])}", header), header
    dynamic = run("readelf", "-d", str(binary)).stdout
    needed = set(re.findall(r"Shared library: \[([^\]]+)\]", dynamic))
    assert not any("swift" in library or "Foundation" in library for library in needed), needed
    assert "libgpiod.so.3" in needed
    assert "libsqlite3.so.0" in needed
    assert "BIND_NOW" in dynamic or re.search(r"\(FLAGS_1\).*\bNOW\b", dynamic), "no full RELRO"
    versions = {tuple(int(part) for part in v.split(".")) for v in
                re.findall(r"GLIBC_([0-9.]+)", run("readelf", "--dyn-syms", "-W", str(binary)).stdout)}
    highest = max(versions)
    assert highest <= TRIXIE_GLIBC, highest
    depends = control(deb)["Depends"]
    assert f"libc6 (>= {'.'.join(map(str, highest))})" in depends, (highest, depends)
    assert ".debug_info" not in run("readelf", "-S", "-W", str(binary)).stdout, "not stripped"
    assert binary.stat().st_size <= 20 * 1024 * 1024, binary.stat().st_size


def test_lintian_is_clean(package):
    _, deb, _ = package
    result = run("bash", str(ROOT / "packaging" / "in-trixie.sh"), "lintian", "--pedantic", "--fail-on", "error,warning,info,pedantic",
                 str(deb), timeout=600)
    tags = [line for line in result.stdout.splitlines() if re.match(r"[EWIPX]: ", line)]
    assert result.returncode == 0 and not tags, result.stdout + result.stderr


def test_the_packaged_binary_plays_a_game_to_a_win(package):
    arch, _, unpacked = package
    result = smoke(arch, unpacked, "simulate", "--x-name", "Alice", "--o-name", "Bob", stdin=WIN_SCRIPT)
    assert result.returncode == 0, result.stderr
    assert re.search(r"— Alice \(X\) took cell 9\. Alice \(X\) wins along", result.stdout), result.stdout[-2000:]
    assert result.stdout.rstrip().endswith("score: Alice (X) 1 · Bob (O) 0 · draws 0"), result.stdout[-500:]


def test_the_packaged_binary_checks_a_configuration(package):
    arch, _, unpacked = package
    good = smoke(arch, unpacked, "check-config", str(unpacked / "etc/tictactoe/tictactoe.toml"))
    assert good.returncode == 0, good.stderr
    assert ": OK." in good.stdout
    with tempfile.NamedTemporaryFile("w", suffix=".toml", dir=ROOT / "dist", delete=False) as bad:
        bad.write((ROOT / "Hardware/tictactoe.toml").read_text().replace("o = 18", "o = 12"))
    refused = smoke(arch, unpacked, "check-config", bad.name)
    os.unlink(bad.name)
    assert refused.returncode == 78, (refused.returncode, refused.stderr)
    assert "GPIO12 is used twice, by status.x and by status.o" in refused.stderr


# The packages beside the board's (the web view's, the link's): what each must be alike.

def companion_fields(deb, arch, package):
    """A companion package's control fields, after the checks every one passes (its name, source,
    architecture and version, the board's own version as a dependency); its other Depends by name."""
    fields = control(deb)
    version = control(built(arch)[1])["Version"]
    assert fields["Package"] == package and fields["Source"] == "tictactoe-gpio"
    assert fields["Architecture"] == arch and fields["Version"] == version
    assert deb.name == f"{package}_{version}_{arch}.deb"
    depends = {re.match(r"[a-z0-9.+-]+", item.strip()).group(0): item.strip() for item in fields["Depends"].split(",")}
    assert depends.pop("tictactoe-gpio") == f"tictactoe-gpio (= {version})", fields["Depends"]
    print(f"\n{deb.name}: {deb.stat().st_size // 1024} KB, Installed-Size {fields['Installed-Size']} KiB")
    return fields, depends


def companion_files(deb):
    """The files a package installs (not its folders), by absolute path, once every one is
    checked to be root's."""
    listing = run("dpkg-deb", "--contents", str(deb)).stdout
    assert {line.split()[1] for line in listing.splitlines()} == {"root/root"}
    return {line.split()[-1].lstrip(".") for line in listing.splitlines() if not line.startswith("d")}


def maintainer_scripts_run(unpacked):
    for script in ["postinst", "prerm", "postrm"]:
        path = unpacked / "DEBIAN" / script
        assert os.access(path, os.X_OK), script
        assert run("sh", "-n", str(path)).returncode == 0, script


def companion_binary(arch, unpacked, program):
    """A companion's binary, once checked to be the Pi's, hardened, stripped, needing no newer
    glibc than trixie's and no shared Swift runtime, Foundation or ICU; the libraries it needs."""
    binary = unpacked / "usr" / "bin" / program
    assert re.search(rf"Machine:\s+{re.escape(ELF_MACHINES[arch])}", run("readelf", "-h", str(binary)).stdout)
    dynamic = run("readelf", "-d", str(binary)).stdout
    needed = set(re.findall(r"Shared library: \[([^\]]+)\]", dynamic))
    assert not any("swift" in library or "Foundation" in library or "icu" in library for library in needed), needed
    assert "BIND_NOW" in dynamic or re.search(r"\(FLAGS_1\).*\bNOW\b", dynamic), "no full RELRO"
    versions = {tuple(int(part) for part in v.split(".")) for v in
                re.findall(r"GLIBC_([0-9.]+)", run("readelf", "--dyn-syms", "-W", str(binary)).stdout)}
    assert max(versions) <= TRIXIE_GLIBC, max(versions)
    assert ".debug_info" not in run("readelf", "-S", "-W", str(binary)).stdout, "not stripped"
    return needed


# The web view's package.

# The web view draws the page's address as a QR code (/qr.svg) with libqrencode4 too; it reaches
# the board only through its socket, so neither libgpiod3 nor SQLite (the board's database).
WEB_ALLOWED_DEPENDS = {"libc6", "libgcc-s1", "libstdc++6", "libqrencode4"}
PAGE_FILES = ["board.css", "board.js", "icon-192.png", "icon-512.png", "icon.svg", "index.html", "manifest.webmanifest"]


@pytest.fixture(scope="module", params=["arm64"])
def web_package(request):
    return built(request.param, "web")


def test_the_web_views_control_fields(web_package):
    arch, deb, _ = web_package
    fields, depends = companion_fields(deb, arch, "tictactoe-gpio-web")
    assert set(depends) == WEB_ALLOWED_DEPENDS, fields["Depends"]
    # Swift's runtime and FoundationEssentials are linked in, not Foundation with ICU's data and
    # libcurl (57,768 KiB installed when it did; CHANGELOG.md, 0.4.0).
    assert int(fields["Installed-Size"]) <= 25 * 1024


def test_the_web_views_contents(web_package):
    _, deb, unpacked = web_package
    files = companion_files(deb)
    expected = {"/usr/bin/tictactoe-web", "/usr/lib/systemd/system/tictactoe-web.service",
                "/etc/avahi/services/tictactoe-gpio-web.service", "/usr/share/man/man1/tictactoe-web.1.gz",
                "/usr/share/doc/tictactoe-gpio-web/WEB.md.gz", "/usr/share/doc/tictactoe-gpio-web/copyright",
                "/usr/share/doc/tictactoe-gpio-web/changelog.gz",
                "/usr/share/lintian/overrides/tictactoe-gpio-web"} | {f"/usr/share/tictactoe-gpio/web/{name}" for name in PAGE_FILES}
    assert files == expected, files ^ expected
    for name in PAGE_FILES:
        assert (unpacked / "usr/share/tictactoe-gpio/web" / name).read_bytes() == (ROOT / "web" / name).read_bytes()
    assert (unpacked / "DEBIAN" / "conffiles").read_text().split() == ["/etc/avahi/services/tictactoe-gpio-web.service"]
    unit = (unpacked / "usr/lib/systemd/system/tictactoe-web.service").read_text()
    assert ("ExecStart=/usr/bin/tictactoe-web --config /etc/tictactoe/tictactoe.toml --page /usr/share/tictactoe-gpio/web"
            in unit)
    assert "/usr/local" not in unit
    maintainer_scripts_run(unpacked)


def test_the_web_views_binary(web_package):
    arch, _, unpacked = web_package
    needed = companion_binary(arch, unpacked, "tictactoe-web")
    assert "libsqlite3.so.0" not in needed, needed


def test_the_web_views_lintian_is_clean(web_package):
    test_lintian_is_clean(web_package)


def test_the_packaged_web_view_serves_its_page(web_package):
    """The packaged binary on its own architecture, with the package's page, answering a browser's
    request on loopback (no board: the page still loads) and stopping on SIGTERM."""
    arch, _, unpacked = web_package
    command = packaged(arch, unpacked, "tictactoe-web", "--socket", "/nonexistent/board.sock", "--listen", "127.0.0.1:0",
                       "--page", str(unpacked / "usr/share/tictactoe-gpio/web"), "--config", str(ROOT / "Hardware/tictactoe.toml"))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = process.stdout.readline()
        assert "the board's page is at http://127.0.0.1:" in line, line + process.stderr.read()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/", headers={"Host": f"localhost:{port}"})
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200
        assert body == (ROOT / "web/index.html").read_bytes()
        assert "script-src 'self'" in response.getheader("Content-Security-Policy")
        connection.request("GET", "/", headers={"Host": "evil.example"})
        refused = connection.getresponse()
        refused.read()
        assert refused.status == 421
    finally:
        # The process is qemu, which passes the signal on to the program.
        os.kill(process.pid, signal.SIGTERM)
        status = process.wait(timeout=120)
    assert status == 0, process.stderr.read()


# The MQTT link's package.

# The link reaches the board only through its socket and the broker through libmosquitto1 (which
# brings libssl3t64 for TLS): neither libgpiod3, SQLite nor libqrencode4.
NETWORK_ALLOWED_DEPENDS = {"libc6", "libgcc-s1", "libstdc++6", "libmosquitto1"}


@pytest.fixture(scope="module", params=["arm64"])
def network_package(request):
    return built(request.param, "network")


def test_the_links_control_fields(network_package):
    arch, deb, _ = network_package
    fields, depends = companion_fields(deb, arch, "tictactoe-gpio-network")
    # Its user is made by sysusers.d, as the board's groups are.
    assert depends.pop("systemd") == "systemd | systemd-standalone-sysusers | systemd-sysusers", fields["Depends"]
    assert set(depends) <= NETWORK_ALLOWED_DEPENDS and "libmosquitto1" in depends, fields["Depends"]
    # MQTT 5's calls came in libmosquitto 1.6 (its symbols file says so; trixie has 2.0).
    assert re.fullmatch(r"libmosquitto1 \(>= [0-9.]+\)", depends["libmosquitto1"]), depends
    assert fields["Suggests"] == "mosquitto"
    assert int(fields["Installed-Size"]) <= 25 * 1024


def test_the_links_contents(network_package):
    _, deb, unpacked = network_package
    files = companion_files(deb)
    doc = "/usr/share/doc/tictactoe-gpio-network"
    expected = {"/usr/bin/tictactoe-network", "/usr/lib/systemd/system/tictactoe-network.service",
                "/usr/lib/sysusers.d/tictactoe-gpio-network.conf", "/usr/share/man/man1/tictactoe-network.1.gz",
                f"{doc}/NETWORK.md.gz", f"{doc}/tictactoe.acl", f"{doc}/copyright", f"{doc}/changelog.gz",
                "/usr/share/lintian/overrides/tictactoe-gpio-network"}
    assert files == expected, files ^ expected
    # The access list the docs tell the broker's owner to use is the one the tests run against.
    assert (unpacked / doc.lstrip("/") / "tictactoe.acl").read_bytes() == (ROOT / "Hardware/mosquitto/tictactoe.acl").read_bytes()
    # Nothing in /etc: the link reads the board's configuration file, which the board's package owns.
    assert not (unpacked / "DEBIAN" / "conffiles").exists()
    unit = (unpacked / "usr/lib/systemd/system/tictactoe-network.service").read_text()
    assert "ExecStart=/usr/bin/tictactoe-network --config /etc/tictactoe/tictactoe.toml" in unit
    assert "/usr/local" not in unit and "man:tictactoe-network(1)" in unit
    # Installed disabled: nothing in the maintainer scripts enables or starts it.
    postinst = (unpacked / "DEBIAN" / "postinst").read_text()
    assert "systemd-sysusers tictactoe-gpio-network.conf" in postinst
    assert not re.search(r"helper enable|invoke (start|restart|\$)", postinst), postinst
    maintainer_scripts_run(unpacked)


def test_the_links_binary(network_package):
    arch, _, unpacked = network_package
    needed = companion_binary(arch, unpacked, "tictactoe-network")
    assert "libmosquitto.so.1" in needed, needed
    assert not any(name in library for library in needed for name in ["gpiod", "sqlite", "qrencode"]), needed


def test_the_links_lintian_is_clean(network_package):
    test_lintian_is_clean(network_package)


def retained(port, topic, wanted, attempts=60, publisher=None):
    """The retained message on `topic` once `wanted` holds for it (each attempt a fresh
    subscription, which the broker answers with the retained message at once), or the last seen;
    no more attempts once `publisher` (a process) has ended."""
    payload = None
    for _ in range(attempts):
        if publisher is not None and publisher.poll() is not None:
            break
        result = run("mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-C", "1", "-W", "5", timeout=30)
        payload = result.stdout.strip() or payload
        if payload is not None and wanted(payload):
            return payload
    return payload


def test_the_packaged_link_plays_the_packaged_board_through_a_real_broker(network_package, tmp_path):
    """Both packaged binaries on their own architecture's libraries (the link on libmosquitto1):
    the board served on a socket, Debian's mosquitto on loopback, the link between them. The
    board's state is retained on the broker, a press published there is played, and a stop marks
    the board offline."""
    arch, _, unpacked = network_package
    _, _, board_tree = built(arch)
    port = free_port()
    (tmp_path / "mosquitto.conf").write_text(("user root\n" if os.getuid() == 0 else "") +
                                             f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    socket_path = tmp_path / "board.sock"
    (tmp_path / "tictactoe.toml").write_text('[network]\nallow = "play"\n')
    broker = subprocess.Popen(["mosquitto", "-c", str(tmp_path / "mosquitto.conf")], stderr=subprocess.PIPE, text=True)
    board = subprocess.Popen(packaged(arch, board_tree, "tictactoe", "simulate", "--serve", str(socket_path),
                                      "--state-dir", str(tmp_path / "state")),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    link = subprocess.Popen(packaged(arch, unpacked, "tictactoe-network", "--socket", str(socket_path), "--broker",
                                     f"127.0.0.1:{port}", "--name", "packaged", "--config", str(tmp_path / "tictactoe.toml")),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert retained(port, "tictactoe/packaged/presence", lambda text: text == "online", publisher=link) == "online"
        empty = retained(port, "tictactoe/packaged/state", lambda text: '"cells"' in text, publisher=link)
        assert empty and json.loads(empty)["state"]["cells"] == [""] * 9, empty
        published = run("mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", "tictactoe/packaged/commands",
                        "-m", '{"command":"press","cell":5}', timeout=30)
        assert published.returncode == 0, published.stderr
        after = retained(port, "tictactoe/packaged/state", lambda text: json.loads(text)["state"]["cells"][4] != "", publisher=link)
        assert json.loads(after)["state"]["cells"][4] in ("X", "O"), after
    finally:
        link.send_signal(signal.SIGTERM)
        link_status = link.wait(timeout=120)
        offline = retained(port, "tictactoe/packaged/presence", lambda text: text == "offline", attempts=5)
        for process in (board, broker):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=120)
    said = link.stdout.read()
    assert link_status == 0, said
    assert offline == "offline", said
    assert "as tictactoe/packaged/; messages may play" in said, said


def test_the_shipped_configuration_is_the_previous_releases():
    """dpkg asks what to do with an edited conffile when the package's own copy changed, and a
    non-interactive `apt upgrade` cannot answer: so the default configuration stays as the
    previous release shipped it (a new key gets its default in the code; docs/RELEASES.md)."""
    line = next(line for line in (ROOT / "vm/appliance/previous-release").read_text().splitlines()
                if line and not line.startswith("#"))
    commit = line.split()[1]
    previous = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:Hardware/tictactoe.toml"],
                              capture_output=True, text=True)
    assert previous.returncode == 0, previous.stderr
    assert (ROOT / "Hardware/tictactoe.toml").read_text() == previous.stdout, \
        "Hardware/tictactoe.toml differs from the previous release's: an edited copy on a Pi would stop apt upgrade at dpkg's question"
    # And every release's a board may be upgraded from (the tags a clone has).
    tags = subprocess.run(["git", "-C", str(ROOT), "tag", "--list", "v*"], capture_output=True, text=True).stdout.split()
    for tag in tags:
        shipped = subprocess.run(["git", "-C", str(ROOT), "show", f"{tag}:Hardware/tictactoe.toml"], capture_output=True, text=True)
        if shipped.returncode == 0:
            assert (ROOT / "Hardware/tictactoe.toml").read_text() == shipped.stdout, \
                f"Hardware/tictactoe.toml differs from {tag}'s: an edited copy on a Pi would stop apt upgrade at dpkg's question"
