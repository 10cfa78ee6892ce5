"""Issue 29's log reader, tried with irregular hands: a sealed log's public lines (the `ev` events, so `replay`,
`audit` and `export` without the floor key) must name no hole card that was not shown down, findings included.
The real CLI: `keygen`, `simulate` with the seeded irregularities, `replay` with and without the floor's key."""

from __future__ import annotations

import json
import re

from dealerbox.cli import main


def _run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_a_finding_in_a_sealed_log_names_no_hole_card_that_was_never_shown(tmp_path, capsys):
    assert main(["keygen", "--floor", "--out", str(tmp_path / "floor" / "floor.key")]) == 0
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\n[record]\ndir = "{tmp_path / "logs"}"\nkey = "{tmp_path / "k" / "T01.key"}"\n'
                   f'floor_public_key = "{tmp_path / "floor" / "floor.pub"}"\n[audit]\n'
                   f'journal = "{tmp_path / "audit.jsonl"}"\n')
    assert main(["--config", str(cfg), "keygen"]) == 0
    log = tmp_path / "logs" / "T01-irr.jsonl"
    assert main(["--config", str(cfg), "simulate", "--hands", "6", "--seed", "11", "--out", str(log),
                 "--irregularities", "other-deck,duplicate-card,other-deck,duplicate-card"]) == 0
    capsys.readouterr()
    # the truth, from the floor: each hand's face-down cards that no HandShown showed
    code, revealed = _run(capsys, "--config", cfg, "replay", "--jsonl", log, "--reveal-hole-cards", "--floor-key",
                          tmp_path / "floor" / "floor.key")
    assert code == 0
    unshown: dict[int, set[str]] = {}
    for e in map(json.loads, revealed.splitlines()):
        if e["event"] == "CardDealt" and e["card"] and not e["face_up"]:
            unshown.setdefault(e["hand"], set()).add(e["card"])
        if e["event"] == "HandShown":
            unshown.get(e["hand"], set()).difference_update(e["cards"])
    assert sum(map(len, unshown.values())) > 10
    # what a reader of the log gets without the key: the public events
    code, public = _run(capsys, "replay", "--jsonl", log)
    assert code == 0
    told = []
    for e in map(json.loads, public.splitlines()):
        text = json.dumps(e)
        told += [(e["hand"], card, e["event"], e.get("ruling", "")) for card in unshown.get(e["hand"], ())
                 if re.search(rf'(?<![A-Za-z0-9]){card}(?![a-z0-9])', text)]
    assert told == [], told
