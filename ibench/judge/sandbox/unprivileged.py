"""Run a command as an unprivileged user, from root: how the tests and benchmarks try the judge
the way a Slurm node runs it (not root, the box built through a user namespace).

The interpreter may live under a folder only root may enter (pyenv under /root). The command then
runs in a private mount namespace where that folder is an empty one holding just the way to the
interpreter; nothing changes on the host."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Sequence

NOBODY = 65534


def _quote(a: str) -> str:
    return "'" + a.replace("'", "'\\''") + "'"


def user_namespaces_for(uid: int = NOBODY) -> str:
    """'' when ``uid`` may create user namespaces here, else why not."""
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("unshare"):
        return "needs root with setpriv and unshare to become an unprivileged user"
    probe = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "unshare", "-Ur", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return f"unprivileged user namespaces are off here: {probe.stderr.strip()}"
    return ""


def unprivileged_command(argv: list[str], home: Path, needs: Sequence[Path] = (), uid: int = NOBODY) -> list[str] | str:
    """``argv`` (whose first word is this interpreter) as ``uid`` with HOME and IBENCH_CACHE in
    ``home`` (which ``uid`` must own), or a string saying why that cannot be done here.
    ``needs``: folders the command reads (the checkout), which must be open to other users."""
    why = user_namespaces_for(uid)
    if why:
        return why
    exe = Path(os.path.realpath(sys.executable))
    closed = [p for p in reversed(exe.parents) if not os.stat(p).st_mode & 0o001]
    script = ""
    if closed:
        if len(closed) > 1:
            return f"the interpreter {exe} sits below several folders only root may enter"
        top = closed[0]
        child = exe.relative_to(top).parts[0]
        real = home / ".real-top"
        real.mkdir(exist_ok=True)
        script = (f"mount --bind {_quote(str(top))} {_quote(str(real))} && "
                  f"mount -t tmpfs -o mode=0755,size=1m ibench {_quote(str(top))} && "
                  f"mkdir {_quote(str(top / child))} && "
                  f"mount --bind {_quote(str(real / child))} {_quote(str(top / child))} && ")
    for folder in needs:
        for p in [*reversed(Path(folder).resolve().parents), Path(folder).resolve()]:
            if not os.stat(p).st_mode & 0o001:
                return f"{p} is closed to other users (the unprivileged judge must read {folder})"
    env = (f"env -i PATH=/usr/local/bin:/usr/bin:/bin HOME={_quote(str(home))} "
           f"IBENCH_CACHE={_quote(str(home / 'cache'))} WANDB_MODE=disabled PYTHONDONTWRITEBYTECODE=1")
    script += (f"exec setpriv --reuid={uid} --regid={uid} --clear-groups --inh-caps=-all {env} "
               + " ".join(_quote(a) for a in [str(exe), *argv[1:]]))
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script]
