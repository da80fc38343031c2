"""The signed apt repository (packaging/repo.sh, make repo): built from the packages make deb
makes, served by a plain static web server on loopback and read by this machine's apt (a private
configuration: its own lists, cache and sources, arm64 as its architecture) exactly as a Pi reads
it, from the deb822 sources file the README gives. apt must accept it only with the repository's
key, notice any change after signing, see every version added, and fetch the very file added.
Installing and upgrading from it on an arm64 machine under systemd is the appliance's part
(vm/test_appliance.py)."""

import functools
import hashlib
import http.server
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading

import pytest

from test_deb import built

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "packaging" / "repo.sh"


def repo(*arguments, key_home, **environment):
    return subprocess.run(["bash", str(SCRIPT), *map(str, arguments)], capture_output=True, text=True,
                          env={**os.environ, "REPO_KEY_HOME": str(key_home), **environment}, timeout=600)


def reversioned(deb, version, into, maintainer=None):
    """The same package under another version: what the next release's package is to apt (and,
    given a maintainer, a package of that version with other contents)."""
    into.mkdir(parents=True, exist_ok=True)
    tree = into / f"tree-{version}"
    subprocess.run(["dpkg-deb", "-R", str(deb), str(tree)], check=True)
    control = tree / "DEBIAN" / "control"
    fields = {"Version": version, **({"Maintainer": f"{maintainer} <{maintainer}@example.invalid>"} if maintainer else {})}
    control.write_text("".join(next((f"{name}: {value}\n" for name, value in fields.items() if line.startswith(f"{name}: ")), line)
                               for line in control.read_text().splitlines(keepends=True)))
    out = into / f"{deb.name.split('_')[0]}_{version}_arm64.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "-b", str(tree), str(out)], check=True,
                   capture_output=True)
    shutil.rmtree(tree)
    return out


def digest(folder):
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


class Apt:
    """This machine's apt with a configuration of its own, reading one repository as a Pi does."""

    def __init__(self, home, url, keyring):
        self.home = home
        for folder in ["parts", "empty", "state/lists/partial", "cache/archives/partial", "downloads"]:
            (home / folder).mkdir(parents=True, exist_ok=True)
        (home / "status").write_text("")
        (home / "parts" / "tictactoe-gpio.sources").write_text(
            f"Types: deb\nURIs: {url}\nSuites: trixie\nComponents: main\nSigned-By: {keyring}\n")

    def __call__(self, *arguments, cwd=None):
        options = {
            # Nothing of this machine's own configuration (apt.conf.d may relax checks).
            "Dir::Etc::main": "/dev/null", "Dir::Etc::Parts": self.home / "empty",
            "Dir::Etc::SourceList": "/dev/null", "Dir::Etc::SourceParts": self.home / "parts",
            "Dir::Etc::Preferences": "/dev/null", "Dir::Etc::PreferencesParts": self.home / "empty",
            "Dir::Etc::Trusted": "/dev/null", "Dir::Etc::TrustedParts": self.home / "empty",
            "Dir::State": self.home / "state", "Dir::State::status": self.home / "status",
            "Dir::Cache": self.home / "cache", "APT::Architecture": "arm64", "APT::Architectures::": "arm64",
            "Debug::NoLocking": "1", "APT::Sandbox::User": "root", "Acquire::Languages": "none",
        }
        command = ["apt-get"] if arguments[0] in ("update", "download") else ["apt-cache"]
        for name, value in options.items():
            command += ["-o", f"{name}={value}"]
        return subprocess.run(command + list(arguments), capture_output=True, text=True, timeout=120,
                              cwd=cwd or self.home / "downloads")


class Handler(http.server.SimpleHTTPRequestHandler):
    """A static host that answers every request whole: its If-Modified-Since has a second's
    grain, and the test publishes twice within one."""

    def do_GET(self):
        del self.headers["If-Modified-Since"]
        super().do_GET()

    def log_message(self, *arguments):
        pass


