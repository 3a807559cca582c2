#!/usr/bin/env bash
# `npm run test:all`, the README's test command and the last step of .ci/run: sets this machine up
# for every suite, then runs them all (`vitest run`, every project; arguments go to vitest).
#
#   - Debian packages the suites run: php-cli (the WooCommerce plugin harness), redis-server (the
#     processes suites start their own servers), chromium (the browser suites drive Debian's),
#     curl and jq (the first-run suite pastes the README), prometheus (the dashboard test);
#     installed with apt-get when missing;
#   - examples/medusa-store installed on the project's Node when absent or stale (the Medusa suites);
#   - a Redis answering on 127.0.0.1:6379 for the Redis suites (REDIS_URL elsewhere): started when none does;
#   - a PostgreSQL answering on 127.0.0.1:5432 for the Medusa suites (MEDUSA_TEST_DATABASE_URL elsewhere): checked only.
#
# Where it cannot install (not root and no password-less sudo, or no apt-get), it installs and runs
# nothing: one message says what to install, and it exits 1.
set -euo pipefail
cd "${BASH_SOURCE[0]%/*}/.."

# The command each package provides, in the order the message lists them.
COMMANDS=(php redis-server chromium curl jq prometheus)
declare -A PACKAGE=([php]=php-cli [redis-server]=redis-server [chromium]=chromium [curl]=curl [jq]=jq [prometheus]=prometheus)
MEDUSA=examples/medusa-store
# The lock file an install was made from: npm ci replaces node_modules, so a stale stamp means a stale install.
MEDUSA_STAMP=$MEDUSA/node_modules/.installed-from-lock.sha256

say() { printf '== %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

missing_packages() {
  local command
  for command in "${COMMANDS[@]}"; do
    # The browser suites take CHROMIUM_PATH, else Debian's /usr/bin/chromium (test/browser/helpers/chromium.ts).
    if [ "$command" = chromium ] && [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then continue; fi
    have "$command" || printf '%s\n' "${PACKAGE[$command]}"
  done
}

# How to run apt-get here: empty when this process is root, "sudo" when sudo needs no password.
root_prefix() {
  if [ "$(id -u)" = 0 ]; then
    printf ''
  elif have sudo && sudo -n true 2>/dev/null; then
    printf 'sudo'
  else
    return 1
  fi
}

postgres_problem() {
  [ -n "${MEDUSA_TEST_DATABASE_URL:-}" ] && return 0
  answers 127.0.0.1 5432 ||
    echo "a PostgreSQL server on 127.0.0.1:5432 with user postgres and trust authentication (the Medusa suites; MEDUSA_TEST_DATABASE_URL names another)"
}

mapfile -t packages < <(missing_packages)
postgres=$(postgres_problem)
why=""
if [ ${#packages[@]} -gt 0 ]; then
  if ! have apt-get; then
    why="there is no apt-get here (this command provisions Debian and Ubuntu)"
  elif ! as_root=$(root_prefix); then
    why="it is not running as root (apt-get needs root; sudo is absent or asks for a password)"
  fi
fi
if [ -n "$why" ] || [ -n "$postgres" ]; then
  {
    echo "npm run test:all cannot set this machine up${why:+: $why}. Install these, then run it again:"
    [ ${#packages[@]} -gt 0 ] && echo "  apt-get install -y ${packages[*]}   (Debian packages, as root)"
    [ -n "$postgres" ] && echo "  $postgres"
  } >&2
  exit 1
fi

if [ ${#packages[@]} -gt 0 ]; then
  say "installing ${packages[*]} (apt-get)"
  ${as_root:-} apt-get update -qq
  # Through env: sudo drops the caller's environment.
  ${as_root:-} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then export CHROMIUM_PATH=$(command -v chromium); fi

lock_sum=$(sha256sum "$MEDUSA/package-lock.json")
if [ ! -f "$MEDUSA_STAMP" ] || [ "$(<"$MEDUSA_STAMP")" != "$lock_sum" ]; then
  # npm on the project's Node (the `node` devDependency), as the README's install runs it.
  node_pin=$(node -p 'require("./package.json").devDependencies.node')
  say "installing the Medusa example store ($MEDUSA, Node $node_pin)"
  npx -y -p "node@$node_pin" -- npm ci --no-audit --no-fund --prefix "$MEDUSA"
  printf '%s' "$lock_sum" >"$MEDUSA_STAMP"
fi

if [ -z "${REDIS_URL:-}" ] && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  say "starting redis-server on 127.0.0.1:6379"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

say "vitest run (every project)"
exec vitest run "$@"
