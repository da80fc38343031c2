"""What the page's test files share: one headless Chromium per file, at a phone's size."""

import pytest

from cdp import Chromium


@pytest.fixture(scope="module")
def browser():
    chromium = Chromium(width=390, height=844)
    yield chromium
    chromium.close()
