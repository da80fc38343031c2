"""The page's address, passed on: the QR code the page shows (`/qr.svg`, drawn by the web view
from the address the page was opened by) and the one `tictactoe status` prints, each read back
by a real QR decoder (zxing-cpp, pinned by hash in browser/zxing-requirements.txt) and compared with
the address it must carry; and `/qr.svg` refused for a Host the web view does not answer to.

Run by `make browser-test` (part of `make test`)."""

import base64
import http.client
import subprocess
import tempfile

import pytest
import zxingcpp

import png
from served import BIN, ROOT, Board, Web

SCHEMES = ["light", "dark"]


@pytest.fixture(scope="module")
def served():
    with tempfile.TemporaryDirectory(prefix="tictactoe-share.") as folder:
        board = Board(folder)
        web = Web(folder, board)
        yield board, web
        web.stop()
        board.stop()


def decoded(grey_rows, width, height):
    """The texts of the QR codes zxing-cpp finds in a grey image given as rows of bytes, read as
    dark modules on light only: many phones' scanners do not try the inverse, so neither does this."""
    grey = memoryview(bytearray(b"".join(grey_rows))).cast("B", (height, width))
    barcodes = zxingcpp.read_barcodes(grey, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    return [barcode.text for barcode in barcodes]


def page_code(page):
    """A screenshot of the page's QR code as it is drawn (with a margin of the page around it),
    read by the decoder; and the address the page says as text."""
    page.wait_for("(() => { const i = document.getElementById('share-code'); return i.complete && i.naturalWidth > 0; })()")
    where = ("(() => { const i = document.getElementById('share-code'); const r = i.getBoundingClientRect();"
             " return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()")  # the clip is in the document's coordinates
    # What arrives after the page opens (the history, drawn above the code) moves the code down:
    # the picture counts only if the code stood in the same place before and after it was taken.
    for _ in range(20):
        x, y, width, height = page.evaluate(where)
        clip = {"x": max(0, x - 16), "y": max(0, y - 16), "width": width + 32, "height": height + 32, "scale": 1}
        data = page.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})["data"]
        if page.evaluate(where) == [x, y, width, height]:
            break
    else:
        raise AssertionError("the page's code kept moving")
    image = png.read(base64.b64decode(data))
    return decoded(image.grey_rows(), image.width, image.height), page.evaluate("document.getElementById('share-address').textContent")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_pages_code_reads_as_the_address_it_was_opened_by(browser, served, scheme):
    _, web = served
    port = web.url.split(":")[2].split("/")[0]
    for url in [web.url, f"http://localhost:{port}/"]:
        page = browser.open(url)
        try:
            page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
            own = page.evaluate("location.origin + '/'")
            assert own == url
            texts, shown = page_code(page)
            print(f"\n{scheme}, opened at {url}: the code reads {texts}; the page says {shown!r}")
            assert texts == [own]
            assert shown == own
            assert page.evaluate("document.getElementById('share-code').alt").endswith(own)
        finally:
            browser.connection.call("Target.closeTarget", {"targetId": page.target})


def status_code(lines):
    """The address `tictactoe status` names and the texts its printed QR code reads as: the
    half blocks after the `page:` line turned back into modules, four pixels a module."""
    start = next(index for index, line in enumerate(lines) if line.startswith("page: "))
    address = lines[start].split()[1]
    rows = []
    for line in lines[start + 1:]:
        upper = bytes(0 if glyph in "▀█" else 255 for glyph in line for _ in range(4))
        lower = bytes(0 if glyph in "▄█" else 255 for glyph in line for _ in range(4))
        rows += [upper] * 4 + [lower] * 4
    assert rows and all(len(row) == len(rows[0]) for row in rows), lines[start:]
    return address, decoded(rows, len(rows[0]), len(rows))


def test_the_status_commands_code_reads_as_the_address_it_prints(served):
    board, _ = served
    status = subprocess.run([BIN / "tictactoe", "status", "--socket", board.socket, "--config", ROOT / "Hardware" / "tictactoe.toml"],
                            capture_output=True, text=True, timeout=60)
    assert status.returncode == 0, status.stderr
    lines = status.stdout.splitlines()
    address, texts = status_code(lines)
    print(f"\ntictactoe status names {address}; its code reads {texts}")
    assert address.startswith("http://") and address.endswith("/")
    assert texts == [address]
    # Plain text (not a terminal): no colour codes in it.
    assert "\x1b[" not in status.stdout


@pytest.mark.parametrize("host", ["attacker.example", "localhost@attacker.example", "localhost:" + "9" * 2000,
                                  "a" * 3000 + ".example", 'localhost"><svg onload=alert(1)>'])
def test_the_code_is_refused_for_a_host_the_web_view_does_not_answer_to(served, host):
    _, web = served
    port = int(web.url.split(":")[2].split("/")[0])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("GET", "/qr.svg", skip_host=True)
    connection.putheader("Host", host)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    # As for any path (the host policy, or the server's bound on a request's head).
    assert response.status in (421, 431), (response.status, body[:200])
    assert b"<svg" not in body
    connection.close()
