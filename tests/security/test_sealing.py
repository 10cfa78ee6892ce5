"""Hole cards sealed at rest (issue 29, item 4): a log, read with every file the table holds, gives away no hole
card that was not shown down; the floor's private key opens it exactly; replay, export, audit and verify work
without it; the old self-made-PIN attack fails. Real simulator hands, the real recorder, the real CLI."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import stat
from pathlib import Path

import jsonschema
import pytest

from dealerbox.cli import main
from dealerbox.config import Config, GameConfig
from dealerbox.pipeline import public_events
from dealerbox.history.fastlog import read_hands_fast
from dealerbox.record.anchor import anchor_message
from dealerbox.record.audit import audit_topic, hash_pin
from dealerbox.record.recorder import Recorder
from dealerbox.record.sealing import Opener, generate_floor_keys, load_floor_private, load_floor_public
from dealerbox.record.signing import generate, load_signer
from dealerbox.record.verify import verify_log
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.waiting import wait_until

from .test_evidence_floor import SCHEMAS, _listen, _stop_listeners  # noqa: F401 - _stop_listeners: an autouse fixture
from tests.conftest import scaled

HANDS = 12


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One table's box after a session (its config, signing key, logs, the floor's public key) and, apart from
    it, the floor's private key. The same seeded hands are also recorded unsealed, as every log was before."""
    root = tmp_path_factory.mktemp("box")
    floor_private = root / "floor" / "floor.key"
    floor_public = generate_floor_keys(floor_private)
    box = root / "box"
    (box / "etc").mkdir(parents=True)
    table_key = box / "etc" / "T01.key"
    generate(table_key)
    pub_copy = box / "etc" / "floor.pub"
    pub_copy.write_text(floor_public.read_text())
    config = Config(game=GameConfig(variant="nlhe"))
    sim = Simulator(config, demo_registry(), seed=29, irregularities=0.0)
    header = dataclasses.replace(sim.header(), created="2026-11-27T20:00:00Z")   # both logs: the same date
    signer = load_signer(table_key, "T01")
    sealed = Recorder(box / "logs", header, name="T01-sealed", signer=signer, seal_to=load_floor_public(pub_copy),
                      rules=public_events, rotate_bytes=40_000)
    clear = Recorder(root / "clear", header, name="T01-clear", signer=signer)
    for record in sim.records(HANDS):
        sealed.write(record)
        clear.write(record)
    sealed.close()
    clear.close()
    cfg = box / "etc" / "dealerbox.toml"
    cfg.write_text(f'[table]\nid = "T01"\n[record]\ndir = "{box / "logs"}"\nkey = "{table_key}"\n'
                   f'floor_public_key = "{pub_copy}"\n[audit]\njournal = "{box / "audit.jsonl"}"\n')
    return {"box": box, "log": str(sealed.path), "clear": str(clear.path), "private": floor_private,
            "public": floor_public, "config": cfg, "table_key": table_key, "parts": len(sealed.parts)}


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def _unshown(revealed: list[dict]) -> dict[int, set[str]]:
    """Per hand, the hole cards dealt that were never shown down (from a replay with the floor's key)."""
    dealt: dict[int, set[str]] = {}
    for e in revealed:
        if e["event"] == "CardDealt" and e["card"]:
            dealt.setdefault(e["hand"], set()).add(e["card"])
        if e["event"] == "HandShown":
            dealt.get(e["hand"], set()).difference_update(e["cards"])
    return dealt


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def test_the_log_is_sealed_in_several_parts_and_holds_no_card_tag_of_the_enrolment(table):
    assert table["parts"] > 1                       # every part opens alone: the hand's key is repeated after it
    text = b"".join(Path(p).read_bytes() for p in sorted(table["box"].glob("logs/*.jsonl")))
    uids = [uid.lower().replace(":", "").encode() for deck in demo_registry().decks for uid in deck.cards]
    clear = Path(table["clear"]).read_bytes().lower()
    assert sum(u in clear for u in uids) > 40             # the unsealed log holds them: the check can fail
    assert not [u for u in uids if u in text.lower()]
    header = json.loads(text.split(b"\n")[0])
    assert header["enrolment"]["decks"] == [] and header["sealed"]["to"]
    kinds = {json.loads(line)["k"] for line in text.splitlines()}
    assert {"key", "sx", "ev"} <= kinds and not kinds & {"rx", "in"}


