# SPDX-License-Identifier: GPL-2.0
"""strunner.modsig: a module's signature split as sign-file appends it,
and checked with openssl against a key made here: it verifies with its
own certificate, and fails with a byte flipped, with another key, and
with a twin certificate of the same subject and serial."""

import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

from strunner import Error, modsig

DATA = b"\x7fELF" + bytes(range(256)) * 64


def make_cert(d, name, serial="0x1234"):
    """A key and its DER certificate in D, as DKMS's mok.key and
    mok.pub are; returns (key, pem, der)."""
    key, pem, der = (os.path.join(d, name + x) for x in (".key", ".pem", ".der"))
    subprocess.run(["openssl", "req", "-new", "-x509", "-nodes", "-days", "1",
                    "-subj", "/CN=DKMS module signing key", "-set_serial", serial,
                    "-newkey", "rsa:2048", "-keyout", key, "-out", pem],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    subprocess.run(["openssl", "x509", "-in", pem, "-outform", "DER", "-out", der], check=True)
    return key, pem, der


def sign(d, data, key, pem):
    """DATA signed as sign-file signs it, the signature appended."""
    src, sig = os.path.join(d, "data"), os.path.join(d, "sig")
    with open(src, "wb") as f:
        f.write(data)
    subprocess.run(["openssl", "cms", "-sign", "-binary", "-noattr", "-nocerts",
                    "-nosmimecap", "-md", "sha256", "-outform", "DER", "-signer", pem,
                    "-inkey", key, "-in", src, "-out", sig], check=True)
    with open(sig, "rb") as f:
        return modsig.append_signature(data, f.read())


class ModSig(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def test_split(self):
        blob = modsig.append_signature(b"code", b"signature")
        self.assertEqual(modsig.split(blob), (b"code", b"signature"))
        # struct module_signature: id_type 2 at byte 2, sig_len be32 last
        self.assertEqual(blob[-40:-28], b"\0\0\2\0\0\0\0\0\0\0\0\x09")

    def test_split_fails(self):
        good = modsig.append_signature(b"code", b"signature")
        for name, blob in (("no marker", b"code"),
                           ("short", modsig.MARKER),
                           ("not PKCS#7", good[:-38] + b"\1" + good[-37:]),
                           ("too long", good[:-29] + b"\x7f" + good[-28:]),
                           ("empty signature", modsig.append_signature(b"code", b""))):
            with self.subTest(name):
                with self.assertRaises(Error):
                    modsig.split(blob)

    def test_verify(self):
        key, pem, der = make_cert(self.d, "mok")
        blob = sign(self.d, DATA, key, pem)
        self.assertEqual(modsig.verify_blob(blob, der), (True, []))
        ko = os.path.join(self.d, "m.ko.xz")
        with open(ko, "wb") as f:
            subprocess.run(["xz", "-z", "-c"], input=blob, stdout=f, check=True)
        self.assertTrue(modsig.verify(ko, der)[0])
        flipped = bytearray(blob)
        flipped[100] ^= 1
        ok, why = modsig.verify_blob(bytes(flipped), der)
        self.assertFalse(ok)
        self.assertTrue(why and why[0].startswith("#   openssl: "))
        _, _, other = make_cert(self.d, "other", serial="0x99")
        self.assertFalse(modsig.verify_blob(blob, other)[0])
        self.assertEqual(modsig.verify_blob(DATA, der), (False, ["#   no module signature marker"]))
        ok, why = modsig.verify(os.path.join(self.d, "none.ko.zst"), der)
        self.assertFalse(ok)
        self.assertTrue(why[0].startswith("#   zstd -qdc "), why)

    def test_selftest(self):
        key, pem, der = make_cert(self.d, "mok")
        ko = os.path.join(self.d, "m.ko")
        with open(ko, "wb") as f:
            f.write(sign(self.d, DATA, key, pem))
        # modinfo reads no signer from a blob that is no ELF: as it reads
        # the same one from the module and its twin
        with mock.patch.object(modsig, "modinfo", return_value="DKMS module signing key\n"):
            recs = list(modsig.selftest(ko, der))
        self.assertEqual([r[1] for r in recs if r[0] == "R"], ["pass", "pass"], recs)
        # a twin that modinfo cannot tell apart by names is not shown
        recs = list(modsig.selftest(ko, der))
        self.assertEqual([r[1] for r in recs if r[0] == "R"], ["pass", "fail"], recs)
        # a twin is signed under the certificate's subject and serial, and
        # its signature fails against it
        d = os.path.join(self.d, "twin")
        os.mkdir(d)
        twin = modsig.append_signature(DATA, modsig.twin_signature(DATA, der, d))
        self.assertFalse(modsig.verify_blob(twin, der)[0])
        self.assertTrue(modsig.verify_blob(twin, der)[1])
        with open(ko, "wb") as f:
            f.write(DATA)
        self.assertEqual([r[1] for r in modsig.selftest(ko, der) if r[0] == "R"], ["fail"])


if __name__ == "__main__":
    unittest.main()
