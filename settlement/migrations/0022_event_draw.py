from django.db import migrations, models


class Migration(migrations.Migration):
    """Events: tables of both the variant's sizes in one round (`mixed_sizes`); a pairs event's pairs (`pairs`)."""

    dependencies = [("settlement", "0020_league")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="mixed_sizes",
            field=models.BooleanField(default=False, verbose_name="tables of two sizes"),
        ),
        migrations.AddField(
            model_name="event",
            name="pairs",
            field=models.JSONField(blank=True, default=list, verbose_name="pairs"),
        ),
    ]
