"""Writes to the club's players: rename one, merge two records of the same person. Owners only.

Each write is one transaction and leaves a `PlayerEvent` (the audit trail:
old and new name, the survivor of a merge, who, when, why). A merge moves the
merged record's seats, settlement rows and game rows to the survivor, marks
it `merged_into` (it leaves the lists and pickers; its page redirects), and
rebuilds the club's ratings from the start, since the two histories are now one.

Locks follow the one order of every write (`common`, "Lock order"): the sessions the edited player sat in, then
the club, then the players, then their rows. A rename changes a key (the name is in the unique (club, name)),
so its UPDATE takes the player's row FOR UPDATE and waits for every writer that named the player in a row it
inserted; those writers hold their session's lock and then want the club's. Holding the player's sessions
first, a player edit never holds what such a writer waits on while it waits for that writer.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import policy
from ..ledger import LedgerError
from ..ledger.changes import ChangeNote, changes_append
from ..ledger.ratings import ratings_rebuild_club
from ..ledger.values import name_clean, name_key, text_clean
from ..models import Change, Club, Event, GameRow, Player, PlayerEvent, Session, SessionSeat, SettlementRow
from ..rules.base import RulesError
from .common import PLAYER_NAME_MAX, REASON_MAX, User, events_bump, sessions_bump

__all__ = ["player_merge", "player_rename"]


def player_rename(*, player: Player, user: User, name: Any, reason: Any = "") -> Player:
    """Give the player a new name (cleaned like every name): no other player of the club has it, or one alike."""
    with transaction.atomic():
        (player,) = _players_lock(player)
        policy.require_manage(user=user, club_id=player.club_id)
        _not_merged(player, field="player")
        if not isinstance(name, str):
            raise LedgerError.from_rules(RulesError("value.not_text", field="name"))
        name = name_clean(name, field="name", limit=PLAYER_NAME_MAX, too_long="player.name_too_long")
        if not name:
            raise LedgerError("player.name_required", field="name")
        if name == player.name:
            raise LedgerError("player.name_unchanged", field="name")
        key = name_key(name)
        others = Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk).values_list("name", flat=True)
        if any(other == name or name_key(other) == key for other in others):
            raise LedgerError("player.name_taken", field="name", name=name)
        reason = _reason_clean(reason)
        PlayerEvent.objects.create(
            club_id=player.club_id,
            player=player,
            kind=PlayerEvent.Kind.RENAMED,
            old_name=player.name,
            new_name=name,
            reason=reason,
            user=user,
        )
        player.name = name
        player.save(update_fields=["name", "updated_at"])
        sessions_bump(Session.objects.filter(seats__player=player))  # their pages and answers show the name
        events_bump(Event.objects.filter(players__player=player))  # and their events' standings
        note = ChangeNote(kind=Change.Kind.PLAYER_RENAMED, object_id=player.pk)
        changes_append(club_id=player.club_id, notes=[note])
    return player


def player_merge(*, player: Player, into: Player, user: User, reason: Any = "") -> Player:
    """Merge `player` into `into` (the survivor) and return the survivor.

    Refused when it is the same record, another club's, either was merged already, or both sat in one
    session (then they are two people). Everything `player` played follows to `into`.
    """
    with transaction.atomic():
        if into.pk == player.pk:
            (player,) = _players_lock(player)
            policy.require_manage(user=user, club_id=player.club_id)
            raise LedgerError("player.merge_self", field="into")
        player, found = _players_lock(player, into)
        policy.require_manage(user=user, club_id=player.club_id)
        if found is None:
            raise LedgerError("player.other_club", field="into")
        into = found
        _not_merged(player, field="player")
        _not_merged(into, field="into")
        shared = (
            SessionSeat.objects.filter(player=into, session__seats__player=player)
            .select_related("session")
            .order_by("session__date", "session_id")
            .first()
        )
        if shared is not None:
            raise LedgerError(
                "player.merge_same_session",
                field="into",
                date=shared.session.date.isoformat(),
                session=shared.session_id,
            )
        reason = _reason_clean(reason)
        # The sessions the merged player sat in now name the survivor: a change an API client syncs.
        sessions_bump(Session.objects.filter(seats__player=player), updated_at=timezone.now())
        events_bump(Event.objects.filter(players__player=player))
        SessionSeat.objects.filter(player=player).update(player=into)
        SettlementRow.objects.filter(player=player).update(player=into)
        GameRow.objects.filter(player=player).update(player=into)
        Player.objects.filter(merged_into=player).update(merged_into=into)
        player.merged_into = into
        player.save(update_fields=["merged_into", "updated_at"])
        if into.user_id is None and player.user_id is not None:
            into.user_id = player.user_id
        into.save(update_fields=["user", "updated_at"])  # its sessions grew: `updated` moves
        PlayerEvent.objects.create(
            club_id=player.club_id,
            player=player,
            kind=PlayerEvent.Kind.MERGED,
            old_name=player.name,
            new_name=into.name,
            into=into,
            reason=reason,
            user=user,
        )
        ratings_rebuild_club(club=player.club)
        # The merged-away id as a tombstone: a client drops it and follows `into`.
        note = ChangeNote(kind=Change.Kind.PLAYER_MERGED, object_id=player.pk, into_id=into.pk)
        changes_append(club_id=player.club_id, notes=[note])
    return into


def _players_lock(player: Player, *others: Player) -> list[Player | None]:
    """`player` and `others` (None: not of `player`'s club), locked in the one order (module docstring): the
    sessions `player` sat in by id, its club, then the players by id. FOR NO KEY UPDATE throughout, so a row
    inserted meanwhile that names one of them (a hand's settlement rows, a new session's seats) does not wait."""
    sessions = (
        Session.objects.select_for_update(no_key=True, of=("self",)).filter(seats__player=player.pk).order_by("pk")
    )
    list(sessions.values_list("pk", flat=True))
    club = Club.objects.select_for_update(no_key=True, of=("self",)).filter(players=player.pk)
    (club_id,) = club.values_list("pk", flat=True)
    ids = [player.pk, *(other.pk for other in others)]
    locked = Player.objects.select_for_update(no_key=True, of=("self",)).select_related("club")
    by_id = {found.pk: found for found in locked.filter(pk__in=ids, club_id=club_id).order_by("pk")}
    return [by_id.get(pk) for pk in ids]


def _not_merged(player: Player, *, field: str) -> None:
    if player.merged_into_id is not None:
        raise LedgerError("player.merged", field=field, name=player.name)


def _reason_clean(reason: Any) -> str:
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="reason"))
    return text_clean(reason, field="reason", limit=REASON_MAX)
