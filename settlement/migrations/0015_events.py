"""Events: a club's evening or tournament, its players, rounds and tables, and the director's adjustments.

A round's table is an ordinary session, linked by a `RoundTable` row (the session table is not altered). The
adjustments are a log like the hands: `settlement_adjustment` refuses UPDATE and DELETE in the database, with the
triggers of migration 0014 (PostgreSQL: its function `settlement_ledger_append_only`, which lets a DELETE through
only on the maintenance path of `ledger.log_deletes_allowed`; SQLite: `_no_update` and `_no_delete` triggers,
the latter dropped and restored by that path).
"""

import django.db.models.deletion
import django.db.models.expressions
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

TABLE = "settlement_adjustment"
STATEMENTS = {
    "sqlite": (
        [
            f"CREATE TRIGGER {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
            f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: UPDATE refused'); END",
            f"CREATE TRIGGER {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
            f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: DELETE refused'); END",
        ],
        [f"DROP TRIGGER IF EXISTS {TABLE}_no_update", f"DROP TRIGGER IF EXISTS {TABLE}_no_delete"],
    ),
    "postgresql": (
        [
            f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
            "FOR EACH ROW EXECUTE FUNCTION settlement_ledger_append_only()",
            f"CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE} "
            "FOR EACH STATEMENT EXECUTE FUNCTION settlement_ledger_append_only()",
        ],
        [
            f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE}",
            f"DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE}",
        ],
    ),
}


def _run(schema_editor, direction):
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise RuntimeError(f"no append-only triggers for {vendor}: the ledger supports SQLite and PostgreSQL")
    for statement in STATEMENTS[vendor][direction]:
        schema_editor.execute(statement, params=None)


def forward(apps, schema_editor):
    _run(schema_editor, 0)


