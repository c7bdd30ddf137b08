"""`manage.py flush` as Django's, able to empty the append-only logs too.

The database refuses DELETE (and on PostgreSQL TRUNCATE) on the hand log and
the audit trails (migrations 0004 and 0014) outside `ledger.log_deletes_allowed`.
This command runs inside it, in the one transaction that empties every table,
which puts the protection back before that transaction commits, so nobody else
ever sees the logs unprotected; a failure rolls the whole flush back. Django's
test framework flushes the database after each transactional test with this command.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError
from django.core.management.commands import flush
from django.db import connections, transaction

from settlement.ledger import log_deletes_allowed


class Command(flush.Command):
    help = flush.Command.help + " The logs are emptied too (the database otherwise refuses to delete from them)."

    def handle(self, **options: Any) -> None:
        database = options["database"]
        if options["interactive"]:
            name = connections[database].settings_dict["NAME"]
            answer = input(
                f"This deletes ALL data in the {name!r} database, the hand log included, for good.\n"
                "Type 'yes' to continue, or 'no' to cancel: "
            )
            if answer != "yes":
                raise CommandError("Flush cancelled.")
        with transaction.atomic(using=database), log_deletes_allowed(using=database):
            super().handle(**{**options, "interactive": False})
