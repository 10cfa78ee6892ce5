"""``dealerbox enrol``: map tag UIDs to cards (a deck scanned in a known order) or register chips.

    dealerbox enrol deck --deck-id D7 --back red --out decks/D7.json --from var/logs/scan.jsonl
    dealerbox enrol chips --house CASINO --value 25 --out chips/casino.json --append --port /dev/ttyACM0
    dealerbox enrol chips --house CASINO --marker button --out chips/casino.json --append --from scan.jsonl

The deck is scanned over the shoe antenna in the documented order (docs/enrolment.md): 2c..Ac, 2d..Ad,
2h..Ah, 2s..As, then the jokers X1, X2 if the deck has them. Every tag that arrives is read from a recorded
log or scenario (``--from``) or a live reader board (``--port``), through the same decoder as replay.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..record.logformat import Rx
from ..sources.serial_port import HEARTBEAT_PERIOD_S, SerialSource
from ..tags import (CARD_UID_LENGTHS, JOKERS, MARKER_KINDS, STANDARD_DECK, ChipSet, Deck, EnrolmentError,
                   load_enrolment, save_enrolment)
from ..wire import protocol as p
from ..wire.decoder import FrameDecoder

SCAN_ORDER = STANDARD_DECK + JOKERS  # the order the dealer scans a deck in
SILENCE_PERIODS = 10       # heartbeat periods without a byte after the hello: no board answers on the port


class EnrolError(ValueError):
    """A scan that cannot be turned into a file; the message says what was wrong and what to do."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="deck|chips", required=True)
    deck = sub.add_parser("deck", help="enrol a deck scanned in the documented order over the shoe")
    deck.add_argument("--deck-id", required=True, help="the deck's id, e.g. D7")
    deck.add_argument("--back", required=True, help="the back design, e.g. red")
    _common(deck)
    chips = sub.add_parser("chips", help="register every tag seen as a chip of one value (or a marker puck)")
    chips.add_argument("--house", required=True, help="the establishment the chips belong to")
    kind = chips.add_mutually_exclusive_group(required=True)
    kind.add_argument("--value", type=int, help="the value of every chip scanned")
    kind.add_argument("--marker", choices=MARKER_KINDS, help="register a marker puck instead of chips")
    chips.add_argument("--append", action="store_true", help="add to an existing chip file of the same house")
    _common(chips)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, metavar="FILE", help="the enrolment file to write (JSON)")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--from", dest="log", metavar="LOG", help="a recorded log or scenario holding the scan")
    src.add_argument("--port", metavar="PORT", help="a live reader board (serial port)")
    parser.add_argument("--idle", type=float, default=20.0, metavar="S",
                        help="live: stop once no tag arrived for S seconds (default 20)")
    parser.add_argument("--silence", type=float, default=SILENCE_PERIODS, metavar="N",
                        help=f"live: give up (exit 2) when the board has not said a word in N heartbeat periods "
                             f"of {HEARTBEAT_PERIOD_S:g} s after it was asked to say hello (default {SILENCE_PERIODS})")


# --- reading the scan -------------------------------------------------------------------------------

# Zones the scan read incompletely (ZONE_INVENTORY uncertain or unreadable), zone -> (state, tags proven):
# the chips of a stack past what its reader proves were not all registered, and the dealer must hear it.
incomplete_reads: dict[int, tuple[int, int]] = {}


def _sightings(messages: Iterator[p.Message]) -> Iterator[tuple[int, str]]:
    """(zone, uid) of every tag read: each TAG_ARRIVED, and a shoe TAG_LEFT of a card not seen arriving (a board
    that reads the shoe at its mouth reports a card only as it passes out: firmware/PROTOCOL.md)."""
    arrived: set[str] = set()
    for m in messages:
        if isinstance(m, p.ZoneInventory):
            if m.state == p.ZONE_READ_COMPLETE:
                incomplete_reads.pop(m.zone, None)
            else:
                incomplete_reads[m.zone] = (m.state, m.tags)
        elif isinstance(m, p.TagArrived):
            arrived.add(m.uid.hex())
            yield m.zone, m.uid.hex()
        elif isinstance(m, p.TagLeft) and m.zone == p.ZONE_SHOE and m.uid.hex() not in arrived:
            arrived.add(m.uid.hex())
            yield m.zone, m.uid.hex()


def arrivals_from_log(path: str) -> Iterator[tuple[int, str]]:
    """(zone, uid) of every tag read in a recorded log or scenario, in order (see _sightings)."""
    from ..sources import LogError, open_log
    source = open_log(path)
    if source.sealed:   # its tag reads are sealed to the floor (record/sealing.py): the table cannot read them
        raise LogError(f"{path}: the log is sealed to the floor's key, so its tag reads cannot be read here; enrol "
                       f"from the live reader (--port), or record the scan with a config without "
                       f"record.floor_public_key")
    decoder = FrameDecoder()
    yield from _sightings(frame.message for record in source if isinstance(record, Rx)
                          for frame in decoder.feed(record.data))


