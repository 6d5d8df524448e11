"""Hugo sites read in place: config, naming rules, shortcodes (fixtures written from Hugo's documentation)."""
