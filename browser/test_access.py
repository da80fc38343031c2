"""The page for everyone, on every phone: WCAG 2.2 AA in both colour schemes, by keyboard alone,
at 320 px, and installable. In Debian's headless Chromium over the DevTools protocol, against the
simulated board and the web view built from this tree (as test_page.py).

- axe-core (Deque's rules, from a PyPI wheel pinned by hash: browser/axe-requirements.txt, made
  ready by `make setup-tests`) on every state of the page (each cell look, each headline, the
  banners, the dialog) × both colour schemes × a phone's 390 px and a desktop's 1280 px: no
  violation of its wcag2a/2aa/21a/21aa/22aa and best-practice rules.
- What axe does not see, measured here from the computed colours: the X and O glyphs (CSS
  generated text) against their cell, each cell's edge against the board, the headline's badge,
  and the focus ring of every control against what surrounds it.
- The keyboard: one Tab onto the board, arrows, Home and End, Enter and Space play a whole game,
  the focus visible at each step; a dialog keeps focus in it and gives it back.
- No horizontal scroll at 320 px in any state; the manifest and its icons load; Chromium's own
  installability check has nothing to say; the tab's title says whose turn it is.

ACCESS_PAGE=folder serves another copy of the page (main's, to show what these tests find)."""

import base64
import hashlib
import json
import os
import pathlib
import re
import tempfile
import zipfile

import pytest

from served import ROOT, Board, Client, Web
from states import IDLE_SLEEP, every_state, index, shows

PAGE = pathlib.Path(os.environ.get("ACCESS_PAGE", ROOT / "web"))
AXE_CACHE = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache")) / "tictactoe-gpio" / "axe"
AXE_WHEEL = "axe_playwright_python-0.1.8-py3-none-any.whl"  # browser/axe-requirements.txt pins its hash
AXE_FILE = "axe_playwright_python/axe.min.js"
AXE_SHA256 = "84494fec757e4710dc751c8d7a636e457f4532f08f85c86dc9070133fbff53bc"  # axe-core 4.12.1
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
SCHEMES = ["light", "dark"]
WIDTHS = [(390, 844, True), (1280, 800, False)]  # a phone's and a desktop's viewports
NARROWEST = 320  # the narrowest phone the page must fit without scrolling sideways
TEXT, LARGE_TEXT, NON_TEXT = 4.5, 3.0, 3.0  # WCAG 2.2 AA: 1.4.3 and 1.4.11


def axe_source():
    wheel = AXE_CACHE / AXE_WHEEL
    assert wheel.exists(), f"{wheel} is missing: make setup-tests downloads it (scripts/setup-host.sh)"
    source = zipfile.ZipFile(wheel).read(AXE_FILE)
    assert hashlib.sha256(source).hexdigest() == AXE_SHA256, "axe.min.js is not the one pinned"
    return source.decode()


AXE = axe_source()

AXE_RUN = """axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"]})
  .then((result) => result.violations.map((rule) => ({id: rule.id, nodes: rule.nodes.map((node) =>
    node.target.join(" ") + ": " + (node.failureSummary || "").split("\\n").slice(1).join(" ").trim())})))""" % json.dumps(AXE_TAGS)

