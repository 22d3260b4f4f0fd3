#!/usr/bin/env bash
# Installs the Debian packages the tests drive when any is missing: gh, python3-github, ruby-octokit, gist (gist-paste),
# hub and webhook (adnanh's receiver) (stock clients and receivers), openssl
# (test certificates), chromium (pages in a real browser), nginx (the deployment config) and, for the PostgreSQL pass
# (HUBLET_TEST_DATABASE_URL set), postgresql-client-15 (pg_dump and pg_restore of admin backup). Called by `make test`
# and `.ci/run`. As root, or through `sudo -n`; where neither can install, it stops at once naming the command to run.
set -euo pipefail
missing=()
command -v gh >/dev/null 2>&1 || missing+=(gh)
/usr/bin/python3 -c 'import github' >/dev/null 2>&1 || missing+=(python3-github)
/usr/bin/ruby -e 'require "octokit"' >/dev/null 2>&1 || missing+=(ruby-octokit)
command -v gist-paste >/dev/null 2>&1 || missing+=(gist)
command -v hub >/dev/null 2>&1 || missing+=(hub)
command -v webhook >/dev/null 2>&1 || missing+=(webhook)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ -n "${HUBLET_TEST_DATABASE_URL:-}" ]; then command -v pg_dump >/dev/null 2>&1 || missing+=(postgresql-client-15); fi
[ ${#missing[@]} -eq 0 ] && exit 0
command="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
  as_root=(sudo -n)
else
  echo "make test needs Debian packages that are missing: run  sudo sh -c '$command'  then make test again" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "make test needs ${missing[*]} and this machine has no apt-get: install them, then make test again" >&2
  exit 1
fi
echo "== installing ${missing[*]} (apt-get)"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
