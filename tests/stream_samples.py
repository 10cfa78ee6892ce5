"""A short table session as log records (Rx chunks split mid-frame, dealer inputs, a link drop)."""

from dealerbox.engine.inputs import DealerInput
from dealerbox.record.logformat import Input, Link, Record, Rx
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p


def uid_of(registry, deck: str, card: str) -> bytes:
    d = next(d for d in registry.decks if d.deck_id == deck)
    return bytes.fromhex(next(u for u, c in d.cards.items() if c == card))


def table_stream() -> list[Record]:
    reg = demo_registry()
    enc = p.Encoder()
    deck = reg.decks[0]
    cards = list(deck.cards)[:6]
    out: list[Record] = [Rx(0.0, enc.encode(p.Hello(1, 0, (1, 0, 0), tuple(range(0, 14)) + (21, 22, 23, 31))))]
    t = 1.0
    out.append(Input(DealerInput(t=t, action="sit", seat=2, amount=200)))
    out.append(Input(DealerInput(t=t, action="sit", seat=3, amount=200)))
    for uid in cards:
        out.append(Rx(t, enc.encode(p.TagArrived(p.ZONE_SHOE, bytes.fromhex(uid)))))
    pending = b""
    for i, uid in enumerate(cards[:4]):
        t += 0.7
        seat = 2 + i % 2
        b = bytes.fromhex(uid)
        data = pending + enc.encode(p.CardFace(p.ZONE_SHOE, False, b)) + enc.encode(p.TagLeft(p.ZONE_SHOE, b)) \
            + enc.encode(p.TagArrived(seat, b))
        # Serial reads split frames anywhere: keep a few bytes for the next chunk.
        out.append(Rx(t, data[:-3]))
        pending = data[-3:]
    out.append(Rx(t + 0.1, pending + enc.encode(p.Heartbeat(5000, 10, 0))))
    out.append(Link(t + 0.2, False, "/dev/dealerbox-reader", "unplugged"))
    out.append(Link(t + 1.2, True, "/dev/dealerbox-reader", ""))
    enc.seq += 4  # frames the board sent while unplugged
    out.append(Rx(t + 1.3, enc.encode(p.Heartbeat(6000, 10, 0))))
    out.append(Input(DealerInput(t=t + 2, action="check", seat=2)))
    return out
