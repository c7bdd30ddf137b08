"""The what-if page: a preset in one tap, options typed in, refusals beside the option; nothing is written."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from settlement.models import Role
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands, written

pytestmark = pytest.mark.django_db


def _url(session) -> str:
    return reverse("session_what_if", kwargs={"slug": session.club.slug, "session_id": session.pk})


@pytest.fixture
def example(owner_client):
    """The rules' example recorded under 本溪 300 (worked under 205: 315 : 230, two 盘 won each side)."""
    client, club, owner = owner_client
    session = make_session(club, owner, options={"target": 300})
    record_hands(session, owner, BENXI_EXAMPLE)
    return client, session


def _cells(html: str) -> list[str]:
    body = html.split('class="seats"', 1)[1].split("</table>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body, re.S)]


def test_the_session_page_links_the_what_if(example):
    client, session = example

    html = client.get(reverse("session_detail", args=[session.club.slug, session.pk])).content.decode()

    assert f'href="{_url(session)}"' in html


def test_a_preset_in_one_tap_shows_both_totals_side_by_side(example):
    client, session = example
    before = written()

    html = client.get(_url(session) + "?preset=本溪 205", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert "换个规则算" in html
    cells = _cells(html)
    # 甲's row: the other total (315, rules/baifen.md's example under 205) beside the one played under 300.
    row = cells[cells.index("甲") : cells.index("甲") + 5]
    assert row[2] == "+315"
    assert row[4].endswith("→ 1")  # 甲·丙 win 盘 2 under 205
    differs = _cells(html.replace('class="what-if-options"', 'class="seats"').split('class="seats"', 1)[1])
    assert differs[3:6] == ["盘分", "300", "205"]  # after the header: the one option that differs
    assert written() == before


def test_options_typed_in_are_settled_and_the_rest_stay_the_sessions(example):
    client, session = example
    page = client.get(_url(session), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="option_target"' in page and 'value="300"' in page  # the session's own options to start from

    query = {"go": "1", **_form_values(page), "option_target": "205"}
    html = client.get(_url(session), query, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    cells = _cells(html)
    assert cells[cells.index("乙") + 2] == "+230"


def _form_values(html: str) -> dict[str, str | list[str]]:
    """What a browser would send from the options form as it is rendered (inputs, checked boxes, selects)."""
    form = html.split('class="what-if-form"', 1)[1]
    values: dict[str, list[str]] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if not name or (kind and kind.group(1) in ("checkbox", "radio") and "checked" not in tag):
            continue
        default = "on" if kind and kind.group(1) in ("checkbox", "radio") else ""
        values.setdefault(name.group(1), []).append(value.group(1) if value else default)
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options)
        values.setdefault(name, []).append(chosen.group(1) if chosen else "")
    return {k: v if len(v) > 1 else v[0] for k, v in values.items()}


@pytest.mark.parametrize(
    ("lang", "words"),
    [("zh-hans", "翻倍线只能填 5 到 100 之间 5 的倍数"), ("en", "Doubling line: a multiple of 5 from 5 to 100")],
)
def test_a_refused_option_is_named_beside_it_in_the_readers_language(example, lang, words):
    client, session = example
    page = client.get(_url(session)).content.decode()

    query = {**_form_values(page), "go": "1", "option_fanbei": "7"}  # 翻倍线 takes multiples of 5
    html = client.get(_url(session), query, HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    fieldset = html.split('class="option kind-integer has-error"', 1)[1].split("</fieldset>", 1)[0]
    assert words in fieldset
    assert 'class="seats"' not in html


def test_a_viewer_may_look_and_another_club_may_not(example):
    client, session = example
    viewer = make_member(session.club, Role.VIEWER)
    client.force_login(viewer)
    assert client.get(_url(session)).status_code == 200

    client.force_login(make_member(make_club()))
    assert client.get(_url(session)).status_code == 404


def test_a_list_of_levels_is_written_out_not_printed_as_code(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="shengji")

    html = client.get(_url(session) + "?preset=上海80分", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    differs = html.split('class="what-if-options"', 1)[1].split("</table>", 1)[0]
    assert "2、5、10、K" in differs
    assert "[" not in differs
