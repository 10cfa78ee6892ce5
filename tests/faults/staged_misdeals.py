"""Faults ruled a misdeal, staged by the table run on the simulator's clean hands (see staged_cards.py): the
deal goes wrong, the engine rules a misdeal, the dealer carries out the remedy (cards gathered into the shoe,
blinds taken back, the button puck put right) and the clean hand is dealt again a little later. So the redeal
must be quiet and end with pokerkit's stacks.
"""

from __future__ import annotations

import random
from dataclasses import replace

from dealerbox.engine import inputs as ev
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.tags import CardTag
from tests.faults.staged_cards import MOTION, Inputs, deal_entries, from_shoe, later, move, puck_move, spare_cards


def redealt(inputs: Inputs, misdealt: Inputs, puck: tuple[str, ev.ZoneEntered] | None = None) -> Inputs | None:
    """``misdealt`` (the clean hand's start with the fault, ruled a misdeal), then the remedy as the dealer
    acts it out: every card out gathered into the shoe, every chip in a bet zone back to its owner, and the
    hand dealt again with the same button: the clean hand from its first post, later in time. ``puck``: the
    seat the button puck was wrongly put on, and its right arrival (the dealer moves it there first)."""
    posts = [i for i, x in enumerate(inputs) if isinstance(x, ev.ZoneEntered) and x.zone.startswith("bet")]
    if not posts:
        return None
    where: dict[str, str] = {}
    chips: dict[str, ev.ZoneEntered] = {}
    for x in misdealt:
        if isinstance(x, ev.ZoneEntered) and isinstance(x.tag, CardTag):
            where[x.tag.uid] = x.zone
        elif isinstance(x, ev.ZoneEntered) and x.zone.startswith("bet"):
            chips[x.tag.uid] = x
        elif isinstance(x, ev.ZoneLeft) and x.zone.startswith("bet"):
            chips.pop(x.tag.uid, None)
    cards = {x.tag.uid: x.tag for x in misdealt if isinstance(x, ev.ZoneEntered) and isinstance(x.tag, CardTag)}
    t = misdealt[-1].t + 1.5
    gather: Inputs = []
    for uid, zone in where.items():
        if zone != "shoe":
            gather += move(t, zone, "shoe", cards[uid])
            t += 0.15
    t += 0.5
    gather += [ev.ZoneLeft(t, x.zone, x.tag) for x in chips.values()]   # each player takes the chips back
    if puck is not None:
        wrong, right = puck
        t += 0.5
        gather += [ev.ZoneLeft(t, wrong, right.tag), ev.ZoneEntered(t + 0.3, right.zone, right.tag)]
    shift = t + 2.5 - inputs[posts[0]].t
    return misdealt + gather + [replace(x, t=x.t + shift) for x in inputs[posts[0]:]]


