"""Runtime support every command shares, knowing nothing of the Spectrum or of cribbage.

jobs: the job runner (a local pool or a Dask cluster) and the progress bar; outdir: output folders claimed
by one run; atomic: files written whole or not at all; paths: the contract of a path a command names;
records: typed records to JSON and back; validate: the readers' checks, one line naming the field;
blocks: a generated block inside a hand-written page; cputime: CPU seconds from the kernel's accounts.
"""