# What axe cannot see, measured from the computed colours. Each colour is composited over what
# is behind it (the backgrounds of its ancestors, their opacity) and through the filters on its
# way up (saturate(), brightness()), as the screen shows it; contrast is WCAG's.
COLOURS = r"""
  const parse = (text) => {
    const m = /rgba?\(([^)]*)\)/.exec(text);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const channel = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const luminance = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const saturate = (c, s) => [
    (0.213 + 0.787 * s) * c[0] + (0.715 - 0.715 * s) * c[1] + (0.072 - 0.072 * s) * c[2],
    (0.213 - 0.213 * s) * c[0] + (0.715 + 0.285 * s) * c[1] + (0.072 - 0.072 * s) * c[2],
    (0.213 - 0.213 * s) * c[0] + (0.715 - 0.715 * s) * c[1] + (0.072 + 0.928 * s) * c[2], 1];
  const ancestors = (el) => { const list = []; for (let e = el; e && e.nodeType === 1; e = e.parentElement) list.push(e); return list; };
  // The opaque colour behind an element's own content: its background over its ancestors'.
  const behind = (el) => {
    let colour = [255, 255, 255, 1];
    for (const e of ancestors(el).reverse()) colour = over(parse(getComputedStyle(e).backgroundColor), colour);
    return colour;
  };
  // A colour drawn in `el` as it reaches the screen: faded by the ancestors' opacity toward
  // what is behind the faded one, and through their filters.
  const shown = (el, colour) => {
    let result = over(colour, behind(el));
    for (const e of ancestors(el)) {
      const style = getComputedStyle(e);
      // The filters in their order: saturate() and brightness(), the ones the page uses.
      for (const [, kind, amount] of style.filter.matchAll(/(saturate|brightness)\(([\d.]+)\)/g)) {
        result = kind === "saturate" ? saturate(result, Number(amount)) : result.map((v, i) => (i < 3 ? Math.min(255, v * Number(amount)) : v));
      }
      if (Number(style.opacity) < 1) result = over([...result.slice(0, 3), Number(style.opacity)], behind(e.parentElement));
    }
    return result;
  };
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
"""

MEASURE = r"""((poorOnly) => {""" + COLOURS + r"""
  const found = [];
  const need = (what, ratio, least) => { if (!poorOnly || ratio < least) found.push({what, ratio: Math.round(ratio * 100) / 100, least}); };
  const board = document.getElementById("board");
  const boardColour = shown(board, parse(getComputedStyle(board).backgroundColor));
  for (const cell of document.querySelectorAll(".cell")) {
    const style = getComputedStyle(cell), glyph = getComputedStyle(cell, "::after");
    const fill = shown(cell, parse(style.backgroundColor));
    const name = `cell ${cell.dataset.cell} (${cell.dataset.look})`;
    if (glyph.content !== "none" && glyph.content !== "normal") need(`${name}: its glyph against its fill`, contrast(shown(cell, parse(glyph.color)), fill), LEAST_TEXT);
    const ring = style.borderTopStyle !== "none" && parse(style.borderTopColor)[3] > 0;
    const edge = ring ? shown(cell, parse(style.borderTopColor)) : fill;
    need(`${name}: its edge against the board`, contrast(edge, boardColour), LEAST_NON_TEXT);
  }
  const turn = document.getElementById("turn"), badge = getComputedStyle(turn, "::before");
  if (badge.content !== "none" && badge.content !== "normal" && visible(turn)) {
    need(`the headline's badge against the page`, contrast(shown(turn, parse(badge.color)), behind(turn)), LEAST_TEXT);
  }
  // Focus: every control that can take it now (only the dialog's while one is open), focused
  // as the keyboard focuses it, its outline against what is around it.
  const dialog = document.querySelector("dialog[open]");
  const controls = [...(dialog || document).querySelectorAll("button, select, [tabindex]")].filter(visible);
  const before = document.activeElement;
  const tabStops = [...document.querySelectorAll(".cell")].map((cell) => cell.tabIndex);
  for (const control of controls) {
    control.focus({ focusVisible: true });
    const style = getComputedStyle(control);
    const name = `focus on ${control.id || (control.dataset.cell ? "cell " + control.dataset.cell : control.tagName)}`;
    const width = parseFloat(style.outlineWidth) || 0;
    if (!control.matches(":focus-visible") || style.outlineStyle === "none" || width <= 0) { found.push({what: `${name}: no visible outline`, ratio: 0, least: LEAST_NON_TEXT}); continue; }
    need(`${name}: its outline against its surroundings`, contrast(shown(control, parse(style.outlineColor)), behind(control.parentElement)), LEAST_NON_TEXT);
  }
  document.querySelectorAll(".cell").forEach((cell, i) => { cell.tabIndex = tabStops[i]; });
  if (before && before !== document.body) before.focus(); else if (document.activeElement) document.activeElement.blur();
  return found;
})"""


# The focused element, and its focus indicator measured as MEASURE measures every control's.
FOCUSED = r"""(() => {""" + COLOURS + r"""
  const el = document.activeElement, style = getComputedStyle(el);
  const width = parseFloat(style.outlineWidth) || 0;
  const drawn = el.matches(":focus-visible") && style.outlineStyle !== "none" && width > 0;
  return {cell: el.dataset.cell || null, id: el.id, name: el.getAttribute("aria-label"), inDialog: !!el.closest("dialog"),
          width, ratio: drawn ? contrast(shown(el, parse(style.outlineColor)), behind(el.parentElement)) : 0};
})()"""