def test_a_log_reader_with_every_file_of_the_box_gets_no_unshown_hole_card(table, capsys):
    code, revealed, _ = _run(capsys, "replay", "--jsonl", table["log"], "--reveal-hole-cards",
                             "--floor-key", table["private"], "--config", table["config"])
    assert code == 0
    unshown = _unshown(_events(revealed))
    assert sum(map(len, unshown.values())) >= 2 * HANDS   # most hands end without a showdown of every seat
    # what the box holds in the clear: the public events, hand by hand
    public: dict[int, set[str]] = {}
    for line in "".join(Path(p).read_text() for p in sorted(table["box"].glob("logs/*.jsonl"))).splitlines():
        rec = json.loads(line)
        if rec["k"] == "ev" and rec["e"].get("hand") is not None:
            public.setdefault(rec["e"]["hand"], set()).update(_strings(rec["e"]))
    assert public and all(not (cards & public.get(hand, set())) for hand, cards in unshown.items())
    # every key file on the box: the table's signing key and the floor's public key open nothing
    for wrong in (table["table_key"], table["box"] / "etc" / "floor.pub"):
        os.chmod(wrong, 0o600)
        code, out, err = _run(capsys, "replay", "--jsonl", table["log"], "--reveal-hole-cards", "--floor-key", wrong,
                              "--config", table["config"])
        assert code == 2 and out == "" and "hole cards stay hidden" in err


