# ACE make targets. `make demo` runs the main job; `make test` runs the tests
# (installing what they need first). See README.md.
SHELL := /bin/bash
GO ?= go
DECKS ?= testdata/decks/*.pptx
RECIPE ?= testdata/recipes/rebrand.yaml
OUT ?= out

.PHONY: setup build demo test test-short bench lint fuzz docs proto

setup:
	bash scripts/setup

build:
	$(GO) build -o bin/ace ./cmd/ace

demo: setup build
	./bin/ace batch --recipe $(RECIPE) $(DECKS) -o $(OUT)

test: setup
	bash scripts/test

test-short:
	$(GO) test -short ./...

bench: setup
	bash scripts/bench

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1)
	$(GO) vet ./...

fuzz:
	bash scripts/fuzz

docs:
	ACE_UPDATE_DOCS=1 $(GO) test -count=1 -run TestDocsToolsMarkdownIsUpToDate ./internal/tools

# Regenerates proto/ace/v1/*.pb.go (protoc from Debian's protobuf-compiler;
# protoc-gen-go pinned to the google.golang.org/protobuf in go.mod).
proto:
	$(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
	PATH="$$($(GO) env GOPATH)/bin:$$PATH" protoc -I proto --go_out=. --go_opt=module=github.com/acecanvas/ace proto/ace/v1/*.proto
