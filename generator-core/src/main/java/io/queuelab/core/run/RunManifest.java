package io.queuelab.core.run;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.backend.Backend;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.log.Manifest;
import io.queuelab.core.schedule.Phase;

import java.net.InetAddress;
import java.util.Map;

/** Fills the sections of a measured run's manifest that are known before the first request. */
final class RunManifest {
    private RunManifest() {
    }

    static void describe(Manifest manifest, RunConfig config, Map<String, ?> settings, Backend backend) {
        manifest.root().put("queuelabVersion", version());
        ObjectNode c = manifest.section("config");
        c.put("loop", config.plan().closedLoop() ? "closed" : "open");
        c.put("arrivals", config.plan().arrivals().name().toLowerCase());
        c.put("meanThinkTimeSeconds", config.plan().meanThinkTime().toNanos() / 1e9);
        if (config.plan().finiteWork()) {
            c.put("requestsPerJob", config.plan().requestsPerJob());
        }
        ArrayNode phases = c.putArray("phases");
        for (Phase p : config.plan().phases()) {
            ObjectNode n = phases.addObject();
            n.put("name", p.name());
            n.put("durationSeconds", p.duration().toNanos() / 1e9);
            if (p.closedLoop()) {
                n.put("concurrency", p.concurrency());
            } else {
                n.put("rate", p.rate());
            }
            n.put("warmup", p.warmup());
        }
        c.put("workers", config.workers());
        c.put("queueBound", config.queueBound());
        c.put("inFlightBound", config.inFlightBound());
        c.put("seed", config.seed());
        c.put("reportIntervalSeconds", config.reportInterval().toNanos() / 1e9);
        c.put("drainTimeoutSeconds", config.drainTimeout().toNanos() / 1e9);
        if (config.startAt() != null) {
            c.put("startAt", config.startAt().toString());
        }
        manifest.put("settings", settings);
        ObjectNode node = manifest.section("node");
        node.put("index", config.nodeIndex());
        node.put("count", config.nodeCount());
        ObjectNode host = manifest.section("host");
        host.put("name", hostName());
        host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        host.put("cpus", Runtime.getRuntime().availableProcessors());
        ObjectNode jvm = manifest.section("jvm");
        jvm.put("version", System.getProperty("java.version"));
        jvm.put("vendor", System.getProperty("java.vendor"));
        jvm.put("vm", System.getProperty("java.vm.name"));
        jvm.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        ObjectNode b = manifest.section("backend");
        b.put("kind", backend instanceof SyncBackend ? "sync" : "async");
        ArrayNode ops = b.putArray("operations");
        for (int i = 0; i < backend.operations().size(); i++) {
            ops.addObject().put("name", backend.operations().names().get(i))
                    .put("probability", backend.operations().probability(i));
        }
    }

    static String version() {
        String v = RunManifest.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-SNAPSHOT";
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
