"""Zone numbers and names looked up in tables built once: the decoder path, the choreography and the
scenario compiler turn a zone one way or the other for every tag that moves, and this is the one cache.

>>> zone_name(24), zone_number("bet4"), canonical("seat03")
('bet4', 24, 'seat3')
"""

from __future__ import annotations

from . import protocol as p

NAME_OF: dict[int, str] = {z: p.zone_name(z) for z in range(256) if p.is_valid_zone(z)}
NUMBER_OF: dict[str, int] = {name: z for z, name in NAME_OF.items()}
CANONICAL: dict[str, str] = {name: name for name in NUMBER_OF}  # any accepted spelling -> the protocol's


def zone_name(zone: int) -> str:
    """``protocol.zone_name`` from the table (raises the same ValueError for a zone the protocol lacks)."""
    name = NAME_OF.get(zone)
    return p.zone_name(zone) if name is None else name


def zone_number(name: str) -> int:
    """``protocol.zone_id`` from the table; another accepted spelling (``seat03``) is learnt on first use."""
    zone = NUMBER_OF.get(name)
    if zone is None:
        zone = NUMBER_OF[name] = p.zone_id(name)  # raises ValueError for a name the protocol lacks
    return zone


def canonical(name: str) -> str:
    """The name as the pipeline spells it after the round trip through the zone number."""
    spelled = CANONICAL.get(name)
    if spelled is None:
        spelled = CANONICAL[name] = zone_name(zone_number(name))
    return spelled
