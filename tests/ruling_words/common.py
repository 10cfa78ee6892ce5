"""What every words case is made of: the fault (a raising scenario of tests/scenarios/, or lines of its own), the
dealer doing literally what the ruling's words say, and the hand and the next one played to their ends."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.scenario_play import loud as loud, play_text as play  # noqa: F401  (the cases' one import)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@dataclass(frozen=True)
class Case:
    rule: str
    follows: str            # the words of the row's ruling that the remedy carries out (must be in the ruling)
    fault: str              # a scenario of tests/scenarios/ ("chips-betting.3.scn") or the lines themselves
    remedy: str             # the dealer doing what the words say
    rest: str               # the hand, and the next one, played to their ends
    outcomes: tuple[str, ...] = ("complete", "complete")   # every HandEnded of the case, in order
    also: tuple[str, ...] = ()   # other rows the same fault rules above info (their rulings are the fault's too)
    deal: str = ""          # the hole cards of the fault scenario's bare ``deal hole cards`` line, for a showdown
    info: bool = False      # the row rules at ``info`` yet tells the dealer what to do: its words are followed too
    folder: str = ""        # the folder of tests/scenarios/ whose files the header of the case's own lines names

    def fault_text(self) -> str:
        text = (SCENARIOS / self.fault).read_text() if self.fault.endswith(".scn") else self.fault
        if self.deal:
            text = text.replace("deal hole cards\n", f"deal hole cards {self.deal}\n", 1)
        return text

    def named(self, label: str) -> str:
        """The name to compile the case under: beside its scenario, whose header may name files next to it."""
        folder = (SCENARIOS / self.fault).parent if self.fault.endswith(".scn") else SCENARIOS / self.folder
        return str(folder / f"{label}.scn")

    def text(self) -> str:
        return self.fault_text() + "wait 1s\n" + self.remedy + "wait 1s\n" + self.rest


def seats_after(seats: tuple[int, ...], button: int) -> list[int]:
    return [s for s in sorted(seats) if s > button] + [s for s in sorted(seats) if s <= button]


def folded_to_the_big_blind(seats: tuple[int, ...], button: int) -> str:
    """A hand with ``button`` on ``seats``: blinds, the deal, everyone folds to the big blind, who takes the pot."""
    order = seats_after(seats, button)
    sb, bb = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
    acting = [s for s in order[2:] + [sb]] if len(order) > 2 else [sb]
    folds = "".join(f"fold {s}\nwait 1s\n" for s in acting)
    return (f"wait 2s\nbutton {button}\nwait 1s\nblinds\ndeal hole cards\nwait 2s\n{folds}gather\nwait 1s\n"
            f"win {bb}\nwait 1s\ncleanup\nwait 1s\n")


def folded_to(winner: int, *folds: int) -> str:
    """The hand in play ends: ``folds`` fold in turn, the bets go in, ``winner`` takes the pot."""
    lines = "".join(f"fold {s}\nwait 1s\n" for s in folds)
    return f"{lines}gather\nwait 1s\nwin {winner}\nwait 1s\ncleanup\nwait 1s\n"
