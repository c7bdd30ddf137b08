"""Ops tests render translated pages and API errors: reuse the web tests' catalogue set-up."""

from tests.web.conftest import owner_client  # noqa: F401 - compiles the catalogue and shares the fixture
