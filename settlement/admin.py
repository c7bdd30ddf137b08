"""Django admin for every model. The hand log and the rows derived from it are read-only here:
hands change only through the services (a correction is a new revision)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Club, GameRow, Hand, HandRevision, Membership, Player, Session, SessionSeat, SettlementRow


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}  # noqa: RUF012 - the admin checks for a dict
    inlines = (MembershipInline,)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "role")
    list_filter = ("role", "club")
    autocomplete_fields = ("user", "club")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "user", "is_guest")
    list_filter = ("club", "is_guest")
    search_fields = ("name",)
    raw_id_fields = ("user",)


class SessionSeatInline(ReadOnlyInline):
    model = SessionSeat
    fields = ("seat", "player")
    readonly_fields = ("seat", "player")


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("date", "club", "variant", "venue", "status")
    list_filter = ("club", "variant", "status")
    date_hierarchy = "date"
    # The variant, options and seats are frozen at opening: changing them would rewrite every hand.
    readonly_fields = ("club", "variant", "options", "status", "created_by", "created_at", "closed_at")
    inlines = (SessionSeatInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # sessions are opened or imported through the app

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SessionSeat)
class SessionSeatAdmin(ReadOnlyAdmin):
    list_display = ("session", "seat", "player")
    list_select_related = ("session__club", "player")


class HandRevisionInline(ReadOnlyInline):
    model = HandRevision
    fields = ("number", "input", "is_void", "reason", "author", "created_at")
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("session", "number", "client_key", "created_at")
    list_filter = ("session__club",)
    list_select_related = ("session__club",)
    inlines = (HandRevisionInline,)


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    list_display = ("hand", "number", "is_void", "author", "created_at", "reason")
    list_filter = ("is_void",)
    list_select_related = ("hand__session__club", "author")


@admin.register(SettlementRow)
class SettlementRowAdmin(ReadOnlyAdmin):
    list_display = ("session", "number", "seat", "player", "game", "delta", "total")
    list_select_related = ("session__club", "player")


@admin.register(GameRow)
class GameRowAdmin(ReadOnlyAdmin):
    list_display = ("session", "game", "seat", "player", "finished", "how", "won", "adjustment", "total")
    list_select_related = ("session__club", "player")
