# SPDX-License-Identifier: GPL-2.0
"""A module's signature checked as the kernel checks it (mod_verify_sig),
on the host, with openssl (strunner.pkg's checks of DKMS's modules).

A signed module ends with the PKCS#7 signature, struct module_signature
(algo, hash, id_type, signer_len, key_id_len, pad[3], sig_len as be32)
and the marker; the signature covers every byte before it.  verify():
whether KO (decompressed as DKMS compressed it) has such a signature
and it verifies against the DER certificate CERT and nothing else: the
signer is looked up in CERT only (-nointern), CERT is the only trust
anchor, and the RSA signature over the module's bytes must check;
why not, as comments, where it does not.  selftest(): records (lib.sh
st_records) that the same check, which passed on KO,
fails on KO with one byte of its code flipped, and on KO signed by a
twin of CERT (same subject and serial, so modinfo shows CERT's signer
and sig_key, but another key): the check can fail, and does not go by
names.
"""

import os
import struct
import subprocess
import tempfile

from strunner import Error

MARKER = b"~Module signature appended~\n"
# struct module_signature, then the marker
TRAILER = 12 + len(MARKER)
PKEY_ID_PKCS7 = 2
DECOMPRESS = {".xz": ["xz", "-dc"], ".zst": ["zstd", "-qdc"], ".gz": ["gzip", "-dc"]}


def read_module(ko):
    """KO's bytes, decompressed as DKMS compressed it."""
    cmd = DECOMPRESS.get(os.path.splitext(ko)[1])
    if not cmd:
        with open(ko, "rb") as f:
            return f.read()
    p = subprocess.run(cmd + [ko], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       check=False)
    if p.returncode != 0:
        raise Error("%s %s failed" % (" ".join(cmd), ko))
    return p.stdout


def split(blob):
    """A signed module's bytes as (the bytes signed, the PKCS#7
    signature)."""
    if len(blob) <= TRAILER or not blob.endswith(MARKER):
        raise Error("no module signature marker")
    sig = blob[-TRAILER:-len(MARKER)]
    id_type, sig_len = sig[2], struct.unpack(">I", sig[8:12])[0]
    if id_type != PKEY_ID_PKCS7 or not 0 < sig_len < len(blob) - TRAILER:
        raise Error("no PKCS#7 signature (id_type %d, sig_len %d)" % (id_type, sig_len))
    end = len(blob) - TRAILER
    return blob[:end - sig_len], blob[end - sig_len:end]


def append_signature(data, sig):
    """DATA with SIG appended as sign-file appends it."""
    return data + sig + struct.pack(">BBBBB3xI", 0, 0, PKEY_ID_PKCS7, 0, 0,
                                    len(sig)) + MARKER


def _openssl(args, d):
    log = os.path.join(d, "openssl.log")
    with open(log, "w") as f:
        rc = subprocess.run(["openssl"] + args, stdout=f, stderr=subprocess.STDOUT,
                            check=False).returncode
    with open(log) as f:
        return rc, f.read().splitlines()


def verify_blob(blob, cert):
    """Whether BLOB's signature verifies against the DER certificate
    CERT only, and openssl's first lines where it does not."""
    try:
        data, sig = split(blob)
    except Error as e:
        return False, ["#   " + str(e)]
    with tempfile.TemporaryDirectory() as d:
        for name, b in (("data", data), ("sig", sig)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(b)
        pem = os.path.join(d, "cert.pem")
        rc, out = _openssl(["x509", "-inform", "DER", "-in", cert, "-out", pem], d)
        if rc == 0:
            rc, out = _openssl(["cms", "-verify", "-binary", "-inform", "DER",
                                "-in", os.path.join(d, "sig"),
                                "-content", os.path.join(d, "data"),
                                "-certfile", pem, "-nointern", "-CAfile", pem,
                                "-purpose", "any", "-out", "/dev/null"], d)
        return rc == 0, [] if rc == 0 else ["#   openssl: " + x for x in out[:3]]


def verify(ko, cert):
    """verify_blob on the module file KO, which fails if KO is not read."""
    try:
        return verify_blob(read_module(ko), cert)
    except (Error, OSError) as e:
        return False, ["#   " + str(e)]


def twin_signature(data, cert, d):
    """DATA signed as sign-file signs (detached, no certificate, no
    attributes) by a new key under CERT's subject and serial."""
    rc, out = _openssl(["x509", "-inform", "DER", "-in", cert, "-noout",
                        "-subject", "-serial", "-nameopt", "compat"], d)
    fields = dict(x.split("=", 1) for x in out if "=" in x)
    if rc != 0 or "subject" not in fields or "serial" not in fields:
        raise Error("openssl x509 read no subject and serial from %s" % cert)
    key, pem = os.path.join(d, "twin.key"), os.path.join(d, "twin.pem")
    rc, _ = _openssl(["req", "-new", "-x509", "-nodes", "-days", "1",
                      "-subj", fields["subject"], "-set_serial", "0x" + fields["serial"],
                      "-newkey", "rsa:2048", "-keyout", key, "-out", pem], d)
    with open(os.path.join(d, "data"), "wb") as f:
        f.write(data)
    sig = os.path.join(d, "twin.sig")
    if rc == 0:
        rc, _ = _openssl(["cms", "-sign", "-binary", "-noattr", "-nocerts",
                          "-nosmimecap", "-md", "sha256", "-outform", "DER",
                          "-signer", pem, "-inkey", key, "-in", os.path.join(d, "data"),
                          "-out", sig], d)
    if rc != 0 or not os.path.getsize(sig):
        raise Error("openssl could not sign with a twin of %s" % cert)
    with open(sig, "rb") as f:
        return f.read()


def modinfo(path, field):
    """modinfo -F FIELD PATH's output."""
    return subprocess.run(["modinfo", "-F", field, path], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, check=False).stdout


def selftest(ko, cert):
    """Yields the records of the check's two negative controls on KO."""
    try:
        blob = read_module(ko)
        data, _ = split(blob)
    except (Error, OSError):
        yield "R", "fail", "signature check: the module splits into its bytes and its signature", ""
        return
    flipped = bytearray(blob)
    flipped[len(data) // 2] ^= 0x55
    ok, _ = verify_blob(bytes(flipped), cert)
    yield ("R", "fail" if ok else "pass",
           "signature check fails on that module with one byte flipped", "")
    name = ("signature check fails on that module signed by another key under "
            "mok.pub's name and serial (modinfo's signer and sig_key the same)")
    with tempfile.TemporaryDirectory() as d:
        try:
            twin = append_signature(data, twin_signature(data, cert, d))
            paths = {}
            for f_name, b in (("twin.ko", twin), ("plain.ko", blob)):
                paths[f_name] = os.path.join(d, f_name)
                with open(paths[f_name], "wb") as f:
                    f.write(b)
            same = all(modinfo(paths["twin.ko"], x) == modinfo(paths["plain.ko"], x) != ""
                       for x in ("sig_key", "signer"))
            ok, _ = verify_blob(twin, cert)
        except Error as e:
            yield "L", str(e)
            same, ok = False, True
    yield "R", "pass" if same and not ok else "fail", name, ""
