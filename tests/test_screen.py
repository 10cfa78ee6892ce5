"""The dealer's screen with SDL's dummy video driver: what must be on screen at key moments (facts the
renderer reports AND the pixels), taps as injected mouse events, the health corner and the run loop."""

import itertools
import queue
import threading

import pygame
import pytest

from dealerbox.config import Config
from dealerbox.engine import events as te
from dealerbox.engine.catalogue import SEVERITIES
from dealerbox.engine.state import SeatView, TableState
from dealerbox.pipeline import Pipeline
from dealerbox.runtime.bus import Update
from dealerbox.sinks.screen import SEVERITY_COLOURS, Screen, theme
from dealerbox.tags import demo_registry
from tests.test_screen_moments import EXPOSED, HOLE, MISDEAL, VOID, checkable_hand, clean_hand, hand_events, misdeal, \
    showdown, void_hand

SIZES = [(800, 480), (1024, 600), (1280, 800)]
OK_HEALTH = {"reader": {"connected": True, "seq_gaps": 0}, "floor": {"connected": True, "outbox_depth": 0}}


class Clock:
    def __init__(self, t=100.0):
        self.t = t

    def __call__(self):
        return self.t


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def screen(request):
    return Screen(Config(), request.param, clock=Clock())


def tap(screen, pos, button=1):
    """A finger tap as SDL delivers it: a press then a release, as mouse events."""
    screen.handle_mouse(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    return screen.handle_mouse(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def press(screen, key):
    target = screen.frame.target(key)
    assert target is not None, f"no {key!r} key; keys: {[t.key for t in screen.frame.targets]}"
    return tap(screen, target.rect.center)


def colour_at(surface, point):
    return tuple(surface.get_at(point))[:3]


def inside(rect, dx=3, dy=3):
    return rect.left + dx, rect.top + dy


def all_cards():
    return {r + s for r in "23456789TJQKA" for s in "cdhs"}


# --- colours ---------------------------------------------------------------------------------------

def test_every_severity_has_its_own_legible_colour():
    assert set(SEVERITY_COLOURS) == set(SEVERITIES)
    assert len(set(SEVERITY_COLOURS.values())) == len(SEVERITIES)
    for severity, colour in SEVERITY_COLOURS.items():
        assert theme.contrast_ratio(colour, theme.SEVERITY_TEXT[severity]) >= 4.5, severity
    assert theme.contrast_ratio(theme.SEAT_TO_ACT, theme.BLACK) >= 7  # whose turn it is, read at a glance


# --- key moments -----------------------------------------------------------------------------------

def test_clean_hand(screen):
    state = clean_hand()
    surf = screen.render(state, OK_HEALTH, [])
    f = screen.frame
    assert surf.get_size() == screen.size
    assert f.texts("hand") == ["Hand 7"] and f.texts("phase") == ["Pre-flop"]
    assert f.texts("pot") == ["Pot 30"]
    pot = f.find("pot")[0].rect
    assert any(colour_at(surf, (x, pot.centery)) == theme.WHITE for x in range(pot.left, pot.right))
    assert f.banner is None and not f.find("banner") and not f.find("health-alert")
    # Bets and stacks of each seat; the empty seat says so.
    assert {d.ref: d.text for d in f.find("bet")} == {1: "1", 2: "2"}
    assert {d.ref: d.text for d in f.find("stack")} == {s.seat: f"{s.stack:,}" for s in state.seats if s.occupied}
    assert [d.text for d in f.find("seat-status", 4)] == ["open"]
    # Seat 3 is to act: its box is the to-act colour; it faces the big blind, so no key offers it a check.
    box = f.find("seat", 3)[0].rect
    assert colour_at(surf, (box.centerx, box.bottom - 3)) == theme.SEAT_TO_ACT
    assert f.target("check") is None
    assert [d.ref for d in f.find("button")] == [9]
    # Hidden hands: two backs per seat dealt in, no face-up card anywhere.
    backs = {}
    for d in f.find("card-back"):
        backs[d.ref] = backs.get(d.ref, 0) + 1
        assert d.text == ""
    assert backs == {s.seat: 2 for s in state.seats if s.cards_held}
    assert not f.find("shown-card") and not f.find("board-card")
    assert not all_cards() & {d.text for d in f.drawn}


def test_misdeal_banner(screen):
    state = misdeal()
    surf = screen.render(state, OK_HEALTH, [])
    f = screen.frame
    banner = f.find("banner")[0]
    assert banner.text == "floor" and banner.ref == "h8-1"
    assert colour_at(surf, inside(banner.rect)) == SEVERITY_COLOURS["floor"]
    assert colour_at(surf, (banner.rect.centerx, banner.rect.bottom - 2)) == SEVERITY_COLOURS["floor"]
    assert f.texts("citation")[0].startswith("FLOOR  Misdeals 1(c)")
    assert " ".join(f.texts("ruling")).startswith("Two cards were found face up")
    # The seat concerned is ringed in the finding's colour; the exposed cards are shown in the banner.
    box = f.find("seat", 5)[0].rect
    assert colour_at(surf, (box.centerx, box.top - 2)) == SEVERITY_COLOURS["floor"]
    assert sorted(f.texts("finding-card")) == ["3s", "8d"]
    assert {t.key for t in f.targets} >= {"ack:h8-1", "misdeal:h8-1", "call-floor"}
    assert f.target("call-floor").ref == "h8-1"
    # Still no hole card: each seat shows one back.
    assert len(f.find("card-back", 2)) == 1 and not f.find("shown-card")


def test_void_hand_banner_stays_until_acknowledged(screen):
    state = void_hand()
    surf = screen.render(state, OK_HEALTH, [])
    f = screen.frame
    banner = f.find("banner")[0].rect
    assert colour_at(surf, inside(banner)) == SEVERITY_COLOURS["floor"]
    assert f.texts("citation")[0].startswith("FLOOR  Irregularities 4")
    assert f.target("misdeal:h9-1") is None  # a void hand is not confirmed as a misdeal
    assert f.texts("board-card") == ["Qs", "8c", "4d"] and f.texts("burn") == ["Burn 1"]
    assert f.texts("muck") == ["Muck 3"]
    # The snapshot no longer lists it (next hand), but the floor finding was raised: it stays.
    raised = te.FindingRaised(3.0, 9, VOID.id, VOID.rule, VOID.citation, "floor", "void", VOID.ruling, VOID.seats)
    later = TableState(hand=10, phase="preflop", seats=state.seats)
    screen.render(later, OK_HEALTH, [raised])
    assert screen.frame.banner.id == "h9-1"
    screen.render(later, OK_HEALTH, [raised, te.FindingAcknowledged(9.0, 10, "h9-1")])
    assert screen.frame.banner is None
    after = screen.render(later, OK_HEALTH, [])
    assert colour_at(after, inside(banner)) != SEVERITY_COLOURS["floor"]


def test_acknowledged_and_dealer_findings(screen):
    screen.render(TableState(hand=7, phase="preflop", findings=(EXPOSED,)), OK_HEALTH, [])
    banner = screen.frame.find("banner")[0].rect
    assert colour_at(screen.frame.surface, inside(banner)) == SEVERITY_COLOURS["dealer"]
    assert screen.frame.target("misdeal:h7-1") is None
    acked = EXPOSED.__class__(**{**{f: getattr(EXPOSED, f) for f in EXPOSED.__slots__}, "acknowledged": True})
    screen.render(TableState(hand=7, phase="preflop", findings=(acked,)), OK_HEALTH, [])
    assert screen.frame.banner is None


def test_most_serious_finding_wins_the_banner(screen):
    screen.render(TableState(hand=8, phase="deal", findings=(EXPOSED, MISDEAL)), OK_HEALTH, [])
    assert screen.frame.banner.id == MISDEAL.id
    assert screen.frame.texts("more") == ["+1 more"]


def test_showdown_with_side_pots(screen):
    state = showdown()
    surf = screen.render(state, OK_HEALTH, [])
    f = screen.frame
    shown = {}
    for d in f.find("shown-card"):
        shown.setdefault(d.ref, []).append(d.text)
    assert shown == {1: list(HOLE[1]), 2: list(HOLE[2]), 6: list(HOLE[6])}
    assert f.texts("pot") == ["Pot 750"]
    side = f.texts("side-pots")[0]
    assert side == "Main pot: 450 to S1  |  Side pot 1: 300 to S2"   # each pot's number apart from its amount
    assert f.texts("push") == ["Push: 450 to S1,  300 to S2"]
    assert sorted(f.texts("winner")) == ["WINS 300", "WINS 450"]
    box = f.find("seat", 1)[0].rect
    assert colour_at(surf, (box.centerx, box.bottom - 3)) == theme.SEAT_WINNER
    # One award key per pot, each confirming that pot to its winners.
    inputs = [press(screen, "award:0"), None]
    screen.render(state, OK_HEALTH, [])
    inputs[1] = press(screen, "award:1")
    assert [(i.action, i.ref, i.seats) for i in inputs] == [("award", "0", (1,)), ("award", "1", (2,))]
    # A paid pot loses its key and says so.
    paid = te.PotAwarded(9.0, 11, 0, te.Pot(450, (1, 2, 6), (1,), {1: 450}))
    screen.render(state, OK_HEALTH, [paid])
    assert screen.frame.target("award:0") is None and screen.frame.target("award:1") is not None
    assert "Main pot: 450 to S1 paid" in screen.frame.texts("side-pots")[0]


def test_omaha_hands_show_four_backs_then_four_faces():
    screen = Screen(Config(), (800, 480))
    seats = tuple(SeatView(seat=s, occupied=True, in_hand=True, cards_held=4) for s in range(1, 7))
    screen.render(TableState(hand=1, phase="preflop", game="plo", seats=seats), OK_HEALTH, [])
    assert len(screen.frame.find("card-back", 3)) == 4
    shown = tuple(SeatView(seat=s, occupied=True, in_hand=True, cards_held=4,
                           shown=("As", "Ks", "Qd", "Jd") if s == 2 else ()) for s in range(1, 7))
    screen.render(TableState(hand=1, phase="showdown", game="plo", seats=shown), OK_HEALTH, [])
    assert screen.frame.texts("shown-card") == ["As", "Ks", "Qd", "Jd"]


BIG_O = {1: ("As", "2d", "Kh", "Qc", "9s"), 2: ("Th", "Td", "8c", "7c", "3s"), 6: ("4h", "5h", "Jc", "Js", "6d")}


def big_o_split(pots: int = 2) -> TableState:
    """Big O high-low at showdown, nine seats: two pots, each with its high and its low (what the engine's
    ``pot_halves`` says); seats 1, 2 and 6 show their five cards, the others folded."""
    seats = tuple(SeatView(seat=s, occupied=True, in_hand=s in BIG_O, folded=s not in BIG_O,
                           cards_held=5 * (s in BIG_O), shown=BIG_O.get(s, ()), stack=0 if s in (1, 2) else 1_200 - s)
                  for s in range(1, 10))
    halves = ("High: seat 2 Three of a Kind · Low: seats 1 and 6 7-5-4-2-A",
              "High: seat 2 Three of a Kind · Low: seat 6 8-6-5-4-3")[:pots]
    return TableState(hand=12, phase="showdown", game="plo5-8", button=9, board=("Ts", "7d", "5c", "4d", "Ac"),
                      burn_count=3, muck_count=30, pot=900, pots=((600, (1, 2, 6)), (300, (2, 6)))[:pots],
                      seats=seats, winners={1: 75, 2: 450, 6: 375}, pot_winners=((1, 2, 6), (2, 6))[:pots],
                      pot_halves=halves)


@pytest.mark.parametrize("pots", [1, 2])
def test_a_split_showdown_names_each_pots_high_and_low_readably(screen, pots):
    """Omaha high-low at showdown: each pot's high and low winners whole (never cut), a line a pot or its high
    and low on two lines, named by pot when there are side pots; five shown cards a seat with every card's
    corner in sight."""
    state = big_o_split(pots)
    screen.render(state, OK_HEALTH, [])
    f = screen.frame
    lines = [d for d in f.find("pot-halves")]
    text = " · ".join(d.text for d in lines)
    assert "…" not in text
    for i, want in enumerate(state.pot_halves):
        named = (("Main pot: " if i == 0 else f"Side pot {i}: ") if pots > 1 else "") + want
        assert " · ".join(d.text for d in lines if d.ref == i) == named
    assert [d.ref for d in lines] == sorted(d.ref for d in lines)
    if pots == 1:
        assert not f.find("side-pots")      # the halves name the winners: no "Main pot: 600 to S1 S2 S6" too
    else:
        # the pots' amounts as at any showdown, whole: on one line, or a line a pot where one is too narrow
        assert "  |  ".join(f.texts("side-pots")) == "Main pot: 600 to S1 S2 S6  |  Side pot 1: 300 to S2 S6"
    assert f.texts("pot") == [f"Pot {sum(a for a, _ in state.pots):,}"]
    # the lines sit on the felt, under the pot, clear of every seat box
    seats = [d.rect for d in f.find("seat")]
    pot = f.find("pot")[0].rect
    for d in lines:
        assert d.rect.top >= pot.bottom and not any(d.rect.colliderect(b) for b in seats), d.text
    for seat, cards in BIG_O.items():
        fan = f.find("shown-card", seat)
        assert [d.text for d in fan] == list(cards)
        box = f.find("seat", seat)[0].rect
        for a, b in itertools.pairwise(fan):
            assert box.contains(a.rect) and box.contains(b.rect)
            assert b.rect.left - a.rect.left >= a.rect.width * 2 // 5, (seat, a.rect, b.rect)  # the corner shows
        assert fan[0].rect.height >= 30
    assert_fits(screen)


def test_big_o_deals_five_backs_a_seat_that_clear_the_stack(screen):
    seats = tuple(SeatView(seat=s, occupied=True, in_hand=True, cards_held=5, stack=12_345 * s) for s in range(1, 10))
    screen.render(TableState(hand=1, phase="preflop", game="plo5-8", button=9, seats=seats), OK_HEALTH, [])
    f = screen.frame
    for s in range(1, 10):
        backs = f.find("card-back", s)
        assert len(backs) == 5 and not f.find("shown-card", s)
        assert all(b.rect.left - a.rect.left >= 4 for a, b in itertools.pairwise(backs))  # five, told apart
        stack = f.find("stack", s)[0].rect
        assert not any(stack.colliderect(b.rect) for b in backs)
    assert not all_cards() & {d.text for d in f.drawn}
    assert_fits(screen)


# --- geometry at every size --------------------------------------------------------------------------

@pytest.mark.parametrize("moment", [clean_hand, misdeal, void_hand, showdown])
def test_layout_fits_and_targets_are_finger_sized(screen, moment):
    screen.render(moment(), {"reader": {"connected": False}}, [])  # with the health strip too
    assert_fits(screen)


def assert_fits(screen):
    """Everything drawn is on the screen, every target is finger-sized, no two targets or seats overlap."""
    f = screen.frame
    bounds = pygame.Rect((0, 0), screen.size)
    for d in f.drawn:
        assert bounds.contains(d.rect), (d.kind, d.text, d.rect)
    for t in f.targets:
        assert t.rect.width >= theme.MIN_TOUCH and t.rect.height >= theme.MIN_TOUCH, (t.key, t.rect)
    for a, b in itertools.combinations(f.targets, 2):
        assert not a.rect.colliderect(b.rect), (a.key, b.key)
    boxes = [d.rect for d in f.find("seat")]
    for a, b in itertools.combinations(boxes, 2):
        assert not a.colliderect(b)


@pytest.mark.parametrize("n", [2, 6, 9, 10])
def test_seats_clockwise_from_the_dealers_left(n):
    screen = Screen(Config(), (1024, 600))
    screen.render(clean_hand(n), OK_HEALTH, [])
    boxes = {d.ref: d.rect for d in screen.frame.find("seat")}
    assert sorted(boxes) == list(range(1, n + 1))
    table = screen.frame.find("pot")[0].rect
    assert boxes[1].centerx < table.centerx < boxes[n].centerx  # seat 1 on the dealer's left (screen left)
    assert boxes[1].centery > table.centery and boxes[n].centery > table.centery
    for a, b in itertools.combinations(boxes.values(), 2):
        assert not a.colliderect(b)


# --- taps --------------------------------------------------------------------------------------------


def test_taps_make_dealer_inputs(screen):
    screen.render(checkable_hand(), OK_HEALTH, [])
    check = press(screen, "check")
    assert (check.action, check.seat, check.t) == ("check", 3, 100.0)
    assert press(screen, "exposed").action == "exposed"
    floor = press(screen, "call-floor")
    assert (floor.action, floor.ref) == ("call-floor", None)


def test_misdeal_and_new_hand_ask_for_a_second_tap(screen):
    screen.render(checkable_hand(), OK_HEALTH, [])
    assert press(screen, "misdeal") is None
    screen.render(checkable_hand(), OK_HEALTH, [])
    assert screen.frame.texts("prompt") and screen.frame.target("check") is None
    assert press(screen, "cancel") is None
    screen.render(checkable_hand(), OK_HEALTH, [])
    assert screen.frame.target("check") is not None
    assert press(screen, "misdeal") is None
    screen.render(checkable_hand(), OK_HEALTH, [])
    assert press(screen, "confirm:misdeal").action == "misdeal"
    # Between hands New hand is one tap; during a hand it asks first.
    screen.render(TableState(hand=7, phase="ended"), OK_HEALTH, [])
    assert press(screen, "new-hand").action == "new-hand"
    screen.render(clean_hand(), OK_HEALTH, [])
    assert press(screen, "new-hand") is None
    screen.render(clean_hand(), OK_HEALTH, [])
    assert press(screen, "confirm:new-hand").action == "new-hand"


def test_banner_keys(screen):
    screen.render(misdeal(), OK_HEALTH, [])
    ack = press(screen, "ack:h8-1")
    assert (ack.action, ack.ref) == ("ack", "h8-1")
    screen.render(misdeal(), OK_HEALTH, [])
    confirm = press(screen, "misdeal:h8-1")
    assert (confirm.action, confirm.ref) == ("misdeal", "h8-1")
    screen.render(misdeal(), OK_HEALTH, [])
    assert press(screen, "call-floor").ref == "h8-1"


def test_only_a_press_and_release_on_the_same_key_counts(screen):
    screen.render(checkable_hand(), OK_HEALTH, [])
    check, exposed = screen.frame.target("check").rect, screen.frame.target("exposed").rect
    screen.handle_mouse(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=check.center, button=1))
    assert screen.handle_mouse(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=exposed.center, button=1)) is None
    assert tap(screen, (2, screen.size[1] // 2)) is None          # the felt is not a key
    assert tap(screen, check.center, button=3) is None              # right button
    # A touch arrives as FINGER* and as mouse events; only the mouse events act, so a tap fires once.
    finger = pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, finger_id=0, touch_id=0)
    assert screen.handle_mouse(finger) is None
    disabled = Screen(Config(), screen.size)
    disabled.render(TableState(hand=None, phase="idle"), OK_HEALTH, [])
    assert disabled.frame.target("check") is None and "Check" in disabled.frame.texts("key-disabled")


def test_taps_drive_the_engine():
    """A tap on the screen goes through the real pipeline's engine and comes back as table events."""
    pipe = Pipeline(Config(), demo_registry())
    screen = Screen(Config(), (800, 480))
    screen.render(pipe.engine.snapshot(), OK_HEALTH, [])
    events = pipe.feed_input(press(screen, "call-floor"))
    assert [e.kind for e in events] == ["FloorCalled"]
    screen.ui.history = True
    screen.render(pipe.engine.snapshot(), OK_HEALTH, events)
    assert any(line.startswith("Floor called") for line in screen.frame.texts("history-line"))


# --- hand history ------------------------------------------------------------------------------------

def test_history_view(screen):
    events = hand_events()
    screen.render(clean_hand(), OK_HEALTH, events)
    assert press(screen, "history") is None
    screen.render(clean_hand(), OK_HEALTH, events)
    f = screen.frame
    assert f.texts("history-title")[:2] == ["Hand 11 (in play)", "Hand 10: complete"]
    lines = f.texts("history-line")
    assert "S3 raise 6  [preflop]" in lines and "Main pot 15 to S3" in lines
    assert "DEALER Hold'em 1: Replace it." in lines
    assert not any("Ah" in line for line in lines)  # the hole card dealt to seat 1 stays hidden
    assert not f.find("seat") and f.target("older") is None and f.target("newer") is None  # one page
    # Many hands: older pages, and back.
    many = [te.ActionTaken(float(i), 10, 1 + i % 3, "call", 2, 2, "flop") for i in range(80)] + events
    screen.render(clean_hand(), OK_HEALTH, many)
    assert screen.frame.target("newer") is None
    assert press(screen, "older") is None
    screen.render(clean_hand(), OK_HEALTH, many)
    assert screen.frame.target("newer") is not None
    assert "page 2/" in " ".join(d.text for d in screen.frame.drawn if d.kind == "history-page")
    assert press(screen, "table") is None
    screen.render(clean_hand(), OK_HEALTH, events)
    assert screen.frame.find("seat")


# --- health ------------------------------------------------------------------------------------------

def test_the_floor_dot_is_grey_when_no_floor_link_is_configured_and_green_when_one_is_up():
    screen = Screen(Config(), (800, 480), clock=Clock())

    def dot_colours(health):
        surf = screen.render(clean_hand(), health, [])
        text = screen.frame.find("health", "floor")[0]
        return text.text, {colour_at(surf, (x, text.rect.centery)) for x in range(text.rect.left - 30, text.rect.left)}

    text, colours = dot_colours({"reader": {"connected": True, "seq_gaps": 0}})   # a table with no floor link
    assert text == "off" and theme.HEALTH_OFF in colours and theme.HEALTH_OK not in colours
    text, colours = dot_colours(OK_HEALTH)
    assert text == "ok" and theme.HEALTH_OK in colours and theme.HEALTH_OFF not in colours


def test_health_is_small_until_something_is_wrong():
    clock = Clock()
    screen = Screen(Config(), (800, 480), clock=clock)
    screen.render(clean_hand(), {"reader": {"connected": True, "heartbeat_age_s": 0.5, "seq_gaps": 0},
                                 "floor": {"connected": True, "outbox_depth": 0}}, [])
    assert not screen.frame.find("health-alert")
    assert {d.ref: d.text for d in screen.frame.find("health")} == {"board": "0s", "floor": "ok"}

    surf = screen.render(clean_hand(), {"board_connected": False}, [])
    alert = screen.frame.find("health-alert")[0]
    assert "Reader board disconnected" in alert.text
    assert colour_at(surf, (2, alert.rect.centery)) == theme.HEALTH_BAD

    surf = screen.render(clean_hand(), {"reader": {"connected": True, "seq_gaps": 2, "frames_lost": 5},
                                        "floor": {"connected": False, "outbox_depth": 37}}, [])
    text = screen.frame.texts("health-alert")[0]
    assert "Sensor data lost (2 gaps, 5 frames)" in text and "Floor link down: 37 queued" in text
    assert colour_at(surf, (2, screen.frame.find("health-alert")[0].rect.centery)) == theme.HEALTH_WARN
    # A gap is news for a while, then only a count.
    clock.t += 60
    screen.render(clean_hand(), {"reader": {"connected": True, "seq_gaps": 2}}, [])
    assert not screen.frame.find("health-alert")


def test_a_silent_board_shows_up_without_any_update():
    clock = Clock()
    screen = Screen(Config(), (800, 480), clock=clock)
    screen.accept(Update((), clean_hand(), {"reader": {"connected": True, "heartbeat_age_s": 1.0}}))
    assert screen.redraw_if_changed() is True
    assert screen.redraw_if_changed() is False           # nothing changed: no redraw
    clock.t += 1
    assert screen.redraw_if_changed() is True            # the age shown went from 1 s to 2 s
    assert not screen.frame.find("health-alert")
    clock.t += 5
    assert screen.redraw_if_changed() is True
    assert "No heartbeat from the board for 7 s" in screen.frame.texts("health-alert")[0]


# --- the loop ----------------------------------------------------------------------------------------

def run_and_tap(screen, state, key):
    """The real main loop on the dummy driver: an update wakes it, a tap on ``key`` (posted as SDL mouse
    events) becomes a submitted input, and the loop ends. Returns the inputs submitted."""
    updates: queue.Queue = queue.Queue()
    got: list = []

    def submit(dealer_input):
        got.append(dealer_input)
        updates.put(None)  # done: the loop ends on None

    def driver():
        updates.put(Update((), state, OK_HEALTH))
        for _ in range(500):  # until the loop has drawn the update
            frame = screen.frame
            if frame is not None and frame.target(key) is not None:
                break
            threading.Event().wait(0.01)
        target = screen.frame.target(key)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=target.rect.center, button=1))

    threading.Thread(target=driver, daemon=True).start()
    stop = threading.Event()
    threading.Timer(10, stop.set).start()  # a broken loop fails the test instead of hanging it
    screen.run(updates, submit, stop=stop, mode="window")
    stop.set()
    return got


