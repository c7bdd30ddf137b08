"""A player leaving an event: not drawn from the next round on (their rounds so far still count).

Kept apart from `services.events` (check-in, draws, adjustments) so the director's pages can offer it while
that module grows; the same rules: a director only, one transaction, the event row locked.
"""

from __future__ import annotations

from django.db import transaction

from .. import policy
from ..ledger import LedgerError
from ..ledger.changes import ChangeNote, changes_append
from ..models import Change, Event, EventPlayer, Player
from .common import User


def event_player_leave(*, event: Event, user: User, player: Player) -> EventPlayer:
    """The player leaves after the round drawn last (before the first draw: they are not drawn at all)."""
    with transaction.atomic():
        locked = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
        policy.require_direct(user=user, club_id=locked.club_id)
        if locked.state == Event.State.FINISHED:
            raise LedgerError("event.finished", field="event")
        found = EventPlayer.objects.filter(event=locked, player_id=player.pk).first()
        if found is None:
            raise LedgerError("event.player_not_in", field="player")
        if found.left is None:
            # A late arrival who leaves before playing leaves "after" the round before they joined.
            found.left = max(locked.rounds.count(), found.joined - 1)
            found.save(update_fields=["left"])
            note = ChangeNote(kind=Change.Kind.EVENT_LEFT, object_id=locked.pk, number=found.left)
            changes_append(club_id=locked.club_id, notes=[note])
        return found
