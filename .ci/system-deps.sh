#!/usr/bin/env bash
# Installs the Debian packages the tests drive, when missing: graphviz (`dot`), chromium and
# a Java runtime (the W3C Nu HTML checker, vnu.jar, runs on it).
# Needs root (CI and the project's machines run as root); elsewhere it says what is missing.
set -euo pipefail
missing=()
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps: missing ${missing[*]}; install them with apt-get (needs root)" >&2
  exit 0
fi
echo "system-deps: installing ${missing[*]}"
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