def arrivals_from_port(port: str, baud: int, idle: float, enough: int | None, zone: int | None = None, *,
                       silence: float = SILENCE_PERIODS * HEARTBEAT_PERIOD_S,
                       clock: Callable[[], float] = time.monotonic) -> Iterator[tuple[int, str]]:
    """(zone, uid) of every TAG_ARRIVED from a live board, until ``enough`` tags arrived in ``zone`` (any
    zone when None) or none did for ``idle`` seconds after the first: the dealer may take a while to start.

    The board is asked to say hello (as ``record`` does); a port on which nothing at all answers for
    ``silence`` seconds has no board on it, and the scan stops there with an EnrolError naming the port. A board
    that has spoken is waited for as long as the dealer takes (Ctrl-C ends the wait)."""
    source = SerialSource(port, baud, clock=clock, silence_s=silence)
    decoder = FrameDecoder()
    source.start()
    source.send(p.CmdHello())   # a board on the port answers at once; its heartbeats follow every period
    seen, last = 0, None
    print(f"scanning on {port}: present the tags now (stops {idle:.0f} s after the last one)", file=sys.stderr)

    def messages() -> Iterator[p.Message]:
        while (last is None or clock() - last < idle) and (enough is None or seen < enough):
            try:
                record = source.entries.get(timeout=0.1)
            except queue.Empty:
                silent = source.silent_s   # None once the board has said anything
                if silent is not None and silent >= silence:
                    raise EnrolError(f"{port}: no reader board answered in {silence:g} s (asked it to say hello); "
                                     f"check that the board is powered and its USB cable is in, and that --port "
                                     f"names it (e.g. /dev/dealerbox-reader); nothing written") from None
                continue
            if isinstance(record, Rx):
                yield from (frame.message for frame in decoder.feed(record.data))

    try:
        for tag_zone, uid in _sightings(messages()):
            if zone is None or tag_zone == zone:  # a stray tag elsewhere is not a card
                seen += 1
                last = clock()
            yield tag_zone, uid
            if enough is not None and seen >= enough:
                return
    finally:
        source.stop()


def _announced(arrivals: Iterator[tuple[int, str]], deck: bool) -> Iterator[tuple[int, str]]:
    """Name every tag as it is read, so the dealer catches a slip at that card rather than at the end."""
    seen: dict[str, str] = {}
    for zone, uid in arrivals:
        if deck and zone != p.ZONE_SHOE:
            print(f"       {uid} seen outside the shoe (zone {zone}): ignored", file=sys.stderr)
        elif uid in seen:
            print(f"       {uid} again (already {seen[uid]}): this scan will be refused; re-scan from 2c"
                  if deck else f"       {uid} again: counted once", file=sys.stderr)
        else:
            n = len(seen) + 1
            seen[uid] = SCAN_ORDER[n - 1] if deck and n <= len(SCAN_ORDER) else "chip" if not deck else "extra"
            print(f"{n:3d}/{len(SCAN_ORDER)} {seen[uid]} {uid}" if deck else f"{n:4d} {uid}", file=sys.stderr)
        yield zone, uid


# --- turning a scan into files ----------------------------------------------------------------------

def deck_from_scan(uids: list[str], deck_id: str, back: str) -> Deck:
    """Map UIDs scanned over the shoe, in the documented order, to cards; refuse anything doubtful."""
    seen: dict[str, int] = {}
    for i, uid in enumerate(uids):
        if len(uid) // 2 not in CARD_UID_LENGTHS:
            raise EnrolError(f"tag {uid} at position {i + 1} is a {len(uid) // 2}-byte UID, not a card's ISO 14443A "
                             f"tag (4, 7 or 10 bytes): an ICODE chip was over the shoe. Take it away and re-scan "
                             f"the deck from 2c.")
        if uid in seen:
            raise EnrolError(f"tag {uid} was scanned twice (as {SCAN_ORDER[seen[uid]]} and again at "
                             f"position {i + 1}); the cards after it would be misnamed. Re-scan the deck "
                             f"from 2c, presenting each card once.")
        seen[uid] = i
    n = len(uids)
    if n not in (52, 54):
        if n < 52:
            hint = (f"{52 - n} card(s) missing: the last tag read became {SCAN_ORDER[n - 1] if n else 'nothing'}, "
                    f"so the first card after a gap would be misnamed. Find the missing card(s), put the deck in "
                    f"order and re-scan")
        else:
            hint = f"{n - 52} tag(s) too many for a deck (52, or 54 with two jokers); re-scan one deck only"
        raise EnrolError(f"scanned {n} tags over the shoe, expected 52 (or 54 with jokers): {hint}")
    return Deck(deck_id, back, {uid: SCAN_ORDER[i] for i, uid in enumerate(uids)})


