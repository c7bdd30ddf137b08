"""A substitute playing a seat for a round: the director names the absent player and the substitute (a club
player or a guest's name) for a round; the absent player's table seat then names the substitute, and whose result
the seat is the event says (`Event.substitute_result`: the absent player's, by default, or the substitute's); the
club's ratings count the seat's games for the substitute, who played them."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .. import policy
from ..ledger import LedgerError
from ..ledger.ratings import ratings_rebuild
from ..models import Change, Event, EventPlayer, GameRow, Player, Session, SessionSeat, SettlementRow, Substitute
from ..rules.base import RulesError
from .common import User, client_key_clean, request_digest, sessions_bump
from .events import event_changes_append, event_lock, event_refuse_finished, keyed_replay
from .sessions import _players_resolve


def substitute_seat(
    *,
    event: Event,
    user: User,
    round_n: int,
    absent: Player,
    substitute: Player | str,
    client_key: str = "",
) -> Substitute:
    """Seat `substitute` in `absent`'s place at their table of round `round_n`, in one transaction.

    Refused, naming the field: the round not drawn (`round`), the absent player not seated in it (`absent`), the
    substitute seated in it already (`substitute`), the event finished (`event`). Under `substitute_result:
    substitute` a substitute not checked in is checked in for that round only (never drawn again), so the
    standings list them."""
    client_key = client_key_clean(client_key)
    if isinstance(round_n, bool) or not isinstance(round_n, int):
        raise LedgerError.from_rules(RulesError("value.not_integer", field="round"))
    if not isinstance(substitute, Player | str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="substitute"))
    reference = {"id": substitute.pk} if isinstance(substitute, Player) else substitute
    digest = request_digest({"round": round_n, "absent": absent.pk, "substitute": reference}) if client_key else ""
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        if client_key:
            existing = Substitute.objects.filter(event=event, client_key=client_key).first()
            if existing is not None:
                return keyed_replay(existing, digest=digest, subject="substitute")
        event_refuse_finished(event)
        found = event.rounds.filter(n=round_n).first()
        if found is None:
            raise LedgerError("round.not_found", field="round", n=round_n)
        seated = SessionSeat.objects.filter(session__event_table__round=found)
        seat = seated.filter(player_id=absent.pk).select_related("session__event_table").first()
        if seat is None:
            raise LedgerError("substitute.absent_not_seated", field="absent", n=round_n)
        if isinstance(substitute, str) and not substitute.strip():
            raise LedgerError("substitute.required", field="substitute")
        try:
            (player,), made = _players_resolve(club=event.club, players=[substitute])
        except LedgerError as error:
            error.field = "substitute"  # the name's refusal (too long, a look-alike), on the field it came in
            raise
        if seated.filter(player_id=player.pk).exists():
            raise LedgerError("substitute.already_seated", field="substitute", n=round_n, name=player.name)
        if event.substitute_result == Event.SubstituteResult.SUBSTITUTE:
            EventPlayer.objects.get_or_create(event=event, player=player, defaults={"joined": found.n, "left": found.n})
        session_seat = {"session_id": seat.session_id, "seat": seat.seat}
        SessionSeat.objects.filter(**session_seat).update(player=player)
        SettlementRow.objects.filter(**session_seat).update(player=player)
        GameRow.objects.filter(**session_seat).update(player=player)
        # The club's ratings follow who played the seat, the substitute, whatever the event's `substitute_result`:
        # a rating measures a player by the games they played (their partner's, their opponents' too), while
        # `substitute_result` only says whose result the seat is in the event's standings. The ratings are derived
        # from the game rows just renamed, so they are rebuilt from this session on (games rated before the
        # substitute was named still stood on the absent player).
        ratings_rebuild(session=seat.session)
        sessions_bump(Session.objects.filter(pk=seat.session_id), updated_at=timezone.now())
        made_row = Substitute.objects.create(
            event=event,
            round=found,
            table=seat.session.event_table,
            seat=seat.seat,
            absent_id=absent.pk,
            substitute=player,
            created_by=user,
            client_key=client_key,
            client_digest=digest,
        )
        event_changes_append(event, Change.Kind.EVENT_SUBSTITUTED, made=made, round_n=found.n)
    return made_row
