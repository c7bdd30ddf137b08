"""A number that is not allowed is named beside its field, with what the field allows, in the reader's language.

The hand entry's numbers (抓分, 底分, bombs, 抠底 counts, the multiplier, penalties) and the new-session form's
numeric options, posted without script: the page comes back with the message beside the field, the input
pointing at it (aria-describedby) and marked (aria-invalid). The ranges below are worked out from the rules
(docs: one deck has 100 points, 标分 two decks, 红星五 / 打滚子 three, 六人升级 three; 标分's declarer holds
at most 3 bombs of 8 with 25 cards; 六人升级 deals 27 cards each), not read from the code.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.conf import settings
from django.urls import reverse

from settlement.models import Session
from tests.factories import NAMES, SIX_NAMES, make_session
from tests.web.test_entry_forms import page_defaults

pytestmark = pytest.mark.django_db

TOO_LONG = "12345678901234567890"  # twenty digits

CAPTURED_100 = (
    "captured",
    "captured",
    "-5",
    "抓分只能填 0 到 100 之间 5 的倍数",
    "Points captured: a multiple of 5 from 0 to 100",
)
CAPTURED_200 = (
    "captured",
    "captured",
    "205",
    "抓分只能填 0 到 200 之间 5 的倍数",
    "Points captured: a multiple of 5 from 0 to 200",
)
CAPTURED_300 = (
    "captured",
    "captured",
    "-5",
    "抓分只能填 0 到 300 之间 5 的倍数",
    "Points captured: a multiple of 5 from 0 to 300",
)
BOTTOM_200 = (
    "bottom_points",
    "bottom_points",
    "-5",
    "底分只能填 0 到 200 之间 5 的倍数",
    "Points in the bottom: a multiple of 5 from 0 to 200",
)
BOTTOM_300 = (
    "bottom_points",
    "bottom_points",
    "305",
    "底分只能填 0 到 300 之间 5 的倍数",
    "Points in the bottom: a multiple of 5 from 0 to 300",
)
SHUAI = (
    "shuai_0",
    "penalties",
    "10",
    "甲 · 甩牌失败只能填 0 到 9 的整数",
    "甲 · failed throw: a whole number from 0 to 9",
)

# (variant, players, form field, its group, a figure out of range, the message in zh-Hans, in English)
FIELDS = [
    *(
        (variant, 4, *CAPTURED_100)
        for variant in ("baifen.benxi", "baifen.fushun", "baifen.shenyang", "baifen.classic")
    ),
    ("erguai", 4, *CAPTURED_100),
    (
        "biaofen",
        4,
        "bombs",
        "bombs",
        "4",
        "庄家打出的炸弹只能填 0 到 3 的整数",
        "Bombs played by the declarer: a whole number from 0 to 3",
    ),
    ("biaofen", 4, *CAPTURED_200),
    ("biaofen", 4, *BOTTOM_200),
    ("biaofen", 4, *SHUAI),
    (
        "biaofen",
        4,
        "misdeal_0",
        "penalties",
        "-1",
        "甲 · 抓牌过多只能填 0 到 9 的整数",
        "甲 · misdeal: a whole number from 0 to 9",
    ),
    ("hongxingwu", 4, *CAPTURED_300),
    ("hongxingwu", 4, *BOTTOM_300),
    (
        "hongxingwu",
        4,
        "bottom_multiplier",
        "bottom_multiplier",
        "1",
        "抠底牌型只能填不小于 2 的整数",
        "Shape of the last trick: a whole number of at least 2",
    ),
    ("gunzi", 4, *CAPTURED_300),
    ("gunzi", 4, *BOTTOM_300),
    ("shengji", 6, *CAPTURED_300),
    ("shengji", 6, *BOTTOM_300),
    (
        "shengji",
        6,
        "kou_cards",
        "kou_cards",
        "28",
        "最后一墩每人张数只能填 1 到 27 的整数",
        "Cards each in the last trick: a whole number from 1 to 27",
    ),
    ("shengji", 6, *SHUAI),
]
CASES = [
    pytest.param(
        variant, players, name, group, typed, zh if lang == "zh-hans" else en, lang, id=f"{variant}-{name}-{how}-{lang}"
    )
    for variant, players, name, group, out_of_range, zh, en in FIELDS
    for how, typed in (("range", out_of_range), ("fraction", "12.5"), ("digits", TOO_LONG))
    for lang in ("zh-hans", "en")
]


def _input(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)


def _slot(page: str, slot_id: str) -> str:
    found = re.search(rf'<p class="[^"]*error"[^>]*id="{slot_id}"[^>]*>([^<]*)</p>', page) or re.search(
        rf'<p[^>]*id="{slot_id}"[^>]*>([^<]*)</p>', page
    )
    return html_lib.unescape(found.group(1))


@pytest.mark.parametrize(("variant", "players", "name", "group", "typed", "message", "lang"), CASES)
def test_a_hand_number_not_allowed_is_named_beside_its_field(
    owner_client, variant, players, name, group, typed, message, lang
):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner, variant=variant, players=list(SIX_NAMES if players == 6 else NAMES))
    url = reverse("table", args=[club.slug, session.pk])

    response = client.post(url, {"action": "record", "declarer": "0", "bid": "80", name: typed})

    assert response.status_code == 400 and not session.hands.exists()
    page = response.content.decode()
    assert _slot(page, f"error-{group}") == message
    field = _input(page, name)
    assert f'aria-describedby="error-{group}"' in field and 'aria-invalid="true"' in field
    # Script says the same before the form is sent: the input carries the message and the engine's limits.
    assert f'data-rule="{html_lib.escape(message, quote=True)}"' in field or f'data-rule="{message}"' in field


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_an_allowed_hand_number_is_recorded_and_marks_nothing(owner_client, lang):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner)
    url = reverse("table", args=[club.slug, session.pk])
    page = client.get(url).content.decode()
    assert "aria-invalid" not in _input(page, "captured") and 'aria-describedby="error-captured"' in _input(
        page, "captured"
    )

    response = client.post(url, {"action": "record", "declarer": "0", "bid": "80", "captured": "30"})

    assert response.status_code == 302 and session.hands.count() == 1


# (variant, option field, figure, slot, the message in zh-Hans, in English)
OPTIONS = [
    (
        "baifen.benxi",
        "option_target",
        "5",
        "target",
        "盘分只能填 5 到 1000000 之间 5 的倍数",
        "Game target: a multiple of 5 from 5 to 1000000",
    ),
    (
        "baifen.benxi",
        "option_fanbei",
        "105",
        "fanbei",
        "翻倍线只能填 5 到 100 之间 5 的倍数",
        "Doubling line: a multiple of 5 from 5 to 100",
    ),
]
OPTION_CASES = [
    pytest.param(variant, name, typed, key, zh if lang == "zh-hans" else en, lang, id=f"{name}-{how}-{lang}")
    for variant, name, _fine, key, zh, en in OPTIONS
    for how, typed in (("negative", "-5"), ("fraction", "12.5"), ("digits", TOO_LONG), ("off-step", "7"))
    for lang in ("zh-hans", "en")
]


@pytest.mark.parametrize(("variant", "name", "typed", "key", "message", "lang"), OPTION_CASES)
def test_a_numeric_option_not_allowed_is_named_beside_it_on_the_new_session_form(
    owner_client, variant, name, typed, key, message, lang
):
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    url = reverse("session_new", kwargs={"slug": club.slug}) + f"?variant={variant}"
    data = page_defaults(client.get(url).context["form"]) | {f"seat_{seat}_name": n for seat, n in enumerate(NAMES)}

    response = client.post(url, data | {name: typed})

    assert response.status_code == 200 and not Session.objects.exists()
    page = response.content.decode()
    assert _slot(page, f"option-{key}-error") == message
    field = _input(page, name)
    assert f'aria-describedby="option-{key}-error"' in field and 'aria-invalid="true"' in field
    assert f'data-rule="{message}"' in field


def test_the_new_session_form_leaves_the_check_to_the_page_not_the_browsers_bubble(owner_client):
    client, club, _ = owner_client
    page = client.get(reverse("session_new", kwargs={"slug": club.slug}) + "?variant=baifen.benxi").content.decode()
    assert re.search(r'<form method="post" class="open" novalidate>', page)
    assert 'id="option-target-error" hidden' in page  # the slot script fills, pointed at before any error
