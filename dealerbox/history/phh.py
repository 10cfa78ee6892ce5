"""A :class:`HandSummary` in the Poker Hand History format (PHH, the TOML notation pokerkit reads and writes).

Players are numbered as PHH wants: p1 is the first seat left of the button (the small blind), the button
last; heads-up the button is p2 and posts the small blind, as pokerkit reads it. What PHH has no field for
goes into user-defined fields (names starting with ``_``): the table id, the seats' numbers, the findings
with their rule ids and rulings, the hand's outcome. Hole cards are ``????`` unless the summary was built
with them revealed (see commands/export.py: the asking is recorded).

A hand the format cannot express (a misdeal, a voided hand, a hand the log ended in the middle of) is not a
PHH game: it is written as TOML comments in the same file, in the same place, so it is never dropped
silently. :func:`expressible` says which.
"""

from __future__ import annotations

from typing import Any

import datetime
import json

from ..engine.variants import VARIANTS
from .summary import STREETS, HandSummary

# PHH has no pot-limit hold'em code, nor any for pot-limit Omaha high-low or five-card Omaha (plo8, plo5, plo5-8):
# those hands are left out of an export with the reason, as a kill pot is. F2L3D: limit deuce-to-seven triple draw
CODES = {"nlhe": "NT", "plhe": "NT", "flhe": "FT", "plo": "PO", "o8": "FO/8", "27td": "F2L3D"}
LIMIT = ("flhe", "o8", "27td")
_BOARD_BEFORE = {"flop": 3, "turn": 4, "river": 5}   # board cards out before this street's first action


def expressible(hand: HandSummary) -> str | None:
    """None if the hand is a PHH game; otherwise why not, in a few words."""
    if hand.outcome != "complete":
        return {"misdeal": "a misdeal: no hand was played",
                "void": "a voided hand: every chip went back",
                "unfinished": "the log ends before this hand did"}.get(hand.outcome, f"outcome {hand.outcome}")
    if any(v > hand.stakes.big_blind for v in hand.blinds.values()) or \
            any(f.rule == "kill.10" and f.severity == "info" for f in hand.findings):    # lowball's kill (Kill Pots 10)
        return "a kill pot: PHH has no kill blind and no scaled limits"
    if hand.game not in CODES:
        return f"variant {hand.game!r} has no PHH code"
    if hand.practice:
        # PHH (specification 0.0.1, pokerkit 0.7.7's parse_action) has no action selecting a run-out count, and
        # pokerkit's HandHistory replays with one run-out, refusing a second run's cards; no board-count field,
        # no bomb pot (tests/history/test_phh_runouts.py; docs/hand-history.md)
        return f"{hand.practice}: PHH has no field for it (no run-out count, no second board, no bomb pot)"
    return None


def player_of(hand: HandSummary) -> dict[int, str]:
    return {seat: f"p{i + 1}" for i, seat in enumerate(hand.seats)}


def actions_of(hand: HandSummary, reveal: bool = False) -> list[str]:
    """PHH action lines: hole cards, each street's board and wagers, the showdown."""
    p = player_of(hand)
    holes = VARIANTS[hand.game].hole_cards
    draws = VARIANTS[hand.game].draws
    out = []
    for seat in hand.seats:
        # a draw game's hand changes in the draws, and which cards were thrown is never recorded: all unknown
        cards = hand.hole_cards.get(seat, ()) if reveal and not draws else ()
        out.append(f"d dh {p[seat]} {''.join(cards) if len(cards) == holes else '??' * holes}")
    board_out = 0
    high = max([*hand.blinds.values(), *hand.straddles.values(), 0])   # the wager to match preflop
    street = "preflop"
    drawn = 0       # a draw game's draws written so far
    for a in hand.actions:
        if a.kind in ("post", "straddle", "ante"):
            continue
        if a.street != street:
            street, high = a.street, 0
            if draws:   # a draw game: the draws before this betting round
                out += _draws(hand, drawn + 1, STREETS.index(street), p)
                drawn = STREETS.index(street)
            want = _BOARD_BEFORE.get(street, 0)
            if board_out < want <= len(hand.board):
                out.append(f"d db {''.join(hand.board[board_out:want])}")
                board_out = want
        if a.kind == "fold":
            out.append(f"{p[a.seat]} f")
        elif a.kind in ("bet", "raise") or (a.kind == "all-in" and a.total > high):
            out.append(f"{p[a.seat]} cbr {a.total}")
            high = a.total
        else:  # check, call, an all-in for no more than the wager to match
            out.append(f"{p[a.seat]} cc")
    if draws and len(_contenders(hand)) > 1:    # the draws left when nobody could bet any more (all in)
        out += _draws(hand, drawn + 1, draws, p)
    for want in (3, 4, 5):   # the rest of the board when nobody could act any more (all in)
        if board_out < want <= len(hand.board):
            out.append(f"d db {''.join(hand.board[board_out:want])}")
            board_out = want
    shown = {s.seat for s in hand.shown}
    for s in hand.shown:
        out.append(f"{p[s.seat]} sm {''.join(s.cards)}")
    if shown:   # contenders who did not show mucked (cards speak only for the hands shown)
        out.extend(f"{p[seat]} sm" for seat in _contenders(hand) if seat not in shown)
    return out


