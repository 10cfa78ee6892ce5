"""Run it twice or three times no more often than the stub can deal (issue 31): each run takes its burns and the
rest of its board from the stub, so a nine-handed Omaha all in before the flop (16 cards left) runs twice at most.
The tap asking more is refused with the count (run-it.1, dealer), and the screen offers no more runs than that."""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_text

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def cut(name: str, line: str) -> str:
    lines = (SCENARIOS / name).read_text().splitlines(keepends=True)
    return "".join(lines[:next(i for i, x in enumerate(lines) if x.startswith(line)) + 1])


def feed(text: str) -> tuple[Pipeline, list[te.TableEvent], list[int]]:
    """Every event of ``text``, and the screen's run-it offer after each record."""
    compiled = compile_text(text, str(SCENARIOS / "stub.scn"))
    pipe = Pipeline.from_header(compiled.header)
    events, offers = [], []
    for record in compiled.records:
        events += pipe.feed(record)
        offers.append(pipe.engine.snapshot().house.runs_offer)
    return pipe, events, offers


def findings(events: list[te.TableEvent]) -> list[te.FindingRaised]:
    return [e for e in events if isinstance(e, te.FindingRaised)]


def test_three_runs_that_the_stub_cannot_deal_are_refused_at_the_tap_with_the_count():
    _, events, _ = feed(cut("house-run-it.1-stub.scn", "run-it amount 3"))
    (f,) = [f for f in findings(events) if f.rule.startswith("run-it")]
    assert (f.rule, f.severity, f.outcome, f.seats) == ("run-it.1", "dealer", "continues", (2, 3))
    assert f.ruling == ("The stub holds 16 cards: 3 runs need 24 (each run its burns and the rest of its board, 8). "
                        "Deal 2 runs or one board.")
    assert not [e for e in events if isinstance(e, te.RunsAgreed)]


def test_the_runs_the_stub_deals_exactly_are_agreed_and_the_screen_offers_no_more():
    _, events, offers = feed((SCENARIOS / "house-run-it.1-stub-ok.scn").read_text())
    assert [e.runs for e in events if isinstance(e, te.RunsAgreed)] == [2]
    assert max(offers) == 2                 # the table allows three; the stub deals two
    assert not [f for f in findings(events) if f.severity != "info"]


def test_after_the_flop_each_run_takes_four_cards_and_a_burn_already_down_counts():
    # the same nine-handed hand checked to the flop instead: 16 - 4 = 12 cards left, each run takes 4 (two burns,
    # turn and river). Three runs need 12 and are agreed; with the turn's burn down (11 left) board 1's run takes
    # 3, so three need 11, still dealt; one card fewer in the stub (a card out of play) and only two are.
    text = cut("house-run-it.1-stub-ok.scn", "gather")
    flop = "burn 4d\ncard Ah shoe -> board\ncard 7c shoe -> board\ncard 8d shoe -> board\n"
    _, events, offers = feed(text + flop + "wait 1s\nrun-it amount 3\n")
    assert [e.runs for e in events if isinstance(e, te.RunsAgreed)] == [3] and offers[-2] == 3
    _, events, _ = feed(text + flop + "burn 4s\nwait 1s\nrun-it amount 3\n")
    assert [e.runs for e in events if isinstance(e, te.RunsAgreed)] == [3]
    short = text + flop + "burn 4s\ncard 3h shoe -> off\nwait 3s\nrun-it amount 3\n"
    _, events, offers = feed(short)
    (f,) = [f for f in findings(events) if f.rule == "run-it.1"]
    assert f.ruling == ("The stub holds 10 cards: 3 runs need 11 (each run its burns and the rest of its board, 4; "
                        "3 for board 1, its burn is down). Deal 2 runs or one board.")
    assert offers[-2] == 2


def test_a_hand_the_stub_cannot_run_twice_is_offered_no_run_and_refused_with_one_board():
    # eight players of Big O (40 hole cards), seat 3 all in before the flop: 12 cards left, not two runs of 8
    hands = ("5c,5s,6h,6s,2s", "2c,3c,4h,5h,2d", "As,Ad,Ks,Kd,2h", "7d,7s,8c,8h,3s", "9c,9d,9h,Tc,3d",
             "Td,Th,Ts,Jc,3h", "Jd,Jh,Qc,Qd,4c", "Qh,Qs,Kc,Kh,4s")
    text = ("table seats 8\ngame plo5 blinds 1/2\nset game.run_it 3\nhello\nshoe loaded\n"
            + "".join(f"sit {s} {7 if s == 3 else 200}\n" for s in range(1, 9)) + "button 8\nblinds\n"
            + "deal hole cards " + " ".join(f"{s}={c}" for s, c in enumerate(hands, 1)) + "\nwait 2s\nraise 3 7\n"
            + "".join(f"wait 1s\nfold {s}\n" for s in (4, 5, 6, 7, 8, 1)) + "wait 1s\ncall 2 5\nwait 1s\ngather\n"
            + "wait 1s\nrun-it amount 2\n")
    _, events, offers = feed(text)
    (f,) = [f for f in findings(events) if f.rule == "run-it.1"]
    assert f.ruling == ("The stub holds 12 cards: 2 runs need 16 (each run its burns and the rest of its board, 8). "
                        "Deal one board.")
    assert max(offers) == 0 and not [e for e in events if isinstance(e, te.RunsAgreed)]
