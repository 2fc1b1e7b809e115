package io.queuelab.reports.text;

import io.queuelab.fit.Identification;
import io.queuelab.fit.ModelFit;
import io.queuelab.fit.Parameter;
import io.queuelab.fit.Residual;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the fit table shows: the parameters of an identified fit; for an unidentified one, the reason in their place. */
class FitTablesTest {
    private static final List<Parameter> PARAMETERS = List.of(Parameter.of("x", 0.0123, "s"), Parameter.of("l", 0.00045, "s"));
    private static final List<Residual> RESIDUALS = List.of(new Residual("rate-100", 100, 0.0021, 0.0020),
            new Residual("rate-200", 200, 0.0032, 0.0033));

    @Test
    void anIdentifiedFitShowsItsParametersAndResiduals() {
        String table = FitTables.of(new ModelFit("mm1", "least squares", PARAMETERS, RESIDUALS, l -> 0.002,
                new Identification(null, List.of("utilization up to 0.8"))));
        assertTrue(table.startsWith("mm1 - least squares\n  identified (utilization up to 0.8)\n"), table);
        assertTrue(table.matches("(?s).*\\n\\s+x\\s+0\\.01230*\\s+\\+- .*"), table);
        assertTrue(table.matches("(?s).*\\n\\s+rate-200\\s+200\\.0\\s+0\\.00320+\\s+0\\.00330+\\s+-?3\\.1[23]%\\n.*"), table);
    }

    @Test
    void anUnidentifiedFitShowsTheReasonAndNoParameterValue() {
        String table = FitTables.of(new ModelFit("mm1", "least squares", PARAMETERS, RESIDUALS, l -> Double.NaN,
                new Identification("the mean response falls as the rate rises", List.of())));
        assertTrue(table.contains("not identified: the mean response falls as the rate rises"), table);
        assertFalse(table.matches("(?s).*\\n\\s+(x|l)\\s+[-0-9].*"), "no parameter values in\n" + table);
        assertFalse(table.contains("0.0123"), table);
        assertTrue(table.contains("rate-100") && table.contains("rate-200"), "the measured points stay: " + table);
    }
}
