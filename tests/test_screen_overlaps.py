"""The dealer's screen keeps every label readable at 800x480 and 1024x600: no text, key, card, chip or the button
drawn over another or over a seat it does not belong to, and every winner's "WINS" label on the table, never
under a bar. Nine and ten seats with the button at every seat, a family pot, run it twice, a double-board bomb
pot, a high-low split, a long findings list and a tournament table's bars. Asserted on what the renderer says
it drew where (``Frame.drawn``) and the regions it laid the frame out in (``Frame.layout``), not on pixels."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from dealerbox.config import Config
from dealerbox.engine.state import FindingView, HouseView, RaceView, SeatView, TableState
from dealerbox.pipeline import Pipeline
from dealerbox.sinks.screen import Screen
from dealerbox.sources.scenario import compile_file
from tests.test_screen import OK_HEALTH, Clock
from tests.tournament.test_terminal_screen import BREAK, CLOCK, MOVE

SIZES = [(800, 480), (1024, 600)]
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
# What a frame draws that must stand clear of everything else it draws (the bars' backgrounds, the seat
# boxes, the sheet and the pots' per-pot records, which repeat the pot line's rectangle, are not in it).
BACKGROUNDS = {"seat", "banner", "question", "instruction", "tournament", "race", "sheet", "pinpad", "main-pot",
               "side-pot"}
CARDS = {"board-card", "run-card", "shown-card", "card-back", "finding-card"}
IN_SEAT = {"seat-number", "stack", "seat-status", "shown-card", "card-back"}


def problems(frame, state: TableState) -> list[str]:
    """Everything wrong with a frame's layout, one line each (empty: nothing overlaps)."""
    out = []
    drawn = [d for d in frame.drawn if d.kind not in BACKGROUNDS]
    for a, b in itertools.combinations(drawn, 2):
        if not a.rect.colliderect(b.rect):
            continue
        if a.kind in CARDS and b.kind in CARDS and (a.kind, a.ref) == (b.kind, b.ref):
            continue    # a fan of one seat's cards overlaps by design, each card's corner in sight
        if {a.kind, b.kind} <= {"board-card", "run-card"}:
            continue
        if {a.kind, b.kind} <= {"key", "key-disabled"}:
            continue    # the keys' own test (assert_fits) holds them apart
        out.append(f"{a.kind} {a.text!r} (seat/ref {a.ref}) overlaps {b.kind} {b.text!r} (seat/ref {b.ref})")
    seats = {d.ref: d.rect for d in frame.find("seat")}
    for d in drawn:
        if d.kind in IN_SEAT:
            if not seats[d.ref].contains(d.rect):
                out.append(f"{d.kind} {d.text!r} of seat {d.ref} leaves its box")
        elif any(d.rect.colliderect(box) for box in seats.values()) and not d.kind.startswith(("key", "question-",
                                                                                                 "clock-", "race-",
                                                                                                 "instruction-")):
            out.append(f"{d.kind} {d.text!r} (seat/ref {d.ref}) is over a seat")
    screen = pygame.Rect((0, 0), frame.surface.get_size())
    out += [f"{d.kind} {d.text!r} leaves the screen" for d in frame.drawn if not screen.contains(d.rect)]
    for seat in state.winners:
        labels = frame.find("winner", seat)
        if len(labels) != 1:
            out.append(f"seat {seat} wins but has {len(labels)} WINS labels")
        elif not frame.layout.body.contains(labels[0].rect):
            out.append(f"seat {seat}'s WINS label is off the table, under a bar: {labels[0].rect}")
    return out


# --- moments of a hand, nine or ten seats ----------------------------------------------------------------

