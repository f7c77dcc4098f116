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

lint:
	selftests/lint.sh

# sched-tune-bench in Debian's 6.12 and newest kernel under qemu (bench/README.md)
bench-vm:
	bench/vm.sh full

bench-smoke:
	bench/vm.sh smoke

bench-test:
	python3 bench/tests/run.py

.PHONY: all clean check demo lint bench-vm bench-smoke bench-test
