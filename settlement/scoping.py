"""What every page and API view starts from: the user's objects, scoped to the user's clubs, the reader's language
and a whole number from the request.

Each lookup is scoped through the user's membership: another club's object, a
missing one and a club the user is not a member of are the same `Http404`
(the API answers it as its 404). Roles are not checked here: that is `policy`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import get_language

from .ledger import sql
from .models import Event, Hand, League, Membership, Player, Session, engine_lang


def request_lang() -> str:
    """The rules engine's code for the request's language (`zh-Hans` or `en`)."""
    return engine_lang(get_language())


def int_param(value: str | None) -> int | None:
    """A whole number from a query or form parameter (a page, a hand number); None when absent or not one."""
    try:
        return int(value) if value else None
    except ValueError:
        return None


def get_membership_for_user(user: Any, slug: str) -> Membership:
    """The user's membership of the club `slug`, with the club (one query)."""
    membership = Membership.objects.select_related("club").filter(user=user.pk, club__slug=slug).first()
    if membership is None:
        raise Http404("no such club")
    return membership


def get_session_for_user(user: Any, session_id: int, slug: str | None = None) -> tuple[Membership, Session]:
    """The session with its club and the user's membership of that club (one query, `ledger/sql.py`: every
    session page and API call starts here); with `slug`, it must be that club's."""
    found = sql.session_for_member(session_id=session_id, user_id=user.pk, slug=slug)
    if found is None:
        raise Http404("no such session")
    return found


def session_for_write(session_id: int) -> Session:
    """Session `session_id`, unread: for `services.hand_record`, which reads it under its lock and scopes it to the
    user's clubs in that same statement (another club's session, or none, is the same `Http404` there). A hand's
    entry is the API's most frequent write: it reads the session once, not twice."""
    return Session(pk=session_id)


def get_session_version_for_user(user: Any, session_id: int) -> int | None:
    """The session's `version` (what a conditional GET is answered from) when the user may read it, else None: one
    query, before anything else of the session is read."""
    return sql.session_version_for_member(session_id=session_id, user_id=user.pk)


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


def get_event_for_user(user: Any, event_id: int) -> tuple[Membership, Event]:
    """The event with its club and the user's membership of that club (two queries)."""
    event = Event.objects.select_related("club").filter(pk=event_id, club__memberships__user=user.pk).first()
    if event is None:
        raise Http404("no such event")
    membership = Membership.objects.get(user=user.pk, club=event.club_id)
    membership.club = event.club
    return membership, event


def get_league_for_user(user: Any, league_id: int) -> tuple[Membership, League]:
    """The league with its club and the user's membership of that club (two queries)."""
    league = League.objects.select_related("club").filter(pk=league_id, club__memberships__user=user.pk).first()
    if league is None:
        raise Http404("no such league")
    membership = Membership.objects.get(user=user.pk, club=league.club_id)
    membership.club = league.club
    return membership, league
