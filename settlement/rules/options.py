"""Options as data: one frozen dataclass per variant, parsed from and dumped to JSON.

Each option field carries its one-line doc, a JSON parser and a dumper in the
field's metadata, so resolving a document's overrides is generic:
`options_resolve(defaults, {"target": 300})`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from .base import RulesError

T = TypeVar("T")
# No option needs more; a cap keeps every figure the ledger stores within a 64-bit integer.
OPTION_LIMIT = 1_000_000
Parser = Callable[[Any, str], Any]


class OptionKind(StrEnum):
    """What kind of value an option takes: how a form draws it and an API client sends it."""

    INTEGER = "integer"  # minimum / maximum / step
    SWITCH = "switch"  # true / false
    CHOICE = "choice"  # one of `choices`
    BID_TABLE = "bid_table"  # bid (a multiple of 5) → score, any subset of bids
    KEYED_INTEGERS = "keyed_integers"  # an integer per key of `keys` (all of them, or any when not `all_required`)
    INTEGER_LIST = "integer_list"  # a list of integers ≥ minimum
    LEVEL_TABLE = "level_table"  # 红星五: {"up": [[lowest s, levels] …], "switch": s, "step": s}
    SHAPE_TABLE = "shape_table"  # 红星五: last-trick shape → multiplier (a power of two)
    CHOICE_LIST = "choice_list"  # several of `choices`, each at most once (a ladder of levels, levels marked on it)


@dataclass(frozen=True, kw_only=True)
class OptionType:
    """An option's parser and the description of what it accepts (forms and the API are built from it)."""

    kind: OptionKind
    parse: Parser
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1
    choices: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    all_required: bool = True
    nullable: bool = False  # null is allowed too: the option is then derived from the others (its help says how)

    def __call__(self, value: Any, field: str) -> Any:
        return self.parse(value, field)


def option(default: Any, doc: str, parse: OptionType, dump: Callable[[Any], Any] | None = None) -> Any:
    """A dataclass field for an option. Mutable defaults are frozen mappings/tuples.

    `parse` says what the option accepts (`OptionType`); its label and help in
    both languages are the message table's `option.<prefix>.<name>` entries.
    """
    return dataclasses.field(default=default, metadata={"doc": doc, "parse": parse, "dump": dump or _plain})


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _bad(field: str, expected: str) -> RulesError:
    return RulesError("option.invalid", field=field, expected=expected)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_int(
    *, low: int = -OPTION_LIMIT, high: int = OPTION_LIMIT, step: int = 1, nullable: bool = False
) -> OptionType:
    """An integer from `low` to `high`, a multiple of `step`; with `nullable`, null too."""

    def parse(value: Any, field: str) -> int | None:
        if value is None and nullable:
            return None
        if not is_int(value) or not low <= value <= high or value % step:
            expected = f"integer {low}–{high}" + (f", multiple of {step}" if step != 1 else "")
            raise _bad(field, ("null or " if nullable else "") + expected)
        return int(value)

    return OptionType(kind=OptionKind.INTEGER, parse=parse, minimum=low, maximum=high, step=step, nullable=nullable)


def _parse_bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(field, "true/false")
    return value


parse_bool = OptionType(kind=OptionKind.SWITCH, parse=_parse_bool)


def parse_enum(enum: type[StrEnum]) -> OptionType:
    def parse(value: Any, field: str) -> StrEnum:
        try:
            return enum(value)
        except (ValueError, TypeError):
            raise _bad(field, " / ".join(repr(str(e)) for e in enum)) from None

    return OptionType(kind=OptionKind.CHOICE, parse=parse, choices=tuple(str(e) for e in enum))


def parse_choice(choices: Iterable[str]) -> OptionType:
    allowed = tuple(choices)

    def parse(value: Any, field: str) -> str:
        if value not in allowed:
            raise _bad(field, " / ".join(repr(c) for c in allowed))
        return value

    return OptionType(kind=OptionKind.CHOICE, parse=parse, choices=allowed)


def parse_choice_list(choices: Iterable[str], *, expected: str = "") -> OptionType:
    """A list of some of `choices`, each at most once, kept in the order given (the options' `check` says
    whether the order matters, as a ladder's does)."""
    allowed = tuple(choices)
    wanted = expected or "a list of " + ", ".join(allowed)

    def parse(value: Any, field: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value):
            raise _bad(field, wanted)
        if len(set(value)) != len(value):
            raise _bad(field, wanted + ", each once")
        return tuple(value)

    return OptionType(kind=OptionKind.CHOICE_LIST, parse=parse, choices=allowed)


