"""Share links: a read-only `/s/<token>/` view of one session (issue 15).

Numbered 0007 because 0005 and 0006 are written on other branches; it depends on 0004 here and the
dependency is set to the latest migration when the branches are merged.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0006_session_client_digest"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ShareLink",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("token", models.CharField(max_length=64, unique=True, verbose_name="token")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="created")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked")),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="made by",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="share_links", to="settlement.session"
                    ),
                ),
            ],
            options={
                "verbose_name": "share link",
                "verbose_name_plural": "share links",
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("revoked_at__isnull", True)),
                        fields=("session",),
                        name="share_link_one_active_per_session",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("token", ""), _negated=True), name="share_link_token_not_empty"
                    ),
                ],
            },
        ),
    ]
