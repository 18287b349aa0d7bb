# The project's commands. `make test` is what CI runs.
.PHONY: deps build test crash-test docs demo tool install server vapor-example bench bench-rotation bench-instructions bench-observation bench-grdb bench-server-floor bench-envelope bench-replication compat grdb-suite

deps:
	./scripts/install-deps

build: deps
	swift build

# The library's tests, the tool, the demo, the server example and the Vapor example build in
# one shared folder, so that the library (the root package, and a path dependency of the others)
# is built once for all of them, and the Vapor example reuses the SwiftNIO stack that the server
# example built.
PACKAGES_BUILD = --scratch-path $(CURDIR)/.build-packages
FAULT_CHILD = $(CURDIR)/.build-packages/debug/GRDBCipherFaultChild

test: deps
	swift test $(PACKAGES_BUILD)
	# Every file-system call of every multi-file operation, killed right after
	# it; then the user's next step and independent readers (Tests/CrashPoints).
	python3 Tests/CrashPoints/run --faults crash --child $(FAULT_CHILD)
	# The command-line tool's tests run the built binary on real files.
	touch Tools/grdbcipher/Package.swift
	swift test --package-path Tools/grdbcipher $(PACKAGES_BUILD)
	# The demo is the README's tour, run: it exits 1 when a step misbehaves.
	touch Examples/Demo/Package.swift
	swift run --package-path Examples/Demo $(PACKAGES_BUILD) Demo
	# The Hummingbird server example: router, live-server and process tests (seconds).
	touch Examples/TodoServer/Package.swift
	swift test --package-path Examples/TodoServer $(PACKAGES_BUILD)

# The whole crash-point matrix: each call killed after, or failed with EIO, ENOSPC and
# EMFILE, and 10 races of each pair of envelope operations from two processes. About
# 6 minutes on 2 cores.
crash-test: deps
	swift build --product GRDBCipherFaultChild $(PACKAGES_BUILD)
	python3 Tests/CrashPoints/run --faults crash,eio,enospc,emfile --races 10 --child $(FAULT_CHILD)

# The DocC catalogs, built by the DocsBuild/ package, which carries the DocC plugin; any DocC
# warning fails the build. The library's (Sources/GRDBCipher/GRDBCipher.docc and every public
# symbol) lands in .build-docs/GRDBCipher.doccarchive, the testing kit's
# (Sources/GRDBCipherTesting/GRDBCipherTesting.docc) in .build-docs/GRDBCipherTesting.doccarchive.
# Each build waits for the machine's build lock (/tmp/swift-build.lock).
docs: deps
	touch DocsBuild/Package.swift
	rm -rf .build-docs && mkdir -p .build-docs
	flock /tmp/swift-build.lock swift package --package-path DocsBuild \
		--allow-writing-to-directory $(CURDIR)/.build-docs \
		generate-documentation --target GRDBCipher --warnings-as-errors \
		--output-path $(CURDIR)/.build-docs/GRDBCipher.doccarchive
	flock /tmp/swift-build.lock swift package --package-path DocsBuild \
		--allow-writing-to-directory $(CURDIR)/.build-docs \
		generate-documentation --target GRDBCipherTesting --warnings-as-errors \
		--output-path $(CURDIR)/.build-docs/GRDBCipherTesting.doccarchive

demo: deps
	touch Examples/Demo/Package.swift
	swift run --package-path Examples/Demo Demo

# The example server (Examples/TodoServer) on a fresh encrypted database in a
# temporary folder, with a generated passphrase given through a secret file.
# Prints the URL; Ctrl-C stops it and removes the folder. PORT=... to change the port.
server: deps
	touch Examples/TodoServer/Package.swift
	./Examples/TodoServer/scripts/run-fresh

# The Vapor 4 example (Examples/VaporTodo): its routes, the encrypted file on disk, boots
# refused for an empty passphrase file or a wrong passphrase, and the binary itself. Not part
# of `make test`: its first build takes minutes (Vapor and SwiftNIO); CI runs it after
# `make compat`.
vapor-example: deps
	touch Examples/VaporTodo/Package.swift
	swift test --package-path Examples/VaporTodo $(PACKAGES_BUILD)

