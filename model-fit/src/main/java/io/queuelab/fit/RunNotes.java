package io.queuelab.fit;

import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.fit.runs.RunData;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a fit or a validation says first about runs it uses but cannot vouch for, one "note:" line
 * each: a run whose log is damaged or cut (its figures are those of the records read), runs whose
 * manifests record servers that differ in a setting (an emulated server's mu, say: a model fitted
 * on one is judged on another), and runs made on another host. Runs of different workloads or
 * servers by name are not noted but refused ({@link HeldOutValidation#refuseMixedRuns}).
 */
public final class RunNotes {
    /** The server keys whose difference makes runs another workload or server: refused, not noted. */
    static final List<String> IDENTITY_KEYS = List.of("name", "backend", "jdbcUrl", "serverVersion", "workload");

    private RunNotes() {
    }

    /** The notes on {@code runs}, each named as {@code names} gives it (the same order). */
    public static List<String> of(List<RunData> runs, List<String> names) {
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (String problem : runs.get(i).logProblems()) {
                notes.add("note: run " + names.get(i) + ": " + problem + "; its figures are those of the records read");
            }
        }
        differences(runs, names, "the runs' manifests record different servers", RunNotes::serverSettings,
                ": a model fitted to one is judged on another").ifPresent(notes::add);
        differences(runs, names, "the runs were made on different hosts", RunNotes::host,
                ": their cpus may differ beyond what validate measures").ifPresent(notes::add);
        return notes;
    }

    /** One note naming, for each key whose value differs among the runs that record it, the first run's value and each other's. */
    private static java.util.Optional<String> differences(List<RunData> runs, List<String> names, String head,
                                                           java.util.function.Function<RunData, Map<String, Object>> settings, String tail) {
        Map<String, Object> first = null;
        String firstName = null;
        List<String> found = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Map<String, Object> s = settings.apply(runs.get(i));
            if (s.isEmpty()) {
                continue;
            }
            if (first == null) {
                first = s;
                firstName = names.get(i);
                continue;
            }
            for (Map.Entry<String, Object> e : s.entrySet()) {
                if (first.containsKey(e.getKey()) && !Objects.equals(first.get(e.getKey()), e.getValue())) {
                    found.add(names.get(i) + " has " + e.getKey() + " " + e.getValue() + " (" + firstName + ": " + first.get(e.getKey()) + ")");
                }
            }
        }
        return found.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of("note: " + head + ": " + String.join("; ", found) + tail);
    }

    private static Map<String, Object> serverSettings(RunData run) {
        Map<String, Object> out = new LinkedHashMap<>();
        BackendInfo backend = run.manifest().flatMap(Manifest::backend).orElse(null);
        if (backend != null && backend.server() != null) {
            backend.server().forEach((k, v) -> {
                if (IDENTITY_KEYS.contains(k) || v == null || v instanceof List) {
                    return;
                }
                if (k.equals("serverSettings") && v instanceof Map<?, ?> settings) {
                    // the server's own configuration (innodb_flush_log_at_trx_commit, the buffer pool): another server if it differs
                    settings.forEach((name, value) -> out.put(name.toString(), value));
                } else if (!(v instanceof Map)) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }

    private static Map<String, Object> host(RunData run) {
        Map<String, Object> out = new LinkedHashMap<>();
        run.manifest().flatMap(Manifest::host).ifPresent(h -> {
            out.put("host", h.name());
            out.put("cpus", h.cpus());
        });
        return out;
    }
}
