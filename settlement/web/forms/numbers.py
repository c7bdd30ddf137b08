"""A number input whose limits and message are the engine's: what it allows is said beside it, in the page's language.

The field takes its range and step from the engine's description of the field (`rules.entry`'s `EntryField`,
`OptionSpec`), never from a copy here. Anything else typed (a negative, a fraction, twenty digits, a figure
off the step) gets the one message `rules.messages.number_rule` words; the input carries the same message and
limits as data attributes, so numbers.js says it before the form is sent.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from ...rules.messages import number_rule
from ...scoping import request_lang

# Optional sign (a typed U+2212 too), then digits: no fraction, no exponent, no thousands separator.
WHOLE = re.compile(r"^[+\-\u2212]?[0-9]{1,18}$")


class RuledNumberField(forms.IntegerField):
    """An integer from `minimum` to `maximum` (either may be None), a multiple of `step`; else the rule's message."""

    def __init__(
        self,
        *,
        label_text: str,
        minimum: int | None,
        maximum: int | None,
        step: int = 1,
        error_id: str,
        attrs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.minimum, self.maximum, self.step = minimum, maximum, step
        self.rule = number_rule(label=label_text, minimum=minimum, maximum=maximum, step=step, lang=request_lang())
        shown: dict[str, Any] = {"inputmode": "numeric", "autocomplete": "off", **(attrs or {})}
        shown |= {"step": step, "data-rule": self.rule, "data-step": step, "aria-describedby": error_id}
        for bound, value in (("min", minimum), ("max", maximum)):
            if value is not None:
                shown[f"data-{bound}"] = value
                shown[bound] = value
        kwargs.setdefault("widget", forms.NumberInput(attrs=shown))
        super().__init__(**kwargs)
        self.error_messages = {**self.error_messages, "invalid": self.rule}

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        typed = str(value).strip()
        if typed == "":
            return None
        if not WHOLE.match(typed):
            raise forms.ValidationError(self.rule, code="invalid")
        return int(typed.replace("\u2212", "-"))

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is None:
            return
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high) or value % self.step:
            raise forms.ValidationError(self.rule, code="out_of_range")
