"""CI: the committed suite's seed/template cases are exactly what the code at HEAD generates from an empty cache.

Regenerates with ``s2lct generate --no-expand`` (the committed manifest's seed, the specs folder)
into a temporary folder with a fresh, empty cache, then compares every case whose ``expansion`` is
null, line for line, with the committed files. A difference means results cached or produced by
older code leaked into the committed suite, or the suite was not regenerated after a change.

Usage: python .ci/check_seed_cases.py [SUITE_DIR [SPECS_DIR]]   (defaults: generated specs)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from s2lct.suite import load_manifest, seed_case_differences


def main(suite_dir: Path, specs_dir: Path) -> int:
    manifest = load_manifest(suite_dir)
    with tempfile.TemporaryDirectory(prefix="s2lct-regen-") as tmp:
        env = {**os.environ, "S2LCT_CACHE_DIR": str(Path(tmp) / "cache")}  # empty: nothing cached by older code
        fresh = Path(tmp) / "suite"
        cmd = [sys.executable, "-m", "s2lct.cli", "generate", "--no-expand", "--quiet",
               "--specs", str(specs_dir), "--out", str(fresh), "--seed", str(manifest["seed"])]
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"error: regenerating the seed/template cases failed:\n{run.stderr}", file=sys.stderr)
            return 1
        problems = seed_case_differences(suite_dir, fresh)
    if problems:
        print(f"error: {suite_dir}'s seed/template cases differ from a regeneration from an empty cache "
              "(regenerate the suite with the code at HEAD):", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"{suite_dir}: seed/template cases identical to a regeneration from an empty cache")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(Path(args[0] if args else "generated"), Path(args[1] if len(args) > 1 else "specs")))
