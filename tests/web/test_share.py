"""Share links: the read-only table at /s/<token>/ (no login), its live fragment, the QR panel.

Figures are those of rules/baifen.md's worked 本溪 example (tests/factories.BENXI_EXAMPLE): after
its four first hands 乙·丁 have won 盘 1, 甲·丙 +15 and 乙·丁 +230 (worked by hand there).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from settlement import services
from settlement.models import Role, ShareLink
from settlement.presentation.qr import share_qr_svg
from tests.factories import (
    BENXI_EXAMPLE,
    make_club,
    make_member,
    make_player,
    make_session,
    make_user,
    record_hands,
)
from tests.ops.test_pages import inline_parts

pytestmark = pytest.mark.django_db


def _url(name, session):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk})


def _share(link):
    return reverse("share", args=[link.token])


def _live(link, **query):
    return reverse("share_live", args=[link.token]) + ("?view=tv" if query.get("tv") else "")


@pytest.fixture
def anon():
    """A reader with the link and no login (owner_client's `client` is logged in)."""
    return Client()


@pytest.fixture
def shared(owner_client):
    """A 本溪 session of the owner's club with four hands recorded and a share link; (session, link, owner)."""
    _, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:4])
    return session, services.share_create(session=session, user=owner), owner


def test_the_link_opens_the_sessions_table_without_a_login(anon, shared):
    _, link, _ = shared
    page = anon.get(_share(link)).content.decode()
    assert "甲·丙" in page and "乙·丁" in page
    assert "+15" in page and "+230" in page  # the session totals after 盘 1
    assert "第 1 盘结束" in page  # hand 4's receipt: the game it ended
    assert "#4" in page and "#1" in page  # the newest hands
    assert 'class="chart"' in page
    assert "下一局：第 5 局" in page and "甲 发牌" in page  # hand 4 was dealt by 丁: 甲 deals the 5th


def test_the_page_speaks_english_to_an_english_reader(anon, shared):
    _, link, _ = shared
    anon.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = anon.get(_share(link)).content.decode()
    assert "Game 1 is over" in page and "Next: hand 5" in page and "甲 deals." in page


def test_the_language_switch_works_without_a_login(anon, shared):
    _, link, _ = shared
    response = anon.post(reverse("set_language"), {"language": "en", "next": _share(link)})
    assert response.status_code == 302 and response["Location"] == _share(link)
    assert "Newest hands" in anon.get(_share(link)).content.decode()


@pytest.mark.parametrize(
    "token",
    ["", "x", "a" * 32, "a" * 65, "../../admin"],
    ids=["empty-ish", "short", "well-formed but unknown", "too long", "path"],
)
def test_a_token_that_was_never_made_is_a_404(anon, shared, token):
    assert anon.get(f"/s/{token}/").status_code == 404
    assert anon.get(f"/s/{token}/live/").status_code == 404


def test_a_revoked_link_is_gone_and_a_new_one_works(anon, shared):
    session, link, owner = shared
    assert anon.get(_share(link)).status_code == 200
    services.share_revoke(session=session, user=owner)
    assert anon.get(_share(link)).status_code == 410
    assert anon.get(_live(link)).status_code == 410
    fresh = services.share_create(session=session, user=owner)
    assert fresh.token != link.token and len(fresh.token) >= 22  # ≥ 128 bits in base64
    assert anon.get(_share(fresh)).status_code == 200
    assert anon.get(_share(link)).status_code == 410


@pytest.mark.parametrize(
    ("lang", "heading", "ask", "not_said"),
    [
        ("zh-hans", "此链接已撤销", "请在牌桌上要新的链接", "找不到页面"),
        ("en", "This link was revoked", "Ask at the table for the new link", "Page not found"),
    ],
)
def test_a_revoked_links_viewers_read_that_it_was_revoked_in_their_language(anon, shared, lang, heading, ask, not_said):
    session, link, owner = shared
    services.share_revoke(session=session, user=owner)
    anon.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = anon.get(_share(link))
    page = response.content.decode()
    assert response.status_code == 410 and f"<h1>{heading}</h1>" in page and not_said not in page
    assert ask in page and "director" not in page and "裁判" not in page  # a table's link: ask at the table
    assert session.variant_label not in page and "甲" not in page  # nothing of the session any more
    assert response["X-Robots-Tag"] == "noindex, nofollow" and "private" in response["Cache-Control"]


