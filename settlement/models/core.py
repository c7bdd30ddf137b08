"""The ledger's tables: clubs, roles, players, sessions, the append-only hand log and its derived rows.

What a scorekeeper enters is kept as `HandRevision` rows that are never
updated or deleted: a correction or a void is a new revision, and a hand's
current revision is the one with the highest number. `SettlementRow` and
`GameRow` are derived from the rules engine's replay of the log and can be
rebuilt from it at any time (`services/` does so in the same transaction
as every write).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ..rules.registry import VARIANTS


def engine_lang(language: str | None) -> str:
    """The rules engine's language code for a Django language code (`zh-hans` → `zh-Hans`)."""
    return "en" if (language or "").lower().startswith("en") else "zh-Hans"


def variant_label(key: str, language: str | None = None) -> str:
    """A variant's display name in the active (or given) language; the key if it is not registered."""
    variant = VARIANTS.get(key)
    if variant is None:
        return key
    return variant.name.get(engine_lang(language or get_language()), key)


class AppendOnly(models.Model):
    """Rows of the hand log: inserted once, never updated or deleted (a correction is a new row)."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(f"{type(self).__name__} rows are append-only")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)  # the API's `updated` (incremental sync)
    # The club's settings page: whether the player pages show the achievements (成就).
    show_achievements = models.BooleanField(_("show achievements"), default=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    SCOREKEEPER = "scorekeeper", _("scorekeeper")
    VIEWER = "viewer", _("viewer")


# Who may write (open or import a session, record a hand, close a session): `policy.may_write`'s rule. It stands
# here, beside the roles, so that `Membership.can_write` asks it without the model importing policy (which
# stands above the models and imports them).
WRITE_ROLES = frozenset({Role.OWNER, Role.SCOREKEEPER})


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("user")
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = (
            models.UniqueConstraint(fields=["user", "club"], name="membership_one_per_user_and_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_valid"),
        )

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"

    @property
    def can_write(self) -> bool:
        return self.role in WRITE_ROLES  # policy.may_write(self.role)


class Player(models.Model):
    """Someone who sits at a club's table; a login is optional, a guest is created by import or opening."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("user"),
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)
    # Merged into another record of the same person (`services.player_merge`): hidden from lists and
    # pickers, its page redirects to the survivor; its results were moved there.
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("merged into")
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ("name",)
        constraints = (
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        )

    def __str__(self) -> str:
        return self.name


