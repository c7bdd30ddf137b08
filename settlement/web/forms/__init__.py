"""Forms of the club pages: they parse what was typed; the rules and the ledger decide in the services."""

from .club import ClubSettingsForm
from .filters import HistoryFilterForm, StandingsFilterForm
from .hand import HandVoidForm, TableHandForm
from .session import OptionsForm, SessionOpenForm

__all__ = [
    "ClubSettingsForm",
    "HandVoidForm",
    "HistoryFilterForm",
    "OptionsForm",
    "SessionOpenForm",
    "StandingsFilterForm",
    "TableHandForm",
]
