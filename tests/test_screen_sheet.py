"""The seat sheet: taps on the drawn seat box and keypad (real mouse events through Screen.handle_mouse) make
sit / rebuy / leave / wait-for-bb / back-in inputs, and the real Engine then holds the seat with that stack."""

import itertools
from dataclasses import replace

import pygame
import pytest

from dealerbox.config import Config, GameConfig
from dealerbox.engine.state import SeatView, TableState
from dealerbox.engine.table import Engine
from dealerbox.sinks.screen import Screen, theme
from dealerbox.sinks.screen.screen import SHEET_TIMEOUT_S
from dealerbox.sinks.screen.sheet import MAX_DIGITS
from dealerbox.tags import demo_registry
from tests.test_screen import OK_HEALTH, SIZES, Clock, all_cards, press, tap
from tests.test_screen_moments import EXPOSED, MISDEAL, checkable_hand, clean_hand, misdeal

BAD_HEALTH = {"reader": {"connected": False}}
INFO = replace(EXPOSED, id="h7-2", severity="info", outcome="continues", seats=())


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def size(request):
    return request.param


def table(config=None):
    config = config or Config()
    return Engine(config, demo_registry()), Screen(config, None, clock=Clock())


def sized(size, config=None):
    config = config or Config()
    return Engine(config, demo_registry()), Screen(config, size, clock=Clock())


def seat_view(engine, seat):
    return next(v for v in engine.snapshot().seats if v.seat == seat)


def type_amount(screen, state, digits):
    for d in digits:
        assert press(screen, f"sheet:digit:{d}") is None
        screen.render(state, OK_HEALTH, [])


def open_sheet(screen, state, seat, health=OK_HEALTH, events=()):
    """Tap the seat box where it was drawn (its centre), then draw the frame with the sheet."""
    screen.render(state, health, list(events))
    box = screen.frame.find("seat", seat)[0].rect
    assert tap(screen, box.center) is None
    screen.render(state, health, list(events))
    assert screen.frame.find("sheet", seat), "the seat sheet did not open"


# --- seating, rebuy, leave, through the real engine -------------------------------------------------

def test_tapping_an_empty_seat_seats_a_player_with_the_typed_buy_in(size):
    engine, screen = sized(size)
    state = engine.snapshot()
    assert not seat_view(engine, 4).occupied
    open_sheet(screen, state, 4)
    f = screen.frame
    assert f.texts("sheet-title") == ["Seat 4: seat a player"] and f.find("sheet")[0].text == "sit"
    assert f.texts("sheet-amount") == ["200"]           # prefilled with game.buy_in
    # The first digit replaces the prefill; then digits append.
    type_amount(screen, state, "350")
    assert screen.frame.texts("sheet-amount") == ["350"]
    assert screen.frame.target("sheet:ok").label == "Seat 350"
    dealer_input = press(screen, "sheet:ok")
    assert (dealer_input.action, dealer_input.seat, dealer_input.amount, dealer_input.t) == ("sit", 4, 350, 100.0)
    assert screen.ui.sheet is None                      # sent: the sheet closes
    engine.apply(dealer_input)
    view = seat_view(engine, 4)
    assert view.occupied and view.stack == 350
    screen.render(engine.snapshot(), OK_HEALTH, [])
    assert not screen.frame.find("sheet")
    assert {d.ref: d.text for d in screen.frame.find("stack")} == {4: "350"}


def test_ok_at_once_sends_the_configured_buy_in():
    config = Config(game=GameConfig(buy_in=500))
    engine, screen = table(config)
    open_sheet(screen, engine.snapshot(), 2)
    assert screen.frame.texts("sheet-amount") == ["500"]
    dealer_input = press(screen, "sheet:ok")
    assert (dealer_input.action, dealer_input.seat, dealer_input.amount) == ("sit", 2, 500)
    engine.apply(dealer_input)
    assert seat_view(engine, 2).stack == 500


def test_rebuy_adds_the_typed_amount(size):
    engine, screen = sized(size)
    engine.apply(press_free_sit(3, 100))
    state = engine.snapshot()
    open_sheet(screen, state, 3)
    f = screen.frame
    assert f.texts("sheet-title") == ["Seat 3   stack 100"] and f.find("sheet")[0].text == "menu"
    assert press(screen, "sheet:rebuy") is None
    screen.render(state, OK_HEALTH, [])
    assert screen.frame.texts("sheet-title") == ["Seat 3: rebuy   stack 100"]
    type_amount(screen, state, "75")
    dealer_input = press(screen, "sheet:ok")
    assert (dealer_input.action, dealer_input.seat, dealer_input.amount) == ("rebuy", 3, 75)
    engine.apply(dealer_input)
    assert seat_view(engine, 3).stack == 175


