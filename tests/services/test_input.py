"""Bad input is a `LedgerError` naming the field and writes nothing — never a crash further in.

Deep nesting (Python's `json` recurses), lone surrogates (cannot be encoded to
UTF-8), control characters, over-long texts, look-alike names and sessions
past `BAIFEN_MAX_HANDS`.
"""

from __future__ import annotations

import unicodedata

import pytest

from settlement import services
from settlement.ledger.values import JSON_DEPTH_MAX
from settlement.models import Hand, Player, Session
from tests.factories import (
    BENXI_EXAMPLE,
    NAMES,
    make_club,
    make_member,
    make_player,
    make_recorded_session,
    record_hands,
    written,
)

pytestmark = pytest.mark.django_db


def deep(levels: int, leaf=0):
    """`levels` nested lists around `leaf`."""
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


DOCUMENT = {"variant": "baifen.benxi", "players": list(NAMES), "hands": BENXI_EXAMPLE[:2]}


@pytest.fixture
def table():
    return make_recorded_session(BENXI_EXAMPLE[:2])


def _seat_refused(table, how, players=NAMES, **extra):
    """The LedgerError a session opened (`how` "open") or imported with `players` and `extra` is refused with."""
    club, owner, _ = table
    with pytest.raises(services.LedgerError) as caught:
        if how == "open":
            services.session_open(club=club, user=owner, variant="baifen.benxi", players=list(players), **extra)
        else:
            services.session_import(club=club, user=owner, document={**DOCUMENT, "players": list(players), **extra})
    return caught.value


# Each write with a value put in where a client can put it: (call, field the refusal names).
def _record(table, hand):
    _, owner, session = table
    services.hand_record(session=session, user=owner, hand_input=hand)


def _preview(table, hand):
    services.hand_preview(session=table[2], hand_input=hand)


def _preview_next(table, hand):
    services.hand_preview_next(session=table[2], hand_input=hand)


def _correct(table, hand):
    _, owner, session = table
    services.hand_correct(session=session, user=owner, number=1, hand_input=hand, reason="x")


def _open_with_options(table, options):
    club, owner, _ = table
    services.session_open(club=club, user=owner, variant="baifen.benxi", players=list(NAMES), options_overrides=options)


def _import(table, document):
    club, owner, _ = table
    services.session_import(club=club, user=owner, document=document)


@pytest.mark.parametrize(
    "write, value, field",
    [
        (_record, {"penalties": deep(5000)}, "penalties" + "[0]" * (JSON_DEPTH_MAX - 1)),
        (_preview, {"penalties": deep(5000)}, "penalties" + "[0]" * (JSON_DEPTH_MAX - 1)),
        (_correct, {"penalties": deep(5000)}, "penalties" + "[0]" * (JSON_DEPTH_MAX - 1)),
        (_open_with_options, {"clean": deep(5000)}, "options.clean" + "[0]" * (JSON_DEPTH_MAX - 1)),
        (_import, {**DOCUMENT, "options": {"x": deep(5000)}}, "options.x" + "[0]" * (JSON_DEPTH_MAX - 2)),
        (_record, deep(5000), "[0]" * JSON_DEPTH_MAX),
    ],
    ids=["record", "preview", "correct", "open-options", "import", "record-bare-list"],
)
def test_a_value_nested_5000_deep_is_refused_at_the_bound(table, write, value, field):
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        write(table, value)
    assert (caught.value.code, caught.value.field, caught.value.params) == (
        "value.too_deep",
        field,
        {"limit": JSON_DEPTH_MAX},
    )
    assert written() == before


def test_nesting_up_to_the_bound_is_not_refused_for_its_depth(table):
    # 32 levels in all (the hand object is the first): the rules refuse it, not the depth check.
    with pytest.raises(services.LedgerError) as caught:
        _record(table, {"penalties": deep(JSON_DEPTH_MAX - 1)})
    assert caught.value.code != "value.too_deep"


