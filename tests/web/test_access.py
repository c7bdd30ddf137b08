"""Every page is scoped to the user's clubs: another club's objects are 404s, a viewer's writes are 403s."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from settlement import services
from settlement.models import Hand, HandRevision, Role, Session
from tests.factories import make_club, make_member, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db

HAND = {"declarer": 1, "bid": 85, "captured": 20}


@pytest.fixture
def world():
    """Club A (the user's) and club B (someone else's), each with a player, a session and a hand."""
    ours, theirs = make_club(slug="ours"), make_club(slug="theirs")
    owner = make_member(ours)
    stranger = make_member(theirs)
    objects = {}
    for club, user, key in ((ours, owner, "ours"), (theirs, stranger, "theirs")):
        player = make_player(club, f"player-{key}")
        session = make_session(club, user, players=[player, "乙", "丙", "丁"])
        record_hands(session, user, [HAND])
        objects[key] = {"club": club, "player": player, "session": session}
    return owner, objects


# (url name, method, kwargs builder: (our objects, their objects) -> kwargs)
READS = [
    ("club_home", lambda o, t: {"slug": t["club"].slug}),
    ("club_history", lambda o, t: {"slug": t["club"].slug}),
    ("player_detail", lambda o, t: {"slug": t["club"].slug, "player_id": t["player"].pk}),
    ("player_detail", lambda o, t: {"slug": o["club"].slug, "player_id": t["player"].pk}),
    ("session_detail", lambda o, t: {"slug": t["club"].slug, "session_id": t["session"].pk}),
    ("session_detail", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk}),
    ("session_export", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk}),
    ("hand_detail", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk, "number": 1}),
    ("hand_detail", lambda o, t: {"slug": t["club"].slug, "session_id": t["session"].pk, "number": 1}),
    ("hand_detail", lambda o, t: {"slug": o["club"].slug, "session_id": o["session"].pk, "number": 99}),
    ("session_new", lambda o, t: {"slug": t["club"].slug}),
]
WRITES = [
    ("session_new", lambda o, t: {"slug": t["club"].slug}),
    ("session_close", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk}),
    ("session_reopen", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk}),
    ("table", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk}),
    ("table_fix", lambda o, t: {"slug": o["club"].slug, "session_id": t["session"].pk, "number": 1}),
    ("table_fix", lambda o, t: {"slug": t["club"].slug, "session_id": t["session"].pk, "number": 1}),
]
POSTS = {
    "table": {"action": "record", "declarer": "1", "bid": "85", "captured": "20", "client_key": "k"},
    "table_fix": {"action": "void", "reason": "r"},
    "session_close": {},
    "session_reopen": {},
    "session_close_confirm": {},
    "session_new": {},
}


def _ledger(objects):
    return (
        Hand.objects.count(),
        HandRevision.objects.count(),
        Session.objects.filter(status="closed").count(),
        Session.objects.count(),
    )


@pytest.mark.parametrize(("name", "kwargs"), READS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(READS)])
def test_another_clubs_pages_are_not_found(client, world, name, kwargs):
    owner, objects = world
    client.force_login(owner)
    response = client.get(reverse(name, kwargs=kwargs(objects["ours"], objects["theirs"])))
    assert response.status_code == 404


@pytest.mark.parametrize(("name", "kwargs"), WRITES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(WRITES)])
def test_writing_to_another_clubs_objects_is_not_found_and_changes_nothing(client, world, name, kwargs):
    owner, objects = world
    client.force_login(owner)
    before = _ledger(objects)
    response = client.post(reverse(name, kwargs=kwargs(objects["ours"], objects["theirs"])), POSTS[name])
    assert response.status_code == 404
    assert _ledger(objects) == before


VIEWER_WRITES = [
    ("session_new", "get", lambda o: {"slug": o["club"].slug}),
    ("session_new", "post", lambda o: {"slug": o["club"].slug}),
    ("session_close", "post", lambda o: {"slug": o["club"].slug, "session_id": o["session"].pk}),
    ("session_close_confirm", "get", lambda o: {"slug": o["club"].slug, "session_id": o["session"].pk}),
    ("session_reopen", "post", lambda o: {"slug": o["club"].slug, "session_id": o["session"].pk}),
    ("table", "post", lambda o: {"slug": o["club"].slug, "session_id": o["session"].pk}),
    ("table_fix", "post", lambda o: {"slug": o["club"].slug, "session_id": o["session"].pk, "number": 1}),
]


@pytest.mark.parametrize(("name", "method", "kwargs"), VIEWER_WRITES, ids=[f"{n}-{m}" for n, m, _ in VIEWER_WRITES])
def test_a_viewer_cannot_write(client, world, name, method, kwargs):
    _, objects = world
    viewer = make_member(objects["ours"]["club"], Role.VIEWER)
    client.force_login(viewer)
    before = _ledger(objects)
    url = reverse(name, kwargs=kwargs(objects["ours"]))
    response = client.get(url) if method == "get" else client.post(url, POSTS[name])
    assert response.status_code == 403
    assert _ledger(objects) == before


VIEWER_READS = ["club_home", "club_history", "player_detail", "session_detail", "session_export", "hand_detail"]


@pytest.mark.parametrize("name", VIEWER_READS)
def test_a_viewer_reads_every_page_of_the_club_without_write_forms(client, world, name):
    _, objects = world
    ours = objects["ours"]
    client.force_login(make_member(ours["club"], Role.VIEWER))
    kwargs = {"slug": ours["club"].slug}
    if name == "player_detail":
        kwargs["player_id"] = ours["player"].pk
    if name in ("session_detail", "session_export", "hand_detail"):
        kwargs["session_id"] = ours["session"].pk
    if name == "hand_detail":
        kwargs["number"] = 1
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200
    assert write_forms(response.content.decode()) == []


# Forms every logged-in page carries: the language switch and logging out.
ACCOUNT_FORMS = {"/i18n/setlang/", "/logout/"}


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "form":
            self.found.append(dict(attrs))


def write_forms(page: str) -> list[dict[str, str | None]]:
    """The page's forms that post somewhere other than the account forms, however their markup is written."""
    parser = _Forms()
    parser.feed(page)
    return [
        form
        for form in parser.found
        if (form.get("method") or "get").lower() == "post" and form.get("action") not in ACCOUNT_FORMS
    ]