def test_run_draws_updates_and_submits_taps():
    screen = Screen(Config(), (800, 480))
    got = run_and_tap(screen, checkable_hand(), "check")
    assert [(i.action, i.seat) for i in got] == [("check", 3)]
    assert screen.state == checkable_hand()


# --- cached pieces ----------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_frame_from_cached_pieces_is_the_frame_drawn_from_scratch(size):
    """The renderer reuses seats, banner, keys, cards and the felt from earlier frames: after any sequence of
    frames, every pixel, drawn fact and target must be what a fresh renderer draws for the same moment."""
    bad_health = {"reader": {"connected": False}, "floor": {"connected": False, "outbox_depth": 3}}
    moments = [(clean_hand(), OK_HEALTH, []), (misdeal(), OK_HEALTH, []), (showdown(), bad_health, []),
               (void_hand(), OK_HEALTH, hand_events()), (clean_hand(6), bad_health, []), (showdown(), OK_HEALTH, []),
               (clean_hand(), OK_HEALTH, hand_events()), (misdeal(), bad_health, [])]

    def facts(screen, surface):
        f = screen.frame
        return (pygame.image.tobytes(surface, "RGB"), [(d.kind, d.text, tuple(d.rect), d.ref) for d in f.drawn],
                [(t.key, t.label, tuple(t.rect), t.action, t.seat, t.ref, t.seats, t.ui) for t in f.targets])

    warm = Screen(Config(), size, clock=Clock())
    for i, moment in enumerate(moments + moments[::-1]):
        warm.ui.history = i == 9  # and once through the history view and back
        fresh = Screen(Config(), size, clock=Clock())
        fresh.ui.history = warm.ui.history
        assert facts(warm, warm.render(*moment)) == facts(fresh, fresh.render(*moment)), f"frame {i}"
