"""The forms built from the engine's description: opening a session, correcting or voiding a hand."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement.models import HandRevision, Player, Session
from settlement.rules.entry import option_defaults
from settlement.rules.registry import VARIANTS
from tests.factories import BENXI_EXAMPLE, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db

CASES = [
    (key, preset, players)
    for key, rules in VARIANTS.items()
    for preset in rules.presets
    for players in sorted(rules.player_counts)
]


def page_defaults(form) -> dict[str, str]:
    """What a browser posts for the form as rendered: every input at its initial value."""
    data = {}
    for bound in form:
        value = bound.value()
        if value is None or value is False or value == "":
            continue
        if isinstance(value, (list, tuple)):  # ticked boxes: one value each
            data[bound.html_name] = [str(v) for v in value]
            continue
        data[bound.html_name] = "on" if value is True else str(value)
    return data


def _new_url(club, **params):
    return reverse("session_new", kwargs={"slug": club.slug}), params


@pytest.mark.parametrize(("variant", "preset", "players"), CASES, ids=[f"{v}-{p}-{n}" for v, p, n in CASES])
def test_posting_the_pages_own_defaults_opens_the_session_with_the_engines_defaults(
    owner_client, variant, preset, players
):
    client, club, _ = owner_client
    url, params = _new_url(club, variant=variant, preset=preset, players=players)
    page = client.get(url, params)
    assert page.status_code == 200
    data = page_defaults(page.context["form"])
    for seat in range(players):
        data[f"seat_{seat}_name"] = f"客{seat + 1}"
    response = client.post(f"{url}?variant={variant}&preset={preset}&players={players}", data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    session = Session.objects.get()
    assert session.options == option_defaults(VARIANTS[variant], players, preset)
    assert session.seats.count() == players


def test_a_double_submit_of_the_opening_form_opens_one_session(owner_client):
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug}) + "?variant=gunzi"
    data = page_defaults(client.get(url).context["form"])
    data |= {f"seat_{seat}_name": name for seat, name in enumerate(["甲", "乙", "丙", "丁"])}
    first, second = client.post(url, data), client.post(url, data)
    assert first.status_code == second.status_code == 302 and first["Location"] == second["Location"]
    assert Session.objects.count() == 1


def test_a_new_session_opens_on_its_table_page(owner_client):
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug}) + "?variant=gunzi"
    data = page_defaults(client.get(url).context["form"])
    data |= {f"seat_{seat}_name": name for seat, name in enumerate(["甲", "乙", "丙", "丁"])}
    response = client.post(url, data)
    session = Session.objects.get()
    assert response["Location"] == f"/clubs/{club.slug}/sessions/{session.pk}/table/"


def test_the_options_are_typed_controls_labelled_in_the_pages_language(owner_client):
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug})
    page = client.get(url, {"variant": "baifen.benxi", "preset": "本溪 300"}).content.decode()
    assert "<details" in page and "盘分" in page and "<textarea" not in page
    assert 'name="option_target"' in page and 'value="300"' in page and 'step="5"' in page
    assert 'type="radio" name="option_kou_mode" value="points"' in page  # a choice of two: radios
    assert 'name="option_clean__90"' in page  # a bid table: a row per bid
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(url, {"variant": "baifen.benxi"}).content.decode()
    assert "Game target" in page and "Benxi, to 300" in page


def test_a_preset_with_a_guest_and_a_changed_option(owner_client):
    client, club, _ = owner_client
    wang = make_player(club, "老王")
    url = reverse("session_new", kwargs={"slug": club.slug}) + "?variant=baifen.benxi&preset=本溪 300"
    data = page_defaults(client.get(url).context["form"])
    data |= {"seat_0_player": wang.pk, "seat_1_name": "新来的", "seat_2_name": "丙", "seat_3_name": "丁"}
    data |= {"option_kou_mode": "game", "option_clean__80": ""}  # 80 leaves the clean table
    assert client.post(url, data).status_code == 302
    session = Session.objects.get()
    assert session.options["target"] == 300 and session.options["kou_mode"] == "game"
    assert session.options["clean"] == {"85": 100, "90": 200, "95": 200, "100": 300}
    assert [s.player.name for s in session.seats.order_by("seat")] == ["老王", "新来的", "丙", "丁"]
    assert Player.objects.get(name="新来的").is_guest


def test_a_bad_option_shows_the_rules_message_at_the_option(owner_client):
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug}) + "?variant=baifen.benxi"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    data = page_defaults(client.get(url).context["form"])
    data |= {f"seat_{seat}_name": name for seat, name in enumerate("ABCD")}
    response = client.post(url, data | {"option_target": "207"})
    assert response.status_code == 200 and "multiple of 5" in response.content.decode()
    assert not Session.objects.exists()


def _fix_url(session, number):
    return reverse("table_fix", kwargs={"slug": session.club.slug, "session_id": session.pk, "number": number})


def test_the_hand_page_corrects_with_the_entry_form_prefilled_and_comes_back(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    url = reverse("hand_detail", kwargs={"slug": club.slug, "session_id": session.pk, "number": 1})
    page = client.get(url)
    form = page.context["form"]
    assert form["captured"].value() == 15 and form["revision"].value() == 1  # the hand's current input
    data = page_defaults(form) | {"captured": "10", "reason": "typo", "action": "correct", "return_to": "hand"}
    response = client.post(_fix_url(session, 1), data)
    assert response.status_code == 302 and response["Location"] == url
    assert HandRevision.objects.filter(hand__number=1).count() == 2


def test_a_correction_made_from_a_stale_page_is_refused_visibly(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("hand_detail", kwargs={"slug": club.slug, "session_id": session.pk, "number": 1})
    stale = page_defaults(client.get(url).context["form"])
    assert (
        client.post(_fix_url(session, 1), stale | {"captured": "10", "reason": "a", "action": "correct"}).status_code
        == 302
    )
    response = client.post(_fix_url(session, 1), stale | {"captured": "5", "reason": "b", "action": "correct"})
    assert response.status_code == 400
    assert "was changed meanwhile" in response.content.decode()
    response = client.post(_fix_url(session, 1), stale | {"reason": "c", "action": "void"})
    assert response.status_code == 400 and "was changed meanwhile" in response.content.decode()
    assert HandRevision.objects.filter(hand__number=1).count() == 2


def test_the_session_page_has_no_json_box_but_a_link_to_the_table(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    page = client.get(reverse("session_detail", kwargs={"slug": club.slug, "session_id": session.pk})).content.decode()
    assert "<textarea" not in page
    assert reverse("table", kwargs={"slug": club.slug, "session_id": session.pk}) in page


def test_a_hongxingwu_ladder_without_2_starts_at_its_first_level_unless_one_is_picked(owner_client):
    # hongxingwu.md: start_level defaults to the ladder's first level; one that is given must be on the ladder.
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug}) + "?variant=hongxingwu"
    data = page_defaults(client.get(url).context["form"])
    data |= {f"seat_{seat}_name": name for seat, name in enumerate(["甲", "乙", "丙", "丁"])}
    ladder = [level for level in data["option_ladder"] if level not in ("2", "3")]
    assert client.post(url, data | {"option_ladder": ladder}).status_code == 302
    session = Session.objects.get()
    assert (session.options["ladder"][0], session.options["start_level"]) == ("4", "4")
    picked = data | {"option_ladder": ladder, "option_start_level": "6", "client_key": "another"}
    assert client.post(url, picked).status_code == 302
    assert Session.objects.exclude(pk=session.pk).get().options["start_level"] == "6"
