package io.queuelab.fit;

/** One row of a residual table: the point, the model's value there, and measured - fitted. */
public record Residual(String name, double x, double measured, double fitted) {

    public double residual() {
        return measured - fitted;
    }

    /** (measured - fitted) / measured. */
    public double relative() {
        return residual() / measured;
    }
}
