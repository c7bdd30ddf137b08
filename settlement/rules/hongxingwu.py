"""Placeholder: this variant is not in the engine yet."""

from collections.abc import Mapping

MESSAGES: Mapping[str, tuple[str, str]] = {}
