"""Runtime support every command shares, knowing nothing of the Spectrum or of cribbage.

jobs: the job runner's one door (`run_jobs`, and the names below re-exported), running jobs here in order;
outcomes: what every runner hands over (a worker's `Setup`, a job's `Outcome`); pool: the local pool of forked
workers; cluster: the same jobs on a Dask cluster (Dask imported only there, on use), and cluster_worker what
runs inside its workers; scheduler: a Dask scheduler's address and TLS files, checked; progress: the progress
bar; ctrl_c_ignored: the first import of a local Dask cluster's forkserver. outdir: output folders claimed by
one run; atomic: files written whole or not at all; paths: the contract of a path a command names; records:
typed records to JSON and back; validate: the readers' checks, one line naming the field; blocks: a generated
block inside a hand-written page; cputime: CPU seconds from the kernel's accounts.
"""
