"""The page's PNG icons (web/icon-192.png, web/icon-512.png), made from web/icon.svg by Debian's
headless Chromium, for launchers and iOS's home screen, which take no SVG icon. Run again after
icon.svg changes: python3 browser/make_icons.py. The same Chromium makes the same bytes."""

import base64
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cdp import Chromium  # noqa: E402

WEB = pathlib.Path(__file__).resolve().parent.parent / "web"
SIZES = (192, 512)  # the manifest's icons (web/manifest.webmanifest)


def render(browser, svg, size):
    image = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    html = f'<body style="margin:0"><img src="{image}" width="{size}" height="{size}"></body>'
    page = browser.open("data:text/html;base64," + base64.b64encode(html.encode()).decode())
    page.call("Emulation.setDeviceMetricsOverride", {"width": size, "height": size, "deviceScaleFactor": 1, "mobile": False})
    # Transparent where the icon is (its rounded corners): no white page behind it.
    page.call("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    page.wait_for("document.images[0].complete && document.images[0].naturalWidth > 0")
    shot = page.call("Page.captureScreenshot", {"format": "png", "clip": {"x": 0, "y": 0, "width": size, "height": size, "scale": 1}})
    page.call("Target.closeTarget", {"targetId": page.target})
    return base64.b64decode(shot["data"])


def main():
    svg = (WEB / "icon.svg").read_bytes()
    browser = Chromium(width=600, height=600)
    try:
        for size in SIZES:
            path = WEB / f"icon-{size}.png"
            path.write_bytes(render(browser, svg, size))
            print(f"{path}: {path.stat().st_size} bytes")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