@pytest.mark.parametrize(
    ("markup", "writes"),
    [
        ('<form method="post" action="/clubs/x/">', True),
        ('<form class="table-entry" method="POST">', True),  # no action: posts to the page itself
        ("<form action='/clubs/x/' method=post>", True),
        ('<form method="get" class="filters">', False),
        ('<form class="logout" action="/logout/" method="post">', False),
    ],
)
def test_the_write_form_check_sees_any_post_form(markup, writes):
    assert bool(write_forms(markup + "</form>")) is writes


CLOSED_PAGES = ["hand_detail", "table_fix", "table", "session_detail"]


@pytest.mark.parametrize("name", CLOSED_PAGES)
@pytest.mark.parametrize(("role", "fixes"), [(Role.SCOREKEEPER, False), (Role.OWNER, True)])
def test_a_closed_sessions_pages_offer_fixes_only_to_owners(client, world, name, role, fixes):
    _, objects = world
    ours = objects["ours"]
    services.session_close(session=ours["session"], user=ours["session"].created_by)
    client.force_login(make_member(ours["club"], role))
    kwargs = {"slug": ours["club"].slug, "session_id": ours["session"].pk}
    if name in ("hand_detail", "table_fix"):
        kwargs["number"] = 1
    page = client.get(reverse(name, kwargs=kwargs)).content.decode()
    # Sharing a closed session (its final standings) is no fix: any writer may make or revoke its link.
    forms = [form for form in write_forms(page) if "/share/" not in (form.get("action") or "")]
    if not fixes:
        assert forms == []
        assert f'href="{reverse("table_fix", kwargs={**kwargs, "number": 1})}' not in page
        assert "closed-fix" not in page
    elif name in ("hand_detail", "table_fix"):
        assert any("table-entry" in (form.get("class") or "") for form in forms)


ALL = [
    ("club_home", {"slug": "ours"}),
    ("club_history", {"slug": "ours"}),
    ("player_detail", {"slug": "ours", "player_id": 1}),
    ("session_new", {"slug": "ours"}),
    ("session_detail", {"slug": "ours", "session_id": 1}),
    ("session_export", {"slug": "ours", "session_id": 1}),
    ("hand_detail", {"slug": "ours", "session_id": 1, "number": 1}),
]


@pytest.mark.parametrize(("name", "kwargs"), [("home", {}), *ALL])
def test_anonymous_visitors_are_sent_to_log_in(client, name, kwargs):
    url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_logging_in_leads_to_the_users_club(client):
    club = make_club(slug="only")
    user = make_member(club)
    user.set_password("s3cret-pass")
    user.save()
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": user.username, "password": "s3cret-pass"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("club_home", kwargs={"slug": "only"})
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("login")


def test_home_lists_the_clubs_of_a_member_of_several(client):
    one, two = make_club("俱乐部一"), make_club("俱乐部二")
    user = make_member(one)
    make_member(two, Role.VIEWER, user=user)
    make_club("别人的")
    client.force_login(user)
    page = client.get(reverse("home")).content.decode()
    assert "俱乐部一" in page and "俱乐部二" in page and "别人的" not in page


def test_the_admin_shows_the_hand_log_read_only(admin_client, world):
    _, objects = world
    hand = Hand.objects.filter(session=objects["ours"]["session"]).get()
    for model in (
        "club",
        "membership",
        "player",
        "session",
        "sessionseat",
        "hand",
        "handrevision",
        "settlementrow",
        "gamerow",
    ):
        assert admin_client.get(f"/admin/settlement/{model}/").status_code == 200, model
    assert admin_client.get("/admin/settlement/hand/add/").status_code == 403
    assert admin_client.get("/admin/settlement/handrevision/add/").status_code == 403
    page = admin_client.get(f"/admin/settlement/hand/{hand.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin_client.post(f"/admin/settlement/hand/{hand.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Hand.objects.filter(pk=hand.pk).exists()
