# SPDX-License-Identifier: GPL-2.0
"""The machine's own apt sources, read (lib.sh st_apt_uri).

    python3 -m strunner.apt uri SUITE [ETC]

prints the archive URI of ETC's (/etc/apt's) first source for SUITE,
deb822 .sources first, then one-line .list, or nothing: make check's
chroots are fed from the mirrors the machine uses, and no mirror host
is ever written into the repository.
"""

import glob
import os
import re
import sys

from strunner import read_text


def uri(wanted, etc="/etc/apt"):
    """The URI of ETC's first apt source for suite WANTED, or ""."""
    for path in sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.sources"))):
        for stanza in re.split(r"\n[ \t]*\n", read_text(path)):
            fields = {}
            for line in stanza.splitlines():
                key, sep, value = line.partition(":")
                if sep and not line[:1].isspace():
                    fields[key.strip()] = value.split()
            if wanted in fields.get("Suites", []) and fields.get("URIs"):
                return fields["URIs"][0]
    lists = [os.path.join(etc, "sources.list")]
    lists += sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.list")))
    for path in lists:
        for line in read_text(path).splitlines():
            words = line.split()
            if not words or words[0] != "deb":
                continue
            i = 1
            if words[i:] and words[i].startswith("["):
                while i < len(words) and not words[i].endswith("]"):
                    i += 1
                i += 1
            if len(words) > i + 1 and words[i + 1] == wanted:
                return words[i]
    return ""


def main(argv):
    if len(argv) not in (3, 4) or argv[1] != "uri":
        sys.exit("usage: python3 -m strunner.apt uri SUITE [ETC]")
    print(uri(*argv[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
