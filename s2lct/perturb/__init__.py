"""Text perturbations for INV and DIR tests (issue 25): see :mod:`.base` and :mod:`.registry`."""
