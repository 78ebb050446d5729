# Larder: build, test, demo and benchmark. `make test` and `make demo` work on a fresh machine:
# they install the system packages they need with apt-get when they are missing.
SWIFT        ?= swift
APT_PACKAGES := libxml2-dev libyaml-dev zlib1g-dev libsqlite3-dev libssl-dev pkg-config
RELEASE_BIN  := .build/release/larder
DEBUG_BIN    := .build/debug/larder
LARDER       ?= $(RELEASE_BIN)

.PHONY: all deps build debug test demo bench clean convert validate help docs

all: build

help:
	@echo "make build | test | soak | demo | bench | docs | clean"
	@echo "make convert IN=file TO=json|ndjson|yaml|xml [OUT=path]"
	@echo "make validate IN=file"

## deps: install missing system packages (apt-get; sudo when not root)
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product larder

## browser-deps: a real headless browser for the dashboard and cookbook tests (Debian's chromium,
## chromium-driver and python3-selenium; poppler-utils' pdftotext reads the printed book back; the
## tests use /usr/bin/python3 and skip, saying why, without them)
BROWSER_PACKAGES := chromium chromium-driver python3-selenium poppler-utils
.PHONY: browser-deps
browser-deps:
	@missing=""; for p in $(BROWSER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; } \
	    || echo "warning: could not install$$missing; the browser tests will be skipped"; \
	fi

debug: deps
	$(SWIFT) build --product larder

test: deps browser-deps lint
	$(SWIFT) build --product larder
	SWIFT=$(SWIFT) bash scripts/test.sh

# DocC for the `Larder` library product and its getting-started article (Sources/Larder/Larder.docc), with the
# toolchain's swift-symbolgraph-extract and docc, no package plugin; an unresolved ``link`` fails it. The debug
# build it needs is the one `make test` uses. Output: .build/docs/Larder.doccarchive (it prints how to open it).
docs: deps embed-schemas
	SWIFT=$(SWIFT) bash scripts/docs.sh

# The house style (.swift-format); `make format` rewrites the tree to it.
.PHONY: lint format
lint:
	$(SWIFT) format lint --strict --parallel -r Sources Tests Package.swift

format:
	$(SWIFT) format format -i --parallel -r Sources Tests Package.swift

# The demo runs the bundled samples on the debug build, the one `make test` builds too: from a clean
# clone it compiles in well under half a release build's CPU time, and the samples take seconds either
# way (DEVELOPERS.md, "Build time"). `make bench` and the other targets use the release build.
demo: debug
	LARDER=$(DEBUG_BIN) bash scripts/demo.sh

convert: build
	@test -n "$(IN)" && test -n "$(TO)" || { echo "usage: make convert IN=file TO=json|ndjson|yaml|xml [OUT=path]"; exit 2; }
	$(RELEASE_BIN) convert $(IN) --to $(TO) $(if $(OUT),-o $(OUT),)

validate: build
	@test -n "$(IN)" || { echo "usage: make validate IN=file"; exit 2; }
	$(RELEASE_BIN) validate $(IN)

bench: build
	bash scripts/bench.sh

clean:
	rm -rf .build bench-data out

## import: recipes and brew logs in from other apps' formats, and back out (docs/import.md)
.PHONY: import export
import:
	@test -n "$(IN)" || { echo "usage: make import IN='file...' [TO=json|ndjson|yaml|xml] [OUT=path] [FROM=format]"; exit 2; }
	@$(MAKE) --no-print-directory build
	$(RELEASE_BIN) import $(IN) --keep-going $(if $(TO),--to $(TO),) $(if $(OUT),-o $(OUT),) $(if $(FROM),--from $(FROM),)

export:
	@test -n "$(IN)" && test -n "$(TO)" || { echo "usage: make export IN='file...' TO=schemaorg|paprika|cooklang|recipeml [OUT=path]"; exit 2; }
	@$(MAKE) --no-print-directory build
	$(RELEASE_BIN) export $(IN) --to $(TO) $(if $(OUT),-o $(OUT),)

## yaml
.PHONY: bench-yaml
bench-yaml: build
	bash scripts/bench-yaml.sh

## registry
# The registry is compiled into larder from Schemas/ (EmbeddedSchemas.swift); the validator's
# oracle test needs python's jsonschema with its date-time and uri format checkers.
.PHONY: embed-schemas registry-deps migrate schema-check
embed-schemas:
	@python3 scripts/embed-schemas.py
