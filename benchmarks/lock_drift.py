"""Print the installed packages whose version differs from the lock (used by `make test-latest`)."""
from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(lock: str) -> int:
    pinned = dict(re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\]+)", Path(lock).read_text(), re.M))
    pinned = {_norm(k): v for k, v in pinned.items()}
    drift = []
    for dist in metadata.distributions():
        name = _norm(dist.metadata["Name"])
        if name in pinned and pinned[name] != dist.version:
            drift.append(f"  {name}: {pinned[name]} in the lock, {dist.version} newest")
    print("newer than the lock:" if drift else "the newest releases are the locked ones")
    print("\n".join(sorted(drift)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