def measure(page, poor_only=True):
    expression = (MEASURE.replace("LEAST_NON_TEXT", str(NON_TEXT)).replace("LEAST_TEXT", str(TEXT))
                  + f"({json.dumps(poor_only)})")
    return page.evaluate(expression)


def view_as(page, scheme, width, height, mobile):
    page.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
                                                          "screenWidth": width, "screenHeight": height})
    page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme},
                                                          {"name": "prefers-reduced-motion", "value": "reduce"}]})
    assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
    # The screen's width: a phone's page that overflows widens its layout viewport (innerWidth).
    assert page.evaluate(f"screen.width === {width}"), page.evaluate("screen.width")


def run_axe(page):
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        result = page.call("Runtime.evaluate", {"expression": AXE + "\n;true", "returnByValue": True}, timeout=60)
        assert "exceptionDetails" not in result, result
    return page.evaluate(AXE_RUN)


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


class Audit:
    """Every check of one state of the page, in each scheme and width; what fails, by state."""

    def __init__(self, page):
        self.page = page
        self.failures = []
        self.states = []
        self.axe_runs = 0

    def check(self, state):
        self.states.append(state)
        for scheme in SCHEMES:
            for width, height, mobile in WIDTHS:
                view_as(self.page, scheme, width, height, mobile)
                where = f"{state}, {scheme}, {width} px"
                for rule in run_axe(self.page):
                    self.failures.append(f"{where}: axe {rule['id']}: {rule['nodes']}")
                self.axe_runs += 1
                for poor in measure(self.page):
                    self.failures.append(f"{where}: {poor['what']} {poor['ratio']}:1, under {poor['least']}:1")
            view_as(self.page, scheme, NARROWEST, 640, True)
            if scroll_width(self.page) > NARROWEST:
                self.failures.append(f"{state}, {scheme}, {NARROWEST} px: scrolls sideways, {scroll_width(self.page)} px wide")
        view_as(self.page, "light", *WIDTHS[0])


@pytest.fixture
def served():
    with tempfile.TemporaryDirectory(prefix="tictactoe-access.") as name:
        board = Board(name, arguments=("--idle-sleep", IDLE_SLEEP))
        web = Web(name, board, page=PAGE)
        client = Client(board.socket)
        yield board, web, client
        client.close()
        if web.process.poll() is None:
            web.stop()
        if board.process.poll() is None:
            board.stop()


# The names board.css draws (`[data-look="…"]`, `[data-headline="…"]`): what every_state must show.
STYLES = (PAGE / "board.css").read_text()
LOOKS = set(re.findall(r'\[data-look="([a-z-]+)"\]', STYLES))
HEADLINES = set(re.findall(r'\[data-headline="([a-z-]+)"\]', STYLES))
SEEN = """[[...document.querySelectorAll('.cell')].map((c) => c.dataset.look), document.getElementById('view').dataset.headline]"""


def test_every_state_in_both_themes_has_no_axe_violation_and_aa_contrast_and_fits_320_px(browser, served):
    board, web, client = served
    page = browser.open(web.url)
    audit = Audit(page)
    looks, headlines = set(), set()

    def visit(name):
        seen = page.evaluate(SEEN)
        looks.update(seen[0])
        headlines.add(seen[1])
        audit.check(name)

    every_state(page, board, web, client, visit)
    print(f"\n{len(audit.states)} states × {len(SCHEMES)} schemes × {len(WIDTHS)} widths: {audit.axe_runs} axe runs "
          f"({', '.join(AXE_TAGS)}); glyph, edge, badge and focus contrast measured in each; {NARROWEST} px in each scheme")
    for failure in audit.failures:
        print("  " + failure)
    assert looks == LOOKS and headlines == HEADLINES, f"not shown: {LOOKS - looks}, {HEADLINES - headlines}"
    assert not audit.failures, f"{len(audit.failures)} failures (printed above)"


