package io.queuelab.cli;

import io.queuelab.jdbc.qos.QosSchema;
import io.queuelab.jdbc.qos.QosWriteGrid;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rows of grid-host.csv: a figure not measured (NaN) is an empty field, as the class promises, not "NaN". */
class QosWriteHostTest {
    private static QosWriteGrid.CellResult cell() {
        return new QosWriteGrid.CellResult(new QosWriteGrid.Cell(QosSchema.THREE, 2, 3), 0.5, List.of(1.0, 1.2), 1.1, 0.05, true);
    }

    @Test
    void aFigureNotMeasuredIsAnEmptyField() {
        QosWriteHost.CellHost measured = new QosWriteHost.CellHost(cell(), 46.25, 12.5, 20480, 123456789, 10.5, 3.25, 0.5, 12.25);
        assertEquals("3,2,3,46.25,12.50,20480,123456789,10.50,3.25,0.50,12.3\n", QosWriteHost.row(measured));
        // a round too short for two samples, and no host-sar.csv
        QosWriteHost.CellHost none = new QosWriteHost.CellHost(cell(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NaN);
        assertEquals("3,2,3,,,,,,,,\n", QosWriteHost.row(none));
    }
}
