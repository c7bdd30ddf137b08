"""A club's settings: what its pages show (the owner's settings page)."""

from __future__ import annotations

from django.db import transaction

from .. import policy
from ..models import Club
from .common import User


def club_settings_update(*, club: Club, user: User, show_achievements: bool) -> Club:
    """Whether the player pages show the achievements (成就); the owner's. A display setting: no ledger row changes,
    so nothing goes to the change feed (it carries the club's sessions, hands and players)."""
    with transaction.atomic():
        # Step 2 of the lock order (services/common.py), FOR NO KEY UPDATE as every club lock.
        club = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        policy.require_manage(user=user, club_id=club.pk)
        if club.show_achievements != show_achievements:
            club.show_achievements = show_achievements
            club.save(update_fields=["show_achievements", "updated_at"])
    return club