def table(n: int, button: int, kind: str) -> TableState:
    """A heavy moment at ``n`` seats, the players placed from the seat after the button (so the button's seat
    and the winners' go round the table as the button does)."""
    def at(k: int) -> int:
        return (button + k - 1) % n + 1
    seats = {s: SeatView(s, occupied=True, stack=10_000 + s) for s in range(1, n + 1)}

    def play(players, shown):
        for s in seats:
            seats[s] = replace(seats[s], in_hand=s in players, folded=s not in players,
                               shown=shown if s in players else ())
    if kind == "family pot":   # everyone in with a bet before the flop, one to act
        for s in seats:
            seats[s] = replace(seats[s], in_hand=True, cards_held=2, bet=1_200, to_act=s == at(3))
        return TableState(hand=12, phase="preflop", game="nlhe", button=button, seats=tuple(seats.values()), pot=300)
    if kind == "run it twice":   # three all in, one wins each board, the pushes under way, a side pot
        players = [at(1), at(4), at(7)]
        play(players, ("Ah", "Kd"))
        wins = {players[0]: 15_000, players[1]: 15_000}
        for s, amount in wins.items():
            seats[s] = replace(seats[s], bet=amount, stack=0, all_in=True)
        house = HouseView(practices="RUN IT x2", boards=(("Kh", "8c", "5s", "6d", "Jc"),),
                          board_winners=(f"Board 1: S{players[0]} One Pair", f"Board 2: S{players[1]} Three of a Kind"))
        return TableState(hand=12, phase="showdown", game="nlhe", button=button, seats=tuple(seats.values()),
                          board=("2c", "7h", "9s", "3d", "4h"), burn_count=6, muck_count=14, winners=wins,
                          pots=((30_000, tuple(players)), (4_000, tuple(players[1:]))),
                          pot_winners=((players[0], players[1]), (players[1],)), house=house)
    if kind == "bomb pot":   # a double-board bomb pot: six shown, one wins each board
        players = [at(k) for k in range(1, 7)]
        play(players, ("Ah", "Kd"))
        wins = {players[2]: 300, players[5]: 300}
        house = HouseView(practices="BOMB 2 BOARDS", boards=(("Kh", "8c", "5s", "6d", "Jc"),),
                          board_winners=(f"Board 1: S{players[2]} Flush", f"Board 2: S{players[5]} Straight"))
        return TableState(hand=12, phase="showdown", game="nlhe", button=button, seats=tuple(seats.values()),
                          board=("2c", "7h", "9s", "3d", "4h"), burn_count=6, muck_count=3, winners=wins,
                          pots=((600, tuple(players)),), pot_winners=((players[2], players[5]),), house=house)
    if kind == "high-low":   # Omaha high-low: four shown, the high and the low, a side pot
        players = [at(1), at(3), at(5), at(8)]
        play(players, ("Ah", "2d", "Qs", "Jc"))
        wins = {players[0]: 4_500, players[2]: 3_000}
        halves = (f"High: seat {players[0]} Three of a Kind · Low: seat {players[2]} 7-5-3-2-A",
                  f"High: seat {players[0]} Three of a Kind · Low: no low")
        return TableState(hand=12, phase="showdown", game="plo8", button=button, seats=tuple(seats.values()),
                          board=("2h", "5d", "Kc", "7s", "Qd"), burn_count=3, muck_count=20, winners=wins,
                          pots=((6_000, tuple(players)), (1_500, tuple(players[:2]))),
                          pot_winners=((players[0], players[2]), (players[0],)), pot_halves=halves)
    assert kind == "between hands"
    return TableState(hand=12, phase="ended", game="nlhe", button=button, seats=tuple(seats.values()))


FINDINGS = tuple(FindingView(f"h12-{i}", "showdown.2", f"No-Limit 14; Ties {3 + i}, 5(a)", "info", "note",
                             "Every pot is divided equally by board, odd chips to board 1; each board's part is "
                             "split as its own pot (Ties 5a): board 1 main pot to seat 3; board 2 main pot to seat 1.",
                             seats=(1, 3)) for i in range(4))