def test_the_old_self_made_pin_attack_reveals_nothing(table, tmp_path, capsys, monkeypatch):
    mine = tmp_path / "mine.toml"
    mine.write_text(f'[audit]\nsupervisors = {{ S01 = "{hash_pin("4711")}" }}\njournal = "{tmp_path / "j.jsonl"}"\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("4711\n"))
    with pytest.raises(SystemExit):   # there is no --supervisor any more: a PIN unlocks no data
        main(["replay", "--jsonl", table["log"], "--reveal-hole-cards", "--supervisor", "S01", "--config", str(mine)])
    capsys.readouterr()
    code, out, err = _run(capsys, "replay", "--jsonl", table["log"], "--reveal-hole-cards", "--config", mine)
    assert code == 2 and out == "" and "needs the floor's private key" in err
    code, _, err = _run(capsys, "export", table["log"], "--out", tmp_path / "x.phhs", "--reveal-hole-cards")
    assert code == 2 and "needs the floor's private key" in err and not (tmp_path / "x.phhs").exists()


def test_replay_without_the_key_prints_exactly_what_a_replay_of_the_raw_records_prints(table, capsys):
    code, public, _ = _run(capsys, "replay", "--jsonl", table["log"])
    assert code == 0
    code, raw, _ = _run(capsys, "replay", "--jsonl", table["clear"])
    assert code == 0 and public == raw and '"HandEnded"' in raw
    code, readable, _ = _run(capsys, "replay", table["log"])
    assert code == 0 and "PotAwarded" in readable


def test_the_floor_key_replays_the_raw_records_exactly_and_reveals(table, capsys):
    code, opened, err = _run(capsys, "replay", "--jsonl", table["log"], "--reveal-hole-cards", "--floor-key",
                             table["private"], "--config", table["config"])
    assert code == 0 and "revealed with floor key" in err
    unsealed = read_hands_fast(table["clear"], reveal=True)
    code, clear, err = _run(capsys, "replay", "--jsonl", table["clear"], "--reveal-hole-cards", "--floor-key",
                            table["private"], "--config", table["config"])
    assert code == 0 and "is not sealed" in err   # an old log's cards were never locked: said, not hidden
    assert opened == clear
    dealt = [e["card"] for e in _events(opened) if e["event"] == "CardDealt"]
    assert dealt and all(dealt)
    assert {s for h in unsealed.hands.hands for s in h.hole_cards} and \
        read_hands_fast(table["log"], reveal=True, opener=Opener(load_floor_private(table["private"]))).hands.hands \
        == unsealed.hands.hands


def test_audit_and_verify_work_without_the_key_and_the_audit_with_it_is_identical(table, tmp_path, capsys):
    clear = read_hands_fast(table["clear"])
    public = read_hands_fast(table["log"])
    opened = read_hands_fast(table["log"], opener=Opener(load_floor_private(table["private"])))
    assert len(clear.hands.hands) == HANDS
    assert public.hands.hands == clear.hands.hands == opened.hands.hands
    assert public.check.intact and opened.check.intact
    verified = verify_log(table["log"])
    assert verified.intact
    for fast in (public, opened):   # the one-pass reader counts and times a sealed log's lines as verify does
        assert (fast.check.records, fast.check.first_t, fast.check.last_t) == \
            (verified.records, verified.first_t, verified.last_t)
    code, out, _ = _run(capsys, "verify", table["log"], "--pubkey", table["table_key"].with_suffix(".pub"))
    assert code == 0 and "signatures good" in out
    for extra in ([], ["--floor-key", table["private"]]):
        code, _, err = _run(capsys, "audit", "--jobs", "1", "--out-dir", tmp_path / f"a{len(extra)}", table["log"],
                            *extra)
        assert code == 0 and f"{HANDS} hands" in err
    assert (tmp_path / "a0" / "hands.csv").read_text() == (tmp_path / "a2" / "hands.csv").read_text()


def test_export_without_the_key_writes_every_hand_with_hole_cards_hidden(table, tmp_path, capsys):
    code, _, err = _run(capsys, "export", table["log"], "--out", tmp_path / "day.phhs")
    assert code == 0 and f"{HANDS} hands" in err
    text = (tmp_path / "day.phhs").read_text()
    assert "????" in text
    code, _, _ = _run(capsys, "export", table["clear"], "--out", tmp_path / "clear.phhs")
    assert text.split("\n", 2)[2].replace(table["log"], "L") == \
        (tmp_path / "clear.phhs").read_text().split("\n", 2)[2].replace(table["clear"], "L")


def test_export_reveals_with_the_floor_key_and_a_wrong_key_is_refused(table, tmp_path, capsys):
    other = tmp_path / "other.key"
    generate_floor_keys(other)
    code, _, err = _run(capsys, "export", table["log"], "--out", tmp_path / "x.phhs", "--reveal-hole-cards",
                        "--floor-key", other, "--config", table["config"])
    assert code == 2 and "sealed to floor key" in err and not (tmp_path / "x.phhs").exists()
    code, _, err = _run(capsys, "export", table["log"], "--out", tmp_path / "y.phhs", "--reveal-hole-cards",
                        "--floor-key", table["private"], "--config", table["config"])
    assert code == 0 and "????" not in (tmp_path / "y.phhs").read_text()
    journal = [json.loads(line) for line in (table["box"] / "audit.jsonl").read_text().splitlines()]
    assert [j["granted"] for j in journal[-2:]] == [False, True]


def test_a_reveal_is_journalled_and_published_to_the_floor(table, broker, tmp_path, capsys):
    cfg = tmp_path / "floor.toml"
    cfg.write_text(f'[table]\nid = "T01"\nsite = "demo"\n[floor]\nhost = "{broker.host}"\nport = {broker.port}\n'
                   f'[audit]\njournal = "{tmp_path / "audit.jsonl"}"\n')
    heard = _listen(broker, audit_topic("demo", "T01"))
    code, _, err = _run(capsys, "replay", "--jsonl", table["log"], "--reveal-hole-cards", "--floor-key",
                        table["private"], "--config", cfg)
    assert code == 0 and "floor sent" in err
    assert wait_until(lambda: heard, scaled(5))
    payload = heard[0][0]
    jsonschema.validate(payload, json.loads((SCHEMAS / "audit.json").read_text()))
    assert payload["granted"] is True and payload["action"] == "reveal-hole-cards"
    assert table["log"] in payload["subject"]
    assert json.loads((tmp_path / "audit.jsonl").read_text())["floor"] == "sent"


def test_keygen_makes_the_floor_pair_and_a_table_without_one_says_what_to_set(tmp_path, capsys, caplog):
    code, out, _ = _run(capsys, "keygen", "--floor", "--out", tmp_path / "f" / "floor.key")
    assert code == 0 and "record.floor_public_key" in out
    assert stat.S_IMODE((tmp_path / "f" / "floor.key").stat().st_mode) == 0o600
    load_floor_public(tmp_path / "f" / "floor.pub")
    code, _, err = _run(capsys, "keygen", "--floor")
    assert code == 2 and "--out FILE" in err
    from dealerbox.record.sealing import seal_target
    with caplog.at_level("WARNING", logger="dealerbox.record"):
        assert seal_target("", "var/logs") is None
    assert [r.getMessage() for r in caplog.records if "floor_public_key is not set" in r.getMessage()]


def test_enrolling_from_a_sealed_log_says_it_cannot_read_its_tags(table, tmp_path, capsys):
    code, _, err = _run(capsys, "enrol", "deck", "--deck-id", "D7", "--back", "red", "--out", tmp_path / "D7.json",
                        "--from", table["log"])
    assert code == 2 and "sealed to the floor's key" in err and not (tmp_path / "D7.json").exists()


def test_the_running_terminal_seals_its_log_and_its_public_events_are_the_ones_it_ruled(tmp_path):
    from ..test_terminal import _run as run_terminal
    floor_public = generate_floor_keys(tmp_path / "floor" / "floor.key")
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[record]\nfloor_public_key = "{floor_public}"\n[simulator]\nseed = 6\n')
    r = run_terminal(["run", "--config", str(cfg), "--jsonl", "--speed", "500", "--hands", "3", "--no-floor"],
                     tmp_path)
    assert r.returncode == 0, r.stderr
    assert "floor_public_key is not set" not in r.stderr
    [log] = sorted((tmp_path / "var" / "logs").glob("*.jsonl"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["sealed"] and not [line for line in lines if line["k"] in ("rx", "in")]
    ruled = [json.loads(line) for line in r.stdout.splitlines()]
    logged = [line["e"] for line in lines if line["k"] == "ev"]
    assert [e["event"] for e in ruled].count("HandEnded") >= 3
    # the log's times are the microseconds it keeps (as a replay's are); the recorder may go on past the output
    assert logged[:len(ruled)] == [{**e, "t": round(e["t"], 6)} for e in ruled]
    unsealed = run_terminal(["run", "--jsonl", "--speed", "500", "--hands", "1", "--no-floor"], tmp_path / "var")
    assert unsealed.returncode == 0
    assert [line for line in unsealed.stderr.splitlines() if "record.floor_public_key is not set" in line]


def test_a_signed_and_sealed_log_verifies_replays_without_the_key_and_its_anchors_name_the_log(table, tmp_path,
                                                                                                capsys):
    both = tmp_path / "both.toml"   # record.key and record.floor_public_key together, as a table is set up
    both.write_text(f'[table]\nid = "T01"\n[record]\nkey = "{table["table_key"]}"\n'
                    f'floor_public_key = "{table["box"] / "etc" / "floor.pub"}"\n')
    signed_only = tmp_path / "signed.toml"
    signed_only.write_text(f'[table]\nid = "T01"\n[record]\nkey = "{table["table_key"]}"\n')
    logs = {}
    for name, cfg in (("sealed", both), ("clear", signed_only)):
        logs[name] = tmp_path / f"{name}.jsonl"
        code, _, err = _run(capsys, "simulate", "--hands", 4, "--seed", 31, "--out", logs[name], "--config", cfg)
        assert code == 0, err
    lines = [json.loads(line) for line in logs["sealed"].read_text().splitlines()]
    header = lines[0]
    assert header["signer"] and header["sealed"]["to"] and header["enrolment"]["decks"] == []
    assert header["log"]["id"] and header["log"]["seq"] == 0   # the identity survives the sealing (no ledger: place 0)
    kinds = {line["k"] for line in lines}
    assert {"sig", "key", "sx", "ev"} <= kinds and not kinds & {"rx", "in"}
    code, out, _ = _run(capsys, "verify", logs["sealed"], "--pubkey", table["table_key"].with_suffix(".pub"))
    assert code == 0 and "signatures good" in out
    code, public, err = _run(capsys, "replay", "--jsonl", logs["sealed"])    # no floor key
    assert code == 0, err
    dealt = [e for e in _events(public) if e["event"] == "CardDealt"]
    assert dealt and not any(e.get("card") for e in dealt)
    code, raw, _ = _run(capsys, "replay", "--jsonl", logs["clear"])
    assert code == 0 and public == raw and public.count('"HandEnded"') == 4
    # the heads the floor gets: the same recorder, signed and sealed, hands each one to the link (on_anchor)
    sim = Simulator(Config(game=GameConfig(variant="nlhe")), demo_registry(), seed=31, irregularities=0.0)
    rec = Recorder(tmp_path / "floor-view", sim.header(), name="T01-anchored",
                   signer=load_signer(table["table_key"], "T01"), seal_to=load_floor_public(table["public"]),
                   rules=public_events)
    handed: list[dict] = []
    rec.on_anchor = handed.append
    hand = sim.hand_no
    for record in sim.records(4):
        if sim.hand_no != hand:   # a new hand began: sign the one before, as simulate and run do
            rec.seal(hand=hand)
            hand = sim.hand_no
        rec.write(record)
    rec.close()
    identity = json.loads(rec.path.read_text().split("\n", 1)[0])["log"]
    assert len(handed) >= 4 and [a["a"] for a in handed] == list(range(1, len(handed) + 1))
    assert all((a["log"], a["seq"]) == (identity["id"], identity["seq"]) and "file" in a for a in handed)
    floor = tmp_path / "anchors.jsonl"
    floor.write_text("".join(json.dumps(anchor_message("demo", a)) + "\n" for a in handed))
    code, out, _ = _run(capsys, "verify", rec.path, "--pubkey", table["table_key"].with_suffix(".pub"),
                        "--anchors", floor)
    assert code == 0 and f"{len(handed)} anchors found" in out
    # the floor's heads name the sealed log they came from, so they prove nothing for the simulated one
    code, out, _ = _run(capsys, "verify", logs["sealed"], "--pubkey", table["table_key"].with_suffix(".pub"),
                        "--anchors", floor)
    assert code == 1 and f"the floor holds no signed head of this log (id {header['log']['id']}" in out
