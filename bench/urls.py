"""The site's URLs plus a bare DRF create and read: the floor `bench/ledger.py` and `bench/load.py` measure against."""

from __future__ import annotations

from django.urls import include, path
from rest_framework import serializers
from rest_framework.generics import CreateAPIView, RetrieveAPIView
from rest_framework.permissions import IsAuthenticated

from settlement.models import Club


class ClubCreate(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ("name", "slug")


class BareCreate(CreateAPIView):
    """A plain DRF create of one row: authentication, parsing, validation, one INSERT, a JSON answer."""

    serializer_class = ClubCreate
    permission_classes = (IsAuthenticated,)


class BareRead(RetrieveAPIView):
    """A plain DRF read of one row by its slug: authentication, one SELECT, a JSON answer."""

    serializer_class = ClubCreate
    permission_classes = (IsAuthenticated,)
    queryset = Club.objects.all()
    lookup_field = "slug"


urlpatterns = [
    path("bench/bare/", BareCreate.as_view()),
    path("bench/bare/<slug:slug>/", BareRead.as_view()),
    path("", include("baifen_ledger.urls")),
]
