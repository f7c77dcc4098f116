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

.PHONY: all clean check demo lint
