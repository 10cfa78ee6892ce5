"""Readers for the shared golden vector files in firmware/vectors/ (the C tests read the same files)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

VECTORS = Path(__file__).resolve().parent.parent / "firmware" / "vectors"


@dataclass(frozen=True)
class FrameVector:
    name: str
    seq: int
    type: int
    body: bytes
    raw: bytes
    wire: bytes


@dataclass(frozen=True)
class StreamVector:
    name: str
    stream: bytes
    frames: list[bytes]
    counters: dict[str, int]


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#")]


def frame_vectors(file: str = "frames.tsv") -> list[FrameVector]:
    """The current protocol's vectors; ``frames-v1.tsv`` for the 1.x layouts an older board sends."""
    return [FrameVector(name, int(seq), int(mtype, 16), bytes.fromhex(body), bytes.fromhex(raw), bytes.fromhex(wire))
            for name, seq, mtype, body, raw, wire in _rows(VECTORS / file)]


def stream_vectors() -> list[StreamVector]:
    out = []
    for name, stream, frames, counters in _rows(VECTORS / "streams.tsv"):
        out.append(StreamVector(
            name, bytes.fromhex(stream),
            [] if frames == "-" else [bytes.fromhex(f) for f in frames.split()],
            {} if counters == "-" else {k: int(v) for k, v in (kv.split("=") for kv in counters.split(","))}))
    return out