registry-deps:
	@python3 -c "import jsonschema, rfc3339_validator, rfc3986_validator" 2>/dev/null || \
	  python3 -m pip install -q jsonschema rfc3339-validator rfc3986-validator
deps: registry-deps
build: embed-schemas
debug: embed-schemas
test: embed-schemas

migrate:
	@test -n "$(IN)$(STORE)" || { echo "usage: make migrate IN=file... [TO=version] [OUT=path] [DRY=1]  |  make migrate STORE=larder.db [TYPE=recipe] [TO=version]"; exit 2; }
	@$(MAKE) --no-print-directory build
	$(RELEASE_BIN) migrate $(IN) $(if $(STORE),--store $(STORE),) $(if $(TYPE),--type $(TYPE),) $(if $(TO),--to-version $(TO),) $(if $(OUT),-o $(OUT),) $(if $(DRY),--dry-run,)

schema-check: build
	$(RELEASE_BIN) schema check
	@if [ -n "$(STORE)" ] || [ -f larder.db ]; then $(RELEASE_BIN) schema validate --store $(or $(STORE),larder.db); fi

## xml
.PHONY: bench-xml
bench-xml: build
	bash scripts/bench-xml.sh

## emulator
# `make serve` runs the CloudKit Web Services emulator (PORT=0 for a free port, DATA=dir for the store) and
# prints the dashboard's URL (/_emulator/ui/).
# `make demo-emulator` starts one in memory on a free port, loads the samples, queries them back, stops it.
.PHONY: serve demo-emulator bench-emulator
serve: build
	@echo "dashboard: http://127.0.0.1:$(if $(filter 0,$(PORT)),<the port it prints>,$(or $(PORT),8787))/_emulator/ui/ (larder serve prints the exact URL as it starts)"
	$(RELEASE_BIN) serve $(if $(PORT),--port $(PORT),) $(if $(DATA),--data $(DATA),)

demo-emulator: build
	LARDER=$(RELEASE_BIN) bash scripts/demo-emulator.sh

bench-emulator: deps
	bash scripts/bench-emulator.sh

## dedupe
# make dedupe SAVED=... CREATED=...: merge saved and created recipe sets (docs/dedupe.md)
.PHONY: dedupe
dedupe:
	@test -n "$(SAVED)" && test -n "$(CREATED)" || { echo "usage: make dedupe SAVED=file CREATED=file [OUT=path] [LOG=merge-log.json]"; exit 2; }
	@$(MAKE) --no-print-directory build
	$(RELEASE_BIN) dedupe --saved $(SAVED) --created $(CREATED) $(if $(OUT),-o $(OUT),) $(if $(LOG),--log $(LOG),)


## maintenance: tombstone compaction and recipe-cache pruning (docs/maintenance.md)
.PHONY: compact prune bench-maintenance
compact:
	@test -n "$(STORE)" || { echo "usage: make compact STORE=larder.db [HORIZON=90d] [NOW=2024-06-01T00:00:00Z] [DRY=1]"; exit 2; }
	@$(MAKE) --no-print-directory build
	$(RELEASE_BIN) tombstones compact --store $(STORE) $(if $(HORIZON),--horizon $(HORIZON),) $(if $(NOW),--now $(NOW),) $(if $(DRY),--dry-run,)

prune:
	@test -n "$(CACHE)$(STORE)" || { echo "usage: make prune CACHE=recipe-cache.json [TTL=30m] [MAX_BYTES=5MB] [MAX_ENTRIES=500] [NOW=time] [DRY=1]  (or STORE=larder.db for the store's cache table)"; exit 2; }
	@$(MAKE) --no-print-directory build
	$(RELEASE_BIN) cache prune $(if $(CACHE),--cache $(CACHE),--store $(STORE)) $(if $(TTL),--ttl $(TTL),) $(if $(MAX_BYTES),--max-bytes $(MAX_BYTES),) $(if $(MAX_ENTRIES),--max-entries $(MAX_ENTRIES),) $(if $(NOW),--now $(NOW),) $(if $(DRY),--dry-run,)

bench-maintenance: build
	bash scripts/bench-maintenance.sh