@pytest.mark.parametrize("bad", ["\ud800", "\udfff", "\x00", "\x07", "\t", "\n", "\x7f", "\x85"])
@pytest.mark.parametrize(
    "write, value, field",
    [
        (_record, lambda c: {"declarer": 1, "bid": 85, f"ka{c}": 1}, "hand"),
        (_record, lambda c: {"declarer": 1, "bid": 85, "kou": f"side{c}"}, "kou"),
        (_preview, lambda c: {"penalties": [{"kind": c}]}, "penalties[0].kind"),
        (_preview, lambda c: {f"{c}": 1}, "hand"),
        (_preview_next, lambda c: {f"{c}": 1}, "hand"),
        (_correct, lambda c: {f"{c}": 1}, "hand"),
        (_open_with_options, lambda c: {f"clean{c}": 1}, "options"),
        (_import, lambda c: {**DOCUMENT, "players": ["甲", "乙", f"丙{c}", "丁"]}, "players[2]"),
        (_import, lambda c: {**DOCUMENT, "venue": f"一号桌{c}"}, "venue"),
        (_import, lambda c: {**DOCUMENT, "hands": [{**BENXI_EXAMPLE[0], c: 0}]}, "hands[0]"),
        (_import, lambda c: {**DOCUMENT, f"x{c}": 0}, "document"),
    ],
    ids=[
        "hand-key",
        "hand-value",
        "preview",
        "preview-key",
        "preview-next-key",
        "correct-key",
        "option-key",
        "name",
        "venue",
        "document-hand-key",
        "document-key",
    ],
)
def test_a_control_character_or_lone_surrogate_anywhere_is_refused(table, write, value, field, bad):
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        write(table, value(bad))
    assert (caught.value.code, caught.value.field) == ("value.bad_character", field)
    assert written() == before


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"players": ["甲", "乙", "丙\ud800", "丁"]}, "players[2]"),
        ({"players": ["甲", "乙", "丙", "丁"], "venue": "桌\x1b"}, "venue"),
        ({"players": ["甲", "乙", "丙", "丁"], "client_key": "key\ud800"}, "client_key"),
    ],
)
def test_opening_refuses_bad_characters_in_names_venue_and_key(table, kwargs, field):
    club, owner, _ = table
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        services.session_open(club=club, user=owner, variant="baifen.benxi", **kwargs)
    assert caught.value.field == field
    assert caught.value.code in ("value.bad_character", "client_key.invalid")
    assert written() == before


def test_a_record_key_with_a_lone_surrogate_is_refused(table):
    _, owner, session = table
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[2], client_key="k\udc80")
    assert (caught.value.code, caught.value.field) == ("client_key.invalid", "client_key")
    assert Hand.objects.filter(session=session).count() == 2


# --- lengths: the web forms' limits, in the services ---


@pytest.mark.parametrize("write", ["void", "correct"])
def test_a_reason_over_500_characters_is_refused_naming_the_limit(table, write):
    _, owner, session = table
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        if write == "void":
            services.hand_void(session=session, user=owner, number=1, reason="长" * 501)
        else:
            services.hand_correct(session=session, user=owner, number=1, hand_input=BENXI_EXAMPLE[2], reason="长" * 501)
    assert (caught.value.code, caught.value.field, caught.value.params) == ("value.too_long", "reason", {"limit": 500})
    assert "500" in caught.value.message("en")
    assert written() == before


def test_a_reason_of_500_characters_is_kept(table):
    _, owner, session = table
    write = services.hand_void(session=session, user=owner, number=1, reason="长" * 500)
    assert write.revision.reason == "长" * 500


@pytest.mark.parametrize("how", ["open", "import"])
def test_a_venue_over_100_characters_is_refused(table, how):
    error = _seat_refused(table, how, venue="桌" * 101)
    assert (error.code, error.field, error.params) == ("value.too_long", "venue", {"limit": 100})


# --- names ---

ZWSP, BOM, RLO, LRI, PDI = "\u200b", "\ufeff", "\u202e", "\u2066", "\u2069"


@pytest.mark.parametrize(
    "entered, stored",
    [
        ("  老王  ", "老王"),
        (unicodedata.normalize("NFD", "José"), "José"),  # e + combining acute → one é
        (f"老{ZWSP}王", "老王"),
        (f"{BOM}老王", "老王"),
        (f"{RLO}老王", "老王"),
        (f"{LRI}Ann{PDI}", "Ann"),
        ("\u3000老王\u3000", "老王"),  # ideographic spaces
    ],
)
def test_a_new_name_is_stored_cleaned(table, entered, stored):
    club, owner, _ = table
    session = services.session_open(
        club=club, user=owner, variant="baifen.benxi", players=[entered, "乙2", "丙2", "丁2"]
    )
    assert session.seats.get(seat=0).player.name == stored


@pytest.mark.parametrize("name", ["   ", ZWSP, f"{RLO}{PDI} {BOM}"])
@pytest.mark.parametrize("how", ["open", "import"])
def test_a_name_that_is_empty_once_cleaned_is_refused(table, how, name):
    before = written()
    error = _seat_refused(table, how, ["甲", name, "丙", "丁"])
    assert (error.code, error.field) == ("players.name", "players[1]")
    assert written() == before


@pytest.mark.parametrize(
    ("name", "code", "params"),
    [
        (5, "players.name", {}),
        (None, "players.name", {}),
        ("王" * 61, "player.name_too_long", {"limit": 60}),  # `Player.name` holds 60 characters
    ],
)
@pytest.mark.parametrize("how", ["open", "import"])
def test_a_name_that_is_not_text_or_too_long_is_refused_naming_its_seat(table, how, name, code, params):
    before = written()
    error = _seat_refused(table, how, ["甲", "乙", name, "丁"])
    assert (error.code, error.field, error.params) == (code, "players[2]", params)
    assert written() == before


