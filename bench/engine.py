"""Engine: hands/s and events/s replaying simulated hands through ``Engine.apply``, and pokerkit's state
machine replaying the very same hands (same seats, stacks, blinds, cards and actions) in the same run.

Hands are generated first (``Simulator(config, registry, seed).play(n)``), outside every timer. The engine
replays each hand's ``inputs`` (sensor events and dealer taps, as the Pipeline would produce them) in one
Engine that lives across hands, as at a table. pokerkit replays each hand's ``expected`` record: a State
built like the simulator's referee, hole cards and board dealt as they fell, burns from unused cards, and
every action (fold, check/call, bet/raise-to). The step p99 comes from a second, per-call timed pass.
"""

from __future__ import annotations

import gc
import warnings

from dealerbox.config import Config, GameConfig, SimulatorConfig
from dealerbox.engine.table import Engine
from dealerbox.sources.sim import Simulator
from dealerbox.sources.sim.referee import referee_streets
from dealerbox.tags import demo_registry

from .common import Context, Figure, missing, now_ns, percentile

STRUCTURES = ("nlhe", "plhe", "flhe", "plo")
SPLIT_AND_BIG_O = ("o8", "plo8", "plo5", "plo5-8")    # Omaha high-low and five-card Omaha (issue 33)
GAMES = STRUCTURES + SPLIT_AND_BIG_O
# house practices (issue 33): tables that run it twice after every all-in with no more betting (game.run_it)
PRACTICES = {"nlhe run it twice": {"variant": "nlhe", "run_it": 2}, "plo run it twice": {"variant": "plo", "run_it": 2}}
# bomb pots on one board and two (game.bomb_pots, every hand a bomb pot): pokerkit has no bomb pot, so the ratio is to
# our own referee (tests/faults/referee, from the rule text), which tools/crosscheck_games checks them against
BOMBS = {"nlhe bomb pot": ("nlhe", 1), "nlhe bomb pot 2 boards": ("nlhe", 2),
         "plo bomb pot": ("plo", 1), "plo bomb pot 2 boards": ("plo", 2)}
TARGET_RATIO = 10.0
TARGET_STEP_MS = 1.0


def run(ctx: Context) -> list[Figure]:
    n = ctx.scale(120, 2)
    rounds = ctx.scale(2, 1)     # best of two; --quick times each once (its figures mean nothing)
    out: list[Figure] = []
    ratios, steps = [], []
    for variant in GAMES + tuple(PRACTICES) + tuple(BOMBS):
        config = Config(game=GameConfig(**PRACTICES.get(variant, {"variant": variant})))
        if variant in BOMBS:
            game, boards = BOMBS[variant]
            config = Config(game=GameConfig(variant=game, bomb_pots=True),
                            simulator=SimulatorConfig(bomb_every=1, bomb_boards=boards))
        registry = demo_registry()
        hands = list(Simulator(config, registry, 2024).play(n))
        hands = [h for h in hands if h.expected.outcome == "played"]
        inputs = sum(len(h.inputs) for h in hands)

        # 1. the engine, whole hands, no per-step timer
        try:
            engine_s, produced = time_engine(Engine, config, registry, hands, rounds)
        except Exception as e:
            out.append(missing("engine", f"{variant} hands/s", "hands/s", f"engine raised {type(e).__name__}: {e}"))
            continue
        # 2. pokerkit on the same hands (a bomb pot: our own referee, pokerkit has none)
        pk_s = ref_s = None
        try:
            if variant in BOMBS:
                ref_s = time_referee(config, hands, rounds)
            else:
                pk_s = time_pokerkit(config, hands, rounds)
        except Exception as e:
            ctx.say(f"{variant}: {'referee' if variant in BOMBS else 'pokerkit'} replay failed: "
                    f"{type(e).__name__}: {e}")
        # 3. per-step latency
        # 4. the whole replay path: recorded bytes through the decoder, the tag registry and the engine
        replay_hps = time_replay(config, registry, n, rounds)
        samples = step_samples(Engine, config, registry, hands)
        steps.extend(samples)
        eng_hps = len(hands) / engine_s
        out.append(Figure("engine", f"{variant} hands/s", eng_hps, "hands/s",
                          note=f"{len(hands)} hands, {inputs / len(hands):.0f} inputs and "
                               f"{produced / len(hands):.0f} table events a hand" if variant == STRUCTURES[0] else
                               f"{len(hands)} hands, {inputs / len(hands):.0f} inputs a hand"))
        out.append(Figure("engine", f"{variant} inputs/s", inputs / engine_s, "events/s"))
        if replay_hps:
            out.append(Figure("engine", f"{variant} replay hands/s", replay_hps, "hands/s",
                              note="recorded bytes -> decoder -> registry -> engine (Pipeline.feed), "
                                   "as `dealerbox replay`" if variant == STRUCTURES[0] else ""))
        if pk_s:
            ratio = eng_hps / (len(hands) / pk_s)
            ratios.append(ratio)
            out.append(Figure("engine", f"{variant} pokerkit hands/s", len(hands) / pk_s, "hands/s"))
            out.append(Figure("engine", f"{variant} engine / pokerkit", ratio, "x", TARGET_RATIO, ">="))
        if ref_s:
            out.append(Figure("engine", f"{variant} referee hands/s", len(hands) / ref_s, "hands/s",
                              note="our own referee (tests/faults/referee): pokerkit has no bomb pot"))
            out.append(Figure("engine", f"{variant} engine / referee", eng_hps / (len(hands) / ref_s), "x"))
            ctx.say(f"{variant}: engine {eng_hps:.0f} hands/s, our referee {len(hands) / ref_s:.0f} hands/s")
            continue
        pk_hps = len(hands) / pk_s if pk_s else float("nan")
        ctx.say(f"{variant}: engine {eng_hps:.0f} hands/s, pokerkit {pk_hps:.0f} hands/s")
    if steps:
        out.append(Figure("engine", "step p99 (all games)", percentile(steps, 99), "ms", TARGET_STEP_MS, "<",
                          note=f"{len(steps)} Engine.apply calls timed one by one; "
                               f"median {percentile(steps, 50) * 1000:.0f} us, max {max(steps):.2f} ms"))
    return out


