"""The engine's self-description over the API: variants with their options, and the next hand's entry."""

from __future__ import annotations

from settlement.rules.registry import VARIANTS


def test_the_variants_list_every_variant_with_counts_presets_and_options(table):
    response = table.client("viewer").get("/api/v1/variants/")
    assert response.status_code == 200
    page = response.json()
    assert (page["count"], page["next"], page["previous"]) == (len(VARIANTS), None, None)
    body = {v["key"]: v for v in page["results"]}
    assert list(body) == list(VARIANTS)
    biaofen = body["biaofen"]
    assert biaofen["player_counts"] == [3, 4]
    dang = next(o for o in biaofen["options"] if o["key"] == "dang_steps")
    # rules/biaofen.md: 3 players climb faster
    assert dang["kind"] == "integer_list" and dang["defaults"] == {"3": [30, 20], "4": [40, 30, 20]}
    benxi = body["baifen.benxi"]
    assert [p["key"] for p in benxi["presets"]] == ["本溪 205", "本溪 300"]
    assert benxi["presets"][1]["defaults"]["4"]["target"] == 300
    target = next(o for o in benxi["options"] if o["key"] == "target")
    assert (target["label"], target["step"]) == ("Game target", 5)


def test_the_variants_are_labelled_in_the_requests_language(table):
    body = table.client("viewer", lang="zh-hans").get("/api/v1/variants/").json()
    benxi = next(v for v in body["results"] if v["key"] == "baifen.benxi")
    assert benxi["name"] == "打百分（本溪）"
    assert next(o for o in benxi["options"] if o["key"] == "target")["label"] == "盘分"


def test_the_variants_come_a_page_at_a_time(table):
    client = table.client("viewer")
    keys = list(VARIANTS)
    first = client.get("/api/v1/variants/?limit=2").json()
    assert first["count"] == len(keys) and [v["key"] for v in first["results"]] == keys[:2]
    assert first["previous"] is None and first["next"].endswith("/api/v1/variants/?limit=2&offset=2")
    second = client.get(first["next"]).json()
    assert [v["key"] for v in second["results"]] == keys[2:4]
    assert second["previous"].endswith("/api/v1/variants/?limit=2")
    assert client.get("/api/v1/variants/?limit=0").status_code == 400


def test_the_entry_describes_the_next_hand_of_the_session(table):
    response = table.client("viewer").get(f"/api/v1/sessions/{table.session.pk}/entry/")
    assert response.status_code == 200
    body = response.json()
    # two hands recorded with dealers 0 and 1: the third is dealt by seat 2 (baifen.md, next_seat)
    assert (body["number"], body["dealer"]) == (3, 2)
    assert [f["name"] for f in body["fields"]] == ["dealer", "declarer", "bid", "forced", "captured", "kou"]
    dealer = body["fields"][0]
    assert dealer["default"] == 2 and [c["label"] for c in dealer["choices"]] == [
        s.player.name for s in table.session.seats.order_by("seat")
    ]
    assert [r["value"] for r in body["redeal_reasons"]] == ["all_pass", "no_trump_no_points", "misdeal"]
    # Each choice's value typed as its field takes it: seats and bids integers, a choice its text.
    fields = {f["name"]: f for f in body["fields"]}
    assert [c["value"] for c in fields["dealer"]["choices"]] == [0, 1, 2, 3]
    assert {type(c["value"]) for c in fields["bid"]["choices"]} == {int} and fields["bid"]["choices"]
    assert {type(c["value"]) for c in fields["kou"]["choices"]} == {str} and fields["kou"]["choices"]
    assert next(b for b in body["bids"] if b["bid"] == 80)["places"] == [0, 1]  # places 2 and 3 bid ≥ 85


def test_the_entry_of_another_clubs_session_is_not_found(table):
    response = table.client("outsider").get(f"/api/v1/sessions/{table.session.pk}/entry/")
    assert response.status_code == 404


def test_the_description_needs_a_login(table):
    assert table.client("anonymous").get("/api/v1/variants/").status_code == 401
