"""The hand entry of the table page, built from the engine's description of the hand (`rules.entry`).

The same form records the next hand and corrects an earlier one (prefilled with its current input,
carrying the revision it was made from), on the table page and on the hand page.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ...models import Player
from ...rules.registry import VARIANTS
from .numbers import RuledNumberField

# Form fields of each group (a group is one hand field; a few take more than one input).
GROUP_FIELDS = {
    "bottom_multiplier": ("kou_shape", "bottom_multiplier"),
    "bottom_jokers": ("bottom_jokers_big", "bottom_jokers_small"),
}
# Inputs a surrender leaves out (标分: the hand is not played).
NOT_PLAYED = ("captured", "bottom_points", "kou_di", "bombs")
SWITCHES = ("forced", "no_trump_bottom", "surrender", "kou_di", "jack_kou", "gan_guo")
# 升级's 抠底 counts (cards each in the last trick, the led play's largest unit): sent only with 抠底.
KOU_COUNTS = ("kou_cards", "kou_unit")


@dataclass(frozen=True)
class ButtonOption:
    """One choice drawn as a large button (a radio input and its label)."""

    value: str
    label: str
    checked: bool
    attrs: dict[str, str]
    sub: str = ""


@dataclass
class FieldGroup:
    """One hand field on the entry form: its kind of input (buttons, toggle, number …) and its errors."""

    name: str
    label: str
    errors: list[str]
    fields: tuple[str, ...]  # the form fields it holds (table.js puts live errors by these)
    kind: str = "buttons"
    options: list[ButtonOption] = dc_field(default_factory=list)
    bound: Any = None
    rows: list[Any] = dc_field(default_factory=list)
    value: Any = None
    text: str = ""
    help: str = ""

    @property
    def field_names(self) -> str:
        return " ".join(self.fields)


class TableHandForm(forms.Form):
    """The table page's entry: only the inputs the session's variant uses, parsed into a hand object.

    It checks types; the rules (required fields, allowed bids, points) are the engine's, whose
    refusal the view puts at the field it names. `cleaned_data["hand"]` is the hand as a session
    document carries it: optional fields only when they say something.
    A correction carries the revision it was made from (`revision`), so a fix made from a stale page
    is refused instead of undoing a newer one.
    """

    client_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(
        self,
        *args: Any,
        variant: str,
        entry: Any,
        players: list[Player] | tuple[Player, ...],
        fix: Any = None,
        **kwargs: Any,
    ) -> None:
        """`entry` is the selector's `EntryState`; `fix` the `HandRecord` being corrected (its input prefills)."""
        super().__init__(*args, **kwargs)
        rules = VARIANTS[variant]
        self.rules = rules
        self.entry = entry
        self.players = list(players)
        self.fix = fix
        self.original: dict[str, Any] | None = None
        self.missing: list[str] = []  # groups a preview still needs (not yet an error)
        described = {field.name: field for field in entry.fields}
        self.described = described
        self.groups = groups = list(described)
        f = self.fields
        f["client_key"].initial = uuid.uuid4().hex

        def choices(name: str) -> list[tuple[str, str]]:
            return [(c.value, c.label) for c in described[name].choices]

        f["redeal"] = forms.ChoiceField(
            required=False,
            choices=[("", _("no, it was played")), *((r.value, r.label) for r in entry.redeal_reasons)],
        )
        for name in ("dealer", "declarer"):
            if name in groups:
                f[name] = forms.TypedChoiceField(required=False, choices=choices(name), coerce=int, empty_value=None)
        if "tribute" in groups:
            f["tribute"] = forms.ChoiceField(required=False, choices=choices("tribute"))
        if "bid" in groups:
            f["bid"] = forms.TypedChoiceField(required=False, choices=choices("bid"), coerce=int, empty_value=None)
        for name in SWITCHES:
            if name in groups:
                f[name] = forms.BooleanField(required=False)
        if "contract" in groups:
            f["contract"] = forms.ChoiceField(required=False, choices=choices("contract"))
        if "partner" in groups:
            f["partner"] = forms.ChoiceField(required=False, choices=choices("partner"))

        # Every number takes its limits from the engine's field; what it allows is said beside it (`numbers`).
        def number(name: str, group: str, label: str, **attrs: Any) -> None:
            spec = described[group]
            f[name] = RuledNumberField(
                required=False,
                label_text=label,
                minimum=spec.minimum,
                maximum=spec.maximum,
                step=spec.step,
                error_id=f"error-{group}",
                attrs={"pattern": "[0-9]*", **attrs},
            )

        for name in ("captured", "bottom_points", "bombs", *KOU_COUNTS):
            if name in groups:
                number(name, name, described[name].label)
        if "kou" in groups:
            f["kou"] = forms.ChoiceField(required=False, choices=[("", _("no")), *choices("kou")])
        if "bottom_multiplier" in groups:
            f["kou_shape"] = forms.ChoiceField(required=False, choices=choices("bottom_multiplier"))
            number("bottom_multiplier", "bottom_multiplier", described["bottom_multiplier"].label)
        if "bottom_jokers" in groups:
            jokers = [(str(i), str(i)) for i in range(4)]
            for size in ("big", "small"):
                f[f"bottom_jokers_{size}"] = forms.TypedChoiceField(
                    required=False, choices=jokers, coerce=int, empty_value=0
                )
        # The kinds of penalty the variant records (标分 both, 升级 failed throws only).
        self.penalty_kinds = [c.value for c in described["penalties"].choices] if "penalties" in groups else []
        if "penalties" in groups:
            kinds = {c.value: c.label for c in described["penalties"].choices}
            for seat in range(entry.players):
                for kind in self.penalty_kinds:
                    who = self.players[seat].name if seat < len(self.players) else str(seat + 1)
                    number(f"{kind}_{seat}", "penalties", f"{who} · {kinds[kind]}")
        # Free text stored with the hand's revision (a correction carries it over, changed or not).
        f["note"] = forms.CharField(
            required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2, "aria-describedby": "note-error"})
        )
        if fix is not None:
            f["note"].initial = fix.current.note
            f["reason"] = forms.CharField(required=False, max_length=500)
            f["revision"] = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
            f["revision"].initial = len(fix.revisions)
        self._initial_from_state()

    # --- initial values ---

    def _initial_from_state(self) -> None:
        entry = self.entry
        initial: dict[str, Any] = {}
        if "dealer" in self.fields and entry.dealer is not None:
            initial["dealer"] = entry.dealer
        if "declarer" in self.fields and entry.declarer is not None:
            initial["declarer"] = entry.declarer
        if "tribute" in self.fields:
            initial["tribute"] = "normal"
        if "contract" in self.fields:
            initial["contract"] = "plain"
        for size in ("big", "small"):
            if f"bottom_jokers_{size}" in self.fields:
                initial[f"bottom_jokers_{size}"] = 0
        if self.fix is not None:
            initial.update(self._initial_from_hand())
        for name, value in initial.items():
            self.fields[name].initial = value

    def _initial_from_hand(self) -> dict[str, Any]:
        """The corrected hand's current input (or, for a void one, its last input) as form values."""
        revision = next((r for r in reversed(self.fix.revisions) if not r.is_void), None)
        hand = dict(revision.input) if revision is not None else {}
        self.original = hand
        result = self.fix.result or {}
        initial: dict[str, Any] = {}
        if "dealer" in self.fields:
            initial["dealer"] = hand.get("dealer", result.get("dealer"))
        for name in (
            "declarer",
            "bid",
            "captured",
            "bottom_points",
            "bombs",
            "tribute",
            "contract",
            "redeal",
            *KOU_COUNTS,
        ):
            if name in self.fields and name in hand:
                initial[name] = hand[name]
        for name in SWITCHES:
            if name in self.fields:
                initial[name] = bool(hand.get(name, False))
        if "kou" in self.fields:
            initial["kou"] = hand.get("kou") or ""
        if "partner" in self.fields and "partner" in hand:
            initial["partner"] = "none" if hand["partner"] is None else hand["partner"]
        if "bottom_multiplier" in self.fields and "bottom_multiplier" in hand:
            initial["bottom_multiplier"] = hand["bottom_multiplier"]
            shape = next((s.value for s in self.entry.kou_shapes if s.multiplier == hand["bottom_multiplier"]), "")
            initial["kou_shape"] = shape
        jokers = hand.get("bottom_jokers") or {}
        for size in ("big", "small"):
            if f"bottom_jokers_{size}" in self.fields:
                initial[f"bottom_jokers_{size}"] = jokers.get(size, 0)
        for penalty in hand.get("penalties") or []:
            name = f"{penalty.get('kind')}_{penalty.get('seat')}"
            if name in self.fields:
                initial[name] = initial.get(name, 0) + 1
        return initial

    # --- parsing ---

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        saving = self.data.get("action") in ("record", "correct")
        self.missing = []
        if self.entry.ask_dealer and "dealer" in self.fields and data.get("dealer") is None:
            if saving:
                self.add_error("dealer", _("Who bids first? At the start of a round it is drawn by turning a card."))
            else:
                self.missing.append("dealer")  # a preview: still to fill in, not yet wrong
        if self.fix is not None and self.data.get("action") in ("correct", "void") and not data.get("reason"):
            self.add_error("reason", _("Say why the hand is corrected."))
        data["hand"] = self._hand(data)
        return data

    def _hand(self, data: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {}
        fields = self.fields
        if "dealer" in fields and data.get("dealer") is not None:
            hand["dealer"] = data["dealer"]
            original, result = self.original, self.fix.result if self.fix is not None else None
            if original is not None and "dealer" not in original and result and data["dealer"] == result["dealer"]:
                del hand["dealer"]  # as first entered: the rule's dealer, not written down
        redeal = data.get("redeal") or ""
        if redeal:
            hand["redeal"] = redeal
            hand.update(self._penalties(data))
            return hand
        declarer = data.get("declarer")
        if declarer is not None:
            # Level games leave the rotation's declarer out, so a correction before it carries the rotation on.
            rotation = self.rules.has_levels and declarer == self.entry.declarer
            if not rotation or (self.original is not None and "declarer" in self.original):
                hand["declarer"] = declarer
        if data.get("tribute") not in (None, "", "normal"):
            hand["tribute"] = data["tribute"]
        if data.get("bid") is not None:
            hand["bid"] = data["bid"]
        if data.get("forced"):
            hand["forced"] = True
        if data.get("contract") not in (None, "", "plain"):
            hand["contract"] = data["contract"]
        if "partner" in fields and data.get("partner"):
            hand["partner"] = None if data["partner"] == "none" else int(data["partner"])
        if data.get("no_trump_bottom"):
            hand["no_trump_bottom"] = True
        surrender = bool(data.get("surrender"))
        if surrender:
            hand["surrender"] = True
        played = {name: data.get(name) for name in NOT_PLAYED if not surrender}
        if played.get("bombs"):
            hand["bombs"] = played["bombs"]
        if played.get("captured") is not None:
            hand["captured"] = played["captured"]
        kou_di = bool(played.get("kou_di"))
        if kou_di:
            hand["kou_di"] = True
        if kou_di:
            for name in KOU_COUNTS:
                if data.get(name) is not None:
                    hand[name] = data[name]
            if data.get("jack_kou"):
                hand["jack_kou"] = True
        if data.get("kou"):
            hand["kou"] = data["kou"]
        bottom = played.get("bottom_points")
        if bottom is not None and (bottom > 0 or kou_di):
            hand["bottom_points"] = bottom
        if kou_di and "bottom_multiplier" in fields:
            multiplier = self._multiplier(data)
            if multiplier is not None:
                hand["bottom_multiplier"] = multiplier
        jokers = {size: data.get(f"bottom_jokers_{size}") or 0 for size in ("big", "small")}
        jokers = {size: count for size, count in jokers.items() if count}
        if jokers:
            hand["bottom_jokers"] = jokers
        if data.get("gan_guo"):
            hand["gan_guo"] = True
        hand.update(self._penalties(data, played=not surrender))
        return hand

    def _multiplier(self, data: dict[str, Any]) -> int | None:
        """The chosen shape's multiplier (the `kou_shapes` option), else the number typed."""
        shape = data.get("kou_shape")
        by_shape = {s.value: s.multiplier for s in self.entry.kou_shapes}
        if shape in by_shape:
            return by_shape[shape]
        return data.get("bottom_multiplier")

    def _penalties(self, data: dict[str, Any], played: bool = False) -> dict[str, Any]:
        if "penalties" not in self.groups:
            return {}
        penalties = []
        for seat in range(self.entry.players):
            for kind in self.penalty_kinds:
                if kind == "shuai" and not played:
                    continue  # a hand not played has no throw
                penalties.extend({"seat": seat, "kind": kind} for _ in range(data.get(f"{kind}_{seat}") or 0))
        return {"penalties": penalties} if penalties else {}

    # --- display ---

    def group_field(self, group: str) -> str:
        """The form field that carries a group's error."""
        return GROUP_FIELDS.get(group, (group,))[0]

    def field_for_error(self, field: str) -> str | None:
        """The form field a rules or ledger error's field (`bid`, `bottom_jokers.big`, `penalties[0].kind`) names."""
        root = field.split(".")[0].split("[")[0]
        if root == "bottom_jokers":
            size = field.split(".")[1] if "." in field else "big"
            name = f"bottom_jokers_{size}"
            return name if name in self.fields else None
        if root == "penalties":
            return next((name for name in self.fields if name.startswith(("shuai_", "misdeal_"))), None)
        if root == "hand":
            return None
        name = self.group_field(root)
        return name if name in self.fields else None

    def group_errors(self, group: str) -> list[str]:
        names = GROUP_FIELDS.get(group, (group,))
        if group == "penalties":
            names = tuple(name for name in self.fields if name.startswith(("shuai_", "misdeal_")))
        return [str(message) for name in names for message in self.errors.get(name, [])]

    def group_label(self, group: str) -> str:
        """The engine's label of a hand field, in the page's language."""
        field = self.described.get(group)
        if field is not None:
            return field.label
        return str(_("Reason for the correction")) if group == "reason" else group

    def buttons(self, name: str) -> list[ButtonOption]:
        """The choices of a field, drawn as buttons; the bid buttons say where the rules allow them."""
        field = self.fields[name]
        current = self[name].value()
        current = "" if current is None else str(current)
        out = []
        bids = {str(b.bid): b for b in self.entry.bids}
        shapes = {s.value: s for s in self.entry.kou_shapes}
        for value, label in field.choices:  # type: ignore[attr-defined]
            value = str(value)
            attrs: dict[str, str] = {}
            sub = ""
            if name == "bid" and value in bids:
                attrs["data-places"] = " ".join(map(str, bids[value].places))
                attrs["data-forced-places"] = " ".join(map(str, bids[value].forced_places))
            if name == "kou_shape" and value in shapes:
                attrs["data-multiplier"] = str(shapes[value].multiplier)
                sub = f"×{shapes[value].multiplier}"
            if name in ("dealer", "declarer", "partner") and value.isdigit():
                sub = str(_("seat %(seat)s") % {"seat": int(value) + 1})  # counted from 1, like the players do
            out.append(ButtonOption(value=value, label=str(label), checked=value == current, attrs=attrs, sub=sub))
        return out

    def layout(self) -> list[FieldGroup]:
        """The groups of inputs in play order, each with what its template needs."""
        out = []
        for group in self.groups:
            names = GROUP_FIELDS.get(group, (group,))
            if group == "penalties":
                names = tuple(name for name in self.fields if name.startswith(("shuai_", "misdeal_")))
            for name in names:  # an input refused points at the message beside it (its aria-describedby)
                if self.errors.get(name) and isinstance(self.fields.get(name), RuledNumberField):
                    self.fields[name].widget.attrs["aria-invalid"] = "true"
            item = FieldGroup(
                name=group,
                label=self.group_label(group),
                errors=self.group_errors(group),
                fields=names,
                help=self.described[group].help,
            )
            if group == "declarer" and self.entry.declarer_locked:
                item.kind = "locked"
                item.value = self.entry.declarer
                item.text = self.players[self.entry.declarer].name
            elif group in ("dealer", "declarer", "partner", "bid", "contract", "kou", "tribute"):
                item.kind = "buttons"
                item.options = self.buttons(group)
            elif group in SWITCHES:
                item.kind = "toggle"
                item.bound = self[group]
            elif group in ("captured", "bottom_points", "bombs", *KOU_COUNTS):
                item.kind = "number"
                item.bound = self[group]
            elif group == "bottom_multiplier":
                item.kind = "shape"
                item.options = self.buttons("kou_shape")
                item.bound = self["bottom_multiplier"]
            elif group == "bottom_jokers":
                item.kind = "jokers"
                item.rows = [
                    (choice.label, f"bottom_jokers_{choice.value}", self.buttons(f"bottom_jokers_{choice.value}"))
                    for choice in self.described[group].choices
                ]
            elif group == "penalties":
                item.kind = "penalties"
                item.rows = self.penalty_rows()
                item.options = [
                    ButtonOption(value=c.value, label=c.label, checked=False, attrs={})
                    for c in self.described[group].choices
                ]
            out.append(item)
        return out

    @property
    def redeal_options(self) -> list[ButtonOption]:
        return self.buttons("redeal")

    def penalty_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Per player: an input per kind of penalty the variant records."""
        return [(p.name, [self[f"{kind}_{s}"] for kind in self.penalty_kinds]) for s, p in enumerate(self.players)]


class HandVoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
