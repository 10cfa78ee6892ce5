"""Checks on a stream of engine inputs that several tests share."""

from dealerbox.engine import inputs as ev


def final_zones(inputs) -> dict[str, str]:
    """Where each tag (by UID) sits after ``inputs``; a tag that left and never arrived anywhere is absent."""
    where: dict[str, str] = {}
    for i in inputs:
        if isinstance(i, ev.ZoneEntered):
            where[i.tag.uid] = i.zone
        elif isinstance(i, ev.ZoneLeft) and where.get(i.tag.uid) == i.zone:
            del where[i.tag.uid]
    return where
