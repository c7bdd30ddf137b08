"""Hands through the API: record (idempotent with a key), preview, correct, void, and their refusals."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from settlement import services
from settlement.models import Hand, HandRevision
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session

from .conftest import assert_error, client_for

pytestmark = pytest.mark.django_db


def _hands(table):
    return f"/api/v1/sessions/{table.session.pk}/hands/"


def test_recording_a_hand_answers_with_its_result(table):
    response = table.client("scorekeeper").post(_hands(table), BENXI_EXAMPLE[2], format="json")
    assert response.status_code == 201 and "Idempotent-Replayed" not in response
    body = response.json()
    assert (body["n"], body["revision"], body["is_void"], body["input"]) == (3, 1, False, BENXI_EXAMPLE[2])
    # Worked by hand (rules/baifen.md): B makes 90 clean, +200; A +0; B reaches 130.
    result = body["result"]
    assert (result["n"], result["outcome"], result["deltas"], result["totals"]) == (
        3,
        "made",
        [0, 200, 0, 200],
        [100, 130, 100, 130],
    )
    assert body["game_end"] is None
    assert Hand.objects.filter(session=table.session).count() == 3


def test_the_hand_that_ends_a_game_says_so(table):
    client = table.client("owner")
    client.post(_hands(table), BENXI_EXAMPLE[2], format="json")
    body = client.post(_hands(table), BENXI_EXAMPLE[3], format="json").json()
    # B reaches 230 ≥ 205 and wins the 盘 (出锅).
    assert body["game_end"]["winners"] == [1, 3] and body["game_end"]["how"] == "target"


def test_the_same_key_and_hand_again_gives_the_same_response_and_one_hand(table):
    client = table.client("owner")
    first = client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="tap-3")
    again = client.post(
        _hands(table), dict(reversed(BENXI_EXAMPLE[2].items())), format="json", HTTP_IDEMPOTENCY_KEY="tap-3"
    )
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(session=table.session).count() == 3


def test_the_same_key_with_another_hand_is_a_409_and_records_nothing(table):
    client = table.client("owner")
    client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="tap-3")
    response = client.post(
        _hands(table), BENXI_EXAMPLE[2] | {"captured": 5}, format="json", HTTP_IDEMPOTENCY_KEY="tap-3"
    )
    body = assert_error(response, 409, "client_key.reused", hand=3, field="Idempotency-Key")
    assert "hand 3" in body["message"]
    assert Hand.objects.filter(session=table.session).count() == 3


def test_a_key_too_long_is_refused(table):
    client = table.client("owner")
    response = client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="k" * 256)
    assert_error(response, 400, "client_key.invalid", field="Idempotency-Key")
    assert Hand.objects.filter(session=table.session).count() == 2


def test_a_key_past_the_hands_own_64_characters_still_replays(table):
    client = table.client("owner")
    first = client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="k" * 255)
    again = client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="k" * 255)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(session=table.session).count() == 3


def test_a_retry_after_the_session_closed_still_gets_its_answer(table):
    client = table.client("owner")
    first = client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="before")
    services.session_close(session=table.session, user=table.owner)
    assert (
        client.post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="before").json()
        == first.json()
    )
    late = client.post(_hands(table), BENXI_EXAMPLE[3], format="json", HTTP_IDEMPOTENCY_KEY="after")
    assert_error(late, 409, "session.closed", field="session")


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        ({"declarer": 3, "bid": 80, "captured": 12}, "points.not_multiple_of_5", "captured"),
        ({"declarer": 3, "bid": 80, "captured": 105}, "points.over_deck", "captured"),
        ({"declarer": 3, "bid": "80", "captured": 10}, "value.not_integer", "bid"),
        ({"declarer": 3, "captured": 10}, "field.required", "bid"),
        ({"declarer": 7, "bid": 80, "captured": 10}, "seat.invalid", "declarer"),
        ({"declarer": 3, "bid": 80, "captured": 10, "partner": 1}, "field.unknown", "partner"),
        ([1, 2], "value.not_object", "hand"),
    ],
)
def test_a_hand_the_rules_refuse_is_a_400_naming_the_hand_and_the_field(table, hand, code, field):
    response = table.client("owner").post(_hands(table), hand, format="json")
    assert_error(response, 400, code, hand=3, field=field)
    assert Hand.objects.filter(session=table.session).count() == 2


def test_a_nul_character_is_refused_before_it_reaches_the_ledger(table):
    response = table.client("owner").post(
        f"/api/v1/sessions/{table.session.pk}/hands/1/void/", {"reason": "oops\x00"}, format="json"
    )
    assert_error(response, 400, "null_characters_not_allowed", field="reason")
    response = table.client("owner").post(_hands(table), BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="a\x00")
    assert_error(response, 400, "null_characters_not_allowed", field="Idempotency-Key")
    assert HandRevision.objects.filter(hand__session=table.session).count() == 2


def test_a_body_that_is_not_json_is_a_400(table):
    response = table.client("owner").post(_hands(table), "{bad", content_type="application/json")
    assert_error(response, 400, "parse_error")


def test_the_preview_is_the_results_with_the_hand_added_and_writes_nothing(table):
    response = table.client("viewer").post(_hands(table) + "preview/", BENXI_EXAMPLE[2], format="json")
    assert response.status_code == 200
    body = response.json()
    assert [hand["n"] for hand in body["hands"]] == [1, 2, 3]
    assert body["totals"] == [100, 130, 100, 130]
    assert Hand.objects.filter(session=table.session).count() == 2


def test_the_preview_of_a_correction_replaces_that_hand(table):
    correction = BENXI_EXAMPLE[0] | {"captured": 0}
    body = table.client("owner").post(_hands(table) + "preview/?number=1", correction, format="json").json()
    # 80 clean scores 100 in 本溪; then B breaks 85 with 20 captured: A 100 + 20.
    assert [hand["deltas"][0] for hand in body["hands"]] == [100, 20]


def test_a_preview_the_rules_refuse_names_the_hand(table):
    response = table.client("owner").post(_hands(table) + "preview/", {"declarer": 3, "bid": 80}, format="json")
    assert_error(response, 400, "field.required", hand=3, field="captured")


def test_correcting_a_hand_makes_a_revision_and_replays_the_rest(table):
    url = f"/api/v1/sessions/{table.session.pk}/hands/1/correct/"
    body = {"hand": BENXI_EXAMPLE[0] | {"captured": 0}, "reason": "nothing was captured"}
    response = table.client("scorekeeper").post(url, body, format="json")
    assert response.status_code == 200, response.content
    hand = response.json()
    assert (hand["n"], hand["revision"], hand["input"]["captured"]) == (1, 2, 0)
    assert hand["result"]["deltas"] == [100, 0, 100, 0]
    totals = table.client("owner").get(f"/api/v1/sessions/{table.session.pk}/").json()["totals"]
    assert totals == [120, -85, 120, -85]


@pytest.mark.parametrize(
    ("body", "status", "code", "hand", "field"),
    [
        ({"hand": BENXI_EXAMPLE[0] | {"captured": 0}}, 400, "reason.required", None, "reason"),
        ({"hand": BENXI_EXAMPLE[0], "reason": "same"}, 400, "hand.unchanged", 1, "hand"),
        ({"hand": BENXI_EXAMPLE[0] | {"bid": 75}, "reason": "x"}, 400, "bid.out_of_range", 1, "bid"),
        ({"reason": "no hand"}, 400, "value.not_object", 1, "hand"),
        (["not", "an", "object"], 400, "body.not_object", None, None),
    ],
)
def test_a_bad_correction_is_refused(table, body, status, code, hand, field):
    url = f"/api/v1/sessions/{table.session.pk}/hands/1/correct/"
    assert_error(table.client("owner").post(url, body, format="json"), status, code, hand=hand, field=field)
    assert HandRevision.objects.filter(hand__session=table.session).count() == 2


def test_correcting_a_hand_that_does_not_exist_is_a_404(table):
    url = f"/api/v1/sessions/{table.session.pk}/hands/9/correct/"
    response = table.client("owner").post(url, {"hand": BENXI_EXAMPLE[0], "reason": "x"}, format="json")
    assert_error(response, 404, "hand.not_found", hand=9, field="number")


def test_voiding_a_hand_keeps_its_number_and_stops_it_counting(table):
    client = table.client("owner")
    response = client.post(f"/api/v1/sessions/{table.session.pk}/hands/2/void/", {"reason": "twice"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["created"] < body["updated"]  # recorded, then voided
    assert {k: v for k, v in body.items() if k not in ("created", "updated")} == {
        "n": 2,
        "revision": 2,
        "is_void": True,
        "variant": "baifen.benxi",
        "input": None,
        "result": None,
        "game_end": None,
    }
    assert client.get(f"/api/v1/sessions/{table.session.pk}/").json()["totals"] == [80, 15, 80, 15]
    again = client.post(f"/api/v1/sessions/{table.session.pk}/hands/2/void/", {"reason": "twice"}, format="json")
    assert_error(again, 409, "hand.already_void", hand=2, field="number")
    no_reason = client.post(f"/api/v1/sessions/{table.session.pk}/hands/1/void/", {}, format="json")
    assert_error(no_reason, 400, "reason.required", field="reason")


def test_a_scorekeeper_cannot_correct_a_closed_session_but_the_owner_can(table):
    services.session_close(session=table.session, user=table.owner)
    url = f"/api/v1/sessions/{table.session.pk}/hands/2/void/"
    assert_error(
        table.client("scorekeeper").post(url, {"reason": "x"}, format="json"), 409, "session.closed", field="session"
    )
    assert table.client("owner").post(url, {"reason": "x"}, format="json").status_code == 200


def test_errors_speak_the_requests_language(table):
    url = f"/api/v1/sessions/{table.session.pk}/hands/9/void/"
    en = table.client("owner", lang="en").post(url, {"reason": "x"}, format="json").json()["message"]
    zh = table.client("owner", lang="zh-hans").post(url, {"reason": "x"}, format="json").json()["message"]
    assert (en, zh) == ("there is no hand 9 in this session", "这一场没有第 9 局")
    anonymous = table.client("anonymous", lang="zh-hans").get("/api/v1/clubs/").json()["message"]
    assert anonymous == "身份认证信息未提供。"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need a database with row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_of_one_key_record_one_hand():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    url = f"/api/v1/sessions/{session.pk}/hands/"
    clients = [client_for(owner) for _ in range(6)]
    barrier = threading.Barrier(6)
    responses, errors = [], []

    def tap(client, key, hand):
        try:
            barrier.wait()
            responses.append((key, client.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY=key)))
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    hand = {"declarer": 1, "bid": 85, "captured": 20}
    jobs = [(clients[i], "double-tap", hand) for i in range(4)]
    jobs += [(clients[4], "other-1", hand | {"captured": 25}), (clients[5], "other-2", hand | {"captured": 30})]
    threads = [threading.Thread(target=tap, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(response.status_code == 201 for _, response in responses)
    same = [response.json() for key, response in responses if key == "double-tap"]
    assert len(same) == 4 and all(body == same[0] for body in same)
    assert sum("Idempotent-Replayed" not in response for key, response in responses if key == "double-tap") == 1
    # Three hands in all, numbered without gaps: the session lock serializes writers.
    assert sorted(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1, 2, 3]
    assert Hand.objects.get(session=session, client_key="double-tap").revisions.count() == 1


def test_a_six_player_shengji_hand_with_seats_past_3_and_a_tractor_kou_di_is_recorded(table):
    session = make_session(
        table.club,
        table.owner,
        variant="shengji",
        options={"shuai_penalty": 10},
        players=["甲", "乙", "丙", "丁", "戊", "己"],
    )
    hand = {
        "declarer": 4,
        "captured": 60,
        "bottom_points": 25,
        "kou_di": True,
        "kou_cards": 4,  # a two-pair tractor led to the last trick
        "kou_unit": 4,
        "penalties": [{"seat": 5, "kind": "shuai"}],
    }
    response = table.client("scorekeeper").post(f"/api/v1/sessions/{session.pk}/hands/", hand, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["input"] == hand
    # Worked by hand (shengji.md), 6 players, 3 decks: T = 40 × 3 = 120, d = 20 × 3 = 60, z = 1.
    # Declaring team 0 + 2 + 4 (戊 declares), capture team 1 + 3 + 5.
    # m = 2N = 2 × 4 = 8 ("times", "cards"); s = 60 + 25 × 8 = 260;
    # P = 10 × (0 declaring − 1 capture) = −10 → s = 250 ≥ 120: the capture team takes over and goes
    # up max(0, ⌊(250 − 120) / 60⌋ − 1 + 1) = 2, from 2 to 4; next declarer 戊's 下家, seat 5 (己).
    result = body["result"]
    assert (result["outcome"], result["declarer"], result["next_declarer"]) == ("capture_up", 4, 5)
    assert result["deltas"] == [0, 2, 0, 2, 0, 2]
    assert result["levels"] == ["2", "4", "2", "4", "2", "4"]
    assert result["tags"] == ["抠底", "甩牌"]
    steps = " | ".join(result["steps"])
    assert "captured 60 + bottom 25 × 8 = 260" in steps
    assert "failed throws: declaring team 0, capture team 1, 10 each: −10 → 250" in steps


def test_a_seat_past_the_sessions_players_is_refused_by_the_rules(table):
    # The schema allows seats 0–5 (six players at most); a four-player session has seats 0–3.
    hand = {"declarer": 4, "bid": 80, "captured": 10}
    response = table.client("scorekeeper").post(_hands(table), hand, format="json")
    assert_error(response, 400, "seat.invalid", hand=3, field="declarer")
