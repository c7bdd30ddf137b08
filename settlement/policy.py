"""Who may do what: every permission rule of the ledger, in one place.

Services enforce these rules (they are the last word); views, the API and the
templates ask the same functions, so a page never offers what the service
would refuse. The rules take a role (`None`: not a member) and, where the
session's state matters, the session:

- read a club: any member;
- write (open or import a session, record a hand, close a session): owners and scorekeepers;
- record a hand: a writer, while the session is open;
- direct an event (check in, draw a round, penalties and awards): owners and scorekeepers;
- reopen a closed session, manage the club (rename and merge players too): owners;
- correct or void a hand: owners and scorekeepers while the session is open, only owners once it is closed.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from .ledger import LedgerError
from .models import WRITE_ROLES, Membership, Role, Session

User = AbstractBaseUser | AnonymousUser


def may_write(role: str | None) -> bool:
    return role in WRITE_ROLES


def may_record(role: str | None, session: Session) -> bool:
    return may_write(role) and session.is_open


def may_close(role: str | None, session: Session) -> bool:
    return may_write(role) and session.is_open


def may_reopen(role: str | None, session: Session | None = None) -> bool:
    """Owners; with a session, only when it is closed (reopening an open one is no action to offer)."""
    return role == Role.OWNER and (session is None or not session.is_open)


def may_revise(role: str | None, session: Session) -> bool:
    """Correct or void a hand: writers while the session is open, only owners once it is closed."""
    return may_write(role) and (session.is_open or role == Role.OWNER)


def may_direct(role: str | None) -> bool:
    """Direct an event (check players in, draw a round, adjust): the club's owner or a scorekeeper."""
    return role in WRITE_ROLES


def may_manage(role: str | None) -> bool:
    return role == Role.OWNER


class SessionFlags(TypedDict):
    can_write: bool
    can_record: bool
    can_close: bool
    can_reopen: bool
    can_fix: bool


def session_flags(role: str | None, session: Session) -> SessionFlags:
    """What a page about `session` may offer the reader: the template context's `can_*` flags."""
    return {
        "can_write": may_write(role),
        "can_record": may_record(role, session),
        "can_close": may_close(role, session),
        "can_reopen": may_reopen(role, session),
        "can_fix": may_revise(role, session),
    }


def deny_unless(allowed: bool) -> None:
    """A view's refusal (403) when the rule it asked says no."""
    if not allowed:
        raise PermissionDenied


# --- for the services: the role from the database, and the refusals ---


def user_role(*, user: User, club_id: int) -> str | None:
    """The user's role in the club; None for a non-member or an anonymous user (one query)."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club_id=club_id).values_list("role", flat=True).first()


def require_write(*, user: User, club_id: int) -> str:
    return require_write_role(user_role(user=user, club_id=club_id))


def require_write_role(role: str | None) -> str:
    """`require_write` for a role the service has read already (with the session's lock: one query for both)."""
    return _require(role, may_write, "owner or scorekeeper")


def require_direct(*, user: User, club_id: int) -> str:
    return _require(user_role(user=user, club_id=club_id), may_direct, "owner or scorekeeper")


def require_reopen_role(role: str | None) -> str:
    return _require(role, may_reopen, "owner")


def require_manage(*, user: User, club_id: int) -> str:
    return _require(user_role(user=user, club_id=club_id), may_manage, "owner")


def require_revise_role(role: str | None, session: Session) -> str:
    """A non-writer is refused (`PermissionDenied`); a scorekeeper on a closed session gets `session.closed`."""
    require_write_role(role)
    if not may_revise(role, session):
        raise LedgerError("session.closed", field="session")
    return role


def _require(role: str | None, rule: Any, needs: str) -> str:
    if not rule(role):
        raise PermissionDenied(f"this needs the role of {needs}")
    assert role is not None
    return role
