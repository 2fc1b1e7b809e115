# shellcheck shell=bash
# The JVM options of a queuelab command, sourced by ./queuelab and by scripts/distributed-run (which
# starts the jar itself on remote hosts): one place decides them.
#
# The load commands are the instrument: on a machine the client shares with the server, every CPU
# second the client spends is taken from the server. C1 alone compiles the request path at a small
# fraction of C2's cost, and C2's compiler threads would otherwise still be busy well into the measured
# phase; the serial collector and no perf-data sampler keep the JVM's own threads few and asleep
# (docs/benchmarks.md, "client CPU"). Not for Cassandra: its checked range reads decode every row in the
# client, where C2's code costs ~40 % less CPU per read. But with C2's default thresholds the per-request
# code (driver, netty, pipeline: tens of calls per read at 20 reads/s) reaches C2 only after a minute or
# more, and compiling it was ~40 % of the client's CPU in the measured phase of a 10 s warm-up + 30 s
# run: raised tier-4 thresholds leave that code in C1 and give C2 only the per-row code, which reaches
# them within the first reads (docs/benchmarks.md, "checked 10,000-row range read").
# Every other command (validate, report, fit, simulate, demo, ...) runs on the serial collector as well:
# its garbage is short-lived histograms and arrays, and on 2 cores G1's concurrent threads took time from
# the simulations (validate of a demo's UPDATE sweep 4.2-4.4 s against 4.8-4.9 s, three runs each,
# alternated; its range sweep within the runs' spread either way; docs/benchmarks.md, "validate"). A
# Cassandra command keeps the default.
# QUEUELAB_JAVA_OPTS replaces these options.
#   queuelab_java_options COMMAND [ARGS...]   prints the options, space-separated
queuelab_java_options() {
  if [ -n "${QUEUELAB_JAVA_OPTS:-}" ]; then echo "$QUEUELAB_JAVA_OPTS"; return; fi
  local cassandra=0 a
  for a in "$@"; do
    if [ "$a" = cassandra ] || [ "$a" = --backend=cassandra ]; then cassandra=1; fi
  done
  case "${1:-}:$cassandra" in
    run:1|sweep:1|qos-write:1|qos-read:1|qos-ingest:1)
      echo "-Xmx4g -XX:Tier4InvocationThreshold=100000 -XX:Tier4MinInvocationThreshold=50000 -XX:Tier4CompileThreshold=150000" ;;
    run:0|sweep:0|qos-write:0|qos-read:0|qos-ingest:0)
      echo "-Xmx4g -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData" ;;
    *:1) echo "-Xmx4g" ;;
    *) echo "-Xmx4g -XX:+UseSerialGC" ;;
  esac
}
