from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SettlementConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "settlement"
    verbose_name = _("Settlement")
