"""The import's fast path: a whole session's log and derived rows inserted with `executemany`, no model instances.

`session_import` plays the document once; building ~7 model instances a hand for `bulk_create` was most of its
time. Here each row is a tuple of column values (`derived.derived_values`), adapted for the database once per
column kind (JSON, date-time) and inserted in batches through the connection's cursor: the same rows as
`bulk_create` would write, in the caller's transaction. Inserts only, so the hand log's append-only triggers
(migration 0004) pass them.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.db import connections, models

from ..models import GameRow, Hand, HandRevision, HandState, Player, Session, SettlementRow
from .derived import GAME_COLUMNS, SETTLEMENT_COLUMNS, STATE_COLUMNS, derived_values
from .log import LogReplay


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block (reference counting still frees what it can).

    An import allocates tens of thousands of small dicts and tuples that live until it ends: each burst set
    off a collection of the whole heap, ~40 % of an import's CPU time (bench/ledger.py). A session is
    bounded (`BAIFEN_MAX_HANDS`), so is what waits for the collector; it runs as usual after the block.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]], *, using: str = "default"
) -> None:
    """INSERT `rows` (tuples of the values of `columns`, attnames such as `hand_id`) into `model`'s table.

    Every other concrete field but the automatic primary key gets its default, as a model instance would; a
    JSON value is adapted as Django adapts it (text on SQLite, `Jsonb` on PostgreSQL), a date-time likewise.
    """
    connection = connections[using]
    sql, adapted, missing = _insert_plan(model, tuple(columns), connection)
    defaults = tuple(adapt(field.get_default()) for field, adapt in missing)
    if adapted:
        batch = []
        for row in rows:
            values = list(row)
            for i, adapt in adapted:
                values[i] = adapt(values[i])
            batch.append((*values, *defaults))
    else:
        batch = [(*row, *defaults) for row in rows]
    if batch:  # one statement whatever the size (a session holds at most BAIFEN_MAX_HANDS hands)
        with connection.cursor() as cursor:
            cursor.executemany(sql, batch)


_Plan = tuple[str, list[tuple[int, Callable[[Any], Any]]], list[tuple[models.Field, Callable[[Any], Any]]]]


def _insert_plan(model: type[models.Model], columns: tuple[str, ...], connection: Any) -> _Plan:
    """The INSERT of `columns` and the rest of `model`'s fields (their defaults), with how each value is adapted:
    worked out once a connection (its adapters are that connection's), as every hand inserts four kinds of rows
    and building the statement cost more than sending it."""
    plans = connection.__dict__.setdefault("_baifen_insert_plans", {})
    plan = plans.get((model, columns))
    if plan is not None:
        return plan
    fields = {field.attname: field for field in model._meta.concrete_fields}
    unknown = set(columns) - set(fields)
    if unknown:
        raise ValueError(f"{model.__name__} has no column {sorted(unknown)}")
    missing = [
        field for name, field in fields.items() if name not in columns and not isinstance(field, models.AutoField)
    ]
    adapters = [_adapter(fields[name], connection) for name in columns]
    adapted = [(i, adapt) for i, adapt in enumerate(adapters) if adapt is not _same]
    quote = connection.ops.quote_name
    names = [fields[name].column for name in columns] + [field.column for field in missing]
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(name) for name in names)}) "
        f"VALUES ({', '.join(['%s'] * len(names))})"
    )
    plan = plans[(model, columns)] = (sql, adapted, [(field, _adapter(field, connection)) for field in missing])
    return plan


def _same(value: Any) -> Any:
    return value


def _adapter(field: models.Field, connection: Any) -> Callable[[Any], Any]:
    """How a Python value of `field` goes to the database: JSON and date-times as Django sends them, else as is."""
    ops = connection.ops
    if isinstance(field, models.JSONField):
        encoder = field.encoder
        null = field.null
        return lambda value: None if value is None and null else ops.adapt_json_value(value, encoder)
    if isinstance(field, models.DateTimeField):
        last: list[Any] = [None, None]  # the import stamps every row with one time: adapt it once

        def adapt(value: Any) -> Any:
            if value is not last[0]:
                last[:] = [value, ops.adapt_datetimefield_value(value) if isinstance(value, datetime) else value]
            return last[1]

        return adapt
    if isinstance(field, models.DateField | models.TimeField | models.DecimalField | models.UUIDField):
        return lambda value: field.get_db_prep_save(value, connection)
    return _same


def session_log_insert(
    *,
    session: Session,
    players: Sequence[Player],
    inputs: Sequence[Any],
    replay: LogReplay,
    author_id: int,
    now: datetime,
) -> None:
    """A new session's whole log (hands 1 … n, one revision each, recorded `now`) and its derived rows.

    Five inserts and one read of the new hands' ids; the rows are exactly those `bulk_create` of the hands,
    the revisions and `derived.derived_rows` would write.
    """
    numbers = range(1, len(inputs) + 1)
    rows_insert(Hand, ("session_id", "number", "created_at"), ((session.pk, n, now) for n in numbers))
    hand_ids = dict(Hand.objects.filter(session=session).values_list("number", "id"))
    rows_insert(
        HandRevision,
        ("hand_id", "number", "input", "author_id", "created_at"),
        ((hand_ids[n], 1, hand_input, author_id, now) for n, hand_input in zip(numbers, inputs, strict=True)),
    )
    derived = derived_values(session=session, players=players, replay=replay, hand_ids=hand_ids, from_number=1)
    rows_insert(SettlementRow, SETTLEMENT_COLUMNS, derived.settlement_rows)
    rows_insert(GameRow, GAME_COLUMNS, derived.game_rows)
    rows_insert(HandState, STATE_COLUMNS, derived.hand_states)
