# The service time of the requests a server answered alone (no other request sent between their send and
# their completion), by the idle gap before them: what one request costs the server at the load of its
# run, with no sharing in it. Only the ok requests outside warm-up are read, so a failed or warm-up request
# overlapping one is not seen: count those apart (summary) when they are many. Input: "sent completed" seconds per ok request outside warm-up, sorted:
#   queuelab export RUN --csv=run.csv --force
#   awk -F, 'NR>1 && $4=="ok" && $6==0 && $9!="" && $10!="" {print $9, $10}' run.csv | sort -g \
#     | awk -f scripts/probes/served-alone.awk
{ s[NR] = $1; c[NR] = $2 }
END {
  last = -1e9
  for (i = 1; i <= NR; i++) {
    gap = s[i] - last
    alone = gap >= 0 && (i == NR || s[i + 1] >= c[i])
    if (alone) { b = gap < 0.005 ? "gap <5 ms" : gap < 0.02 ? "gap 5-20 ms" : "gap >=20 ms"; n[b]++; t[b] += c[i] - s[i] }
    if (c[i] > last) last = c[i]
  }
  for (b in n) printf "  %s: %d requests served alone, mean %.2f ms\n", b, n[b], 1e3 * t[b] / n[b]
}
