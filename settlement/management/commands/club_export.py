"""`manage.py club_export SLUG [FILE|-]`: a club with every session and every hand's revisions, as JSON.

`club_import` restores it. Standard output by default.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from settlement.models import Club
from settlement.services import club_export


class Command(BaseCommand):
    help = "Write a club, its sessions and the whole hand log with its revisions as JSON (FILE, or - for stdout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's slug")
        parser.add_argument("file", nargs="?", default="-", help="where to write it; - (the default) is stdout")

    def handle(self, *args: Any, slug: str, file: str, **options: Any) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"there is no club {slug!r}")
        text = json.dumps(club_export(club=club), ensure_ascii=False, indent=1)
        if file == "-":
            self.stdout.write(text)
            return
        with open(file, "x", encoding="utf-8") as f:
            f.write(text + "\n")
        self.stderr.write(f"{club.slug}: written to {file}")