def time_engine(Engine, config, registry, hands, rounds: int = 2) -> tuple[float, int]:
    best, produced = None, 0
    for _ in range(rounds):
        engine = Engine(config, registry)
        apply = engine.apply
        produced = 0
        gc.collect()
        t0 = now_ns()
        for hand in hands:
            for item in hand.inputs:
                produced += len(apply(item))
        dt = (now_ns() - t0) / 1e9
        best = dt if best is None else min(best, dt)
    return best, produced


def time_replay(config, registry, n: int, rounds: int = 2) -> float | None:
    """Hands/s through ``Pipeline.feed`` on the simulator's log records (Rx bytes and dealer inputs), best of
    ``rounds``."""
    from dealerbox.pipeline import Pipeline

    records = list(Simulator(config, registry, 2024).records(n))
    best = None
    for _ in range(rounds):
        pipeline = Pipeline(config, registry)
        feed = pipeline.feed
        gc.collect()
        t0 = now_ns()
        for record in records:
            feed(record)
        dt = (now_ns() - t0) / 1e9
        best = dt if best is None else min(best, dt)
    return n / best if best else None


def step_samples(Engine, config, registry, hands) -> list[float]:
    engine = Engine(config, registry)
    apply = engine.apply
    out = []
    for hand in hands:
        for item in hand.inputs:
            t0 = now_ns()
            apply(item)
            out.append((now_ns() - t0) / 1e6)
    return out


def time_referee(config: Config, hands, rounds: int = 2) -> float:
    """Seconds our own referee takes over ``hands`` (bomb pots), best of ``rounds``: the posts, every action, the
    pots by board. An untimed first pass checks it ends with the simulator's stacks."""
    from tests.faults.referee import Deal, HandReferee
    from tests.faults.referee.hand import Limits

    g = config.game
    limits = Limits("no-limit" if g.variant == "nlhe" else "pot-limit", g.big_blind, g.big_blind)

    def referee(e):
        r = HandReferee(Deal(e.button, e.dealt_in, dict(e.stacks_before), {}, {}, None, limits, bomb=e.bomb),
                        g.smallest_chip)
        for street, seat, kind, to in e.actions:
            r.act(street, seat, kind, to)
        return r.finish(e.hole_cards, e.board, e.boards)

    for hand in hands:
        if referee(hand.expected).stacks != hand.expected.stacks:
            raise RuntimeError(f"hand {hand.number}: our referee's stacks differ from the simulator's")
    best = None
    for _ in range(rounds):
        gc.collect()
        t0 = now_ns()
        for hand in hands:
            referee(hand.expected)
        dt = (now_ns() - t0) / 1e9
        best = dt if best is None else min(best, dt)
    return best


