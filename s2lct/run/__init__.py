"""Stage 4, running: predict a suite with a model (cached), judge cases, report; the pytest plugin."""