@pytest.mark.parametrize(
    "first, second",
    [
        ("老王", f"老{ZWSP}王"),
        ("Ann", "ann"),
        ("Ann", "ＡＮＮ"),  # full-width
        ("José", unicodedata.normalize("NFD", "José")),
        ("ﬁsh", "fish"),  # ligature
    ],
)
@pytest.mark.parametrize("how", ["open", "import"])
def test_look_alike_names_at_one_table_are_duplicates(table, how, first, second):
    before = written()
    error = _seat_refused(table, how, [first, "乙", second, "丁"])
    assert (error.code, error.field) == ("players.duplicate", "players")
    assert written() == before


@pytest.mark.parametrize("merged_name", ["Ann", "ＡＮＮ"])  # the merged record's name, or a look-alike of it
@pytest.mark.parametrize("how", ["open", "import"])
def test_two_names_of_one_player_through_a_merge_are_duplicates(table, how, merged_name):
    club, owner, _ = table
    services.player_merge(player=make_player(club, "Ann"), into=make_player(club, "王强"), user=owner)
    before = written()
    error = _seat_refused(table, how, [merged_name, "乙", "王强", "丁"])
    assert (error.code, error.field, error.params) == ("players.duplicate", "players", {})
    assert written() == before


@pytest.mark.parametrize(
    "entered",
    [
        unicodedata.normalize("NFD", "José"),
        " José ",
        f"Jo{ZWSP}sé",
        "JOSÉ",  # a look-alike of the one club player
    ],
)
def test_a_name_finds_the_club_player_it_looks_like(table, entered):
    club, owner, _ = table
    jose = make_player(club, "José")
    players_before = Player.objects.count()
    session = services.session_open(club=club, user=owner, variant="baifen.benxi", players=[entered, "甲", "乙", "丙"])
    assert session.seats.get(seat=0).player == jose
    assert Player.objects.count() == players_before


def test_a_name_that_looks_like_two_club_players_finds_neither_and_makes_a_guest(table):
    club, owner, _ = table
    make_player(club, "Ann")
    make_player(club, "ANN")
    session = services.session_open(club=club, user=owner, variant="baifen.benxi", players=["ann", "甲", "乙", "丙"])
    guest = session.seats.get(seat=0).player
    assert (guest.name, guest.is_guest) == ("ann", True)


@pytest.mark.parametrize("stored", [" 老王 ", f"老{ZWSP}王", "老\t王"])
def test_a_club_player_given_as_such_sits_under_the_stored_name_as_it_is(table, stored):
    # A name stored before today's cleaning (or restored from a backup) is not cleaned again, nor refused:
    # the record is the one given, not a new guest under the cleaned name.
    club, owner, _ = table
    wang = make_player(club, stored)
    session = services.session_open(club=club, user=owner, variant="baifen.benxi", players=[wang, "甲", "乙", "丙"])
    assert session.seats.get(seat=0).player == wang
    assert not Player.objects.filter(club=club, name="老王").exists()


def test_the_name_of_a_merged_record_finds_its_survivor_when_a_look_alike_stands_too(table):
    # The exact name comes first: `ANN` was merged into 安, and `Ann` (a look-alike) is another player.
    club, owner, _ = table
    make_player(club, "Ann")
    ann_upper, an = make_player(club, "ANN"), make_player(club, "安")
    services.player_merge(player=ann_upper, into=an, user=owner)
    players_before = Player.objects.count()
    session = services.session_open(club=club, user=owner, variant="baifen.benxi", players=["ANN", "甲", "乙", "丙"])
    assert session.seats.get(seat=0).player == an
    assert Player.objects.count() == players_before


# --- how many hands ---


def test_recording_one_hand_past_the_limit_is_refused(table, settings):
    _, owner, session = table  # 2 hands
    settings.BAIFEN_MAX_HANDS = 3
    services.hand_void(session=session, user=owner, number=2, reason="a void hand still counts")
    record_hands(session, owner, [BENXI_EXAMPLE[2]])
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[3])
    assert (caught.value.code, caught.value.field, caught.value.params) == (
        "session.too_many_hands",
        "hands",
        {"limit": 3},
    )
    assert "3" in caught.value.message("en")
    assert written() == before


