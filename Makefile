# ASGST: OpenJDK 25.0.3 with the Asynchronous Stack Trace API.
#
#   make images            the JDK image (configures first when needed)
#   make hotspot           libjvm only, fastest while iterating on the VM
#   make test              all ASGST jtreg tests and gtests (the fast tier), then the
#                          sample profiler's check (make/asgst/check-demo.sh) and the
#                          review branch's (make/asgst/check-review-branch.sh)
#   make test TEST=...     one test, e.g. TEST=test/hotspot/jtreg/serviceability/asgst/Foo.java
#   make test-stress       the long tier: fuzzing for DURATION seconds per run, and the
#                          stress matrix with DURATION seconds per cell (default 10),
#                          each cell's report in build/CONF/test-results/asgst-stress;
#                          WORKLOADS="h2 rhino" runs only those workloads' matrices;
#                          RENAISSANCE_JAR=path adds the Renaissance suite
#   make demo              build the sample profiler and profile a demo workload in each mode
#   make bench             the benchmarks: walk cost at depths 8, 64, 512, 2048 from signal
#                          contexts and from a native method, enqueue and queue processing
#                          cost, where the walks spend their time (perf), whole-program
#                          overhead, and overhead at equal sample rates on the real programs
#                          and on the stream and fork-join kernels with the goals of
#                          doc/performance.md
#   make results           sums the results that the oracle and the stress tests wrote
#                          (make/asgst/sum-results.sh; RESULTS=dirs or files to read)
#   make jdk-without-asgst the comparison JDK: the same tree with ASGST compiled out
#                          (--disable-jvm-feature-asgst); only libjvm is rebuilt
#   make ports             HotSpot for every CPU and VM variant that OpenJDK's CI builds
#                          (aarch64 arm ppc64le s390x riscv64 cross-compiled, x86_64's
#                          zero and minimal), one line per target; PORTS="aarch64 arm"
#                          builds only those (make/asgst/build-ports.sh)
#   make test-aarch64      the ASGST gtests and jtreg tests on an aarch64 image, cross-built
#                          and run under qemu-user (make/asgst/test-aarch64.sh); TEST=...
#                          runs those jtreg tests only
#   make test-upstream PASS=P  the upstream tests of make/asgst/upstream-tests.txt in one
#                          pass: without (the JDK without ASGST), unused, or sampled by the
#                          sample profiler in mode cpu, queue, wall or marks
#                          (make/asgst/run-upstream-tests.sh); UPSTREAM_TESTS=... runs
#                          those selections instead
#   make compare-upstream  the passes that have run, side by side
#   make branch BRANCH_DIR=DIR  the change as a git branch on the upstream tag, for
#                          reviewers, with its patch series and cover letter
#   make test-branch       that branch built and tested with OpenJDK's own configure,
#                          make images and make test, then its HotSpot cross-built for
#                          aarch64 (BRANCH_PORTS="..." other targets, empty for none);
#                          EVERY_COMMIT=1 builds each commit
#   make rehearse          a fresh machine: a fresh clone with an empty cache root runs
#                          ./configure, make images, make test and make ports, each step
#                          timed; REHEARSAL_PORTS=TARGETS|none
#   make <target>          any other target of OpenJDK's make, in the workspace
#
# Everything runs inside the build environment chosen by ./configure.

SHELL := /bin/bash
CONFIG := .asgst-config
ASGST_DIR := make/asgst

# A checkout that has not been configured is configured with the defaults before
# make reads anything else; a configure that fails stops make after its error.
# The rehearsal configures a clone of its own.
ifneq ($(MAKECMDGOALS),rehearse)
  ifeq ($(wildcard $(CONFIG)),)
    ifneq ($(shell ./configure >&2 && echo configured),configured)
      $(error ./configure failed: its "asgst: error" line above says why)
    endif
  endif
  include $(CONFIG)
endif

JDK_DIR = $(ASGST_WORKSPACE)/jdk
IN_ENV := $(ASGST_DIR)/in-env
UPSTREAM_MAKE = $(IN_ENV) $(MAKE) -C $(JDK_DIR) CONF=$(ASGST_CONF)

# The ASGST fast tier: the jtreg group and every gtest whose suite starts with asgst.
ASGST_TESTS := hotspot_asgst gtest:asgst
TEST ?= $(ASGST_TESTS)
# The fast tier also checks the source fetching, the sample profiler and the
# review branch (its content, its HotSpot and gtests); their counts join the
# tests'.
ifeq ($(TEST),$(ASGST_TESTS))
  TEST_CHECKS := $(ASGST_DIR)/check-source-urls.sh $(ASGST_DIR)/check-sum-results.sh $(ASGST_DIR)/check-demo.sh \
    $(ASGST_DIR)/check-review-branch.sh
endif

.PHONY: configure prepare images hotspot test test-stress demo bench test-image clean-workspace \
  rehearse results jdk-without-asgst ports test-aarch64 branch test-branch test-upstream compare-upstream

Makefile: ;

prepare: $(CONFIG)
	@$(ASGST_DIR)/prepare.sh

images hotspot test-image: prepare
	$(UPSTREAM_MAKE) $@

test: prepare
	@ASGST_CHECKS="$(TEST_CHECKS)" $(ASGST_DIR)/run-tests.sh "$(TEST)"

