"""The examples in the tournament modules' docstrings run as written."""

import doctest

import pytest

from dealerbox.tournament import chips, clock, entrants, levels, seating, table


@pytest.mark.parametrize("module", [chips, clock, entrants, levels, seating, table], ids=lambda m: m.__name__)
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
