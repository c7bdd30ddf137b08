"""`SettlementRow.koudi`, `.guangtou`, `.baochang`, `.run` and `HandState.runs` for the records and achievements, filled for existing
sessions from a replay of each log (as 0012 filled the statistics' columns); and the club's `show_achievements`.

The fill plays each session with the engine (pure) and computes the columns with the functions the writes use
(`rules.families.hand_marks`, `won_runs`), so the rows are those a rebuild (`ledger_verify --repair`) would write.
"""

from django.db import migrations, models


def records_columns_fill(apps, schema_editor):
    from settlement.rules.document import document_parse
    from settlement.rules.families import declaring_side, hand_marks, won_runs
    from settlement.rules.registry import VARIANTS
    from settlement.rules.session import session_play

    Session = apps.get_model("settlement", "Session")
    SessionSeat = apps.get_model("settlement", "SessionSeat")
    HandRevision = apps.get_model("settlement", "HandRevision")
    SettlementRow = apps.get_model("settlement", "SettlementRow")
    HandState = apps.get_model("settlement", "HandState")
    for session in Session.objects.all().iterator():
        current = {}
        for revision in (
            HandRevision.objects.filter(hand__session=session).select_related("hand").order_by("hand__number", "number")
        ):
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
        sides = [
            declaring_side(session.variant, result.doc.hands[hand.n - 1], hand.result, len(names))
            for hand in result.hands
        ]
        runs = won_runs([(s, hand.result.declarer_won) for s, hand in zip(sides, result.hands)], len(names))
        rows = {(row.hand_id, row.seat): row for row in SettlementRow.objects.filter(session=session)}
        states = {state.hand_id: state for state in HandState.objects.filter(session=session)}
        changed, changed_states = [], []
        for hand, hand_sides, after in zip(result.hands, sides, runs):
            revision = played[hand.n - 1][1]
            koudi, guangtou, baochang = hand_marks(hand.result.tags)
            for seat in range(len(names)):
                row = rows.get((revision.hand_id, seat))
                if row is None:
                    continue
                row.koudi, row.guangtou, row.baochang = koudi, guangtou, baochang
                row.run = 0 if hand_sides is None else after[seat]  # a redeal's rows end no run
                changed.append(row)
            state = states.get(revision.hand_id)
            if state is not None:
                state.runs = list(after)
                changed_states.append(state)
        SettlementRow.objects.bulk_update(changed, ["koudi", "guangtou", "baochang", "run"], batch_size=500)
        HandState.objects.bulk_update(changed_states, ["runs"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0022_event_draw"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="show_achievements",
            field=models.BooleanField(default=True, verbose_name="show achievements"),
        ),
        migrations.AddField(
            model_name="settlementrow",
            name="koudi",
            field=models.BooleanField(default=False, verbose_name="last trick to the capture side (抠底)"),
        ),
        migrations.AddField(
            model_name="settlementrow",
            name="guangtou",
            field=models.BooleanField(default=False, verbose_name="capture side held to nothing (光头)"),
        ),
        migrations.AddField(
            model_name="settlementrow",
            name="baochang",
            field=models.BooleanField(default=False, verbose_name="declarer paid alone (包场)"),
        ),
        migrations.AddField(
            model_name="settlementrow",
            name="run",
            field=models.PositiveIntegerField(default=0, verbose_name="hands won in a row"),
        ),
        migrations.AddField(
            model_name="handstate",
            name="runs",
            field=models.JSONField(default=list, verbose_name="hands won in a row after the hand"),
        ),
        migrations.RunPython(records_columns_fill, migrations.RunPython.noop),
    ]
