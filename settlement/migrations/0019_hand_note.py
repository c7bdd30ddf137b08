"""A hand revision's note: a nullable column, so SQLite adds it in place and the log's append-only triggers
(0004) stay on the table (a NOT NULL column would make Django rebuild the table without them)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('settlement', '0018_idempotent_answers'),
    ]

    operations = [
        migrations.AddField(
            model_name='handrevision',
            name='note',
            field=models.TextField(blank=True, null=True, verbose_name='note'),
        ),
    ]
