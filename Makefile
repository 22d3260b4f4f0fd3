# Set-up and everyday commands. `make run` and `make test` install what is missing first.
SHELL := /bin/bash
STAMP := node_modules/.install-stamp
export NODE_OPTIONS ?=

.PHONY: install system-packages run test test-sqlite test-postgres typecheck deps lint dist bench bench-postgres clean openapi-fixture

install: $(STAMP)

# `npm install` (not `npm ci`): the registry here lacks rollup's other-platform optional packages, so the lock file
# cannot list them and `npm ci` refuses it; `npm install` installs exactly the locked versions and leaves the lock as is.
$(STAMP): package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $(STAMP)

run: install
	./bin/hublet serve --data ./data

typecheck: install
	npx tsc --noEmit

# The dependency rules of .dependency-cruiser.cjs over src/: no module or folder cycles, layers import only downwards,
# no area imports another (one declared exception); a violating import fails the build. The folder graph in
# docs/design.md must be current (scripts/folder-graph.mjs --write regenerates it).
deps: install
	npx depcruise src --config .dependency-cruiser.cjs
	node scripts/folder-graph.mjs

# Biome's format and recommended lint rules (biome.jsonc, `biome check`), knip's unused files, exports and
# dependencies (knip.jsonc), and every local link of README.md and docs/ (scripts/check-doc-links.mjs): any finding fails.
lint: install
	npx biome check --error-on-warnings
	npx knip
	node scripts/check-doc-links.mjs

# The Debian packages the tests drive (gh, python3-github, openssl, chromium, nginx), installed when missing: as root or
# through `sudo -n`, else it stops at once naming the command to run (scripts/system-packages.sh).
system-packages:
	@scripts/system-packages.sh

# The whole suite on SQLite, then again on PostgreSQL when HUBLET_TEST_DATABASE_URL names a server; then `make bench QUICK=1`.
test: system-packages install typecheck deps lint dist
	env -u HUBLET_TEST_DATABASE_URL HUBLET_TEST_BIN=dist npx vitest run
	@if [ -n "$$HUBLET_TEST_DATABASE_URL" ]; then \
	  echo "== again on PostgreSQL ($$HUBLET_TEST_DATABASE_URL)"; \
	  HUBLET_TEST_DB=postgres HUBLET_TEST_BIN=dist npx vitest run; \
	fi
	$(MAKE) --no-print-directory bench QUICK=1

# dist/hublet, the single executable; skipped while it is newer than every source (FORCE=1 rebuilds).
dist: install
	node scripts/build-dist.mjs $(if $(FORCE),--force,)

# Regenerates test/fixtures/openapi-operations.json (response schemas of the operations hublet serves) from @octokit/openapi.
openapi-fixture: install
	node scripts/extract-openapi.mjs

# Every case against dist/hublet (rebuilt when stale); QUICK=1 runs each briefly (CI: proves the harness, never judges numbers).
bench: install dist
	node --import tsx scripts/bench/run.ts $(if $(QUICK),--quick,) $(if $(DATABASE),--database $(DATABASE),)

# PostgreSQL rows (not part of `make test`): the gist read, gist write and delivery cases on the PostgreSQL server
# DATABASE names, with one `hublet serve` process, then with two on one database and data dir (load spread over both).
PG_BENCH_CASES := GET /gists/{id} (3|PATCH /gists/{id}|webhook deliveries
bench-postgres: install dist
	node --import tsx scripts/bench/run.ts --database $(or $(DATABASE),postgres://postgres@127.0.0.1:5432/postgres) --only '$(PG_BENCH_CASES)' --label postgres-1-process
	node --import tsx scripts/bench/run.ts --database $(or $(DATABASE),postgres://postgres@127.0.0.1:5432/postgres) --processes 2 --only '$(PG_BENCH_CASES)' --label postgres-2-processes

clean:
	rm -rf dist .cache