RACE = RaceView(5, 25, "white", "green", odd=((1, 3), (2, 1)))
BARS = {
    "no bar": {},
    "four findings": {"findings": FINDINGS},
    "clock and findings": {"findings": FINDINGS, "tournament": CLOCK},
    "clock, a move and findings": {"findings": FINDINGS, "tournament": CLOCK, "instruction": MOVE},
    "clock and a table breaking": {"tournament": CLOCK, "instruction": BREAK},
    "clock, a table breaking and findings": {"findings": FINDINGS, "tournament": CLOCK, "instruction": BREAK},
    "clock, a chip race and findings": {"findings": FINDINGS, "tournament": CLOCK, "race": RACE},
}
# The bars each moment is drawn under. Three bars (the clock, the floor's instruction or a race, a finding)
# come between hands; a hand still on under all three at these sizes is drawn too, except a run-it-twice
# showdown with its side pot and a family pot, whose middle then has room for the pot and board alone
# (docs/screen.md, "When the table is short").
UNDER = {"family pot": ["no bar", "four findings", "clock and findings"],
         "run it twice": ["no bar", "four findings", "clock and findings"],
         "bomb pot": list(BARS),
         "high-low": ["no bar", "four findings", "clock and findings", "clock, a move and findings"],
         "between hands": list(BARS)}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("kind", list(UNDER))
def test_nothing_drawn_overlaps_with_nine_or_ten_seats_and_the_button_at_every_seat(size, kind):
    screen = Screen(Config(), size, clock=Clock())
    seen = {}
    for n in (9, 10):
        for bars in UNDER[kind]:
            for button in range(1, n + 1):
                state = replace(table(n, button, kind), **BARS[bars])
                screen.render(state, OK_HEALTH, [])
                for problem in problems(screen.frame, state):
                    seen.setdefault(problem.split(" (")[0], f"{n} seats, {bars}, button {button}: {problem}")
                assert {d.ref for d in screen.frame.find("button")} == {button}
    assert not seen, "\n".join(seen.values())


# --- the referee's three findings, on the scenarios that showed them --------------------------------------

def stepped(path: Path):
    """(the step's line, state, events) after each step of the scenario at ``path``."""
    compiled = compile_file(path)
    pipe = Pipeline.from_header(compiled.header)
    events: list = []
    done = 0
    for step in compiled.steps:
        for record in compiled.records[done:step.end]:
            events += pipe.feed(record)
        done = step.end
        yield step.text, pipe.engine.snapshot(), events[-200:]


def steps(name: str):
    """(state, events) after each step of a scenario."""
    for _, state, events in stepped(SCENARIOS / name):
        yield state, events


def showdown_of(name: str):
    return next((s, e) for s, e in steps(name) if s.phase == "showdown" and s.winners)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_more_line_stays_left_of_the_acknowledge_key(size):
    """Run it twice at showdown: four notes open, the banner's head says "+3 more" beside the citation."""
    state, events = showdown_of("house-boards.1.scn")
    screen = Screen(Config(), size, clock=Clock())
    screen.render(state, OK_HEALTH, events)
    f = screen.frame
    more, = f.find("more")
    assert more.text.startswith("+") and more.text.endswith(" more")
    ack = f.target(f"ack:{f.banner.id}").rect
    banner = f.find("banner")[0].rect
    for d in f.find("citation") + [more]:
        assert not d.rect.colliderect(ack) and d.rect.right < ack.left and banner.contains(d.rect), d


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["house-boards.1.scn", "house-run-it-three-times.scn", "house-bomb-pot.1.scn",
                                  "showdown-highlow-split.scn", "showdown-split-odd-chip.scn"])
def test_every_winner_of_a_split_pot_has_its_wins_label_on_the_table(size, name):
    """Two boards, three boards, a double-board bomb pot and the high-low split all have a winner in the top row,
    whose label went above its box, under the findings banner."""
    state, events = showdown_of(name)
    assert len(state.winners) >= 2
    screen = Screen(Config(), size, clock=Clock())
    screen.render(state, OK_HEALTH, events)
    f = screen.frame
    for seat, amount in state.winners.items():
        label, = f.find("winner", seat)
        assert label.text == f"WINS {amount:,}"
        assert not any(label.rect.colliderect(d.rect) for d in f.find("banner") + f.find("seat")), label
        assert f.layout.body.contains(label.rect)
    assert problems(f, state) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["house-boards.1.scn", "showdown-highlow-split.scn"])
