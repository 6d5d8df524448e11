"""One module per CLI verb, each with `add_arguments(parser)` and `run(args) -> int`."""
