#!/usr/bin/env bash
# Nightly audit-log export for a CI job: yesterday (UTC) as gzip NDJSON, one event per line
# exactly as the API sent it. Resumable: an export cut short (job cancelled, runner lost, timeout)
# leaves a state file and a partial output in WORK_DIR; the next run finishes that day first.
#
# Environment:
#   SVC_API_KEY, SVC_BASE_URL  read by svc itself; keep them in CI secrets
#   EXPORT_DIR  finished exports, audit-YYYY-MM-DD.ndjson.gz (default: audit-export); upload it
#   WORK_DIR    state files and exports in progress (default: .audit-export); cache it between runs
#   EXPORT_DAY  the UTC day to export, YYYY-MM-DD (default: yesterday); for backfills
#   SVC_CLI     how to run svc, split on spaces (default: node_modules/.bin/svc, else svc on PATH)
#
# Exit codes: 0 done; 75 interrupted with the state saved (the next run resumes); other: svc
# failed and printed why on stderr (1 API, network or I/O error, 2 usage).
set -euo pipefail

export_dir=${EXPORT_DIR:-audit-export}
work_dir=${WORK_DIR:-.audit-export}
mkdir -p "$export_dir" "$work_dir"

if [[ -n "${SVC_CLI:-}" ]]; then
  read -r -a svc <<<"$SVC_CLI"
elif [[ -x node_modules/.bin/svc ]]; then
  svc=(node_modules/.bin/svc)
else
  svc=(svc)
fi

# GNU date on Linux runners, BSD date on macOS.
yesterday() { date -u -d yesterday +%F 2>/dev/null || date -u -v-1d +%F; }

# A cancelled job signals the whole process group: svc finishes the page it is writing, saves
# its state and exits 75. Without a trap bash would die first and report the signal instead.
interrupted=0
trap 'interrupted=1' INT TERM

# Exports one UTC day. The API's range includes both ends, so a day ends at 23:59:59.999 and an
# event at midnight belongs to the next day only.
export_day() {
  local day=$1
  local partial="$work_dir/audit-$day.ndjson.gz"
  local state="$work_dir/audit-$day.state.json"
  local final="$export_dir/audit-$day.ndjson.gz"
  if [[ -f "$state" && ! -f "$partial" ]]; then
    # The cache held the state but not the output: nothing to resume from.
    echo "export.sh: $partial is missing; exporting $day from the start" >&2
    rm -f "$state"
  fi
  if [[ -f "$state" ]]; then echo "export.sh: resuming the export of $day" >&2; fi
  local code=0
  "${svc[@]}" audit export --from "${day}T00:00:00Z" --to "${day}T23:59:59.999Z" \
    --out "$partial" --state "$state" --gzip || code=$?
  if ((code == 0)); then
    mv "$partial" "$final" || return 1
    echo "export.sh: wrote $final" >&2
  elif ((code == 75)); then
    echo "export.sh: export of $day interrupted; $state is kept, the next run resumes it" >&2
  else
    echo "export.sh: export of $day failed (svc exit $code)" >&2
  fi
  return "$code"
}

if [[ -n "${EXPORT_DAY:-}" && ! "$EXPORT_DAY" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then
  echo "export.sh: EXPORT_DAY must look like 2026-01-31, got '$EXPORT_DAY'" >&2
  exit 2
fi
target=${EXPORT_DAY:-$(yesterday)}

# Days left unfinished by earlier runs first, then the target day (unless that was one of them).
days=()
shopt -s nullglob
for state in "$work_dir"/audit-*.state.json; do
  day=${state##*/audit-}
  day=${day%.state.json}
  if [[ "$day" != "$target" ]]; then days+=("$day"); fi
done
days+=("$target")

for day in "${days[@]}"; do
  code=0
  export_day "$day" || code=$?
  if ((code != 0)); then exit "$code"; fi
  # svc completed its page before the signal arrived: stop here, the rest runs next time.
  if ((interrupted)); then exit 75; fi
done
date -u +%FT%TZ >"$work_dir/last-success"