def test_the_button_covers_no_label_of_the_winner_beside_it(size, name):
    """Seat 1 has the button and wins: the puck went where its "WINS" label was."""
    state, events = showdown_of(name)
    screen = Screen(Config(), size, clock=Clock())
    screen.render(state, OK_HEALTH, events)
    f = screen.frame
    puck, = f.find("button")
    assert puck.ref == state.button and state.button in state.winners
    for d in f.drawn:
        if d.kind not in BACKGROUNDS and d.kind != "button":
            assert not puck.rect.colliderect(d.rect), d
    assert not any(puck.rect.colliderect(d.rect) for d in f.find("seat"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["house-boards.1.scn", "house-bomb-pot.1.scn", "showdown-highlow-split.scn",
                                  "house-run-it-three-times.scn", "lowball-triple-draw-ok.scn"])
def test_every_step_of_the_new_games_draws_nothing_over_anything(size, name):
    screen = Screen(Config(), size, clock=Clock())
    for i, (state, events) in enumerate(steps(name), 1):
        screen.render(state, OK_HEALTH, events)
        assert problems(screen.frame, state) == [], f"{name} step {i}"


# --- a draw game (27td, docs/draw.md) -------------------------------------------------------------------------

def draw_hand_frames(tmp_path, size):
    """Each step of the clean triple-draw scenario, seat 2 tapped as standing pat in the second draw, rendered:
    (the step's line, the state, what the frame drew)."""
    text = (SCENARIOS / "lowball-triple-draw-ok.scn").read_text()
    text = text.replace("burn\ndraw 3 Jd -> Th", "burn\ntap stand-pat seat 2\ndraw 3 Jd -> Th")
    path = tmp_path / "draw.scn"
    path.write_text(text)
    screen = Screen(Config(), size, clock=Clock())
    for line, state, events in stepped(path):
        screen.render(state, OK_HEALTH, events)
        yield line, state, screen.frame


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_draw_game_names_its_rounds_shows_draw_counts_and_no_hole_card(tmp_path, size):
    seen: list[tuple[str, dict[int, str], list[str]]] = []
    for i, (_, state, frame) in enumerate(draw_hand_frames(tmp_path, size), 1):
        assert problems(frame, state) == [], f"step {i}"
        phase = frame.find("phase")[0].text
        assert phase not in ("Flop", "Turn", "River", "Pre-flop"), f"step {i}: {phase}"
        if state.phase != "showdown" and not state.winners:
            # no card face before the showdown: backs only (a discard is a hole card too)
            assert not frame.find("shown-card") and not frame.find("board-card"), f"step {i}"
        status = {d.ref: d.text for d in frame.find("seat-status")}
        keys = [d.text for d in frame.drawn if d.kind == "key"]
        seen.append((phase, status, keys))
    phases = [p for p, _, _ in seen]
    for name in ("Bet 1", "Draw 1", "Bet 2", "Draw 2", "Bet 3", "Draw 3", "Bet 4"):
        assert name in phases, (name, phases)
    # the first draw: seat 2 threw two and has both, seat 3 is next; the key stands seat 3 pat
    first = next((s, k) for p, s, k in seen if p == "Draw 1" and s.get(2) == "DREW 2")
    assert first[0].get(3) == "TO DRAW" and "Stand pat S3" in first[1], first
    # the second draw: seat 2 knocked (tapped), seat 3 drew one
    assert any(p == "Draw 2" and s.get(2) == "PAT" and s.get(3) == "DREW 1" for p, s, _ in seen), seen
    # no stand-pat key outside a draw
    assert all(not any(k.startswith("Stand pat") for k in keys) for p, _, keys in seen if not p.startswith("Draw"))
