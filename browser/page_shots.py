"""Screenshots of the page in every state (states.py's walk), in both colour schemes, on a
390 px phone, into docs/images/page/<state>-<scheme>.png, the pictures docs/WEB.md shows. The
page and the programs are this tree's unless told; --prefix NAME writes NAME-<state>-<scheme>.png
instead, to set another tree's page beside this one's:

  python3 browser/page_shots.py
  git -C /work/main archive COMMIT web | tar -x -C /tmp/other
  PROGRAMS=/work/main/.build/debug python3 browser/page_shots.py --prefix other /tmp/other/web

Only the top of the page (the headline, the board, the controls) is kept, at 390 × 720 CSS px,
one device pixel each, in 64 colours (Debian's pngquant, which gives the same bytes each time),
so that the pictures stay small."""

import base64
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cdp import Chromium  # noqa: E402
from served import ROOT, Board, Client, Web  # noqa: E402
from states import IDLE_SLEEP, every_state  # noqa: E402

OUT = ROOT / "docs" / "images" / "page"
WIDTH, HEIGHT = 390, 720


def file_name(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def main():
    arguments = sys.argv[1:]
    prefix = ""
    if arguments[:1] == ["--prefix"] and len(arguments) > 1:
        prefix = arguments[1] + "-"
        arguments = arguments[2:]
    if not shutil.which("pngquant"):
        sys.exit("page_shots: needs pngquant (apt-get install pngquant)")
    page_folder = pathlib.Path(arguments[0]) if arguments else ROOT / "web"
    OUT.mkdir(parents=True, exist_ok=True)
    browser = Chromium()
    with tempfile.TemporaryDirectory(prefix="tictactoe-shots.") as folder:
        board = Board(folder, arguments=("--idle-sleep", IDLE_SLEEP))
        web = Web(folder, board, page=page_folder)
        client = Client(board.socket)
        page = browser.open(web.url)

        def visit(name):
            for scheme in ("light", "dark"):
                page.call("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
                page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme},
                                                                      {"name": "prefers-reduced-motion", "value": "reduce"}]})
                shot = page.call("Page.captureScreenshot", {"format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": 1}})
                path = OUT / f"{prefix}{file_name(name)}-{scheme}.png"
                path.write_bytes(base64.b64decode(shot["data"]))
                subprocess.run(["pngquant", "--force", "--strip", "--speed", "1", "64", "--output", path, path], check=True)
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")

        try:
            every_state(page, board, web, client, visit)
        finally:
            client.close()
            if web.process.poll() is None:
                web.stop()
            if board.process.poll() is None:
                board.stop()
            browser.close()


if __name__ == "__main__":
    main()
