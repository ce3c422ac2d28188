#!/bin/sh
# run_validator.sh VALIDATOR_DIR FILE.glb
# Runs the Khronos glTF validator on FILE.glb; exit 77 (skipped) when it is not installed.
dir=$1
file=$2
if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed (the set-up script installs nodejs)"
  exit 77
fi
if [ ! -d "$dir/node_modules/gltf-validator" ]; then
  echo "skipped: gltf-validator is not installed; run: npm ci --prefix tools/validator"
  exit 77
fi
exec node "$dir/validate.mjs" "$file"
