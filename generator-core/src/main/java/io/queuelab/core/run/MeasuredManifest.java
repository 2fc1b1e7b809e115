package io.queuelab.core.run;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.HostInfo;
import io.queuelab.core.manifest.JvmInfo;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.RunNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Fills the sections of a measured run's manifest that are known before the first request. */
final class MeasuredManifest {
    private MeasuredManifest() {
    }

    static Manifest describe(RunConfig config, Map<String, ?> settings, Backend backend) {
        List<BackendInfo.Operation> operations = new ArrayList<>();
        for (int i = 0; i < backend.operations().size(); i++) {
            operations.add(new BackendInfo.Operation(backend.operations().names().get(i), backend.operations().probability(i)));
        }
        return Manifest.create(Manifest.MEASURED)
                .queuelabVersion(version())
                .config(LoadConfig.of(config.plan(), config.workers(), config.queueBound(), config.inFlightBound(),
                        config.seed(), config.reportInterval().toNanos() / 1e9, config.drainTimeout().toNanos() / 1e9,
                        config.startAt() == null ? null : config.startAt().toString()))
                .settings(settings)
                .node(RunNode.single(config.nodeIndex(), config.nodeCount()))
                .host(HostInfo.current())
                .jvm(JvmInfo.current())
                .backend(new BackendInfo(backend instanceof SyncBackend ? "sync" : "async", operations, null));
    }

    static String version() {
        String v = MeasuredManifest.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-SNAPSHOT";
    }
}
