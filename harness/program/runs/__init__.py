"""Runs of many games: regress, sweeps, fairness, strength, coverage, the readings and the pack."""
