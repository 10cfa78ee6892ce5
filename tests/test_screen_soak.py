"""A screen left on for weeks: hundreds of hands through the real Screen (SDL dummy driver), well past the point
where every cache is full, must leave what it holds bounded. Counted in objects, surfaces and bytes of pixels, not
in time (issue 19)."""

from dealerbox.config import Config
from dealerbox.engine import events as te
from dealerbox.engine.state import TableState
from dealerbox.sinks.screen import Screen
from dealerbox.sinks.screen.history import KEEP_HANDS, RecentEvents
from tests.screen_soak import hands, held

# Every cache is full within 100 hands (the layout LRU's entries last; the pixel LRUs at their byte budgets
# sooner), so 400 fill them and the next 400 churn them, the history view opened four times in each half; and a
# leak of one object a hand over the second 400 would break the 5 % the objects may move (of about 7,700 held)
HANDS = 800


def play(screen, updates_of_hands, history_every=100):
    for i, updates in enumerate(updates_of_hands):
        for n, update in enumerate(updates):
            screen.accept(update)
            # The showdown, the busiest frame (every seat new); every 7th hand the flop too, with its finding.
            if n == 2 or (n == 1 and update.state.findings):
                screen.redraw_if_changed()
        if i % history_every == history_every - 1:  # now and then the dealer looks back
            screen.ui.history = True
            screen.redraw_if_changed()
            screen.ui.history = False


def test_the_second_four_hundred_hands_leave_the_screen_holding_what_it_held_after_the_first():
    size = (800, 480)
    screen = Screen(Config(), size)
    play(screen, hands(HANDS // 2, seed=3))   # long enough for every cache to have filled to its bound
    warm_objects, warm_surfaces, _ = held(screen)
    play(screen, hands(HANDS // 2, seed=4, start=HANDS // 2 + 1))
    objects, surfaces, pixels = held(screen)
    assert screen.state.hand == HANDS
    # Objects and surfaces: flat within what one hand's own pieces can change (stacks, labels, cards).
    assert objects <= warm_objects * 1.05, (warm_objects, objects)
    assert surfaces <= warm_surfaces * 1.2, (warm_surfaces, surfaces)
    # Pixels: the caches stay within their budgets, one screenful each, and two backgrounds.
    frame = 4 * size[0] * size[1]
    assert screen.renderer.cache_bytes() <= 5 * frame
    assert pixels <= 7 * frame  # the caches and the frame itself
    # Events: the last hands whole, nothing from hand 1.
    kept_hands = {e.hand for e in screen.events if e.hand is not None}
    assert len(kept_hands) <= KEEP_HANDS and min(kept_hands) > HANDS - KEEP_HANDS
    assert screen.frame.texts("hand") == [f"Hand {HANDS}"]


def test_the_screen_measures_texts_it_keeps_no_more_of_than_a_few_screens_show():
    from dealerbox.sinks.screen.canvas import LAYOUT_KEPT

    screen = Screen(Config(), (800, 480))
    layout = screen.renderer.canvas._layout_cache
    play(screen, hands(150, seed=5))         # every hand new bets and stacks: thousands of texts measured
    assert len(layout) == LAYOUT_KEPT == 512, len(layout)   # 2,048 before: still filling after 500 real hands
    play(screen, hands(50, seed=6, start=151))
    assert len(layout) == LAYOUT_KEPT
    assert screen.frame.texts("hand") == ["Hand 200"]   # and the screen still draws what it is told


def finding(hand, severity, fid):
    return te.FindingRaised(float(hand), hand, fid, "holdem.1", "Hold'em 1", severity, "card-replaced", "ruling")


def test_recent_events_keep_whole_hands_and_unanswered_floor_findings():
    recent = RecentEvents(hands=3, most=1000)
    for hand in range(1, 11):
        recent.extend([te.HandStarted(float(hand), hand, 1, (1, 2), "nlhe"),
                       te.ActionTaken(float(hand), hand, 1, "bet", 5, 5, "preflop")])
        if hand == 2:
            recent.extend([finding(2, "floor", "h2-1"), finding(2, "dealer", "h2-2"), finding(2, "floor", "h2-3")])
        if hand == 4:
            recent.extend([te.FindingAcknowledged(4.0, 4, "h2-3")])
    assert sorted({e.hand for e in recent if isinstance(e, te.HandStarted)}) == [8, 9, 10]
    # h2-1 waits for the floor still; h2-2 was the dealer's, h2-3 was answered (its ack went with hand 4)
    assert [e.id for e in recent if isinstance(e, te.FindingRaised)] == ["h2-1"]
    assert len(recent) == 1 + 3 * 2
    assert recent[-1].hand == 10


def test_recent_events_are_capped_even_inside_one_endless_hand():
    recent = RecentEvents(hands=3, most=50)
    recent.extend([te.HandStarted(0.0, 1, 1, (1, 2), "nlhe")])
    recent.extend(te.ActionTaken(float(i), 1, 1, "bet", i, i, "preflop") for i in range(1, 500))
    assert len(recent) == 50 and recent[-1].amount == 499
    recent.extend([te.HandStarted(1.0, 2, 1, (1, 2), "nlhe")])
    assert recent[-1].hand == 2 and len(recent) == 50


UPKEEP = {"reader": {"connected": True}, "memory_mb": 61.6, "disk_free_mb": 12034, "log_days": 14,
          "outbox_depth": 3}


def test_the_history_view_shows_memory_disk_log_days_and_outbox():
    screen = Screen(Config(), (800, 480))
    screen.ui.history = True
    screen.render(TableState(), UPKEEP, [])
    line = screen.frame.find("upkeep")[0]
    assert line.text == "memory 62 MB   disk 12,034 MB free   logs 14 days kept   outbox 3"
    assert not line.rect.colliderect(screen.frame.find("history-page")[0].rect)
    assert not screen.frame.find("health-alert")  # all fine: small, not an alarm
    screen.render(TableState(), {"reader": {"connected": True}}, [])
    assert not screen.frame.find("upkeep")   # not passed, not shown (and never guessed)


def test_a_disk_nearly_full_or_memory_over_budget_is_an_alert():
    screen = Screen(Config(), (800, 480))
    screen.render(TableState(), {**UPKEEP, "disk_free_mb": 300}, [])
    assert screen.frame.texts("health-alert") == ["Disk nearly full: 300 MB left"]
    screen.render(TableState(), {**UPKEEP, "disk_free_mb": 20, "memory_mb": 95.0}, [])
    alert = screen.frame.find("health-alert")[0]
    assert alert.ref == "bad" and "Memory high: 95 MB" in alert.text and "Disk full: 20 MB left" in alert.text
    screen.render(TableState(), {**UPKEEP, "disk_free_mb": "lots"}, [])   # not a number: not shown, no crash
    assert not screen.frame.find("health-alert")


def test_events_the_full_floor_outbox_dropped_are_said_on_the_screen():
    screen = Screen(Config(), (800, 480))
    link = {"connected": False, "outbox_depth": 5000}
    screen.render(TableState(), {"floor": link}, [])
    assert screen.frame.texts("health-alert") == ["Floor link down: 5000 queued"]
    screen.render(TableState(), {"floor": {**link, "dropped": 37}}, [])
    alert = screen.frame.find("health-alert")[0]
    assert alert.ref == "warn" and "Floor outbox full: 37 routine events dropped (alerts kept" in alert.text
