"""The site's URLs plus one bare DRF create: the floor `bench/ledger.py` measures hand entry against."""

from __future__ import annotations

from django.urls import include, path
from rest_framework import serializers
from rest_framework.generics import CreateAPIView
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


urlpatterns = [
    path("bench/bare/", BareCreate.as_view()),
    path("", include("baifen_ledger.urls")),
]
