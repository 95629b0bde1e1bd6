#!/bin/sh
# Starts one service of the image, named by the first argument or by $SERVICE:
#   docker run IMAGE ingest        (Kubernetes: args: [ingest])
# Arguments after the name go to the service. `exec` replaces this shell, so node is the
# container's main process and gets SIGTERM directly (services drain within SHUTDOWN_TIMEOUT_MS).
set -eu

if [ "$#" -gt 0 ]; then
  service=$1
  shift
else
  service=${SERVICE:-}
fi

known='ingest writer query export management compliance migrate standalone admin'

case "$service" in
  ingest | writer | query | export | management | compliance | migrate | standalone | admin) ;;
  '')
    echo "No service named: pass one as the first argument or in SERVICE (one of: $known)" >&2
    exit 64 # EX_USAGE
    ;;
  *)
    echo "Unknown service \"$service\": expected one of: $known" >&2
    exit 64 # EX_USAGE
    ;;
esac

main="${APP_HOME:-/app}/dist/apps/$service/src/main.js"
if [ ! -f "$main" ]; then
  # A known name whose app was not built into this image (it did not exist yet when the image was built).
  echo "Service \"$service\" is not in this image: $main is missing; rebuild the image" >&2
  exit 66 # EX_NOINPUT
fi

# The gateway's requests allocate megabytes that die young: semi-spaces of at most 16 MB (V8 grows
# them to 64 MB on a large machine) keep its young generation in cache, about 30 % less CPU per event
# (docs/benchmarks/2026-11-24-issue-21-gateway-and-broker.md). V8's allocation-site pretenuring took
# the gateway's per-event objects (rows, lines) for long-lived and allocated them in the old
# generation, which then filled at ~40 MB/s: without it, 50-140 MB less peak RSS and ~0.4 us less per
# event (docs/benchmarks/2026-11-28-gateway-memory-v8-promotion.md).
# Its old generation now fills slowly (its messages wait for Kafka in slabs), from a ~55 MB live size
# that V8 lets grow fourfold before a full GC on a large machine: a full GC once it has grown by half
# lowers the gateway's peak RSS by about 20 MB (275-307 MB against 301-324 once it doubles) for about
# 0.2 us more per event (docs/benchmarks/2026-11-28-issue-21-every-figure.md; while the old generation filled
# fast, a full GC once it doubled cost 2 us). The writer's batches live longer: 4 MB
# semi-spaces cut its peak RSS by about 80 MB at the same CPU per event; its heap grows by half (not
# V8's ~10 %) before a full GC: with ~50 MB live, Buffers of fetched batches started one about every
# second, and V8's GC threads then cost the writer more than its own JavaScript ("Issue 21 — second
# pass"). bench/ingest.ts starts both with the same flags. The standalone (every service and chDB in
# one process) takes the gateway's young-generation and pretenuring flags, as `npm start` does:
# 130-180 MB less peak RSS at the same CPU per event (bench:embedded, "The standalone's Node flags").
# The gateway allocates and soon frees thousands of buffers of 124 KiB to 2.4 MiB. glibc raises its mmap
# threshold to the largest it has freed and then serves them from its heaps, where they leave holes it
# cannot give back. Held at glibc's initial 128 KiB, they go back to the system when freed: about 20 MB
# less peak RSS (264-280 MB against 278-306) for about 0.45 us more per event
# (docs/benchmarks/2026-11-28-gateway-malloc-threshold.md). An operator's own MALLOC_MMAP_THRESHOLD_
# is kept.
case "$service" in
  ingest)
    export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
    exec node --max-semi-space-size=16 --no-allocation-site-pretenuring --heap-growing-percent=50 "$main" "$@" ;;
  standalone) exec node --max-semi-space-size=16 --no-allocation-site-pretenuring "$main" "$@" ;;
  writer) exec node --max-semi-space-size=4 --heap-growing-percent=50 "$main" "$@" ;;
  *) exec node "$main" "$@" ;;
esac
