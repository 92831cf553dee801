#!/usr/bin/env bash
# Installs ivy's dependencies, the Debian packages listed in scripts/packages.txt, with
# apt-get (--no-install-recommends: a build must not depend on what a recommendation happens
# to bring). Idempotent: a package already installed is left alone, and each run installs
# whatever of the list is missing, references and optional packages included.
#
# Required packages that cannot be installed stop the script, naming them and the command to
# run by hand. A reference package (one the tests compare against) that cannot be installed
# is a warning, or under CI=true an error. Optional packages are never fatal.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list="$here/packages.txt"

# packages of one kind, comments stripped
packages_of() { sed -e 's/#.*//' "$list" | awk -v kind="$1" '$1 == kind { for (i = 2; i <= NF; i++) print $i }'; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing_of() { local p; for p in "$@"; do installed "$p" || echo "$p"; done; }

mapfile -t required < <(packages_of apt)
mapfile -t references < <(packages_of reference)
mapfile -t optional < <(packages_of optional)
mapfile -t npm_refs < <(packages_of npm)
mapfile -t missing_required < <(missing_of "${required[@]}")
mapfile -t missing_references < <(missing_of "${references[@]}")
mapfile -t missing_optional < <(missing_of "${optional[@]}")
ci=false
case "${CI:-}" in true | TRUE | 1 | yes) ci=true ;; esac

total=$((${#required[@]} + ${#references[@]} + ${#optional[@]}))
missing=("${missing_required[@]}" "${missing_references[@]}" "${missing_optional[@]}")
# The npm references go to build/npm (node_modules there), with npm's own client; a
# package already there at the listed version is left alone. Returns non-zero on failure.
install_npm_refs() {
  [ ${#npm_refs[@]} -gt 0 ] || return 0
  local prefix="$here/../build/npm" want=() p name version have
  for p in "${npm_refs[@]}"; do
    name=${p%@*} version=${p##*@}
    have=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$prefix/node_modules/$name/package.json" 2> /dev/null | head -n 1)
    [ "$have" = "$version" ] || want+=("$p")
  done
  if [ ${#want[@]} -eq 0 ]; then
    echo "ivy: npm references: ${npm_refs[*]} in build/npm"
    return 0
  fi
  if ! command -v npm > /dev/null; then
    echo "ivy: npm not found (Debian: apt-get install --no-install-recommends nodejs npm)" >&2
    return 1
  fi
  mkdir -p "$prefix"
  echo "ivy: installing ${want[*]} into build/npm (npm install --ignore-scripts)"
  npm install --prefix "$prefix" --ignore-scripts --no-audit --no-fund --no-save "${want[@]}" > "$prefix/npm-install.log" 2>&1 || {
    tail -n 20 "$prefix/npm-install.log" >&2
    echo "ivy: npm install ${want[*]} failed (log: build/npm/npm-install.log)" >&2
    return 1
  }
}
finish_npm() {
  if ! install_npm_refs; then
    if $ci; then
      echo "ivy: CI needs the npm reference(s) ${npm_refs[*]}" >&2
      exit 1
    fi
    echo "ivy: npm reference(s) ${npm_refs[*]} not installed: the checks against them are not configured" >&2
  fi
}
# without npm, Debian's npm package brings it (a machine whose nodejs package carries its own
# npm, as NodeSource's does, keeps that one: Debian's npm would conflict with it)
if [ ${#npm_refs[@]} -gt 0 ] && ! command -v npm > /dev/null && ! installed npm; then
  missing_references+=(npm)
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_references[@]} -eq 0 ]; then
  echo "ivy: packages: all $total of scripts/packages.txt installed"
  finish_npm
  exit 0
fi
missing=("${missing_required[@]}" "${missing_references[@]}" "${missing_optional[@]}")

manual_help() {
  cat >&2 <<EOF
ivy: to install them by hand (as root, or ask an administrator):
  apt-get update && apt-get install --no-install-recommends $*
  Behind an HTTP proxy, give apt the proxy first, e.g.
  echo 'Acquire::http::Proxy "http://PROXY:PORT";' > /etc/apt/apt.conf.d/80proxy
  (or run with http_proxy/https_proxy set: sudo keeps them with 'sudo -E').
EOF
}

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    SUDO=(sudo -E)
  elif command -v sudo > /dev/null && [ -t 0 ]; then
    SUDO=(sudo -E)   # asks for the password at the terminal
  else
    echo "ivy: missing packages: ${missing[*]}; not root and no sudo, so not installing them" >&2
    manual_help "${missing[@]}"
    if [ ${#missing_required[@]} -gt 0 ] || { $ci && [ ${#missing_references[@]} -gt 0 ]; }; then exit 1; fi
    echo "ivy: continuing without ${missing_references[*]} ${missing_optional[*]} (the tests that need them skip)" >&2
    finish_npm
    exit 0
  fi
fi

export DEBIAN_FRONTEND=noninteractive
apt_install() { "${SUDO[@]}" apt-get install -y -q --no-install-recommends "$@"; }
echo "ivy: installing ${#missing[@]} package(s) with apt-get (and what they depend on): ${missing[*]}"
echo "ivy: on a fresh machine this downloads about 1 GB (LibTorch, OpenCV, oneDNN, ...) and takes a few minutes"
if ! "${SUDO[@]}" apt-get update -q; then
  echo "ivy: apt-get update failed: no network, a proxy not configured, or a broken sources list" >&2
  manual_help "${missing[@]}"
  exit 1
fi
if [ ${#missing_required[@]} -gt 0 ] && ! apt_install "${missing_required[@]}"; then
  echo "ivy: could not install the required packages ${missing_required[*]}" >&2
  manual_help "${missing_required[@]}"
  exit 1
fi
failed_references=()
for p in "${missing_references[@]}"; do
  apt_install "$p" || failed_references+=("$p")
done
for p in "${missing_optional[@]}"; do
  apt_install "$p" || echo "ivy: optional package $p not installed; continuing" >&2
done
if [ ${#failed_references[@]} -gt 0 ]; then
  if $ci; then
    echo "ivy: CI needs the reference package(s) ${failed_references[*]}, which could not be installed" >&2
    exit 1
  fi
  echo "ivy: reference package(s) ${failed_references[*]} not installed: the tests comparing against them skip" >&2
fi
echo "ivy: packages installed"
finish_npm
