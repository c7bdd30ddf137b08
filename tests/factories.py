"""Plain helpers that make ledger objects for tests (no factory library)."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from django.contrib.auth.models import User

from settlement import services
from settlement.models import Club, HandRevision, Membership, Player, Role, Session, SettlementRow

_seq = itertools.count(1)

NAMES = ("甲", "乙", "丙", "丁")

# rules/baifen.md, "Example (本溪, target 205)", worked there by hand:
# B wins 盘 1 at hand 4 (15 : 230), A wins 盘 2 at hand 5.
BENXI_EXAMPLE = [
    {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15},
    {"dealer": 1, "declarer": 1, "bid": 85, "captured": 20},
    {"dealer": 2, "declarer": 3, "bid": 90, "captured": 0},
    {"dealer": 3, "declarer": 2, "bid": 85, "captured": 55},
    {"dealer": 0, "declarer": 0, "bid": 100, "captured": 0},
]


# A six-player classic 打百分 evening (2 v 4, 1 v 5, 抠底, a redeal), the services', pages' and API's tests of six.
SIX_NAMES = ("甲", "乙", "丙", "丁", "戊", "己")
SIX_CLASSIC_HANDS = [
    {"declarer": 2, "bid": 60, "partner": 5, "captured": 30},
    {"declarer": 4, "bid": 100, "partner": None, "captured": 0},
    {"declarer": 0, "bid": 70, "partner": 3, "captured": 30, "kou_di": True},
    {"redeal": "misdeal"},
    {"declarer": 5, "bid": 50, "partner": None, "captured": 0},
]


def make_user(username: str | None = None, *, password: str | None = None) -> User:
    """A user; without a password (hashing one is slow) — log in with `client.force_login`."""
    username = username or f"user{next(_seq)}"
    return User.objects.create_user(username=username, password=password)


def make_club(name: str | None = None, *, slug: str | None = None) -> Club:
    n = next(_seq)
    return Club.objects.create(name=name or f"Club {n}", slug=slug or f"club-{n}")


def make_member(club: Club, role: str = Role.OWNER, *, user: User | None = None) -> User:
    user = user or make_user()
    Membership.objects.create(user=user, club=club, role=role)
    return user


def make_player(club: Club, name: str | None = None, **fields: Any) -> Player:
    return Player.objects.create(club=club, name=name or f"P{next(_seq)}", **fields)


def make_session(
    club: Club,
    user: User,
    *,
    variant: str = "baifen.benxi",
    options: dict[str, Any] | None = None,
    players: list[Any] | None = None,
    **fields: Any,
) -> Session:
    return services.session_open(
        club=club,
        user=user,
        variant=variant,
        options_overrides=options or {},
        players=players or list(NAMES),
        **fields,
    )


def record_hands(session: Session, user: User, hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        services.hand_record(session=session, user=user, hand_input=hand)


def benxi_hand(declarer: int, bid: int, captured: int, **extra: Any) -> dict[str, Any]:
    return {"declarer": declarer, "bid": bid, "captured": captured, **extra}


def make_recorded_session(hands: list[dict[str, Any]] = BENXI_EXAMPLE) -> tuple[Club, User, Session]:
    """A new club, its owner, and a 本溪 session of its four NAMES with `hands` recorded (the whole example)."""
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, hands)
    return club, owner, session


def make_history(club: Club, owner: User) -> tuple[Player, Session, Session, Session]:
    """老王, and three sessions for the history filters: a closed 本溪 on 2026-11-01 with him (the example's
    five hands), a classic on 11-08 with him (one hand: ±1 each), an empty 本溪 on 11-15 without him."""
    wang = make_player(club, "老王")
    a = make_session(club, owner, date=datetime.date(2026, 11, 1), players=[wang, "乙", "丙", "丁"])
    record_hands(a, owner, BENXI_EXAMPLE)
    services.session_close(session=a, user=owner)
    b = make_session(
        club, owner, variant="baifen.classic", date=datetime.date(2026, 11, 8), players=["甲", wang, "丙", "丁"]
    )
    # Classic, worked by hand: declarer 0 with partner 2 makes 60 (captured 30 < 40): ±1 each.
    record_hands(b, owner, [{"declarer": 0, "bid": 60, "partner": 2, "captured": 30}])
    c = make_session(club, owner, date=datetime.date(2026, 11, 15))
    return wang, a, b, c


def written() -> tuple[Any, ...]:
    """What the ledger holds, to compare before and after a write that must be refused whole."""
    return (
        Session.objects.count(),
        Player.objects.count(),
        HandRevision.objects.count(),
        list(SettlementRow.objects.values_list("id", flat=True)),
    )
