"""The program side: «КРИБЕДЖ» as the Spectrum runs it — its model, the records of a run, the
driver and observer, the comparison, and the runs that play many games."""
