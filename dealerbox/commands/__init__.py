"""One module per ``dealerbox`` subcommand: ``add_arguments(parser)`` and ``run(args) -> int``."""
