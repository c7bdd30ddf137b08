"""What options, presets and a hand's fields are called, in zh-Hans and English.

The opening form, the entry form and the API read these (through `entry.py`).

Keys: `option.<prefix>.<name>` (label), `option.<prefix>.<name>.help` (one line),
`option.<prefix>.<name>.<value>` (a choice's or a key's label), where
`<prefix>` is the variant's `option_texts`; `preset.<variant>.<preset>` names a preset.
"""

from __future__ import annotations

from collections.abc import Mapping

_KOU_KINDS: Mapping[str, tuple[str, str]] = {
    "side": ("抠手（副牌）", "side card (抠手)"),
    "trump": ("抠底（主牌）", "trump (抠底)"),
    "joker": ("抠底（王）", "joker (抠底)"),
}
_KOU_MODE: Mapping[str, tuple[str, str]] = {
    "points": ("只计分", "scores only"),
    "game": ("当盘定输赢", "decides the game at once"),
}
_EXACT: Mapping[str, tuple[str, str]] = {"made": ("算成", "made"), "broken": ("算破", "broken")}
_BY_BID: Mapping[str, tuple[str, str]] = {"ge55": ("叫 55 及以上", "bid ≥ 55"), "lt55": ("叫 55 以下", "bid < 55")}
_ROTATION = ("自由坐庄", "Free declarer")
_ROTATION_HELP = ("允许填的庄家与轮庄不同", "accept an entered declarer that differs from the rotation")
_UNIT_VALUE_HELP = ("结账时每{unit}折合多少钱", "money per {unit}, for the settle-up")
# The level-game house rules (docs/rules/shengji.md, Promotion), shared by 红星五 and 升级.
_LADDER = (
    ("级牌顺序", "Ladder"),
    ("一队从第一级升到最后一级要经过的级，从低到高", "the levels a team climbs, first to last"),
)
_MUST_DEFEND = (
    ("必打关卡", "Levels to defend"),
    (
        "停在这些级上，只有坐庄打过才能再升",
        "a promotion stops at these; only the declaring team's first step leaves one",
    ),
)
_NO_SKIP = (
    ("不许越级", "No skipping"),
    ("升级经过这些级时停在上面", "a promotion never passes these levels: it stops on them"),
)
_FINISH: Mapping[str, tuple[str, str]] = {
    "must_play_ace": ("A必打：打 A 升级才算赢", "must play A: win by a promotion while declaring at A"),
    "pass_ace": ("升过 A 即胜", "any promotion past A wins"),
}


