from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0005_session_event"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="client_digest",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="client request digest"),
        ),
    ]