class Session(models.Model):
    """One sitting of one variant. `options` is every option resolved at opening, frozen."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("club"))
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue / table"), max_length=100, blank=True)
    variant = models.CharField(_("variant"), max_length=40)
    options = models.JSONField(_("options"), default=dict)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("opened by")
    )
    created_at = models.DateTimeField(_("opened"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # Its latest write: a save, a hand recorded, corrected or voided (the services touch it), a close or reopen.
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)
    # Bumped in the same transaction by every write that changes what the session's pages and API answers show
    # (a hand recorded, corrected or voided, a close or reopen, a seated player renamed or merged, a rebuild):
    # the share page's poll and the API's ETags are answered from it without reading or rendering anything else.
    version = models.PositiveBigIntegerField(_("version"), default=0, editable=False)
    # The key of the form (or request) that opened it: a resubmit of the same form is the same session.
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    # An import's request under that key, hashed: a retry must carry the same one.
    client_digest = models.CharField(_("client request digest"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ("-date", "-created_at", "-id")
        indexes = (models.Index(fields=["club", "-date"], name="session_club_date"),)
        constraints = (
            models.CheckConstraint(condition=Q(status__in=["open", "closed"]), name="session_status_valid"),
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True) | Q(status="closed", closed_at__isnull=False),
                name="session_closed_at_iff_closed",
            ),
            models.CheckConstraint(condition=~Q(variant=""), name="session_variant_not_empty"),
            models.UniqueConstraint(
                fields=["club", "client_key"],
                condition=~Q(client_key=""),
                name="session_client_key_unique_in_club",
            ),
        )

    def __str__(self) -> str:
        return f"{self.club} {self.date} {self.variant}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def variant_label(self) -> str:
        return variant_label(self.variant)

    @property
    def unit(self) -> str:
        variant = VARIANTS.get(self.variant)
        return variant.unit if variant else ""


class SessionEvent(AppendOnly):
    """A session closed or reopened: who did it and when. Kept for the audit trail, never changed."""

    class Kind(models.TextChoices):
        CLOSED = "closed", _("closed")
        REOPENED = "reopened", _("reopened")

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="events", verbose_name=_("session"))
    kind = models.CharField(_("what"), max_length=10, choices=Kind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by"))
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("session event")
        verbose_name_plural = _("session events")
        ordering = ("session", "created_at", "id")
        constraints = (
            models.CheckConstraint(condition=Q(kind__in=["closed", "reopened"]), name="session_event_kind_valid"),
        )

    def __str__(self) -> str:
        return f"{self.session_id} {self.kind}"


class SessionSeat(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats", verbose_name=_("session"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ("session", "seat")
        constraints = (
            models.UniqueConstraint(fields=["session", "seat"], name="seat_unique_in_session"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_once_in_session"),
            # 升级 seats six players; no variant takes more.
            models.CheckConstraint(condition=Q(seat__lt=6), name="seat_in_range"),
        )

    def __str__(self) -> str:
        return f"{self.session_id}#{self.seat} {self.player_id}"


class Hand(AppendOnly):
    """A hand of the log. Its number counts every hand entered, void ones too."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="hands", verbose_name=_("session"))
    number = models.PositiveIntegerField(_("number"))
    # The client's key of the request that recorded the hand: a repeat of it is the same hand.
    client_key = models.CharField(_("client key"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("recorded"), default=timezone.now)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ("session", "number")
        constraints = (
            models.UniqueConstraint(fields=["session", "number"], name="hand_number_unique_in_session"),
            models.UniqueConstraint(
                fields=["session", "client_key"],
                condition=~Q(client_key=""),
                name="hand_client_key_unique_in_session",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        )

    def __str__(self) -> str:
        return f"{self.session_id}/{self.number}"


class HandRevision(AppendOnly):
    """What was entered for a hand, by whom and when; a correction or void is a later revision.

    The current revision is the one with the highest number; (hand, number) is
    unique, so there is exactly one. Revision 1 is the recording; every later one
    carries its reason. A void has no input.
    """

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="revisions", verbose_name=_("hand"))
    number = models.PositiveSmallIntegerField(_("revision"))
    input = models.JSONField(_("input"), null=True, blank=True)
    is_void = models.BooleanField(_("void"), default=False)
    reason = models.TextField(_("reason"), blank=True)
    # The scorekeeper's free text about the hand as entered ("王强 renounced"), part of this revision: a later
    # note is a later revision. Null (not "") so that adding the column leaves the log's tables in place.
    note = models.TextField(_("note"), null=True, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("author")
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("hand revision")
        verbose_name_plural = _("hand revisions")
        ordering = ("hand", "number")
        constraints = (
            models.UniqueConstraint(fields=["hand", "number"], name="revision_number_unique_in_hand"),
            models.CheckConstraint(condition=Q(number__gte=1), name="revision_number_positive"),
            models.CheckConstraint(
                condition=Q(is_void=True, input__isnull=True) | Q(is_void=False, input__isnull=False),
                name="revision_void_iff_no_input",
            ),
            models.CheckConstraint(
                condition=Q(number=1, is_void=False) | (Q(number__gt=1) & ~Q(reason="")),
                name="revision_first_is_entry_later_have_reason",
            ),
        )

    def __str__(self) -> str:
        return f"{self.hand}r{self.number}"


class SettlementRow(models.Model):
    """Derived: one seat's result of one hand that is not void, from the engine's replay."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="settlement_rows")
    number = models.PositiveIntegerField(_("hand"))  # the hand's number, kept here to rebuild "from hand n on"
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="settlement_rows")
    game = models.PositiveSmallIntegerField(_("game"))
    delta = models.BigIntegerField(_("delta"))
    total = models.BigIntegerField(_("running total in game"))
    is_declarer = models.BooleanField(_("declarer"), default=False)
    declarer_won = models.BooleanField(_("declarer won"), null=True)
    # For the statistics (rules/families.py): the seat on the declaring side? (None: a redeal), and the hand's bid.
    declaring_side = models.BooleanField(_("on the declaring side"), null=True)
    bid = models.PositiveIntegerField(_("bid"), null=True)
    level = models.CharField(_("declaring team's level"), max_length=8, null=True)  # level games only
    # For the records and achievements (rules/families.py): the hand's tags 抠底, 光头, 包场 (the same on every seat's
    # row; who earned them is the seat's side), and the run of hands this seat's side has won in the session that
    # this hand ends (0 when it did not win it).
    koudi = models.BooleanField(_("last trick to the capture side (抠底)"), default=False)
    guangtou = models.BooleanField(_("capture side held to nothing (光头)"), default=False)
    baochang = models.BooleanField(_("declarer paid alone (包场)"), default=False)
    run = models.PositiveIntegerField(_("hands won in a row"), default=0)

    class Meta:
        verbose_name = _("settlement row")
        verbose_name_plural = _("settlement rows")
        ordering = ("session", "number", "seat")
        indexes = (
            models.Index(fields=["session", "number"], name="settlement_session_number"),
            models.Index(fields=["player", "session"], name="settlement_player_session"),
        )
        constraints = (models.UniqueConstraint(fields=["hand", "seat"], name="settlement_one_row_per_hand_seat"),)


class GameRow(models.Model):
    """Derived: one seat's result of one game (盘 / round / level game) of a session."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    game = models.PositiveSmallIntegerField(_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="game_rows")
    first_hand = models.PositiveIntegerField(_("first hand"))
    last_hand = models.PositiveIntegerField(_("last hand"))
    finished = models.BooleanField(_("finished"))
    how = models.CharField(_("how"), max_length=20, blank=True)
    won = models.BooleanField(_("won"))
    adjustment = models.BigIntegerField(_("adjustment"))
    total = models.BigIntegerField(_("game total"))

    class Meta:
        verbose_name = _("game row")
        verbose_name_plural = _("game rows")
        ordering = ("session", "game", "seat")
        indexes = (models.Index(fields=["player", "session"], name="gamerow_player_session"),)
        constraints = (
            models.UniqueConstraint(fields=["session", "game", "seat"], name="gamerow_one_per_game_seat"),
            models.CheckConstraint(condition=Q(won=False) | Q(finished=True), name="gamerow_won_only_if_finished"),
            models.CheckConstraint(condition=Q(last_hand__gte=models.F("first_hand")), name="gamerow_hand_order"),
        )


class ShareLink(models.Model):
    """A read-only link to one session's table (`/s/<token>/`), for players' phones and a TV; no login.

    The token is stored as it is (unique, so indexed): the table page shows the link and its QR code
    again whenever it is opened, which a stored hash could not. Whoever can read this table can read
    the ledger itself, so a hash would protect nothing the link shows. Revoking sets `revoked_at`;
    a session has at most one link that is not revoked.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("made by")
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("share link")
        verbose_name_plural = _("share links")
        constraints = (
            models.UniqueConstraint(
                fields=["session"], condition=Q(revoked_at__isnull=True), name="share_link_one_active_per_session"
            ),
            models.CheckConstraint(condition=~Q(token=""), name="share_link_token_not_empty"),
        )

    def __str__(self) -> str:
        return f"{self.session_id} share {'revoked' if self.revoked_at else 'active'}"


class HandState(models.Model):
    """Derived: where the session stands after a hand that is not void, and that hand's receipt.

    `state` is the engine's resumable state (`rules.session.state_dump`): a new
    hand, or a correction, plays on from the state of the hand before it
    instead of replaying the session. `receipt` is the hand's results-document
    entry with its steps as message keys and parameters (rendered in the
    reader's language); `game_end` the game it finished, if any, likewise.
    `game_first` is the ledger number of the first hand of the game still in
    progress after this hand (None when this hand ended its game).
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="derived_state")
    number = models.PositiveIntegerField(_("hand"))
    game_first = models.PositiveIntegerField(_("first hand of the game in progress"), null=True)
    state = models.JSONField(_("state after the hand"))
    receipt = models.JSONField(_("receipt"))
    game_end = models.JSONField(_("game ended"), null=True)
    # Per seat, the run of hands won its side stands at after this hand (`rules.families.won_runs`): the next hand
    # plays on from it as it plays on from `state` (a redeal leaves it as it was).
    runs = models.JSONField(_("hands won in a row after the hand"), default=list)

    class Meta:
        verbose_name = _("hand state")
        verbose_name_plural = _("hand states")
        ordering = ("session", "number")
        constraints = (models.UniqueConstraint(fields=["session", "number"], name="handstate_one_per_hand"),)
