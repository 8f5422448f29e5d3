"""Preloaded by the forkserver that forks a local Dask cluster's workers, before anything else it imports: from
then on Ctrl-C is ignored there, and in every worker it forks (the forkserver restores, in each child, the
handlers it found after its imports). Ctrl-C is the client's to handle: it stops the workers itself.

The forkserver starts with SIGINT blocked (cluster._start_forkserver blocks it while it spawns the server, and a
child inherits the mask), so a Ctrl-C before this import waits, and the SIG_IGN set here discards it. Imported
anywhere else (a test importing every module, a reader of the package), it does nothing: a process that ignored
SIGINT would hand that on to every command it starts."""
import signal
import sys
from types import FrameType


def _imported_by_the_forkserver() -> bool:
    """Whether this import runs inside multiprocessing.forkserver's main(), where it preloads its modules."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "main" and frame.f_globals.get("__name__") == "multiprocessing.forkserver":
            return True
        frame = frame.f_back
    return False


if _imported_by_the_forkserver():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
