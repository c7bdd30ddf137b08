"""The standings' and a player's statistics' shapes: their query parameters and answers, for the views and the
OpenAPI schema (the figures come from `selectors/stats.py`)."""

from __future__ import annotations

from rest_framework import serializers

from .serializers import VARIANT_CHOICES


class StandingsFilterSerializer(serializers.Serializer):
    date_from = serializers.DateField(required=False, help_text="sessions on or after this day")
    date_to = serializers.DateField(required=False, help_text="sessions on or before this day")
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, required=False)
    format = serializers.ChoiceField(
        choices=["json", "csv"], required=False, help_text="`csv`: the same as CSV (UTF-8 with BOM)"
    )
    labels = serializers.ChoiceField(
        choices=["zh-Hans", "en"],
        required=False,
        help_text="CSV: the header row in these words instead of the JSON's keys (`label`, `rank`, `player.id`, …)",
    )


class StandingsCSVFilterSerializer(serializers.Serializer):
    date_from = serializers.DateField(required=False, help_text="sessions on or after this day")
    date_to = serializers.DateField(required=False, help_text="sessions on or before this day")
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, required=False)
    labels = serializers.ChoiceField(
        choices=["zh-Hans", "en"],
        required=False,
        help_text="CSV: the header row in these words instead of the JSON's keys (`label`, `rank`, `player.id`, …)",
    )


GROUP_HELP = "the (family, unit) the figures add up in: `baifen/pan_points`, `baifen/zhu`, `erguai/stake_points`, …"


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    is_guest = serializers.BooleanField()


def _average(help_text: str) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=20, decimal_places=1, coerce_to_string=False, allow_null=True, help_text=help_text
    )


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = first; equal figures share a rank")
    player = PlayerRefSerializer()
    sessions = serializers.IntegerField(help_text="sessions sat in")
    sessions_won = serializers.IntegerField(help_text="closed sessions finished with the table's highest total")
    hands = serializers.IntegerField(help_text="hands played that count")
    declared = serializers.IntegerField(help_text="hands as declarer")
    declarer_won = serializers.IntegerField(help_text="hands as declarer that the declaring side won")
    games_won = serializers.IntegerField()
    total = serializers.IntegerField(help_text="in the group's unit")
    per_session = _average("total ÷ sessions, one decimal")
    per_hand = _average("total ÷ hands, one decimal")


class StandingGroupSerializer(serializers.Serializer):
    group = serializers.CharField(help_text=GROUP_HELP)
    family = serializers.CharField()
    unit = serializers.CharField()
    label = serializers.CharField(help_text="family and unit in the request's language")
    variants = serializers.ListField(child=serializers.CharField())
    ranking = serializers.CharField(help_text="the rule the rows are ranked by, in words")
    rows = StandingRowSerializer(many=True)


class BidFiguresSerializer(serializers.Serializer):
    bid = serializers.IntegerField(allow_null=True, help_text="the bid (bid games); null otherwise")
    band = serializers.CharField(
        allow_null=True, help_text="level games: the declaring team's level band (`2–5`, `6–9`, `10–K`, `A`)"
    )
    declared = serializers.IntegerField()
    made = serializers.IntegerField(help_text="the declaring side won")


class OtherPlayerSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    hands = serializers.IntegerField()
    won = serializers.IntegerField(help_text="of those hands, won by the player's side")
    net = serializers.IntegerField(help_text="the player's own total over those hands, in the group's unit")
    per_hand = _average("net ÷ hands, one decimal")


class SessionFiguresSerializer(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    date = serializers.DateField()
    variant = serializers.CharField()
    total = serializers.IntegerField()
    hands = serializers.IntegerField()


class RunningPointSerializer(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    date = serializers.DateField()
    total = serializers.IntegerField(help_text="the session's figure")
    running = serializers.IntegerField(help_text="the running total after it")


class GroupStatsSerializer(serializers.Serializer):
    group = serializers.CharField(help_text=GROUP_HELP)
    label = serializers.CharField()
    sessions = serializers.IntegerField()
    sessions_won = serializers.IntegerField()
    hands = serializers.IntegerField()
    declared = serializers.IntegerField()
    declarer_won = serializers.IntegerField()
    games_won = serializers.IntegerField()
    total = serializers.IntegerField()
    per_hand = _average("total ÷ hands, one decimal")
    per_session = _average("total ÷ sessions, one decimal")
    by_bid = BidFiguresSerializer(many=True)
    best = SessionFiguresSerializer(allow_null=True)
    worst = SessionFiguresSerializer(allow_null=True)
    partners = OtherPlayerSerializer(
        many=True,
        help_text="the other seats on the player's side of a hand (a fixed partner, the called friend, the other "
        "边家 of 标分), most hands won together first",
    )
    opponents = OtherPlayerSerializer(many=True, help_text="most hands played against first")
    running = RunningPointSerializer(many=True, help_text="session by session, oldest first")
    min_hands = serializers.IntegerField(help_text="the hands together (or against) a best or worst needs")
    best_partner = OtherPlayerSerializer(
        allow_null=True, help_text="of the partners with at least `min_hands` hands, the highest `per_hand`"
    )
    worst_partner = OtherPlayerSerializer(
        allow_null=True, help_text="… the lowest (null unless two or more have `min_hands`)"
    )
    best_opponent = OtherPlayerSerializer(
        allow_null=True, help_text="of the opponents with at least `min_hands` hands, the highest `per_hand`"
    )
    worst_opponent = OtherPlayerSerializer(
        allow_null=True, help_text="… the lowest (null unless two or more have `min_hands`)"
    )


class PlayerStatsSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    sessions = serializers.IntegerField()
    hands = serializers.IntegerField()
    groups = GroupStatsSerializer(many=True)
