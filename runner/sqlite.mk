# runner/sqlite.mk: SQLite for the packing phases (runner/run/stores/packdb.c).
# Included by the top Makefile.
#
# The source is Debian bookworm's sqlite3 source package, pinned here by
# version and SHA-256 (the .dsc, and the two tarballs it lists); the
# amalgamation is generated from it by image/sqlite.sh (the orig tree,
# Debian's patches, configure, `make sqlite3.c`; needs tclsh) and kept,
# with the downloads, under $(O) (SQLITE_CACHE, SQLITE_GEN): later builds
# fetch and generate nothing.
#
# The device runner (make runner, CROSS_COMPILE=...) links it statically,
# compiled with SQLITE_OPTS (below); the host build, the unit tests and the
# asan/fuzz builds link Debian's libsqlite3-dev (the same 3.40.1) instead.

SQLITE_VERSION       := 3.40.1-2+deb12u2
SQLITE_MIRROR        ?= http://deb.debian.org/debian
SQLITE_POOL          := pool/main/s/sqlite3
SQLITE_DSC           := sqlite3_$(SQLITE_VERSION).dsc
SQLITE_ORIG          := sqlite3_3.40.1.orig.tar.xz
SQLITE_DEBIAN        := sqlite3_$(SQLITE_VERSION).debian.tar.xz
SQLITE_DSC_SHA256    := ee3459ae9d00939741c7708fc1b8ce1bde12d8c3fb1dfa005bbbc8651d884e23
SQLITE_ORIG_SHA256   := aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655
SQLITE_DEBIAN_SHA256 := 0843bc12e4364076477935ce313a6d0796fd899a989ff18ebb6545540e10e4ca

SQLITE_CACHE ?= $(O)/cache/sqlite
SQLITE_GEN   := $(O)/sqlite/$(SQLITE_VERSION)
SQLITE_C     := $(SQLITE_GEN)/sqlite3.c
SQLITE_H     := $(SQLITE_GEN)/sqlite3.h

# The runner's SQLite: what packdb.c needs, nothing more.
#   THREADSAFE=0            one connection per worker process, no threads: no mutexes
#   OMIT_LOAD_EXTENSION     no dlopen (a static binary; nothing to load)
#   DEFAULT_MEMSTATUS=0     no memory statistics (a global counter per malloc)
#   DQS=0                   "x" is an identifier, never a string (SQLite's advice)
#   OMIT_DEPRECATED, OMIT_SHARED_CACHE, OMIT_PROGRESS_CALLBACK, OMIT_JSON
#                           features no phase uses: less code in the image
#   LIKE_DOESNT_MATCH_BLOBS, USE_ALLOCA  SQLite's recommended options
#   HAVE_USLEEP=1           the busy handler sleeps 1..100 ms between tries for
#                           the lock (without it, whole seconds)
# No Tcl interface (the amalgamation has none; --disable-tcl), no
# readline, no shell. Compiled without -g (its debug information would be
# most of the runner's size) and without warnings as errors (not our code).
SQLITE_OPTS := -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DEFAULT_MEMSTATUS=0 \
	-DSQLITE_DQS=0 -DSQLITE_OMIT_DEPRECATED -DSQLITE_OMIT_SHARED_CACHE \
	-DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_OMIT_JSON -DSQLITE_LIKE_DOESNT_MATCH_BLOBS \
	-DSQLITE_USE_ALLOCA -DHAVE_USLEEP=1

SQLITE_DEV_OBJ   := $(O)/obj/$(DEV_NAME)/sqlite/sqlite3.o
SQLITE_HOST_LIBS := -lsqlite3

$(SQLITE_C): image/sqlite.sh runner/sqlite.mk
	@mkdir -p $(@D)
	@echo '  SQLITE  $@ ($(SQLITE_VERSION))'
	$(Q)SQLITE_MIRROR=$(SQLITE_MIRROR) SQLITE_POOL=$(SQLITE_POOL) SQLITE_DSC=$(SQLITE_DSC) \
		SQLITE_ORIG=$(SQLITE_ORIG) SQLITE_DEBIAN=$(SQLITE_DEBIAN) \
		SQLITE_DSC_SHA256=$(SQLITE_DSC_SHA256) SQLITE_ORIG_SHA256=$(SQLITE_ORIG_SHA256) \
		SQLITE_DEBIAN_SHA256=$(SQLITE_DEBIAN_SHA256) CACHE=$(SQLITE_CACHE) OUT=$(@D) \
		sh image/sqlite.sh
$(SQLITE_H): $(SQLITE_C)

$(SQLITE_DEV_OBJ): $(SQLITE_C) | $(DEV_SPECS)
	@mkdir -p $(@D)
	@echo '  CC      $@'
	$(Q)$(DEV_CC) -std=gnu11 -D_GNU_SOURCE $(filter-out -g%,$(CFLAGS)) $(SQLITE_OPTS) -w -c -o $@ $<

# The device build of packdb.c includes the generated sqlite3.h.
$(O)/obj/$(DEV_NAME)/runner/run/stores/packdb.o: $(SQLITE_H)
$(O)/obj/$(DEV_NAME)/runner/run/stores/packdb.o: CSTD += -I$(SQLITE_GEN)

help-build::
	@echo '  sqlite             - fetch (pinned) and generate the SQLite amalgamation: $$(O)/sqlite/VERSION/sqlite3.c'
help-vars::
	@echo '  SQLITE_MIRROR=url  - Debian mirror of the pinned SQLite source package (default http://deb.debian.org/debian)'
	@echo '  SQLITE_CACHE=dir   - where its downloads are kept (default $$(O)/cache/sqlite)'

.PHONY: sqlite
sqlite: $(SQLITE_C)
