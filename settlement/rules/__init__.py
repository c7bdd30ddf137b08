"""The rules engine: pure Python, no Django. `session_settle` is the entry point."""

from .base import Lang, RulesError
from .session import session_settle

__all__ = ["Lang", "RulesError", "session_settle"]
