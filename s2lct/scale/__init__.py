"""Scale-out: execution engines for the batch stages (``--engine local|ray``); see docs/scaling.md."""