@pytest.fixture(scope="module")
def served():
    """A static web server on loopback over a folder that will hold the repository."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="repo-served-"))
    handler = functools.partial(Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield folder / "repo", f"http://127.0.0.1:{server.server_address[1]}/repo"
    server.shutdown()
    shutil.rmtree(folder)


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """This release's three packages, and the board's package again as the next release."""
    work = tmp_path_factory.mktemp("releases")
    board, web, network = (built("arm64", name)[1] for name in ["board", "web", "network"])
    version = subprocess.run(["dpkg-deb", "-f", str(board), "Version"], capture_output=True, text=True,
                             check=True).stdout.strip()
    return {"version": version, "board": board, "web": web, "network": network,
            "next": reversioned(board, f"{version}+next1", work), "next_version": f"{version}+next1"}


@pytest.fixture(scope="module")
def key_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("key") / "gnupg"
    made = repo("key", key_home=home)
    assert made.returncode == 0, made.stderr
    assert "made the signing key" in made.stderr
    again = repo("key", key_home=home)
    assert again.returncode == 0 and "already holds the signing key" in again.stderr, again.stderr
    return home


def test_apt_installs_from_the_repository_only_with_its_key_and_sees_every_later_version(served, releases, key_home, tmp_path):
    folder, url = served
    made = repo("build", folder, releases["board"], releases["web"], releases["network"], key_home=key_home)
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == str(folder)
    # Nothing secret is published: the public key alone.
    assert not list(folder.rglob("*.key")) and not list(folder.rglob("private-keys*"))
    public = subprocess.run(["gpg", "--batch", "--with-colons", "--show-keys", str(folder / "tictactoe-gpio.asc")],
                            capture_output=True, text=True)
    assert "\nsec" not in public.stdout and public.stdout.startswith("pub"), public.stdout

    apt = Apt(tmp_path / "pi", url, folder / "tictactoe-gpio.gpg")
    updated = apt("update")
    assert updated.returncode == 0 and "W:" not in updated.stdout + updated.stderr, updated.stdout + updated.stderr
    policy = apt("policy", "tictactoe-gpio")
    assert f"Candidate: {releases['version']}" in policy.stdout, policy.stdout
    assert apt("policy", "tictactoe-gpio-web").stdout.count(f"Candidate: {releases['version']}") == 1
    assert apt("policy", "tictactoe-gpio-network").stdout.count(f"Candidate: {releases['version']}") == 1
    fetched = apt("download", "tictactoe-gpio")
    assert fetched.returncode == 0, fetched.stderr
    [deb] = (tmp_path / "pi" / "downloads").glob("tictactoe-gpio_*.deb")
    assert deb.read_bytes() == releases["board"].read_bytes()

    # The next release is added beside it: apt upgrades to it, and the first stays installable.
    added = repo("build", folder, releases["next"], key_home=key_home)
    assert added.returncode == 0, added.stderr
    assert apt("update").returncode == 0
    madison = apt("madison", "tictactoe-gpio").stdout
    assert releases["version"] in madison and releases["next_version"] in madison, madison
    assert f"Candidate: {releases['next_version']}" in apt("policy", "tictactoe-gpio").stdout


def test_apt_refuses_the_repository_under_another_key_and_after_any_change(served, releases, key_home, tmp_path):
    folder, url = served
    assert repo("build", folder, releases["board"], key_home=key_home).returncode == 0
    other_home = tmp_path / "other-key"
    assert repo("key", key_home=other_home).returncode == 0
    subprocess.run(["gpg", "--homedir", str(other_home), "--batch", "--export", "--output", str(tmp_path / "other.gpg")],
                   check=True)
    stranger = Apt(tmp_path / "stranger", url, tmp_path / "other.gpg")
    refused = stranger("update")
    assert "NO_PUBKEY" in refused.stderr or "not signed" in refused.stderr, refused.stderr
    assert "Candidate: (none)" in stranger("policy", "tictactoe-gpio").stdout or \
        "tictactoe-gpio" not in stranger("policy", "tictactoe-gpio").stdout

    # The index changed after signing (a compromised host): apt will not use it.
    packages = folder / "dists" / "trixie" / "main" / "binary-arm64" / "Packages"
    kept = {path: path.read_bytes() for path in packages.parent.iterdir()}
    try:
        for path in packages.parent.iterdir():
            path.unlink()
        packages.write_text(kept[packages].decode().replace("Maintainer:", "Maintainer: mallory", 1))
        tampered = Apt(tmp_path / "tampered", url, folder / "tictactoe-gpio.gpg")
        result = tampered("update")
        assert result.returncode != 0 and ("Hash Sum mismatch" in result.stderr or "unexpected size" in result.stderr), result.stderr
    finally:
        for path in packages.parent.iterdir():
            path.unlink()
        for path, data in kept.items():
            path.write_bytes(data)
    # The signature itself altered: refused too.
    inrelease = folder / "dists" / "trixie" / "InRelease"
    signed = inrelease.read_text()
    try:
        inrelease.write_text(signed.replace("Label: tictactoe-gpio", "Label: tictactoe-gpiO"))
        (folder / "dists" / "trixie" / "Release.gpg").rename(folder / "Release.gpg.aside")
        forged = Apt(tmp_path / "forged", url, folder / "tictactoe-gpio.gpg")
        result = forged("update")
        assert result.returncode != 0 and ("BADSIG" in result.stderr or "not signed" in result.stderr), result.stderr
        assert "Candidate: (none)" in forged("policy", "tictactoe-gpio").stdout or \
            "tictactoe-gpio" not in forged("policy", "tictactoe-gpio").stdout
    finally:
        inrelease.write_text(signed)
        (folder / "Release.gpg.aside").rename(folder / "dists" / "trixie" / "Release.gpg")


def test_make_repo_refuses_what_would_break_the_pis_that_trust_it_and_changes_nothing(served, releases, key_home, tmp_path):
    folder, _ = served
    assert repo("build", folder, releases["board"], key_home=key_home).returncode == 0
    before = digest(folder)

    # A published version with other contents (a rebuild under the same number).
    rebuilt = reversioned(releases["next"], releases["version"], tmp_path)
    assert rebuilt.read_bytes() != releases["board"].read_bytes()
    result = repo("build", folder, rebuilt, key_home=key_home)
    assert result.returncode == 65 and "published already with other contents" in result.stderr, result.stderr
    assert "raise the version" in result.stderr

    # Another key than the one the repository is known by.
    other_home = tmp_path / "another"
    assert repo("key", key_home=other_home).returncode == 0
    result = repo("build", folder, releases["board"], key_home=other_home)
    assert result.returncode == 65 and "is signed by the key" in result.stderr, result.stderr

    # No key, a file that is no package, a package that is not ours, one for another machine.
    result = repo("build", folder, releases["board"], key_home=tmp_path / "none")
    assert result.returncode == 78 and "make repo-key" in result.stderr, result.stderr
    junk = tmp_path / "junk.deb"
    junk.write_text("not a package")
    result = repo("build", folder, junk, key_home=key_home)
    assert result.returncode == 65 and "not a Debian package" in result.stderr, result.stderr
    amd64 = tmp_path / "amd64"
    subprocess.run(["dpkg-deb", "-R", str(releases["board"]), str(amd64)], check=True)
    control = amd64 / "DEBIAN" / "control"
    control.write_text(control.read_text().replace("Architecture: arm64", "Architecture: amd64"))
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "-b", str(amd64), str(tmp_path / "amd64.deb")],
                   check=True, capture_output=True)
    result = repo("build", folder, tmp_path / "amd64.deb", key_home=key_home)
    assert result.returncode == 65 and "for 'amd64'" in result.stderr, result.stderr
    result = repo("build", folder, tmp_path / "absent.deb", key_home=key_home)
    assert result.returncode == 66 and "make deb" in result.stderr, result.stderr
    assert repo("build", key_home=key_home).returncode == 64

    # The same package and version twice in one call, with other contents.
    twins = [reversioned(releases["board"], f"{releases['version']}+twin1", tmp_path / name, maintainer=name)
             for name in ["one", "two"]]
    result = repo("build", folder, *twins, key_home=key_home)
    assert result.returncode == 65 and "with other contents: add one of them" in result.stderr, result.stderr
    # The key's home inside the folder that is published.
    inner = folder / "keys"
    assert repo("key", key_home=inner).returncode == 0
    result = repo("build", folder, releases["board"], key_home=inner)
    assert result.returncode == 65 and "publishing the folder would publish the secret key" in result.stderr, result.stderr
    shutil.rmtree(inner)
    assert digest(folder) == before, "a refused make repo changed the repository"

    # The published key file gone: the index still names its key, and another is refused.
    published = (folder / "tictactoe-gpio.gpg").read_bytes()
    (folder / "tictactoe-gpio.gpg").unlink()
    result = repo("build", folder, releases["board"], key_home=other_home)
    assert result.returncode == 65 and "is not signed by" in result.stderr, result.stderr
    (folder / "tictactoe-gpio.gpg").write_bytes(published)
    # A published package damaged: named, and the index left as it was.
    pooled = next((folder / "pool").rglob("tictactoe-gpio_*.deb"))
    kept = pooled.read_bytes()
    try:
        pooled.write_bytes(kept[:100])
        result = repo("build", folder, releases["web"], key_home=key_home)
        assert result.returncode == 65 and "damaged" in result.stderr, result.stderr
        assert digest(folder)["dists/trixie/InRelease"] == before["dists/trixie/InRelease"]
        result = repo("build", folder, releases["board"], key_home=key_home)
        assert result.returncode == 65 and "is damaged (not a package any more)" in result.stderr, result.stderr
    finally:
        pooled.write_bytes(kept)
    assert digest(folder) == before, "a refused make repo changed the repository"
