"""Words cases of the kill-pot and blind rows: the fault (the row's raising scenario of tests/scenarios/), the dealer
doing what the ruling says (the kill posted or taken back, the button moved, a blind brought up, a redeal), then the
hand and the next one played to their ends."""

from __future__ import annotations

from .common import SCENARIOS, Case, folded_to, folded_to_the_big_blind
from .showdown import after, upto


def dealt(*order: int) -> str:
    """Two cards to each seat of ``order``, round by round, off a loaded shoe."""
    return "".join(f"card random shoe -> seat{s}\n" for s in order + order) + "wait 2s\n"


# the moving button passes seat 4 (Blinds 1(a), 7): it goes to seat 5, the next player dealt in; seat 4, new, has not
# posted and is dealt around (it waits, docs/betting.md)
PASSES = "wait 2s\nbutton 5\npost 7 1\nwait 1s\npost 1 2\nwait 1s\n" + dealt(7, 1, 3, 5) + folded_to(1, 3, 5, 7)

# then seat 4, new and passed by the button, posts a big blind to come in (Blinds 4(b)) and is dealt in
POSTS_IN = ("wait 2s\nbutton 7\npost 1 1\nwait 1s\npost 3 2\nwait 1s\npost 4 2\nwait 1s\ndeal hole cards\nwait 2s\n"
            + folded_to(3, 4, 5, 7, 1))

KILL = (1, 2, 3, 4)
PUCK = upto("chips-kill-puck.scn", "puck kill -> seat1")
# the hand seat 4 wins, after which its first leg is up (the kill puck scenario's first hand)
FIRST_LEG = "".join(line + "\n" for line in upto("chips-kill-puck.scn", "cleanup").splitlines()
                     if not line.startswith("puck"))
# seat 4 owes a kill with the button on seat 3: seat 1 posts the big blind, seat 4 the kill
KILLED = upto("chips-kill.3.scn", "post 4 4") + "wait 1s\ndeal hole cards 4=As,Kd 2=Ah,Kc 1=7s,2h 3=8c,3d\nwait 2s\n"
# seat 2 calls the kill, seat 4 checks; both make the broadway straight and split the pot (Kill Pots 4)
STREETS = "".join(f"{street}\nwait 1s\ntap check seat 4\nwait 1s\ntap check seat 2\nwait 1s\n"
                  for street in ("flop Qh Jh Ts", "turn 5c", "river 2d"))
SPLIT = (KILLED + "call 2 4\nwait 1s\nfold 3\nwait 1s\ntap check seat 4\nwait 1s\nfold 1\nwait 1s\ngather\nwait 1s\n"
         + STREETS + "wait 2s\naward 2,4\nwait 1s\ntake 2\ntake 4\nwait 1s\ncleanup\nwait 2s\nbutton 4\nwait 1s\n"
         "post 1 1\nwait 1s\npost 2 2\nwait 1s\n")

# seat 4 killed the pot and won it (Kill Pots 7): the next hand's blinds are in, seat 4's kill is still to come
KILL_AGAIN = (SCENARIOS / "chips-kill.7.scn").read_text().rsplit("post 4 4\n", 1)[0]


CASES: dict[str, Case] = {
    "blinds.7": Case(
        "blinds.7", "same button; every chip goes back to whoever put it in; redeal without seat 4",
        "chips-blinds.7.scn", "cleanup\nwait 1s\nchips all bet5 -> off\nchips all bet7 -> off\nwait 1s\nbutton 3\n"
        "post 5 1\nwait 1s\npost 7 2\nwait 1s\n" + dealt(5, 7, 1, 3), folded_to(7, 1, 3, 5) + PASSES + POSTS_IN,
        ("complete", "misdeal", "complete", "complete", "complete")),
    "blinds.9": Case(
        "blinds.9", "missed the small blind: post it, 2, live (or a big blind of 5 to play at once); 1 more",
        upto("chips-blinds.9.scn", "post 3 1") + "wait 1s\ndeal hole cards\n", "chips 1 -> bet3\nwait 1s\n",
        folded_to(2, 3, 4, 1) + folded_to_the_big_blind((1, 2, 3, 4), 1),
        ("complete",) * 4),
    "kill.1": Case(
        "kill.1", "The kill button is neutral: nobody has a leg up. Take it away from seat 1.", PUCK,
        "puck kill seat1 -> off\n", FIRST_LEG.split("puck kill -> seat1\n")[-1].split("shoe loaded\n")[-1].split(
            "sit 4 200\n")[-1] + "wait 1s\n" + folded_to_the_big_blind(KILL, 2)),
    "kill.3": Case(
        "kill.3", "who won the last pot and has a leg up; seat 2 has none. Put it in front of seat 4.",
        FIRST_LEG + "puck kill -> seat2\n", "puck kill seat2 -> seat4\n", folded_to_the_big_blind(KILL, 2)),
    "kill.6": Case(
        "kill.6", "dealt without it, the hand plays unkilled, at the normal limits.", "chips-kill.6.scn", "",
        folded_to(1, 2, 3, 4) + folded_to_the_big_blind(KILL, 4), ("complete",) * 4),
    "kill.7": Case(
        "kill.7", "Seat 4 must kill this pot for 4; the limits are raised x2", KILL_AGAIN,
        "post 4 4\nwait 1s\ndeal hole cards\nwait 2s\n",
        folded_to(2, 3, 4, 1) + folded_to_the_big_blind(KILL, 1), ("complete",) * 5, info=True),
    "kill.9": Case(
        "kill.9", "seat 2 must put in the full 4", "chips-kill.9.scn", "chips 1x2 -> bet2\n",
        "wait 1s\n" + folded_to(2, 3, 4, 1) + folded_to_the_big_blind(KILL, 4), ("complete",) * 4),
    # lowball's optional kill put in after a third card was dealt: taken back, the hand plays unkilled to its showdown
    "kill.10": Case(
        "kill.10", "Seat 4 takes the 4 back; the pot plays unkilled", upto("chips-kill.10.scn", "post 4 4"),
        "take 4\n", after("chips-kill.10.scn", "take 4") + "wait 2s\n" + folded_to_the_big_blind(KILL, 2)),
    "kill.11": Case(
        "kill.11", "seat 2 takes the 4 back", "chips-kill.11.scn", "chips 4 bet2 -> off\n",
        folded_to(1, 2, 3, 4) + folded_to_the_big_blind(KILL, 4), ("complete",) * 4),
    "kill.12": Case(
        "kill.12", "it may play only by agreeing to kill the next pot", "chips-kill.12.scn", "",
        folded_to(5, 1, 2, 3, 4) + "wait 2s\nbutton 4\npost 1 2\nwait 1s\npost 5 4\nwait 1s\ndeal hole cards\n"
        "wait 2s\n" + folded_to(1, 2, 3, 4, 5), ("complete",) * 4),
    "kill.4": Case(
        "kill.4", "Seat 4 must kill this pot for 4; the limits are raised x2", SPLIT,
        "post 4 4\nwait 1s\ndeal hole cards\nwait 2s\n", folded_to(2, 3, 4, 1), ("complete",) * 4, info=True),
}
