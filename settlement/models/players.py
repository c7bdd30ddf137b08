"""A player's tables beside the sessions: API tokens and the answers kept under an Idempotency-Key, the player's
trail (renames, merges) and skill ratings."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .core import AppendOnly, Club, Player, Session


class ApiToken(models.Model):
    """A named personal API token (`Authorization: Bearer …` or `Token …`), made on the API tokens page or by the API.

    Only a SHA-256 of the secret is stored: the secret is shown once, when it is made, and a copy of the
    database does not hold a usable token. `prefix` (the secret's first characters) tells tokens apart in
    the list. A token stops working when it expires or is revoked (`revoked_at`); it is never deleted, so
    the list can say when it went.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("user")
    )
    name = models.CharField(_("name"), max_length=60)
    key_hash = models.CharField(_("key (SHA-256)"), max_length=64, unique=True)
    prefix = models.CharField(_("prefix"), max_length=12)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ("-created_at", "-id")
        constraints = (
            models.CheckConstraint(condition=~Q(name=""), name="api_token_name_not_empty"),
            models.CheckConstraint(condition=~Q(key_hash=""), name="api_token_hash_not_empty"),
        )

    def __str__(self) -> str:
        return f"{self.user_id} {self.name} ({self.prefix}…)"

    def is_active(self, now: datetime.datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)


class PlayerEvent(AppendOnly):
    """A player renamed or merged into another record: who did it, when and why. The audit trail, never changed."""

    class Kind(models.TextChoices):
        RENAMED = "renamed", _("renamed")
        MERGED = "merged", _("merged")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+", verbose_name=_("club"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="events", verbose_name=_("player"))
    kind = models.CharField(_("what"), max_length=10, choices=Kind.choices)
    old_name = models.CharField(_("old name"), max_length=60)
    new_name = models.CharField(_("new name"), max_length=60, blank=True)
    into = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="absorbed_events", verbose_name=_("into")
    )
    reason = models.TextField(_("reason"), blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by"))
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("player event")
        verbose_name_plural = _("player events")
        ordering = ("created_at", "id")
        constraints = (
            models.CheckConstraint(condition=Q(kind__in=["renamed", "merged"]), name="player_event_kind_valid"),
            models.CheckConstraint(
                condition=Q(kind="renamed", into__isnull=True) | Q(kind="merged", into__isnull=False),
                name="player_event_into_iff_merged",
            ),
        )

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind}"


class RatingRow(models.Model):
    """Derived: a player's skill rating in a game family after one outcome (a finished game or a closed session).

    Rebuilt by `ledger/ratings.py` from the stored `GameRow` rows, in the same transaction as every write. `order`
    numbers the club's outcomes of the family (1, 2, …, by session date, session id, game); `game` is the game of
    a fixed-partner family's outcome, 0 for a session's ranking. mu and sigma are floats: openskill computes in
    floats, and a double round-trips exactly through SQLite and PostgreSQL, so a rebuild that resumes from stored
    rows gives the very figures a rebuild from the start gives. `ordinal` is mu − 3σ, the conservative rating shown.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(_("game family"), max_length=40)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="rating_rows")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    game = models.PositiveSmallIntegerField(_("game"))
    order = models.PositiveIntegerField(_("order"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    ordinal = models.FloatField(_("rating"))

    class Meta:
        verbose_name = _("rating row")
        verbose_name_plural = _("rating rows")
        ordering = ("club", "family", "order", "player")
        indexes = (
            models.Index(fields=["club", "family", "order"], name="rating_club_family_order"),
            models.Index(fields=["player", "family", "order"], name="rating_player_family_order"),
        )
        constraints = (
            models.UniqueConstraint(fields=["club", "family", "order", "player"], name="rating_one_per_outcome_player"),
        )


# --- events: a club's evening or tournament, its rounds and their tables, the director's adjustments ---


class IdempotentAnswer(models.Model):
    """The answer an API write gave under the caller's `Idempotency-Key` (settlement/api/idempotency.py).

    A retry with the same key and the same request (method, address, query and body: `digest`) gets this answer
    again; another request under the key is refused. Written in the write's own transaction, so no write is
    kept without its answer. Kept at least `KEEP` (a day); older ones are cleared as the user writes again.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    digest = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(default=0)  # 0 while the write runs (never committed so)
    body = models.TextField(blank=True, default="")  # the JSON as answered, its key order kept
    location = models.CharField(max_length=2000, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    KEEP = datetime.timedelta(hours=24)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["user", "key"], name="idempotent_answer_one_per_key"),)
        indexes = (models.Index(fields=["user", "created_at"], name="idempotent_answer_age"),)
