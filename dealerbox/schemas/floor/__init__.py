"""JSON Schemas of the floor topics (docs/asyncapi.yaml points here): the one definition of every payload."""