def _draws(hand: HandSummary, first: int, last: int, p: dict[int, str]) -> list[str]:
    """PHH lines of draws ``first`` to ``last`` (1-based): each player still in, in turn, stands pat or discards
    (``sd``, the cards unknown: ``??`` each), then the dealer gives each discarder as many (``d dh``). A seat with
    no CardsDrawn stood pat untapped; pokerkit draws every hand not folded, all in or not."""
    out: list[str] = []
    for number in range(first, last + 1):
        folded = {a.seat for a in hand.actions if a.kind == "fold" and STREETS.index(a.street) < number}
        count = {d.seat: d.count for d in hand.draws if d.draw == number}
        live = [s for s in hand.seats if s not in folded]
        out += [f"{p[s]} sd {'??' * count.get(s, 0)}".rstrip() for s in live]
        out += [f"d dh {p[s]} {'??' * count[s]}" for s in live if count.get(s)]
    return out


def _contenders(hand: HandSummary) -> list[int]:
    folded = {a.seat for a in hand.actions if a.kind == "fold"}
    return [s for s in hand.seats if s not in folded]


def _blinds(hand: HandSummary) -> list[int]:
    owed = [hand.blinds.get(s, 0) + hand.straddles.get(s, 0) for s in hand.seats]
    return owed[::-1] if len(owed) == 2 else owed   # pokerkit reads heads-up blinds button-first


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, datetime.time):
        return value.isoformat()   # a TOML local time, as PHH's `time` field is
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)   # a TOML basic string is a JSON string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def fields_of(hand: HandSummary, created: datetime.datetime | None = None, reveal: bool = False) -> dict[str, Any]:
    """The PHH fields of an expressible hand, in the order they are written."""
    st = hand.stakes
    f: dict[str, Any] = {"variant": CODES[hand.game], "antes": [st.ante] * len(hand.seats),
               "blinds_or_straddles": _blinds(hand)}
    if hand.game in LIMIT:
        f["small_bet"], f["big_bet"] = st.small_bet, st.big_bet
    else:
        f["min_bet"] = st.big_blind
    f["starting_stacks"] = [hand.stacks_before[s] for s in hand.seats]
    f["actions"] = actions_of(hand, reveal)
    f["hand"] = hand.hand
    f["seat_count"] = len(hand.seats)
    f["seats"] = list(hand.seats)
    won = hand.winnings
    f["finishing_stacks"] = [hand.stacks_after.get(s, 0) for s in hand.seats]
    f["winnings"] = [won.get(s, 0) for s in hand.seats]
    if created is not None:
        at = created + datetime.timedelta(seconds=hand.started_t)
        f["year"], f["month"], f["day"] = at.year, at.month, at.day
        f["time"] = at.time().replace(microsecond=0)
        f["time_zone"] = "UTC"
    f.update(user_fields(hand))
    return f


def user_fields(hand: HandSummary) -> dict[str, Any]:
    """What PHH has no field for, under names starting with '_' (pokerkit keeps them as user-defined)."""
    f: dict[str, Any] = {"_table": hand.table, "_game": hand.game, "_button": hand.button, "_outcome": hand.outcome,
               "_started_t": f"{hand.started_t:.3f}", "_ended_t": f"{hand.ended_t:.3f}",
               "_pots": [p.amount for p in hand.pots]}
    odd = [i for i, p in enumerate(hand.pots) if len(p.winners) > 1 and p.amount % len(p.winners)]
    if odd:   # the rulebook's odd chip (Ties 4) can land on another seat than pokerkit's split puts it
        f["_odd_chip_pots"] = odd
    if hand.game == "plhe":
        f["_betting"] = "pot-limit (PHH has no pot-limit hold'em code: written as NT, every wager was pot-limit legal)"
    if hand.findings:
        f["_findings"] = [f"{x.id} {x.rule} ({x.citation}) {x.severity} {x.outcome}: {x.ruling}"
                          for x in hand.findings]
        f["_rules"] = [x.rule for x in hand.findings]
    return f


def section(hand: HandSummary, index: int, created: datetime.datetime | None = None, reveal: bool = False) -> str:
    """One hand as a PHH section ``[index]``, or, when PHH cannot express it, the same facts as comments."""
    why = expressible(hand)
    if why is not None:
        lines = [f"# [{index}] not a PHH hand: table {hand.table} hand {hand.hand}, {why}"]
        lines += [f"#   {k} = {_toml(v)}" for k, v in user_fields(hand).items()]
        lines.append(f"#   seats = {_toml(list(hand.seats))}, stacks_before = "
                     f"{_toml([hand.stacks_before.get(s, 0) for s in hand.seats])}")
        return "\n".join(lines)
    body = "\n".join(f"{k} = {_toml(v)}" for k, v in fields_of(hand, created, reveal).items())
    return f"[{index}]\n{body}"
