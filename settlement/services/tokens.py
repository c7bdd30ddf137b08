"""Personal API tokens: create one (its secret shown this once, only its hash stored) and revoke one.

A secret is `bf_` and 32 random bytes in URL-safe base64 without padding (43 characters): 256 bits.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..ledger import LedgerError
from ..ledger.values import name_clean
from ..models import ApiToken
from ..rules.base import RulesError
from .common import User

API_TOKEN_PREFIX = "bf_"
API_TOKEN_NAME_MAX = 60


def api_token_hash(secret: str) -> str:
    """What is stored of a token's secret: its SHA-256, hex (the secret is random, so no salt is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(*, user: User, name: Any, expires_at: datetime.datetime | None = None) -> tuple[ApiToken, str]:
    """A new named token for `user` and its secret, which is returned this once and never stored."""
    if not isinstance(name, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="name"))
    name = name_clean(name, field="name", limit=API_TOKEN_NAME_MAX)
    if not name:
        raise LedgerError("token.name_required", field="name")
    if expires_at is not None and expires_at <= timezone.now():
        raise LedgerError("token.expired", field="expires")
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user, name=name, key_hash=api_token_hash(secret), prefix=secret[:10], expires_at=expires_at
        )
    return token, secret


def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of `user`'s tokens; another user's token is not found. Revoking twice changes nothing."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if token is None:
            raise LedgerError("token.not_found", field="id")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token
