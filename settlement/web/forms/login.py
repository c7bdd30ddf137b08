"""The login forms (the site's and the admin's): a username longer than any account's is bad input, a 400.

No account can have it, and django-axes would try to record the failed login under it in a column of 255
characters (a 500 on PostgreSQL). Browsers never send one (the field's maxlength); a script gets the site's
400 page before any password is checked or any attempt recorded.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import BadRequest


class _UsernameBounded:
    fields: Any
    cleaned_data: Any

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        limit = self.fields["username"].max_length  # the account model's (AuthenticationForm sets it)
        if limit is not None and len(username) > limit:
            raise BadRequest(f"username over {limit} characters")
        return username


class LoginForm(_UsernameBounded, AuthenticationForm):
    pass


class AdminLoginForm(_UsernameBounded, AdminAuthenticationForm):
    pass
