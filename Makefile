# Eos — the two commands a newcomer needs are `make run` and `make test`; both install what
# they need (Terraform, the eoslab provider mirror, test servers) into the cache outside the
# checkout: $(EOS_CACHE).
SHELL := /bin/bash
# A recipe piped into tee (make bench) fails when its command fails, not only when tee does.
.SHELLFLAGS := -o pipefail -c
export GOTOOLCHAIN := local
GO ?= go
EOS_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/eos
export EOS_CACHE
TERRAFORM_VERSION ?= 1.5.7
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# Terraform from PATH, else the one `make terraform` installs into the cache.
TERRAFORM_BIN := $(EOS_CACHE)/terraform/$(TERRAFORM_VERSION)
export PATH := $(PATH):$(TERRAFORM_BIN)
# The eoslab provider mirror lives in the cache: its version follows its sources, so a
# checkout that did not change the provider reuses the build.
PROVIDERS := $(EOS_CACHE)/providers

.PHONY: all build run test bench lint terraform mirror clean

all: build

## build: the eos binary (bin/eos) and the eoslab provider mirror ($(EOS_CACHE)/providers)
build: terraform mirror
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/eos ./cmd/eos

## mirror: build Eos's own simulated-cloud provider as a Terraform filesystem mirror
mirror:
	@scripts/eoslab-mirror.sh $(PROVIDERS) >/dev/null

## terraform: make sure a terraform binary is available (installs v$(TERRAFORM_VERSION) into the cache)
terraform:
	@command -v terraform >/dev/null || { \
		echo "installing terraform $(TERRAFORM_VERSION) into $(TERRAFORM_BIN)"; \
		GOBIN=$(TERRAFORM_BIN) $(GO) install github.com/hashicorp/terraform@v$(TERRAFORM_VERSION); }

## run: the bot on its embedded default: console chat, bbolt and Terraform state under .eos/, a
## Nomad agent running the jobs (kept in .eos/ between runs) when scripts/testenv/nomad.sh build has made one, and a Salt
## master+minion+salt-api running the local states when scripts/testenv/salt.sh present says so
run: build
	EOS_TERRAFORM_MIRROR=$(PROVIDERS) EOSLAB_DELAY=$${EOSLAB_DELAY:-500ms} EOS_LOG_LEVEL=$${EOS_LOG_LEVEL:-info} scripts/run.sh

## test: build, start the test servers (Mattermost, Nomad, Vault, Consul, PostgreSQL), run every
## test, stop them
test: build
	scripts/test.sh

## bench: the benchmarks, in benchstat's format (bench.txt); the drift scan over 50 services
## deployed with real Terraform takes about two minutes, so it runs once, not six times. The
## servers of `make test` are started for them (the memory benchmark measures Eos on Mattermost)
bench: build
	scripts/test.sh --bench -skip 'DriftScan' -count 6 | tee bench.txt
	$(GO) test -run '^$$' -bench 'DriftScan' -benchmem -count 1 ./bot | tee -a bench.txt

## lint: gofmt and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin .eos
