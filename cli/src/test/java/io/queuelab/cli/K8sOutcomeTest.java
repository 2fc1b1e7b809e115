package io.queuelab.cli;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** How a generator pod's status is told: ended (and how) or not yet, before and at the deadline. */
class K8sOutcomeTest {
    private static final Instant DEADLINE = Instant.parse("2026-11-26T12:03:04Z");

    private static PodBuilder pod(String phase) {
        return new PodBuilder().withNewMetadata().withName("queuelab-x-1-abcde").endMetadata()
                .withNewSpec().withNodeName("worker-2").endSpec().withNewStatus().withPhase(phase).endStatus();
    }

    private static Pod terminated(String phase, int code, String reason) {
        return pod(phase).editStatus().addNewContainerStatus().withName("generator").withNewState().withNewTerminated()
                .withExitCode(code).withReason(reason).endTerminated().endState().endContainerStatus().endStatus().build();
    }

    private static String cause(Pod pod, boolean started, Instant deadline) {
        K8sJob.Outcome o = K8sJob.outcome(1, pod, started, deadline);
        return o == null ? null : o.cause() == null ? "succeeded" : o.cause();
    }

    @Test
    void endedPods() {
        assertEquals("succeeded", cause(terminated("Succeeded", 0, "Completed"), true, null));
        assertEquals("succeeded", cause(terminated("Running", 0, "Completed"), true, null), "exit 0 before the phase");
        assertEquals("pod 1 failed: OOMKilled", cause(terminated("Failed", 137, "OOMKilled"), true, null));
        assertEquals("pod 1 failed: killed by signal 9", cause(terminated("Failed", 137, "Error"), true, null));
        assertEquals("pod 1 failed: exited with status 2", cause(terminated("Failed", 2, "Error"), true, null));
        assertEquals("pod 1 failed: Evicted: The node was low on resource: memory.", cause(pod("Failed").editStatus()
                .withReason("Evicted").withMessage("The node was low on resource: memory.").endStatus().build(), true, null));
        K8sJob.Outcome o = K8sJob.outcome(1, terminated("Failed", 137, "OOMKilled"), true, null);
        assertEquals("queuelab-x-1-abcde", o.pod());
        assertEquals("worker-2", o.host());
    }

    @Test
    void podsNotEndedYetAndAtTheDeadline() {
        Pod pending = pod("Pending").build();
        Pod pulling = pod("Pending").editStatus().addNewContainerStatus().withName("generator").withNewState().withNewWaiting()
                .withReason("ErrImagePull").endWaiting().endState().endContainerStatus().endStatus().build();
        Pod unschedulable = pod("Pending").editStatus().addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").endCondition().endStatus().build();
        Pod running = pod("Running").editStatus().addNewContainerStatus().withName("generator").withNewState().withNewRunning()
                .endRunning().endState().endContainerStatus().endStatus().build();
        assertNull(cause(pulling, false, null), "before the start instant an image may still come");
        assertEquals("pod 1 never started: ErrImagePull", cause(pulling, true, null));
        assertEquals("pod 1 never started: Unschedulable", cause(unschedulable, true, null));
        assertNull(cause(pending, true, null));
        assertNull(cause(running, true, null));
        assertNull(cause(null, true, null));
        assertEquals("pod 1 never started: still Pending at the deadline 12:03:04", cause(pending, true, DEADLINE));
        assertEquals("pod 1 still running at the deadline 12:03:04 (planned end + drain timeout + margin)",
                cause(running, true, DEADLINE));
        assertEquals("pod 1 never started: no pod by the deadline 12:03:04", cause(null, true, DEADLINE));
    }
}
