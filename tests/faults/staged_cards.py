"""Card faults the simulator does not stage, staged by the table run itself on the simulator's clean hands: the
harness edits the frames a hand is made of (a card turned too early, a hole card dealt face up, a winner
throwing the hand away) and acts out the ruling's remedy as a dealer would.

Each edit keeps the clean hand's account true where the remedy restores it: the card that goes wrong is a
spare (a card of the deck the clean hand never uses, still in the stub), so after the remedy the same cards
play as in the clean hand and pokerkit's stacks hold. Where the remedy changes who wins (a hand mucked
unshown), the edit says which stacks the remedy implies. The faults ruled a misdeal are in staged_misdeals.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

from phevaluator import evaluate_cards, evaluate_omaha_cards

from dealerbox.engine import inputs as ev
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.tags import JOKERS, CardTag, demo_registry

Inputs = list[ev.EngineInput]
REGISTRY = demo_registry()
MOTION = 1.2        # the quiet gap a staged motion needs between two of the clean hand's motions


def spare_cards(inputs: Inputs, rng: random.Random, n: int) -> list[CardTag]:
    """``n`` cards of the hand's deck that the clean hand never moves: they stay in the stub all hand."""
    used = [x.tag for x in inputs if isinstance(getattr(x, "tag", None), CardTag) and
            (x.zone != "shoe" or isinstance(x, ev.ZoneLeft))]       # a deck loaded into the shoe is not used
    deck = REGISTRY.deck(used[0].deck_id)
    seen = {c.uid for c in used}
    spare = sorted(uid for uid, card in deck.cards.items() if uid not in seen and card not in JOKERS)
    picked = rng.sample(spare, n)
    return [CardTag(uid, deck.cards[uid], deck.deck_id, deck.back) for uid in picked]


def from_shoe(t: float, zone: str, card: CardTag, face_up: bool = False) -> Inputs:
    """A card dealt from the shoe to ``zone``, as the shoe and the zone's antenna sense it."""
    return [ev.CardFaceSensed(t, "shoe", card, face_up), ev.ZoneLeft(t + 0.02, "shoe", card),
            ev.ZoneEntered(t + 0.2, zone, card)]


def move(t: float, source: str, zone: str, card: CardTag) -> Inputs:
    return [ev.ZoneLeft(t, source, card), ev.ZoneEntered(t + 0.1, zone, card)]


def _entered(x: ev.EngineInput, zone: str) -> bool:
    return isinstance(x, ev.ZoneEntered) and isinstance(x.tag, CardTag) and x.zone == zone


def _action_starts(inputs: Inputs, lo: int, hi: int) -> list[int]:
    """Indices in [lo, hi) where a player's action begins (a check tap, a wager's first chip, a fold's first
    card) after a quiet gap: the betting round is not complete there, someone is still to act."""
    found = []
    for i in range(max(lo, 1), hi):
        x, before = inputs[i], inputs[i - 1]
        if x.t - before.t < MOTION:
            continue
        if isinstance(x, ev.DealerInput) and x.action in ("check", "declare-raise"):
            found.append(i)
        elif isinstance(x, ev.ZoneEntered) and x.zone.startswith("bet") and not isinstance(x.tag, CardTag):
            found.append(i)
        elif isinstance(x, ev.ZoneLeft) and x.zone.startswith("seat") and isinstance(x.tag, CardTag):
            found.append(i)
    return found


def deal_entries(inputs: Inputs) -> list[int]:
    """Indices of the hole cards arriving at the seats, the deal in order (up to the first burn)."""
    first_burn = next((i for i, x in enumerate(inputs) if _entered(x, "burn")), len(inputs))
    return [i for i, x in enumerate(inputs[:first_burn]) if isinstance(x, ev.ZoneEntered)
            and x.zone.startswith("seat") and isinstance(x.tag, CardTag)
            and isinstance(inputs[i - 1], ev.ZoneLeft) and inputs[i - 1].zone == "shoe"]


def puck_move(inputs: Inputs) -> int | None:
    """The index where the button puck arrives at this hand's seat (None when the session placed it first)."""
    for i, x in enumerate(inputs):
        if isinstance(x, ev.ZoneEntered) and getattr(x.tag, "kind", None) == "button" and \
                isinstance(inputs[i - 1], ev.ZoneLeft) and inputs[i - 1].tag == x.tag:
            return i
    return None


