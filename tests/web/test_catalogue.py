"""The zh-Hans catalogue: an English word that means two things on two pages gets a context for each."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from settlement import services
from tests.conftest import ROOT
from tests.factories import BENXI_EXAMPLE, make_session, record_hands

# English words read as two things on two pages (checked by reading every msgid used in more than one file):
# "Made" is the bids made on the player page and the day a token was made on the tokens page.
TWO_MEANINGS = ("Made",)

_UNCONTEXTED = (
    r'{%%\s*(?:translate|trans)\s+"%s"(?![^%%]*context)',
    r'(?<![\w.])(?:_|gettext|gettext_lazy)\(\s*"%s"\s*\)',
)


@pytest.mark.parametrize("msgid", TWO_MEANINGS)
def test_a_word_with_two_meanings_is_never_translated_without_its_context(msgid):
    sources = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "settlement").rglob("*.py")]
    bare = [
        path.relative_to(ROOT).as_posix()
        for path in sources
        if any(re.search(pattern % re.escape(msgid), path.read_text(encoding="utf-8")) for pattern in _UNCONTEXTED)
    ]
    assert bare == []
    po = (ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    lines = po.splitlines()
    entries = [i for i, line in enumerate(lines) if line == f'msgid "{msgid}"']
    assert len(entries) >= 2 and all(lines[i - 1].startswith("msgctxt ") for i in entries)


@pytest.mark.django_db
def test_the_player_page_says_made_for_bids_and_the_tokens_page_says_created(owner_client):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    session = make_session(club, owner, players=["王", "李", "张", "赵"])
    record_hands(session, owner, BENXI_EXAMPLE)
    services.api_token_create(user=owner, name="表格")
    wang = club.players.get(name="王")
    by_bid = client.get(f"/clubs/{club.slug}/players/{wang.pk}/").content.decode()
    by_bid = by_bid[by_bid.index('<table class="by-bid">') :]
    assert '<th scope="col" class="num">成功</th>' in by_bid[: by_bid.index("</thead>")]
    tokens = client.get("/tokens/").content.decode()
    assert '<th scope="col">创建于</th>' in tokens