def chips_from_scan(uids: list[str], house: str, value: int | None, marker: str | None,
                    existing: ChipSet | None) -> tuple[ChipSet, int]:
    chips = dict(existing.chips) if existing else {}
    markers = dict(existing.markers) if existing else {}
    added = 0
    for uid in dict.fromkeys(uids):  # a chip seen twice is still one chip
        if marker:
            if uid in chips:
                raise EnrolError(f"tag {uid} is already a chip of {chips[uid]}; it cannot also be a {marker} puck")
            added += uid not in markers
            markers[uid] = marker
        else:
            if uid in markers:
                raise EnrolError(f"tag {uid} is already the {markers[uid]} puck; it cannot also be a chip")
            if value is None:   # the parser asks for --value or --marker; say so rather than store None
                raise EnrolError("--value: give the chips' value (or --marker for pucks)")
            if uid in chips and chips[uid] != value:
                raise EnrolError(f"tag {uid} is already registered as a chip of {chips[uid]}, not {value}; "
                                 f"keep the denominations apart when scanning")
            added += uid not in chips
            chips[uid] = value
    return ChipSet(house, chips, markers), added


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except (EnrolError, EnrolmentError) as e:
        print(f"dealerbox enrol: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a missing file, or the board's port (SerialSourceError says which and what to do)
        print(f"dealerbox enrol: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dealerbox enrol: stopped; nothing written", file=sys.stderr)
        return 130
    except ValueError as e:  # a log that cannot be read at all (LogError, ScenarioError)
        print(f"dealerbox enrol: {e}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if args.what == "chips" and args.value is not None and args.value <= 0:
        raise EnrolError("--value must be a positive whole number")
    existing: ChipSet | None = None
    if args.what == "chips" and args.append and out.exists():
        loaded = load_enrolment(out)
        if not isinstance(loaded, ChipSet):
            raise EnrolError(f"{out}: is a deck file; --append adds chips to a chip file")
        if loaded.house != args.house:
            raise EnrolError(f"{out}: holds chips of house {loaded.house!r}, not {args.house!r}")
        existing = loaded
    elif out.exists():
        raise EnrolError(f"{out}: already exists; choose another --out (or --append for chips)")
    try:   # before the scan: a scan at the table is not to be lost to a missing folder
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise EnrolError(f"--out {out}: cannot create the folder {out.parent} ({e.strerror or e}); choose "
                         f"another --out") from None
    enough = 54 if args.what == "deck" else None
    incomplete_reads.clear()
    if args.log:
        arrivals = list(arrivals_from_log(args.log))
    else:
        if args.silence <= 0:
            raise EnrolError("--silence must be a positive number of heartbeat periods (e.g. 10)")
        live = arrivals_from_port(args.port, args.cfg.reader.baud, args.idle, enough,
                                  p.ZONE_SHOE if args.what == "deck" else None,
                                  silence=args.silence * HEARTBEAT_PERIOD_S)
        arrivals = list(_announced(live, args.what == "deck"))
    if args.what == "deck":
        uids = [uid for zone, uid in arrivals if zone == p.ZONE_SHOE]
        others = len(arrivals) - len(uids)
        deck = deck_from_scan(uids, args.deck_id, args.back)
        save_enrolment(deck, out)
        note = f" ({others} tag(s) seen outside the shoe were ignored)" if others else ""
        print(f"deck {args.deck_id} ({args.back}): {len(deck.cards)} cards -> {out}{note}")
        return 0
    uids = [uid for _, uid in arrivals]
    if not uids:
        raise EnrolError("no tag was seen; nothing to register")
    for zone, (state, tags) in sorted(incomplete_reads.items()):
        how = f"uncertain (at least {tags} chips read)" if state == p.ZONE_READ_UNCERTAIN else "unreadable"
        print(f"warning: {p.zone_name(zone)} read {how} when the scan ended: that stack may hold chips that were "
              "not registered; scan it again in smaller stacks (--append)", file=sys.stderr)
    chip_set, added = chips_from_scan(uids, args.house, args.value, args.marker, existing)
    save_enrolment(chip_set, out)
    what = f"{args.marker} puck(s)" if args.marker else f"chips of {args.value}"
    print(f"house {args.house}: {added} new {what}; file holds {len(chip_set.chips)} chips and "
          f"{len(chip_set.markers)} marker(s) -> {out}")
    return 0
