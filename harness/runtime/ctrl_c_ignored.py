"""Imported by the forkserver that forks a local Dask cluster's workers, before anything else it imports: from
then on Ctrl-C is ignored there, and in every worker it forks (the forkserver restores, in each child, the
handlers it found after its imports). Ctrl-C is the client's to handle: it stops the workers itself.

The forkserver starts with SIGINT blocked (jobs._start_forkserver blocks it while it spawns the server, and a
child inherits the mask), so a Ctrl-C before this import waits, and the SIG_IGN set here discards it."""
import signal
import threading

if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
