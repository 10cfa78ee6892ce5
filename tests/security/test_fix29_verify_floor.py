"""Issue 29, after the outside review: ``verify --from-floor`` on a log whose table the floor holds nothing for
exited 2 ("could not run"). The floor answered: it witnessed nothing of a log the table signed, and that is a
failed check (exit 1, one line; CONTRIBUTING.md's exit codes). An unsigned log keeps its own one verdict ("not
signed", exit 1); ``--from-floor`` without ``--pubkey`` is still a usage error (exit 2)."""

from __future__ import annotations

import dataclasses

import pytest

from dealerbox.cli import main
from dealerbox.record.recorder import Recorder
from tests.dashboard.conftest import PASSWORD

from .witness import HEADER, floor, play, recorder, table_keys

pytestmark = pytest.mark.timeout(120)


def test_a_signed_log_the_floor_holds_nothing_for_fails_verify_in_one_line(tmp_path, broker, capsys, monkeypatch):
    monkeypatch.setenv("DEALERBOX_FLOOR_PASSWORD", PASSWORD)
    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)          # T01's key enrolled; its link never reached the floor
    signed = recorder(tmp_path, private)
    play(signed, range(1, 4))
    signed.close()
    unsigned = Recorder(tmp_path / "plain", dataclasses.replace(HEADER), name="T01-plain")
    play(unsigned, range(1, 4))
    unsigned.close()
    capsys.readouterr()
    ask = ["--from-floor", running.url, "--floor-user", "vic"]
    try:
        assert main(["verify", str(signed.path), "--pubkey", str(public)]) == 0    # the key alone: intact
        capsys.readouterr()
        code = main(["verify", str(signed.path), "--pubkey", str(public), *ask])
        out, err = capsys.readouterr()
        assert code == 1, (out, err)
        assert out.splitlines() == [f"FAILED: the floor at {running.url} holds no signed head of demo/T01: it "
                                    f"witnessed nothing of this log, so nothing but the table's own key vouches "
                                    f"for it (is the table's key enrolled on the floor, and was its link up?)"]
        assert err == ""
        # an unsigned log: the key's one verdict says it all (no floor can hold a head of it)
        code = main(["verify", str(unsigned.path), "--pubkey", str(public), *ask])
        out, err = capsys.readouterr()
        assert code == 1 and len(out.splitlines()) == 1 and "the log is not signed" in out and err == ""
        # without the table's key the floor's heads could prove nothing: a usage error, the floor not even asked
        code = main(["verify", str(signed.path), *ask])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and "need --pubkey" in err
    finally:
        running.stop()
