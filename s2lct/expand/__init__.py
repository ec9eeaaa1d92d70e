"""Stage 3, syntax-based expansion: parse seeds, diff against the reference grammar, fill masks, validate."""
