"""The shell around the pure core: threads, queues, the app that wires sources, pipeline and sinks."""
