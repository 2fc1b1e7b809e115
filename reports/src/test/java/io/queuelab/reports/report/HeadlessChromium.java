package io.queuelab.reports.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An HTML report as Debian's headless {@code chromium} renders it: the page's console messages and,
 * per {@code <figure>}, the size of its SVG's drawn content and how many of its shapes have a size. The report is loaded in an iframe of a
 * small page beside it whose script measures it after it loaded (file access between the two is
 * allowed by --allow-file-access-from-files); Chromium prints that page's DOM and, on stderr, every
 * console message of either page. No network: the flags keep Chromium from calling home.
 */
final class HeadlessChromium {
    private static final Pattern CONSOLE = Pattern.compile(":CONSOLE[:(]");
    private static final Pattern RESULT = Pattern.compile("<pre id=\"result\">(.*?)</pre>", Pattern.DOTALL);

    /** The figures of the rendered page (id, content width and height in CSS pixels) and its console messages. */
    record Rendering(List<Figure> figures, List<String> console) {
    }

    /** @param shapes the SVG's paths, polylines, lines, circles and uses (references to a path drawn before) drawn with a size */
    record Figure(String id, double width, double height, int shapes) {
    }

    private HeadlessChromium() {
    }

    /** Chromium's path, or null when it is not installed. */
    static Path find() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    static Rendering render(Path chromium, Path html) throws IOException, InterruptedException {
        Path dir = html.toAbsolutePath().getParent();
        Path wrapper = Files.writeString(dir.resolve("chromium-measure.html"), """
                <!DOCTYPE html><html><body><iframe id="r" src="%s" width="1200" height="900"></iframe>
                <script>
                window.addEventListener('load', () => {
                  const d = document.getElementById('r').contentDocument;
                  const figures = d ? [...d.querySelectorAll('figure')].map(f => {
                    const svg = f.querySelector('svg');
                    const box = svg ? svg.getBBox() : {width: 0, height: 0};
                    const shapes = svg ? [...svg.querySelectorAll('path, polyline, line, circle, use')]
                        .filter(e => { const b = e.getBBox(); return b.width > 0 || b.height > 0; }).length : 0;
                    return {id: f.id, width: box.width, height: box.height, shapes};
                  }) : null;
                  const out = document.createElement('pre');
                  out.id = 'result';
                  out.textContent = JSON.stringify({figures});
                  document.body.appendChild(out);
                });
                </script></body></html>
                """.formatted(html.getFileName()));
        Path profile = Files.createTempDirectory("chromium-profile");
        Path stdout = dir.resolve("chromium-dom.txt");
        Path stderr = dir.resolve("chromium-stderr.txt");
        try {
            Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--user-data-dir=" + profile, "--allow-file-access-from-files", "--enable-logging=stderr", "--v=0",
                    "--virtual-time-budget=10000", "--dump-dom", wrapper.toUri().toString())
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("chromium did not render " + html + " within 120 s");
            }
            Matcher m = RESULT.matcher(Files.readString(stdout));
            if (!m.find()) {
                throw new AssertionError("chromium (exit " + p.exitValue() + ") printed no measurement; stderr: "
                        + Files.readString(stderr));
            }
            JsonNode result = new ObjectMapper().readTree(m.group(1).replace("&quot;", "\"").replace("&amp;", "&"));
            if (result.path("figures").isNull()) {
                throw new AssertionError("the measuring page could not read the report (file access refused)");
            }
            List<Figure> figures = new java.util.ArrayList<>();
            for (JsonNode f : result.path("figures")) {
                figures.add(new Figure(f.path("id").asText(), f.path("width").asDouble(), f.path("height").asDouble(),
                        f.path("shapes").asInt()));
            }
            List<String> console = Files.readAllLines(stderr).stream().filter(l -> CONSOLE.matcher(l).find()).toList();
            return new Rendering(List.copyOf(figures), console);
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }
}
