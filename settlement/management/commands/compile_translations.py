"""`python manage.py compile_translations` — write each `locale/*/LC_MESSAGES/*.mo` from its `.po` with polib.

Django's `compilemessages` needs GNU gettext, which a fresh machine may not
have; polib is pure Python and pinned in requirements.txt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def translations_compile(locale_dirs: list[Path] | None = None) -> list[Path]:
    """Compile every .po under the locale folders; returns the .mo files written."""
    written = []
    for folder in locale_dirs if locale_dirs is not None else [Path(p) for p in settings.LOCALE_PATHS]:
        for po_path in sorted(Path(folder).glob("*/LC_MESSAGES/*.po")):
            mo_path = po_path.with_suffix(".mo")
            polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
            written.append(mo_path)
    return written


class Command(BaseCommand):
    help = "Compile the translations (.po → .mo) with polib, without GNU gettext."
    requires_system_checks = ()

    def handle(self, *args: Any, **options: Any) -> None:
        for mo_path in translations_compile():
            self.stdout.write(f"compiled {mo_path.relative_to(settings.BASE_DIR)}")
