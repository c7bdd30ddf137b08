"""A user's personal API tokens (the tokens page and `GET tokens/`)."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import ApiToken
from .sessions import User


def user_api_tokens(*, user: User) -> QuerySet[ApiToken]:
    """The user's personal API tokens, newest first, revoked ones too."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
