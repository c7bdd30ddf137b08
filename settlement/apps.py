from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def cache_table_create(sender: AppConfig, *, using: str = "default", **kwargs: Any) -> None:
    """After `migrate`: the database cache's table (settings.CACHES without BAIFEN_REDIS_URL), when it is missing
    (`createcachetable` leaves one that exists alone); nothing when the cache is Redis."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)


class SettlementConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "settlement"
    verbose_name = _("Settlement")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_migrate

        from baifen_ledger.files import sqlite_private

        connection_created.connect(sqlite_private, dispatch_uid="baifen_sqlite_private")
        post_migrate.connect(cache_table_create, sender=self, dispatch_uid="baifen_cache_table")