## upload
# Bulk upload, incremental download and store sync against CloudKit or `larder serve` (docs/upload.md).
#   make upload IN="a.json b.json" ENDPOINT=http://127.0.0.1:8787 CONFIG=.larder/emulator/config.json [ZONE=larder] [DEDUPE=1] [CONFLICT=merge]
#   make upload STORE=larder.db ENDPOINT=… CONFIG=…              (the store's pending changes)
#   make download ENDPOINT=… CONFIG=… OUT=records.json [STATE=records.state] [TYPE=recipe]
#   make sync STORE=larder.db ENDPOINT=… CONFIG=… [DEVICE=phone]
# Without CONFIG give CONTAINER=iCloud.… API_TOKEN=… WEB_AUTH_TOKEN=… (or KEY_ID=… KEY=key.pem).
ENDPOINT ?= http://127.0.0.1:8787
UPLOAD_CONNECT = --endpoint $(ENDPOINT) $(if $(CONFIG),--emulator-config $(CONFIG),) $(if $(CONTAINER),--container $(CONTAINER),) \
	$(if $(API_TOKEN),--api-token $(API_TOKEN),) $(if $(WEB_AUTH_TOKEN),--web-auth-token $(WEB_AUTH_TOKEN),) \
	$(if $(KEY_ID),--key-id $(KEY_ID) --key $(KEY),) $(if $(ZONE),--zone $(ZONE),) $(if $(DATABASE),--database $(DATABASE),)
.PHONY: upload download sync demo-pipeline bench-upload upload-args download-args sync-args
# The argument checks run before `build`, so a usage mistake does not start a release build.
upload-args:
	@test -n "$(IN)$(STORE)" || { echo "usage: make upload IN=files... | STORE=larder.db  ENDPOINT=url CONFIG=emulator-config.json [ZONE=] [DEDUPE=1] [CONFLICT=fail|server-wins|client-wins|merge]"; exit 2; }
download-args:
	@test -n "$(OUT)" || { echo "usage: make download OUT=file ENDPOINT=url CONFIG=emulator-config.json [STATE=file] [TYPE=recipe] [ZONE=]"; exit 2; }
sync-args:
	@test -n "$(STORE)" || { echo "usage: make sync STORE=larder.db ENDPOINT=url CONFIG=emulator-config.json [DEVICE=id] [ZONE=]"; exit 2; }

upload: upload-args build
	$(RELEASE_BIN) upload $(IN) $(if $(STORE),--store $(STORE),) $(UPLOAD_CONNECT) $(if $(DEDUPE),--dedupe,) $(if $(CONFLICT),--conflict $(CONFLICT),) $(if $(JOURNAL),--journal $(JOURNAL),)

download: download-args build
	$(RELEASE_BIN) download $(UPLOAD_CONNECT) -o $(OUT) $(if $(STATE),--state $(STATE),) $(if $(TYPE),--type $(TYPE),)

sync: sync-args build
	$(RELEASE_BIN) sync --store $(STORE) $(if $(DEVICE),--device $(DEVICE),) $(UPLOAD_CONNECT) $(if $(CONFLICT),--conflict $(CONFLICT),)

demo-pipeline: build
	LARDER=$(RELEASE_BIN) bash scripts/demo-pipeline.sh

bench-upload: deps
	bash scripts/bench-upload.sh

## fuzz: libFuzzer (ASan) over every parser (TARGETS="json xml" for a few), in two binaries (larder-fuzz: files
# and wire formats; larder-fuzz-emulator: ck-query, multipart; FUZZ_NO_BUILD=1 reuses them): a total budget of FUZZ_SECONDS
# fuzzing seconds (default 1200; wall time about half), split by weight, two targets at a time, each from
# its corpus in Fuzz/corpus/<target>/ (merged back, capped) and appending its figures to Fuzz/STATUS.md.
# Findings land in Fuzz/regressions/<target>/, which make test replays (FuzzRegressionTests). Fuzz/README.md.
.PHONY: fuzz
fuzz: deps
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),1200) TARGETS="$(TARGETS)" bash scripts/fuzz.sh

## soak: the emulator soak at the issue's full size, 16 clients × OPS operations each (10,000 by
# default; `make test` runs 300). SEED=n replays another operation mix.
.PHONY: soak
soak: deps
	LARDER_SOAK_OPS=$(or $(OPS),10000) $(if $(SEED),LARDER_SOAK_SEED=$(SEED),) $(SWIFT) test --disable-xctest --filter EmulatorSoakTests
