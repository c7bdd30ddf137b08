from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SettlementConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "settlement"
    verbose_name = _("Settlement")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from baifen_ledger.files import sqlite_private

        connection_created.connect(sqlite_private, dispatch_uid="baifen_sqlite_private")
