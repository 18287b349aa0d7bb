# The project's commands. `make test` is what CI runs.
.PHONY: deps build test demo bench

deps:
	./scripts/install-deps

build: deps
	swift build

test: deps
	swift test

demo: deps
	swift run --package-path Examples/Demo Demo