def test_leave_asks_before_it_empties_the_seat(size):
    engine, screen = sized(size)
    engine.apply(press_free_sit(6, 120))
    state = engine.snapshot()
    open_sheet(screen, state, 6)
    assert press(screen, "sheet:leave") is None          # first tap: only the question
    screen.render(state, OK_HEALTH, [])
    assert screen.frame.find("sheet")[0].text == "leave"
    assert "120" in " ".join(screen.frame.texts("sheet-prompt"))
    assert press(screen, "sheet:cancel") is None         # cancel: nothing sent, sheet gone
    screen.render(state, OK_HEALTH, [])
    assert screen.ui.sheet is None and not screen.frame.find("sheet")
    open_sheet(screen, state, 6)
    press(screen, "sheet:leave")
    screen.render(state, OK_HEALTH, [])
    dealer_input = press(screen, "sheet:leave-confirm")
    assert (dealer_input.action, dealer_input.seat) == ("leave", 6)
    engine.apply(dealer_input)
    assert not seat_view(engine, 6).occupied


@pytest.mark.parametrize("action", ["sit-out", "wait-for-bb", "back-in"])
def test_sit_out_and_back_in(action):
    engine, screen = table()
    engine.apply(press_free_sit(5, 90))
    state = engine.snapshot()
    open_sheet(screen, state, 5)
    dealer_input = press(screen, f"sheet:{action}")
    assert (dealer_input.action, dealer_input.seat, dealer_input.amount) == (action, 5, None)
    assert screen.ui.sheet is None
    engine.apply(dealer_input)
    view = seat_view(engine, 5)
    assert view.occupied and view.stack == 90             # sitting out keeps the seat and the chips


def press_free_sit(seat, amount):
    """Seat a player the way the dealer does it: through a fresh screen's sheet."""
    engine, screen = table()
    open_sheet(screen, engine.snapshot(), seat)
    press(screen, "sheet:clear")
    screen.render(engine.snapshot(), OK_HEALTH, [])
    type_amount(screen, engine.snapshot(), str(amount))
    return press(screen, "sheet:ok")


# --- the keypad -------------------------------------------------------------------------------------

def test_amounts_are_checked_before_they_can_be_sent():
    engine, screen = table()
    state = engine.snapshot()
    open_sheet(screen, state, 1)
    press(screen, "sheet:clear")
    screen.render(state, OK_HEALTH, [])
    f = screen.frame
    assert f.texts("sheet-amount") == [""] and f.target("sheet:ok") is None
    assert "OK" in f.texts("key-disabled") and f.texts("sheet-hint") == ["Type an amount above 0"]
    type_amount(screen, state, "0")
    assert screen.frame.target("sheet:ok") is None
    type_amount(screen, state, "25")                    # the leading zero goes
    assert screen.frame.texts("sheet-amount") == ["25"]
    type_amount(screen, state, "0000")                  # 250,000 > 100 buy-ins: a typo
    assert screen.frame.texts("sheet-amount") == ["250,000"]
    assert screen.frame.target("sheet:ok") is None
    assert screen.frame.texts("sheet-hint") == ["Too much: at most 20,000"]
    press(screen, "sheet:back")
    screen.render(state, OK_HEALTH, [])
    assert screen.frame.texts("sheet-amount") == ["25,000"] and screen.frame.target("sheet:ok") is None
    press(screen, "sheet:back")
    screen.render(state, OK_HEALTH, [])
    assert screen.frame.target("sheet:ok").amount == 2500
    type_amount(screen, state, "9" * 10)                # a stuck finger stops at MAX_DIGITS
    assert len(screen.ui.sheet.entry) == MAX_DIGITS


def test_backspace_edits_the_prefill():
    engine, screen = table()
    state = engine.snapshot()
    open_sheet(screen, state, 1)
    press(screen, "sheet:back")
    screen.render(state, OK_HEALTH, [])
    type_amount(screen, state, "5")
    assert screen.frame.target("sheet:ok").amount == 205


# --- when the sheet closes by itself ---------------------------------------------------------------

