"""Events: a club's evening or tournament, its checked-in players, rounds (each table a session) and adjustments;
a league (season), a club's named series of events with a league table.

docs/events.md tells the whole of it; the services (`services/events.py`, `rounds.py`, `adjustments.py`) write these
rows, the selectors read them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..rules.registry import VARIANTS
from .core import AppendOnly, Club, Player, Session


class League(models.Model):
    """A club's named series of events (a season) with a league table, in one family unit (分, 注, 档 or 级).

    `ranking`: `sum` adds each player's event totals; `best` adds their best `best_n` of the league's events.
    """

    class Ranking(models.TextChoices):
        SUM = "sum", _("sum of event totals")
        BEST = "best", _("best N events")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100)
    unit = models.CharField(_("unit"), max_length=4)
    ranking = models.CharField(_("ranking"), max_length=10, choices=Ranking.choices, default=Ranking.SUM)
    best_n = models.PositiveSmallIntegerField(_("events counted"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    client_digest = models.CharField(_("client request digest"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ("-created_at", "-id")
        constraints = (
            models.CheckConstraint(condition=~Q(name=""), name="league_name_not_empty"),
            models.CheckConstraint(condition=~Q(unit=""), name="league_unit_not_empty"),
            models.CheckConstraint(
                condition=Q(ranking="sum", best_n__isnull=True) | Q(ranking="best", best_n__gte=1),
                name="league_best_n_iff_best",
            ),
            models.UniqueConstraint(
                fields=["club", "client_key"], condition=~Q(client_key=""), name="league_client_key_unique_in_club"
            ),
        )

    def __str__(self) -> str:
        return f"{self.club} {self.name}"


class Event(models.Model):
    """A club's evening or tournament: every table plays `variant` with the same frozen `options`.

    `ranking` is how the standings rank (`sum`: the sum of each player's table totals); `bye` how a round sat out
    counts (`average`: the player's average over the rounds played, `zero`, `figure`: `bye_figure`).
    """

    class State(models.TextChoices):
        OPEN = "open", _("open")
        RUNNING = "running", _("round running")
        FINISHED = "finished", _("finished")

    class Ranking(models.TextChoices):
        SUM = "sum", _("sum of table totals")
        PLACEMENT = "placement", _("placement points per table")

    class Bye(models.TextChoices):
        AVERAGE = "average", _("the player's average")
        ZERO = "zero", _("zero")
        FIGURE = "figure", _("a stated figure")

    class SubstituteResult(models.TextChoices):
        ABSENT = "absent", _("the absent player's")
        SUBSTITUTE = "substitute", _("the substitute's")

    class LateHands(models.TextChoices):
        COUNTED = "counted", _("counted")
        REFUSED = "refused", _("refused unless the director allows them")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=100, blank=True)
    variant = models.CharField(_("variant"), max_length=40)
    preset = models.CharField(_("preset"), max_length=40, blank=True)
    options = models.JSONField(_("options"), default=dict)  # the overrides (the preset's, then the event's own)
    table_size = models.PositiveSmallIntegerField(_("players at a table"))
    # Tables of both the variant's sizes in one round (标分: 3 and 4; 升级, classic 打百分: 4 and 6), so a count that
    # one size does not divide seats everyone it can (7 at 标分: a table of 4 and one of 3) rather than a bye.
    mixed_sizes = models.BooleanField(_("tables of two sizes"), default=False)
    # A pairs event (fixed-partnership variants, tables of four): [[player id, player id], …], each pair seated as
    # partners every round (`rules.pairs`); empty: players are drawn one by one.
    pairs = models.JSONField(_("pairs"), default=list, blank=True)
    ranking = models.CharField(_("ranking"), max_length=10, choices=Ranking.choices, default=Ranking.SUM)
    # `placement`: the points for 1st, 2nd … place at a table, one per seat, best first (e.g. 4, 2, 1, 0).
    placement_points = models.JSONField(_("placement points"), default=list, blank=True)
    bye = models.CharField(_("a bye counts"), max_length=10, choices=Bye.choices, default=Bye.AVERAGE)
    bye_figure = models.BigIntegerField(_("a bye's figure"), null=True, blank=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.OPEN)
    # A hand recorded at a table after its round's clock ran out (`Round.ends_at`).
    late_hands = models.CharField(
        _("a hand after the round's end"), max_length=10, choices=LateHands.choices, default=LateHands.COUNTED
    )
    # Whose result a substitute's seat is (`Substitute`): the absent player's, or the substitute's.
    substitute_result = models.CharField(
        _("a substitute's result"), max_length=10, choices=SubstituteResult.choices, default=SubstituteResult.ABSENT
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    client_digest = models.CharField(_("client request digest"), max_length=64, blank=True, default="")
    # The league (season) the event counts in, if any: one league an event.
    league = models.ForeignKey(
        League, on_delete=models.PROTECT, null=True, blank=True, related_name="events", verbose_name=_("league")
    )
    # Bumped in the same transaction by every write of the event (`services.events.event_changes_append`, the one
    # place they all end): with its tables' `Session.version` it is the big screen's ETag, read in one query.
    version = models.PositiveBigIntegerField(_("version"), default=0, editable=False)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ("-date", "-id")
        constraints = (
            models.CheckConstraint(condition=~Q(name=""), name="event_name_not_empty"),
            models.CheckConstraint(condition=~Q(variant=""), name="event_variant_not_empty"),
            models.CheckConstraint(condition=Q(state__in=["open", "running", "finished"]), name="event_state_valid"),
            models.CheckConstraint(condition=Q(ranking__in=["sum", "placement"]), name="event_ranking_valid"),
            models.CheckConstraint(condition=Q(late_hands__in=["counted", "refused"]), name="event_late_hands_valid"),
            models.CheckConstraint(
                condition=Q(substitute_result__in=["absent", "substitute"]), name="event_substitute_result_valid"
            ),
            models.CheckConstraint(condition=Q(table_size__gte=2, table_size__lte=6), name="event_table_size_valid"),
            models.CheckConstraint(
                condition=Q(bye__in=["average", "zero"], bye_figure__isnull=True)
                | Q(bye="figure", bye_figure__isnull=False),
                name="event_bye_figure_iff_figure",
            ),
            models.UniqueConstraint(
                fields=["club", "client_key"], condition=~Q(client_key=""), name="event_client_key_unique_in_club"
            ),
        )

    def __str__(self) -> str:
        return f"{self.club} {self.date} {self.name}"

    @property
    def table_sizes(self) -> frozenset[int]:
        """The table sizes a round seats: `table_size`, or with `mixed_sizes` every size the variant takes."""
        variant = VARIANTS.get(self.variant)
        if self.mixed_sizes and variant is not None:
            return frozenset(variant.player_counts)
        return frozenset({self.table_size})

    @property
    def table_sizes_text(self) -> str:
        """The sizes as the pages show them: "4", or "3 / 4" with `mixed_sizes`."""
        return " / ".join(str(size) for size in sorted(self.table_sizes))

    @property
    def unit(self) -> str:
        variant = VARIANTS.get(self.variant)
        return variant.unit if variant else ""


class EventPlayer(models.Model):
    """A player checked in to an event (a club member or a guest): from round `joined` on, until `left` (if ever)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players", verbose_name=_("event"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    joined = models.PositiveSmallIntegerField(_("from round"), default=1)
    left = models.PositiveSmallIntegerField(_("left after round"), null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in"), default=timezone.now)

    class Meta:
        verbose_name = _("event player")
        verbose_name_plural = _("event players")
        ordering = ("event", "id")
        constraints = (
            models.UniqueConstraint(fields=["event", "player"], name="event_player_once"),
            models.CheckConstraint(condition=Q(joined__gte=1), name="event_player_joined_positive"),
            models.CheckConstraint(
                condition=Q(left__isnull=True) | Q(left__gte=models.F("joined") - 1), name="event_player_left_order"
            ),
        )

    def __str__(self) -> str:
        return f"{self.event_id} {self.player_id}"


class Round(models.Model):
    """A round of an event: its draw (method and seed, so it is reproducible), who sat out, when it ran."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("event"))
    n = models.PositiveSmallIntegerField(_("round"))
    draw = models.CharField(_("draw"), max_length=10)
    seed = models.BigIntegerField(_("seed"))
    sitting_out = models.JSONField(_("sitting out"), default=list)  # player ids, in the draw's order
    length_minutes = models.PositiveSmallIntegerField(_("length (minutes)"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    # The clock: started_at plus length_minutes (none without a length); a hand after it is the event's `late_hands`.
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    late_allowed = models.BooleanField(_("late hands allowed"), default=False)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("drawn by")
    )
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    client_digest = models.CharField(_("client request digest"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ("event", "n")
        constraints = (
            models.UniqueConstraint(fields=["event", "n"], name="round_number_unique_in_event"),
            models.UniqueConstraint(
                fields=["event", "client_key"], condition=~Q(client_key=""), name="round_client_key_unique_in_event"
            ),
            models.CheckConstraint(condition=Q(n__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(length_minutes__isnull=True, ends_at__isnull=True)
                | Q(length_minutes__isnull=False, ends_at__isnull=False),
                name="round_ends_iff_length",
            ),
            models.CheckConstraint(
                condition=Q(draw__in=["random", "balanced", "swiss", "manual"]), name="round_draw_valid"
            ),
        )

    def __str__(self) -> str:
        return f"{self.event_id} round {self.n}"


class RoundTable(models.Model):
    """A table of a round: an ordinary session (its own page, share link, receipts, corrections) linked here.

    The link is a row of its own rather than a column of `Session`, so a session stays what it always was.
    """

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables", verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("table"))
    session = models.OneToOneField(
        Session, on_delete=models.PROTECT, related_name="event_table", verbose_name=_("session")
    )

    class Meta:
        verbose_name = _("round table")
        verbose_name_plural = _("round tables")
        ordering = ("round", "number")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="round_table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_table_number_positive"),
        )

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class Adjustment(AppendOnly):
    """The director's penalty (罚分) or award on a player in a round: append-only, like the hand log.

    `amount` is positive; a penalty counts against the player, an award for. A mistaken one is undone by another.
    """

    class Kind(models.TextChoices):
        PENALTY = "penalty", _("penalty")
        AWARD = "award", _("award")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="adjustments", verbose_name=_("event"))
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="adjustments", verbose_name=_("round"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    kind = models.CharField(_("what"), max_length=10, choices=Kind.choices)
    amount = models.BigIntegerField(_("amount"))
    reason = models.TextField(_("reason"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("author")
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    client_digest = models.CharField(_("client request digest"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        ordering = ("event", "created_at", "id")
        constraints = (
            models.CheckConstraint(condition=Q(kind__in=["penalty", "award"]), name="adjustment_kind_valid"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="adjustment_amount_positive"),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_reason_not_empty"),
            models.UniqueConstraint(
                fields=["event", "client_key"], condition=~Q(client_key=""), name="adjustment_client_key_unique"
            ),
        )

    def __str__(self) -> str:
        return f"{self.event_id} {self.kind} {self.player_id} {self.amount}"

    @property
    def signed(self) -> int:
        return -self.amount if self.kind == self.Kind.PENALTY else self.amount


class Substitute(models.Model):
    """A substitute playing a seat of a round's table for an absent player: the table's session seat now names the
    substitute; whose result the seat is, the event says (`Event.substitute_result`)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="substitutes", verbose_name=_("event"))
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="substitutes", verbose_name=_("round"))
    table = models.ForeignKey(RoundTable, on_delete=models.PROTECT, related_name="substitutes", verbose_name=_("table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    absent = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("absent player"))
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("substitute"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    client_digest = models.CharField(_("client request digest"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("substitute")
        verbose_name_plural = _("substitutes")
        ordering = ("event", "round", "table", "seat")
        constraints = (
            models.CheckConstraint(condition=~Q(absent=models.F("substitute")), name="substitute_not_absent"),
            models.UniqueConstraint(
                fields=["event", "client_key"], condition=~Q(client_key=""), name="substitute_client_key_unique"
            ),
        )

    def __str__(self) -> str:
        return f"{self.round} {self.substitute_id} for {self.absent_id}"


class EventShareLink(models.Model):
    """A read-only link to an event's big screen (`/e/<token>/`), for a TV in the room; no login.

    As a session's `ShareLink`: the token is stored as it is (unique, so indexed), since the event page shows the
    link and its QR code again whenever it is opened; revoking sets `revoked_at`; an event has at most one link that
    is not revoked.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="share_links", verbose_name=_("event"))
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("made by")
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("event share link")
        verbose_name_plural = _("event share links")
        constraints = (
            models.UniqueConstraint(
                fields=["event"], condition=Q(revoked_at__isnull=True), name="event_share_link_one_active_per_event"
            ),
            models.CheckConstraint(condition=~Q(token=""), name="event_share_link_token_not_empty"),
        )

    def __str__(self) -> str:
        return f"{self.event_id} share {'revoked' if self.revoked_at else 'active'}"
