"""The engine's shared vocabulary (base.py): its error, signed figures, the invariants it checks.

Expected texts come from the message table (messages.py, hongxingwu.py) and the docstrings of base.py.
"""

from __future__ import annotations

import pytest

from settlement.rules.base import EngineDefect, RulesError, SeatName, StatelessTable, check_zero_sum, signed


def test_an_error_outside_the_hands_is_placed_in_the_document_and_reads_in_english_as_text():
    error = RulesError("players.count", field="players", counts="4")
    assert (error.where(), str(error)) == ("document", "document: players: needs 4 players")
    assert error.args == ("players.count",)  # what repr() and a log line show


def test_an_error_made_outside_a_replay_names_its_seats_counted_from_1():
    # No replay set the document's names: seats read as the message table's `seat n`.
    error = RulesError("declarer.rotation", field="declarer", hand=2, expected=SeatName(1), entered=SeatName(3))
    assert error.describe("en") == (
        "hand 2: declarer: by rotation the declarer is seat 2, not seat 4 (the free declarer option allows it)"
    )


@pytest.mark.parametrize(("value", "text"), [(1, "+1"), (20, "+20"), (0, "0"), (-1, "−1"), (-85, "−85")])
def test_a_signed_figure_always_carries_its_sign_and_a_true_minus(value, text):
    assert signed(value) == text


def test_a_stateless_table_takes_no_state_and_names_what_it_was_given():
    StatelessTable().state_load({})
    with pytest.raises(ValueError, match=r"^a stateless table got state \{'dealer': 1\}$"):
        StatelessTable().state_load({"dealer": 1})


def test_a_figure_that_does_not_sum_to_zero_is_an_engine_defect_naming_it():
    with pytest.raises(EngineDefect, match=r"^hand 3 does not sum to zero: \(5, -5, 1, 0\)$"):
        check_zero_sum((5, -5, 1, 0), "hand 3")
