"""A player's ratings for the player page: the current one and the newest steps of each family's history."""

from __future__ import annotations

import pytest

from settlement.models import RatingRow
from settlement.selectors.ratings import player_ratings
from tests.factories import make_club, make_member, make_session

pytestmark = pytest.mark.django_db


def _history(*, club, session, player, family, outcomes):
    """`outcomes` rating rows of `player` in `family`, outcome n with mu n (each the club's n-th outcome)."""
    RatingRow.objects.bulk_create(
        RatingRow(
            club=club,
            family=family,
            player=player,
            session=session,
            game=n,
            order=n,
            rank=1,
            mu=float(n),
            sigma=1.0,
            ordinal=n - 3.0,
        )
        for n in range(1, outcomes + 1)
    )


@pytest.mark.parametrize(("outcomes", "limit", "shown"), [(3, 20, 3), (20, 20, 20), (45, 20, 20), (45, 5, 5)])
def test_a_player_page_shows_each_familys_newest_steps_and_the_current_rating(outcomes, limit, shown):
    club = make_club()
    session = make_session(club, make_member(club))
    player, other = (seat.player for seat in session.seats.order_by("seat")[:2])
    _history(club=club, session=session, player=player, family="baifen", outcomes=outcomes)
    _history(club=club, session=session, player=player, family="erguai", outcomes=2)
    _history(club=club, session=session, player=other, family="baifen", outcomes=50)  # another's: not shown

    found = {history.family: history for history in player_ratings(player=player, limit=limit)}

    assert list(found) == ["baifen", "erguai"]  # FAMILIES' order
    baifen = found["baifen"]
    assert baifen.current.order == outcomes and baifen.current.mu == float(outcomes)
    assert [row.order for row in baifen.history] == list(range(outcomes, outcomes - shown, -1))
    assert {row.player_id for row in baifen.history} == {player.pk}
    assert [row.order for row in found["erguai"].history] == [2, 1]
