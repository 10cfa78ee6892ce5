"""Session fault classes of killed pots and missed blinds made up (issue 18), registered in tests/faults/sessions.py.

The simulator posts every kill that falls due (the killer, live, in turn, the limits scaled) and can make up a
returning player's missed blinds (the big blind live, a missed small blind dead); pokerkit referees both (a
negative blind at the poster's index, a dead per-player ante: tests/faults/test_referee_posts.py). So killed
hands are played clean, hand after hand, and the faults of a killed pot or a make-up are edited into them:

- ``killed-hands``, ``half-killed-hands``: every kill posted and played (Kill Pots 2), the killer who wins or
  splits kills again (Kill Pots 7, 4): only the info of each kill at its hand's start, pokerkit's stacks;
- ``killer-splits``: a royal flush staged on the board of each killed hand, so that the killer who reaches the
  showdown splits the pot and kills again (Kill Pots 4);
- ``short-call-in-a-killed-pot``: a player calls the unkilled big blind (Kill Pots 9), then completes the call;
- ``leg-holder-steps-away``: the player with a leg up taps sit-out and back in between two hands (Kill Pots 5);
- ``kill-button-misplaced``: the kill button put in front of a seat while neutral (Kill Pots 1), or in front of a
  seat without the leg, then taken away or moved to the holder;
- ``new-player-in-a-killed-pot``: a new player sits down and posts a big blind where they sit while kills fall
  due; dealt into a killed pot, they are told they may play only by killing the next one (Kill Pots 12);
- ``sit-out-and-make-up``: a player back from sitting out posts the big blind live and a missed small blind dead
  (Blinds 9), out of position, in one motion;
- ``make-up-short``: the same player posts only the big blind; told to add the dead small blind, it does.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from dealerbox.engine import inputs as ev
from dealerbox.pipeline import Pipeline
from dealerbox.sources.sim.chips import TableChips
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import CardTag, ChipTag, TagRegistry

Inputs = list[ev.EngineInput]
REMEDY_AFTER = 0.8      # seconds from the faulty motion to the remedy: the engine closes a motion after 0.5
SHIFT = 1.2             # how much later the rest of the hand runs once a remedy is slipped in


def chips_worth(chips: TableChips, amount: int) -> list[str]:
    """Rack chips (none in play) making ``amount``, largest first; [] when the rack cannot make it."""
    picked: list[str] = []
    for value in chips.denoms:
        spare = chips.bank.get(value, [])
        take = min(amount // value, len(spare))
        picked += spare[:take]
        amount -= take * value
    return picked if amount == 0 else []


def every_kill_posted(sim: Simulator, at: int, dealt: int) -> bool:
    """Nothing to do between hands: the table plays each kill as it falls due, quiet but for its info."""
    return True


ROYAL = ("As", "Ks", "Qs", "Js", "Ts")


def killer_splits(sim: Simulator, at: int, dealt: int) -> bool:
    """Before each killed hand the board is staged a royal flush: in hold'em every showdown is a split, so a
    killer who reaches one splits the pot and must kill again (Kill Pots 4). Quiet but for the kills' info."""
    if sim.posts.kill.due is not None and sim.holes == 2:
        sim.stage_board(ROYAL)
    return True


def stages_the_board_again(sim: Simulator, hands_since: int) -> None:
    killer_splits(sim, 0, 0)


def _first_card(inputs: Inputs) -> int | None:
    return next((i for i, x in enumerate(inputs) if isinstance(x, (ev.ZoneLeft, ev.CardFaceSensed))
                 and x.zone == "shoe" and isinstance(x.tag, CardTag)), None)


def _motion(inputs: Inputs, start: int, zone: str) -> tuple[int, int] | None:
    """(first, end) indices of the first motion of chips into ``zone`` at or after ``start``."""
    first = next((i for i in range(start, len(inputs)) if isinstance(inputs[i], ev.ZoneEntered)
                  and inputs[i].zone == zone and isinstance(inputs[i].tag, ChipTag)), None)
    if first is None:
        return None
    end = first
    while end < len(inputs) and isinstance(inputs[end], ev.ZoneEntered) and inputs[end].zone == zone \
            and isinstance(inputs[end].tag, ChipTag):
        end += 1
    return first, end


