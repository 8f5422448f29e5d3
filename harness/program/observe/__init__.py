"""The program at work: the driver answers its waits, the observer and picture read what it shows."""
