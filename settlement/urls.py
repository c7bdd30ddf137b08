from django.contrib.auth import views as auth_views
from django.urls import path

from . import offline_views, player_views, share_views, stats_views, table_views, token_views, views
from .forms.login import LoginForm

session = "clubs/<slug:slug>/sessions/<int:session_id>/"
hand = session + "hands/<int:number>/"

urlpatterns = [
    path("", views.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="settlement/login.html", authentication_form=LoginForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", token_views.api_tokens, name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", token_views.api_token_revoke, name="api_token_revoke"),
    path("clubs/<slug:slug>/", views.club_home, name="club_home"),
    path("clubs/<slug:slug>/history/", views.club_history, name="club_history"),
    path("clubs/<slug:slug>/players/<int:player_id>/", views.player_detail, name="player_detail"),
    path("clubs/<slug:slug>/players/<int:player_id>/rename/", player_views.player_rename, name="player_rename"),
    path("clubs/<slug:slug>/players/<int:player_id>/merge/", player_views.player_merge, name="player_merge"),
    path("clubs/<slug:slug>/leaderboard/", player_views.club_leaderboard, name="club_leaderboard"),
    path("clubs/<slug:slug>/standings/", stats_views.standings, name="standings"),
    path("clubs/<slug:slug>/standings.csv", stats_views.standings_download, {"kind": "csv"}, name="standings_csv"),
    path("clubs/<slug:slug>/standings.xlsx", stats_views.standings_download, {"kind": "xlsx"}, name="standings_xlsx"),
    path("clubs/<slug:slug>/sessions/new/", views.session_new, name="session_new"),
    path(session, views.session_detail, name="session_detail"),
    path(session + "export/", views.session_export, name="session_export"),
    path(session + "close/", views.session_close, name="session_close"),
    path(session + "close/confirm/", views.session_close_confirm, name="session_close_confirm"),
    path(session + "reopen/", views.session_reopen, name="session_reopen"),
    path(hand, table_views.hand_detail, name="hand_detail"),
    path(session + "table/", table_views.table, name="table"),
    path(session + "table/preview/", table_views.table_preview, name="table_preview"),
    path(session + "table/close/", table_views.table_close, name="table_close"),
    path(session + "table/hands/<int:number>/", table_views.table_fix, name="table_fix"),
    path(session + "table/sync/", offline_views.table_sync, name="table_sync"),
    path(session + "share/", share_views.share_create, name="share_create"),
    path(session + "share/revoke/", share_views.share_revoke, name="share_revoke"),
    path(session + "share/card/", share_views.share_card, name="share_card"),
    # The read-only table for anyone with the link (no login).
    path("s/<str:token>/", share_views.share_page, name="share"),
    path("s/<str:token>/live/", share_views.share_live, name="share_live"),
    # The table page offline: its service worker (from the root, to control the table) and the app manifest.
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline_views.manifest, name="web_manifest"),
]
