"""The signed log (issue 14): a rewrite that recomputes every unkeyed hash, a cut end or a swapped part fails
``dealerbox verify --pubkey``, and the failure names where. Real keys, real files, the real CLI."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from pathlib import Path

import pytest

from dealerbox.cli import main
from dealerbox.record.logformat import GENESIS, Header, Input, Rx, chain, part_path
from dealerbox.record.recorder import Recorder
from dealerbox.record.signing import KeyFileError, generate, load_public, load_signer
from dealerbox.record.verify import verify_log
from dealerbox.engine.inputs import DealerInput

HEADER = Header(config={"table": {"id": "T01"}}, enrolment={"decks": [], "chips": []}, created="2026-01-01T00:00:00Z")


@pytest.fixture
def keys(tmp_path):
    private = tmp_path / "keys" / "table.key"
    public = generate(private)
    return private, public


def _signed_log(tmp_path, keys, hands=3, rotate_bytes=1 << 30, name="T01-test", salt=0, created=HEADER.created,
                on_anchor=None):
    signer = load_signer(keys[0], "T01")
    rec = Recorder(tmp_path / "logs", dataclasses.replace(HEADER, created=created), rotate_bytes=rotate_bytes,
                   name=name, signer=signer)
    rec.on_anchor = on_anchor
    t = 0.0
    for hand in range(hands):
        for i in range(5):
            t += 1.0
            rec.write(Rx(t, bytes([hand, i, salt]) * 8))
        rec.write(Input(DealerInput(t=t, action="new-hand")))
        rec.seal()
    rec.close()
    return rec


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, recs: list[dict], rehash: bool = True, prev: str = GENESIS) -> None:
    out = []
    for rec in recs:
        if rehash:
            rec["h"] = chain(prev, rec)
            prev = rec["h"]
        out.append(json.dumps(rec, separators=(",", ":")))
    path.write_text("\n".join(out) + "\n")


def test_keygen_writes_a_0600_private_key_and_a_public_key_beside_it(tmp_path, capsys):
    cfg = tmp_path / "t.toml"
    key = tmp_path / "secret" / "t01.key"
    cfg.write_text(f'[record]\ndir = "{tmp_path / "logs"}"\nkey = "{key}"\n')
    assert main(["keygen", "--config", str(cfg)]) == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert len(load_public(key.with_suffix(".pub"))) == 64
    assert main(["keygen", "--config", str(cfg)]) == 2            # never overwritten by accident
    assert "already there" in capsys.readouterr().err


def test_a_key_inside_the_log_directory_is_refused_naming_the_field(tmp_path, capsys):
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[record]\ndir = "{tmp_path / "logs"}"\nkey = "{tmp_path / "logs" / "k.key"}"\n')
    assert main(["--config", str(cfg), "keygen"]) == 2
    assert "record.key" in capsys.readouterr().err


def test_a_key_others_can_read_is_refused(tmp_path, keys):
    os.chmod(keys[0], 0o644)
    with pytest.raises(KeyFileError, match="readable by others"):
        load_signer(keys[0], "T01")


def test_signed_log_is_created_0640_and_verifies_with_signatures_at_every_hand_and_the_close(tmp_path, keys):
    rec = _signed_log(tmp_path, keys)
    assert stat.S_IMODE(rec.path.stat().st_mode) == 0o640
    recs = _lines(rec.path)
    assert recs[0]["version"] == 2 and recs[0]["signer"] == load_public(keys[1])
    assert [r["k"] for r in recs].count("sig") == 4              # three hands and the close
    assert recs[-1]["k"] == "sig" and recs[-2]["k"] == "closed"
    report = verify_log(rec.path, pubkey=load_public(keys[1]))
    assert report.intact and report.signatures == 4, report.summary()
    assert rec.health()["anchor"]["head"] == recs[-2]["h"]


def test_a_rewrite_with_every_hash_recomputed_passes_the_chain_but_fails_the_signature(tmp_path, keys, capsys):
    rec = _signed_log(tmp_path, keys)
    recs = _lines(rec.path)
    edited = next(i for i, r in enumerate(recs) if r["k"] == "in" and i > 8)
    recs[edited]["a"] = "misdeal"                                  # the dealer's tap, changed
    _write(rec.path, recs)
    assert verify_log(rec.path).intact                              # the unkeyed recipe alone is fooled
    code = main(["verify", str(rec.path), "--pubkey", str(keys[1])])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("BROKEN:")
    assert f"line {edited + 2}: signature does not match" in out   # the signature right after the edit
    assert "after T01-test.jsonl line" in out                       # and the last good one before it


def test_stripping_the_signatures_to_pose_as_an_old_unsigned_log_fails(tmp_path, keys):
    rec = _signed_log(tmp_path, keys)
    recs = [r for r in _lines(rec.path) if r["k"] != "sig"]
    recs[0]["version"] = 1
    del recs[0]["signer"]
    for i, r in enumerate(recs):
        r["n"] = i
    _write(rec.path, recs)
    assert verify_log(rec.path).intact                              # an old unsigned log: still intact alone
    report = verify_log(rec.path, pubkey=load_public(keys[1]))
    assert not report.intact and "not signed" in str(report.problems[0])


def test_cutting_the_end_and_forging_a_closing_line_fails(tmp_path, keys):
    rec = _signed_log(tmp_path, keys)
    recs = _lines(rec.path)
    cut = [i for i, r in enumerate(recs) if r["k"] == "sig"][1]    # keep two hands, drop the third
    kept = recs[:cut + 1] + [{"k": "closed", "t": recs[cut]["t"], "records": 12, "parts": 1, "n": cut + 1}]
    _write(rec.path, kept)
    report = verify_log(rec.path, pubkey=load_public(keys[1]))
    assert not report.intact
    assert "closing line is not signed" in str(report.problems[0])


def test_truncation_before_an_anchored_head_fails_naming_the_anchored_record(tmp_path, keys, capsys):
    rec = _signed_log(tmp_path, keys)
    anchor = dict(rec.anchor)                                      # what the floor holds: the close
    anchors = tmp_path / "anchors.jsonl"
    anchors.write_text(json.dumps(anchor) + "\n")
    recs = _lines(rec.path)
    sigs = [i for i, r in enumerate(recs) if r["k"] == "sig"]
    rec.path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs[:sigs[1] + 1]))
    # without the anchor it is only a log cut by a power cut; with it, a provable truncation
    assert main(["verify", str(rec.path), "--pubkey", str(keys[1])]) == 1
    assert capsys.readouterr().out.startswith("INCOMPLETE")
    assert main(["verify", str(rec.path), "--pubkey", str(keys[1]), "--anchors", str(anchors)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"BROKEN: T01-test.jsonl line {anchor['n'] + 1}: the log ends before the anchored head")


def test_an_intact_log_passes_its_anchors(tmp_path, keys, capsys):
    rec = _signed_log(tmp_path, keys)
    anchors = tmp_path / "anchors.json"
    anchors.write_text(json.dumps([rec.anchor]))
    assert main(["verify", str(rec.path), "--pubkey", str(keys[1]), "--anchors", str(anchors)]) == 0
    assert "1 anchors found" in capsys.readouterr().out


def test_a_forged_anchor_is_refused(tmp_path, keys):
    rec = _signed_log(tmp_path, keys)
    forged = dict(rec.anchor, sig="00" * 64)
    report = verify_log(rec.path, pubkey=load_public(keys[1]), anchors=[forged])
    assert not report.intact and "not signed by this key" in str(report.problems[0])


def test_a_part_swapped_for_another_recording_of_the_same_table_fails(tmp_path, keys):
    a = _signed_log(tmp_path / "a", keys, hands=6, rotate_bytes=1024)
    b = _signed_log(tmp_path / "b", keys, hands=6, rotate_bytes=1024, salt=1)   # another session
    assert a.part >= 2
    assert verify_log(a.path, pubkey=load_public(keys[1])).intact
    part_path(a.path, 1).write_bytes(part_path(b.path, 1).read_bytes())
    report = verify_log(a.path, pubkey=load_public(keys[1]))
    assert not report.intact
    assert report.problems[0].file == "T01-test.part1.jsonl" and report.problems[0].line == 1


def test_every_rotated_part_ends_with_its_signature(tmp_path, keys):
    rec = _signed_log(tmp_path, keys, hands=6, rotate_bytes=1024)
    for n in range(rec.part):
        assert _lines(part_path(rec.path, n))[-1]["k"] == "sig"


def test_a_log_signed_by_another_table_key_fails(tmp_path, keys):
    rec = _signed_log(tmp_path, keys)
    other = generate(tmp_path / "other" / "t02.key")
    report = verify_log(rec.path, pubkey=load_public(other))
    assert not report.intact and "another key" in str(report.problems[0])


def test_anchors_find_their_log_under_any_file_name_and_skip_the_table_s_other_logs(tmp_path, keys, capsys):
    rec = _signed_log(tmp_path / "today", keys)
    other = _signed_log(tmp_path / "yesterday", keys, salt=2, created="2025-12-31T00:00:00Z")
    anchors = tmp_path / "floor.jsonl"
    anchors.write_text(json.dumps(rec.anchor) + "\n" + json.dumps(other.anchor) + "\n")
    copy = tmp_path / "exhibit-7.log"
    copy.write_bytes(rec.path.read_bytes())
    assert main(["verify", str(copy), "--pubkey", str(keys[1]), "--anchors", str(anchors)]) == 0
    assert "1 anchors found (1 given are of other logs)" in capsys.readouterr().out
    # yesterday's (validly signed) log put in today's place under today's name: the floor's anchor says not
    rec.path.write_bytes(other.path.read_bytes())
    report = verify_log(rec.path, pubkey=load_public(keys[1]), anchors=[rec.anchor])
    assert not report.intact and "the floor holds no signed head of this log" in str(report.problems[0])