def reverse(apps, schema_editor):
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0014_event_logs_append_only"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Event",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100, verbose_name="name")),
                ("date", models.DateField(verbose_name="date")),
                ("venue", models.CharField(blank=True, max_length=100, verbose_name="venue")),
                ("variant", models.CharField(max_length=40, verbose_name="variant")),
                ("preset", models.CharField(blank=True, max_length=40, verbose_name="preset")),
                ("options", models.JSONField(default=dict, verbose_name="options")),
                ("table_size", models.PositiveSmallIntegerField(verbose_name="players at a table")),
                (
                    "ranking",
                    models.CharField(
                        choices=[("sum", "sum of table totals")], default="sum", max_length=10, verbose_name="ranking"
                    ),
                ),
                (
                    "bye",
                    models.CharField(
                        choices=[("average", "the player's average"), ("zero", "zero"), ("figure", "a stated figure")],
                        default="average",
                        max_length=10,
                        verbose_name="a bye counts",
                    ),
                ),
                ("bye_figure", models.BigIntegerField(blank=True, null=True, verbose_name="a bye's figure")),
                (
                    "state",
                    models.CharField(
                        choices=[("open", "open"), ("running", "round running"), ("finished", "finished")],
                        default="open",
                        max_length=10,
                        verbose_name="state",
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="created")),
                ("client_key", models.CharField(blank=True, default="", max_length=64, verbose_name="client key")),
                (
                    "client_digest",
                    models.CharField(blank=True, default="", max_length=64, verbose_name="client request digest"),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="settlement.club",
                        verbose_name="club",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="created by",
                    ),
                ),
            ],
            options={
                "verbose_name": "event",
                "verbose_name_plural": "events",
                "ordering": ("-date", "-id"),
            },
        ),
        migrations.CreateModel(
            name="EventPlayer",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("joined", models.PositiveSmallIntegerField(default=1, verbose_name="from round")),
                ("left", models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="left after round")),
                ("checked_in_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="checked in")),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="players",
                        to="settlement.event",
                        verbose_name="event",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="settlement.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "event player",
                "verbose_name_plural": "event players",
                "ordering": ("event", "id"),
            },
        ),
        migrations.CreateModel(
            name="Round",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("n", models.PositiveSmallIntegerField(verbose_name="round")),
                ("draw", models.CharField(max_length=10, verbose_name="draw")),
                ("seed", models.BigIntegerField(verbose_name="seed")),
                ("sitting_out", models.JSONField(default=list, verbose_name="sitting out")),
                (
                    "length_minutes",
                    models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="length (minutes)"),
                ),
                ("started_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="started")),
                ("ended_at", models.DateTimeField(blank=True, null=True, verbose_name="ended")),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="drawn by",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rounds",
                        to="settlement.event",
                        verbose_name="event",
                    ),
                ),
            ],
            options={
                "verbose_name": "round",
                "verbose_name_plural": "rounds",
                "ordering": ("event", "n"),
            },
        ),
        migrations.CreateModel(
            name="Adjustment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[("penalty", "penalty"), ("award", "award")], max_length=10, verbose_name="what"
                    ),
                ),
                ("amount", models.BigIntegerField(verbose_name="amount")),
                ("reason", models.TextField(verbose_name="reason")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="when")),
                (
                    "author",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="author",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="settlement.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="adjustments",
                        to="settlement.event",
                        verbose_name="event",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="adjustments",
                        to="settlement.round",
                        verbose_name="round",
                    ),
                ),
            ],
            options={
                "verbose_name": "adjustment",
                "verbose_name_plural": "adjustments",
                "ordering": ("event", "created_at", "id"),
            },
        ),
        migrations.CreateModel(
            name="RoundTable",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(verbose_name="table")),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tables",
                        to="settlement.round",
                        verbose_name="round",
                    ),
                ),
                (
                    "session",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="event_table",
                        to="settlement.session",
                        verbose_name="session",
                    ),
                ),
            ],
            options={
                "verbose_name": "round table",
                "verbose_name_plural": "round tables",
                "ordering": ("round", "number"),
            },
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("name", ""), _negated=True), name="event_name_not_empty"
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("variant", ""), _negated=True), name="event_variant_not_empty"
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("state__in", ["open", "running", "finished"])), name="event_state_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("ranking__in", ["sum", "placement"])), name="event_ranking_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("table_size__gte", 2), ("table_size__lte", 6)), name="event_table_size_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("bye__in", ["average", "zero"]), ("bye_figure__isnull", True)),
                    models.Q(("bye", "figure"), ("bye_figure__isnull", False)),
                    _connector="OR",
                ),
                name="event_bye_figure_iff_figure",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_key", ""), _negated=True),
                fields=("club", "client_key"),
                name="event_client_key_unique_in_club",
            ),
        ),
        migrations.AddConstraint(
            model_name="eventplayer",
            constraint=models.UniqueConstraint(fields=("event", "player"), name="event_player_once"),
        ),
        migrations.AddConstraint(
            model_name="eventplayer",
            constraint=models.CheckConstraint(
                condition=models.Q(("joined__gte", 1)), name="event_player_joined_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="eventplayer",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("left__isnull", True),
                    (
                        "left__gte",
                        django.db.models.expressions.CombinedExpression(models.F("joined"), "-", models.Value(1)),
                    ),
                    _connector="OR",
                ),
                name="event_player_left_order",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(fields=("event", "n"), name="round_number_unique_in_event"),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(condition=models.Q(("n__gte", 1)), name="round_number_positive"),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("draw__in", ["random", "balanced", "swiss", "manual"])), name="round_draw_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="adjustment",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["penalty", "award"])), name="adjustment_kind_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="adjustment",
            constraint=models.CheckConstraint(condition=models.Q(("amount__gt", 0)), name="adjustment_amount_positive"),
        ),
        migrations.AddConstraint(
            model_name="adjustment",
            constraint=models.CheckConstraint(
                condition=models.Q(("reason", ""), _negated=True), name="adjustment_reason_not_empty"
            ),
        ),
        migrations.AddConstraint(
            model_name="roundtable",
            constraint=models.UniqueConstraint(fields=("round", "number"), name="round_table_number_unique"),
        ),
        migrations.AddConstraint(
            model_name="roundtable",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="round_table_number_positive"
            ),
        ),
        migrations.AddField(
            model_name="adjustment",
            name="client_key",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="client key"),
        ),
        migrations.AddField(
            model_name="adjustment",
            name="client_digest",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="client request digest"),
        ),
        migrations.AddField(
            model_name="round",
            name="client_key",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="client key"),
        ),
        migrations.AddField(
            model_name="round",
            name="client_digest",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="client request digest"),
        ),
        migrations.AddConstraint(
            model_name="adjustment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_key", ""), _negated=True),
                fields=("event", "client_key"),
                name="adjustment_client_key_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_key", ""), _negated=True),
                fields=("event", "client_key"),
                name="round_client_key_unique_in_event",
            ),
        ),
        migrations.RunPython(forward, reverse),
        migrations.AddField(
            model_name="event",
            name="late_hands",
            field=models.CharField(
                choices=[("counted", "counted"), ("refused", "refused unless the director allows them")],
                default="counted",
                max_length=10,
                verbose_name="a hand after the round's end",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="ends_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="ends"),
        ),
        migrations.AddField(
            model_name="round",
            name="late_allowed",
            field=models.BooleanField(default=False, verbose_name="late hands allowed"),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("late_hands__in", ["counted", "refused"])), name="event_late_hands_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("ends_at__isnull", True), ("length_minutes__isnull", True)),
                    models.Q(("ends_at__isnull", False), ("length_minutes__isnull", False)),
                    _connector="OR",
                ),
                name="round_ends_iff_length",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="placement_points",
            field=models.JSONField(blank=True, default=list, verbose_name="placement points"),
        ),
        migrations.AlterField(
            model_name="event",
            name="ranking",
            field=models.CharField(
                choices=[("sum", "sum of table totals"), ("placement", "placement points per table")],
                default="sum",
                max_length=10,
                verbose_name="ranking",
            ),
        ),
    ]
