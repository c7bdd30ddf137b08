"""`Idempotency-Key`: every POST and PATCH of the API is safe to retry, with one semantics.

The same key (per user) with the same request (method, address, query and body, compared as parsed JSON:
key order and spacing do not count) answers as the first call did: its status, body and `Location`, with
`Idempotent-Replayed: true`. Another request under the key is a 409 `client_key.reused`. A key is up to
`KEY_MAX` characters (longer, or with a control character: a 400 naming the header) and is kept at least
`IdempotentAnswer.KEEP` (a day). Only a 2xx answer is kept: a refusal wrote nothing, so a retry runs again.

The view runs in one transaction with the stored answer: the key's row is inserted first (a concurrent retry
of the same key waits on its unique index, then reads the answer), the answer written after the view, so a
crash cannot keep a write without its answer. `api_endpoint` applies this to every POST and PATCH view;
`service_keyed` views (a hand, an import) also hand the key to their service, whose own check lets a retry
differing only in spelled-out defaults replay and names the hand or session in a 409.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from settlement.ledger import LedgerError
from settlement.ledger.values import text_bad
from settlement.models import IdempotentAnswer

from .parsers import nul_refuse

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_MAX = 255
WRITES = frozenset({"POST", "PATCH"})


def key_header(request: Request) -> str:
    """The request's `Idempotency-Key` ("" for none), refused when over `KEY_MAX` or not clean text."""
    key = request.headers.get(IDEMPOTENCY_HEADER, "")
    if "\x00" in key:
        nul_refuse(IDEMPOTENCY_HEADER)
    if len(key) > KEY_MAX or text_bad(key):
        raise LedgerError("client_key.invalid", field=IDEMPOTENCY_HEADER, subject="header")
    return key.strip()


def request_digest(request: Request, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """A hash of what makes two requests the same: the method, the address, the query and the parsed body."""
    query = sorted((key, value) for key, values in request.query_params.lists() for value in values)
    data = request.data if isinstance(request.data, dict | list) else None
    text = json.dumps([request.method, request.path, query, data], sort_keys=True, ensure_ascii=False, cls=JSONEncoder)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _claim(user: Any, key: str, digest: str) -> tuple[IdempotentAnswer, bool]:
    """(the key's row, whether it was there already); a row older than `KEEP` is cleared first."""
    IdempotentAnswer.objects.filter(user=user, created_at__lt=timezone.now() - IdempotentAnswer.KEEP).delete()
    try:
        with transaction.atomic():
            return IdempotentAnswer.objects.create(user=user, key=key, digest=digest), False
    except IntegrityError:  # there already, or a concurrent first call that has now committed
        return IdempotentAnswer.objects.get(user=user, key=key), True


def _replay(answer: IdempotentAnswer) -> Response:
    headers = {REPLAYED_HEADER: "true"}
    if answer.location:
        headers["Location"] = answer.location
    data = json.loads(answer.body) if answer.body else None
    return Response(data, status=answer.status, headers=headers)


def idempotent(func: Callable[..., Any], *, service_keyed: bool = False) -> Callable[..., Any]:
    """`func` (an API view function) with `Idempotency-Key` honoured on its POST and PATCH calls."""

    @functools.wraps(func)
    def view(request: Request, *args: Any, **kwargs: Any) -> Any:
        if request.method not in WRITES:
            return func(request, *args, **kwargs)
        key = key_header(request)
        if not key:
            return func(request, *args, **kwargs)
        digest = request_digest(request, args, kwargs)
        with transaction.atomic():
            answer, existing = _claim(request.user, key, digest)
            if existing:
                if answer.digest == digest and answer.status:
                    return _replay(answer)
                if service_keyed:  # the service tells a retry from another request (and says which hand)
                    return func(request, *args, **kwargs)
                raise LedgerError("client_key.reused", field=IDEMPOTENCY_HEADER, subject="request")
            response = func(request, *args, **kwargs)
            if 200 <= response.status_code < 300 and not response.has_header(REPLAYED_HEADER):
                answer.status = response.status_code
                answer.body = (
                    "" if response.data is None else json.dumps(response.data, ensure_ascii=False, cls=JSONEncoder)
                )
                answer.location = response.get("Location", "")
                answer.save(update_fields=["status", "body", "location"])
            else:
                answer.delete()
            return response

    return view
