"""A monochrome eye for the page: what a person who sees no colour, and no motion, reads of the
board, decoded back to the board's names (its table of states: `looks` and `headline`).

Two readings, neither of which looks at the page's classes or data attributes:
- from the DOM, what a screen reader gives: each cell's accessible name ("top left, X, on the
  winning line") and the turn line's text ("X wins.");
- from pixels: a screenshot of the board with the page in grayscale (CSS `filter: grayscale(1)`)
  and `prefers-reduced-motion: reduce`, read cell by cell: the glyph (X has ink where its strokes
  cross, O has its counter there), and the ring inside the cell's edge (none; solid; two rings,
  double; broken in long dashes; broken in dots).

Only the cells' boxes are taken from the layout: where to look, not what is there."""

import base64
import math
import re

import png

# What a cue must differ from the cell's fill by, in grey levels (0–255), to count: well below
# the weakest cue on the page (a faded board's glyph, about 40) and far above a flat fill's noise
# (none: the fills are flat colours).
CONTRAST = 16
ANGLES = 180  # where the ring is sampled around the cell

# The rings, told apart by what share of the way round they are lit and how many rings there
# are. Measured on the page (test_monochrome prints each look's range): solid and double 1.00,
# dashes 0.68–0.72, dots 0.51–0.54, none 0; each threshold about half way.
SOLID_SHARE = 0.86
DASHED_SHARE = 0.61
DOTTED_SHARE = 0.25
NO_RING_SHARE = 0.1

# The learner's beads as bars of one width, a quarter, half and all of it tall (board.css): a
# bar's ink fills its box (a letter's fills under half of it), and its height over its width is
# read with each threshold half way.
BAR_FILL = 0.8
BAR_FEW_BELOW = 0.37
BAR_SOME_BELOW = 0.75

RING_NAMES = {"none": "", "solid": "winning", "double": "drawn", "dashed": "refused", "dotted": "offered"}


# From the DOM --------------------------------------------------------------------------------

# The cells' places as their names say them, by keypad number.
PLACES = {"top left": 7, "top centre": 8, "top right": 9, "middle left": 4, "centre": 5, "middle right": 6,
          "bottom left": 1, "bottom centre": 2, "bottom right": 3}
LABEL = re.compile(r"^(%s), (.*)$" % "|".join(PLACES))


def look_from_label(label):
    """The look an accessible name says: "top left, a refused press on X" → ("refused-x", 7)."""
    match = LABEL.match(label or "")
    if not match:
        return f"unreadable: {label!r}", None
    cell, words = PLACES[match.group(1)], match.group(2)
    if words == "empty":
        return "empty", cell
    beads = re.fullmatch(r"empty, (few|some|the most) of the learner's beads", words)
    if beads:
        return "beads-" + beads.group(1).replace("the ", ""), cell
    refused = re.fullmatch(r"a refused press on (X|O|an empty cell)", words)
    if refused:
        what = refused.group(1)
        return ("refused-empty" if what == "an empty cell" else f"refused-{what.lower()}"), cell
    marked = re.fullmatch(r"(X|O)(, on the winning line|, in a drawn game|, in the choice of opponent)?", words)
    if not marked:
        return f"unreadable: {label!r}", cell
    suffix = {None: "", ", on the winning line": "-winning", ", in a drawn game": "-drawn",
              ", in the choice of opponent": "-offered"}[marked.group(2)]
    return marked.group(1).lower() + suffix, cell


HEADLINES = [
    (re.compile(r"^The lights are asleep"), lambda m: "asleep"),
    (re.compile(r"^The board cannot be reached"), lambda m: "unreachable"),
    (re.compile(r"^O is now played by "), lambda m: "choosing-opponent"),
    (re.compile(r"^The board [a-z0-9-]+ plays (X|O) now\.$"), lambda m: "choosing-opponent"),
    (re.compile(r"^Waiting for .*\((X|O)\): it is not heard\.$"), lambda m: f"waiting-for-{m.group(1).lower()}"),
    (re.compile(r"^A draw\.$"), lambda m: "draw"),
    (re.compile(r"^.*\((X|O)\) is thinking…$|^(X|O) is thinking…$"), lambda m: f"{(m.group(1) or m.group(2)).lower()}-thinking"),
    (re.compile(r"^(?:.*\()?(X|O)\)? wins\.$"), lambda m: f"{m.group(1).lower()}-wins"),
    (re.compile(r"^(?:.*\()?(X|O)\)? to move\.$"), lambda m: f"{m.group(1).lower()}-to-move"),
]


def headline_from_text(text):
    """The headline the turn line says: "The computer (O) is thinking…" → "o-thinking"."""
    for pattern, name in HEADLINES:
        match = pattern.match(text or "")
        if match:
            return name(match)
    return f"unreadable: {text!r}"


def from_dom(snapshot):
    """The view a DOM snapshot says: {"looks": nine names in reading order, "headline": name}.
    `snapshot` holds "labels" (the cells' accessible names, in reading order) and "turn"."""
    return {"looks": [look_from_label(label)[0] for label in snapshot["labels"]],
            "headline": headline_from_text(snapshot["turn"])}


# From pixels ---------------------------------------------------------------------------------

UNIT = [(math.cos(2 * math.pi * k / ANGLES), math.sin(2 * math.pi * k / ANGLES)) for k in range(ANGLES)]


