"""What the dealer's screen shows, decided without pygame: pure functions from a TableState, the table
events and the screen's own UI state to plain descriptions (which findings are open, which keys exist and
what each one sends, what a seat box says). The painters turn these into pixels; tests can read them
without a display.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable

from ...engine import events as te
from ...engine.state import FindingView, QuestionView, SeatView, TableState, TournamentView
from . import theme
from .history import who_name
from .pad import PinPad
from .sheet import SeatSheet


PHASE_NAMES = {"idle": "Waiting", "deal": "Dealing", "preflop": "Pre-flop", "flop": "Flop", "turn": "Turn",
               "river": "River", "showdown": "Showdown",
               "misaward": "Misaward: pull back", "ended": "Hand over"}
IN_HAND_PHASES = ("deal", "preflop", "flop", "turn", "river", "showdown", "misaward")
BETTING_PHASES = ("preflop", "flop", "turn", "river")
CONFIRM_PROMPTS = {"misdeal": "Misdeal? Cards back to the shoe, blinds returned.",
                   "new-hand": "Start a new hand? This hand is abandoned.",
                   # Tournaments 6: the room's signal, when the floor's clock is away (the engine checks)
                   "end-level": "End this level now? Only at the room's signal, the floor's clock away."}
CONFIRM_LABELS = {"misdeal": "Confirm misdeal", "new-hand": "Start new hand", "end-level": "End the level"}


@dataclass(slots=True)
class UiState:
    """What the screen itself remembers between frames (not table state)."""
    history: bool = False
    history_page: int = 0
    confirm: str | None = None       # "misdeal" or "new-hand" while waiting for the second tap
    history_pages: int = 1
    sheet: SeatSheet | None = None   # the seat sheet, while one is open
    pad: PinPad | None = None        # the sign-in pad, while it is open
    sign_in: bool = False            # the config names dealers: the key column offers sign-in


@dataclass(frozen=True, slots=True)
class KeySpec:
    """One key as the dealer sees it: ``label`` on it, ``colour``; ``key`` None means disabled (dim, no
    target). The rest is what a tap does: ``action`` makes a DealerInput, ``ui`` only changes the screen."""
    label: str
    colour: theme.Colour
    key: str | None = None
    name: str = ""                   # the target's label, when it says more than the key (e.g. "Exposed card")
    action: str | None = None
    ui: str | None = None
    seat: int | None = None
    ref: str | None = None
    seats: tuple[int, ...] = ()
    amount: int | None = None
    choice: str | None = None        # with "answer": the answer's key


END_LEVEL_KEY = KeySpec("End level", theme.KEY, "end-level", ui="confirm:end-level")   # tournament, between hands


def open_findings(state: TableState, events: Iterable[te.TableEvent] = ()) -> list[FindingView]:
    """Unacknowledged findings, most serious then newest first.

    Floor findings seen in events stay here until a FindingAcknowledged names them, even if a snapshot
    no longer lists them: the floor must see them.
    """
    found: dict[str, FindingView] = {}
    acked: set[str] = set()
    order: dict[str, int] = {}
    for e in events:
        if isinstance(e, te.FindingRaised) and e.severity == "floor":
            found[e.id] = FindingView(e.id, e.rule, e.citation, e.severity, e.outcome, e.ruling, e.seats, e.cards)
            order.setdefault(e.id, len(order))
        elif isinstance(e, te.FindingAcknowledged):
            acked.add(e.id)
    for f in state.findings:
        if f.acknowledged:
            acked.add(f.id)
        else:
            found[f.id] = f
            order.setdefault(f.id, len(order))
    live = [f for f in found.values() if f.id not in acked]
    return sorted(live, key=lambda f: (-theme.SEVERITY_RANK.get(f.severity, 0), -order[f.id]))


def sheet_must_close(sheet: SeatSheet, state: TableState, banner: FindingView | None, history: bool) -> bool:
    """Findings come first: a dealer or floor finding bannered after the sheet opened closes it (the typed
    amount is dropped), as does the seat no longer being what the sheet was for (seated or left meanwhile)."""
    if history:
        return True
    if banner is not None and banner.severity in ("dealer", "floor") and banner.id != sheet.banner:
        return True
    view = next((v for v in state.seats if v.seat == sheet.seat), None)
    return view is None or view.occupied != sheet.occupied


def seat_in_play(state: TableState, seat: SeatView) -> bool:
    """The seat holds a live hand in the running hand: no chips added, no leaving until it is over."""
    return state.phase in IN_HAND_PHASES and (seat.in_hand or seat.all_in) and not seat.folded


def awarded_pots(state: TableState, events: Iterable[te.TableEvent]) -> set[int]:
    return {e.index for e in events if isinstance(e, te.PotAwarded) and e.hand == state.hand}


def phase_name(state: TableState) -> str:
    """The phase as the top bar says it: a draw game has no flop, turn or river, but betting rounds ("Bet 1" to
    "Bet 4") and the draws between them ("Draw 1" to "Draw 3") while one is dealt."""
    name = state.draw.round_name(state.phase) if state.draw is not None else None
    if name is not None:
        return name
    return PHASE_NAMES.get(state.phase, state.phase)


def seat_status(seat: SeatView, winner: bool) -> tuple[str, theme.Colour, theme.Colour]:
    """The word under the seat number and the box colours; the first that applies wins. In a draw being dealt,
    a seat whose turn is done says how many cards it drew (how many, never which), the seat to draw says so."""
    if not seat.occupied:
        return "", theme.SEAT_EMPTY, theme.TEXT_DIM
    if winner:
        return "WINNER", theme.SEAT_WINNER, theme.WHITE
    if seat.dead:
        return "DEAD", theme.SEAT_DEAD, theme.WHITE
    if seat.drawn is not None:
        return ("PAT" if seat.drawn == 0 else f"DREW {seat.drawn}"), theme.SEAT_IN_HAND, theme.WHITE
    if seat.to_draw:
        return "TO DRAW", theme.SEAT_TO_ACT, theme.BLACK
    if seat.to_act:
        return "TO ACT", theme.SEAT_TO_ACT, theme.BLACK
    if seat.all_in:
        return "ALL-IN", theme.SEAT_ALL_IN, theme.WHITE
    if seat.folded:
        return "FOLD", theme.SEAT_FOLDED, theme.TEXT_DIM
    if seat.in_hand:
        return "", theme.SEAT_IN_HAND, theme.WHITE
    return "out", theme.SEAT_IDLE, theme.TEXT


def leave_prompt(view: SeatView) -> str:
    return f"The player takes {view.stack:,} in chips and seat {view.seat} opens. This cannot be undone."


def confirm_keys(confirm: str) -> tuple[str, list[KeySpec]]:
    """The prompt and keys while a misdeal or a new hand waits for its second tap."""
    label = CONFIRM_LABELS[confirm]
    return CONFIRM_PROMPTS[confirm], [KeySpec(label, theme.KEY_DANGER, f"confirm:{confirm}", action=confirm),
                                      KeySpec("Cancel", theme.KEY, "cancel", ui="cancel")]


def history_keys(page: int, pages: int) -> list[KeySpec]:
    return [KeySpec("Older", theme.KEY, "older" if page < pages - 1 else None, ui="older"),
            KeySpec("Newer", theme.KEY, "newer" if page > 0 else None, ui="newer"),
            KeySpec("Back to table", theme.KEY_CONFIRM, "table", ui="history")]


def facing_a_bet(state: TableState, seat: int) -> bool:
    """True when ``seat`` has less in front of it than the largest bet of the round (an all-in's included):
    it may call, raise or fold, never check (Betting 1)."""
    largest = max((s.bet for s in state.seats), default=0)
    return any(s.seat == seat and s.bet < largest for s in state.seats)


def table_keys(state: TableState, events: Iterable[te.TableEvent], banner: FindingView | None) -> list[KeySpec]:
    """The key column beside the table: award keys at showdown, else check / exposed / misdeal; then the
    keys that are always there."""
    in_hand = state.phase in IN_HAND_PHASES
    keys: list[KeySpec] = []
    if state.phase in ("showdown", "misaward", "ended") and (state.winners or state.pot_winners):
        done = awarded_pots(state, events)
        if state.pot_winners:
            for i, winners in enumerate(state.pot_winners):
                if winners and i not in done:
                    label = f"Award {'main' if i == 0 else f'side {i}'} to " + " ".join(f"S{s}" for s in winners)
                    keys.append(KeySpec(label, theme.KEY_CONFIRM, f"award:{i}", action="award", ref=str(i),
                                        seats=tuple(winners)))
        elif 0 not in done:
            seats = tuple(sorted(state.winners))
            label = "Award to " + " ".join(f"S{s}" for s in seats)
            keys.append(KeySpec(label, theme.KEY_CONFIRM, "award:0", action="award", ref="0", seats=seats))
        if not keys and state.tournament is not None and state.phase == "ended":   # every pot pushed
            keys.append(END_LEVEL_KEY)
    else:
        if state.to_act is not None and state.phase in BETTING_PHASES and not facing_a_bet(state, state.to_act):
            keys.append(KeySpec(f"Check S{state.to_act}", theme.KEY_CONFIRM, "check", action="check",
                                seat=state.to_act))
        else:
            keys.append(KeySpec("Check", theme.KEY_CONFIRM))
        turn = state.draw.turn if state.draw is not None and state.draw.dealing else None
        if turn is not None:   # a draw game's draw: the player in turn knocks, standing pat (docs/draw.md)
            keys.append(KeySpec(f"Stand pat S{turn}", theme.KEY_CONFIRM, "stand-pat", action="stand-pat", seat=turn))
        if state.tournament is not None and not in_hand:   # between hands the exposed key has nothing to do
            keys.append(END_LEVEL_KEY)
        else:
            keys.append(KeySpec("Exposed", theme.KEY, "exposed" if in_hand else None, name="Exposed card",
                                action="exposed"))
        keys.append(KeySpec("Misdeal", theme.KEY_DANGER, "misdeal" if in_hand else None, ui="confirm:misdeal"))
        keys += practice_keys(state)
    keys.append(KeySpec("Call floor", theme.KEY, "call-floor", action="call-floor",
                        ref=banner.id if banner else None))
    confirm_first = in_hand and state.phase not in ("showdown", "misaward")
    keys.append(KeySpec("New hand", theme.KEY, "new-hand", ui="confirm:new-hand" if confirm_first else None,
                        action=None if confirm_first else "new-hand"))
    keys.append(KeySpec("History", theme.KEY, "history", ui="history"))
    return keys


def practice_keys(state: TableState) -> list[KeySpec]:
    """House practices, one tap each: run it twice (or three times) once an all-in leaves no more betting, and a
    bomb pot between hands at a table that plays them."""
    keys = [KeySpec("Run it twice", theme.KEY_CONFIRM, "run-it:2", action="run-it", amount=2)] \
        if state.house.runs_offer >= 2 else []
    if state.house.runs_offer >= 3:
        keys.append(KeySpec("Run it 3 times", theme.KEY_CONFIRM, "run-it:3", action="run-it", amount=3))
    if state.house.bomb_offer:
        keys.append(KeySpec(f"Bomb pot {state.house.bomb_offer}", theme.KEY, "bomb-pot:1", action="bomb-pot",
                            amount=state.house.bomb_offer, ref="1"))
        if state.house.bomb_boards >= 2:     # a deck deals two boards to so many players (engine/practices.py)
            keys.append(KeySpec(f"Bomb pot {state.house.bomb_offer}, 2 boards", theme.KEY, "bomb-pot:2",
                                action="bomb-pot", amount=state.house.bomb_offer, ref="2"))
    return keys


def seat_menu_keys(busy: bool, seat: int, tournament: TournamentView | None = None) -> list[KeySpec]:
    """An occupied seat's sheet; chips are added and players leave between hands only (The Buy-in 2). At a
    tournament table a player is never waiting for the big blind (dealt in, Tournaments 9): that key is the
    rebuy the player owes, paid (33), lit only while the seat owes one."""
    if tournament is None:
        # Blinds 9: away now (misses the blinds that pass) is not the same as back at the big blind
        fourth = KeySpec("Wait for big blind", theme.KEY, "sheet:wait-for-bb", action="wait-for-bb", seat=seat)
    else:
        owes = seat in tournament.rebuys_owed
        fourth = KeySpec("Rebuy paid", theme.KEY_CONFIRM if owes else theme.KEY,
                         "sheet:rebuy-paid" if owes else None, action="rebuy-paid", seat=seat)
    return [KeySpec("Rebuy", theme.KEY_CONFIRM, None if busy else "sheet:rebuy", ui="sheet:rebuy"),
            KeySpec("Leave", theme.KEY_DANGER, None if busy else "sheet:leave", ui="sheet:leave"),
            KeySpec("Sit out", theme.KEY, "sheet:sit-out", action="sit-out", seat=seat), fourth,
            KeySpec("Back in", theme.KEY, "sheet:back-in", action="back-in", seat=seat),
            KeySpec("Cancel", theme.KEY, "sheet:cancel", ui="sheet:cancel")]


def question_keys(question: QuestionView) -> list[KeySpec]:
    """One key per answer; the first (the likely one) stands out."""
    return [KeySpec(label, theme.KEY_CONFIRM if i == 0 else theme.KEY, f"answer:{question.id}:{key}",
                    action="answer", ref=question.id, choice=key)
            for i, (key, label) in enumerate(question.answers)]


def who_line(state: TableState, events: Iterable[te.TableEvent]) -> str:
    """The top bar's who: who acknowledged the last finding the floor answered, then the dealer on duty
    (``h3-1 acknowledged by sam · Dealer D17``); "" when neither is known (the bar as it always was)."""
    parts = []
    acked = next((e for e in reversed(list(events)) if isinstance(e, te.FindingAcknowledged) and e.by), None)
    if acked is not None:
        parts.append(f"{acked.id} acknowledged by {who_name(acked.by or '')}")
    if state.dealer:
        parts.append(f"Dealer {state.dealer}")
    elif parts:
        parts.append("no dealer signed in")
    return "  ·  ".join(parts)


def sign_keys(state: TableState, ui: UiState) -> list[KeySpec]:
    """The sign-in key at the foot of the column where the config names dealers; "Sign out" while one is on."""
    if not ui.sign_in:
        return []
    if state.dealer:
        return [KeySpec(f"Sign out {state.dealer}", theme.KEY, "sign-out", action="sign-out")]
    return [KeySpec("Sign in", theme.KEY, "sign-in", ui="pin:open")]
