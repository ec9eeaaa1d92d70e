"""Stage 2, seeds and templates: search seed pools with a spec's rules and build template cases."""
