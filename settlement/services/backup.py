"""Whole clubs: export one with its history (every session, every revision of every hand), and restore it.

The format is this ledger's own (`CLUB_FORMAT`), not the session document's: a restore gives back the
same hands, numbers, revisions and results, the audit trails of sessions (closed, reopened) and players
(renamed, merged), and rebuilds every derived row from the log. Version 1 documents, made before the trails
were carried, still restore (without them).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ..ledger import LedgerError, hand_input_ordered, log_load, log_replay
from ..ledger.changes import changes_backfill
from ..models import Club, Hand, HandRevision, Membership, Player, PlayerEvent, Session, SessionEvent, SessionSeat
from .common import derived_rebuild

CLUB_FORMAT = "baifen-ledger-club"
CLUB_FORMAT_VERSION = 2
# What club_import reads: 2 adds the session and player trails, merges and the import keys' digests.
CLUB_FORMAT_VERSIONS = (1, 2)


def club_export(*, club: Club) -> dict[str, Any]:
    """The club with every session and every revision of every hand: what `club_import` restores.

    Each session carries the session document's fields (variant, frozen
    options, players by seat, date, venue) with `status`, `closed_at`, who
    opened it and when; its `hands` are every hand of the log, void ones
    included, each with its number and its `revisions` (author's username,
    when, reason, input, void) oldest first — not the `settle` format's plain
    inputs. Its `events` are its closings and reopenings. Players carry the
    record they were merged into; `player_events` is the players' trail
    (renamed, merged). Users and players appear by name only.
    """
    sessions = []
    events: dict[int, list[dict[str, Any]]] = {}
    for event in SessionEvent.objects.filter(session__club=club).select_related("user").order_by("created_at", "pk"):
        events.setdefault(event.session_id, []).append(
            {"kind": event.kind, "user": event.user.get_username(), "created_at": event.created_at.isoformat()}
        )
    for session in Session.objects.filter(club=club).select_related("created_by").order_by("created_at", "pk"):
        log = log_load(session=session)
        sessions.append(
            {
                "variant": session.variant,
                "options": session.options,
                "players": [player.name for player in log.players],
                "date": session.date.isoformat(),
                "venue": session.venue,
                "status": session.status,
                "closed_at": session.closed_at.isoformat() if session.closed_at else None,
                "created_by": session.created_by.get_username(),
                "created_at": session.created_at.isoformat(),
                "client_key": session.client_key,
                "client_digest": session.client_digest,
                "events": events.get(session.pk, []),
                "hands": [
                    {
                        "n": entry.number,
                        "client_key": entry.hand.client_key,
                        "created_at": entry.hand.created_at.isoformat(),
                        "revisions": [
                            {
                                "number": revision.number,
                                "author": revision.author.get_username(),
                                "created_at": revision.created_at.isoformat(),
                                "reason": revision.reason,
                                "input": hand_input_ordered(revision.input),
                                "void": revision.is_void,
                                **({"note": revision.note} if revision.note else {}),
                            }
                            for revision in entry.revisions
                        ],
                    }
                    for entry in log.entries
                ],
            }
        )
    players = Player.objects.filter(club=club).select_related("user", "merged_into").order_by("created_at", "pk")
    player_events = (
        PlayerEvent.objects.filter(club=club).select_related("player", "into", "user").order_by("created_at", "pk")
    )
    members = Membership.objects.filter(club=club).select_related("user").order_by("pk")
    return {
        "format": CLUB_FORMAT,
        "version": CLUB_FORMAT_VERSION,
        "club": {"name": club.name, "slug": club.slug, "created_at": club.created_at.isoformat()},
        "members": [{"user": m.user.get_username(), "role": m.role} for m in members],
        "players": [
            {
                "name": p.name,
                "is_guest": p.is_guest,
                "user": p.user.get_username() if p.user else None,
                "created_at": p.created_at.isoformat(),
                "merged_into": p.merged_into.name if p.merged_into else None,
            }
            for p in players
        ],
        "player_events": [
            {
                "player": e.player.name,
                "kind": e.kind,
                "old_name": e.old_name,
                "new_name": e.new_name,
                "into": e.into.name if e.into else None,
                "reason": e.reason,
                "user": e.user.get_username(),
                "created_at": e.created_at.isoformat(),
            }
            for e in player_events
        ],
        "sessions": sessions,
    }


def club_import(*, document: Any) -> Club:
    """Restore a `club_export` document, all or nothing: the same hands, numbers, revisions and results.

    The club's slug must be free. Users named in it that do not exist are
    created as inactive accounts without a password (an administrator
    activates them). The log is written with inserts only and every session's
    derived rows are rebuilt from it; a log that no longer replays is refused.
    """
    with transaction.atomic():
        try:
            return _club_restore(document)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise LedgerError("document.invalid", field="document", detail=repr(error)) from error


def _club_restore(document: dict[str, Any]) -> Club:
    if document.get("format") != CLUB_FORMAT or document.get("version") not in CLUB_FORMAT_VERSIONS:
        raise ValueError(f"format {document.get('format')!r} version {document.get('version')!r}")
    slug = document["club"]["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise LedgerError("club.exists", field="club.slug", slug=slug)
    club = Club.objects.create(
        name=document["club"]["name"], slug=slug, created_at=_datetime_parse(document["club"]["created_at"])
    )
    users = _users_ensure(
        {m["user"] for m in document["members"]}
        | {p["user"] for p in document["players"] if p["user"]}
        | {s["created_by"] for s in document["sessions"]}
        | {r["author"] for s in document["sessions"] for h in s["hands"] for r in h["revisions"]}
        | {e["user"] for s in document["sessions"] for e in s.get("events", [])}
        | {e["user"] for e in document.get("player_events", [])}
    )
    Membership.objects.bulk_create(
        Membership(club=club, user=users[m["user"]], role=m["role"]) for m in document["members"]
    )
    Player.objects.bulk_create(
        Player(
            club=club,
            name=p["name"],
            is_guest=p["is_guest"],
            user=users[p["user"]] if p["user"] else None,
            created_at=_datetime_parse(p["created_at"]),
        )
        for p in document["players"]
    )
    players = {player.name: player for player in Player.objects.filter(club=club)}
    for p in document["players"]:
        if p.get("merged_into"):
            players[p["name"]].merged_into = players[p["merged_into"]]
            players[p["name"]].save(update_fields=["merged_into"])
    PlayerEvent.objects.bulk_create(
        PlayerEvent(
            club=club,
            player=players[e["player"]],
            kind=e["kind"],
            old_name=e["old_name"],
            new_name=e["new_name"],
            into=players[e["into"]] if e["into"] else None,
            reason=e["reason"],
            user=users[e["user"]],
            created_at=_datetime_parse(e["created_at"]),
        )
        for e in document.get("player_events", [])
    )
    for doc in document["sessions"]:
        session = Session.objects.create(
            club=club,
            date=datetime.date.fromisoformat(doc["date"]),
            venue=doc["venue"],
            variant=doc["variant"],
            options=doc["options"],
            status=doc["status"],
            closed_at=_datetime_parse(doc["closed_at"]) if doc["closed_at"] else None,
            created_by=users[doc["created_by"]],
            created_at=_datetime_parse(doc["created_at"]),
            client_key=doc["client_key"],
            # what tells a retried import from another under the same key (version 1 did not carry it)
            client_digest=doc.get("client_digest", ""),
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, seat=seat, player=players[name]) for seat, name in enumerate(doc["players"])
        )
        SessionEvent.objects.bulk_create(
            SessionEvent(
                session=session, kind=e["kind"], user=users[e["user"]], created_at=_datetime_parse(e["created_at"])
            )
            for e in doc.get("events", [])
        )
        hands = Hand.objects.bulk_create(
            Hand(
                session=session, number=h["n"], client_key=h["client_key"], created_at=_datetime_parse(h["created_at"])
            )
            for h in doc["hands"]
        )
        HandRevision.objects.bulk_create(
            HandRevision(
                hand=hand,
                number=r["number"],
                input=r["input"],
                is_void=r["void"],
                reason=r["reason"],
                note=r.get("note") or None,
                author=users[r["author"]],
                created_at=_datetime_parse(r["created_at"]),
            )
            for hand, h in zip(hands, doc["hands"], strict=True)
            for r in h["revisions"]
        )
        log = log_load(session=session)
        replay = log_replay(session=session, players=log.players, hands=log.hands())
        derived_rebuild(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=1)
    changes_backfill(club_id=club.pk)  # the restored club's feed: its history as stored, in order
    return club


def _users_ensure(usernames: set[str]) -> dict[str, Any]:
    """The users of these names; missing ones created inactive, with no usable password."""
    user_model = get_user_model()
    field = user_model.USERNAME_FIELD
    users = {user.get_username(): user for user in user_model.objects.filter(**{f"{field}__in": usernames})}
    for name in sorted(usernames - users.keys()):
        user = user_model(**{field: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users


def _datetime_parse(value: str) -> datetime.datetime:
    parsed = datetime.datetime.fromisoformat(value)
    if timezone.is_naive(parsed):
        raise ValueError(f"time without a time zone: {value}")
    return parsed
