# SPDX-License-Identifier: GPL-2.0
# Makefile: perfbisect's front door for people; every target calls
# bisect/perfbisect or the test runner.
# Usage: make demo | make check | make deps | make lint | make help

PERFBISECT := $(CURDIR)/bisect/perfbisect

.PHONY: help deps demo check lint kernel lab bisect validate reproduce clean

help:
	@echo "make demo    bisect the lab (Linux 6.1 in QEMU) to its culprit and validate its two fixes"
	@echo "make check   run the whole test suite (installs missing packages when root)"
	@echo "make deps    install the Debian packages perfbisect needs (as root)"
	@echo "make lint    shellcheck and checkpatch over the project"
	@echo "make lab     generate the built-in lab (a kernel history with one culprit)"
	@echo "make bisect [TREE=repo GOOD=rev BAD=rev] [CONFIG=tinyconfig|defconfig|file] [THRESHOLD=jobs/min] [MODE=auto|det|wall]"
	@echo "            [RUN='cmd args' [METRIC=regex] [LOWER=1]] [WORKERS=n]"
	@echo "             find the commit that made the kernel slower (default: the lab)"
	@echo "make validate [TREE=repo BASE=rev ON=rev] [CONFIG=...] PATCH=\"a.patch b.patch\""
	@echo "             measure fix patches against the baseline (default: the lab's fixes)"
	@echo "make reproduce [TREE=repo GOOD=rev BAD=rev] [CONFIG=...] [MODE=auto|det|wall]"
	@echo "             measure GOOD and BAD alike: is BAD slower? (default: the lab)"
	@echo "more: bisect/perfbisect help"

deps:
	@$(CURDIR)/bisect/deps.sh

demo: deps
	@$(PERFBISECT) demo

kernel: deps
	@$(PERFBISECT) kernel

# The test suite also needs openssh-server (tests/t58 starts its own sshd).
check:
	@$(CURDIR)/bisect/deps.sh --test
	@$(CURDIR)/tests/run

lint: deps
	@$(CURDIR)/tests/run tests/t05-lint.sh

lab: deps
	@$(PERFBISECT) lab

bisect: deps
	@$(PERFBISECT) bisect $(if $(TREE),-t "$(TREE)") $(if $(GOOD),-g "$(GOOD)") \
		$(if $(BAD),-b "$(BAD)") $(if $(THRESHOLD),-x "$(THRESHOLD)") $(if $(MODE),-d "$(MODE)") \
		$(if $(CONFIG),-K "$(CONFIG)") $(if $(WORKERS),-P "$(WORKERS)") $(RUNOPTS)

# Your benchmark: RUN='cmd args', METRIC=regex, LOWER=1 (--lower-is-better).
RUNOPTS = $(if $(RUN),-A "$(RUN)") $(if $(METRIC),-Y "$(METRIC)") $(if $(LOWER),-D lower)

PATCH ?= $(wildcard $(CURDIR)/patches/fixes/*.patch)
validate: deps
	@$(PERFBISECT) validate $(if $(TREE),-t "$(TREE)") $(if $(BASE),-B "$(BASE)") \
		$(if $(ON),-O "$(ON)") $(if $(CONFIG),-K "$(CONFIG)") $(RUNOPTS) $(PATCH)

reproduce: deps
	@$(PERFBISECT) reproduce $(if $(TREE),-t "$(TREE)") $(if $(MODE),-d "$(MODE)") $(if $(CONFIG),-K "$(CONFIG)") $(RUNOPTS) \
		$(if $(GOOD),"$(GOOD)") $(if $(BAD),"$(BAD)")

clean:
	rm -rf bisect/tools/build reproducer/build
