"""The pages' number formats: a true minus sign, and `signed` always with its sign."""

from __future__ import annotations

import pytest

from settlement.presentation.formats import minus, signed


@pytest.mark.parametrize(
    ("value", "as_signed", "as_minus"),
    [(5, "+5", "5"), (-5, "−5", "−5"), (0, "0", "0"), (None, "", ""), ("x-1", "x-1", "x-1"), (-0.5, "-0.5", "−0.5")],
)
def test_figures_are_written_with_a_true_minus_sign(value, as_signed, as_minus):
    assert (signed(value), minus(value)) == (as_signed, as_minus)
