package io.queuelab.reports.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compact SVG draws what the export drew: the same points, fewer bytes. */
class CompactSvgTest {

    @Test
    void pathDataBecomesRelativeInTenthsOfAPixelWithoutDrift() {
        assertEquals("M10.3 20h4.7v5q1 1 2 0zm-9.3-19l1 1",
                CompactSvg.relative("M10.25,20 L15,20 L15,25 Q16,26 17,25 Z M1,1 L2,2"));
        // 1,000 steps of 0.1 end exactly 100 px further
        StringBuilder d = new StringBuilder("M0,0");
        for (int i = 1; i <= 1000; i++) {
            d.append(" L").append(i / 10.0).append(",0.04");
        }
        String relative = CompactSvg.relative(d.toString());
        assertEquals("M0 0h" + ".1".repeat(1000), relative); // repeated h needs no letter; y 0.04 rounds to 0
    }

    @Test
    void joinedSegmentsAndMarkersKeepTheirPointsAndStyle() {
        String svg = "<svg>\n<line style=\"stroke:red;\" x1=\"1\" x2=\"2\" y1=\"5\" y2=\"6\"/>\n"
                + "<line style=\"stroke:red;\" x1=\"2\" x2=\"4\" y1=\"6\" y2=\"6\"/>\n"
                + "<ellipse cx=\"10\" cy=\"20\" rx=\"2\" ry=\"2\" style=\"fill:rgb(40,90,200);fill-opacity:0.35;stroke:none;\"/>\n"
                + "<ellipse cx=\"12.5\" cy=\"20\" rx=\"2\" ry=\"2\" style=\"fill:rgb(40,90,200);fill-opacity:0.35;stroke:none;\"/>\n</svg>";
        String compact = CompactSvg.compact(svg);
        assertTrue(compact.contains("<path d=\"M1 5l1 1h2\" style=\"stroke:red;\"/>"), compact);
        assertTrue(compact.contains("<path d=\"M10 20v0m2.5 0v0\" style=\"fill:none;stroke:rgb(40,90,200);stroke-opacity:0.35;"
                + "stroke-width:4;stroke-linecap:round;\"/>"), compact);
    }

    @Test
    void aPathAlreadyDrawnOnThePageIsDrawnAgainByReference() {
        String text = "M5.7-4.9q.4-.6.9-.9.5-.4 1.2-.4 1 0 1.5.7.5.7.5 1.9v3.6h-1v-3.6q0-.9-.3-1.3-.3-.4-1-.4z";
        String black = "fill:rgb(0,0,0);stroke:none;";
        String chart = "<svg><g transform=\"translate(10 20)\">\n<path d=\"" + text + "\" style=\"" + black + "\"/>\n</g>"
                + "<g transform=\"translate(30 40)\">\n<path d=\"" + text + "\" style=\"fill:rgb(255,0,0);stroke:none;\"/>\n</g>"
                + "<path d=\"M1 1h2\" style=\"" + black + "\"/><path d=\"M1 1h2\" style=\"" + black + "\"/></svg>";
        java.util.Map<String, String> drawn = new java.util.HashMap<>();
        String first = CompactSvg.shareRepeatedPaths(chart, drawn);
        // within the first chart: the red copy is another drawing, the short path is cheaper repeated
        assertTrue(first.contains("<path id=\"qlo0\" d=\"" + text + "\" style=\"" + black + "\"/>"), first);
        assertTrue(first.contains("<path id=\"qlo1\" d=\"" + text + "\" style=\"fill:rgb(255,0,0);stroke:none;\"/>"), first);
        assertEquals(2, first.split("<path d=\"M1 1h2\"", -1).length - 1, first);
        // a second chart on the page draws both by reference, in its own group's place
        String second = CompactSvg.shareRepeatedPaths(chart, drawn);
        assertTrue(second.contains("<g transform=\"translate(10 20)\">\n<use xlink:href=\"#qlo0\"/>\n</g>"), second);
        assertTrue(second.contains("<use xlink:href=\"#qlo1\"/>"), second);
        assertTrue(!second.contains(text) && second.length() < first.length() - text.length(), second);
    }
}
