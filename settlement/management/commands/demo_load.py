"""`python manage.py demo_load` — a demo club with a login and a few sessions, loaded once.

Each session comes from a session document in `settlement/demo/`, imported as
a club would import it. Running it again adds only what is missing (a
document whose variant was not registered yet, say); it never changes what
is there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from settlement import services
from settlement.models import Club, Membership, Player, Role, Session
from settlement.rules.registry import VARIANTS

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
USERNAME, PASSWORD = "demo", "demo-baifen"
VIEWER, VIEWER_PASSWORD = "demo-viewer", "demo-baifen"
CLUB_SLUG, CLUB_NAME = "demo", "百分俱乐部（演示）"
MEMBERS = ("老王", "小李", "张姐", "老赵", "阿明", "春燕")
# The latest sitting stays open, as if it were tonight's.
OPEN_DOCUMENTS = {"2026-11-28-benxi-300.json"}


class Command(BaseCommand):
    help = "Load the demo club, its login and its sessions (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            user = _user(USERNAME, PASSWORD, first_name="演示")
            viewer = _user(VIEWER, VIEWER_PASSWORD, first_name="旁观")
            club, _ = Club.objects.get_or_create(slug=CLUB_SLUG, defaults={"name": CLUB_NAME})
            Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.OWNER})
            Membership.objects.get_or_create(user=viewer, club=club, defaults={"role": Role.VIEWER})
            for name in MEMBERS:
                Player.objects.get_or_create(club=club, name=name)
            loaded = 0
            for path in sorted(DEMO_DIR.glob("*.json")):
                document = json.loads(path.read_text(encoding="utf-8"))
                if document["variant"] not in VARIANTS:
                    self.stdout.write(f"demo: skipped {path.name}: variant {document['variant']} is not registered yet")
                    continue
                exists = Session.objects.filter(
                    club=club, variant=document["variant"], date=document["date"], venue=document.get("venue", "")
                ).exists()
                if exists:
                    continue
                services.session_import(club=club, user=user, document=document, close=path.name not in OPEN_DOCUMENTS)
                loaded += 1
        if loaded:
            self.stdout.write(f"demo: loaded {loaded} session(s) into {CLUB_NAME}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club: http://127.0.0.1:8000/  log in as {USERNAME} / {PASSWORD}"
                f"  (read-only: {VIEWER} / {VIEWER_PASSWORD})"
            )
        )


def _user(username: str, password: str, **fields: str) -> User:
    user, created = User.objects.get_or_create(username=username, defaults=fields)
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user
