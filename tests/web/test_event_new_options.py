"""The new-event form offers every event option the API's create takes: whose result a substitute's seat is, late
hands, the ranking and its placement points, the league, and the variant's own options (filled in from the preset,
changes kept over it and played at the tables); in both languages, refusals on the field they name."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Event

pytestmark = pytest.mark.django_db

BODY = {"name": "周六赛", "date": "2026-12-05", "preset": "本溪 205", "table_size": "4", "bye": "zero"}


def _url(club):
    return reverse("event_new", args=[club.slug]) + "?variant=baifen.benxi"


def _errors(page: str) -> str:
    """The text of the page's field errors, each with the id naming its field."""
    return " ".join(part.split("</p>")[0] for part in page.split('class="error" id="')[1:])


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", ["替补的座位算谁的", "缺席的选手", "替补", "超时后记录的一手", "排名方式", "名次分"]),
        (
            "en",
            ["A substitute's seat counts for", "the absent player", "the substitute", "time is up", "Placement points"],
        ),
    ],
)
def test_the_form_offers_the_event_options_in_both_languages(owner_client, lang, words):
    client, club, _ = owner_client
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = html.unescape(client.get(_url(club)).content.decode())
    for word in words:
        assert word in page
    for name in ("substitute_result", "late_hands", "ranking", "placement_points"):
        assert f'name="{name}"' in page
    assert 'name="league"' not in page  # the club has no league yet


def test_the_options_chosen_are_the_event_s(owner_client):
    client, club, _ = owner_client
    body = {
        **BODY,
        "guests": "甲\n乙\n丙\n丁",
        "substitute_result": "substitute",
        "late_hands": "refused",
        "ranking": "placement",
        "placement_points": "5，3, 1, 0",
    }
    response = client.post(_url(club), body)
    assert response.status_code == 302, _errors(response.content.decode())
    event = Event.objects.get()
    assert (event.substitute_result, event.late_hands, event.ranking) == ("substitute", "refused", "placement")
    assert event.placement_points == [5, 3, 1, 0]


def test_options_left_out_are_the_event_s_defaults(owner_client):
    client, club, _ = owner_client
    assert client.post(_url(club), BODY).status_code == 302
    event = Event.objects.get()
    assert (event.substitute_result, event.late_hands, event.ranking) == ("absent", "counted", "sum")
    assert (event.placement_points, event.league_id) == ([], None)


def test_an_event_made_in_a_league_counts_in_it(owner_client):
    client, club, owner = owner_client
    league = services.league_create(club=club, user=owner, name="冬季联赛", unit="分")
    page = client.get(_url(club)).content.decode()
    assert 'name="league"' in page and "冬季联赛" in page
    assert client.post(_url(club), {**BODY, "league": league.pk}).status_code == 302
    assert Event.objects.get().league_id == league.pk


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"ranking": "placement", "placement_points": "4, 2, x"}, "placement_points", "Whole numbers"),
        ({"ranking": "placement", "placement_points": "1, 2, 3, 4"}, "placement_points", "never rising"),
        ({"placement_points": "4, 2, 1, 0"}, "placement_points", "only with placement"),
        ({"substitute_result": "nobody"}, "substitute_result", "Select a valid choice"),
        ({"late_hands": "later"}, "late_hands", "Select a valid choice"),
    ],
)
def test_a_bad_option_is_refused_on_its_field(owner_client, change, field, message):
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(_url(club), {**BODY, **change})
    assert response.status_code == 400
    errors = _errors(response.content.decode())
    assert f"id_{field}_error" in errors and message in errors
    assert not Event.objects.exists()


def test_a_league_of_another_unit_is_refused_on_the_league_field(owner_client):
    client, club, owner = owner_client
    league = services.league_create(club=club, user=owner, name="注联赛", unit="注")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(_url(club), {**BODY, "league": league.pk})
    assert response.status_code == 400
    assert "id_league_error" in _errors(response.content.decode())
    assert not Event.objects.exists()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_date_input_holds_a_date_it_can_read_in_either_language(owner_client, lang):
    """`<input type="date">` takes only 2026-12-05; zh-Hans' own date format (2026/12/05) left it empty, so the form
    posted untouched was refused for want of a date."""
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get(_url(club)).content.decode()
    (value,) = re.findall(r'<input type="date" name="date" value="([^"]*)"', page)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)


