"""Every variant the engine knows, written out by hand: no discovery, no magic."""

from __future__ import annotations

from collections.abc import Mapping

from . import baifen, biaofen, erguai, gunzi, hongxingwu, shengji
from .base import Variant

VARIANTS: Mapping[str, Variant] = {
    variant.key: variant
    for variant in (
        baifen.BENXI,
        baifen.FUSHUN,
        baifen.SHENYANG,
        baifen.CLASSIC,
        erguai.ERGUAI,
        biaofen.BIAOFEN,
        hongxingwu.HONGXINGWU,
        gunzi.GUNZI,
        shengji.SHENGJI,
    )
}
