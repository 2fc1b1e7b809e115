package io.queuelab.core.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class whose assertions other work on the machine can move: a generator's timing verdict, a
 * latency, rate or cpu share measured against a known truth, a claim judged by {@code QuietMachine}.
 * While such a class runs, no other test class of this machine's test JVMs runs ({@link TestLanes}):
 * the suite runs its modules and test classes side by side, and these have the cores to themselves.
 * A class that only needs a server to answer, or that simulates, does not carry it. Its tag,
 * {@code timing-sensitive}, makes Maven run a module's timing-sensitive classes after its others, in a
 * JVM of their own (the parent pom's surefire executions), and lets {@code scripts/test} run every
 * module's first, one at a time, before the rest side by side.
 */
@Tag("timing-sensitive")
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface TimingSensitive {
}