def _entries(prefix: str, texts: Mapping[str, tuple[tuple[str, str], tuple[str, str]]]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for name, (label, help_text) in texts.items():
        out[f"option.{prefix}.{name}"] = label
        out[f"option.{prefix}.{name}.help"] = help_text
    return out


def _values(prefix: str, name: str, values: Mapping[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {f"option.{prefix}.{name}.{value}": label for value, label in values.items()}


def _unit_help(unit_zh: str, unit_en: str) -> tuple[str, str]:
    return (_UNIT_VALUE_HELP[0].format(unit=unit_zh), _UNIT_VALUE_HELP[1].format(unit=unit_en))


OPTION_TEXTS: Mapping[str, tuple[str, str]] = {
    # 打百分, the regions
    **_entries(
        "baifen",
        {
            "target": (
                ("盘分", "Game target"),
                ("一队达到它出锅，跌到负它后门走", "a team at it wins the game, at minus it loses"),
            ),
            "fanbei": (("翻倍线", "Doubling line"), ("抓分达到它按 100 算", "captured points from here count as 100")),
            "clean": (
                ("清（没丢分）得分", "Clean score"),
                ("成且没丢分时庄家方得分，按叫分", "made with nothing captured, by bid"),
            ),
            "clean_forced": (
                ("被迫坐庄的清", "Clean score when forced"),
                ("被迫坐庄时覆盖上一项，按叫分", "laid over the clean score when the declarer was forced"),
            ),
            "broken": (
                ("破的得分", "Broken score"),
                ("破时庄家方得分，按叫分（未列的叫分：负叫分）", "a broken bid's score, by bid (else minus the bid)"),
            ),
            "kou_award": (
                ("抠的奖分", "Last-trick award"),
                ("抓分方抠手 / 抠底时得分", "capture team's score for winning the last trick"),
            ),
            "kou_penalty": (
                ("抠的罚分", "Last-trick penalty"),
                ("抠时庄家方得分（未列的：按破计）", "declarer team's score on a 抠 (else the broken score)"),
            ),
            "kou_mode": (("抠", "Last trick"), ("抠是否当盘定输赢", "whether a 抠 also ends the game")),
            "bid100": (
                ("叫 100", "Bid of 100"),
                ("叫 100 是否当盘定输赢", "whether a 100 bid decides the game at once"),
            ),
            "exact_hundred": (
                ("叫分 + 抓分 = 100", "Bid + captured = 100"),
                ("正好 100 算成还是算破", "exactly 100 is made or broken"),
            ),
            "next_dealer": (("下一庄", "Next dealer"), ("谁下一把发牌", "who deals next")),
        },
    ),
    **_values("baifen", "kou_award", _KOU_KINDS),
    **_values("baifen", "kou_penalty", _KOU_KINDS),
    **_values("baifen", "kou_mode", _KOU_MODE),
    **_values("baifen", "bid100", _KOU_MODE),
    **_values("baifen", "exact_hundred", _EXACT),
    "option.baifen.next_dealer.next_seat": ("下家", "the next seat"),
    # 打百分, friend card
    **_entries(
        "classic",
        {
            "min_bid": (("最低叫分", "Lowest bid"), ("允许的最低叫分", "the lowest bid allowed")),
            "stake": (("注", "Stake"), ("倍数每 1 折合几注", "注 per unit of the multiple")),
            "exact_hundred": (
                ("抓分 = 100 − 叫分", "Captured = 100 − bid"),
                ("正好时算成还是算破", "exactly that is made or broken"),
            ),
            "unit_value": (("每注金额", "Money per 注"), _unit_help("注", "注")),
            "next_dealer": (("下一庄", "Next dealer"), ("谁下一把发牌", "who deals next")),
        },
    ),
    **_values("classic", "exact_hundred", _EXACT),
    "option.classic.next_dealer.next_seat": ("下家", "the next seat"),
    # 打二鬼
    **_entries(
        "erguai",
        {
            "guangtou": (
                ("光头", "Guangtou (光头)"),
                ("闲家没得分时每家输（乘倍数前）", "what each 闲家 loses when they took no points"),
            ),
            "guangtou_mode": (
                ("光头算法", "Guangtou counts"),
                ("光头替代还是加在分差上", "instead of, or on top of, the difference"),
            ),
            "baochang": (
                ("包场线", "Baochang (包场) line"),
                ("闲家得分超过它即包场", "包场 when the 闲家's points are over this"),
            ),
            "xijin": (
                ("喜金", "Xijin (喜金)"),
                ("爆 / 鉤 时其余每家给庄家，不乘倍数", "each other player gives the declarer this on 爆 / 鉤"),
            ),
            "unit_value": (("底金", "Coins per point"), _unit_help("分", "point")),
        },
    ),
    **_values(
        "erguai",
        "guangtou_mode",
        {"replace": ("替代分差", "instead of the difference"), "add": ("加在分差上", "on top of the difference")},
    ),
    **_values(
        "erguai",
        "baochang",
        {
            "80-95": ("叫 80–95", "bid 80–95"),
            "100": ("叫 100", "bid 100"),
            "bao": ("100爆", "100 爆"),
            "gou": ("100鉤", "100 鉤"),
        },
    ),
    **_values("erguai", "xijin", {"bao": ("100爆", "100 爆"), "gou": ("100鉤", "100 鉤")}),
    # 标分
    **_entries(
        "biaofen",
        {
            "round_hands": (
                ("一轮几把", "Hands per round"),
                ("一轮计分的把数（重发不算）", "scored hands in a round; redeals do not count"),
            ),
            "win_base": (
                ("庄胜", "Declarer wins"),
                ("庄胜时每个边家付庄家，按叫分", "each 边家 pays the declarer, by bid"),
            ),
            "xiaoguang": (
                ("小光", "Xiaoguang (小光)"),
                ("边家得分不到叫分一半：每家再付", "the 边家 took at most half the bid: each pays this more"),
            ),
            "daguang": (
                ("大光", "Daguang (大光)"),
                ("边家没得分：每家再付（代替小光）", "the 边家 took nothing: each pays this more instead"),
            ),
            "dang_steps": (
                ("打宕阶梯", "Dang (打宕) steps"),
                ("叫分之后各档的间隔，最后一个重复", "gaps between the thresholds after the bid; the last repeats"),
            ),
            "surrender": (
                ("投降", "Surrender"),
                ("投降时庄家付每个边家，按叫分", "the declarer pays each 边家, by bid"),
            ),
            "unit_value": (("每档金额", "Money per 档"), _unit_help("档", "档")),
            "bomb": (("炸弹", "Bomb"), ("每个炸弹每个边家付庄家", "each 边家 pays the declarer this per bomb")),
            "shuai_declarer": (
                ("庄家甩牌失败", "Declarer's failed throw"),
                ("庄家付每个边家", "the declarer pays each 边家"),
            ),
            "shuai_defender": (
                ("边家甩牌失败", "Defender's failed throw"),
                ("该边家付庄家", "that 边家 pays the declarer"),
            ),
            "misdeal": (("抓牌过多", "Overdrawn deal"), ("该家付其余每家", "that player pays every other player")),
            "streak_from": (
                ("连庄奖起点", "Streak from"),
                ("一轮里第几次做庄起有连庄奖", "a player's declaring from this one in a round on earns the bonus"),
            ),
            "streak_bonus": (("连庄奖", "Streak bonus"), ("每个边家付庄家", "each 边家 pays the declarer")),
            "all_round_bonus": (
                ("一轮全庄奖", "Whole-round bonus"),
                ("一人做满一轮庄：每个边家付他一次", "one player declared the whole round: each pays him once"),
            ),
            "idle_penalty": (
                ("没做庄罚", "Never declared"),
                ("一轮没做过庄的人付其余每家", "a player who never declared in the round pays every other player"),
            ),
        },
    ),
    **_values("biaofen", "win_base", _BY_BID),
    **_values("biaofen", "surrender", _BY_BID),
    # 济源红星五
    **_entries(
        "hxw",
        {
            "level_table": (
                ("升级表", "Level table"),
                (
                    "按抓分方得分定升级；从上台线起抓分方上台，每段再升 1 级",
                    "levels by points; from the takeover line the capture team takes over, +1 per step",
                ),
            ),
            "kou_shapes": (
                ("抠底倍数", "Last-trick multipliers"),
                ("抠底时底分按最后一手的牌型翻倍", "the bottom's points are multiplied by the last trick's shape"),
            ),
            "finish": (("过 A", "Passing A"), ("怎样算赢下一局", "how a game is won")),
            "start_level": (
                ("起始级", "Starting level"),
                (
                    "一局开始时两队的级（不填为级序的第一级）",
                    "both teams' level when a game starts (not given: the ladder's first level)",
                ),
            ),
            "free_declarer": (_ROTATION, _ROTATION_HELP),
            "ladder": _LADDER,
            "must_defend": _MUST_DEFEND,
            "no_skip": _NO_SKIP,
            "kou_multiplier": (
                ("抠底倍数算法", "Multiplier scheme"),
                (
                    "抠底倍数是 2 的幂还是任意偶数",
                    "whether a last-trick multiplier is a power of two or any even number",
                ),
            ),
        },
    ),
    **_values("hxw", "finish", _FINISH),
    **_values(
        "hxw",
        "kou_multiplier",
        {
            "power": ("2 的幂（2、4、8……）", "a power of two (2, 4, 8 …)"),
            "times": ("每人张数 × 2（任意偶数）", "2 × cards each (any even number)"),
        },
    ),
    "option.hxw.level_table.up": (
        "庄家方升级分数段（最低得分 → 升几级）",
        "declaring team's bands (lowest points → levels)",
    ),
    "option.hxw.level_table.switch": ("上台线", "takeover line"),
    "option.hxw.level_table.step": ("每升 1 级的分数", "points per further level"),
    "option.hxw.level_table.capture_base": ("上台线本身升几级", "levels at the takeover line itself"),
    # 打滚子
    **_entries(
        "gunzi",
        {
            "first_level": (
                ("起始级", "Starting level"),
                (
                    "一局开始时两队的级（不填为级序的第一级）",
                    "both teams' level when a game starts (not given: the ladder's first level)",
                ),
            ),
            "last_level": (("出锅级", "Last level"), ("升过这一级即赢下一局", "a team promoted past it wins the game")),
            "threshold": (
                ("上台线", "Takeover line"),
                ("抓分方得分达到它即上台", "capture team's points that take over"),
            ),
            "bottom_multiplier": (
                ("抠底倍数", "Bottom multiplier"),
                ("抠底时底分算几倍", "the bottom's points count this many times on 抠底"),
            ),
            "level_points": (("每级分", "Points per level"), ("每升一级每人得分", "分 per player per level gained")),
            "takeover_points": (("上台分", "Takeover points"), ("上台时每人得分", "分 per player for taking over")),
            "card_points": (("每张贡牌分", "Points per tribute card"), ("进贡每张折合的分", "分 per tribute card")),
            "special_points": (
                ("特殊分", "Special points"),
                ("0 分、300 分、抠出三个大王时每人得分", "分 per player for a special (0, 300, three big jokers)"),
            ),
            "tribute_rounding": (
                ("进贡取整", "Tribute rounding"),
                ("离 80 / 150 每差 10 分一张，零头怎么算", "cards per 10 points short of 80 or over 150"),
            ),
            "unit_value": (("每分金额", "Money per point"), _unit_help("分", "point")),
            "free_declarer": (_ROTATION, _ROTATION_HELP),
            "triple_jokers": (
                ("底牌三王", "Three jokers in the bottom"),
                ("底牌里哪三个王算特殊", "which three jokers in the final bottom are a special"),
            ),
        },
    ),
    **_values(
        "gunzi",
        "triple_jokers",
        {
            "capture_big": ("抓分方抠出三个大王", "three big jokers dug out by the capture team"),
            "both_sides": ("庄家方保底的三个大王也算", "also three big jokers the declaring team keeps"),
            "both_sides_small": ("再加三个小王", "and three small jokers too"),
        },
    ),
    **_values(
        "gunzi",
        "tribute_rounding",
        {
            "floor": ("向下取整（75 分不进贡）", "round down (75 pays none)"),
            "ceil": ("向上取整（75 分进贡 1 张）", "round up (75 pays 1)"),
        },
    ),
    # 升级
    **_entries(
        "shengji",
        {
            "decks": (
                ("几副牌", "Decks"),
                ("每副 100 分；4 人 2 副，6 人 3 副", "100 points each; 2 for 4 players, 3 for 6"),
            ),
            "threshold": (
                ("上台线", "Takeover line"),
                ("抓分方得分达到它即上台；空着按 40 × 副数", "capture team's points that take over; blank: 40 × decks"),
            ),
            "step": (
                ("每级分", "Points per level"),
                ("升级表每段的分数；空着按 20 × 副数", "points per level in the score table; blank: 20 × decks"),
            ),
            "dead_zone": (
                ("上台不升级段数", "Takeover steps with no level"),
                ("从上台线起几段只上台不升级（0：没有）", "steps from the takeover line that gain no level (0: none)"),
            ),
            "kou_multiplier": (
                ("抠底倍数", "Bottom multiplier"),
                ("抠底时底分乘几", "what the bottom's points are multiplied by on 抠底"),
            ),
            "kou_count": (
                ("抠底张数怎么数", "Counting the last trick"),
                ("倍数里的 N 按什么数", "what N in the multiplier counts"),
            ),
            "shuai_penalty": (
                ("甩牌失败罚分", "Failed throw penalty"),
                (
                    "每次甩牌失败的分：庄家方失败加给抓分方，抓分方失败从其得分扣",
                    "points per failed throw: added to the capture team's for a declaring seat, taken off otherwise",
                ),
            ),
            "ladder": _LADDER,
            "must_defend": _MUST_DEFEND,
            "no_skip": _NO_SKIP,
            "finish": (("过 A", "Passing A"), ("怎样算赢下一局", "how a game is won")),
            "jack_back_to_two": (
                ("勾J", "Jack back (勾J)"),
                (
                    "庄家方打 J 时被单 J 抠底，回到第一级",
                    "the last trick won with a single J sends a declaring team at J to the first level",
                ),
            ),
            "free_declarer": (_ROTATION, _ROTATION_HELP),
        },
    ),
    **_values(
        "shengji",
        "kou_multiplier",
        {
            "times": ("2N（张数 × 2）", "2N (twice the cards)"),
            "power": ("2^N（2 的 N 次方）", "2^N (two to the N)"),
            "flat": ("一律 × 2", "always × 2"),
        },
    ),
    **_values(
        "shengji",
        "kou_count",
        {
            "cards": ("最后一墩每人出的张数", "cards each player played to the last trick"),
            "largest_unit": ("首家最大牌型的张数", "cards in the led play's largest unit"),
        },
    ),
    **_values("shengji", "finish", _FINISH),
    # presets
    "preset.baifen.benxi.本溪 205": ("本溪 205", "Benxi, to 205"),
    "preset.baifen.benxi.本溪 300": ("本溪 300", "Benxi, to 300"),
    "preset.baifen.fushun.抚顺 300": ("抚顺 300", "Fushun, to 300"),
    "preset.baifen.fushun.抚顺 500": ("抚顺 500", "Fushun, to 500"),
    "preset.baifen.shenyang.沈阳 250": ("沈阳 250", "Shenyang, to 250"),
    "preset.baifen.classic.经典": ("经典", "Classic"),
    "preset.erguai.初级场": ("初级场（底金 200）", "Beginners' table (200 a point)"),
    "preset.erguai.高级场": ("高级场（底金 1000）", "High table (1000 a point)"),
    "preset.biaofen.标准": ("标准", "Standard"),
    "preset.hongxingwu.济源": ("济源（A必打）", "Jiyuan (must play A)"),
    "preset.hongxingwu.济源（打过 A 即胜）": ("济源（打过 A 即胜）", "Jiyuan (past A wins)"),
    "preset.gunzi.大连": ("大连", "Dalian"),
    "preset.gunzi.大连（75 分进贡 1 张）": ("大连（75 分进贡 1 张）", "Dalian (75 pays one card)"),
    "preset.shengji.拖拉机": ("拖拉机", "Tractor"),
    "preset.shengji.拖拉机.help": (
        "拖拉机：2 到 A，80 分上台，抠底 × 2N，A必打",
        "Tractor: 2 to A, 80 points take over, the bottom × 2N, A must be won as declarers",
    ),
    "preset.shengji.上海80分": ("上海80分", "Shanghai 80 points"),
    "preset.shengji.上海80分.help": (
        "上海80分：2、5、10、K 为必打关卡，从 A 再升即胜",
        "Shanghai 80 points: 2, 5, 10 and K must be defended; any promotion from A wins",
    ),
    "preset.shengji.紅5": ("紅5", "Red 5"),
    "preset.shengji.紅5.help": (
        "紅5：级牌 2、4、6、7、8、9、10、J、Q、K、A，逢 10 和 K 不许越级，底分 × 2",
        "Red 5: levels 2, 4, 6–10, J, Q, K, A; 10 and K may not be skipped; the bottom counts double",
    ),
}


# A hand's fields on the entry: `field.<name>` (label), `field.<name>.help`, `field.<name>.<value>` (a choice).
FIELD_TEXTS: Mapping[str, tuple[str, str]] = {
    "field.dealer": ("头家（先叫）", "Dealer (bids first)"),
    "field.dealer.help": ("发牌后第一个叫分的人", "who bids first after the deal"),
    "field.declarer": ("庄家", "Declarer"),
    "field.declarer.help": ("叫到庄的人", "who won the bidding"),
    "field.tribute": ("进贡", "Tribute"),
    "field.tribute.help": ("上一副定下的进贡，由庄家的上家付", "set by the last hand, paid by the declarer's 上家"),
    "field.tribute.normal": ("照常进贡", "paid"),
    "field.tribute.reversed": ("反贡：进贡的人有三个大王", "reversed: the payer has three big jokers"),
    "field.tribute.cancelled": ("免贡：进贡人的对家有三个大王", "cancelled: the payer's partner has three big jokers"),
    "field.bid": ("叫分", "Bid"),
    "field.bid.help": ("只列出规则在这个位置允许的叫分", "only the bids the rules allow at this place"),
    "field.forced": ("被迫坐庄", "Forced to declare"),
    "field.forced.help": ("前面的人都不叫，轮到的人必须坐庄", "everyone before passed, so this player had to declare"),
    "field.contract": ("合约", "Contract"),
    "field.contract.help": ("叫 100 时可以爆或鉤", "a 100 bid may be 爆 or 鉤"),
    "field.contract.plain": ("普通", "plain"),
    "field.contract.bao": ("100爆", "100 爆"),
    "field.contract.gou": ("100鉤", "100 鉤"),
    "field.partner": ("朋家（叫的牌在谁手里）", "Partner (holds the called card)"),
    "field.partner.help": (
        "叫的牌在庄家自己手里就是 1 打 3",
        "if the declarer holds the called card, it is 1 against 3",
    ),
    "field.partner.none": ("自己打（1 打 3）", "alone (1 against 3)"),
    "field.partner.help.6": (
        "叫的牌在庄家自己手里就是 1 打 5",
        "if the declarer holds the called card, it is 1 against 5",
    ),
    "field.partner.none.6": ("自己打（1 打 5）", "alone (1 against 5)"),
    "field.no_trump_bottom": ("底牌无主（已亮出）", "The bottom had no trump (shown)"),
    "field.no_trump_bottom.help": ("投降或打宕时庄家少付", "the declarer pays less on a surrender or 打宕"),
    "field.surrender": ("投降", "Surrendered"),
    "field.surrender.help": ("庄家不打就认输", "the declarer gave up without playing"),
    "field.bombs": ("庄家打出的炸弹", "Bombs played by the declarer"),
    "field.bombs.help": ("每个炸弹边家另付", "each bomb is paid for separately"),
    "field.captured": ("抓分", "Points captured"),
    "field.captured.help": ("抓分方抓到的分，5 的倍数", "the capture side's points, a multiple of 5"),
    "field.kou_di": ("抠底（抓分方赢了最后一手）", "Capture side won the last trick (抠底)"),
    "field.kou_di.help": ("底牌的分归抓分方，并翻倍", "the bottom's points go to the capture side, multiplied"),
    "field.kou": ("抠（抓分方赢了最后一手）", "Last trick won by the capture side"),
    "field.kou.help": ("用什么牌赢的最后一手", "what won the last trick"),
    "field.kou.side": ("抠手（副牌）", "抠手 (side card)"),
    "field.kou.trump": ("抠底（主牌）", "抠底 (trump)"),
    "field.kou.joker": ("抠底（王）", "抠底 (joker)"),
    "field.kou_cards": ("最后一墩每人张数", "Cards each in the last trick"),
    "field.kou_cards.help": (
        "抠底时填：单张 1、对子 2、两对拖拉机 4，定底分倍数",
        "with 抠底: single 1, pair 2, two-pair tractor 4; it sets the bottom's multiplier",
    ),
    "field.kou_unit": ("首家最大牌型张数", "Cards in the led play's largest unit"),
    "field.kou_unit.help": (
        "抠底时可填：单 1、对 2、三张 3、k 对拖拉机 2k；空着按每人张数",
        "with 抠底, optional: single 1, pair 2, triple 3, tractor of k pairs 2k; blank: the cards each",
    ),
    "field.jack_kou": ("勾J（单 J 抠底）", "勾J: the last trick won with a single J"),
    "field.jack_kou.help": (
        "庄家方打 J 时被单 J 抠底：回到第一级",
        "against a declaring team at J: back to the first level",
    ),
    "field.bottom_points": ("底分", "Points in the bottom"),
    "field.bottom_points.help": ("底牌里的分", "the points in the bottom cards"),
    "field.bottom_multiplier": ("抠底牌型", "Shape of the last trick"),
    "field.bottom_multiplier.help": ("牌型定底分的倍数", "the shape sets the bottom's multiplier"),
    "field.bottom_jokers": ("底牌里的王", "Jokers in the final bottom"),
    "field.bottom_jokers.help": ("大王算 2，小王算 1", "a big joker counts 2, a small one 1"),
    "field.bottom_jokers.big": ("大王", "big"),
    "field.bottom_jokers.small": ("小王", "small"),
    "field.gan_guo": ("干锅（底牌全是主或全是副）", "干锅: the bottom is all trump or all side cards"),
    "field.gan_guo.help": ("底牌的王不加级也不算进贡", "the bottom's jokers add no levels and no tribute"),
    "field.penalties": ("罚分", "Penalties"),
    "field.penalties.help": ("甩牌失败、抓牌过多", "failed throws and overdrawn deals"),
    "field.penalties.shuai": ("甩牌失败", "failed throw"),
    "field.penalties.misdeal": ("抓牌过多", "misdeal"),
    "field.redeal": ("重新发牌", "Thrown in and redealt"),
    "field.redeal.help": (
        "这一局不计分，只记头家（和罚分）",
        "a hand thrown in scores nothing; only the dealer (and penalties) count",
    ),
    "seat.number": ("{n}号位", "seat {n}"),
}