# --- pokerkit ---------------------------------------------------------------------------------------

def _pokerkit_game(config: Config):
    """pokerkit's own game for ``config``: its own hand types (the split games add its Omaha eight-or-better low),
    the simulator's referee's streets."""
    from pokerkit import (Automation, Deck, Mode, OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand,
                          State)

    from dealerbox.sources.sim.referee import SPLIT, VARIANTS

    structure, holes = VARIANTS[config.game.variant]
    g = config.game
    streets = referee_streets(g, structure, holes)   # the simulator's referee plays the same streets
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
                   Automation.CHIPS_PULLING)
    hand_types = (StandardHighHand,) if holes == 2 else (OmahaHoldemHand,)
    if g.variant in SPLIT:
        hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand)

    # a run-it table plays pokerkit's cash game, where the players select the run-out count (sim/referee.py)
    mode = Mode.CASH_GAME if g.run_it > 1 else Mode.TOURNAMENT

    def new_state(blinds, stacks):
        return State(automations, Deck.STANDARD, hand_types, streets, structure, True, 0, blinds, 0, stacks,
                     len(stacks), mode=mode)

    return new_state, holes


FULL_DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def pokerkit_script(hand, holes: int):
    """Everything the replay needs, prepared outside the timer: blinds, stacks, deal order, burns, actions."""
    e = hand.expected
    order = list(e.dealt_in)
    blinds = tuple(e.blinds.get(s, 0) for s in order)
    if len(order) == 2:
        blinds = tuple(sorted(blinds))  # heads-up: pokerkit itself has the button post the small blind
    while blinds and blinds[-1] == 0:
        blinds = blinds[:-1]
    stacks = tuple(e.stacks_before[s] for s in order)
    deal = [e.hole_cards[order[i]][r] for r in range(holes) for i in range(len(order))]
    board = list(e.board)
    for run in e.boards:     # a hand run twice: each further run's own cards, in the order they were dealt
        board += [c for i, c in enumerate(run) if i >= len(e.board) or e.board[i] != c]
    used = set(deal) | set(board)
    burns = [c for c in FULL_DECK if c not in used][:3 * e.runs]
    actions = [(kind, to) for _, _, kind, to in e.actions]
    return blinds, stacks, deal, board, burns, actions, e.runs


def replay_pokerkit(new_state, script):
    blinds, stacks, deal, board, burns, actions, runs = script
    st = new_state(blinds, stacks)
    di = bi = ui = ai = 0
    while st.status:
        if st.can_deal_hole():
            st.deal_hole(deal[di])
            di += 1
        elif st.can_burn_card():
            st.burn_card(burns[ui])
            ui += 1
        elif st.can_select_runout_count():
            st.select_runout_count(runs)
        elif st.can_deal_board():
            k = st.board_dealing_count or 1
            st.deal_board("".join(board[bi:bi + k]))
            bi += k
        elif st.actor_index is not None:
            kind, to = actions[ai]
            ai += 1
            if kind == "fold":
                st.fold()
            elif kind in ("bet", "raise"):
                st.complete_bet_or_raise_to(to)
            else:
                st.check_or_call()
        else:
            raise RuntimeError("pokerkit replay stuck")
    return st


def time_pokerkit(config: Config, hands, rounds: int = 2) -> float:
    new_state, holes = _pokerkit_game(config)
    scripts = [pokerkit_script(h, holes) for h in hands]
    best = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # Untimed check that the replay is the same hand: pokerkit ends with the stacks the simulator recorded,
        # less the odd chips where the rulebook splits a pot differently from pokerkit (Expected.odd_chips).
        for hand, script in zip(hands, scripts, strict=True):
            st = replay_pokerkit(new_state, script)
            e = hand.expected
            want = tuple(e.stacks[s] - e.odd_chips.get(s, 0) for s in e.dealt_in)
            if tuple(st.stacks) != want:
                raise RuntimeError(f"hand {hand.number}: pokerkit replay ends with {tuple(st.stacks)}, "
                                   f"simulator says {want}")
        for _ in range(rounds):
            gc.collect()
            t0 = now_ns()
            for script in scripts:
                replay_pokerkit(new_state, script)
            dt = (now_ns() - t0) / 1e9
            best = dt if best is None else min(best, dt)
    return best