# The long tier: the fuzzing tests run for DURATION seconds each instead of a
# few, and the stress tests run their whole matrix (collectors x compilation
# modes x platform/virtual threads) with DURATION seconds per cell.
DURATION ?= 10
RENAISSANCE_JAR ?=
STRESS_TEST := test/hotspot/jtreg/serviceability/asgst/stress/AsgstStress.java
# WORKLOADS narrows the long tier to the stress matrices of some workloads,
# without fuzzing, so that a slow (fastdebug) build can take it in parts.
WORKLOADS ?=
ifeq ($(WORKLOADS),)
  STRESS_TESTS := test/hotspot/jtreg/serviceability/asgst/fuzz $(STRESS_TEST)
else
  HASH := \#
  STRESS_TESTS := $(foreach w,$(WORKLOADS),$(STRESS_TEST)$(HASH)$(w))
endif
# Every cell's whole report (jtreg's .jtr keeps one line per passed cell).
STRESS_REPORTS = $(JDK_DIR)/build/$(ASGST_CONF)/test-results/asgst-stress
STRESS_OPTIONS = -Dasgst.fuzz.seconds=$(DURATION) -Dasgst.stress.seconds=$(DURATION) \
  -Dasgst.stress.reports=$(STRESS_REPORTS)
ifneq ($(RENAISSANCE_JAR),)
  STRESS_TESTS += test/hotspot/jtreg/serviceability/asgst/stress/AsgstStressRenaissance.java
  STRESS_OPTIONS += -Dasgst.stress.renaissance=$(abspath $(RENAISSANCE_JAR))
endif

PORTS ?=
ports: $(CONFIG)
	@$(ASGST_DIR)/build-ports.sh $(PORTS)

test-aarch64: prepare
	@AARCH64_TESTS="$(filter-out $(ASGST_TESTS),$(TEST))" $(ASGST_DIR)/test-aarch64.sh

test-stress: prepare
	@$(if $(WORKLOADS),rm -f $(foreach w,$(WORKLOADS),$(STRESS_REPORTS)/$(w)-*.txt),rm -rf $(STRESS_REPORTS))
	@ASGST_JTREG="JAVA_OPTIONS=$(STRESS_OPTIONS)" \
	  ASGST_ENV_BIND="$(ASGST_ENV_BIND) $(if $(RENAISSANCE_JAR),$(dir $(abspath $(RENAISSANCE_JAR))))" \
	  $(ASGST_DIR)/run-tests.sh "$(STRESS_TESTS)"; status=$$?; \
	  echo "asgst: every stress cell's report: $(STRESS_REPORTS)"; exit $$status

RESULTS ?=
results: $(CONFIG)
	@$(ASGST_DIR)/sum-results.sh $(RESULTS)

demo: images
	@DEMO_SECONDS="$(DEMO_SECONDS)" $(ASGST_DIR)/run-demo.sh

jdk-without-asgst: images
	@$(ASGST_DIR)/build-without-asgst.sh

PASS ?=
UPSTREAM_TESTS ?=
test-upstream: prepare
	@test -n "$(PASS)" || { echo "usage: make test-upstream PASS=without|unused|cpu|queue|wall|marks"; exit 2; }
	@UPSTREAM_TESTS="$(UPSTREAM_TESTS)" $(ASGST_DIR)/run-upstream-tests.sh $(PASS)

compare-upstream: $(CONFIG)
	@$(ASGST_DIR)/compare-upstream-passes.sh

# Benchmarks print figures; they are not timed tests.
bench: demo
	@bench/run-signal-walk-benchmark.sh 8 64 512 2048
	@bench/run-walk-profile.sh compiled 8
	@bench/run-walk-benchmark.sh 8 64 512 2048
	@bench/run-overhead-benchmark.sh
	@bench/run-rate-overhead-benchmark.sh
	@DURATION=4s WARM_UP=2 WORKLOADS="streams parallel-streams forkjoin tree" \
	  bench/run-rate-overhead-benchmark.sh

# The change as a git branch on the upstream tag, for reviewers (doc/building.md).
BRANCH_DIR ?=
BRANCH_PATCHES ?=
branch: $(CONFIG)
	@test -n "$(BRANCH_DIR)" || { echo "usage: make branch BRANCH_DIR=DIR [BRANCH_PATCHES=DIR]"; exit 2; }
	@$(ASGST_DIR)/make-branch.sh "$(BRANCH_DIR)" $(BRANCH_PATCHES)

# The branch built and tested whole as a reviewer would; EVERY_COMMIT=1 also
# builds libjvm at every commit of the series. BRANCH_PORTS, when given,
# reaches the script through the environment (unset: aarch64).
EVERY_COMMIT ?=
test-branch: prepare
	@EVERY_COMMIT="$(EVERY_COMMIT)" $(ASGST_DIR)/test-branch.sh

# A fresh machine: a fresh clone with a new, empty cache root runs ./configure,
# make images, make test and make ports; prints each step's time (doc/building.md).
rehearse:
	@REHEARSAL_DIR="$(REHEARSAL_DIR)" REHEARSAL_KEEP="$(REHEARSAL_KEEP)" REHEARSAL_PORTS="$(REHEARSAL_PORTS)" $(ASGST_DIR)/rehearse-fresh-machine.sh

# Any other target goes to OpenJDK's make in the workspace.
.DEFAULT:
	@$(ASGST_DIR)/prepare.sh
	$(UPSTREAM_MAKE) $@
