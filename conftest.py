"""pytest configuration shared by the unit tests and nbval."""

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collectstart(collector):
    # nbval compares every output field except PNG/JPEG by default. SVG pictures (our graphs) vary
    # with the machine's font metrics, so they are not compared byte for byte either; what a
    # picture shows is checked by the unit tests of helpers.graph instead.
    if type(collector).__name__ == "IPyNbFile":
        collector.skip_compare = (*collector.skip_compare, "image/svg+xml")