def test_a_new_link_replaces_the_old_one(anon, shared):
    session, link, owner = shared
    fresh = services.share_create(session=session, user=owner)
    assert anon.get(_share(link)).status_code == 410
    assert list(ShareLink.objects.filter(session=session, revoked_at__isnull=True)) == [fresh]


def test_a_link_shows_only_its_own_session(anon, shared):
    session, link, owner = shared
    other_club = make_club("西城俱乐部")
    stranger = make_member(other_club)
    other = make_session(other_club, stranger, players=["赵", "钱", "孙", "李"])
    record_hands(other, stranger, BENXI_EXAMPLE[:2])
    other_link = services.share_create(session=other, user=stranger)
    make_session(session.club, owner, players=["子", "丑", "寅", "卯"])
    for url in (_share(link), _live(link), _live(link, tv=True)):
        page = anon.get(url).content.decode()
        for name in ("赵", "钱", "孙", "李", "子", "丑", "寅", "卯", "西城"):
            assert name not in page, (url, name)
    page = anon.get(_share(other_link)).content.decode()
    assert "赵·孙" in page and "甲" not in page and "东城" not in page


def test_no_user_name_or_email_is_shown_even_after_corrections(anon, owner_client):
    _, club, _ = owner_client
    keeper = make_user("keeper_wangwu")
    keeper.email, keeper.first_name, keeper.last_name = "wangwu@example.com", "Wu", "Wang"
    keeper.save()
    make_member(club, Role.SCOREKEEPER, user=keeper)
    session = make_session(club, keeper)
    record_hands(session, keeper, BENXI_EXAMPLE[:3])
    corrected = {**BENXI_EXAMPLE[1], "captured": 25}
    services.hand_correct(session=session, user=keeper, number=2, hand_input=corrected, reason="少记了五")
    services.hand_void(session=session, user=keeper, number=3, reason="发错牌")
    link = services.share_create(session=session, user=keeper)
    for url in (_share(link), _share(link) + "?view=tv", _live(link), _live(link, tv=True)):
        page = anon.get(url).content.decode()
        for secret in ("keeper_wangwu", "wangwu@", "example.com", "Wang", "Wu Wang", "@"):
            assert secret not in page, (url, secret)
    page = anon.get(_share(link)).content.decode()
    assert "少记了五" in page and "发错牌" in page  # the reasons the table shows, without who gave them


def test_the_share_pages_have_nothing_inline_and_are_never_cached_by_others(anon, shared):
    _, link, _ = shared
    for url in (_share(link), _share(link) + "?view=tv", _live(link)):
        response = anon.get(url)
        assert inline_parts(response.content.decode()) == [], url
        assert "unsafe-inline" not in response["Content-Security-Policy"]
        assert "private" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
        assert response["Referrer-Policy"] == "no-referrer"


def test_the_big_screen_shows_the_totals_and_only_the_last_receipt(anon, shared):
    _, link, _ = shared
    page = anon.get(_share(link) + "?view=tv").content.decode()
    assert 'class="share-page tv"' in page
    assert 'id="hand-4"' in page and 'id="hand-3"' not in page
    assert 'class="chart"' not in page
    assert "+230" in page


# --- the live fragment: ETag and 304 ---


def test_an_unchanged_session_is_a_304_for_one_query(anon, shared, django_assert_num_queries):
    _, link, _ = shared
    first = anon.get(_live(link))
    assert first.status_code == 200 and first["ETag"]
    with django_assert_num_queries(1):
        again = anon.get(_live(link), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]


def test_the_fragment_costs_the_same_queries_for_few_or_many_hands(anon, owner_client, django_assert_num_queries):
    _, club, owner = owner_client
    short, long = make_session(club, owner), make_session(club, owner)
    record_hands(short, owner, BENXI_EXAMPLE[:1])
    record_hands(long, owner, BENXI_EXAMPLE * 4)
    for session in (short, long):
        link = services.share_create(session=session, user=owner)
        # the session's version (nobody fetched this news yet); link + session + newest revision, seats with the
        # last state, the newest revisions with their states, the chart's settlement and game rows
        with django_assert_num_queries(6):
            assert anon.get(_live(link)).status_code == 200


