"""API authentication: a personal token as `Authorization: Bearer …` or `Token …`, or the browser session.

Personal tokens (`ApiToken`) are looked up by the SHA-256 of the secret sent; an expired or revoked one
is refused. The old DRF authtoken (`Token …`, one per user, made by `drf_create_token`) keeps working
until it is deleted. Either keyword takes either kind of token. The schema describes the Bearer
header (`ApiTokenScheme`), so generated clients send it.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from settlement.models import ApiToken
from settlement.services import API_TOKEN_PREFIX, api_token_hash

from .throttles import BadTokenThrottle

KEYWORDS = (b"bearer", b"token")
# How often `last_used_at` is written at most: not a write on every request.
LAST_USED_EVERY = 60


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        throttle = BadTokenThrottle()
        throttle.refuse_if_over(request)
        try:
            return self._token_user(parts)
        except AuthenticationFailed:
            throttle.refusal_count(request)
            raise

    def _token_user(self, parts: list[bytes]) -> tuple[Any, Any]:
        if len(parts) != 2:
            raise AuthenticationFailed(_("Invalid token header: give the token after the word, with no spaces."))
        try:
            secret = parts[1].decode()
        except UnicodeError:
            raise AuthenticationFailed(_("Invalid token.")) from None
        if not secret.startswith(API_TOKEN_PREFIX):  # the old authtoken: 40 hex digits, stored as they are
            legacy = Token.objects.select_related("user").filter(key=secret).first()
            if legacy is None or not legacy.user.is_active:
                raise AuthenticationFailed(_("Invalid token."))
            return legacy.user, legacy
        now = timezone.now()
        token = ApiToken.objects.select_related("user").filter(key_hash=api_token_hash(secret)).first()
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.is_active(now) or not token.user.is_active:
            raise AuthenticationFailed(_("This token has expired or was revoked."))
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > LAST_USED_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """One HTTP bearer scheme: what generated clients send. `Token …` is the same and is not a second scheme
    (OpenAPI would read two schemes of one class as both required)."""

    target_class = "settlement.api.authentication.ApiTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "a personal token (the site's API tokens page, or `POST tokens/`): `Authorization: Bearer bf_…`. "
                "`Authorization: Token …` is accepted too, and so is the old token from `drf_create_token`."
            ),
        }