def cell_figures(plane, box):
    """What the eye measures of one cell: its fill, its glyph and its ring. `plane` is the
    image's luminance (rows of 0–255), `box` the cell's (x, y, width, height) in its pixels."""
    x0, y0, width, height = box
    cx, cy = x0 + width / 2, y0 + height / 2
    radius = min(width, height) / 2
    if not (0 <= x0 and 0 <= y0 and x0 + width < len(plane[0]) and y0 + height < len(plane)):
        raise ValueError(f"the cell {box} is not wholly in the {len(plane[0])}×{len(plane)} image")

    def grey(x, y):
        return plane[int(y)][int(x)]

    # The fill: between the glyph and the ring, where no cue is drawn.
    fill_samples = sorted(grey(cx + r * dx, cy + r * dy) for r in (0.5 * radius, 0.58 * radius) for dx, dy in UNIT[::4])
    fill = fill_samples[len(fill_samples) // 2]

    # The glyph: ink darker than the fill, within half the radius.
    inner = int(0.48 * radius)
    dark = set()
    for dy in range(-inner, inner + 1):
        row = plane[int(cy + dy)]
        reach = int(math.sqrt(inner * inner - dy * dy))
        for dx in range(-reach, reach + 1):
            if row[int(cx + dx)] < fill - CONTRAST:
                dark.add((dx, dy))
    glyph, ink_at_centre, solid = "none", 0.0, 0.0
    if len(dark) > 0.02 * math.pi * inner * inner:
        xs, ys = [p[0] for p in dark], [p[1] for p in dark]
        mx, my = round((min(xs) + max(xs)) / 2), round((min(ys) + max(ys)) / 2)
        centre = [(mx + i, my + j) for i in range(-2, 3) for j in range(-2, 3)]
        ink_at_centre = sum(1 for p in centre if p in dark) / len(centre)
        glyph = "X" if ink_at_centre >= 0.5 else "O"
        # A bar (the learner's beads) fills the box around its ink, as no letter does; its
        # height against its width says how many beads.
        width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        solid = len(dark) / (width * height)
        if solid >= BAR_FILL:
            tall = height / width
            glyph = "bar-" + ("few" if tall < BAR_FEW_BELOW else "some" if tall < BAR_SOME_BELOW else "most")

    # The ring: lighter than the fill, between the fill's samples and the edge, along each ray.
    lit_angles, radial_runs = 0, []
    steps = range(int(0.64 * radius), int(0.97 * radius) + 1)
    for dx, dy in UNIT:
        runs, inside = 0, False
        for r in steps:
            light = grey(cx + r * dx, cy + r * dy) > fill + CONTRAST
            if light and not inside:
                runs += 1
            inside = light
        if runs:
            lit_angles += 1
            radial_runs.append(runs)
    share = lit_angles / ANGLES
    rings = sorted(radial_runs)[len(radial_runs) // 2] if radial_runs else 0
    return {"fill": round(fill), "glyph": glyph, "ink_at_centre": round(ink_at_centre, 2), "ink": len(dark), "solid": round(solid, 2),
            "ring_share": round(share, 3), "rings": rings, "ring": ring_kind(share, rings)}


def ring_kind(share, rings):
    if share < NO_RING_SHARE:
        return "none"
    if rings >= 2 and share >= SOLID_SHARE:
        return "double"
    if share >= SOLID_SHARE:
        return "solid"
    if share >= DASHED_SHARE:
        return "dashed"
    if share >= DOTTED_SHARE:
        return "dotted"
    return f"unclear ({share:.2f} lit)"


def look_from_figures(figures):
    """The look a cell's glyph and ring make, by the table's names."""
    glyph, ring = figures["glyph"], figures["ring"]
    if ring not in RING_NAMES:
        return f"unreadable ring: {ring}"
    kind = RING_NAMES[ring]
    if glyph.startswith("bar-"):
        return "beads-" + glyph[len("bar-"):] if not kind else f"a bar in a {ring} ring"
    if glyph == "none":
        return {"": "empty", "refused": "refused-empty"}.get(kind, f"a {ring} ring and no glyph")
    mark = glyph.lower()
    if kind == "refused":
        return f"refused-{mark}"
    return f"{mark}-{kind}" if kind else mark


def from_pixels(image, boxes):
    """Each cell's look and its figures, in reading order, from a screenshot of the board."""
    plane = image.grey_rows()
    figures = [cell_figures(plane, box) for box in boxes]
    return [look_from_figures(f) for f in figures], figures


# In the browser ------------------------------------------------------------------------------

CELL_BOXES = """(() => {
  const board = document.getElementById("board").getBoundingClientRect();
  return %s.map((n) => { const r = document.querySelector(`.cell[data-cell="${n}"]`).getBoundingClientRect();
    return [r.x - board.x, r.y - board.y, r.width, r.height]; });
})()"""

BOARD_BOX = """(() => { const r = document.getElementById("board").getBoundingClientRect();
  return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height, scale: 1}; })()"""


def see_without_colour_or_motion(page, scheme="light"):
    """The page as the eye sees it: reduced motion asked for, and every colour removed; in the
    light colour scheme (headless Chromium's) or the dark one."""
    page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"},
                                                          {"name": "prefers-color-scheme", "value": scheme}]})
    # Set through the CSS object model, which the page's Content-Security-Policy allows.
    page.evaluate("document.documentElement.style.filter = 'grayscale(1)'")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")


def board_screenshot(page, order):
    """The board in a still screenshot, read: (image, the cells' boxes in its pixels)."""
    boxes = page.evaluate(CELL_BOXES % order)
    clip = page.evaluate(BOARD_BOX)
    data = page.call("Page.captureScreenshot", {"format": "png", "clip": clip, "optimizeForSpeed": True})["data"]
    return png.read(base64.b64decode(data)), boxes, base64.b64decode(data)