def test_the_preview_of_a_new_hand_is_refused_one_hand_past_the_limit(table, settings):
    _, owner, session = table  # 2 hands
    settings.BAIFEN_MAX_HANDS = 3
    # The 3rd hand fits: its preview is given.
    assert services.hand_preview(session=session, hand_input=BENXI_EXAMPLE[2], lang="en")["hands"][-1]["n"] == 3
    record_hands(session, owner, [BENXI_EXAMPLE[2]])
    with pytest.raises(services.LedgerError) as caught:
        services.hand_preview(session=session, hand_input=BENXI_EXAMPLE[3], lang="en")
    assert (caught.value.code, caught.value.params) == ("session.too_many_hands", {"limit": 3})


def test_the_default_limit_is_2000_hands(settings):
    del settings.BAIFEN_MAX_HANDS
    assert services.hands_max() == 2000


def test_importing_one_hand_past_the_limit_is_refused_before_any_hand_is_played(table, settings, monkeypatch):
    club, owner, _ = table
    settings.BAIFEN_MAX_HANDS = 4
    monkeypatch.setattr(services.sessions, "session_replay", lambda doc: pytest.fail("replayed"))
    # Hand 1 is broken too: the limit is what is checked first.
    document = {**DOCUMENT, "hands": [{"bid": "x"}, *BENXI_EXAMPLE[1:5]]}
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        services.session_import(club=club, user=owner, document=document)
    assert (caught.value.code, caught.value.field, caught.value.params) == (
        "session.too_many_hands",
        "hands",
        {"limit": 4},
    )
    assert written() == before


def test_a_document_of_exactly_the_limit_imports(table, settings):
    club, owner, _ = table
    settings.BAIFEN_MAX_HANDS = 5
    write = services.session_import(club=club, user=owner, document={**DOCUMENT, "hands": BENXI_EXAMPLE})
    assert write.session.hands.count() == 5


@pytest.mark.parametrize(
    "document, code",
    [
        ({**DOCUMENT, "options": {"target": float("nan")}}, "value.not_json"),
        ({**DOCUMENT, "options": {"target": float("inf")}}, "value.not_json"),
        ([DOCUMENT], "document.not_object"),
        ("baifen.benxi", "document.not_object"),
    ],
    ids=["nan", "infinity", "list", "text"],
)
def test_a_document_that_is_not_a_json_object_is_refused_naming_the_document(table, document, code):
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        _import(table, document)
    assert (caught.value.code, caught.value.field) == (code, "document")
    assert written() == before


# --- an import under a key ---


def test_imports_without_a_key_are_separate_sessions_even_of_one_document(table):
    club, owner, _ = table
    first = services.session_import(club=club, user=owner, document=DOCUMENT)
    again = services.session_import(club=club, user=owner, document=DOCUMENT)
    assert (first.created, again.created) == (True, True)
    assert again.session.pk != first.session.pk


def test_the_same_import_key_in_another_club_imports_its_own_session(table):
    club, owner, _ = table
    other = make_club(slug="other")
    make_member(other, user=owner)
    first = services.session_import(club=club, user=owner, document=DOCUMENT, client_key="upload-1")
    second = services.session_import(club=other, user=owner, document=DOCUMENT, client_key="upload-1")
    assert second.created is True
    assert (second.session.club_id, first.session.club_id) == (other.pk, club.pk)


def test_the_same_import_under_the_same_key_returns_the_first_session(table):
    club, owner, _ = table
    first = services.session_import(club=club, user=owner, document=DOCUMENT, client_key="upload-1")
    again = services.session_import(
        club=club, user=owner, document=dict(reversed(DOCUMENT.items())), client_key="upload-1"
    )
    assert (first.created, again.created, again.session.pk) == (True, False, first.session.pk)
    assert Session.objects.filter(club=club, client_key="upload-1").count() == 1


@pytest.mark.parametrize(
    "other",
    [
        {"document": {**DOCUMENT, "hands": BENXI_EXAMPLE[:3]}},
        {"document": {**DOCUMENT, "venue": "二号桌"}},
        {"document": DOCUMENT, "close": False},
    ],
    ids=["another-hand", "another-venue", "another-close"],
)
def test_another_import_under_a_used_key_is_refused(table, other):
    club, owner, _ = table
    first = services.session_import(club=club, user=owner, document=DOCUMENT, client_key="upload-1")
    before = written()
    with pytest.raises(services.LedgerError) as caught:
        services.session_import(club=club, user=owner, client_key="upload-1", **other)
    assert (caught.value.code, caught.value.field, caught.value.params["number"]) == (
        "client_key.reused",
        "client_key",
        first.session.pk,
    )
    assert "import" in caught.value.message("en")
    assert written() == before


def test_an_import_under_the_key_of_an_opened_session_is_refused(table):
    club, owner, _ = table
    services.session_open(club=club, user=owner, variant="baifen.benxi", players=list(NAMES), client_key="form-1")
    with pytest.raises(services.LedgerError) as caught:
        services.session_import(club=club, user=owner, document=DOCUMENT, client_key="form-1")
    assert caught.value.code == "client_key.reused"