def test_a_finding_for_the_dealer_closes_the_sheet():
    screen = Screen(Config(), (800, 480), clock=Clock())
    open_sheet(screen, clean_hand(), 4)
    # An info note does not need the dealer: the sheet stays.
    screen.render(replace(clean_hand(), findings=(INFO,)), OK_HEALTH, [])
    assert screen.frame.find("sheet") and screen.ui.sheet is not None
    # A dealer finding does: the sheet goes, the banner and its keys are what is on screen.
    screen.render(replace(clean_hand(), findings=(EXPOSED,)), OK_HEALTH, [])
    assert screen.ui.sheet is None and not screen.frame.find("sheet")
    assert screen.frame.banner.id == EXPOSED.id and screen.frame.target("ack:h7-1") is not None
    assert not any(t.key.startswith("sheet:") for t in screen.frame.targets)


def test_a_sheet_opened_under_a_banner_stays_and_the_banner_keys_still_work():
    screen = Screen(Config(), (800, 480), clock=Clock())
    open_sheet(screen, misdeal(), 4)   # the dealer chose to open it with the misdeal banner up
    assert screen.frame.banner.id == MISDEAL.id and screen.frame.find("sheet")
    sheet = screen.frame.find("sheet")[0].rect
    assert not sheet.colliderect(screen.frame.find("banner")[0].rect)
    ack = press(screen, "ack:h8-1")
    assert (ack.action, ack.ref) == ("ack", "h8-1") and screen.ui.sheet is None


def test_other_keys_cancel_and_the_clock_close_the_sheet():
    clock = Clock()
    screen = Screen(Config(), (800, 480), clock=clock)
    open_sheet(screen, checkable_hand(), 4)
    check = press(screen, "check")                      # the key column stays live
    assert (check.action, check.seat) == ("check", 3) and screen.ui.sheet is None
    # Left alone, the sheet goes after SHEET_TIMEOUT_S (it covers the board).
    open_sheet(screen, clean_hand(), 4)
    screen.state = clean_hand()
    assert screen.redraw_if_changed() is True and screen.frame.find("sheet")
    assert screen.redraw_if_changed() is False          # an open sheet is not redrawn for nothing
    clock.t += SHEET_TIMEOUT_S - 1
    press(screen, "sheet:digit:7")                      # a tap keeps it open
    clock.t += SHEET_TIMEOUT_S - 1
    assert screen.redraw_if_changed() is True and screen.frame.find("sheet")
    clock.t += 2
    assert screen.redraw_if_changed() is True and not screen.frame.find("sheet") and screen.ui.sheet is None


def test_the_sheet_closes_when_the_seat_changes_under_it():
    screen = Screen(Config(), (800, 480), clock=Clock())
    open_sheet(screen, clean_hand(), 4)
    taken = replace(clean_hand(), seats=tuple(replace(s, occupied=True, stack=60) if s.seat == 4 else s
                                              for s in clean_hand().seats))
    screen.render(taken, OK_HEALTH, [])
    assert screen.ui.sheet is None and not screen.frame.find("sheet")


def test_history_closes_the_sheet():
    screen = Screen(Config(), (800, 480), clock=Clock())
    open_sheet(screen, clean_hand(), 4)
    assert press(screen, "history") is None
    screen.render(clean_hand(), OK_HEALTH, [])
    assert screen.ui.sheet is None and not screen.frame.find("sheet")


# --- what the sheet offers during a hand -------------------------------------------------------------

def test_no_rebuy_or_leave_for_a_seat_still_in_the_hand():
    screen = Screen(Config(), (800, 480), clock=Clock())
    open_sheet(screen, clean_hand(), 3)                 # seat 3 is to act
    f = screen.frame
    assert f.target("sheet:rebuy") is None and f.target("sheet:leave") is None
    assert {"Rebuy", "Leave"} <= set(f.texts("key-disabled"))
    assert all(f.target(f"sheet:{a}") is not None for a in ("sit-out", "wait-for-bb", "back-in"))
    assert f.texts("sheet-hint") == ["In this hand: rebuy or leave once it is over"]
    folded = replace(clean_hand(), seats=tuple(replace(s, folded=True, in_hand=False, cards_held=0)
                                               if s.seat == 5 else s for s in clean_hand().seats))
    press(screen, "sheet:cancel")
    open_sheet(screen, folded, 5)
    assert screen.frame.target("sheet:rebuy") is not None and screen.frame.target("sheet:leave") is not None