# Keys as a keyboard sends them: Chromium acts on some (Space on a button, Escape in a dialog)
# only with their virtual key code.
KEYS = {"Tab": (9, None), "Enter": (13, "\r"), " ": (32, " "), "Escape": (27, None), "End": (35, None), "Home": (36, None),
        "ArrowLeft": (37, None), "ArrowUp": (38, None), "ArrowRight": (39, None), "ArrowDown": (40, None), "n": (78, "n")}
CODES = {" ": "Space", "n": "KeyN"}


def key(page, name, shift=False, ctrl=False):
    number, text = KEYS[name]
    modifiers = (8 if shift else 0) | (2 if ctrl else 0)
    down = {"type": "keyDown" if text else "rawKeyDown", "key": name, "code": CODES.get(name, name),
            "windowsVirtualKeyCode": number, "modifiers": modifiers}
    if text and not ctrl:
        down["text"] = text
    page.call("Input.dispatchKeyEvent", down)
    page.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": name, "code": CODES.get(name, name),
                                         "windowsVirtualKeyCode": number, "modifiers": modifiers})


def focused(page):
    """The focused element, checked to show its focus: an outline of some width, at 3:1 against
    what surrounds it."""
    seen = page.evaluate(FOCUSED)
    assert seen["width"] > 0 and seen["ratio"] >= NON_TEXT, f"focus not visible enough: {seen}"
    return seen


def title_is(page, words):
    page.wait_for(f"document.title === {json.dumps(words + ' — Tic-tac-toe board')}")


def test_a_whole_game_by_keyboard_alone_one_tab_stop_arrows_and_the_focus_always_seen(browser, served):
    board, web, client = served
    page = browser.open(web.url)
    shows(page, client.wait_for(lambda s: s["headline"] == "x-to-move", "a fresh board"))
    title_is(page, "X to move")
    key(page, "Tab")
    for scheme in SCHEMES:  # the focus ring in each scheme: the page's ink differs, the board's not
        view_as(page, scheme, *WIDTHS[0])
        assert focused(page)["name"] == "top left, empty", "one Tab reaches the board's first cell"
    # X along the diagonal 7–5–3, O at 8 and 6: each cell reached by the arrows, played by Enter or Space.
    for step, (arrow, mark, play) in enumerate([(None, "X", "Enter"), ("ArrowRight", "O", " "), ("ArrowDown", "X", "Enter"),
                                                 ("ArrowRight", "O", " "), ("ArrowDown", "X", " ")]):
        if arrow:
            key(page, arrow)
        cell = int(focused(page)["cell"])
        key(page, play)
        state = client.wait_for(lambda s: s["cells"][index(cell)] == mark, f"{mark} at {cell}")
        shows(page, state)
        if step < 4:
            title_is(page, f"{'O' if mark == 'X' else 'X'} to move")
        focused(page)
    title_is(page, "X wins")
    assert focused(page)["name"] == "bottom right, X, on the winning line"
    # Home and End along the row; with Ctrl, the whole board; the arrows stop at its edge.
    for keys, cell in [(("Home",), "1"), (("End",), "3"), (("Home", True), "7"), (("End", True), "3"), (("ArrowRight",), "3"),
                       (("ArrowUp",), "6"), (("ArrowLeft",), "5"), (("ArrowUp",), "8"), (("ArrowUp",), "8")]:
        key(page, keys[0], ctrl=len(keys) > 1)
        assert focused(page)["cell"] == cell, (keys, cell, focused(page))
    # One tab stop: Tab leaves the board for New game, Shift+Tab comes back to the cell last left.
    key(page, "Tab")
    assert focused(page)["id"] == "new-game"
    key(page, "Tab", shift=True)
    assert focused(page)["cell"] == "8"
    key(page, "Tab")
    key(page, "Enter")  # New game on a finished game: no question
    shows(page, client.wait_for(lambda s: s["cells"] == [""] * 9 and s["turn"] == "O", "the next game, O first"))
    key(page, "Tab", shift=True)
    key(page, " ")
    shows(page, client.wait_for(lambda s: s["cells"][index(8)] == "O", "O at 8"))
    # New game mid-game asks, in a dialog that keeps the focus and gives it back when closed.
    key(page, "n")
    page.wait_for("document.querySelector('dialog[open]') !== null")
    for _ in range(4):
        assert focused(page)["inDialog"], "Tab must stay in the open dialog"
        key(page, "Tab")
    key(page, "Escape")
    page.wait_for("document.querySelector('dialog[open]') === null")
    assert focused(page)["cell"] == "8", "closing the dialog gives the focus back to the cell"
    assert client.latest["cells"][index(8)] == "O", "the game kept"


