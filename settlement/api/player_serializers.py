"""The leaderboard's and the player writes' shapes, for the answers and the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers

from settlement.ledger.ratings import FAMILIES

from .schema import CLEAN_TEXT, NAME_TEXT
from .serializers import PageQuerySerializer, PageSerializer, UtcDateTimeField

FAMILY_CHOICES = list(FAMILIES)


class LeaderboardQuerySerializer(PageQuerySerializer):
    family = serializers.ChoiceField(
        choices=FAMILY_CHOICES, required=False, help_text="the game family; default the club's first rated one"
    )


class FamilySerializer(serializers.Serializer):
    family = serializers.ChoiceField(choices=FAMILY_CHOICES)
    label = serializers.CharField(help_text="in the request's language")


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 is the best conservative rating")
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    rating = serializers.FloatField(source="ordinal", help_text="the conservative rating shown: mu − 3 × sigma")
    mu = serializers.FloatField(help_text="the estimated skill")
    sigma = serializers.FloatField(help_text="its uncertainty")
    outcomes = serializers.IntegerField(help_text="finished games or closed sessions rated")


class LeaderboardSerializer(PageSerializer):
    """A page of the family's board (`count`, `next`, `previous`, `results`) with the family and the others."""

    family = serializers.ChoiceField(choices=FAMILY_CHOICES, allow_null=True, help_text="null: nothing rated yet")
    families = FamilySerializer(many=True, help_text="the families the club has ratings in")
    how = serializers.CharField(help_text="how ratings work, one line in the request's language")
    results = LeaderboardEntrySerializer(many=True, help_text="this page's entries, best first")


class PlayerDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_guest = serializers.BooleanField()
    created = UtcDateTimeField(source="created_at", help_text="when it was made")
    updated = UtcDateTimeField(source="updated_at", help_text="its latest change (a rename, a merge)")


class PlayerRenameSerializer(serializers.Serializer):
    name = serializers.RegexField(NAME_TEXT, max_length=60, help_text="the new name (cleaned like every name)")
    reason = serializers.RegexField(CLEAN_TEXT, required=False, max_length=500, help_text="kept in the audit trail")


class PlayerMergeSerializer(serializers.Serializer):
    into = serializers.IntegerField(help_text="the id of the club's player who stays; this one is merged into it")
    reason = serializers.RegexField(CLEAN_TEXT, required=False, max_length=500, help_text="kept in the audit trail")
