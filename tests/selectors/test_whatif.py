"""What-if: the stored hands settled again under another preset or options, against results worked by hand."""

from __future__ import annotations

import json
from typing import Any

import pytest

from settlement import selectors
from settlement.ledger import LedgerError
from tests.conftest import OWN_GOLDEN
from tests.factories import (
    BENXI_EXAMPLE,
    make_club,
    make_member,
    make_session,
    record_hands,
    written,
)

pytestmark = pytest.mark.django_db

# tests/golden/baifen-benxi-300-chuguo.json: eight hands worked by hand under 本溪 300.
GOLDEN_300 = json.loads((OWN_GOLDEN / "baifen-benxi-300-chuguo.json").read_text(encoding="utf-8"))


def _within(expected: Any, got: Any) -> bool:
    """Every key the worked example states has the value it states (the results carry more)."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(k in got and _within(v, got[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(_within, expected, got))
    return expected == got


def _session(*, options: dict[str, Any] | None = None, hands: list[dict[str, Any]], variant: str = "baifen.benxi"):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant=variant, options=options or {})
    record_hands(session, owner, hands)
    return session


def test_hands_recorded_under_205_settle_as_the_300_example_under_its_preset() -> None:
    session = _session(hands=GOLDEN_300["input"]["hands"])  # 本溪's default preset: target 205

    what_if = selectors.session_what_if(session=session, preset="本溪 300")

    assert _within(GOLDEN_300["expect"], what_if.alternative)
    assert what_if.actual["options"]["target"] == 205
    assert what_if.changed == ("target",)


def test_the_rules_example_recorded_under_300_settles_as_worked_under_205() -> None:
    # rules/baifen.md's example (target 205): B wins 盘 1 at hand 4 (15 : 230), A wins 盘 2 at hand 5 (300 : 0).
    session = _session(options={"target": 300}, hands=BENXI_EXAMPLE)

    what_if = selectors.session_what_if(session=session, options={"target": 205})

    assert what_if.alternative["totals"] == [315, 230, 315, 230]
    assert [(g["last_hand"], g["winners"], g["finished"]) for g in what_if.alternative["games"]] == [
        (4, [1, 3], True),
        (5, [0, 2], True),
    ]
    assert what_if.changed == ("target",)


def test_options_given_without_a_preset_change_only_themselves() -> None:
    session = _session(options={"target": 300, "fanbei": 60}, hands=BENXI_EXAMPLE[:2])

    what_if = selectors.session_what_if(session=session, options={"target": 205})

    assert what_if.alternative["options"]["fanbei"] == 60
    assert what_if.changed == ("target",)


def test_a_preset_starts_from_the_variants_defaults_not_the_sessions_options() -> None:
    session = _session(options={"fanbei": 60}, hands=BENXI_EXAMPLE[:1])

    what_if = selectors.session_what_if(session=session, preset="本溪 300")

    assert what_if.alternative["options"]["fanbei"] == 50  # 本溪's default, as the preset leaves it
    assert what_if.changed == ("target", "fanbei")


def test_no_change_settles_as_the_session_did() -> None:
    session = _session(hands=BENXI_EXAMPLE)

    what_if = selectors.session_what_if(session=session)

    assert what_if.alternative == what_if.actual
    assert what_if.changed == ()


def test_a_void_hand_stays_out_and_hands_keep_their_ledger_numbers() -> None:
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    from settlement import services

    services.hand_void(session=session, user=owner, number=2, reason="错记")

    what_if = selectors.session_what_if(session=session, preset="本溪 300")

    assert [hand["n"] for hand in what_if.alternative["hands"]] == [1, 3]


@pytest.mark.parametrize(
    ("variant", "hands", "preset", "options", "code", "field", "hand"),
    [
        ("baifen.benxi", BENXI_EXAMPLE[:1], "本溪 500", None, "preset.unknown", "preset", None),
        ("baifen.benxi", BENXI_EXAMPLE[:1], None, {"targte": 300}, "option.unknown", "options.targte", None),
        ("baifen.benxi", BENXI_EXAMPLE[:1], None, {"target": "many"}, "option.invalid", "options.target", None),
        ("baifen.benxi", BENXI_EXAMPLE[:1], None, ["target"], "document.not_object", "options", None),
        # Classic, hand 2 bids 60; with the lowest bid at 70 that bid is not allowed.
        (
            "baifen.classic",
            [
                {"declarer": 0, "bid": 70, "partner": 2, "captured": 30},
                {"declarer": 1, "bid": 60, "partner": 3, "captured": 30},
            ],
            None,
            {"min_bid": 70},
            "bid.out_of_range",
            "bid",
            2,
        ),
    ],
)
def test_refusals_name_the_option_or_the_hand(variant, hands, preset, options, code, field, hand) -> None:
    session = _session(variant=variant, hands=hands)

    with pytest.raises(LedgerError) as refused:
        selectors.session_what_if(session=session, preset=preset, options=options)

    assert (refused.value.code, refused.value.field, refused.value.hand) == (code, field, hand)


def test_nothing_is_written_and_the_reads_are_two_queries(django_assert_num_queries) -> None:
    session = _session(hands=BENXI_EXAMPLE)
    before = written()

    with django_assert_num_queries(2):
        selectors.session_what_if(session=session, preset="本溪 300")

    assert written() == before
