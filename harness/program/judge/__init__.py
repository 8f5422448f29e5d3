"""The comparison: what the program did against the rules engine, each difference named, and its stored record."""
