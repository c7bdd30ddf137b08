"""`manage.py club_import FILE|-`: restore a `club_export` document (all or nothing) into a free club slug."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from settlement.ledger import LedgerError
from settlement.models import Hand, Session
from settlement.services import club_import


class Command(BaseCommand):
    help = "Restore a club written by club_export: sessions, hand numbers, revisions, voids and results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the club_export document; - reads standard input")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            if file == "-":
                document = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as f:
                    document = json.load(f)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"{file}: {error}") from error
        try:
            club = club_import(document=document)
        except LedgerError as error:
            raise CommandError(error.describe("en")) from error
        sessions = Session.objects.filter(club=club).count()
        hands = Hand.objects.filter(session__club=club).count()
        self.stdout.write(f"{club.slug}: {sessions} sessions, {hands} hands restored")
