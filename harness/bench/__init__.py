"""Benchmarks: the emulator's speed, a game's CPU against the core's, the CPU cores side by side, the job runner."""
