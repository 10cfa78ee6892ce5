"""Zone names to seat numbers (``seat3`` -> 3, ``bet7`` -> 7), parsed once per name: every chip and card
input asks, and a table has a few dozen zone names."""

from __future__ import annotations


def parse_seat(zone: str, prefix: str) -> int | None:
    if zone.startswith(prefix) and zone[len(prefix):].isdigit():
        return int(zone[len(prefix):])
    return None


class _ZoneSeats(dict[str, int | None]):
    """Zone name -> seat number for one prefix (``seat3`` -> 3, anything else -> None), parsed once per name:
    every chip and card input asks, and a table has a few dozen zone names."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, zone: str) -> int | None:
        seat = parse_seat(zone, self.prefix)
        if len(self) < 4096:      # zone names come from the decoder's finite set; never grow without bound
            self[zone] = seat
        return seat


SEAT_OF = _ZoneSeats("seat")
BET_OF = _ZoneSeats("bet")


def zone_seat(zone: str, prefix: str = "seat") -> int | None:
    return SEAT_OF[zone] if prefix == "seat" else BET_OF[zone] if prefix == "bet" else parse_seat(zone, prefix)
