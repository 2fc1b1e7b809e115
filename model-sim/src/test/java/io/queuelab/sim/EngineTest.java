package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each model names the engine that simulates it, with its own parameters. */
class EngineTest {

    @Test
    void fcfsModelsRunOnTheFcfsServerAndOnlyTheBufferModelFlushes() {
        Distribution service = Distribution.exponential(0.01);
        Engine.Fcfs mm1 = assertInstanceOf(Engine.Fcfs.class, new MM1Model(service).engine());
        assertSame(service, mm1.service);
        assertNull(mm1.delay);
        assertFalse(mm1.flushes());

        DirtyPageBufferModel table1 = DirtyPageBufferModel.table1();
        Engine.Fcfs dpb = assertInstanceOf(Engine.Fcfs.class, table1.engine());
        assertSame(table1.networkDelay(), dpb.delay);
        assertSame(table1.processing(), dpb.service);
        assertEquals(111, dpb.bufferPages);
        assertTrue(dpb.flushes());
    }

    @Test
    void sharingModelsRunOnTheProcessorSharingServerTheLoadDependentOneWithItsSpeedAndCapacity() {
        Engine.ProcessorSharing ps = assertInstanceOf(Engine.ProcessorSharing.class,
                ProcessorSharingModel.exponential(0.01).engine());
        assertEquals(Integer.MAX_VALUE, ps.capacity);
        assertNull(ps.speed);
        assertFalse(ps.flushes());

        LoadDependentModel model = LoadDependentModel.exponential(0.01, 0.05, 40);
        Engine.ProcessorSharing ld = assertInstanceOf(Engine.ProcessorSharing.class, model.engine());
        assertEquals(40, ld.capacity);
        assertEquals(model.speed(7), ld.speed.applyAsDouble(7));
        assertFalse(ld.flushes());
    }
}