def parse_bid_table(*, value_low: int | None = None, value_high: int | None = None) -> OptionType:
    """`{"90": 200, "100": 300}`: bid (a multiple of 5) → score. Dumped with string keys."""

    def parse(value: Any, field: str) -> Mapping[int, int]:
        if not isinstance(value, dict):
            raise _bad(field, 'object from bid to score, e.g. {"100": 300}')
        table: dict[int, int] = {}
        for key, score in value.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) % 5 == 0):
                raise _bad(f"{field}.{key}", "a bid, a multiple of 5")
            if not is_int(score) or abs(score) > OPTION_LIMIT:
                raise _bad(f"{field}.{key}", f"integer between −{OPTION_LIMIT} and {OPTION_LIMIT}")
            if (value_low is not None and score < value_low) or (value_high is not None and score > value_high):
                raise _bad(f"{field}.{key}", f"integer between {value_low} and {value_high}")
            table[int(key)] = score
        return frozen_map(dict(sorted(table.items())))

    low = value_low if value_low is not None else -OPTION_LIMIT
    high = value_high if value_high is not None else OPTION_LIMIT
    return OptionType(kind=OptionKind.BID_TABLE, parse=parse, minimum=low, maximum=high, step=5)


def parse_keyed_ints(
    keys: Iterable[str], *, all_required: bool, low: int = -OPTION_LIMIT, high: int = OPTION_LIMIT
) -> OptionType:
    """An object with some or all of a fixed set of keys, each an integer."""
    allowed = tuple(keys)
    number = parse_int(low=low, high=high)

    def parse(value: Any, field: str) -> Mapping[str, int]:
        if not isinstance(value, dict):
            raise _bad(field, "object with keys " + ", ".join(allowed))
        unknown = [k for k in value if k not in allowed]
        if unknown:
            raise _bad(f"{field}.{unknown[0]}", "one of " + ", ".join(allowed))
        missing = [k for k in allowed if k not in value]
        if all_required and missing:
            raise _bad(f"{field}.{missing[0]}", "present")
        return frozen_map({k: number(value[k], f"{field}.{k}") for k in allowed if k in value})

    return OptionType(
        kind=OptionKind.KEYED_INTEGERS, parse=parse, minimum=low, maximum=high, keys=allowed, all_required=all_required
    )


def parse_int_list(*, low: int = 1, min_len: int = 1) -> OptionType:
    number = parse_int(low=low)

    def parse(value: Any, field: str) -> tuple[int, ...]:
        if not isinstance(value, list) or len(value) < min_len:
            raise _bad(field, f"list of at least {min_len} integers ≥ {low}")
        return tuple(number(v, f"{field}[{i}]") for i, v in enumerate(value))

    return OptionType(kind=OptionKind.INTEGER_LIST, parse=parse, minimum=low)


class frozen_map(dict[Any, Any]):  # noqa: N801 - reads as a constructor, like frozenset
    """A dict that refuses mutation, so option defaults can be shared safely."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("options are frozen; use dataclasses.replace")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=repr)))


def options_resolve(defaults: T, overrides: Any) -> T:
    """Apply a document's `options` object to a variant's defaults; each override replaces its whole value."""
    if overrides is None:
        return defaults
    if not isinstance(overrides, dict):
        raise RulesError("document.not_object", field="options")
    fields = {f.name: f for f in dataclasses.fields(defaults)}  # type: ignore[arg-type]
    changes = {}
    for name, raw in overrides.items():
        if name not in fields:
            raise RulesError("option.unknown", field=f"options.{name}", name=name)
        changes[name] = fields[name].metadata["parse"](raw, f"options.{name}")
    resolved = dataclasses.replace(defaults, **changes)  # type: ignore[type-var]
    # An option whose default follows another (红星五 start_level: the ladder's first level) unless it is given.
    derive = getattr(resolved, "derive", None)
    if derive is not None:
        resolved = derive(given=frozenset(changes))
    check = getattr(resolved, "check", None)
    if check is not None:
        check()
    return resolved


def options_dump(options: Any) -> dict[str, Any]:
    """The resolved options as JSON, every option present."""
    return {f.name: f.metadata["dump"](getattr(options, f.name)) for f in dataclasses.fields(options)}


def options_types(options_type: type) -> list[tuple[str, OptionType]]:
    """(name, what it accepts) of every option, in declaration order."""
    return [(f.name, f.metadata["parse"]) for f in dataclasses.fields(options_type)]