def test_the_seats_under_the_sheet_are_not_keys():
    screen = Screen(Config(), (800, 480), clock=Clock())
    open_sheet(screen, clean_hand(), 4)
    assert not any(t.ui == "seat" for t in screen.frame.targets)
    sheet = screen.frame.find("sheet")[0].rect
    for box in (d.rect for d in screen.frame.find("seat")):
        visible = [p for p in (box.topleft, box.bottomleft, box.topright, box.bottomright, box.center)
                   if not sheet.collidepoint(p) and screen.frame.surface.get_rect().collidepoint(p)]
        for p in visible:
            assert tap(screen, p) is None and screen.ui.sheet.seat == 4


# --- geometry and hidden cards at every size ----------------------------------------------------------

def sheet_moments():
    """(state, health, seat, keys to press) for every kind of sheet, with and without banner and alert."""
    between = TableState(hand=3, phase="ended", game="nlhe", seats=tuple(
        SeatView(seat=s, occupied=s != 4, stack=200 + s) for s in range(1, 10)))
    return [(clean_hand(), OK_HEALTH, 4, ()), (misdeal(), BAD_HEALTH, 4, ()), (misdeal(), BAD_HEALTH, 3, ()),
            (clean_hand(10), BAD_HEALTH, 4, ()), (between, OK_HEALTH, 2, ("sheet:rebuy",)),
            (between, BAD_HEALTH, 2, ("sheet:leave",)), (clean_hand(), OK_HEALTH, 6, ())]


@pytest.mark.parametrize("i", range(len(sheet_moments())))
def test_sheet_fits_with_finger_sized_keys(size, i):
    state, health, seat, keys = sheet_moments()[i]
    screen = Screen(Config(), size, clock=Clock())
    open_sheet(screen, state, seat, health)
    for key in keys:
        press(screen, key)
        screen.render(state, health, [])
    f = screen.frame
    sheet = f.find("sheet")[0].rect
    bounds = pygame.Rect((0, 0), screen.size)
    assert bounds.contains(sheet)
    sheet_keys = [t for t in f.targets if t.key.startswith("sheet:")]
    assert len(sheet_keys) >= 2
    for t in f.targets:
        assert t.rect.width >= theme.MIN_TOUCH and t.rect.height >= theme.MIN_TOUCH, (t.key, t.rect)
        assert bounds.contains(t.rect), t.key
    for t in sheet_keys:
        assert sheet.contains(t.rect), (t.key, t.rect, sheet)
    for a, b in itertools.combinations(f.targets, 2):
        assert not a.rect.colliderect(b.rect), (a.key, b.key)
    for d in f.drawn:
        if d.kind.startswith("sheet-"):
            assert sheet.contains(d.rect), (d.kind, d.text)
    for other in f.find("banner") + [d for d in f.drawn if d.kind in ("key", "key-disabled")
                                     and not str(d.ref).startswith("sheet:") and d.ref not in ("OK", "Rebuy", "Leave")]:
        assert not sheet.colliderect(other.rect), other.text
    # The sheet shows no card at all, and hidden hands stay hidden around it.
    assert not all_cards() & {d.text for d in f.drawn if d.kind != "finding-card"}
    assert not f.find("shown-card")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_cached_frame_with_the_sheet_is_the_fresh_one(size):
    """Sheet keys come from the sprite cache: a warm renderer must draw what a fresh one does."""
    warm = Screen(Config(), size, clock=Clock())
    for state, health, seat, keys in sheet_moments() * 2:
        warm.ui.sheet = None
        open_sheet(warm, state, seat, health)
        for key in keys:
            press(warm, key)
        fresh = Screen(Config(), size, clock=Clock())
        fresh.ui.sheet = warm.ui.sheet
        a, b = warm.render(state, health, []), fresh.render(state, health, [])
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
        assert [(t.key, tuple(t.rect), t.action, t.seat, t.amount) for t in warm.frame.targets] == \
            [(t.key, tuple(t.rect), t.action, t.seat, t.amount) for t in fresh.frame.targets]


def test_the_renderer_only_reads_the_ui_state_the_screen_closes_the_sheet():
    """Closing the sheet for a newer finding is the controller's decision: the renderer draws what it is
    given and never changes UiState; the Screen closes the sheet before it draws."""
    _, screen = table()
    state = clean_hand()
    open_sheet(screen, state, 4)
    sheet = screen.ui.sheet
    frame = screen.renderer.render(misdeal(), screen.monitor.judge(OK_HEALTH, 0.0), [], screen.ui)
    assert screen.ui.sheet is sheet and frame.find("banner")  # drawn as asked, nothing changed
    screen.render(misdeal(), OK_HEALTH, [])
    assert screen.ui.sheet is None and not screen.frame.find("sheet")
