"""Every page of the demo club speaks words: no JSON literal, no seat 0, no option key left untranslated."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

from settlement import selectors
from settlement.models import Session
from settlement.rules.registry import VARIANTS

pytestmark = pytest.mark.django_db

JSON_LITERAL = re.compile(r"""\{\s*(&quot;|&#x27;|"|')""")
SEAT_ZERO = re.compile(r"(?<![0-9])0\s*号位|\bseat 0\b|(?<![0-9])0\s*号座", re.IGNORECASE)
# Option keys a zh-Hans page must never show raw (every option of every variant has a label).
OPTION_KEYS = sorted(
    {name for rules in VARIANTS.values() for name in rules.defaults(max(rules.player_counts)).__dataclass_fields__}
)


def _visible(html: str) -> str:
    """The page without its attributes' machinery: scripts, styles and tags (what a reader sees)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.DOTALL)
    return re.sub(r"<[^>]+>", " ", html)


def _pages(client) -> list[str]:
    club = "demo"
    urls = [reverse("club_home", kwargs={"slug": club}), reverse("session_new", kwargs={"slug": club})]
    for key, rules in VARIANTS.items():
        for preset in rules.presets:
            urls.append(reverse("session_new", kwargs={"slug": club}) + f"?variant={key}&preset={preset}")
    for session in Session.objects.all():
        kwargs = {"slug": club, "session_id": session.pk}
        urls += [reverse("session_detail", kwargs=kwargs), reverse("table", kwargs=kwargs)]
        for hand in session.hands.all()[:3]:
            urls.append(reverse("hand_detail", kwargs=kwargs | {"number": hand.number}))
            urls.append(reverse("table_fix", kwargs=kwargs | {"number": hand.number}))
    return urls


@pytest.fixture
def demo_client(client):
    call_command("demo_load", verbosity=0)
    client.force_login(User.objects.get(username="demo"))
    return client


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_no_demo_page_shows_json_a_seat_0_or_an_option_key(demo_client, lang):
    demo_client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    pages = _pages(demo_client)
    assert len(pages) > 20
    for url in pages:
        response = demo_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        text = _visible(html)
        assert not JSON_LITERAL.search(html), (url, JSON_LITERAL.search(html))
        assert not SEAT_ZERO.search(text), (url, SEAT_ZERO.search(text))
        if lang == "zh-hans":
            shown = [key for key in OPTION_KEYS if re.search(rf"(?<![\w.]){key}(?![\w])", text)]
            assert not shown, (url, shown)


def test_the_demo_club_has_a_shengji_sitting_worked_by_hand(demo_client):
    session = Session.objects.get(variant="shengji")
    # shengji.md, 2 decks (T 80, d 40, z 1), shuai_penalty 10; 老王·张姐 (0 + 2) against 小李·老赵 (1 + 3):
    # 1. 老王 declares, 35 < 80: +⌈45/40⌉ = 2, 2 → 4; 张姐 next.
    # 2. 60 + 10 × (2 × 2) = 100 ≥ 80: 上台 in the dead zone, no level; 老赵 (下家) next.
    # 3. 0 (光头): 小李·老赵 +⌈75/40⌉ + 1 = 3, 2 → 5; 小李 next.  4. a misdeal, redealt.
    # 5. 小李 declares, 125 + 10 (his own failed throw) = 135: 老王·张姐 take over, ⌊55/40⌋ − 1 + 1 = 1, 4 → 5.
    response = demo_client.get(reverse("session_detail", kwargs={"slug": "demo", "session_id": session.pk}))
    assert response.status_code == 200
    assert session.hands.count() == 5
    assert session.seats.count() == 4
    results = selectors.session_results(session=session).results
    assert results is not None
    assert [h["deltas"] for h in results["hands"]] == [[2, 0, 2, 0], [0] * 4, [0, 3, 0, 3], [0] * 4, [1, 0, 1, 0]]
    assert results["hands"][-1]["levels"] == ["5", "5", "5", "5"]
