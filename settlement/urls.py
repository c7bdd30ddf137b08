from django.contrib.auth import views as auth_views
from django.urls import path

from .web import (
    clubs,
    event_ops,
    event_screens,
    events,
    hands,
    offline,
    players,
    sessions,
    share,
    stats,
    table,
    tokens,
    undo,
    whatif,
)
from .web.forms.login import LoginForm

session = "clubs/<slug:slug>/sessions/<int:session_id>/"
hand = session + "hands/<int:number>/"
event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns = [
    path("", clubs.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="settlement/login.html", authentication_form=LoginForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", tokens.api_tokens, name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", tokens.api_token_revoke, name="api_token_revoke"),
    path("clubs/<slug:slug>/", clubs.club_home, name="club_home"),
    path("clubs/<slug:slug>/history/", clubs.club_history, name="club_history"),
    path("clubs/<slug:slug>/players/<int:player_id>/", players.player_detail, name="player_detail"),
    path("clubs/<slug:slug>/players/<int:player_id>/rename/", players.player_rename, name="player_rename"),
    path("clubs/<slug:slug>/players/<int:player_id>/merge/", players.player_merge, name="player_merge"),
    path("clubs/<slug:slug>/leaderboard/", players.club_leaderboard, name="club_leaderboard"),
    path("clubs/<slug:slug>/standings/", stats.standings, name="standings"),
    path("clubs/<slug:slug>/standings.csv", stats.standings_download, {"kind": "csv"}, name="standings_csv"),
    path("clubs/<slug:slug>/standings.xlsx", stats.standings_download, {"kind": "xlsx"}, name="standings_xlsx"),
    path("clubs/<slug:slug>/events/", events.event_list, name="event_list"),
    path("clubs/<slug:slug>/events/new/", events.event_new, name="event_new"),
    path(event, events.event_detail, name="event_detail"),
    path(event + "players/", events.event_check_in, name="event_check_in"),
    path(event + "leave/", events.event_leave, name="event_leave"),
    path(event + "rounds/", events.event_draw, name="event_draw"),
    path(event + "adjustments/", events.event_adjust, name="event_adjust"),
    path(event + "finish/", event_ops.event_finish, name="event_finish"),
    path(event + "substitutes/", event_ops.event_substitute, name="event_substitute"),
    path(event + "rounds/<int:n>/late/", event_ops.event_round_late, name="event_round_late"),
    path(event + "screen/", event_screens.event_screen, name="event_screen"),
    path(event + "screen/live/", event_screens.event_screen_live, name="event_screen_live"),
    path(event + "rounds/<int:n>/cards/", event_screens.event_cards, name="event_cards"),
    path(event + "results/", event_screens.event_results, name="event_results"),
    path("clubs/<slug:slug>/sessions/new/", sessions.session_new, name="session_new"),
    path(session, sessions.session_detail, name="session_detail"),
    path(session + "export/", sessions.session_export, name="session_export"),
    path(session + "close/", sessions.session_close, name="session_close"),
    path(session + "close/confirm/", sessions.session_close_confirm, name="session_close_confirm"),
    path(session + "reopen/", sessions.session_reopen, name="session_reopen"),
    path(session + "what-if/", whatif.session_what_if, name="session_what_if"),
    path(hand, hands.hand_detail, name="hand_detail"),
    path(session + "table/", table.table, name="table"),
    path(session + "table/preview/", table.table_preview, name="table_preview"),
    path(session + "table/close/", table.table_close, name="table_close"),
    path(session + "table/undo/", undo.table_undo, name="table_undo"),
    path(session + "standings.svg", table.standings_picture, name="standings_picture"),
    path(session + "table/hands/<int:number>/", hands.table_fix, name="table_fix"),
    path(session + "table/sync/", offline.table_sync, name="table_sync"),
    path(session + "share/", share.share_create, name="share_create"),
    path(session + "share/revoke/", share.share_revoke, name="share_revoke"),
    path(session + "share/card/", share.share_card, name="share_card"),
    # The read-only table for anyone with the link (no login).
    path("s/<str:token>/", share.share_page, name="share"),
    path("s/<str:token>/live/", share.share_live, name="share_live"),
    # The table page offline: its service worker (from the root, to control the table) and the app manifest.
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="web_manifest"),
]
