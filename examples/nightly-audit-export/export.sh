#!/usr/bin/env bash
# Nightly audit-log archive for a CI job. `svc audit sync` adds everything new since the previous
# run to ARCHIVE_DIR (one gzip NDJSON file and one hash-chained manifest per run, ending 5 minutes
# before the server's now), then `svc audit verify` re-hashes the whole archive and walks the chain.
# No dates to compute: the archive's sync-state.json remembers where the last run ended, and an
# interrupted run (job cancelled, runner lost, timeout) is finished by the next one.
#
# Environment:
#   SVC_API_KEY, SVC_BASE_URL  read by svc itself; keep them in CI secrets
#   ARCHIVE_DIR  the archive (default: audit-archive): a directory kept between runs, or
#                s3://BUCKET/PREFIX (AWS_* settings as for the AWS CLI), which keeps nothing on the runner
#   SYNC_SINCE   start of the very first run, ISO 8601 (default: all the API still keeps)
#   SIGN_KEY     file holding an Ed25519 private key (PEM): every manifest is signed (optional)
#   PUBLIC_KEY   file holding the matching public key: verify checks every signature (optional)
#   SVC_CLI      how to run svc, split on spaces (default: node_modules/.bin/svc, else svc on PATH)
#
# Exit codes: 0 synced and the archive verified whole; 5 the run was written but the archive has a
# hole (a retention gap or late events, named on stderr and in the manifest); 75 interrupted (the
# next run resumes); 1 verify found a problem (one line each on stdout), or svc failed (API,
# network, I/O, or another sync holds the directory's lock); 2 usage. Once a hole is recorded,
# verify keeps reporting it until `svc audit sync --backfill` repairs it or `svc audit gaps ack`
# acknowledges it (recorded in the next manifest). The sync prints the archive's head
# (`head sha256:...`) on stdout; `svc audit verify --head` checks the archive still ends there.
# For many projects in one job, see github-actions.yml (`svc audit sync --projects`).
set -euo pipefail

archive_dir=${ARCHIVE_DIR:-audit-archive}

if [[ -n "${SVC_CLI:-}" ]]; then
  read -r -a svc <<<"$SVC_CLI"
elif [[ -x node_modules/.bin/svc ]]; then
  svc=(node_modules/.bin/svc)
else
  svc=(svc)
fi

sync_args=(audit sync --dir "$archive_dir" --gzip)
if [[ -n "${SYNC_SINCE:-}" ]]; then sync_args+=(--since "$SYNC_SINCE"); fi
if [[ -n "${SIGN_KEY:-}" ]]; then sync_args+=(--sign-key "$SIGN_KEY"); fi
verify_args=(audit verify "$archive_dir")
if [[ -n "${PUBLIC_KEY:-}" ]]; then verify_args+=(--public-key "$PUBLIC_KEY"); fi

# A cancelled job signals the whole process group: svc finishes the page it is writing, keeps the
# run in sync-state.json and exits 75. Without a trap bash would die first and report the signal.
trap ':' INT TERM

code=0
"${svc[@]}" "${sync_args[@]}" || code=$?
if ((code == 75)); then
  echo "export.sh: sync interrupted; the next run resumes it" >&2
  exit 75
fi
if ((code != 0 && code != 5)); then
  echo "export.sh: sync failed (svc exit $code)" >&2
  exit "$code"
fi

verified=0
"${svc[@]}" "${verify_args[@]}" || verified=$?
if ((code == 5)); then
  echo "export.sh: the archive has a hole (see the warnings above and the newest manifest)" >&2
  exit 5
fi
if ((verified != 0)); then
  echo "export.sh: verify found problems in $archive_dir (svc exit $verified)" >&2
  exit 1
fi
echo "export.sh: $archive_dir synced and verified" >&2
