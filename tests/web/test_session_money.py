"""The money a unit is worth (`unit_value`) on the new-session form, beside the players (issue 31, item 17)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from settlement.models import Session
from tests.factories import NAMES

from .test_entry_forms import page_defaults

pytestmark = pytest.mark.django_db


def _url(club, variant):
    return reverse("session_new", kwargs={"slug": club.slug}) + f"?variant={variant}"


def _filled(client, url):
    data = page_defaults(client.get(url).context["form"])
    return data | {f"seat_{seat}_name": name for seat, name in enumerate(NAMES)}


@pytest.mark.parametrize(("lang", "legend", "label"), [("zh-hans", "钱", "每档金额"), ("en", "Money", "Money per 档")])
def test_the_money_per_unit_is_on_the_form_not_under_the_options(owner_client, lang, legend, label):
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    html = client.get(_url(club, "biaofen")).content.decode()
    money = html.index('<fieldset class="money')
    assert money < html.index('<details class="advanced"')
    assert f"<legend>{legend}</legend>" in html[money:] and label in html[money : html.index("</fieldset>", money)]
    assert html.count('name="option_unit_value"') == 1


def test_a_variant_without_money_has_no_money_field(owner_client):
    client, club, _ = owner_client
    assert 'class="money' not in client.get(_url(club, "shengji")).content.decode()


def test_the_money_per_unit_opens_the_session_with_it(owner_client):
    client, club, _ = owner_client
    url = _url(club, "biaofen")
    assert client.post(url, _filled(client, url) | {"option_unit_value": "5"}).status_code == 302
    assert Session.objects.get().options["unit_value"] == 5


@pytest.mark.parametrize(
    ("lang", "message"), [("zh-hans", "只能填 1 到 1000000 的整数"), ("en", "a whole number from 1 to 1000000")]
)
def test_a_money_of_0_is_refused_beside_the_field(owner_client, lang, message):
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    url = _url(club, "biaofen")
    html = client.post(url, _filled(client, url) | {"option_unit_value": "0"}).content.decode()
    assert not Session.objects.exists()
    field = re.search(r'<input[^>]*name="option_unit_value"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and 'aria-describedby="option-unit_value-error"' in field
    error = re.search(r'<p class="error" id="option-unit_value-error">([^<]*)</p>', html).group(1)
    assert message in error
