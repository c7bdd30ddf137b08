"""`python manage.py settle FILE` — settle a session document and print the results as JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from settlement.rules import Lang, RulesError, session_settle


class Command(BaseCommand):
    help = "Settle a session document (FILE, or - for standard input) and print the results document."
    requires_system_checks = ()  # settling needs no database or app checks
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="session document (JSON); - reads standard input")
        parser.add_argument("--lang", choices=[str(lang) for lang in Lang], default=str(Lang.ZH))

    def handle(self, *args: Any, file: str, lang: str, **options: Any) -> None:
        try:
            text = sys.stdin.read() if file == "-" else _read(file)
            raw = json.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            self._fail(f"document: file: {exc}")
        except json.JSONDecodeError as exc:
            self._fail(f"document: json: line {exc.lineno} column {exc.colno}: {exc.msg}")
        try:
            results = session_settle(raw, lang=lang)
        except RulesError as error:
            self._fail(error.describe(lang))
        self.stdout.write(json.dumps(results, ensure_ascii=False, indent=1))

    def _fail(self, message: str) -> None:
        sys.stderr.write(message + "\n")
        sys.exit(2)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()
