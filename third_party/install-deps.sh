#!/usr/bin/env bash
# Installs the Debian 12 packages Tumble needs, only those missing. Idempotent and silent when
# everything is already there; exits non-zero with a message saying why when it cannot install
# (not Debian, not root and no sudo, apt-get failing). Usage: third_party/install-deps.sh
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libsdl2-dev libglm-dev libimgui-dev libstb-dev python3-glad catch2
  libqhull-dev nlohmann-json3-dev libtinyobjloader-dev
  xvfb xauth xdotool libgl1-mesa-dri libegl-mesa0
  libbenchmark-dev libbullet-dev libccd-dev libglpk-dev
  clang-14 libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: apt-get not found; this script needs Debian 12. Missing packages: ${missing[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-deps: must run as root (or with sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! "${sudo[@]}" apt-get update -qq >"$log" 2>&1 ||
   ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "install-deps: apt-get could not install: ${missing[*]} (see the lines above)" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