def test_the_page_installs_loads_its_manifest_and_icons_and_names_whose_turn_in_its_title(browser, served):
    board, web, client = served
    page = browser.open(web.url)
    page.call("Network.enable")
    page.call("Page.reload")
    page.wait_for("document.readyState === 'complete' && document.getElementById('view').dataset.headline === 'x-to-move'")
    title_is(page, "X to move")
    assert page.call("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = page.call("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == [], manifest
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["scope"] == "/"
    icons = [icon["src"] for icon in data["icons"]] + [page.evaluate("document.querySelector('link[rel=apple-touch-icon]').getAttribute('href')")]
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes, sizes
    statuses = page.evaluate("Promise.all(%s.map((src) => fetch(src).then((r) => r.status)))" % json.dumps(icons))
    assert statuses == [200] * len(icons), dict(zip(icons, statuses))
    # Every response the page had, from its network log: none a 4xx or 5xx.
    responses = {}
    while not page.connection.events.empty():
        event = page.connection.events.get()
        if event.get("sessionId") == page.session and event["method"] == "Network.responseReceived":
            response = event["params"]["response"]
            responses[response["url"].split("/", 3)[-1]] = response["status"]
    bad = {url: status for url, status in responses.items() if status >= 400}
    assert not bad, bad
    for path in ["manifest.webmanifest", "icon.svg", "icon-192.png", "icon-512.png"]:
        assert path in responses, f"/{path} never loaded: {sorted(responses)}"
    client.press(5)
    title_is(page, "O to move")


# Each of this file's own checks, shown to fail when what it guards is made poor: a rule added
# to the page's style sheet (through the CSS object model, which its Content-Security-Policy
# allows), the check run, the rule removed.
POOR = [
    ("a grey glyph", '.cell { color: #777 !important; }', "measure", "glyph against its fill"),
    ("faded cells", '.cell { opacity: 0.4; }', "measure", "glyph against its fill"),
    ("dark empty cells", '.cell[data-look="empty"] { background: #222 !important; }', "measure", "edge against the board"),
    ("a dark focus ring on the board", '.cell:focus-visible { outline-color: #111 !important; }', "measure", "focus on cell"),
    ("no focus ring", ':focus-visible { outline: none !important; }', "measure", "no visible outline"),
    ("a pale badge", '.turn::before { color: #aaa !important; }', "measure", "badge against the page"),
    ("main's New game button", 'button.wide { background: #0a84ff !important; color: #fff !important; }', "axe", "color-contrast"),
    ("a wide selector", 'select { min-width: 350px; }', "width", ""),
]


def test_each_check_fails_when_the_colour_or_layout_it_guards_is_made_poor(browser, served):
    board, web, client = served
    page = browser.open(web.url)
    client.press(5)  # an X on the board: a glyph to measure
    shows(page, client.latest)
    view_as(page, "light", *WIDTHS[0])
    assert measure(page) == [] and run_axe(page) == []
    for what, rule, check, expected in POOR:
        page.evaluate(f"document.styleSheets[0].insertRule({json.dumps(rule)}, document.styleSheets[0].cssRules.length)")
        if check == "measure":
            found = [poor["what"] for poor in measure(page)]
        elif check == "axe":
            found = [rule["id"] for rule in run_axe(page)]
        else:
            view_as(page, "light", NARROWEST, 640, True)
            found = [f"{scroll_width(page)} px wide"] if scroll_width(page) > NARROWEST else []
            view_as(page, "light", *WIDTHS[0])
        page.evaluate("document.styleSheets[0].deleteRule(document.styleSheets[0].cssRules.length - 1)")
        assert any(expected in text for text in found), f"{what}: not found ({found})"
        print(f"\n{what}: {found[:2]}", end="")
    assert measure(page) == []
