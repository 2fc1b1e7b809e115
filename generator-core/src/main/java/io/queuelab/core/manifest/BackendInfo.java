package io.queuelab.core.manifest;

import java.util.List;
import java.util.Map;

/**
 * The manifest's {@code backend} section: what the requests were sent to.
 *
 * @param kind       {@code sync} (one thread per request in flight) or {@code async}
 * @param operations the operation mix, in operation-code order (code i is {@code operations[i]})
 * @param server     what the backend says about its server (version, settings), free-form by
 *                   backend; null until the sessions are open, and when it says nothing
 */
public record BackendInfo(String kind, List<Operation> operations, Map<String, Object> server) {
    public BackendInfo {
        operations = operations == null ? List.of() : List.copyOf(operations);
    }

    public BackendInfo withServer(Map<String, Object> description) {
        return new BackendInfo(kind, operations, description);
    }

    /** An operation and the probability that a request is one. */
    public record Operation(String name, double probability) {
    }
}
