"""The spectral tables the program embeds (Sources/Game/Lights/SpectralTables.swift: the CIE 2006
2° luminosity function and the Stockman & Sharpe 2° L and M cone fundamentals, every 5 nm)
against an independent copy, the one the colour-science package ships from CVRL's files.

Every embedded value is compared, at its wavelength, to six significant figures (CVRL's), so a
mistyped digit, a table shifted by a step or a function swapped for another fails here."""

import math
import pathlib
import re
import warnings

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "Sources" / "Game" / "Lights" / "SpectralTables.swift"

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # colour's note that matplotlib is absent
    import colour

CONES = colour.MSDS_CMFS["Stockman & Sharpe 2 Degree Cone Fundamentals"]
PHOTOPIC = colour.SDS_LEFS["CIE 2008 2 Degree Physiologically Relevant LEF"]
# Each embedded table, and its copy in colour-science.
REFERENCES = {
    "photopic": lambda wavelength: PHOTOPIC[wavelength],
    "longCone": lambda wavelength: CONES[wavelength][0],
    "middleCone": lambda wavelength: CONES[wavelength][1],
}


def swift_number(name):
    match = re.search(rf"static let {name} = ([0-9.]+)", SOURCE.read_text())
    assert match, f"{name} not found in {SOURCE}"
    return float(match.group(1))


def swift_table(name):
    match = re.search(rf"static let {name}: \[Double\] = \[(.*?)\]", SOURCE.read_text(), re.S)
    assert match, f"table {name} not found in {SOURCE}"
    return [float(value) for value in match.group(1).replace("\n", " ").split(",") if value.strip()]


def wavelengths():
    first, last, step = swift_number("first"), swift_number("last"), swift_number("step")
    count = round((last - first) / step) + 1
    return [first + step * index for index in range(count)]


def test_the_tables_span_the_stated_wavelengths():
    for name in REFERENCES:
        assert len(swift_table(name)) == len(wavelengths()), name


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_every_embedded_value_is_colour_sciences(name):
    reference = REFERENCES[name]
    compared = 0
    for wavelength, value in zip(wavelengths(), swift_table(name)):
        expected = float(reference(wavelength))
        assert math.isclose(value, expected, rel_tol=5e-6), f"{name} at {wavelength} nm: {value}, colour-science {expected}"
        compared += 1
    print(f"{name}: {compared} values agree with colour-science {colour.__version__}")
