"""Hand histories: one summary per hand from the table events (summary.py), the PHH export (phh.py), reading
logs fast for many hands (reader.py) and auditing a room's logs (audit.py)."""
