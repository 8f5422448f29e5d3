"""Runtime support every command shares: the job runner, output folders, atomic files, argument types."""
