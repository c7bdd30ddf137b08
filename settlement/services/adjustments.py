"""The director's adjustments: a penalty (罚分) or award on a checked-in player in a round, append-only like the
hand log, with its reason and author."""

from __future__ import annotations

from django.db import transaction

from .. import policy
from ..ledger import LedgerError
from ..ledger.values import name_clean
from ..models import Adjustment, Change, Event, EventPlayer, Player
from ..rules.base import RulesError
from .common import REASON_MAX, User, client_key_clean, request_digest
from .events import ADJUSTMENT_MAX, event_changes_append, event_lock, event_refuse_finished, keyed_replay


def adjustment_add(
    *,
    event: Event,
    user: User,
    player: Player,
    kind: str,
    amount: int,
    reason: str,
    round_n: int | None = None,
    client_key: str = "",
) -> Adjustment:
    """A penalty (罚分) or award on a checked-in player in a round (default: the latest), with its reason."""
    client_key = client_key_clean(client_key)
    if kind not in Adjustment.Kind.values:
        raise LedgerError("event.choice", field="kind", choices=", ".join(Adjustment.Kind.values))
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= ADJUSTMENT_MAX:
        raise LedgerError("adjustment.amount", field="amount")
    if not isinstance(reason, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="reason"))
    reason = name_clean(reason, field="reason", limit=REASON_MAX)
    if not reason:
        raise LedgerError("reason.required", field="reason")
    digest = (
        request_digest({"player": player.pk, "kind": kind, "amount": amount, "reason": reason, "round": round_n})
        if client_key
        else ""
    )
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        if client_key:
            existing = Adjustment.objects.filter(event=event, client_key=client_key).first()
            if existing is not None:
                return keyed_replay(existing, digest=digest, subject="adjustment")
        event_refuse_finished(event)
        if not EventPlayer.objects.filter(event=event, player_id=player.pk).exists():
            raise LedgerError("event.player_not_in", field="player")
        rounds = event.rounds.order_by("-n")
        found = rounds.filter(n=round_n).first() if round_n is not None else rounds.first()
        if found is None:
            if round_n is None:
                raise LedgerError("event.no_round", field="round")
            raise LedgerError("round.not_found", field="round", n=round_n)
        adjustment = Adjustment.objects.create(
            event=event,
            round=found,
            player_id=player.pk,
            kind=kind,
            amount=amount,
            reason=reason,
            author=user,
            client_key=client_key,
            client_digest=digest,
        )
        event_changes_append(event, Change.Kind.EVENT_ADJUSTED, round_n=found.n)
        return adjustment
