"""Every permission rule, as a table: who may do what, by role and by the session's state."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from settlement import policy
from settlement.models import Role, Session

OPEN, CLOSED = Session(status=Session.Status.OPEN), Session(status=Session.Status.CLOSED)
OW, S, V, N = Role.OWNER, Role.SCOREKEEPER, Role.VIEWER, None

# (rule, session or None, {role: allowed}) — every role in every row, so a loosened rule fails a row.
TABLE = [
    ("write", None, {OW: True, S: True, V: False, N: False}),
    ("manage", None, {OW: True, S: False, V: False, N: False}),
    ("reopen", None, {OW: True, S: False, V: False, N: False}),
    ("record", OPEN, {OW: True, S: True, V: False, N: False}),
    ("record", CLOSED, {OW: False, S: False, V: False, N: False}),
    ("close", OPEN, {OW: True, S: True, V: False, N: False}),
    ("close", CLOSED, {OW: False, S: False, V: False, N: False}),
    ("reopen", OPEN, {OW: False, S: False, V: False, N: False}),
    ("reopen", CLOSED, {OW: True, S: False, V: False, N: False}),
    ("revise", OPEN, {OW: True, S: True, V: False, N: False}),
    ("revise", CLOSED, {OW: True, S: False, V: False, N: False}),
]
ROWS = [(rule, session, role, allowed) for rule, session, by_role in TABLE for role, allowed in by_role.items()]


@pytest.mark.parametrize(
    ("rule", "session", "role", "allowed"),
    ROWS,
    ids=[f"{r}-{s.status if s else 'club'}-{role}" for r, s, role, _ in ROWS],
)
def test_the_rule_allows_exactly_these_roles(rule, session, role, allowed):
    check = getattr(policy, f"may_{rule}")
    assert (check(role, session) if session is not None else check(role)) is allowed


@pytest.mark.parametrize("session", [OPEN, CLOSED], ids=["open", "closed"])
@pytest.mark.parametrize("role", [OW, S, V, N])
def test_page_flags_are_the_rules_answers(role, session):
    assert policy.session_flags(role, session) == {
        "can_write": policy.may_write(role),
        "can_record": policy.may_record(role, session),
        "can_close": policy.may_close(role, session),
        "can_reopen": policy.may_reopen(role, session),
        "can_fix": policy.may_revise(role, session),
    }


def test_deny_unless_is_a_403_only_when_refused():
    policy.deny_unless(True)
    with pytest.raises(PermissionDenied):
        policy.deny_unless(False)
