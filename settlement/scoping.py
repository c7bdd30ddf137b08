"""What every page and API view starts from: the user's objects, scoped to the user's clubs, and the reader's language.

Each lookup is scoped through the user's membership: another club's object, a
missing one and a club the user is not a member of are the same `Http404`
(the API answers it as its 404). Roles are not checked here: that is `policy`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.http import Http404
from django.utils.translation import get_language

from .models import Hand, Membership, Player, Session, engine_lang


def request_lang() -> str:
    """The rules engine's code for the request's language (`zh-Hans` or `en`)."""
    return engine_lang(get_language())


def get_membership_for_user(user: Any, slug: str) -> Membership:
    """The user's membership of the club `slug`, with the club (one query)."""
    membership = Membership.objects.select_related("club").filter(user=user.pk, club__slug=slug).first()
    if membership is None:
        raise Http404("no such club")
    return membership


def get_session_for_user(user: Any, session_id: int, slug: str | None = None) -> tuple[Membership, Session]:
    """The session and the user's membership of its club (one query, the membership joined and annotated);
    with `slug`, it must be that club's."""
    sessions = (
        Session.objects.select_related("club")
        .filter(pk=session_id, club__memberships__user=user.pk)
        .annotate(membership_id=F("club__memberships__id"), membership_role=F("club__memberships__role"))
    )
    if slug is not None:
        sessions = sessions.filter(club__slug=slug)
    session = sessions.first()
    if session is None:
        raise Http404("no such session")
    row = (session.membership_id, user.pk, session.club_id, session.membership_role)  # type: ignore[attr-defined]
    membership = Membership.from_db(session._state.db, ["id", "user_id", "club_id", "role"], row)
    membership.club = session.club
    return membership, session


def get_hand_for_user(user: Any, session_id: int, number: int, slug: str | None = None) -> tuple[Membership, Hand]:
    membership, session = get_session_for_user(user, session_id, slug)
    hand = Hand.objects.filter(session=session, number=number).first()
    if hand is None:
        raise Http404("no such hand")
    hand.session = session
    return membership, hand


def get_player_for_user(user: Any, slug: str, player_id: int) -> tuple[Membership, Player]:
    membership = get_membership_for_user(user, slug)
    player = Player.objects.filter(pk=player_id, club=membership.club).first()
    if player is None:
        raise Http404("no such player")
    return membership, player
