package io.queuelab.core.manifest;

/**
 * The manifest's {@code node} section: which generator node of a distributed run wrote it.
 *
 * @param index  the node's index ({@code --node-index}); null in a merged run
 * @param count  the nodes of the run ({@code --node-count})
 * @param merged true in a run merged from its nodes' runs ({@code queuelab merge}); null otherwise
 */
public record RunNode(Integer index, int count, Boolean merged) {
    public static RunNode single(int index, int count) {
        return new RunNode(index, count, null);
    }

    public static RunNode mergedFrom(int count) {
        return new RunNode(null, count, true);
    }

    public boolean mergedRun() {
        return Boolean.TRUE.equals(merged);
    }
}
