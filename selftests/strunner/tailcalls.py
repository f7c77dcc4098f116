# SPDX-License-Identifier: GPL-2.0
"""No tail call through a static call, and every direct-hook trampoline
returning through the return thunk, in a built module (objdump -dr).

    python3 -m strunner.tailcalls KO

A jump to a static call's trampoline (__SCT__*) would leave the caller's
frame before the call returns: each reference to one must be a call.  A
direct hook's trampoline (st_fhook_tramp<N>) may jump only to
__x86_return_thunk.  Prints each offence, then the counts as a "#" line;
exits 1 on an offence, or when no static-call reference was found at all
(objdump's output not understood).
"""

import re
import subprocess
import sys

_FN = re.compile(r"^[0-9a-f]+ <(.*)>:$")
_INSN = re.compile(r"^ *[0-9a-f]+:\t")
_TRAMP = re.compile(r"^st_fhook_tramp[0-9]+$")


def check(lines):
    """(offences, static-call references, trampolines that return
    through the thunk) of objdump -dr's lines."""
    fn, insn = "", ""
    bad, calls, tramps = [], 0, 0
    for line in lines:
        m = _FN.match(line)
        if m:
            fn = m.group(1)
            continue
        if "R_X86_64" not in line:
            if _INSN.match(line):
                # address, bytes, mnemonic; a continuation line of bytes
                # has no mnemonic
                f = line.split("\t")
                if len(f) >= 3:
                    insn = (f[2].split() or [""])[0]
            continue
        target = line.split()[-1]
        if _TRAMP.match(fn):
            if insn.startswith("j") and target.startswith("__x86_return_thunk"):
                tramps += 1
            elif insn.startswith("j"):
                bad.append("trampoline %s: %s ->%s" % (fn, insn, target))
        elif "__SCT__" in line:
            calls += 1
            if insn.startswith("j"):
                bad.append("tail call in %s: %s ->%s" % (fn, insn, target))
    return bad, calls, tramps


def main(argv):
    out = subprocess.run(["objdump", "-dr", argv[0]], check=True,
                         capture_output=True, text=True).stdout
    bad, calls, tramps = check(out.splitlines())
    for line in bad:
        print(line)
    print("# %d static-call references checked; %d direct-hook trampolines "
          "return through the return thunk" % (calls, tramps))
    if not calls:
        print("no static-call reference found: objdump output not understood?")
    return 1 if bad or not calls else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