def test_the_next_reader_of_the_same_news_costs_one_query(anon, shared, django_assert_num_queries):
    session, link, owner = shared
    old = anon.get(_live(link))["ETag"]
    services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[4])
    first = anon.get(_live(link), HTTP_IF_NONE_MATCH=old)
    with django_assert_num_queries(1):
        second = Client().get(_live(link), HTTP_IF_NONE_MATCH=old)
    assert second.status_code == 200 and second.content == first.content and second["ETag"] == first["ETag"]
    assert 'id="hand-5"' in second.content.decode()


@pytest.mark.parametrize("change", ["record", "correct", "void", "close", "reopen", "rename", "merge", "rebuild"])
def test_every_write_to_the_session_changes_the_etag(anon, shared, change):
    session, link, owner = shared
    if change == "reopen":
        services.session_close(session=session, user=owner)
    before = anon.get(_live(link))["ETag"]
    seated = session.seats.order_by("seat").first().player
    if change == "record":
        services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[4])
    elif change == "correct":
        hand = {**BENXI_EXAMPLE[3], "captured": 60}
        services.hand_correct(session=session, user=owner, number=4, hand_input=hand, reason="数错了")
    elif change == "void":
        services.hand_void(session=session, user=owner, number=4, reason="发错牌")
    elif change == "close":
        services.session_close(session=session, user=owner)
    elif change == "reopen":
        services.session_reopen(session=session, user=owner)
    elif change == "rename":  # the page shows the seated player's name
        services.player_rename(player=seated, user=owner, name="新名字")
    elif change == "merge":
        services.player_merge(player=seated, into=make_player(session.club, "别人"), user=owner)
    else:
        services.session_derived_rebuild(session=session)
    response = anon.get(_live(link), HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200 and response["ETag"] != before


def test_a_rename_shows_at_the_next_poll(anon, shared):
    session, link, owner = shared
    etag = anon.get(_live(link))["ETag"]
    services.player_rename(player=session.seats.order_by("seat").first().player, user=owner, name="新名字")
    response = anon.get(_live(link), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and "新名字" in response.content.decode()


def test_a_rename_of_a_player_not_at_the_table_keeps_the_304(anon, shared):
    session, link, owner = shared
    etag = anon.get(_live(link))["ETag"]
    services.player_rename(player=make_player(session.club, "路人"), user=owner, name="路人甲")
    assert anon.get(_live(link), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_write_to_another_session_keeps_the_304(anon, shared):
    session, link, owner = shared
    etag = anon.get(_live(link))["ETag"]
    other = make_session(session.club, owner)
    services.hand_record(session=other, user=owner, hand_input=BENXI_EXAMPLE[0])
    assert anon.get(_live(link), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_etag_differs_by_language_and_layout(anon, shared):
    _, link, _ = shared
    zh = anon.get(_live(link))["ETag"]
    tv = anon.get(_live(link, tv=True))["ETag"]
    anon.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    en = anon.get(_live(link))
    assert len({zh, tv, en["ETag"]}) == 3
    assert anon.get(_live(link), HTTP_IF_NONE_MATCH=zh).status_code == 200  # not the zh fragment's
    assert "Newest hands" in en.content.decode()


def test_the_page_carries_the_etag_its_first_poll_sends(anon, shared):
    _, link, _ = shared
    page = anon.get(_share(link)).content.decode()
    etag = anon.get(_live(link))["ETag"]
    assert 'data-etag="' + etag.replace('"', "&quot;") + '"' in page
    assert anon.get(_live(link), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_polls_are_never_throttled_like_the_api(anon, shared, settings):
    _, link, _ = shared
    rates = {"anon": "1/hour", "user": "1/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    etag = anon.get(_live(link))["ETag"]
    assert {anon.get(_live(link), HTTP_IF_NONE_MATCH=etag).status_code for _ in range(30)} == {304}


# --- making and revoking links, the QR code ---


@pytest.mark.parametrize("role", [Role.OWNER, Role.SCOREKEEPER])
def test_owners_and_scorekeepers_make_and_revoke_links(client, role):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    user = make_member(club, role)
    client.force_login(user)
    response = client.post(_url("share_create", session))
    assert response.status_code == 302 and response["Location"].endswith("?share=1#share")
    link = ShareLink.objects.get(session=session, revoked_at__isnull=True)
    assert link.created_by == user
    client.logout()
    assert client.get(_share(link)).status_code == 200
    client.force_login(user)
    assert client.post(_url("share_revoke", session)).status_code == 302
    assert client.get(_share(link)).status_code == 410


@pytest.mark.parametrize(
    ("lang", "question", "button"),
    [("zh-hans", "撤销分享链接？", "立即撤销"), ("en", "Revoke the share link?", "Revoke it now")],
)
def test_revoking_a_link_asks_first_on_a_page_of_its_own(client, shared, lang, question, button):
    session, link, owner = shared
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    panel = client.get(_url("table", session) + "?share=1").content.decode()
    assert f'href="{_url("share_revoke", session)}"' in panel  # a link to the question, not a form that revokes
    confirm = client.get(_url("share_revoke", session))
    page = confirm.content.decode()
    assert confirm.status_code == 200 and f"<h1>{question}</h1>" in page and button in page
    assert link.token in page and f'action="{_url("share_revoke", session)}"' in page
    assert ShareLink.objects.get(pk=link.pk).revoked_at is None  # asking revokes nothing
    assert client.post(_url("share_revoke", session)).status_code == 302
    assert ShareLink.objects.get(pk=link.pk).revoked_at is not None
    # Asked again with nothing left to revoke: back to the share panel.
    assert client.get(_url("share_revoke", session))["Location"].endswith("?share=1#share")


def test_a_viewer_is_not_asked_to_revoke_a_link(client, shared):
    session, _link, _owner = shared
    viewer = make_member(session.club, Role.VIEWER)
    client.force_login(viewer)
    assert client.get(_url("share_revoke", session)).status_code == 403


def test_a_viewer_may_not_make_or_revoke_a_link(client, shared):
    session, link, _ = shared
    client.force_login(make_member(session.club, Role.VIEWER))
    assert client.post(_url("share_create", session)).status_code == 403
    assert client.post(_url("share_revoke", session)).status_code == 403
    assert client.get(_share(link)).status_code == 200  # still working


def test_another_club_sees_no_such_session(client, shared):
    session, link, _ = shared
    client.force_login(make_member(make_club()))
    for name in ("share_create", "share_revoke"):
        assert client.post(_url(name, session)).status_code == 404
    assert client.get(_url("share_card", session)).status_code == 404
    assert client.get(_share(link)).status_code == 200


def test_making_a_link_needs_a_login_and_a_post(anon, client, shared):
    session, _, _ = shared
    response = anon.post(_url("share_create", session))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert ShareLink.objects.filter(session=session).count() == 1
    client.force_login(make_member(session.club))
    assert client.get(_url("share_create", session)).status_code == 405


def test_the_table_page_shows_the_link_and_its_qr_code(owner_client, shared):
    client = owner_client[0]
    session, link, _ = shared
    page = client.get(_url("table", session) + "?share=1").content.decode()
    assert '<details class="share-panel" id="share" open>' in page
    assert f"http://testserver/s/{link.token}/" in page
    assert '<svg viewBox="0 0 ' in page and 'class="qr"' in page
    card = client.get(_url("share_card", session)).content.decode()
    assert f"http://testserver/s/{link.token}/" in card and 'class="qr"' in card


def test_without_a_link_the_table_offers_to_make_one_and_the_card_is_a_404(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    page = client.get(_url("table", session)).content.decode()
    assert reverse("share_create", args=[club.slug, session.pk]) in page and 'class="qr"' not in page
    assert client.get(_url("share_card", session)).status_code == 404


def test_the_qr_code_encodes_the_link():
    # 56 bytes (a 32-character token): a version-4 symbol at level M holds up to 62 bytes.
    svg = share_qr_svg(url="https://club.example/s/" + "A" * 32 + "/")
    assert svg.startswith('<svg viewBox="0 0 41 41" class="qr">')  # 33 modules + 2 × 4 quiet zone
    assert "style=" not in svg and "<script" not in svg