def split_motion(inputs: Inputs, first: int, end: int, amount: int) -> Inputs | None:
    """The motion ``inputs[first:end]`` with only chips worth ``amount`` in it; the others come in a second
    motion REMEDY_AFTER later (the player bringing it up when told), and the rest of the hand runs SHIFT later.
    None when no set of the motion's chips makes ``amount``."""
    chips = inputs[first:end]
    values = [x.tag.value for x in chips]
    keep = next((set(c) for n in range(1, len(chips)) for c in combinations(range(len(chips)), n)
                 if sum(values[i] for i in c) == amount), None)
    if keep is None:
        return None
    now = [x for i, x in enumerate(chips) if i in keep]
    at = chips[-1].t + REMEDY_AFTER
    later = [replace(x, t=at + 0.02 * k) for k, x in enumerate(x for i, x in enumerate(chips) if i not in keep)]
    return inputs[:first] + now + later + [replace(x, t=x.t + SHIFT) for x in inputs[end:]]


def short_call_in_a_killed_pot(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry,
                               chips: TableChips) -> Inputs | None:
    """In a killed hand the first player to call the kill before the flop (out of the blinds) puts in only the
    big blind, unaware of the kill (Kill Pots 9: it must put in the full kill); told so, it adds the rest."""
    kill, game = pipe.engine.betting.kill, pipe.engine.betting.game
    exp = hand.expected
    if kill.due is None or kill.due not in exp.dealt_in:
        return None
    amount = kill.amount(game.big_blind)
    caller = next((seat for street, seat, kind, to in exp.actions if street == "preflop" and kind == "call"
                   and to == amount and seat not in exp.blinds), None)
    deal = _first_card(hand.inputs)
    if caller is None or deal is None:
        return None
    motion = _motion(hand.inputs, deal, f"bet{caller}")
    return split_motion(hand.inputs, *motion, game.big_blind) if motion else None


def leg_holder_steps_away(sim: Simulator, at: int, dealt: int) -> bool:
    """The player with a leg up steps away (sit-out) and is back (back-in) before the next deal, owing nothing:
    no other pot was won meanwhile, so the leg is kept (Kill Pots 5)."""
    holder = sim.posts.kill.holder
    if holder is None or holder not in sim.stacks or sim.posts.kill.due is not None:
        return False
    sim.away.taps += [("sit-out", holder), ("back-in", holder)]
    return True


def kill_button_misplaced(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry,
                          chips: TableChips) -> Inputs | None:
    """Before the deal the dealer puts the kill button in front of a seat: in the first hand, while it is neutral
    (Kill Pots 1: take it away), and in the third in front of a seat without the leg (move it to the holder)."""
    kill = pipe.engine.betting.kill
    exp = hand.expected
    holder = kill.holder
    if hand.number not in (1, 3) or (hand.number == 1) != (holder is None) or kill.away is not None:
        return None
    uid = next((u for c in registry.chip_sets for u, kind in c.markers.items() if kind == "kill"), None)
    deal = _first_card(hand.inputs)
    wrong = [s for s in exp.dealt_in if s != holder]
    if uid is None or not deal or not wrong:
        return None
    puck, t = registry.lookup(uid), hand.inputs[deal - 1].t + 0.1
    seat = wrong[hand.number % len(wrong)]
    staged: Inputs = [ev.ZoneLeft(t, f"seat{holder}", puck)] if holder is not None else []
    staged += [ev.ZoneEntered(t + 0.3, f"seat{seat}", puck), ev.ZoneLeft(t + 0.9, f"seat{seat}", puck)]
    staged += [ev.ZoneEntered(t + 1.1, f"seat{holder}", puck)] if holder is not None else []
    return hand.inputs[:deal] + staged + [replace(x, t=x.t + SHIFT + 0.2) for x in hand.inputs[deal:]]


def new_player_at_a_killed_table(sim: Simulator, at: int, dealt: int) -> bool:
    """With a kill due next hand, a new player sits down in an empty seat and posts a big blind where they sit
    (Blinds 4); dealt into a killed pot, they are told they may play only by agreeing to kill the next pot
    (Kill Pots 12), and the hand plays on with their big blind and the kill both live."""
    empty = [s for s in range(1, sim.config.table.seats + 1) if s not in sim.stacks]
    active = [s for s in sim.stacks if s not in sim.away.sitting_out]
    if sim.posts.kill.due is None or not empty or len(active) < 3 or sim.finished:
        return False
    sim.seat_player(sim.rng.choice(empty))
    return True


def seats_another_at_a_kill(sim: Simulator, hands_since: int) -> None:
    new_player_at_a_killed_table(sim, 0, 0)


