from django.contrib import admin
from django.urls import include, path

from settlement.web.forms.login import AdminLoginForm

from . import views

admin.site.login_form = AdminLoginForm
urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("api/v1/", include("settlement.api.urls")),
    path("", include("settlement.urls")),
]

handler400 = "baifen_ledger.views.bad_request"
handler403 = "baifen_ledger.views.permission_denied"
handler404 = "baifen_ledger.views.page_not_found"
handler500 = "baifen_ledger.views.server_error"
