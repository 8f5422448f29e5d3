"""The typed record of a game as it happened: its events, in order (the transcript)."""
