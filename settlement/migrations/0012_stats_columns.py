"""`SettlementRow.declaring_side`, `.bid` and `.level`, for the statistics; filled for existing sessions from a replay."""

from django.db import migrations, models


def stats_columns_fill(apps, schema_editor):
    """Each existing row's side and bid, from a replay of its session's log (the engine is pure)."""
    from settlement.rules.document import document_parse
    from settlement.rules.families import declarer_level, declaring_side
    from settlement.rules.registry import VARIANTS
    from settlement.rules.session import session_play

    Session = apps.get_model("settlement", "Session")
    SessionSeat = apps.get_model("settlement", "SessionSeat")
    HandRevision = apps.get_model("settlement", "HandRevision")
    SettlementRow = apps.get_model("settlement", "SettlementRow")
    for session in Session.objects.all().iterator():
        current = {}
        for revision in HandRevision.objects.filter(hand__session=session).order_by("hand__number", "number"):
            current[revision.hand.number] = revision
        played = [(n, r) for n, r in sorted(current.items()) if not r.is_void]
        if not played or session.variant not in VARIANTS:
            continue
        names = [seat.player.name for seat in SessionSeat.objects.filter(session=session).order_by("seat")]
        raw = {
            "variant": session.variant,
            "options": session.options,
            "players": names,
            "hands": [r.input for _, r in played],
        }
        try:
            result = session_play(document_parse(raw, variants=VARIANTS))
        except Exception:  # a log that no longer replays: ledger_verify reports it
            continue
        rows = {(row.hand_id, row.seat): row for row in SettlementRow.objects.filter(session=session)}
        changed = []
        before = None
        for hand in result.hands:
            state_before, before = before, hand.state
            levels = state_before.table.get("levels") if state_before is not None and state_before.hand_in_game else None
            level = declarer_level(session.variant, result.doc.options, levels, hand.result.declarer)
            revision = played[hand.n - 1][1]
            sides = declaring_side(session.variant, result.doc.hands[hand.n - 1], hand.result, len(names))
            for seat in range(len(names)):
                row = rows.get((revision.hand_id, seat))
                if row is None:
                    continue
                row.declaring_side = None if sides is None else sides[seat]
                row.bid = result.doc.hands[hand.n - 1].bid if hand.result.declarer is not None else None
                row.level = level
                changed.append(row)
        SettlementRow.objects.bulk_update(changed, ["declaring_side", "bid", "level"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0011_ratings_and_player_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="settlementrow",
            name="declaring_side",
            field=models.BooleanField(null=True, verbose_name="on the declaring side"),
        ),
        migrations.AddField(
            model_name="settlementrow",
            name="bid",
            field=models.PositiveIntegerField(null=True, verbose_name="bid"),
        ),
        migrations.AddField(
            model_name="settlementrow",
            name="level",
            field=models.CharField(max_length=8, null=True, verbose_name="declaring team's level"),
        ),
        migrations.RunPython(stats_columns_fill, migrations.RunPython.noop),
    ]
