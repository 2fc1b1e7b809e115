package io.queuelab.reports.report;

import io.queuelab.core.log.AtomicFile;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A chart written as a PNG file whole or not at all ({@link AtomicFile}): a full disk leaves no
 * PNG cut short or empty, and the failure names the file.
 */
public final class PngFile {
    private PngFile() {
    }

    public static void write(Path file, Chart<?, ?> chart) throws IOException {
        // encoded first: ImageIO's own writing hides a full disk behind "I/O error writing PNG file!",
        // and BitmapEncoder.saveBitmap would add ".png" to the temporary file's name
        byte[] bytes = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        AtomicFile.replace(file, tmp -> Files.write(tmp, bytes));
    }
}