def premature_street(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The dealer burns and turns the turn (or the river) while a player is still to act (Hold'em 4). The card
    is out of play for the round; the betting finishes, the card goes back into the stub before the street is
    dealt, and the street's card is the clean hand's. The premature card and its burn are spares."""
    inputs = hand.inputs
    board = [i for i, x in enumerate(inputs) if _entered(x, "board")]
    burns = [i for i, x in enumerate(inputs) if _entered(x, "burn")]
    streets = []
    for n in (3, 4):            # the round after the flop (before the turn), after the turn (before the river)
        if len(board) > n:
            end = next(b for b in burns if b > board[n - 1])
            starts = _action_starts(inputs, board[n - 1] + 1, end)
            streets += [(n, i) for i in starts]
    if not streets:
        return None
    n, i = rng.choice(streets)
    burn, early = spare_cards(inputs, rng, 2)
    t = inputs[i - 1].t
    staged = from_shoe(t + 0.3, "burn", burn) + from_shoe(t + 0.6, "board", early)
    # the street's own burn: its first shoe motion after the fault; the premature card is back in the stub by then
    shoe = next(j for j in range(i, len(inputs)) if isinstance(inputs[j], ev.CardFaceSensed)
                and inputs[j].zone == "shoe" and j >= board[n - 1])
    back = move(inputs[shoe - 1].t + 0.2, "board", "shoe", early)
    if inputs[shoe].t - inputs[shoe - 1].t < 0.5:
        return None
    end = inputs[-1].t
    return (inputs[:i] + staged + inputs[i:shoe] + back + inputs[shoe:] +
            move(end + 0.4, "burn", "shoe", burn))      # the spare burn goes back with the cleanup


def exposed_in_deal(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """A hole card other than the first is dealt face up and the dealer taps ``exposed`` (Hold'em 1): the deal
    goes on, the seat gets the next card after the deal, and the exposed card becomes the flop's burn card (no
    other burn). The exposed card is a spare, so the seat ends with the clean hand's cards."""
    inputs = hand.inputs
    first_burn = next((i for i, x in enumerate(inputs) if _entered(x, "burn")), len(inputs))
    deal = [i for i, x in enumerate(inputs[:first_burn]) if isinstance(x, ev.ZoneEntered)
            and x.zone.startswith("seat") and isinstance(x.tag, CardTag)
            and isinstance(inputs[i - 1], ev.ZoneLeft) and inputs[i - 1].zone == "shoe"]
    if len(deal) < 2:
        return None
    last = deal[-1]
    if last + 1 < len(inputs) and inputs[last + 1].t - inputs[last].t < MOTION:
        return None     # the first action follows too soon to slip the replacement in
    k = rng.choice(deal[1:])
    clean, seat = inputs[k].tag, inputs[k].zone
    face, left = inputs[k - 2], inputs[k - 1]
    assert isinstance(face, ev.CardFaceSensed) and face.tag == clean and left.tag == clean, (face, left)
    (exposed,) = spare_cards(inputs, rng, 1)
    swapped = [ev.CardFaceSensed(face.t, "shoe", exposed, True), ev.ZoneLeft(left.t, "shoe", exposed),
               ev.ZoneEntered(inputs[k].t, seat, exposed),
               ev.DealerInput(inputs[k].t + 0.05, "exposed", card=exposed.card)]
    t = inputs[last].t
    remedy = from_shoe(t + 0.2, seat, clean) + move(t + 0.6, seat, "burn", exposed)
    rest = inputs[last + 1:]
    if first_burn < len(inputs):
        # the flop comes without another burn: the clean burn card stays in the stub, and the cleanup gathers
        # the exposed card from the burn in its place
        b = inputs[first_burn].tag
        rest = [x for x in rest if not (getattr(x, "tag", None) == b and x.t <= inputs[first_burn].t)]
        rest = [replace(x, tag=exposed) if getattr(x, "tag", None) == b else x for x in rest]
    else:
        rest = rest + move(inputs[-1].t + 0.4, "burn", "shoe", exposed)
    return inputs[:k - 2] + swapped + inputs[k + 1:last + 1] + remedy + rest


def _rank(board: tuple[str, ...], hole: tuple[str, ...]) -> int:
    """phevaluator's rank (lower is better): Omaha plays exactly two hole cards and three of the board."""
    if len(hole) == 4:
        return evaluate_omaha_cards(*board, *hole)
    return evaluate_cards(*board, *hole)


def mucked_unshown(hand: SimulatedHand, rng: random.Random) -> tuple[Inputs, dict[int, int]] | None:
    """At the showdown the winner throws the hand into the muck unshown (Showdown 1): it cannot win, the pot
    is read again without it, and the dealer pushes it to the next best hand. Staged where that is one pot
    with one winner and one next best hand (no tie). Returns the edited hand and the stacks the remedy implies:
    the clean hand's, with the pot moved from the winner to the next best hand."""
    exp = hand.expected
    # one pot (no side pot, no all-in that pokerkit dropped from its pot once beaten), one winner, a showdown
    if len(exp.pots) != 1 or len(exp.pots[0].winners) != 1 or len(exp.board) != 5:
        return None
    pot = exp.pots[0]
    (winner,) = pot.winners
    folded = {seat for _, seat, kind, _ in exp.actions if kind == "fold"}
    rest = {s: _rank(exp.board, exp.hole_cards[s]) for s in exp.hole_cards if s != winner and s not in folded}
    if not rest or any(exp.stacks[s] == 0 for s in rest):
        return None     # a loser all in: pokerkit's one pot may be the engine's main and side pots
    best = min(rest.values())
    heirs = [s for s, r in rest.items() if r == best]
    if len(heirs) != 1:
        return None     # a split among the rest: the odd chip would need Ties 4, kept out of this class
    heir = heirs[0]
    inputs = hand.inputs
    pushes = [i for i, x in enumerate(inputs) if isinstance(x, ev.ZoneLeft) and x.zone == "pot"
              and not (isinstance(inputs[i - 1], ev.ZoneLeft) and inputs[i - 1].zone == "pot")]
    if len(pushes) != 1:
        return None
    push = pushes[0]
    if inputs[push].t - inputs[push - 1].t < MOTION:
        return None
    cards = [x.tag for x in inputs if isinstance(x, ev.ZoneEntered) and x.zone == f"seat{winner}"
             and isinstance(x.tag, CardTag)]
    t = inputs[push].t - 1.0
    thrown = [m for k, card in enumerate(cards) for m in move(t + 0.15 * k, f"seat{winner}", "muck", card)]
    ours, theirs = f"bet{winner}", f"bet{heir}"
    after = []
    for x in inputs[push:]:             # the pot's push, award and take go to the next best hand
        if isinstance(x, ev.DealerInput) and x.action == "award":
            x = replace(x, seats=(heir,))
        elif getattr(x, "zone", None) == ours:
            x = replace(x, zone=theirs)
        if isinstance(x, ev.ZoneLeft) and x.zone == f"seat{winner}" and x.tag in cards:
            x = replace(x, zone="muck")        # the cleanup gathers those cards from the muck
        after.append(x)
    stacks = dict(exp.stacks)
    stacks[winner] -= pot.amount
    stacks[heir] += pot.amount
    return inputs[:push] + thrown + after, stacks


def later(inputs: Inputs, dt: float) -> Inputs:
    """The same motions ``dt`` seconds later: room for a staged fault and its remedy."""
    return [replace(x, t=x.t + dt) for x in inputs]


def card_after_the_hand(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """After the last pot is pushed the dealer turns the next card of the stub onto the board (Procedures 23:
    the card that would have come must not be shown); it goes back with the cleanup."""
    inputs = hand.inputs
    awards = [i for i, x in enumerate(inputs) if isinstance(x, ev.DealerInput) and x.action == "award"]
    if not awards:
        return None
    cleanup = next((i for i in range(awards[-1], len(inputs)) if _entered(inputs[i], "shoe")), None)
    if cleanup is None or inputs[cleanup - 1].t - inputs[cleanup - 2].t < 1.0:
        return None
    (shown,) = spare_cards(inputs, rng, 1)
    t = inputs[cleanup - 2].t + 0.2
    staged = from_shoe(t, "board", shown) + move(t + 0.4, "board", "shoe", shown)
    return inputs[:cleanup - 1] + staged + inputs[cleanup - 1:]


def card_dropped(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """A player knocks a hole card off the table during the betting and picks it up (Irregularities 14, info:
    it still plays): nothing for the dealer, and the hand is the clean hand."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    awards = [i for i, x in enumerate(inputs) if isinstance(x, ev.DealerInput) and x.action == "award"]
    if not deal or not awards:
        return None
    where: dict[str, tuple[str, CardTag]] = {}
    chances = []
    for i, x in enumerate(inputs[:awards[0]]):
        if isinstance(x, ev.ZoneEntered) and isinstance(x.tag, CardTag):
            where[x.tag.uid] = (x.zone, x.tag)
        elif isinstance(x, ev.ZoneLeft) and isinstance(x.tag, CardTag):
            where.pop(x.tag.uid, None)
        if i > deal[-1] and i + 1 < len(inputs) and inputs[i + 1].t - x.t >= 3.5:
            held = [v for v in where.values() if v[0].startswith("seat")]
            if held:
                chances.append((i, rng.choice(held)))
    if not chances:
        return None
    i, (seat, card) = rng.choice(chances)
    t = inputs[i].t + 0.3
    return inputs[:i + 1] + [ev.ZoneLeft(t, seat, card), ev.ZoneEntered(t + 2.5, seat, card)] + inputs[i + 1:]


def four_card_flop(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The dealer turns four cards for the flop (Hold'em 2): all four go back into the stub and a new flop is
    dealt without a burn; the new flop is the clean hand's. The four are spares."""
    inputs = hand.inputs
    board = [i for i, x in enumerate(inputs) if _entered(x, "board")]
    if len(board) < 3:
        return None
    first = board[0] - 2            # the flop's first card as the shoe senses it
    assert isinstance(inputs[first], ev.CardFaceSensed), inputs[first]
    four = spare_cards(inputs, rng, 4)
    t = inputs[first].t
    staged = [m for k, card in enumerate(four) for m in from_shoe(t + 0.4 * k, "board", card)]
    t += 4 * 0.4 + 1.0
    staged += [m for k, card in enumerate(four) for m in move(t + 0.15 * k, "board", "shoe", card)]
    return inputs[:first] + staged + later(inputs[first:], 4 * 0.4 + 1.0 + 4 * 0.15 + 1.0)


def _actor(x: ev.EngineInput) -> int | None:
    """The seat whose action starts with ``x`` (a check tap, chips into its bet zone, its cards leaving it)."""
    if isinstance(x, ev.DealerInput):
        return x.seat
    zone = getattr(x, "zone", "")
    return int(zone.removeprefix("bet").removeprefix("seat")) if zone.startswith(("bet", "seat")) else None


def button_moved_after_action(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Once two players acted, the dealer slides the button puck onto another seat (Misdeals 2: the hand plays
    on; Irregularities 1: the button is put right for the next hand). The puck goes back after the hand."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    i = puck_move(inputs)
    if not deal or i is None:
        return None
    actions = _action_starts(inputs, deal[-1] + 1, len(inputs))
    awards = [j for j, x in enumerate(inputs) if isinstance(x, ev.DealerInput) and x.action == "award"]
    # the misdeal window closes once two players behind the blinds acted (Misdeals 2)
    behind = [j for j in actions if _actor(inputs[j]) not in hand.expected.blinds]
    # and another action after the second is read (a declared raise is complete only when the next one starts)
    done = actions[actions.index(behind[1]) + 2:] if len(behind) >= 2 else []
    late = [j for j in done if (not awards or j < awards[0]) and inputs[j].t - inputs[j - 1].t >= 2.0]
    if not late:
        return None
    j = rng.choice(late)
    puck = inputs[i].tag
    seat = inputs[i].zone
    others = [f"seat{s}" for s in hand.expected.dealt_in if f"seat{s}" != seat]
    wrong = rng.choice(others)
    t = inputs[j - 1].t + 1.0       # the last motion is over: its chips have been read as an action
    slid = [ev.ZoneLeft(t, seat, puck), ev.ZoneEntered(t + 0.3, wrong, puck)]
    back = [ev.ZoneLeft(inputs[-1].t + 0.5, wrong, puck), ev.ZoneEntered(inputs[-1].t + 0.8, seat, puck)]
    return inputs[:j] + slid + inputs[j:] + back


def deck_short(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The deck loaded into the shoe lacks a card (Irregularities 10, info: the hand stands). Only a table's
    first hand loads the shoe; the missing card is a spare, so no hand of the table needs it."""
    inputs = hand.inputs
    loaded = [i for i, x in enumerate(inputs) if _entered(x, "shoe") and not isinstance(inputs[i - 1], ev.ZoneLeft)]
    if len(loaded) < 52:
        return None
    (gone,) = spare_cards(inputs, rng, 1)
    return [x for x in inputs if not (_entered(x, "shoe") and x.tag == gone)]


def muck_picked(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """During the hand a folded card is picked up off the muck and put back (Procedures 22: nobody may look
    through the discards; the floor is told), and the hand plays on."""
    inputs = hand.inputs
    awards = [i for i, x in enumerate(inputs) if isinstance(x, ev.DealerInput) and x.action == "award"]
    if not awards:
        return None
    mucked: list[CardTag] = []
    chances = []
    actions = _action_starts(inputs, 1, awards[0])
    if not actions:
        return None
    for i, x in enumerate(inputs[:actions[-1] - 1]):     # while a player is still to act: the hand is undecided
        if _entered(x, "muck"):
            mucked.append(x.tag)
        if mucked and i + 1 < len(inputs) and inputs[i + 1].t - x.t >= 2.0:
            chances.append((i, rng.choice(mucked)))
    if not chances:
        return None
    i, card = rng.choice(chances)
    t = inputs[i].t + 0.3
    return inputs[:i + 1] + [ev.ZoneLeft(t, "muck", card), ev.ZoneEntered(t + 0.8, "muck", card)] + inputs[i + 1:]


def card_to_a_hand_after_action(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Once two players acted, the dealer pitches a card to a seat that is about to fold (Misdeals 2: too late
    for a misdeal; Dead Hands 1d: a hand with the wrong number of cards is dead). The dead hand's chips stay in
    the pot, which is what its fold would have left: the clean hand's account still holds. The card is a spare
    and goes back to the shoe after the hand."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    if not deal:
        return None
    actions = _action_starts(inputs, deal[-1] + 1, len(inputs))
    behind = [j for j in actions if _actor(inputs[j]) not in hand.expected.blinds]
    done = actions[actions.index(behind[1]) + 2:] if len(behind) >= 2 else []
    folds = [j for j in done if isinstance(inputs[j], ev.ZoneLeft) and inputs[j].zone.startswith("seat")
             and inputs[j].t - inputs[j - 1].t >= 2.0]
    if not folds:
        return None
    j = rng.choice(folds)
    seat = inputs[j].zone
    (card,) = spare_cards(inputs, rng, 1)
    return (inputs[:j] + from_shoe(inputs[j - 1].t + 1.0, seat, card) + inputs[j:] +
            move(inputs[-1].t + 0.4, seat, "shoe", card))


def _held_at(inputs: Inputs, j: int) -> list[tuple[str, CardTag]]:
    """The hole cards lying in front of their seats just before index ``j``: (seat zone, card)."""
    where: dict[str, tuple[str, CardTag]] = {}
    for x in inputs[:j]:
        if isinstance(x, (ev.ZoneEntered, ev.ZoneLeft)) and isinstance(x.tag, CardTag):
            if isinstance(x, ev.ZoneEntered) and x.zone.startswith("seat"):
                where[x.tag.uid] = (x.zone, x.tag)
            else:
                where.pop(x.tag.uid, None)
    return sorted(where.values(), key=lambda zc: (zc[0], zc[1].uid))


def hole_card_on_the_board(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """After the deal, while a player is still to act, a live seat's hole card is put on the board (Irregularities
    12: no board card; it still plays); the dealer puts it back in front of its seat and the hand plays on."""
    inputs = hand.inputs
    deal = deal_entries(inputs)
    if not deal:
        return None
    # past the first action: the deal is over (a card on the board during it is Hold'em 1's, exposed-in-deal)
    actions = _action_starts(inputs, deal[-1] + 1, len(inputs))[1:]
    chances = [(j, held) for j in actions for held in _held_at(inputs, j)]
    if not chances:
        return None
    j, (seat, card) = rng.choice(chances)
    t = inputs[j - 1].t + 0.7     # the last motion's chips have settled (read as an action) by then
    return inputs[:j] + move(t, seat, "board", card) + move(t + 0.25, "board", seat, card) + inputs[j:]


def folded_card_on_the_board(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """A folding player's last card slides onto the board instead of the muck: a discard of a folded hand
    (Irregularities 12, info: no board card); the dealer puts it in the muck and the hand plays on."""
    inputs = hand.inputs
    actions = _action_starts(inputs, 1, len(inputs))
    if not actions:
        return None
    end = actions[-1]       # a player is still to act: the hand is not decided (at the showdown hands are mucked)
    lasts = []
    for i in range(1, min(end, len(inputs) - 1)):
        x, before = inputs[i], inputs[i - 1]
        if (_entered(x, "muck") and isinstance(before, ev.ZoneLeft) and before.zone.startswith("seat")
                and before.tag == x.tag and inputs[i + 1].t - x.t >= 1.0
                and any(_entered(y, "muck") and y.tag != x.tag for y in inputs[max(0, i - 8):i])
                and not any(isinstance(y, ev.ZoneLeft) and y.zone == before.zone and isinstance(y.tag, CardTag)
                            for y in inputs[i + 1:end])):
            lasts.append(i)          # the last card of a fold, the seat's first card already in the muck
    if not lasts:
        return None
    i = rng.choice(lasts)
    x = inputs[i]
    return inputs[:i] + [ev.ZoneEntered(x.t, "board", x.tag)] + move(x.t + 0.4, "board", "muck", x.tag) + inputs[i + 1:]
