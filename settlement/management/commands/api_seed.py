"""`python manage.py api_seed` — a club, its owner with an API token, sessions, an event, a league; prints the token.

For trying the API from a script and for CI's schemathesis run against a live
server: `TOKEN=$(.venv/bin/python manage.py api_seed)`. Idempotent: running it
again adds only what is missing and prints the same token. The event has eight
players checked in and a round drawn (its tables open), so every event path has
real ids to reach.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token

from settlement import services
from settlement.models import Club, Event, League, Membership, Role, Session
from settlement.rules.registry import VARIANTS

from .demo_load import DEMO_DIR

CLUB_SLUG, CLUB_NAME = "api", "百分俱乐部（API）"
# These sittings stay open, so hands can be added, corrected and voided through the API.
OPEN_DOCUMENTS = {"2026-11-28-benxi-300.json", "2026-11-15-erguai.json"}
EVENT_NAME, EVENT_KEY = "周五晚（API）", "api-seed-event"
# The league the seeded event counts in (the first league of a fresh database: id 1).
LEAGUE_NAME, LEAGUE_KEY = "冬季联赛（API）", "api-seed-league"
EVENT_PLAYERS = ["老王", "小李", "阿强", "大刘", "小张", "老赵", "阿梅", "小陈"]


class Command(BaseCommand):
    help = "Create an API club, its owner (default `api`) with a token, and sessions; print the token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="api", help="the owner's username (created without a password)")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        with transaction.atomic():
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_unusable_password()
                user.save(update_fields=["password"])
            club, _ = Club.objects.get_or_create(slug=CLUB_SLUG, defaults={"name": CLUB_NAME})
            Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.OWNER})
            token, _ = Token.objects.get_or_create(user=user)
            for path in sorted(DEMO_DIR.glob("*.json")):
                document = json.loads(path.read_text(encoding="utf-8"))
                if document["variant"] not in VARIANTS:
                    continue
                exists = Session.objects.filter(
                    club=club, variant=document["variant"], date=document["date"], venue=document.get("venue", "")
                ).exists()
                if not exists:
                    services.session_import(
                        club=club, user=user, document=document, close=path.name not in OPEN_DOCUMENTS
                    )
            if not Event.objects.filter(club=club, client_key=EVENT_KEY).exists():
                event = services.event_create(
                    club=club,
                    user=user,
                    name=EVENT_NAME,
                    variant="baifen.benxi",
                    players=EVENT_PLAYERS,
                    client_key=EVENT_KEY,
                )
                services.round_draw(event=event, user=user, draw="balanced", seed=1)
            if not League.objects.filter(club=club, client_key=LEAGUE_KEY).exists():
                services.league_create(
                    club=club,
                    user=user,
                    name=LEAGUE_NAME,
                    events=list(Event.objects.filter(club=club, client_key=EVENT_KEY)),
                    client_key=LEAGUE_KEY,
                )
        self.stdout.write(token.key)
