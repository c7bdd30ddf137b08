"""The change feed's table: one row per change of a club's sessions, hands or players, in commit order."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .core import AppendOnly, Club


class Change(AppendOnly):
    """One change of a club's sessions, hands or players, in the order the writes committed: the change feed.

    Written in the same transaction as the write it records (`ledger/changes.py`), never updated or deleted
    (migration 0017's triggers). The id is the feed's position: within a club, ids commit in order (the writer
    holds the club's feed lock from its insert to its commit), so a reader that has seen an id has seen every
    smaller id of the club. `object_id` is what changed (a session's, a hand's or a player's id; for a merge the
    merged-away player, a tombstone); `session`/`number`/`revision` place a hand, `into` is a merge's survivor.
    """

    class Kind(models.TextChoices):
        SESSION_CREATED = "session.created", _("session opened")
        SESSION_CLOSED = "session.closed", _("session closed")
        SESSION_REOPENED = "session.reopened", _("session reopened")
        HAND_RECORDED = "hand.recorded", _("hand recorded")
        HAND_CORRECTED = "hand.corrected", _("hand corrected")
        HAND_VOIDED = "hand.voided", _("hand voided")
        PLAYER_CREATED = "player.created", _("player added")
        PLAYER_RENAMED = "player.renamed", _("player renamed")
        PLAYER_MERGED = "player.merged", _("player merged")
        # An event's: `object_id` is the event, `number` the round where there is one.
        EVENT_CREATED = "event.created", _("event created")
        EVENT_CHECKED_IN = "event.checked_in", _("players checked in")
        EVENT_LEFT = "event.left", _("a player left")
        EVENT_ROUND_DRAWN = "event.round_drawn", _("round drawn")
        EVENT_ADJUSTED = "event.adjusted", _("penalty or award")
        # A league's: `object_id` is the league, `number` the event added.
        LEAGUE_CREATED = "league.created", _("league created")
        LEAGUE_EVENT_ADDED = "league.event_added", _("event added to a league")
        EVENT_FINISHED = "event.finished", _("event finished")
        EVENT_LATE_ALLOWED = "event.late_allowed", _("late hands allowed or refused")
        EVENT_SUBSTITUTED = "event.substituted", _("a substitute seated")
        EVENT_PAIRED = "event.paired", _("pairs set")
        LEAGUE_EVENT_REMOVED = "league.event_removed", _("event removed from a league")

    id = models.BigAutoField(primary_key=True)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+", verbose_name=_("club"))
    kind = models.CharField(_("what"), max_length=40)
    # Plain integers, not foreign keys: a change row never holds a lock on the row it names (`ledger/changes.py`).
    object_id = models.BigIntegerField(_("object"))
    session_id = models.BigIntegerField(_("session"), null=True, blank=True)
    number = models.PositiveIntegerField(_("number"), null=True, blank=True)
    revision = models.PositiveIntegerField(_("revision"), null=True, blank=True)
    into_id = models.BigIntegerField(_("into"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("feed change")
        verbose_name_plural = _("feed changes")
        ordering = ("id",)
        indexes = (models.Index(fields=["club", "id"], name="change_club_id"),)
        constraints = (models.CheckConstraint(condition=~Q(kind=""), name="change_kind_not_empty"),)

    def __str__(self) -> str:
        return f"{self.club_id} #{self.pk} {self.kind} {self.object_id}"
