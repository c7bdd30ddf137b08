"""`manage.py ledger_verify [--session N] [--repair]`: the derived rows are what the hand log replays to.

Each difference is printed (session, hand or game, seat, field, stored vs
replayed); the exit status is 1 when there is one. `--repair` rebuilds the
derived rows of each session that differs (one transaction per session) and
checks it again. Without `--session` it checks every club's ratings too
(`ratings.ratings_verify`: the stored ones against a computation from the
start); `--repair` rebuilds a club's ratings that differ.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from settlement.ledger import LedgerError
from settlement.ledger.ratings import ratings_rebuild_club, ratings_verify
from settlement.models import Club, Session
from settlement.selectors import session_verify
from settlement.services import session_derived_rebuild


class Command(BaseCommand):
    help = "Replay every session's hand log and compare it with the stored derived rows; --repair rebuilds them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--session", type=int, metavar="N", help="only the session with id N")
        parser.add_argument("--repair", action="store_true", help="rebuild the derived rows of sessions that differ")

    def handle(self, *args: Any, session: int | None, repair: bool, **options: Any) -> None:
        sessions = Session.objects.order_by("pk")
        if session is not None:
            sessions = sessions.filter(pk=session)
            if not sessions.exists():
                raise CommandError(f"there is no session {session}")
        checked = wrong = unreadable = 0
        for one in sessions.iterator():
            checked += 1
            try:
                differences = session_verify(session=one)
            except LedgerError as error:
                unreadable += 1
                self.stderr.write(f"session {one.pk}: the hand log no longer replays: {error}")
                continue
            if not differences:
                continue
            for difference in differences:
                self.stdout.write(str(difference))
            if repair:
                session_derived_rebuild(session=one)
                left = session_verify(session=one)
                if left:
                    wrong += 1
                    self.stderr.write(f"session {one.pk}: {len(left)} differences left after the rebuild")
                else:
                    self.stdout.write(f"session {one.pk}: repaired ({len(differences)} differences fixed)")
            else:
                wrong += 1
        ratings_wrong = 0
        if session is None:
            for club in Club.objects.order_by("pk").iterator():
                differences = ratings_verify(club=club)
                for difference in differences:
                    self.stdout.write(difference)
                if differences and repair:
                    with transaction.atomic():
                        ratings_rebuild_club(club=club)
                    self.stdout.write(f"club {club.slug}: ratings rebuilt ({len(differences)} differences fixed)")
                elif differences:
                    ratings_wrong += 1
        if ratings_wrong and not (wrong or unreadable):
            raise CommandError(
                f"the ratings of {ratings_wrong} club(s) differ from their game rows; --repair rebuilds them",
                returncode=1,
            )
        if wrong or unreadable:
            hint = "" if repair else "; --repair rebuilds them"
            raise CommandError(
                f"{wrong + unreadable} of {checked} sessions differ from their hand log{hint}", returncode=1
            )
        self.stdout.write(f"{checked} sessions checked: the derived rows match the hand log")