def first_card_exposed(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The very first hole card is dealt face up and tapped ``exposed`` (Hold'em 1: a misdeal). The dealer
    gathers, the players take their blinds back, and the hand is dealt again: the clean hand."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    if not deal:
        return None
    first = deal[0]
    (exposed,) = spare_cards(inputs, rng, 1)
    t = inputs[first - 2].t
    staged = from_shoe(t, inputs[first].zone, exposed, face_up=True) + [
        ev.DealerInput(t + 0.25, "exposed", card=exposed.card)]
    return redealt(inputs, inputs[:first - 2] + staged)


def stub_cards_flashed(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """During the deal the dealer flashes two cards of the stub (taps ``exposed`` on each): two cards exposed
    by the dealer in the deal, not hole cards (Misdeals 1b: a misdeal). Then the same remedy as any misdeal:
    gathered, blinds back, dealt again."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    if len(deal) < 3:
        return None
    one, two = sorted(rng.sample(deal[:-1], 2))     # the last card ends the deal: flash before it
    a, b = spare_cards(inputs, rng, 2)
    misdealt = (inputs[:one + 1] + [ev.DealerInput(inputs[one].t + 0.1, "exposed", card=a.card)] +
                inputs[one + 1:two + 1] + [ev.DealerInput(inputs[two].t + 0.1, "exposed", card=b.card)])
    return redealt(inputs, misdealt)


def _first_action_end(inputs: Inputs, after: int) -> int | None:
    """The index just past the first action after ``after`` (a check tap, a wager's chips, a fold's cards)."""
    for i in range(after + 1, len(inputs)):
        x = inputs[i]
        if isinstance(x, ev.DealerInput) and x.action == "check":
            return i + 1
        if isinstance(x, ev.ZoneEntered) and x.zone.startswith("bet") or \
                isinstance(x, ev.ZoneLeft) and x.zone.startswith("seat"):
            j = i + 1
            while j < len(inputs) and inputs[j].t - inputs[j - 1].t < 0.5:
                j += 1
            return j
        if isinstance(x, ev.DealerInput):
            return None
    return None


def deal_short(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The deal ends one card short: the last card (the button's) never comes. After the first action the cards
    are gathered (the top card could still have gone to the button, so the action alone does not end the deal):
    the deal was over at that action, a misdeal (Misdeals 1e: a player has the wrong number of cards), dealt
    again."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    if not deal:
        return None
    last = deal[-1]
    end = _first_action_end(inputs, last)
    if end is None:
        return None
    return redealt(inputs, inputs[:last - 2] + inputs[last + 1:end])


def dealt_out(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The deal stops after one round that skipped the button's seat: every other player holds one card, the
    button none. The first action, then the gather, end the deal: a player entitled to a hand was dealt out
    (Misdeals 1j), a misdeal, dealt again. (A seat skipped mid-round is first a card out of sequence, 1f, at the
    next card.)"""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    seats = len(hand.expected.dealt_in)
    if len(deal) < 2 * seats:
        return None
    first_round = deal[:seats - 1]          # the button is dealt last in each round: it gets nothing
    out = inputs[deal[seats - 1]].zone
    end = _first_action_end(inputs, deal[-1])
    if end is None or any(isinstance(x, (ev.ZoneLeft, ev.ZoneEntered)) and isinstance(x.tag, CardTag) and
                          x.zone == out for x in inputs[deal[-1] + 1:end]):
        return None         # the first action is the dealt-out seat's fold: it has no cards to throw
    return redealt(inputs, inputs[:first_round[-1] + 1] + inputs[deal[-1] + 1:end])


def card_to_empty_seat(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """During the deal the dealer pitches a card to an empty seat (Misdeals 1i): a misdeal, dealt again. The
    card is a spare."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    empty = [s for s in range(1, 11) if s not in hand.expected.stacks_before]
    if len(deal) < 2 or not empty:
        return None
    k = rng.choice(deal[1:])
    (card,) = spare_cards(inputs, rng, 1)
    t = inputs[k - 2].t
    return redealt(inputs, inputs[:k - 2] + from_shoe(t, f"seat{rng.choice(empty)}", card))


def button_misplaced(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The dealer moves the button puck one seat too far and starts the deal (Misdeals 1g: a misdeal). The
    dealer gathers, the blinds go back, the puck goes to its seat, and the hand is dealt again."""
    inputs = hand.inputs
    i = puck_move(inputs)
    deal = deal_entries(inputs)
    if i is None or not deal:
        return None
    dealt = hand.expected.dealt_in         # clockwise from the first seat left of the button
    if len(dealt) < 3:
        return None
    right, wrong = inputs[i], f"seat{dealt[0]}"
    misdealt = inputs[:i] + [replace(right, zone=wrong)] + inputs[i + 1:deal[0] + 1]
    return redealt(inputs, misdealt, puck=(wrong, right))


def two_extra_cards(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Right after the deal the dealer pitches two cards too many, to the first two seats (Hold'em 5; Misdeals
    1d: two or more extra cards are a misdeal). Gathered, blinds back, dealt again. The extras are spares."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    dealt = hand.expected.dealt_in
    if not deal or len(dealt) < 2:
        return None
    last = deal[-1]
    end = _first_action_end(inputs, last)
    if end is None or inputs[last + 1].t - inputs[last].t < MOTION:
        return None
    a, b = spare_cards(inputs, rng, 2)
    t = inputs[last].t + 0.2
    extra = from_shoe(t, f"seat{dealt[0]}", a) + from_shoe(t + 0.4, f"seat{dealt[1]}", b)
    return redealt(inputs, inputs[:last + 1] + extra + inputs[last + 1:end])


def heads_up_blinds_reversed(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Heads-up, the players post each other's blind: the big blind on the button (Blinds 3: the small blind is
    on the button; a misdeal). Gathered, blinds back, posted right and dealt again."""
    inputs = hand.inputs
    exp = hand.expected
    deal = deal_entries(inputs)
    if len(exp.dealt_in) != 2 or len(exp.blinds) != 2 or not deal:
        return None
    small, big = sorted(exp.blinds, key=lambda s: exp.blinds[s])
    swap = {f"bet{small}": f"bet{big}", f"bet{big}": f"bet{small}"}
    misdealt = [replace(x, zone=swap[x.zone]) if isinstance(x, ev.ZoneEntered) and x.zone in swap else x
                for x in inputs[:deal[0] + 1]]
    return redealt(inputs, misdealt)


def two_boxed_cards(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Two cards turn up face up in the deal (boxed): the first is a scrap of paper, set aside and replaced
    (Irregularities 7), the second makes it a misdeal (Misdeals 1c). Gathered, blinds back, dealt again. The
    boxed cards are spares."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    if len(deal) < 3:
        return None
    one, two = sorted(rng.sample(deal[1:], 2))
    a, b = spare_cards(inputs, rng, 2)
    t, seat = inputs[one - 2].t, inputs[one].zone
    boxed = from_shoe(t, seat, a, face_up=True) + move(t + 1.2, seat, "muck", a)   # set aside, then the next card
    misdealt = inputs[:one - 2] + boxed + later(inputs[one - 2:two - 2], 2.0)
    t = misdealt[-1].t + 0.4
    return redealt(inputs, misdealt + from_shoe(t, inputs[two].zone, b, face_up=True))