def makes_up_the_blinds(sim: Simulator, hands_since: int) -> None:
    """Two hands after stepping away, the player taps back in and makes up what it missed before the deal."""
    if hands_since == 2:
        for seat in sorted(sim.away.sitting_out):
            sim.away.back_in_posting(seat)


def make_up_short(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry, chips: TableChips) -> Inputs | None:
    """A player making up both blinds puts in only the live big blind (Blinds 9: the dead small blind is owed
    too); told so, it adds the small blind, which goes to the middle."""
    betting = pipe.engine.betting
    game, exp = betting.game, hand.expected
    seat = next((s for s in exp.dealt_in if betting.owes.get(s) == {"sb", "bb"}
                 and exp.blinds.get(s) == game.big_blind), None)
    deal = _first_card(hand.inputs)
    if seat is None or deal is None:
        return None
    motion = _motion(hand.inputs, 0, f"bet{seat}")
    if motion is None or motion[1] > deal or \
            sum(x.tag.value for x in hand.inputs[motion[0]:motion[1]]) != game.big_blind + game.small_blind:
        return None
    return split_motion(hand.inputs, *motion, game.big_blind)


# --- lowball's optional kill (Kill Pots 10), at a 27td table with game.lowball_kill ---------------------------
def _seat_cards(inputs: Inputs) -> list[int]:
    """Indices of the cards reaching a seat zone, in the order dealt."""
    return [i for i, x in enumerate(inputs) if isinstance(x, ev.ZoneEntered) and x.zone.startswith("seat")
            and isinstance(x.tag, CardTag)]


def put_and_take_back(inputs: Inputs, after: int, seat: int, tags: list) -> Inputs:
    """Chips ``tags`` put into seat ``seat``'s bet zone just after ``inputs[after]``, taken back REMEDY_AFTER later
    (the player told the kill is refused), the rest of the hand run later by as much and a little more."""
    t = inputs[after].t + 0.2
    put = [ev.ZoneEntered(t + 0.02 * i, f"bet{seat}", tag) for i, tag in enumerate(tags)]
    back = [ev.ZoneLeft(t + REMEDY_AFTER + 0.02 * i, f"bet{seat}", tag) for i, tag in enumerate(tags)]
    shift = 0.2 + REMEDY_AFTER + 0.02 * len(tags) + SHIFT
    return inputs[:after + 1] + put + back + [replace(x, t=x.t + shift) for x in inputs[after + 1:]]


def _lowball_kill(hand: SimulatedHand, pipe: Pipeline, chips: TableChips, registry: TagRegistry,
                  short: bool) -> Inputs | None:
    """A player out of the blinds tries lowball's kill where Kill Pots 10 forbids it: ``short``, with two cards
    each and a stack under four kills; otherwise with four kills behind it but after a third card was dealt."""
    betting = pipe.engine.betting
    exp = hand.expected
    if hand.number % 3 != 2 or betting.kill.due is not None or exp.lowball_killer is not None or \
            len(exp.dealt_in) < 3:     # hands 2, 5, 8: clean hands between
        return None     # a required kill, or the simulator's own lowball kill: a second kill is Kill Pots 11
    amount = betting.kill.amount(betting.game.big_blind)
    able = [s for s in exp.dealt_in if s not in exp.blinds
            and (exp.stacks_before[s] < 4 * amount if short else exp.stacks_before[s] >= 4 * amount)]
    cards = _seat_cards(hand.inputs)
    n = len(exp.dealt_in)
    uids = chips_worth(chips, amount)
    if not able or len(cards) <= 2 * n or not uids:
        return None
    after = cards[2 * n - 1] if short else cards[2 * n]     # every player has two cards; one has a third
    tags = [registry.lookup(uid) for uid in uids]
    return put_and_take_back(hand.inputs, after, able[hand.number % len(able)], tags)


def lowball_kill_after_a_third_card(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry,
                                    chips: TableChips) -> Inputs | None:
    """Kill Pots 10: a player with four kills behind it puts the kill in once a player has received a third card,
    too late to kill the pot; told so, it takes the chips back and the hand plays unkilled."""
    return _lowball_kill(hand, pipe, chips, registry, short=False)


def lowball_kill_short(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry,
                       chips: TableChips) -> Inputs | None:
    """Kill Pots 10: with two cards each, a player whose stack holds less than four kills puts the kill in; told
    a voluntary killer needs four, it takes the chips back and the hand plays unkilled."""
    return _lowball_kill(hand, pipe, chips, registry, short=True)
