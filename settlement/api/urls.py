"""`/api/v1/`: the ledger's REST API, its OpenAPI schema and Swagger UI (both public)."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import (
    change_views,
    club_views,
    describe,
    errors,
    event_draw_views,
    event_round_views,
    event_share_views,
    event_standing_views,
    event_views,
    league_views,
    player_views,
    session_views,
    whatif_views,
)

session = "sessions/<int:session_id>/"
hand = session + "hands/<int:number>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves Swagger UI's start-up script from `?script` rather than inline, and our template
    # moves its inline style into a file: the page lives under the site's strict Content-Security-Policy.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api_schema", template_name="api/swagger_ui.html"),
        name="api_docs",
    ),
    path("variants/", describe.variants_list, name="api_variants"),
    path("clubs/", club_views.clubs_list, name="api_clubs"),
    path("clubs/<slug:slug>/players/", club_views.club_players, name="api_club_players"),
    path("clubs/<slug:slug>/players/<int:player_id>/", player_views.player_detail, name="api_player_detail"),
    path("clubs/<slug:slug>/players/<int:player_id>/merge/", player_views.player_merge, name="api_player_merge"),
    path("clubs/<slug:slug>/leaderboard/", player_views.club_leaderboard, name="api_club_leaderboard"),
    path("clubs/<slug:slug>/changes/", change_views.club_changes, name="api_club_changes"),
    path("clubs/<slug:slug>/sessions/", session_views.club_sessions, name="api_club_sessions"),
    path("clubs/<slug:slug>/standings/", club_views.club_standings, name="api_club_standings"),
    path("clubs/<slug:slug>/standings.csv", club_views.club_standings_csv, name="api_club_standings_csv"),
    path("clubs/<slug:slug>/players/<int:player_id>/stats/", club_views.player_stats, name="api_player_stats"),
    path(session, session_views.session_detail, name="api_session_detail"),
    path(session + "export/", session_views.session_export, name="api_session_export"),
    path(session + "entry/", describe.session_entry, name="api_session_entry"),
    path(session + "hands/", session_views.hand_record, name="api_hand_record"),
    path(session + "hands/preview/", session_views.hand_preview, name="api_hand_preview"),
    path(session + "close/", session_views.session_close, name="api_session_close"),
    path(session + "reopen/", session_views.session_reopen, name="api_session_reopen"),
    path(session + "what-if/", whatif_views.session_what_if, name="api_session_what_if"),
    path(hand, session_views.hand_detail, name="api_hand_detail"),
    path(hand + "revisions/", session_views.hand_revisions, name="api_hand_revisions"),
    path(hand + "correct/", session_views.hand_correct, name="api_hand_correct"),
    path(hand + "void/", session_views.hand_void, name="api_hand_void"),
    path("clubs/<slug:slug>/events/", event_views.club_events, name="api_club_events"),
    path("events/<int:event_id>/", event_views.event_detail, name="api_event_detail"),
    path("events/<int:event_id>/players/", event_views.event_players, name="api_event_players"),
    path("events/<int:event_id>/pairs/", event_views.event_pairs, name="api_event_pairs"),
    path("events/<int:event_id>/rounds/", event_draw_views.event_rounds, name="api_event_rounds"),
    path("events/<int:event_id>/adjustments/", event_standing_views.event_adjustments, name="api_event_adjustments"),
    path("events/<int:event_id>/standings/", event_standing_views.event_standings, name="api_event_standings"),
    path("clubs/<slug:slug>/leagues/", league_views.club_leagues, name="api_club_leagues"),
    path("leagues/<int:league_id>/", league_views.league_detail, name="api_league_detail"),
    path("leagues/<int:league_id>/events/", league_views.league_events, name="api_league_events"),
    path("leagues/<int:league_id>/events/remove/", league_views.league_event_remove, name="api_league_event_remove"),
    path("leagues/<int:league_id>/standings/", league_views.league_standings, name="api_league_standings"),
    path("events/<int:event_id>/substitutes/", event_round_views.event_substitutes, name="api_event_substitutes"),
    path("events/<int:event_id>/finish/", event_round_views.event_finish, name="api_event_finish"),
    path("events/<int:event_id>/rounds/<int:n>/late/", event_round_views.event_round_late, name="api_event_round_late"),
    path("events/<int:event_id>/share/", event_share_views.event_share_create, name="api_event_share_create"),
    path("events/<int:event_id>/share/revoke/", event_share_views.event_share_revoke, name="api_event_share_revoke"),
    path("tokens/", club_views.tokens, name="api_tokens"),
    path("tokens/<int:token_id>/", club_views.token_detail, name="api_token_detail"),
    # Last: an address without its trailing slash (Django's APPEND_SLASH would answer a POST with a 301 that
    # loses the body, or a 500 under DEBUG).
    re_path(r"^(?P<path>.*[^/])$", errors.slash_missing),
]
