"""Child process for test_power_cut: records numbered records through a real Recorder until it is killed.

argv: directory name. Prints the count of records whose write() returned, one per line, flushed."""

import sys

from dealerbox.record.logformat import Header, Rx
from dealerbox.record.recorder import Recorder


def main() -> None:
    directory, name = sys.argv[1], sys.argv[2]
    rec = Recorder(directory, Header(config={"table": {"id": "T01"}}, enrolment={}), name=name,
                   rotate_bytes=4096, fsync_every_s=0.0)
    n = 0
    while True:
        n += 1
        rec.write(Rx(n / 1000, n.to_bytes(4, "big") * 8))
        sys.stdout.write(f"{n}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
