"""Planted faults for the mutants the other fast tests let through (issue 36, item 2); run by `make mutation`."""
