"""`manage.py backup DIR`: a consistent copy of the SQLite database, taken while it serves.

SQLite's online backup API copies the database page by page as one
consistent snapshot, writers carrying on meanwhile (copying the file could
catch a write half done, or miss what is still in the WAL). The copy is
`DIR/<database name>-<UTC time>.sqlite3`, mode 0600 from the start (it holds
password hashes and session keys, as the database does). PostgreSQL has its own tool: the
command refuses and names it.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.utils import timezone


class Command(BaseCommand):
    help = "Copy the SQLite database, consistently and while it serves, to a timestamped file in DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", help="folder for the copy (created if missing)")
        parser.add_argument("--database", default="default", help="database alias (default: default)")

    def handle(self, *args: Any, directory: str, database: str, **options: Any) -> None:
        connection = connections[database]
        if connection.vendor != "sqlite":
            name = connection.settings_dict.get("NAME") or "DBNAME"
            raise CommandError(
                f"backup copies SQLite databases; this one is {connection.vendor}. Use pg_dump, e.g.\n"
                f"  pg_dump --format=custom --file=baifen-$(date -u +%Y%m%dT%H%M%SZ).dump {name}"
            )
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        stem = re.sub(r"[^\w-]+", "-", Path(str(connection.settings_dict["NAME"])).stem).strip("-") or "db"
        target = folder / f"{stem}-{timezone.now():%Y%m%dT%H%M%S%fZ}.sqlite3"
        try:  # made empty and private before SQLite opens it; never over an existing file
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            raise CommandError(f"{target} exists already") from None
        connection.ensure_connection()
        copy = sqlite3.connect(target)
        try:
            connection.connection.backup(copy)
        finally:
            copy.close()
        self.stdout.write(str(target))
