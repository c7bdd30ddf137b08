"""The site's URLs plus two that fail, to see what a 500 looks like (tests only)."""

from django.urls import path

from baifen_ledger.urls import handler400, handler403, handler404, handler500, urlpatterns  # noqa: F401


def boom(request):
    raise RuntimeError("boom: a bug in a view")


urlpatterns = [path("boom/", boom), path("api/v1/boom/", boom), *urlpatterns]
