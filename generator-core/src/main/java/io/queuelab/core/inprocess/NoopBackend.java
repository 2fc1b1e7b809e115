package io.queuelab.core.inprocess;

import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;

import java.util.Map;

/**
 * Backends that complete every request at once, to measure the generator's own cost.
 * {@link #sync()} completes on the worker; {@link #async()} calls the completion inside execute.
 */
public final class NoopBackend {
    private NoopBackend() {
    }

    private static final OperationMix MIX = OperationMix.single("noop");

    public static SyncBackend sync() {
        return new SyncBackend() {
            @Override
            public SyncSession openSession(int worker, long seed) {
                return operation -> { };
            }

            @Override
            public OperationMix operations() {
                return MIX;
            }

            @Override
            public Map<String, Object> describe() {
                return Map.of("name", "noop");
            }

            @Override
            public void close() {
            }
        };
    }

    public static AsyncBackend async() {
        return new AsyncBackend() {
            @Override
            public AsyncSession openSession(long seed) {
                return (operation, completion) -> completion.succeeded();
            }

            @Override
            public OperationMix operations() {
                return MIX;
            }

            @Override
            public Map<String, Object> describe() {
                return Map.of("name", "noop-async");
            }

            @Override
            public void close() {
            }
        };
    }
}