class _Inputs(HTMLParser):
    """The `option_*` inputs of a page as a browser posts them untouched: each value, ticked boxes, chosen options."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name") or ""
        if tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self._add(self._select, a.get("value") or "")
        elif tag == "input" and (a.get("type") not in ("checkbox", "radio") or "checked" in a):
            default = "on" if a.get("type") in ("checkbox", "radio") else ""
            self._add(name, a.get("value") or default)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None

    def _add(self, name: str, value: str) -> None:
        if name.startswith("option_"):
            self.values.setdefault(name, []).append(value)


def _options_posted(page: str) -> dict[str, list[str]]:
    parser = _Inputs()
    parser.feed(page)
    return parser.values


@pytest.mark.parametrize(("preset", "target"), [("本溪 205", 205), ("本溪 300", 300)])
def test_the_preset_fills_the_options_in(owner_client, preset, target):
    client, club, _ = owner_client
    page = client.get(_url(club) + "&preset=" + preset).content.decode()
    assert _options_posted(page)["option_target"] == [str(target)]
    assert f'name="preset" value="{preset}"' in page


@pytest.mark.parametrize(
    ("preset", "changed", "expected"),
    [
        ("本溪 205", {"option_fanbei": ["60"], "option_kou_mode": ["game"]}, {"fanbei": 60, "kou_mode": "game"}),
        ("本溪 300", {"option_fanbei": ["60"]}, {"target": 300, "fanbei": 60}),
        # Back to the variant's own 205 under a preset of 300: the event plays 205, not the preset's figure.
        ("本溪 300", {"option_target": ["205"]}, {"target": 205}),
    ],
)
def test_an_option_changed_on_the_form_is_the_event_s_and_its_tables_play_it(owner_client, preset, changed, expected):
    client, club, owner = owner_client
    url = _url(club) + "&preset=" + preset
    options = {**_options_posted(client.get(url).content.decode()), **changed}
    response = client.post(url, {**BODY, "preset": preset, "guests": "甲\n乙\n丙\n丁", **options})
    assert response.status_code == 302, _errors(response.content.decode())
    event = Event.objects.get()
    assert (event.preset, event.options) == (preset, expected)
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=1)
    (table,) = drawn.tables.all()
    assert {key: table.session.options[key] for key in expected} == expected


def test_a_form_posted_without_the_options_takes_the_preset_s(owner_client):
    client, club, _ = owner_client
    assert client.post(_url(club) + "&preset=本溪 300", {**BODY, "preset": "本溪 300"}).status_code == 302
    event = Event.objects.get()
    assert (event.preset, event.options["target"]) == ("本溪 300", 300)


@pytest.mark.parametrize(
    ("lang", "fanbei", "words"),
    [
        ("en", "7", ["Doubling line"]),
        ("zh-hans", "7", ["翻倍线"]),
        ("en", "", ["This field is required"]),
    ],
)
def test_a_refused_option_is_shown_beside_its_field_in_the_reader_s_language(owner_client, lang, fanbei, words):
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get(_url(club)).content.decode()
    response = client.post(_url(club), {**BODY, **_options_posted(page), "option_fanbei": [fanbei]})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    errors = _errors(page)
    assert "option-fanbei-error" in errors and all(word in errors for word in words)
    assert 'aria-describedby="option-fanbei-error"' in page
    assert not Event.objects.exists()


@pytest.mark.parametrize(("lang", "words"), [("en", "ladder must rise"), ("zh-hans", "选项不一致：级牌顺序应从低到高")])
def test_an_option_the_rules_refuse_is_shown_beside_its_field(owner_client, lang, words):
    """A ladder of no levels passes the form (each box may be unticked) but not the rules: their message, by the
    ladder's boxes."""
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    url = reverse("event_new", args=[club.slug]) + "?variant=shengji"
    page = client.get(url).content.decode()
    (preset,) = re.findall(r'name="preset" value="([^"]*)"', page) or [""]
    options = {name: value for name, value in _options_posted(page).items() if name != "option_ladder"}
    body = {**BODY, "preset": html.unescape(preset), **options}
    response = client.post(url, body)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    errors = _errors(page)
    assert "option-ladder-error" in errors and words in errors.split("option-ladder-error")[1].split("option-")[0]
    assert '<details class="advanced" open>' in page
    assert not Event.objects.exists()