# The operators' command-line tool, in release mode: Tools/grdbcipher/.build/release/grdbcipher
tool: deps
	swift build -c release --package-path Tools/grdbcipher

# Installs the release build of the tool as $(PREFIX)/bin/grdbcipher (PREFIX=/usr/local by
# default; DESTDIR=... stages it for a package). It needs SQLCipher's library at run time.
PREFIX ?= /usr/local
install: tool
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 Tools/grdbcipher/.build/release/grdbcipher $(DESTDIR)$(PREFIX)/bin/grdbcipher

# Benchmarks: GRDBCipher against the raw C API (release builds, about 1.5 minutes
# once built).
# Touching the manifest makes SwiftPM plan the build again: it does not see
# source files added to or moved in the root package (a path dependency here).
bench: deps
	touch Benchmarks/Package.swift
	rm -rf Benchmarks/.build-results
	cd Benchmarks && swift package --allow-writing-to-package-directory benchmark \
		--format histogramPercentiles --path .build-results --no-progress
	cd Benchmarks && swift run -c release BenchReport .build-results results/latest.md
	./Benchmarks/scripts/grdb-side-by-side
	./Benchmarks/scripts/observation-side-by-side

# GRDB 7.10 beside GRDBCipher on the benchmark package's workloads (Benchmarks/SideBySide),
# GRDB / raw C from results/latest.md (`make bench` runs it after that file is written).
# About 10 minutes once built.
bench-grdb: deps
	./Benchmarks/scripts/grdb-side-by-side

# The floor of the example server's encryption cost: its load test's statements through the
# C API, encrypted against plaintext (Examples/TodoServer/README.md). About a minute.
bench-server-floor: deps
	touch Benchmarks/Package.swift
	swift run -c release --package-path Benchmarks ServerFloor

# Key envelopes on a 200 MB database: rewraps, a data-key rotation, and a pool open through
# the envelope against a raw-key open plus one scrypt derivation (a minute).
bench-envelope: deps
	touch Benchmarks/Package.swift
	swift run -c release --package-path Benchmarks EnvelopeCost 200

# Observation, GRDB 7.10 and GRDBCipher from the same source on the same SQLCipher
# (Benchmarks/SideBySide): W14 and 64 page subscribers. About 2 minutes once built.
bench-observation: deps
	./Benchmarks/scripts/observation-side-by-side

# Replication's costs: commit throughput with a replicator on against off, a commit's lag
# behind the store, and the restore of a 200 MB database against copying it (a few minutes).
bench-replication: deps
	touch Benchmarks/Package.swift
	swift run -c release --package-path Benchmarks ReplicationCost

# Key rotation in place against copy and swap, on 20 MB and 200 MB pools (a few minutes).
bench-rotation: deps
	touch Benchmarks/Package.swift
	swift run -c release --package-path Benchmarks RotationCost

# Instruction counts of workloads 1 to 4 and 4b (valgrind's callgrind): stable on a busy machine.
bench-instructions: deps
	./Benchmarks/scripts/instruction-counts

# The differential compatibility harness (Compat/): the same programs built against GRDB 7.10
# and against GRDBCipher, transcripts compared, with 4,000 generated requests whose SQL must
# be GRDB's (COMPAT_SEED=N for other cases). Not part of `make test`; CI runs it after
# `make test`. It needs GRDB's package and the system SQLite (libsqlite3-dev). About 2
# minutes from a clean checkout on 2 idle cores, 15 seconds once built.
compat: deps
	./Compat/run

# GRDB 7.10's own test suite (Tests/GRDBTests) against GRDBCipher, with only the import changed,
# in a scratch package (.build-grdb-suite/) that takes the test files from GRDB's git mirror;
# the files that test GRDB internals are left out. Summary in .build-grdb-suite/summary.txt.
# Not part of `make test` or CI. About 5 minutes for a first build on 2 idle cores, then 6 to run.
grdb-suite: deps
	./Compat/grdb-suite/run
