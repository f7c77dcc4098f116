# SPDX-License-Identifier: GPL-2.0
KDIR ?= /lib/modules/$(shell uname -r)/build

all:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf build

check:
	selftests/run.sh

demo:
	selftests/demo.sh

bench-icount:
	selftests/bench-icount.sh

# sched-tune-dkms_<version>_all.deb and sched-tune-bench_<version>_all.deb
# in $(DEB_OUT), built with Debian's tools (debhelper, dh-dkms, dh-python's
# pybuild) from a copy of the tree, since dpkg-buildpackage writes into
# debian/ and next to the source; with Debian's PATH, so that pybuild's
# python3.X is Debian's, not a pyenv's or a virtualenv's.
DEB_OUT ?= build/deb
deb:
	rm -rf $(DEB_OUT)
	mkdir -p $(DEB_OUT)/src
	tar --exclude=./build --exclude=./.git -cf - . | tar -C $(DEB_OUT)/src -xf -
	cd $(DEB_OUT)/src && PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg-buildpackage -b -us -uc
	rm -rf $(DEB_OUT)/src
	@ls $(DEB_OUT)/*.deb

lint:
	selftests/lint.sh

# sched-tune-bench in Debian's 6.12 and newest kernel under qemu (bench/README.md)
bench-vm:
	selftests/bench_vm.sh full

bench-smoke:
	selftests/bench_vm.sh smoke

bench-test:
	/usr/bin/python3 bench/tests/run.py

.PHONY: all clean check demo deb lint bench-vm bench-smoke bench-test bench-icount
